/* The Llama family's rows of the family table (family.h): Llama (SmolLM2,
 * TinyLlama, Llama 3.2), Qwen2 (Qwen2.5) and Qwen3. One config reader and
 * one parameter table, with what differs between the three as data.
 *
 * config.json as transformers writes it: hidden_size, intermediate_size,
 * num_hidden_layers, num_attention_heads, num_key_value_heads (default: the
 * query heads; it must divide them), head_dim (default hidden_size / heads;
 * Qwen3's 128), max_position_embeddings, vocab_size, rms_norm_eps,
 * hidden_act (silu), tie_word_embeddings (default false), attention_bias,
 * mlp_bias (refused), use_sliding_window (refused when true), and RoPE:
 * rope_theta with rope_scaling, or transformers 5's rope_parameters (which
 * holds rope_theta and the scaling's fields together). Scaling types read:
 * none ("default") and "llama3"; any other is one line naming it.
 *
 * Tensors (torch's Linear: (out, in)): model.embed_tokens.weight; per layer
 * model.layers.L.input_layernorm, self_attn.{q,k,v,o}_proj (+ .bias for
 * Qwen2's q, k, v and attention_bias), self_attn.{q,k}_norm (Qwen3),
 * post_attention_layernorm, mlp.{gate,up,down}_proj; model.norm.weight;
 * lm_head.weight unless tied.
 */
#include "family.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "../json/json_strict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct Variant {
    double theta, eps; /* defaults */
    int head_dim;      /* default head_dim, or 0: hidden_size / heads */
    int positions, vocab;
    bool qkv_bias;   /* always (Qwen2) */
    bool head_norms; /* q_norm and k_norm (Qwen3) */
    bool sliding;    /* has use_sliding_window */
} Variant;

static const Variant llama = {10000, 1e-6, 0, 2048, 32000, false, false, false};
static const Variant qwen2 = {10000, 1e-6, 0, 32768, 151936, true, false, true};
static const Variant qwen3 = {10000, 1e-6, 128, 32768, 151936, false, true, true};

static const Variant *variant(const Model_Config *c) {
    return c->family == &model_family_qwen2   ? &qwen2
           : c->family == &model_family_qwen3 ? &qwen3
                                              : &llama;
}

/* A number above lo and below hi, or `missing` when absent. */
static bool number(const cJSON *root, const char *key, double lo, double hi, double missing,
                   const char *name, double *dest, char *err, size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v || cJSON_IsNull(v)) {
        *dest = missing;
        return true;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble > lo && v->valuedouble < hi))
        return text_fail(err, errsz, _("%s: \"%s\" must be a number above %g and below %g"), name,
                         key, lo, hi);
    *dest = v->valuedouble;
    return true;
}

static bool flag(const cJSON *root, const char *key, bool missing, const char *name, bool *dest,
                 char *err, size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v || cJSON_IsNull(v)) {
        *dest = missing;
        return true;
    }
    if (!cJSON_IsBool(v))
        return text_fail(err, errsz, _("%s: \"%s\" must be true or false"), name, key);
    *dest = cJSON_IsTrue(v);
    return true;
}

/* Llama 3's scaled frequencies (transformers' _compute_llama3_parameters):
 * long wavelengths slowed by factor, short ones kept, those between blended. */
static void llama3_frequencies(Model_Config *c, double factor, double low, double high,
                               double original) {
    int d = c->net.head_dim;
    double low_wavelen = original / low, high_wavelen = original / high;
    for (int k = 0; k < d / 2; k++) {
        double f = (double)(float)(1 / pow(c->net.rope_theta, (double)(2 * k) / d));
        double wavelen = 2 * 3.14159265358979323846 / f,
               scaled = wavelen > low_wavelen ? f / factor : f;
        if (!(wavelen < high_wavelen) && !(wavelen > low_wavelen)) {
            double smooth = (original / wavelen - low) / (high - low);
            scaled = (1 - smooth) * scaled / factor + smooth * scaled;
        }
        c->rope_freq[k] = (float)scaled;
    }
    c->rope_scaled = true;
}

/* RoPE's base and scaling: rope_parameters (transformers 5) or rope_theta and
 * rope_scaling (4.x). */
static bool rope(const cJSON *root, const Variant *v, const char *name, Model_Config *c, char *err,
                 size_t errsz) {
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "rope_parameters");
    const cJSON *scaling = cJSON_GetObjectItemCaseSensitive(root, "rope_scaling");
    const cJSON *from = params && !cJSON_IsNull(params) ? params : root;
    if (params && !cJSON_IsNull(params) && !cJSON_IsObject(params))
        return text_fail(err, errsz, _("%s: \"%s\" must be an object"), name, "rope_parameters");
    if (!number(from, "rope_theta", 0, 1e12, v->theta, name, &c->net.rope_theta, err, errsz))
        return false;
    const cJSON *s = from == params ? params : scaling;
    if (!s || cJSON_IsNull(s)) return true;
    if (!cJSON_IsObject(s))
        return text_fail(err, errsz, _("%s: \"%s\" must be an object"), name, "rope_scaling");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(s, "rope_type");
    if (!type) type = cJSON_GetObjectItemCaseSensitive(s, "type");
    const char *t = cJSON_IsString(type) ? type->valuestring : "default";
    if (!strcmp(t, "default")) return true;
    if (strcmp(t, "llama3")) {
        char shown[60];
        text_escape(t, strlen(t), shown, sizeof shown);
        return text_fail(err, errsz,
                         _("%s: RoPE scaling \"%s\" is not computed: attnlab reads none and "
                           "\"llama3\""),
                         name, shown);
    }
    double factor, low, high, original;
    if (!number(s, "factor", 0, 1e6, 8, name, &factor, err, errsz) ||
        !number(s, "low_freq_factor", 0, 1e6, 1, name, &low, err, errsz) ||
        !number(s, "high_freq_factor", 0, 1e6, 4, name, &high, err, errsz) ||
        !number(s, "original_max_position_embeddings", 0, 1e9, 8192, name, &original, err, errsz))
        return false;
    if (!(high > low))
        return text_fail(err, errsz,
                         _("%s: RoPE's high_freq_factor must be above its "
                           "low_freq_factor"),
                         name);
    llama3_frequencies(c, factor, low, high, original);
    return true;
}

/* A token id of the vocabulary, or −1. */
static int whole_id(const cJSON *v, int vocab) {
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < vocab) ||
        v->valuedouble != floor(v->valuedouble))
        return -1;
    return (int)v->valuedouble;
}

/* bos_token_id: a number, or a list (its first), or none. */
static int token_id(const cJSON *root, const char *key, int vocab) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    return whole_id(cJSON_IsArray(v) ? v->child : v, vocab);
}

/* eos_token_id: a number or a list of them (Llama 3's instruct models end a
 * turn with any of three). An entry that is no id of the vocabulary can never
 * be written, so it stops nothing and is passed over. */
static bool eos_ids(const cJSON *root, const char *name, Model_Config *c, int vocab, char *err,
                    size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "eos_token_id");
    c->eos_n = 0;
    if (cJSON_IsArray(v) && cJSON_GetArraySize(v) > MODEL_MAX_EOS)
        return text_fail(err, errsz,
                         _("%s: eos_token_id lists %d tokens: attnlab takes %d at most"), name,
                         cJSON_GetArraySize(v), MODEL_MAX_EOS);
    const cJSON *e = cJSON_IsArray(v) ? v->child : v;
    for (; e; e = cJSON_IsArray(v) ? e->next : NULL) {
        int id = whole_id(e, vocab);
        if (id >= 0) c->eos_ids[c->eos_n++] = id;
    }
    return true;
}

static bool llama_config(const char *text, size_t len, const char *name, Model_Config *c, char *err,
                         size_t errsz, const Model_Family *row) {
    cJSON *root = json_read_strict(text, len, name, _("the config"), err, errsz);
    if (!root) return false;
    c->family = row;
    const Variant *v = variant(c);
    Net_Model *m = &c->net;
    bool ok = false, attention_bias = false, mlp_bias = false, sliding = false;
    double eps;
    int positions;
    if (!model_config_whole(root, "num_hidden_layers", 1, MODEL_MAX_LAYERS, -1, name, &m->layers,
                            err, errsz) ||
        !model_config_whole(root, "num_attention_heads", 1, MODEL_MAX_HEADS, -1, name, &m->heads,
                            err, errsz) ||
        !model_config_whole(root, "hidden_size", 1, MODEL_MAX_WIDTH, -1, name, &m->width, err,
                            errsz) ||
        !model_config_whole(root, "intermediate_size", 1, MODEL_MAX_INNER, -1, name, &m->inner, err,
                            errsz) ||
        !model_config_whole(root, "num_key_value_heads", 1, MODEL_MAX_HEADS, m->heads, name,
                            &m->kv_heads, err, errsz) ||
        !model_config_whole(root, "max_position_embeddings", 1, 1 << 24, v->positions, name,
                            &positions, err, errsz) ||
        !model_config_whole(root, "vocab_size", 1, MODEL_MAX_VOCAB, v->vocab, name, &m->vocab, err,
                            errsz) ||
        !number(root, "rms_norm_eps", 0, 1, v->eps, name, &eps, err, errsz) ||
        !flag(root, "tie_word_embeddings", false, name, &c->tied, err, errsz) ||
        !flag(root, "attention_bias", false, name, &attention_bias, err, errsz) ||
        !flag(root, "mlp_bias", false, name, &mlp_bias, err, errsz) ||
        !flag(root, "use_sliding_window", false, name, &sliding, err, errsz))
        goto done;
    int default_dim = v->head_dim ? v->head_dim : m->width / m->heads;
    if (!model_config_whole(root, "head_dim", 2, MODEL_MAX_HEAD_DIM, default_dim, name,
                            &m->head_dim, err, errsz))
        goto done;
    if (m->heads % m->kv_heads) {
        text_fail(err, errsz,
                  _("%s: num_attention_heads %d is not a multiple of num_key_value_heads %d"), name,
                  m->heads, m->kv_heads);
        goto done;
    }
    if (!v->head_dim && m->width % m->heads &&
        !cJSON_GetObjectItemCaseSensitive(root, "head_dim")) {
        text_fail(err, errsz, _("%s: hidden_size %d is not a multiple of num_attention_heads %d"),
                  name, m->width, m->heads);
        goto done;
    }
    if (m->head_dim % 2) {
        text_fail(err, errsz, _("%s: head_dim %d is odd: RoPE turns coordinates in pairs"), name,
                  m->head_dim);
        goto done;
    }
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(root, "hidden_act");
    if (act && (!cJSON_IsString(act) || strcmp(act->valuestring, "silu"))) {
        text_fail(err, errsz,
                  _("%s: hidden_act %.40s is not computed: the MLP is SwiGLU, with silu"), name,
                  cJSON_IsString(act) ? act->valuestring : "(not a string)");
        goto done;
    }
    if (mlp_bias) {
        text_fail(err, errsz, _("%s: mlp_bias is true: attnlab reads MLPs without biases"), name);
        goto done;
    }
    if (v->sliding && sliding) {
        text_fail(err, errsz,
                  _("%s: use_sliding_window is true: attnlab computes full causal attention "
                    "only"),
                  name);
        goto done;
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "num_experts") ||
        cJSON_GetObjectItemCaseSensitive(root, "num_local_experts")) {
        text_fail(err, errsz, _("%s: a mixture of experts is not computed"), name);
        goto done;
    }
    if (!rope(root, v, name, c, err, errsz)) goto done;
    m->norm = NET_NORM_RMS;
    m->eps = (float)eps;
    m->mlp = NET_MLP_SWIGLU;
    m->layout = NET_LAYOUT_OUT_IN;
    c->positions = positions;
    m->positions = positions < MODEL_MAX_CONTEXT ? positions : MODEL_MAX_CONTEXT;
    c->bos_id = token_id(root, "bos_token_id", m->vocab);
    if (!eos_ids(root, name, c, m->vocab, err, errsz)) goto done;
    c->attention_bias = attention_bias;
    ok = true;
done:
    cJSON_Delete(root);
    return ok;
}

static bool llama_row_config(const char *text, size_t len, const char *name, Model_Config *c,
                             char *err, size_t errsz) {
    return llama_config(text, len, name, c, err, errsz, &model_family_llama);
}
static bool qwen2_row_config(const char *text, size_t len, const char *name, Model_Config *c,
                             char *err, size_t errsz) {
    return llama_config(text, len, name, c, err, errsz, &model_family_qwen2);
}
static bool qwen3_row_config(const char *text, size_t len, const char *name, Model_Config *c,
                             char *err, size_t errsz) {
    return llama_config(text, len, name, c, err, errsz, &model_family_qwen3);
}

static void put(Model_Param *p, int *k, const float **slot, uint64_t d0, uint64_t d1,
                const char *fmt, int layer) {
    if (p) {
        Model_Param *q = &p[*k];
        snprintf(q->name, sizeof q->name, fmt, layer);
        q->dims = d1 ? 2 : 1;
        q->shape[0] = d0;
        q->shape[1] = d1;
        q->slot = slot;
    }
    ++*k;
}

static int llama_row_params(const Model_Config *c, Model_Weights *w, Model_Param *p) {
    const Variant *v = variant(c);
    uint64_t d = (uint64_t)c->net.width, V = (uint64_t)c->net.vocab;
    uint64_t inner = (uint64_t)c->net.inner, dim = (uint64_t)c->net.head_dim;
    uint64_t q = (uint64_t)c->net.heads * dim, kv = (uint64_t)c->net.kv_heads * dim;
    bool qkv_bias = v->qkv_bias || c->attention_bias;
    Net_Model *m = &w->model;
    int k = 0;
    put(p, &k, &m->wte, V, d, "model.embed_tokens.weight", 0);
    for (int l = 0; l < c->net.layers; l++) {
        Net_Block *b = &w->blocks[l];
        put(p, &k, &b->norm1_w, d, 0, "model.layers.%d.input_layernorm.weight", l);
        put(p, &k, &b->q_w, q, d, "model.layers.%d.self_attn.q_proj.weight", l);
        put(p, &k, &b->k_w, kv, d, "model.layers.%d.self_attn.k_proj.weight", l);
        put(p, &k, &b->v_w, kv, d, "model.layers.%d.self_attn.v_proj.weight", l);
        if (qkv_bias) {
            put(p, &k, &b->q_b, q, 0, "model.layers.%d.self_attn.q_proj.bias", l);
            put(p, &k, &b->k_b, kv, 0, "model.layers.%d.self_attn.k_proj.bias", l);
            put(p, &k, &b->v_b, kv, 0, "model.layers.%d.self_attn.v_proj.bias", l);
        }
        if (v->head_norms) {
            put(p, &k, &b->q_norm, dim, 0, "model.layers.%d.self_attn.q_norm.weight", l);
            put(p, &k, &b->k_norm, dim, 0, "model.layers.%d.self_attn.k_norm.weight", l);
        }
        put(p, &k, &b->o_w, d, q, "model.layers.%d.self_attn.o_proj.weight", l);
        if (c->attention_bias)
            put(p, &k, &b->o_b, d, 0, "model.layers.%d.self_attn.o_proj.bias", l);
        put(p, &k, &b->norm2_w, d, 0, "model.layers.%d.post_attention_layernorm.weight", l);
        put(p, &k, &b->gate_w, inner, d, "model.layers.%d.mlp.gate_proj.weight", l);
        put(p, &k, &b->up_w, inner, d, "model.layers.%d.mlp.up_proj.weight", l);
        put(p, &k, &b->down_w, d, inner, "model.layers.%d.mlp.down_proj.weight", l);
    }
    put(p, &k, &m->normf_w, d, 0, "model.norm.weight", 0);
    if (!c->tied) put(p, &k, &m->unembed, V, d, "lm_head.weight", 0);
    return k;
}

const Model_Family model_family_llama = {.model_type = "llama",
                                         .name = "Llama",
                                         .architecture = "LlamaForCausalLM",
                                         .export_shape = true,
                                         .config = llama_row_config,
                                         .params = llama_row_params};
const Model_Family model_family_qwen2 = {.model_type = "qwen2",
                                         .name = "Qwen2",
                                         .architecture = "Qwen2ForCausalLM",
                                         .export_shape = true,
                                         .config = qwen2_row_config,
                                         .params = llama_row_params};
const Model_Family model_family_qwen3 = {.model_type = "qwen3",
                                         .name = "Qwen3",
                                         .architecture = "Qwen3ForCausalLM",
                                         .export_shape = true,
                                         .config = qwen3_row_config,
                                         .params = llama_row_params};
