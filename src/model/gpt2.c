/* GPT-2's config and tensors; see gpt2.h. */
#include "gpt2.h"

#include "json_strict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(char *err, size_t errsz, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return false;
}

/* A whole number field from lo to hi; `missing` is used when it is absent
 * (−1: it is required). */
static bool field(const cJSON *root, const char *key, int lo, int hi, int missing, const char *name,
                  int *dest, char *err, size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v) {
        if (missing < 0) return fail(err, errsz, "%s: no \"%s\"", name, key);
        *dest = missing;
        return true;
    }
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(d >= lo && d <= hi) || d != floor(d))
        return fail(err, errsz, "%s: \"%s\" must be a whole number from %d to %d", name, key, lo,
                    hi);
    *dest = (int)d;
    return true;
}

bool gpt2_config_parse(const char *text, size_t len, const char *name, Gpt2_Config *c, char *err,
                       size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, "the config", err, errsz);
    if (!root) return false;
    Gpt2_Config out = {0};
    bool ok = false;
    if (!cJSON_IsObject(root)) {
        fail(err, errsz, "%s: not a JSON object", name);
        goto done;
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    if (type && (!cJSON_IsString(type) || strcmp(type->valuestring, "gpt2"))) {
        fail(err, errsz,
             "%s: model_type %s%.40s%s is not read: attnlab reads GPT-2-family checkpoints "
             "(model_type \"gpt2\": gpt2, distilgpt2, gpt2-medium, …)",
             name, cJSON_IsString(type) ? "\"" : "", cJSON_IsString(type) ? type->valuestring : "?",
             cJSON_IsString(type) ? "\"" : "");
        goto done;
    }
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "architectures");
    if (arch) {
        bool gpt2 = false;
        for (const cJSON *a = cJSON_IsArray(arch) ? arch->child : NULL; a; a = a->next)
            gpt2 |= cJSON_IsString(a) && !strncmp(a->valuestring, "GPT2", 4);
        if (!gpt2) {
            const cJSON *first = cJSON_IsArray(arch) ? arch->child : NULL;
            fail(err, errsz,
                 "%s: architectures %.40s is not read: attnlab reads GPT-2's (GPT2LMHeadModel)",
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
        fail(err, errsz, "%s: n_embd %d is not a multiple of n_head %d", name, out.n_embd,
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
            fail(err, errsz, "%s: \"layer_norm_epsilon\" must be a number above 0 and below 1",
                 name);
            goto done;
        }
        out.layer_norm_epsilon = eps->valuedouble;
    }
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(root, "activation_function");
    if (act && (!cJSON_IsString(act) || strcmp(act->valuestring, "gelu_new"))) {
        fail(err, errsz,
             "%s: activation_function %.40s is not computed: the MLP uses GELU's tanh form "
             "(\"gelu_new\"), GPT-2's",
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
        *ok = fail(err, errsz, "%s: no tensor '%s' (or 'transformer.%s')", f->path, name, name);
        return NULL;
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
        *ok = fail(err, errsz, "%s: tensor '%s' is %s; the config asks for %s", f->path, t->name,
                   has, want);
        return NULL;
    }
    return t;
}

bool gpt2_tensors(const St_File *f, const Gpt2_Config *c, Gpt2_Tensors *t, char *err,
                  size_t errsz) {
    uint64_t d = (uint64_t)c->n_embd, V = (uint64_t)c->vocab_size, inner = (uint64_t)c->n_inner;
    Gpt2_Tensors out = {0};
    out.blocks = calloc((size_t)c->n_layer, sizeof *out.blocks);
    if (!out.blocks) return fail(err, errsz, "%s: out of memory", f->path);
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
