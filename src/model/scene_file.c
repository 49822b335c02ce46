/* Scene files; see scene_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "scene_file.h"

#include "../core/fileio.h"
#include "../json/jsonw.h"
#include "../core/text.h"
#include "../json/json_strict.h"
#include "../json/jsonpos.h"
#include "settings.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Ctx {
    const char *text, *name;
    char *err;
    size_t errsz;
} Ctx;

/* Report a problem at the value found by following path (see jsonpos.h). */
static bool fail_at(Ctx *c, const Json_Path *path, const char *fmt, ...) {
    int line, col;
    json_locate(c->text, path, &line, &col);
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errsz, "%s:%d:%d: %s", c->name, line, col, msg);
    return false;
}

static Json_Path key_path(const char *key) {
    return (Json_Path){.key = key, .i = -1, .j = -1};
}

static bool get_int(Ctx *c, const cJSON *root, const char *key, int lo, int hi, bool required,
                    int *dest) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);
    Json_Path p = key_path(key);
    if (!it) {
        if (!required) return true;
        return fail_at(c, &(Json_Path){.i = -1, .j = -1}, _("missing required field \"%s\""), key);
    }
    if (!cJSON_IsNumber(it)) return fail_at(c, &p, "\"%s\" must be a number", key);
    double v = it->valuedouble;
    char lit[48];
    json_literal(c->text, &p, lit, sizeof lit);
    if (!isfinite(v)) return fail_at(c, &p, "\"%s\" is not a finite number", key);
    if (v != floor(v)) return fail_at(c, &p, "\"%s\" must be a whole number, not %s", key, lit);
    if (v < lo || v > hi)
        return fail_at(c, &p, "\"%s\" is %s; it must be %d to %d", key, lit, lo, hi);
    *dest = (int)v;
    return true;
}

/* Besides the settings (settings.h), a scene holds these. */
static const char *const other_keys[] = {"version", "tokens", "X"};

static bool check_keys(Ctx *c, const cJSON *root) {
    for (const cJSON *it = root->child; it; it = it->next) {
        bool known = setting_by_json(it->string) != NULL;
        for (size_t k = 0; k < sizeof other_keys / sizeof *other_keys; k++)
            if (strcmp(it->string, other_keys[k]) == 0) known = true;
        Json_Path p = key_path(it->string);
        if (!known) return fail_at(c, &p, _("unknown field \"%s\""), it->string);
    }
    return true;
}

static bool read_tokens(Ctx *c, const cJSON *root, Scene *s) {
    const cJSON *tokens = cJSON_GetObjectItemCaseSensitive(root, "tokens");
    Json_Path p = key_path("tokens");
    if (!tokens)
        return fail_at(c, &(Json_Path){.i = -1, .j = -1}, _("missing required field \"tokens\""));
    if (!cJSON_IsArray(tokens)) return fail_at(c, &p, "\"tokens\" must be an array of strings");
    int n = cJSON_GetArraySize(tokens);
    if (n < 1 || n > ATTN_MAX_TOKENS)
        return fail_at(c, &p, "\"tokens\" has %d entries; a scene needs 1 to %d", n,
                       ATTN_MAX_TOKENS);
    int i = 0;
    for (const cJSON *t = tokens->child; t; t = t->next, i++) {
        Json_Path tp = {.key = "tokens", .i = i, .j = -1};
        if (!cJSON_IsString(t)) return fail_at(c, &tp, _("tokens[%d] must be a string"), i);
        const char *w = t->valuestring;
        char why[160];
        if (!scene_token_ok(w, why, sizeof why)) return fail_at(c, &tp, _("tokens[%d] %s"), i, why);
        snprintf(s->tokens[i], ATTN_MAX_TOKEN_BYTES, "%s", w);
        s->origin[i] = i;
    }
    s->n = n;
    return true;
}

static bool read_x(Ctx *c, const cJSON *root, Scene *s, const Vocab *vocab) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "X");
    if (!x) {
        for (int i = 0; i < s->n; i++) vocab_embed(vocab, s->tokens[i], s->d, &s->X[i * s->d]);
        return true;
    }
    Json_Path p = key_path("X");
    if (!cJSON_IsArray(x)) return fail_at(c, &p, "\"X\" must be an array of rows");
    int rows = cJSON_GetArraySize(x);
    if (rows != s->n)
        return fail_at(c, &p, "\"X\" has %d rows but there are %d tokens", rows, s->n);
    int i = 0;
    for (const cJSON *row = x->child; row; row = row->next, i++) {
        Json_Path rp = {.key = "X", .i = i, .j = -1};
        if (!cJSON_IsArray(row)) return fail_at(c, &rp, _("X[%d] must be an array of numbers"), i);
        int cols = cJSON_GetArraySize(row);
        if (cols != s->d)
            return fail_at(c, &rp, _("X[%d] has %d numbers but d is %d"), i, cols, s->d);
        int j = 0;
        for (const cJSON *v = row->child; v; v = v->next, j++) {
            Json_Path vp = {.key = "X", .i = i, .j = j};
            if (!cJSON_IsNumber(v)) return fail_at(c, &vp, _("X[%d][%d] must be a number"), i, j);
            double xv = v->valuedouble;
            if (!isfinite(xv)) return fail_at(c, &vp, _("X[%d][%d] is not a finite number"), i, j);
            if (xv == 0 || (float)xv == 0) { /* a literal that is not 0 must not become it */
                char lit[48];
                json_literal(c->text, &vp, lit, sizeof lit);
                if (text_underflows_float(lit, xv))
                    return fail_at(c, &vp,
                                   _("X[%d][%d] is %s, too small to represent (underflow); write 0 "
                                     "for zero"),
                                   i, j, lit);
            }
            if (fabs(xv) > ATTN_MAX_ABS_X) {
                char lit[48];
                json_literal(c->text, &vp, lit, sizeof lit);
                return fail_at(c, &vp, _("X[%d][%d] is %s; embeddings must be within ±%g"), i, j,
                               lit, ATTN_MAX_ABS_X);
            }
            s->X[i * s->d + j] = (float)xv;
        }
    }
    return true;
}

/* One setting from its key, checked against the settings table. */
static bool read_setting(Ctx *c, const cJSON *root, const Setting *st, Scene *s) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, st->json);
    Json_Path p = key_path(st->json);
    if (!it) {
        if (!st->required) return true;
        return fail_at(c, &(Json_Path){.i = -1, .j = -1}, _("missing required field \"%s\""),
                       st->json);
    }
    double v;
    switch (st->type) {
    case SETTING_BOOL:
        if (!cJSON_IsBool(it)) return fail_at(c, &p, "\"%s\" must be true or false", st->json);
        v = cJSON_IsTrue(it);
        break;
    case SETTING_CHOICE: {
        int m;
        if (!cJSON_IsString(it) || !setting_choice_parse(st->id, it->valuestring, &m)) {
            char list[96];
            setting_choice_list(st->id, ", ", "\"", list, sizeof list);
            return fail_at(c, &p, "\"%s\" must be one of %s", st->json, list);
        }
        v = m;
        break;
    }
    case SETTING_INT:
    case SETTING_U32:
    case SETTING_FLOAT: {
        if (!cJSON_IsNumber(it)) return fail_at(c, &p, "\"%s\" must be a number", st->json);
        char lit[48], why[200];
        json_literal(c->text, &p, lit, sizeof lit);
        if (!setting_check(st, it->valuedouble, lit, why, sizeof why))
            return fail_at(c, &p, "%s", why);
        v = it->valuedouble;
        break;
    }
    default:
        return fail_at(c, &p, "\"%s\" has an unknown type", st->json);
    }
    setting_set(s, st->id, v);
    return true;
}

static bool read_scene(Ctx *c, const cJSON *root, Scene *s, const Vocab *vocab) {
    if (!cJSON_IsObject(root))
        return fail_at(c, &(Json_Path){.i = -1, .j = -1}, _("a scene must be a JSON object"));
    if (!check_keys(c, root)) return false;
    int version = SCENE_FILE_VERSION;
    if (!get_int(c, root, "version", SCENE_FILE_VERSION, SCENE_FILE_VERSION, false, &version))
        return false;
    if (!read_tokens(c, root, s)) return false;
    for (int k = 0; k < SET_COUNT; k++)
        if (!read_setting(c, root, setting((Setting_Id)k), s)) return false;
    return read_x(c, root, s, vocab);
}

bool scene_parse(Scene *dest, const char *text, size_t len, const char *name, const Vocab *vocab,
                 char *err, size_t errsz) {
    Ctx c = {.text = text, .name = name, .err = err, .errsz = errsz};
    cJSON *root = json_read_strict(text, len, name, _("the scene object"), err, errsz);
    if (!root) return false;
    /* read into a scratch scene (large: on the heap, at load time only), so
     * dest is untouched unless the whole file is valid */
    Scene *tmp = malloc(sizeof *tmp);
    if (!tmp) {
        cJSON_Delete(root);
        snprintf(err, errsz, "%s: out of memory", name);
        return false;
    }
    scene_default(tmp);
    bool ok = read_scene(&c, root, tmp, vocab);
    cJSON_Delete(root);
    if (ok) *dest = *tmp;
    free(tmp);
    return ok;
}

bool scene_load(Scene *dest, const char *path, const Vocab *vocab, char *err, size_t errsz) {
    char *text;
    size_t len;
    if (!file_read_all(path, SCENE_FILE_MAX_BYTES, &text, &len, err, errsz)) return false;
    bool ok = scene_parse(dest, text, len, path, vocab, err, errsz);
    free(text);
    return ok;
}

void scene_write(const Scene *s, FILE *f) {
    char buf[FMT_FLOAT_BYTES];
    fprintf(f, "{\n  \"version\": %d,\n  \"tokens\": [", SCENE_FILE_VERSION);
    for (int i = 0; i < s->n; i++) {
        if (i) fputs(", ", f);
        jw_string(f, s->tokens[i]);
    }
    fputs("],\n", f);
    for (int k = 0; k < SET_COUNT; k++) {
        const Setting *st = setting((Setting_Id)k);
        double v = setting_get(s, st->id);
        fprintf(f, "  \"%s\": ", st->json);
        switch (st->type) {
        case SETTING_INT:
        case SETTING_U32:
            fprintf(f, "%.0f", v);
            break;
        case SETTING_FLOAT:
            fmt_float((float)v, buf);
            fputs(buf, f);
            break;
        case SETTING_BOOL:
            fputs(v != 0 ? "true" : "false", f);
            break;
        case SETTING_CHOICE:
            fprintf(f, "\"%s\"", setting_choice_name((Setting_Id)k, (int)v));
            break;
        }
        fputs(",\n", f);
    }
    fputs("  \"X\": ", f);
    jw_matrix(f, s->X, s->n, s->d, "  ");
    fputs("\n}\n", f);
}

static void write_scene_cb(FILE *f, const void *ctx) {
    scene_write(ctx, f);
}

bool scene_save(const Scene *s, const char *path, char *err, size_t errsz) {
    return file_write_atomic(path, write_scene_cb, s, err, errsz);
}
