/* GPT-2's config and tensors; see gpt2.h. */
#include "gpt2.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "../json/json_strict.h"

#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gpt2_config_parse(const char *text, size_t len, const char *name, Gpt2_Config *c, char *err,
                       size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the config"), err, errsz);
    if (!root) return false;
    Gpt2_Config out = {0};
    bool ok = false;
    if (!cJSON_IsObject(root)) {
        text_fail(err, errsz, _("%s: not a JSON object"), name);
        goto done;
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    if (type && (!cJSON_IsString(type) || strcmp(type->valuestring, "gpt2"))) {
        text_fail(err, errsz,
                  _("%s: model_type %s%.40s%s is not read: attnlab reads GPT-2-family checkpoints "
                    "(model_type \"gpt2\": gpt2, distilgpt2, gpt2-medium, …)"),
                  name, cJSON_IsString(type) ? "\"" : "",
                  cJSON_IsString(type) ? type->valuestring : "?", cJSON_IsString(type) ? "\"" : "");
        goto done;
    }
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "architectures");
    if (arch) {
        bool gpt2 = false;
        for (const cJSON *a = cJSON_IsArray(arch) ? arch->child : NULL; a; a = a->next)
            gpt2 |= cJSON_IsString(a) && !strncmp(a->valuestring, "GPT2", 4);
        if (!gpt2) {
            const cJSON *first = cJSON_IsArray(arch) ? arch->child : NULL;
            text_fail(
                err, errsz,
                _("%s: architectures %.40s is not read: attnlab reads GPT-2's (GPT2LMHeadModel)"),
                name, first && cJSON_IsString(first) ? first->valuestring : "(none)");
            goto done;
        }
    }
    if (!model_config_whole(root, "n_layer", 1, MODEL_MAX_LAYERS, -1, name, &out.n_layer, err,
                            errsz) ||
        !model_config_whole(root, "n_head", 1, MODEL_MAX_HEADS, -1, name, &out.n_head, err,
                            errsz) ||
        !model_config_whole(root, "n_embd", 1, GPT2_MAX_EMBD, -1, name, &out.n_embd, err, errsz) ||
        !model_config_whole(root, "n_positions", 1, GPT2_MAX_POSITIONS, -1, name, &out.n_positions,
                            err, errsz) ||
        !model_config_whole(root, "vocab_size", 1, GPT2_MAX_VOCAB, -1, name, &out.vocab_size, err,
                            errsz))
        goto done;
    if (out.n_embd % out.n_head) {
        text_fail(err, errsz, _("%s: n_embd %d is not a multiple of n_head %d"), name, out.n_embd,
                  out.n_head);
        goto done;
    }
    const cJSON *inner = cJSON_GetObjectItemCaseSensitive(root, "n_inner");
    if (inner && !cJSON_IsNull(inner)) {
        if (!model_config_whole(root, "n_inner", 1, GPT2_MAX_INNER, -1, name, &out.n_inner, err,
                                errsz))
            goto done;
    } else {
        out.n_inner = 4 * out.n_embd;
    }
    out.layer_norm_epsilon = 1e-5;
    const cJSON *eps = cJSON_GetObjectItemCaseSensitive(root, "layer_norm_epsilon");
    if (eps) {
        if (!cJSON_IsNumber(eps) || !(eps->valuedouble > 0 && eps->valuedouble < 1)) {
            text_fail(err, errsz,
                      _("%s: \"layer_norm_epsilon\" must be a number above 0 and below 1"), name);
            goto done;
        }
        out.layer_norm_epsilon = eps->valuedouble;
    }
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(root, "activation_function");
    if (act && (!cJSON_IsString(act) || strcmp(act->valuestring, "gelu_new"))) {
        text_fail(err, errsz,
                  _("%s: activation_function %.40s is not computed: the MLP uses GELU's tanh form "
                    "(\"gelu_new\"), GPT-2's"),
                  name, cJSON_IsString(act) ? act->valuestring : "(not a string)");
        goto done;
    }
    *c = out;
    ok = true;
done:
    cJSON_Delete(root);
    return ok;
}

/* The GPT-2 row: the config in common terms. */
static bool gpt2_row_config(const char *text, size_t len, const char *name, Model_Config *c,
                            char *err, size_t errsz) {
    Gpt2_Config g;
    if (!gpt2_config_parse(text, len, name, &g, err, errsz)) return false;
    c->net = (Net_Model){.layers = g.n_layer,
                         .heads = g.n_head,
                         .kv_heads = g.n_head,
                         .head_dim = g.n_embd / g.n_head,
                         .width = g.n_embd,
                         .inner = g.n_inner,
                         .positions = g.n_positions,
                         .vocab = g.vocab_size,
                         .norm = NET_NORM_LAYER,
                         .eps = (float)g.layer_norm_epsilon,
                         .mlp = NET_MLP_GELU,
                         .layout = NET_LAYOUT_IN_OUT};
    c->positions = g.n_positions;
    c->tied = true; /* unless lm_head.weight is there */
    return true;
}

static void put(Model_Param *p, int *k, const float **slot, bool optional, uint64_t d0, uint64_t d1,
                const char *fmt, int layer) {
    if (p) {
        Model_Param *q = &p[*k];
        snprintf(q->name, sizeof q->name, fmt, layer);
        q->dims = d1 ? 2 : 1;
        q->shape[0] = d0;
        q->shape[1] = d1;
        q->slot = slot;
        q->optional = optional;
    }
    ++*k;
}

/* GPT-2's tensors, Conv1D weights stored (in, out); lm_head optional (tied
 * to wte when absent); HF's attn.bias and attn.masked_bias buffers unread. */
static int gpt2_row_params(const Model_Config *c, Model_Weights *w, Model_Param *p) {
    uint64_t d = (uint64_t)c->net.width, V = (uint64_t)c->net.vocab;
    uint64_t inner = (uint64_t)c->net.inner;
    Net_Model *m = &w->model;
    int k = 0;
    put(p, &k, &m->wte, false, V, d, "wte.weight", 0);
    put(p, &k, &m->wpe, false, (uint64_t)c->net.positions, d, "wpe.weight", 0);
    for (int l = 0; l < c->net.layers; l++) {
        Net_Block *b = &w->blocks[l];
        put(p, &k, &b->norm1_w, false, d, 0, "h.%d.ln_1.weight", l);
        put(p, &k, &b->norm1_b, false, d, 0, "h.%d.ln_1.bias", l);
        put(p, &k, &b->qkv_w, false, d, 3 * d, "h.%d.attn.c_attn.weight", l);
        put(p, &k, &b->q_b, false, 3 * d, 0, "h.%d.attn.c_attn.bias", l);
        put(p, &k, &b->o_w, false, d, d, "h.%d.attn.c_proj.weight", l);
        put(p, &k, &b->o_b, false, d, 0, "h.%d.attn.c_proj.bias", l);
        put(p, &k, &b->norm2_w, false, d, 0, "h.%d.ln_2.weight", l);
        put(p, &k, &b->norm2_b, false, d, 0, "h.%d.ln_2.bias", l);
        put(p, &k, &b->up_w, false, d, inner, "h.%d.mlp.c_fc.weight", l);
        put(p, &k, &b->up_b, false, inner, 0, "h.%d.mlp.c_fc.bias", l);
        put(p, &k, &b->down_w, false, inner, d, "h.%d.mlp.c_proj.weight", l);
        put(p, &k, &b->down_b, false, d, 0, "h.%d.mlp.c_proj.bias", l);
    }
    put(p, &k, &m->normf_w, false, d, 0, "ln_f.weight", 0);
    put(p, &k, &m->normf_b, false, d, 0, "ln_f.bias", 0);
    put(p, &k, &m->unembed, true, V, d, "lm_head.weight", 0);
    return k;
}

/* c_attn's bias is Q's, K's and V's side by side. */
static void gpt2_row_finish(const Model_Config *c, Model_Weights *w) {
    for (int l = 0; l < c->net.layers; l++) {
        Net_Block *b = &w->blocks[l];
        b->k_b = b->q_b + c->net.width;
        b->v_b = b->q_b + 2 * c->net.width;
    }
}

const Model_Family model_family_gpt2 = {.model_type = "gpt2",
                                        .name = "GPT-2",
                                        .architecture = "GPT2LMHeadModel",
                                        .alias = "transformer.",
                                        .config = gpt2_row_config,
                                        .params = gpt2_row_params,
                                        .finish = gpt2_row_finish};
