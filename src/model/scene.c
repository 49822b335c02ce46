/* The scene and its derived attention; see scene.h. */
#include "scene.h"

#include "../core/i18n.h"

#include "../core/text.h"
#include "settings.h"

#include "../core/perm.h"
#include "../core/posenc.h"
#include "../core/projection.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scene_default(Scene *s) {
    memset(s, 0, sizeof *s);
    for (int k = 0; k < SET_COUNT; k++) setting_set(s, (Setting_Id)k, setting((Setting_Id)k)->def);
}

bool scene_validate(const Scene *s, char *err, size_t errsz) {
    if (s->n < 1 || s->n > ATTN_MAX_TOKENS) {
        snprintf(err, errsz, _("%d tokens; a scene needs 1 to %d"), s->n, ATTN_MAX_TOKENS);
        return false;
    }
    if (s->d < 1 || s->d > ATTN_MAX_D) {
        snprintf(err, errsz, _("d is %d; it must be 1 to %d"), s->d, ATTN_MAX_D);
        return false;
    }
    if (s->d_k < 1 || s->d_k > ATTN_MAX_DK) {
        snprintf(err, errsz, _("d_k is %d; it must be 1 to %d"), s->d_k, ATTN_MAX_DK);
        return false;
    }
    if (s->d_v < 1 || s->d_v > ATTN_MAX_DV) {
        snprintf(err, errsz, _("d_v is %d; it must be 1 to %d"), s->d_v, ATTN_MAX_DV);
        return false;
    }
    if (!isfinite(s->pos_strength) || s->pos_strength < 0 ||
        s->pos_strength > ATTN_MAX_POS_STRENGTH) {
        snprintf(err, errsz, _("positional strength %g is outside 0 to %g"), s->pos_strength,
                 ATTN_MAX_POS_STRENGTH);
        return false;
    }
    /* the other settings, against their rows in the table */
    for (int k = 0; k < SET_COUNT; k++) {
        char written[40];
        double v = setting_get(s, (Setting_Id)k);
        snprintf(written, sizeof written, "%.17g", v);
        if (!setting_check(setting((Setting_Id)k), v, written, err, errsz)) return false;
    }
    for (int i = 0; i < s->n; i++) {
        if (s->tokens[i][0] == '\0') {
            snprintf(err, errsz, _("word %d is empty"), i + 1);
            return false;
        }
        for (int c = 0; c < s->d; c++) {
            float x = s->X[i * s->d + c];
            if (!isfinite(x) || fabsf(x) > ATTN_MAX_ABS_X) {
                snprintf(err, errsz, _("X[%d][%d] is %g; embeddings must be finite and within ±%g"),
                         i, c, x, ATTN_MAX_ABS_X);
                return false;
            }
        }
    }
    return true;
}

bool scene_token_ok(const char *w, char *why, size_t whysz) {
    size_t n = strlen(w), bad;
    if (n == 0) {
        snprintf(why, whysz, "%s", _("is empty"));
        return false;
    }
    if (!text_utf8_check(w, n, &bad)) {
        snprintf(why, whysz, _("is not valid UTF-8 (byte %zu)"), bad + 1);
        return false;
    }
    if (n >= ATTN_MAX_TOKEN_BYTES) {
        char head[40];
        text_escape(w, 20, head, sizeof head);
        snprintf(why, whysz, _("('%s…') is longer than %d bytes"), head, ATTN_MAX_TOKEN_BYTES - 1);
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)w[k];
        if (c == ' ' || (c >= '\t' && c <= '\r')) {
            snprintf(why, whysz, "%s", _("contains whitespace; a token is one word"));
            return false;
        }
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && (unsigned char)w[k + 1] < 0xA0)) {
            snprintf(why, whysz, "%s", _("contains a control character"));
            return false;
        }
    }
    return true;
}

bool scene_set_tokens(Scene *s, const char *const *words, int n, const Vocab *vocab, char *err,
                      size_t errsz) {
    if (n < 1 || n > ATTN_MAX_TOKENS) {
        snprintf(err, errsz, _("%d tokens; a scene needs 1 to %d"), n, ATTN_MAX_TOKENS);
        return false;
    }
    for (int i = 0; i < n; i++) {
        char why[160];
        if (!scene_token_ok(words[i], why, sizeof why)) {
            snprintf(err, errsz, _("word %d %s"), i + 1, why);
            return false;
        }
    }
    s->n = n;
    for (int i = 0; i < n; i++) {
        snprintf(s->tokens[i], ATTN_MAX_TOKEN_BYTES, "%s", words[i]);
        vocab_embed(vocab, words[i], s->d, &s->X[i * s->d]);
        s->origin[i] = i;
    }
    return true;
}

bool scene_set_sentence(Scene *s, const char *text, const Vocab *vocab, char *err, size_t errsz) {
    /* Split into a scratch copy; the scene is touched only if all is well. */
    static const char *const space = " \t\r\n\v\f";
    char buf[ATTN_MAX_TOKENS * ATTN_MAX_TOKEN_BYTES];
    const char *words[ATTN_MAX_TOKENS];
    int n = 0;
    size_t used = 0;
    const char *p = text;
    while (*p) {
        p += strspn(p, space);
        if (!*p) break;
        size_t len = strcspn(p, space);
        if (n == ATTN_MAX_TOKENS) {
            snprintf(err, errsz, _("more than %d tokens"), ATTN_MAX_TOKENS);
            return false;
        }
        if (len >= ATTN_MAX_TOKEN_BYTES) {
            snprintf(err, errsz, _("word %d ('%.20s…') is longer than %d bytes"), n + 1, p,
                     ATTN_MAX_TOKEN_BYTES - 1);
            return false;
        }
        memcpy(buf + used, p, len);
        buf[used + len] = '\0';
        words[n++] = buf + used;
        used += len + 1;
        p += len;
    }
    if (n == 0) {
        snprintf(err, errsz, "%s", _("no tokens: the sentence is empty"));
        return false;
    }
    return scene_set_tokens(s, words, n, vocab, err, errsz);
}

void scene_set_d(Scene *s, int d, const Vocab *vocab) {
    if (d == s->d) return;
    /* Rewrite rows in place in the direction that never overwrites a row
     * before it has been read. */
    float row[ATTN_MAX_D];
    int keep = d < s->d ? d : s->d;
    if (d > s->d) {
        for (int i = s->n - 1; i >= 0; i--) {
            vocab_embed(vocab, s->tokens[i], d, row);
            memcpy(row, &s->X[i * s->d], (size_t)keep * sizeof(float));
            memcpy(&s->X[i * d], row, (size_t)d * sizeof(float));
        }
    } else {
        for (int i = 0; i < s->n; i++)
            memmove(&s->X[i * d], &s->X[i * s->d], (size_t)d * sizeof(float));
    }
    s->d = d;
}

void scene_permute(Scene *s, const int *p) {
    /* In place, one cycle of p at a time: row i takes the row at p[i], and
     * one row per cycle is held aside, so no second scene is needed. */
    int n = s->n, d = s->d;
    bool done[ATTN_MAX_TOKENS] = {false};
    char tok[ATTN_MAX_TOKEN_BYTES];
    float x[ATTN_MAX_D];
    for (int start = 0; start < n; start++) {
        if (done[start]) continue;
        memcpy(tok, s->tokens[start], sizeof tok);
        memcpy(x, &s->X[start * d], sizeof(float) * (size_t)d);
        int origin = s->origin[start];
        for (int i = start;;) {
            done[i] = true;
            int from = p[i];
            if (from == start) {
                memcpy(s->tokens[i], tok, sizeof tok);
                memcpy(&s->X[i * d], x, sizeof(float) * (size_t)d);
                s->origin[i] = origin;
                break;
            }
            memcpy(s->tokens[i], s->tokens[from], sizeof tok);
            memcpy(&s->X[i * d], &s->X[from * d], sizeof(float) * (size_t)d);
            s->origin[i] = s->origin[from];
            i = from;
        }
    }
}

bool scene_equal(const Scene *a, const Scene *b) {
    if (a->n != b->n || a->d != b->d) return false;
    for (int k = 0; k < SET_COUNT; k++)
        if (setting_get(a, (Setting_Id)k) != setting_get(b, (Setting_Id)k)) return false;
    if (a->learned != b->learned) return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->tokens[i], b->tokens[i]) != 0) return false;
    /* Bitwise on purpose: a round trip must reproduce every float exactly. */
    return memcmp(a->X, b->X, sizeof(float) * (size_t)a->n * (size_t)a->d) == 0;
}

const char *pos_mode_name(Pos_Mode m) {
    return setting_choice_name(SET_POS, (int)m);
}

bool pos_mode_parse(const char *name, Pos_Mode *dest) {
    int v;
    if (!setting_choice_parse(SET_POS, name, &v)) return false;
    *dest = (Pos_Mode)v;
    return true;
}

bool pos_mode_added(Pos_Mode m) {
    return m == POS_SIN || m == POS_LEARNED;
}

void scene_positions(const Scene *s, float *P) {
    if (s->pos == POS_LEARNED)
        posenc_learned(s->seed, s->pos_offset, s->n, s->d, s->pos_strength, P);
    else
        posenc_sinusoidal(s->pos_offset, s->n, s->d, s->pos_strength, P);
}

double scene_alibi_slope(const Scene *s, int h) {
    return s->pos == POS_ALIBI ? posenc_alibi_slope(h + 1, s->heads < 1 ? 1 : s->heads) : 0.0;
}

/* What the pass needs to compute the scene's heads from its derived parts
 * (w and slopes: room for the heads' pointers and ALiBi slopes). */
static Attend_Desc attend_desc(const Derived *dv, const Scene *s, const float *w[3][ATTN_MAX_HEADS],
                               double *slopes) {
    int H = s->heads < 1 ? 1 : s->heads;
    for (int h = 0; h < H; h++) {
        w[0][h] = derived_w(dv, h, PROJ_Q);
        w[1][h] = derived_w(dv, h, PROJ_K);
        w[2][h] = derived_w(dv, h, PROJ_V);
        slopes[h] = scene_alibi_slope(s, h);
    }
    return (Attend_Desc){.n = s->n,
                         .d = s->d,
                         .d_k = s->d_k,
                         .d_v = s->d_v,
                         .heads = H,
                         .scaled = s->scaled,
                         .causal = s->mask == MASK_CAUSAL,
                         .X = s->X,
                         .P = dv->has_p ? dv->P : NULL,
                         .W_Q = w[0],
                         .W_K = w[1],
                         .W_V = w[2],
                         .W_O = dv->W_O,
                         .rope = s->pos == POS_ROPE,
                         .rope_base = s->rope_base,
                         .pos_offset = s->pos_offset,
                         .alibi = s->pos == POS_ALIBI ? slopes : NULL};
}

static bool resize(float **buf, size_t count) {
    float *p = realloc(*buf, count * sizeof(float));
    if (!p) return false;
    *buf = p;
    return true;
}

static bool reserve(float **buf, size_t *cap, size_t need) {
    if (need <= *cap) return true;
    if (!resize(buf, need)) return false;
    *cap = need;
    return true;
}

const Attn *derived_head(const Derived *dv, int h) {
    return &dv->pass.head[h];
}

const float *derived_w(const Derived *dv, int h, Proj_Kind kind) {
    if (h == 0) return kind == PROJ_Q ? dv->W_Q : kind == PROJ_K ? dv->W_K : dv->W_V;
    const Derived_Head *m = &dv->more[h - 1];
    return kind == PROJ_Q ? m->W_Q : kind == PROJ_K ? m->W_K : m->W_V;
}

static float **w_slot(Derived *dv, int h, Proj_Kind kind) {
    if (h == 0) return kind == PROJ_Q ? &dv->W_Q : kind == PROJ_K ? &dv->W_K : &dv->W_V;
    Derived_Head *m = &dv->more[h - 1];
    return kind == PROJ_Q ? &m->W_Q : kind == PROJ_K ? &m->W_K : &m->W_V;
}

bool scene_uses_learned(const Scene *s, const Learned_Head *h) {
    return s->learned && h && h->ready && s->heads == 1 && h->d == s->d && h->d_k == s->d_k &&
           h->d_v == s->d_v;
}

/* The weights held are not the ones this scene asks for. */
static bool weights_stale(const Derived *dv, const Scene *s) {
    int H = s->heads < 1 ? 1 : s->heads;
    bool learned = scene_uses_learned(s, dv->learned);
    return !dv->have_w || dv->seed != s->seed || dv->d != s->d || dv->d_k != s->d_k ||
           dv->d_v != s->d_v || dv->heads != H || dv->from_learned != learned ||
           (learned && dv->generation != dv->learned->generation);
}

bool derived_update(Derived *dv, const Scene *s) {
    int H = s->heads < 1 ? 1 : s->heads;
    if (weights_stale(dv, s)) {
        bool learned = scene_uses_learned(s, dv->learned);
        size_t qk = (size_t)s->d * s->d_k, v = (size_t)s->d * s->d_v;
        dv->have_w = false;
        for (int h = 0; h < H; h++) {
            if (!resize(w_slot(dv, h, PROJ_Q), qk) || !resize(w_slot(dv, h, PROJ_K), qk) ||
                !resize(w_slot(dv, h, PROJ_V), v))
                return false;
            proj_fill(s->seed, PROJ_Q, h, s->d, s->d_k, *w_slot(dv, h, PROJ_Q));
            proj_fill(s->seed, PROJ_K, h, s->d, s->d_k, *w_slot(dv, h, PROJ_K));
            proj_fill(s->seed, PROJ_V, h, s->d, s->d_v, *w_slot(dv, h, PROJ_V));
        }
        size_t wo = (size_t)H * s->d_v * s->d;
        if (!resize(&dv->W_O, wo)) return false;
        dv->cap_o = wo;
        proj_fill_output(s->seed, H, s->d_v, s->d, dv->W_O);
        if (learned) { /* one head: its trained weights instead */
            memcpy(dv->W_Q, dv->learned->W_Q, sizeof(float) * qk);
            memcpy(dv->W_K, dv->learned->W_K, sizeof(float) * qk);
            memcpy(dv->W_V, dv->learned->W_V, sizeof(float) * v);
            memcpy(dv->W_O, dv->learned->W_O, sizeof(float) * wo);
            dv->generation = dv->learned->generation;
        }
        dv->from_learned = learned;
        dv->have_w = true;
        dv->seed = s->seed;
        dv->d = s->d;
        dv->d_k = s->d_k;
        dv->d_v = s->d_v;
        dv->heads = H;
    }
    dv->has_p = pos_mode_added(s->pos);
    if (dv->has_p) {
        if (!reserve(&dv->P, &dv->cap_p, (size_t)s->n * s->d)) return false;
        scene_positions(s, dv->P);
    }
    const float *w[3][ATTN_MAX_HEADS];
    double slopes[ATTN_MAX_HEADS];
    Attend_Desc desc = attend_desc(dv, s, w, slopes);
    if (!attend_compute(&dv->pass, &desc)) return false;
    dv->concat = dv->pass.concat;
    dv->Y = dv->pass.Y;
    return true;
}

bool derived_update_token(Derived *dv, const Scene *s, int i) {
    const Attn *a = dv->pass.cap_heads > 0 ? &dv->pass.head[0] : NULL;
    if (weights_stale(dv, s) || !a || a->n != s->n || a->scaled != s->scaled ||
        a->causal != (s->mask == MASK_CAUSAL) || dv->has_p != pos_mode_added(s->pos))
        return derived_update(dv, s);
    const float *w[3][ATTN_MAX_HEADS];
    double slopes[ATTN_MAX_HEADS];
    Attend_Desc desc = attend_desc(dv, s, w, slopes);
    return attend_update_row(&dv->pass, &desc, i);
}

void derived_free(Derived *dv) {
    free(dv->W_Q);
    free(dv->W_K);
    free(dv->W_V);
    free(dv->P);
    for (int h = 0; h < ATTN_MAX_HEADS - 1; h++) {
        free(dv->more[h].W_Q);
        free(dv->more[h].W_K);
        free(dv->more[h].W_V);
    }
    free(dv->W_O);
    attend_free(&dv->pass);
    const Learned_Head *learned = dv->learned; /* not the derived data's own */
    memset(dv, 0, sizeof *dv);
    dv->learned = learned;
}
