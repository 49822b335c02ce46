/* Byte-level and SentencePiece-style BPE: encoding a text (see bpe.h); the
 * vocabulary and merges it reads are bpe.c's. */
#include "bpe_encode.h"

#include "../core/i18n.h"
#include "../core/text.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include <stdlib.h>
#include <string.h>

typedef struct Encoder {
    const Bpe *b;
    int32_t *ids;
    int count, max;
    int pattern_error; /* a pattern's match that gave up (PCRE2's error code), or 0 */
    uint32_t missing;  /* a character without a token, a fallback or the unknown token, or 0 */
} Encoder;

/* A merge that may apply: the pair at symbol `pos` and the one after it. */
typedef struct Merge {
    int32_t rank, pos;
} Merge;

/* The rank of joining these two tokens, and the join; −1 if none. */
static int32_t rank_of(const Bpe *b, int32_t left, int32_t right, int32_t *joined) {
    bool found;
    const int32_t *slot =
        bpe_pair_slot(b, (uint64_t)(uint32_t)left << 32 | (uint32_t)right, &found);
    if (!found) return -1;
    *joined = *slot;
    return b->pair_rank[slot - b->pair_joined];
}

/* A min-heap of merges: lowest rank first, then leftmost. */
static bool merge_before(Merge a, Merge b) {
    return a.rank != b.rank ? a.rank < b.rank : a.pos < b.pos;
}

static void heap_push(Merge *heap, int *n, Merge m) {
    int k = (*n)++;
    while (k > 0 && merge_before(m, heap[(k - 1) / 2])) {
        heap[k] = heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    heap[k] = m;
}

static Merge heap_pop(Merge *heap, int *n) {
    Merge top = heap[0], last = heap[--*n];
    int k = 0;
    for (;;) {
        int child = 2 * k + 1;
        if (child >= *n) break;
        if (child + 1 < *n && merge_before(heap[child + 1], heap[child])) child++;
        if (!merge_before(heap[child], last)) break;
        heap[k] = heap[child];
        k = child;
    }
    if (*n) heap[k] = last;
    return top;
}

/* The piece's first symbols: its bytes' tokens (byte-level); or each
 * character's token, else its bytes' <0xNN> tokens, else the unknown token
 * (a run of them one, with fuse_unk). The count, or −1 with e->missing. */
static int first_symbols(Encoder *e, const char *s, size_t n, int32_t *sym) {
    const Bpe *b = e->b;
    int count = 0;
    if (!b->chars) {
        for (size_t k = 0; k < n; k++) sym[count++] = b->byte_id[(uint8_t)s[k]];
        return count;
    }
    bool in_unknown = false;
    for (size_t k = 0; k < n;) {
        uint32_t c;
        size_t len = text_utf8_next(s + k, n - k, &c);
        if (len == 0) len = 1, c = (uint8_t)s[k];
        int32_t id = bpe_lookup(b, s + k, len);
        bool bytes = id < 0 && b->byte_fallback;
        for (size_t j = 0; bytes && j < len; j++) bytes = b->byte_id[(uint8_t)s[k + j]] >= 0;
        if (id >= 0 || bytes) {
            if (id >= 0)
                sym[count++] = id;
            else
                for (size_t j = 0; j < len; j++) sym[count++] = b->byte_id[(uint8_t)s[k + j]];
            in_unknown = false;
        } else if (b->unk >= 0) {
            if (!(in_unknown && b->fuse_unk)) sym[count++] = b->unk;
            in_unknown = true;
        } else {
            e->missing = c;
            return -1;
        }
        k += len;
    }
    return count;
}

/* One piece, merged lowest rank first and leftmost first (as Hugging Face's
 * BPE does, with a heap: n log n, where a whole SentencePiece-style text is
 * one piece), onto the ids. */
static bool merge_piece(Encoder *e, const char *s, size_t n) {
    static int32_t sym[BPE_MAX_NORMAL], next[BPE_MAX_NORMAL], prev[BPE_MAX_NORMAL];
    static Merge heap[3 * BPE_MAX_NORMAL];
    const Bpe *b = e->b;
    if (b->ignore_merges) { /* a piece that is a token is that token */
        int32_t whole = bpe_lookup(b, s, n);
        if (whole >= 0) {
            if (e->count == e->max) return false;
            e->ids[e->count++] = whole;
            return true;
        }
    }
    int count = first_symbols(e, s, n, sym), heaped = 0;
    if (count < 0) return false;
    for (int k = 0; k < count; k++) {
        prev[k] = k - 1;
        next[k] = k + 1 < count ? k + 1 : -1;
    }
    int32_t joined = -1;
    for (int k = 0; k + 1 < count; k++) {
        int32_t rank = rank_of(b, sym[k], sym[k + 1], &joined);
        if (rank >= 0) heap_push(heap, &heaped, (Merge){rank, k});
    }
    while (heaped) {
        Merge m = heap_pop(heap, &heaped);
        int32_t k = m.pos, r = next[k];
        /* gone, or its pair changed since it was pushed */
        if (sym[k] < 0 || r < 0 || rank_of(b, sym[k], sym[r], &joined) != m.rank) continue;
        sym[k] = joined;
        sym[r] = -1;
        next[k] = next[r];
        if (next[k] >= 0) prev[next[k]] = k;
        int32_t rank;
        if (prev[k] >= 0 && (rank = rank_of(b, sym[prev[k]], joined, &joined)) >= 0)
            heap_push(heap, &heaped, (Merge){rank, prev[k]});
        if (next[k] >= 0 && (rank = rank_of(b, sym[k], sym[next[k]], &joined)) >= 0)
            heap_push(heap, &heaped, (Merge){rank, k});
    }
    for (int32_t k = 0; k >= 0; k = next[k]) {
        if (e->count == e->max) return false;
        e->ids[e->count++] = sym[k];
    }
    return true;
}

static bool pieces(Encoder *e, const char *s, size_t n, int step);

/* A pattern: each match a piece, and the text between matches. */
static bool pattern_pieces(Encoder *e, const char *s, size_t n, int step) {
    const Bpe *b = e->b;
    pcre2_code *re = b->step[step];
    pcre2_match_data *md = b->match;
    size_t at = 0, gap = 0;
    while (at < n) {
        /* A pattern is the tokenizer file's, so it may backtrack without end: each
         * match may take 64 steps a byte of what is left (the released patterns need
         * a few), and past that the text is refused, never cut or hung on. */
        pcre2_set_match_limit(b->limits, (uint32_t)(64 * (n - at) + 10000));
        int rc = pcre2_match(re, (PCRE2_SPTR)s, n, at, PCRE2_NO_UTF_CHECK, md, b->limits);
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) {
            e->pattern_error = rc;
            return false;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t from = ov[0], to = ov[1];
        if (to == from) { /* an empty match: on to the next character, which stays in the gap */
            uint32_t c;
            at = from + text_utf8_next(s + from, n - from, &c);
            continue;
        }
        if (from > gap && !pieces(e, s + gap, from - gap, step + 1)) return false;
        if (!pieces(e, s + from, to - from, step + 1)) return false;
        at = gap = to;
    }
    return gap >= n || pieces(e, s + gap, n - gap, step + 1);
}

/* The pre-tokenizer steps from `step` on, then the merges. */
static bool pieces(Encoder *e, const char *s, size_t n, int step) {
    if (n == 0) return true;
    if (step == e->b->steps) return merge_piece(e, s, n);
    return pattern_pieces(e, s, n, step);
}

/* The one line for a pattern that gave up. */
static void pattern_failed(int code, char *err, size_t errsz) {
    PCRE2_UCHAR why[160];
    pcre2_get_error_message(code, why, sizeof why);
    text_fail(err, errsz,
              _("the tokenizer's pattern gave up on this text (%s): give a shorter or "
                "plainer text"),
              (const char *)why);
}

/* The added token at s (n bytes left), longest first, or −1. */
static int32_t added_at(const Bpe *b, const char *s, size_t n) {
    for (int k = 0; k < b->added; k++) {
        int32_t id = b->added_id[k];
        size_t len = b->length[id];
        if (len <= n && b->arena[b->offset[id]] == s[0] &&
            !memcmp(b->arena + b->offset[id], s, len))
            return id;
    }
    return -1;
}

/* Bytes onto a normalizing step's output; false past BPE_MAX_NORMAL. */
static bool put(char *out, size_t *used, const char *s, size_t n) {
    if (*used + n > BPE_MAX_NORMAL) return false;
    memcpy(out + *used, s, n);
    *used += n;
    return true;
}

/* One normalizing step from s (n bytes) into out; `first`: s begins the
 * text. The bytes out, or −1 past BPE_MAX_NORMAL, or −2 (NFC failed). */
static long normalize(const Bpe_Norm *m, const char *s, size_t n, bool first, char *out) {
    static const char bar[] = "\xE2\x96\x81"; /* ▁ */
    size_t used = 0;
    bool ok = true;
    switch (m->kind) {
    case BPE_NFC: {
        utf8proc_uint8_t *nfc = NULL;
        utf8proc_ssize_t len = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &nfc,
                                            UTF8PROC_STABLE | UTF8PROC_COMPOSE);
        ok = len >= 0 && put(out, &used, (const char *)nfc, (size_t)len);
        free(nfc);
        if (len < 0) return -2;
        break;
    }
    case BPE_PREPEND: /* before a stretch that is not empty */
        ok = n == 0 || (put(out, &used, m->to, strlen(m->to)) && put(out, &used, s, n));
        break;
    case BPE_REPLACE: {
        size_t from = strlen(m->from), to = strlen(m->to);
        for (size_t k = 0; k < n && ok;) {
            if (k + from <= n && !memcmp(s + k, m->from, from)) {
                ok = put(out, &used, m->to, to);
                k += from;
            } else {
                ok = put(out, &used, s + k++, 1);
            }
        }
        break;
    }
    case BPE_METASPACE: { /* spaces are ▁, and a ▁ before the text as the scheme says */
        bool starts = n > 0 && (s[0] == ' ' || (n >= 3 && !memcmp(s, bar, 3)));
        if (!starts && n > 0 && (m->scheme == BPE_ALWAYS || (m->scheme == BPE_FIRST && first)))
            ok = put(out, &used, bar, 3);
        for (size_t k = 0; k < n && ok; k++)
            ok = s[k] == ' ' ? put(out, &used, bar, 3) : put(out, &used, s + k, 1);
        break;
    }
    }
    return ok ? (long)used : -1;
}

/* Text between added tokens (`first`: it begins the text): normalized,
 * then split and merged. */
static int segment(Encoder *e, const char *s, size_t n, bool first, char *err, size_t errsz) {
    static char buffer[2][BPE_MAX_NORMAL];
    if (n == 0) return 0;
    const Bpe *b = e->b;
    for (int k = 0; k < b->norms; k++) {
        long len = normalize(&b->norm[k], s, n, first, buffer[k % 2]);
        if (len == -2) {
            text_fail(err, errsz, _("the text cannot be normalized (NFC): %s"),
                      utf8proc_errmsg(UTF8PROC_ERROR_INVALIDUTF8));
            return -1;
        }
        if (len < 0) {
            text_fail(err, errsz, _("the text has more than %d bytes once normalized"),
                      BPE_MAX_NORMAL);
            return -1;
        }
        s = buffer[k % 2];
        n = (size_t)len;
    }
    if (pieces(e, s, n, 0)) return 0;
    if (e->pattern_error) {
        pattern_failed(e->pattern_error, err, errsz);
        return -1;
    }
    if (e->missing) {
        text_fail(err, errsz,
                  _("the character U+%04X is not in the tokenizer's vocabulary, and it has no "
                    "fallback for it"),
                  (unsigned)e->missing);
        return -1;
    }
    return BPE_TOO_MANY;
}

int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
               size_t errsz) {
    if (len > BPE_MAX_TEXT) {
        text_fail(err, errsz, _("the text has %zu bytes; at most %d are tokenized"), len,
                  BPE_MAX_TEXT);
        return -1;
    }
    for (size_t k = 0; k < len;) {
        uint32_t c;
        size_t step = text_utf8_next(text + k, len - k, &c);
        if (step == 0 || c == 0) {
            text_fail(err, errsz, _("the text is not UTF-8 without NUL at byte %zu"), k);
            return -1;
        }
        k += step;
    }
    Encoder e = {.b = b, .ids = ids, .max = max};
    int rc = 0;
    for (int k = 0; k < b->before && rc == 0; k++)
        if (e.count < max)
            ids[e.count++] = b->around[0][k];
        else
            rc = BPE_TOO_MANY;
    size_t start = 0;
    for (size_t k = 0; k <= len && rc == 0;) {
        int32_t id = k < len ? added_at(b, text + k, len - k) : -1;
        if (id < 0 && k < len) {
            k++;
            continue;
        }
        rc = segment(&e, text + start, k - start, start == 0, err, errsz);
        if (rc || k == len) break;
        if (e.count == max) {
            rc = BPE_TOO_MANY;
            break;
        }
        ids[e.count++] = id;
        k += b->length[id];
        start = k;
    }
    for (int k = 0; k < b->after && rc == 0; k++)
        if (e.count < max)
            ids[e.count++] = b->around[1][k];
        else
            rc = BPE_TOO_MANY;
    if (rc == -1) return -1;
    if (rc == BPE_TOO_MANY) {
        text_fail(err, errsz, _("the text is more than %d tokens"), max);
        return BPE_TOO_MANY;
    }
    return e.count;
}
