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

/* A whole number field from lo to hi; `missing` is used when it is absent
 * (−1: it is required). */
static bool field(const cJSON *root, const char *key, int lo, int hi, int missing, const char *name,
                  int *dest, char *err, size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v) {
        if (missing < 0) return text_fail(err, errsz, _("%s: no \"%s\""), name, key);
        *dest = missing;
        return true;
    }
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(d >= lo && d <= hi) || d != floor(d))
        return text_fail(err, errsz, _("%s: \"%s\" must be a whole number from %d to %d"), name,
                         key, lo, hi);
    *dest = (int)d;
    return true;
}

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
    if (!field(root, "n_layer", 1, GPT2_MAX_LAYERS, -1, name, &out.n_layer, err, errsz) ||
        !field(root, "n_head", 1, GPT2_MAX_HEADS, -1, name, &out.n_head, err, errsz) ||
        !field(root, "n_embd", 1, GPT2_MAX_EMBD, -1, name, &out.n_embd, err, errsz) ||
        !field(root, "n_positions", 1, GPT2_MAX_POSITIONS, -1, name, &out.n_positions, err,
               errsz) ||
        !field(root, "vocab_size", 1, GPT2_MAX_VOCAB, -1, name, &out.vocab_size, err, errsz))
        goto done;
    if (out.n_embd % out.n_head) {
        text_fail(err, errsz, _("%s: n_embd %d is not a multiple of n_head %d"), name, out.n_embd,
                  out.n_head);
        goto done;
    }
    const cJSON *inner = cJSON_GetObjectItemCaseSensitive(root, "n_inner");
    if (inner && !cJSON_IsNull(inner)) {
        if (!field(root, "n_inner", 1, GPT2_MAX_INNER, -1, name, &out.n_inner, err, errsz))
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

/* The tensor called name, of exactly these dims (0 ends them). */
static const St_Tensor *need(const St_File *f, const char *name, uint64_t d0, uint64_t d1,
                             char *err, size_t errsz, bool *ok) {
    if (!*ok) return NULL;
    const St_Tensor *t = st_find(f, name);
    if (!t) {
        *ok = text_fail(err, errsz, _("%s: no tensor '%s' (or 'transformer.%s')"), f->path, name,
                        name);
        return NULL;
    }
    /* both names, perhaps with other bytes: which is the weight is not ours to guess */
    for (int k = 0; k < f->count; k++) {
        const char *other = f->tensors[k].name;
        const char *bare = strncmp(other, "transformer.", 12) ? other : other + 12;
        if (&f->tensors[k] != t && !strcmp(bare, name)) {
            *ok = text_fail(err, errsz,
                            _("%s: both '%s' and 'transformer.%s' are there: which one is the "
                              "weight is not clear"),
                            f->path, name, name);
            return NULL;
        }
    }
    int dims = d1 ? 2 : 1;
    if (t->dims != dims || t->shape[0] != d0 || (d1 && t->shape[1] != d1)) {
        char has[96] = "[";
        for (int k = 0; k < t->dims; k++) {
            size_t used = strlen(has);
            snprintf(has + used, sizeof has - used, k ? ", %llu" : "%llu",
                     (unsigned long long)t->shape[k]);
        }
        size_t used = strlen(has);
        snprintf(has + used, sizeof has - used, "]");
        char want[64];
        if (d1)
            snprintf(want, sizeof want, "[%llu, %llu]", (unsigned long long)d0,
                     (unsigned long long)d1);
        else
            snprintf(want, sizeof want, "[%llu]", (unsigned long long)d0);
        *ok = text_fail(err, errsz, _("%s: tensor '%s' is %s; the config asks for %s"), f->path,
                        t->name, has, want);
        return NULL;
    }
    return t;
}

bool gpt2_tensors(const St_File *f, const Gpt2_Config *c, Gpt2_Tensors *t, char *err,
                  size_t errsz) {
    uint64_t d = (uint64_t)c->n_embd, V = (uint64_t)c->vocab_size, inner = (uint64_t)c->n_inner;
    Gpt2_Tensors out = {0};
    out.blocks = calloc((size_t)c->n_layer, sizeof *out.blocks);
    if (!out.blocks) return text_fail(err, errsz, _("%s: out of memory"), f->path);
    bool ok = true;
    out.wte = need(f, "wte.weight", V, d, err, errsz, &ok);
    out.wpe = need(f, "wpe.weight", (uint64_t)c->n_positions, d, err, errsz, &ok);
    for (int l = 0; l < c->n_layer && ok; l++) {
        Gpt2_Block *b = &out.blocks[l];
        char name[96];
#define NEED(slot, part, d0, d1)                                                                   \
    snprintf(name, sizeof name, "h.%d.%s", l, part);                                               \
    b->slot = need(f, name, d0, d1, err, errsz, &ok)
        NEED(ln_1_w, "ln_1.weight", d, 0);
        NEED(ln_1_b, "ln_1.bias", d, 0);
        NEED(attn_w, "attn.c_attn.weight", d, 3 * d);
        NEED(attn_b, "attn.c_attn.bias", 3 * d, 0);
        NEED(proj_w, "attn.c_proj.weight", d, d);
        NEED(proj_b, "attn.c_proj.bias", d, 0);
        NEED(ln_2_w, "ln_2.weight", d, 0);
        NEED(ln_2_b, "ln_2.bias", d, 0);
        NEED(fc_w, "mlp.c_fc.weight", d, inner);
        NEED(fc_b, "mlp.c_fc.bias", inner, 0);
        NEED(fc_proj_w, "mlp.c_proj.weight", inner, d);
        NEED(fc_proj_b, "mlp.c_proj.bias", d, 0);
#undef NEED
    }
    out.ln_f_w = need(f, "ln_f.weight", d, 0, err, errsz, &ok);
    out.ln_f_b = need(f, "ln_f.bias", d, 0, err, errsz, &ok);
    if (ok && st_find(f, "lm_head.weight"))
        out.lm_head = need(f, "lm_head.weight", V, d, err, errsz, &ok);
    if (!ok) {
        free(out.blocks);
        return false;
    }
    *t = out;
    return true;
}

void gpt2_tensors_free(Gpt2_Tensors *t) {
    free(t->blocks);
    memset(t, 0, sizeof *t);
}

/* Can this tensor be read where it lies: float32, aligned, on a
 * little-endian machine? */
static bool in_place(const St_File *f, const St_Tensor *t, const uint8_t *bytes) {
    const uint16_t probe = 1;
    uint8_t low;
    memcpy(&low, &probe, 1);
    return t->dtype == ST_F32 && low == 1 &&
           (uintptr_t)(bytes + f->data_start + t->begin) % sizeof(float) == 0;
}

/* The tensor as float32: in place (every element checked finite) or widened
 * into *arena, which moves past it. */
static const float *tensor(const St_File *f, const St_Tensor *t, const uint8_t *bytes,
                           float **arena, char *err, size_t errsz, bool *ok) {
    if (!*ok || !t) return NULL;
    uint64_t count = st_elements(t);
    if (in_place(f, t, bytes)) {
        const float *p = (const float *)(const void *)(bytes + f->data_start + t->begin);
        for (uint64_t k = 0; k < count; k++)
            if (!isfinite(p[k])) {
                *ok = text_fail(err, errsz, _("%s: tensor '%s': element %llu is %s"), f->path,
                                t->name, (unsigned long long)k, isnan(p[k]) ? "NaN" : "infinite");
                return NULL;
            }
        return p;
    }
    float *dest = *arena;
    if (!st_read_f32(f, t, bytes, dest, err, errsz)) {
        *ok = false;
        return NULL;
    }
    *arena += count;
    return dest;
}

/* Calls fn on every tensor the pass reads, in one fixed order. */
#define GPT2_EACH_BLOCK_TENSOR(X)                                                                  \
    X(norm1_w, ln_1_w)                                                                             \
    X(norm1_b, ln_1_b)                                                                             \
    X(qkv_w, attn_w)                                                                               \
    X(q_b, attn_b)                                                                                 \
    X(o_w, proj_w)                                                                                 \
    X(o_b, proj_b)                                                                                 \
    X(norm2_w, ln_2_w)                                                                             \
    X(norm2_b, ln_2_b) X(up_w, fc_w) X(up_b, fc_b) X(down_w, fc_proj_w) X(down_b, fc_proj_b)

bool gpt2_weights(const St_File *f, const uint8_t *bytes, const Gpt2_Config *c,
                  const Gpt2_Tensors *t, Gpt2_Weights *w, char *err, size_t errsz) {
    /* what must be widened */
    uint64_t widen = 0;
    const St_Tensor *top[] = {t->wte, t->wpe, t->ln_f_w, t->ln_f_b, t->lm_head};
    for (size_t k = 0; k < sizeof top / sizeof *top; k++)
        if (top[k] && !in_place(f, top[k], bytes)) widen += st_elements(top[k]);
    for (int l = 0; l < c->n_layer; l++) {
        const Gpt2_Block *b = &t->blocks[l];
#define COUNT(dst, src)                                                                            \
    if (!in_place(f, b->src, bytes)) widen += st_elements(b->src);
        GPT2_EACH_BLOCK_TENSOR(COUNT)
#undef COUNT
    }
    Gpt2_Weights out = {0};
    out.blocks = calloc((size_t)c->n_layer, sizeof *out.blocks);
    if (widen > SIZE_MAX / sizeof(float) ||
        (widen && !(out.widened = malloc((size_t)widen * sizeof(float)))) || !out.blocks) {
        free(out.blocks);
        free(out.widened);
        return text_fail(err, errsz, _("%s: out of memory widening %llu elements to float32"),
                         f->path, (unsigned long long)widen);
    }
    out.widened_count = widen;
    float *arena = out.widened;
    bool ok = true;
    Net_Model *m = &out.model;
    m->layers = c->n_layer;
    m->heads = c->n_head;
    m->width = c->n_embd;
    m->inner = c->n_inner;
    m->positions = c->n_positions;
    m->vocab = c->vocab_size;
    m->kv_heads = c->n_head;
    m->head_dim = c->n_embd / c->n_head;
    m->norm = NET_NORM_LAYER;
    m->mlp = NET_MLP_GELU;
    m->layout = NET_LAYOUT_IN_OUT;
    m->eps = (float)c->layer_norm_epsilon;
    m->wte = tensor(f, t->wte, bytes, &arena, err, errsz, &ok);
    m->wpe = tensor(f, t->wpe, bytes, &arena, err, errsz, &ok);
    for (int l = 0; l < c->n_layer && ok; l++) {
        const Gpt2_Block *b = &t->blocks[l];
        Net_Block *d = &out.blocks[l];
#define READ(dst, src) d->dst = tensor(f, b->src, bytes, &arena, err, errsz, &ok);
        GPT2_EACH_BLOCK_TENSOR(READ)
#undef READ
        /* c_attn's bias is Q's, K's and V's side by side */
        if (d->q_b) {
            d->k_b = d->q_b + c->n_embd;
            d->v_b = d->q_b + 2 * c->n_embd;
        }
    }
    m->normf_w = tensor(f, t->ln_f_w, bytes, &arena, err, errsz, &ok);
    m->normf_b = tensor(f, t->ln_f_b, bytes, &arena, err, errsz, &ok);
    m->unembed = t->lm_head ? tensor(f, t->lm_head, bytes, &arena, err, errsz, &ok) : m->wte;
    m->blocks = out.blocks;
    if (!ok) {
        gpt2_weights_free(&out);
        return false;
    }
    *w = out;
    return true;
}

void gpt2_weights_free(Gpt2_Weights *w) {
    free(w->blocks);
    free(w->widened);
    memset(w, 0, sizeof *w);
}
