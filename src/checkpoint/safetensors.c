/* The safetensors reader; see safetensors.h. */
#include "safetensors.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "../json/json_strict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dtype_names[] = {"F32", "F16", "BF16"};
static const int dtype_bytes[] = {4, 2, 2};
/* what the format also allows, named in the refusal */
static const char *const other_dtypes[] = {"F64", "I64",     "I32", "I16",    "I8",      "U64",
                                           "U32", "U16",     "U8",  "BOOL",   "F8_E4M3", "F8_E5M2",
                                           "C64", "F8_E8M0", "F4",  "F6_E2M3"};

const char *st_dtype_name(St_Dtype d) {
    return dtype_names[d];
}

static bool fail(char *err, size_t errsz, const char *path, const char *fmt, ...) {
    int used = snprintf(err, errsz, "%s: ", path);
    if (used < 0 || (size_t)used >= errsz) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errsz - (size_t)used, fmt, ap);
    va_end(ap);
    return false;
}

/* A whole number from 0 to max, exactly. */
static bool whole(const cJSON *v, double max, uint64_t *dest) {
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= 0) || d > max || d != floor(d)) return false;
    *dest = (uint64_t)d;
    return true;
}

static int by_begin(const void *a, const void *b) {
    const St_Tensor *x = *(const St_Tensor *const *)a, *y = *(const St_Tensor *const *)b;
    return x->begin < y->begin   ? -1
           : x->begin > y->begin ? 1
           : x->end < y->end     ? -1
                                 : x->end > y->end;
}

/* One tensor's entry: dtype, shape and data_offsets, and nothing else. */
static bool tensor(const cJSON *e, uint64_t data_size, const char *path, St_Tensor *t, char *err,
                   size_t errsz) {
    const char *name = e->string;
    if (strlen(name) >= ST_MAX_NAME)
        return fail(err, errsz, path, "a tensor name is longer than %d bytes: '%.60s…'",
                    ST_MAX_NAME - 1, name);
    snprintf(t->name, sizeof t->name, "%s", name);
    if (!cJSON_IsObject(e))
        return fail(err, errsz, path, "tensor '%s': not an object of dtype, shape, data_offsets",
                    name);
    const cJSON *dt = NULL, *sh = NULL, *off = NULL;
    for (const cJSON *m = e->child; m; m = m->next) {
        if (!strcmp(m->string, "dtype"))
            dt = m;
        else if (!strcmp(m->string, "shape"))
            sh = m;
        else if (!strcmp(m->string, "data_offsets"))
            off = m;
        else
            return fail(err, errsz, path, "tensor '%s': unknown field '%.40s'", name, m->string);
    }
    if (!dt || !sh || !off)
        return fail(err, errsz, path, "tensor '%s': no %s", name,
                    !dt   ? "dtype"
                    : !sh ? "shape"
                          : "data_offsets");
    if (!cJSON_IsString(dt))
        return fail(err, errsz, path, "tensor '%s': dtype is not a string", name);
    int d = -1;
    for (int k = 0; k < 3; k++)
        if (!strcmp(dt->valuestring, dtype_names[k])) d = k;
    if (d < 0) {
        bool known = false;
        for (size_t k = 0; k < sizeof other_dtypes / sizeof *other_dtypes; k++)
            known |= !strcmp(dt->valuestring, other_dtypes[k]);
        return fail(err, errsz, path,
                    known ? "tensor '%s': dtype %.20s is not supported (F32, F16 "
                            "and BF16 are read)"
                          : "tensor '%s': dtype '%.20s' is unknown (F32, F16 and "
                            "BF16 are read)",
                    name, dt->valuestring);
    }
    t->dtype = (St_Dtype)d;
    if (!cJSON_IsArray(sh))
        return fail(err, errsz, path, "tensor '%s': shape is not an array", name);
    t->dims = 0;
    uint64_t count = 1;
    bool overflow = false;
    for (const cJSON *v = sh->child; v; v = v->next) {
        if (t->dims == ST_MAX_DIMS)
            return fail(err, errsz, path, "tensor '%s': more than %d dimensions", name,
                        ST_MAX_DIMS);
        uint64_t n;
        if (!whole(v, 1099511627776.0, &n)) /* 2^40 */
            return fail(err, errsz, path,
                        "tensor '%s': shape entry %d is not a whole number from 0 to 2^40", name,
                        t->dims);
        t->shape[t->dims++] = n;
        if (n && count > UINT64_MAX / n)
            overflow = true;
        else
            count *= n;
    }
    if (!cJSON_IsArray(off) || cJSON_GetArraySize(off) != 2)
        return fail(err, errsz, path, "tensor '%s': data_offsets is not [begin, end]", name);
    if (!whole(off->child, (double)data_size, &t->begin) ||
        !whole(off->child->next, (double)data_size, &t->end) || t->begin > t->end)
        return fail(err, errsz, path,
                    "tensor '%s': data_offsets are not whole numbers begin <= end inside the "
                    "%llu bytes of data",
                    name, (unsigned long long)data_size);
    uint64_t width = (uint64_t)dtype_bytes[d];
    if (overflow || count > UINT64_MAX / width || count * width != t->end - t->begin)
        return fail(
            err, errsz, path,
            "tensor '%s': data_offsets hold %llu bytes, but its shape of %s needs %s%llu", name,
            (unsigned long long)(t->end - t->begin), dtype_names[d], overflow ? "more than " : "",
            overflow ? (unsigned long long)UINT64_MAX : (unsigned long long)(count * width));
    return true;
}

/* A header's JSON values and depth, counted outside its strings: a real
 * one has at most ST_MAX_TENSORS tensors of a dtype, a shape of up to
 * ST_MAX_DIMS numbers and two offsets each, plus __metadata__'s strings, and
 * nests three deep. NULL when it could be one; else what is wrong. */
static const char *header_shape(const char *h, size_t n) {
    size_t values = 1;
    int depth = 0;
    bool in_string = false;
    for (size_t k = 0; k < n; k++) {
        char c = h[k];
        if (in_string) {
            if (c == '\\')
                k++;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > ST_MAX_DEPTH)
                return "its header nests deeper than a safetensors header does (3 levels)";
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == ',' && ++values > ST_MAX_VALUES) {
            return "its header holds more than " ST_STR(
                ST_MAX_VALUES) " values, more than "
                               "the " ST_STR(ST_MAX_TENSORS) " tensors read here need";
        }
    }
    return NULL;
}

bool st_parse(const uint8_t *bytes, uint64_t size, const char *path, St_File *f, char *err,
              size_t errsz) {
    if (size < 8)
        return fail(err, errsz, path,
                    _("not a safetensors file: %llu bytes, fewer than its 8-byte header length"),
                    (unsigned long long)size);
    uint64_t n = 0;
    for (int k = 7; k >= 0; k--) n = n << 8 | bytes[k];
    if (n == 0 || n > ST_MAX_HEADER || n > size - 8)
        return fail(err, errsz, path, _("not a safetensors file: its header length %llu is %s"),
                    (unsigned long long)n,
                    n == 0              ? "0"
                    : n > ST_MAX_HEADER ? _("past the format's 100 MB")
                                        : _("past the file's end"));
    if (bytes[8] != '{')
        return fail(err, errsz, path,
                    _("not a safetensors file: its header does not start with '{'"));
    /* what a tree of the header would cost, before building it: a header of
     * 95 MB of numbers took 3.8 GB and 19 s to be refused */
    const char *why = header_shape((const char *)bytes + 8, (size_t)n);
    if (why) return fail(err, errsz, path, "%s", why);
    char name[ST_MAX_PATH + 16];
    snprintf(name, sizeof name, "%s header", path);
    cJSON *root =
        json_read_strict((const char *)bytes + 8, (size_t)n, name, _("the header"), err, errsz);
    if (!root) return false;
    uint64_t data_size = size - 8 - n;
    St_Tensor *ts = NULL;
    const St_Tensor **order = NULL;
    int count = 0;
    bool ok = false;
    if (!cJSON_IsObject(root)) {
        fail(err, errsz, path, "its header is not a JSON object");
        goto done;
    }
    int members = cJSON_GetArraySize(root);
    if (members > ST_MAX_TENSORS + 1) {
        fail(err, errsz, path, "more than %d tensors", ST_MAX_TENSORS);
        goto done;
    }
    ts = calloc((size_t)(members ? members : 1), sizeof *ts);
    order = calloc((size_t)(members ? members : 1), sizeof *order);
    if (!ts || !order) {
        fail(err, errsz, path, "out of memory for %d tensors", members);
        goto done;
    }
    for (const cJSON *e = root->child; e; e = e->next) {
        if (!strcmp(e->string, "__metadata__")) {
            bool strings = cJSON_IsObject(e);
            for (const cJSON *m = strings ? e->child : NULL; m; m = m->next)
                strings &= cJSON_IsString(m);
            if (!strings) {
                fail(err, errsz, path, "__metadata__ is not an object of strings");
                goto done;
            }
            continue;
        }
        if (count == ST_MAX_TENSORS) {
            fail(err, errsz, path, "more than %d tensors", ST_MAX_TENSORS);
            goto done;
        }
        if (!tensor(e, data_size, path, &ts[count], err, errsz)) goto done;
        order[count] = &ts[count];
        count++;
    }
    /* no two tensors share a byte (empty ones hold none) */
    qsort(order, (size_t)count, sizeof *order, by_begin);
    const St_Tensor *last = NULL;
    for (int k = 0; k < count; k++) {
        if (order[k]->begin == order[k]->end) continue;
        if (last && order[k]->begin < last->end) {
            fail(err, errsz, path, "tensors '%s' and '%s' share bytes %llu to %llu", last->name,
                 order[k]->name, (unsigned long long)order[k]->begin,
                 (unsigned long long)(last->end < order[k]->end ? last->end : order[k]->end));
            goto done;
        }
        last = order[k];
    }
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data_start = 8 + n;
    f->size = size;
    f->count = count;
    f->tensors = ts;
    ts = NULL;
    ok = true;
done:
    free(ts);
    free(order);
    cJSON_Delete(root);
    return ok;
}

void st_free(St_File *f) {
    free(f->tensors);
    memset(f, 0, sizeof *f);
}

const St_Tensor *st_find(const St_File *f, const char *name) {
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < f->count; k++) {
            const char *have = f->tensors[k].name;
            if (pass && !strncmp(have, "transformer.", 12)) have += 12;
            if (!strcmp(have, name)) return &f->tensors[k];
        }
    return NULL;
}

const St_Tensor *st_set_find(const St_Set *s, const char *name, const char *alias, int *count) {
    const St_Tensor *found = NULL, *aliased = NULL;
    size_t skip = alias ? strlen(alias) : 0;
    *count = 0;
    for (int f = 0; f < s->count; f++)
        for (int k = 0; k < s->file[f].count; k++) {
            const char *have = s->file[f].tensors[k].name;
            if (!strcmp(have, name)) {
                found = found ? found : &s->file[f].tensors[k];
                ++*count;
            } else if (alias && !strncmp(have, alias, skip) && !strcmp(have + skip, name)) {
                aliased = aliased ? aliased : &s->file[f].tensors[k];
                ++*count;
            }
        }
    return found ? found : aliased;
}

/* A shard's name: a plain file name in the checkpoint's folder. */
static bool plain_shard_name(const char *s) {
    size_t n = strlen(s);
    if (n < 13 || n >= ST_MAX_NAME || strcmp(s + n - 12, ".safetensors") || s[0] == '.')
        return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '-' || *c == '_' || *c == '.'))
            return false;
    return true;
}

bool st_index_parse(const char *text, size_t len, const char *name, St_Index *ix, char *err,
                    size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the shard index"), err, errsz);
    if (!root) return false;
    St_Index out = {0};
    bool ok = false;
    const cJSON *map =
        cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "weight_map") : NULL;
    if (!cJSON_IsObject(map)) {
        fail(err, errsz, name, "%s", _("no \"weight_map\" object naming each tensor's file"));
        goto done;
    }
    int count = cJSON_GetArraySize(map);
    if (count < 1 || count > ST_MAX_TENSORS) {
        fail(err, errsz, name, _("its weight_map names %d tensors (1 to %d are read)"), count,
             ST_MAX_TENSORS);
        goto done;
    }
    out.name = malloc((size_t)count * sizeof *out.name);
    out.shard = malloc((size_t)count);
    if (!out.name || !out.shard) {
        fail(err, errsz, name, "%s", _("out of memory"));
        goto done;
    }
    for (const cJSON *e = map->child; e; e = e->next) {
        if (!cJSON_IsString(e) || !plain_shard_name(e->valuestring)) {
            char shown[100];
            text_escape(e->string, strlen(e->string), shown, sizeof shown);
            fail(err, errsz, name,
                 _("tensor '%s': its file must be a plain name ending in .safetensors, in the "
                   "checkpoint's folder"),
                 shown);
            goto done;
        }
        if (strlen(e->string) >= ST_MAX_NAME) {
            fail(err, errsz, name, _("a tensor name is longer than %d bytes"), ST_MAX_NAME - 1);
            goto done;
        }
        int f = 0;
        while (f < out.files && strcmp(out.file[f], e->valuestring)) f++;
        if (f == out.files) {
            if (out.files == ST_MAX_SHARDS) {
                fail(err, errsz, name, _("more than %d files: attnlab reads up to %d shards"),
                     ST_MAX_SHARDS, ST_MAX_SHARDS);
                goto done;
            }
            snprintf(out.file[out.files++], ST_MAX_NAME, "%s", e->valuestring);
        }
        snprintf(out.name[out.count], ST_MAX_NAME, "%s", e->string);
        out.shard[out.count++] = (uint8_t)f;
    }
    *ix = out;
    out = (St_Index){0};
    ok = true;
done:
    st_index_free(&out);
    cJSON_Delete(root);
    return ok;
}

void st_index_free(St_Index *ix) {
    free(ix->name);
    free(ix->shard);
    memset(ix, 0, sizeof *ix);
}

bool st_index_check(const St_Index *ix, const St_Set *s, const char *index_name, char *err,
                    size_t errsz) {
    for (int k = 0; k < ix->count; k++) {
        const St_File *f = &s->file[ix->shard[k]];
        bool there = false;
        for (int t = 0; t < f->count && !there; t++)
            there = !strcmp(f->tensors[t].name, ix->name[k]);
        if (!there) {
            char shown[100];
            text_escape(ix->name[k], strlen(ix->name[k]), shown, sizeof shown);
            return fail(err, errsz, index_name, _("tensor '%s' is not in %s, where it says"), shown,
                        f->path);
        }
    }
    for (int f = 0; f < s->count; f++)
        for (int t = 0; t < s->file[f].count; t++) {
            bool listed = false;
            for (int k = 0; k < ix->count && !listed; k++)
                listed = ix->shard[k] == f && !strcmp(ix->name[k], s->file[f].tensors[t].name);
            if (!listed) {
                char shown[100];
                const char *n = s->file[f].tensors[t].name;
                text_escape(n, strlen(n), shown, sizeof shown);
                return fail(err, errsz, index_name,
                            _("%s holds tensor '%s', which it does not list"), s->file[f].path,
                            shown);
            }
        }
    return true;
}

uint64_t st_elements(const St_Tensor *t) {
    uint64_t count = 1;
    for (int k = 0; k < t->dims; k++) count *= t->shape[k];
    return count;
}

/* IEEE half to single, subnormals, infinities and NaN included. */
static float half(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = h >> 10 & 0x1F, m = h & 0x3FF, bits;
    if (e == 0x1F) {
        bits = sign | 0x7F800000u | m << 13;
    } else if (e) {
        bits = sign | (e + 112) << 23 | m << 13;
    } else if (m) { /* subnormal: shift the mantissa up to a normal single */
        int shift = 0;
        while (!(m & 0x400)) m <<= 1, shift++;
        bits = sign | (uint32_t)(113 - shift) << 23 | (m & 0x3FF) << 13;
    } else {
        bits = sign;
    }
    float out;
    memcpy(&out, &bits, sizeof out);
    return out;
}

bool st_read_f32(const St_File *f, const St_Tensor *t, const uint8_t *bytes, float *dest, char *err,
                 size_t errsz) {
    const uint8_t *p = bytes + f->data_start + t->begin;
    uint64_t count = st_elements(t);
    for (uint64_t k = 0; k < count; k++) {
        uint32_t bits;
        switch (t->dtype) {
        case ST_F32:
            bits = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
                   (uint32_t)p[4 * k + 3] << 24;
            memcpy(&dest[k], &bits, sizeof bits);
            break;
        case ST_F16:
            dest[k] = half((uint16_t)(p[2 * k] | p[2 * k + 1] << 8));
            break;
        case ST_BF16:
            bits = ((uint32_t)p[2 * k] | (uint32_t)p[2 * k + 1] << 8) << 16;
            memcpy(&dest[k], &bits, sizeof bits);
            break;
        }
        if (!isfinite(dest[k]))
            return fail(err, errsz, f->path, _("tensor '%s': element %llu is %s"), t->name,
                        (unsigned long long)k, isnan(dest[k]) ? "NaN" : "infinite");
    }
    return true;
}
