/* The family table and the one loader over a row's parameters; see family.h. */
#include "family.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "../json/json_strict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Model_Family *const families[] = {&model_family_gpt2, &model_family_llama,
                                               &model_family_qwen2, &model_family_qwen3};
enum { FAMILIES = sizeof families / sizeof *families };

bool model_config_whole(const cJSON *root, const char *key, int lo, int hi, int missing,
                        const char *name, int *dest, char *err, size_t errsz) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v || cJSON_IsNull(v)) {
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

const char *model_family_name(const Model_Config *c) {
    return c->family ? c->family->name : "?";
}

/* "gpt2, llama, qwen2 and qwen3" (and the architectures likewise). */
static void list_rows(bool architectures, char *dest, size_t size) {
    dest[0] = 0;
    for (int k = 0; k < FAMILIES; k++) {
        size_t used = strlen(dest);
        const char *sep = k == 0 ? "" : k == FAMILIES - 1 ? _(" and ") : ", ";
        snprintf(dest + used, size - used, "%s%s", sep,
                 architectures ? families[k]->architecture : families[k]->model_type);
    }
}

bool model_config_parse(const char *text, size_t len, const char *name, Model_Config *c, char *err,
                        size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the config"), err, errsz);
    if (!root) return false;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return text_fail(err, errsz, _("%s: not a JSON object"), name);
    }
    const Model_Family *row = NULL;
    char what[120] = "", rows[200];
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "architectures");
    if (type) {
        for (int k = 0; k < FAMILIES && cJSON_IsString(type); k++)
            if (!strcmp(type->valuestring, families[k]->model_type)) row = families[k];
        if (!row) {
            text_escape(cJSON_IsString(type) ? type->valuestring : "?",
                        cJSON_IsString(type) ? strlen(type->valuestring) : 1, what, sizeof what);
            list_rows(false, rows, sizeof rows);
            text_fail(err, errsz,
                      _("%s: model_type \"%s\" is not read: attnlab reads the model types %s"),
                      name, what, rows);
        }
    } else if (cJSON_IsArray(arch) && arch->child) {
        for (const cJSON *a = arch->child; a && !row; a = a->next)
            for (int k = 0; k < FAMILIES && cJSON_IsString(a); k++)
                if (!strncmp(a->valuestring, families[k]->architecture,
                             k == 0 ? 4 : strlen(families[k]->architecture)))
                    row = families[k];
        if (!row) {
            const cJSON *first = arch->child;
            text_escape(cJSON_IsString(first) ? first->valuestring : "?",
                        cJSON_IsString(first) ? strlen(first->valuestring) : 1, what, sizeof what);
            list_rows(true, rows, sizeof rows);
            text_fail(err, errsz, _("%s: architectures %s is not read: attnlab reads %s"), name,
                      what, rows);
        }
    } else {
        row = &model_family_gpt2; /* GPT-2's oldest configs name neither */
    }
    cJSON_Delete(root);
    if (!row) return false;
    Model_Config out = {0};
    out.bos_id = -1;
    if (!row->config(text, len, name, &out, err, errsz)) return false;
    out.family = row;
    *c = out;
    return true;
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

/* The file of the set that holds t. */
static int file_of(const St_Set *s, const St_Tensor *t) {
    for (int f = 0; f < s->count; f++)
        if (t >= s->file[f].tensors && t < s->file[f].tensors + s->file[f].count) return f;
    return 0;
}

/* The tensor as float32: in place (every element checked finite) or widened
 * into *arena, which moves past it. */
static const float *tensor(const St_Set *s, const St_Tensor *t, float **arena, char *err,
                           size_t errsz, bool *ok) {
    if (!*ok || !t) return NULL;
    int k = file_of(s, t);
    const St_File *f = &s->file[k];
    uint64_t count = st_elements(t);
    if (in_place(f, t, s->bytes[k])) {
        const float *p = (const float *)(const void *)(s->bytes[k] + f->data_start + t->begin);
        for (uint64_t e = 0; e < count; e++)
            if (!isfinite(p[e])) {
                *ok = text_fail(err, errsz, _("%s: tensor '%s': element %llu is %s"), f->path,
                                t->name, (unsigned long long)e, isnan(p[e]) ? "NaN" : "infinite");
                return NULL;
            }
        return p;
    }
    float *dest = *arena;
    if (!st_read_f32(f, t, s->bytes[k], dest, err, errsz)) {
        *ok = false;
        return NULL;
    }
    *arena += count;
    return dest;
}

/* The row's tensor, of exactly its shape; NULL when absent and optional. */
static const St_Tensor *find(const St_Set *s, const char *what, const Model_Family *row,
                             const Model_Param *p, char *err, size_t errsz, bool *ok) {
    int count = 0;
    const St_Tensor *t = st_set_find(s, p->name, row->alias, &count);
    if (!t) {
        if (p->optional) return NULL;
        if (row->alias)
            *ok = text_fail(err, errsz, _("%s: no tensor '%s' (or 'transformer.%s')"), what,
                            p->name, p->name); /* GPT-2's alias, the only one */
        else
            *ok = text_fail(err, errsz, _("%s: no tensor '%s'"), what, p->name);
        return NULL;
    }
    /* two with other bytes: which is the weight is not ours to guess */
    if (count > 1) {
        if (row->alias)
            *ok = text_fail(err, errsz,
                            _("%s: both '%s' and 'transformer.%s' are there: which one is the "
                              "weight is not clear"),
                            what, p->name, p->name);
        else
            *ok = text_fail(err, errsz,
                            _("%s: tensor '%s' is in two files: which one is the weight is not "
                              "clear"),
                            what, p->name);
        return NULL;
    }
    if (t->dims != p->dims || t->shape[0] != p->shape[0] ||
        (p->dims == 2 && t->shape[1] != p->shape[1])) {
        char has[96] = "[";
        for (int k = 0; k < t->dims; k++) {
            size_t used = strlen(has);
            snprintf(has + used, sizeof has - used, k ? ", %llu" : "%llu",
                     (unsigned long long)t->shape[k]);
        }
        size_t used = strlen(has);
        snprintf(has + used, sizeof has - used, "]");
        char want[64];
        if (p->dims == 2)
            snprintf(want, sizeof want, "[%llu, %llu]", (unsigned long long)p->shape[0],
                     (unsigned long long)p->shape[1]);
        else
            snprintf(want, sizeof want, "[%llu]", (unsigned long long)p->shape[0]);
        *ok = text_fail(err, errsz, _("%s: tensor '%s' is %s; the config asks for %s"),
                        s->file[file_of(s, t)].path, t->name, has, want);
        return NULL;
    }
    return t;
}

bool model_weights_load(const St_Set *s, const char *what, const Model_Config *c, Model_Weights *w,
                        char *err, size_t errsz) {
    const Model_Family *row = c->family;
    Model_Weights out = {0};
    out.model = c->net;
    out.blocks = calloc((size_t)c->net.layers, sizeof *out.blocks);
    int count = row->params(c, &out, NULL);
    Model_Param *p = calloc((size_t)count, sizeof *p);
    const St_Tensor **found = calloc((size_t)count, sizeof *found);
    if (c->rope_scaled) out.rope_freq = malloc(sizeof c->rope_freq);
    if (!out.blocks || !p || !found || (c->rope_scaled && !out.rope_freq)) {
        free(p);
        free(found);
        model_weights_free(&out);
        return text_fail(err, errsz, _("%s: out of memory"), what);
    }
    row->params(c, &out, p);
    bool ok = true;
    uint64_t widen = 0;
    for (int k = 0; k < count && ok; k++) {
        found[k] = find(s, what, row, &p[k], err, errsz, &ok);
        if (found[k] &&
            !in_place(&s->file[file_of(s, found[k])], found[k], s->bytes[file_of(s, found[k])]))
            widen += st_elements(found[k]);
    }
    if (ok && widen) {
        if (widen > SIZE_MAX / sizeof(float) ||
            !(out.widened = malloc((size_t)widen * sizeof(float))))
            ok = text_fail(err, errsz, _("%s: out of memory widening %llu elements to float32"),
                           what, (unsigned long long)widen);
    }
    out.widened_count = widen;
    float *arena = out.widened;
    for (int k = 0; k < count && ok; k++)
        if (found[k]) *p[k].slot = tensor(s, found[k], &arena, err, errsz, &ok);
    free(p);
    free(found);
    if (!ok) {
        model_weights_free(&out);
        return false;
    }
    if (!out.model.unembed) out.model.unembed = out.model.wte; /* tied */
    if (out.rope_freq) {
        memcpy(out.rope_freq, c->rope_freq, sizeof c->rope_freq);
        out.model.rope_freq = out.rope_freq;
    }
    if (row->finish) row->finish(c, &out);
    out.model.blocks = out.blocks;
    *w = out;
    return true;
}

void model_weights_free(Model_Weights *w) {
    free(w->blocks);
    free(w->rope_freq);
    free(w->widened);
    memset(w, 0, sizeof *w);
}
