/* GPT-2's tokenizer; see bpe.h. */
#include "bpe.h"

#include "../core/text.h"
#include "../core/i18n.h"
#include "../json/json_strict.h"
#include "unicode_classes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPT-2's byte alphabet: the printable bytes stand for themselves, the
 * other 68 for the code points 256 … 323 in byte order. */
static int byte_of_symbol(uint32_t c) {
    static int map[324];
    static bool ready;
    if (!ready) {
        for (int k = 0; k < 324; k++) map[k] = -1;
        int n = 0;
        for (int b = 0; b < 256; b++) {
            bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
            map[printable ? b : 256 + n++] = b;
        }
        ready = true;
    }
    return c < 324 ? map[c] : -1;
}

static uint32_t hash_bytes(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++) h = (h ^ (uint8_t)s[k]) * 16777619u;
    return h;
}

static uint32_t hash_pair(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key;
}

/* The id of these bytes, or −1. */
static int32_t lookup(const Bpe *b, const char *s, size_t n) {
    for (uint32_t k = hash_bytes(s, n) & b->table_mask;; k = (k + 1) & b->table_mask) {
        int32_t id = b->table[k];
        if (id < 0) return -1;
        if (b->length[id] == n && !memcmp(b->arena + b->offset[id], s, n)) return id;
    }
}

/* A token's text in the byte alphabet to its raw bytes; false if a
 * character is outside the alphabet. */
static bool symbols_to_bytes(const char *s, size_t n, char *out, size_t *out_n) {
    size_t used = 0;
    for (size_t k = 0; k < n;) {
        uint32_t c;
        size_t len = text_utf8_next(s + k, n - k, &c);
        int byte = len > 0 ? byte_of_symbol(c) : -1;
        if (byte < 0) return false;
        out[used++] = (char)byte;
        k += len;
    }
    *out_n = used;
    return true;
}

static bool load_vocab(Bpe *b, const char *text, size_t len, const char *name, char *err,
                       size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the vocabulary"), err, errsz);
    if (!root) return false;
    bool ok = false;
    int count = cJSON_GetArraySize(root);
    size_t bytes = 0;
    if (!cJSON_IsObject(root)) {
        text_fail(err, errsz, "%s: not a JSON object of token → id", name);
        goto done;
    }
    if (count < 256 || count > BPE_MAX_VOCAB) {
        text_fail(err, errsz, "%s: %d tokens; a byte-level vocabulary has 256 to %d", name, count,
                  BPE_MAX_VOCAB);
        goto done;
    }
    for (const cJSON *e = root->child; e; e = e->next) bytes += strlen(e->string);
    b->count = count;
    b->arena = malloc(bytes ? bytes : 1);
    b->offset = malloc(sizeof *b->offset * (size_t)count);
    b->length = malloc(sizeof *b->length * (size_t)count);
    uint32_t slots = 1;
    while (slots < 2u * (uint32_t)count) slots <<= 1;
    b->table = malloc(sizeof *b->table * slots);
    b->table_mask = slots - 1;
    if (!b->arena || !b->offset || !b->length || !b->table) {
        text_fail(err, errsz, "%s: out of memory for %d tokens", name, count);
        goto done;
    }
    memset(b->table, 0xFF, sizeof *b->table * slots);
    for (int k = 0; k < count; k++) b->length[k] = UINT16_MAX; /* not seen yet */
    size_t used = 0;
    for (const cJSON *e = root->child; e; e = e->next) {
        double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(v >= 0 && v < count && v == (int32_t)v)) {
            text_fail(err, errsz, "%s: token '%.40s': its id is not a whole number from 0 to %d",
                      name, e->string, count - 1);
            goto done;
        }
        int32_t id = (int32_t)v;
        if (b->length[id] != UINT16_MAX) {
            text_fail(err, errsz, "%s: id %d belongs to two tokens", name, id);
            goto done;
        }
        size_t n;
        if (!symbols_to_bytes(e->string, strlen(e->string), b->arena + used, &n) || n == 0 ||
            n >= UINT16_MAX) {
            text_fail(err, errsz, "%s: token '%.40s' is not text in GPT-2's byte alphabet", name,
                      e->string);
            goto done;
        }
        if (lookup(b, b->arena + used, n) >= 0) {
            text_fail(err, errsz, "%s: token '%.40s' is there twice", name, e->string);
            goto done;
        }
        b->offset[id] = (uint32_t)used;
        b->length[id] = (uint16_t)n;
        uint32_t k = hash_bytes(b->arena + used, n) & b->table_mask;
        while (b->table[k] >= 0) k = (k + 1) & b->table_mask;
        b->table[k] = id;
        used += n;
    }
    for (int c = 0; c < 256; c++) {
        char one = (char)c;
        if ((b->byte_id[c] = lookup(b, &one, 1)) < 0) {
            text_fail(err, errsz, "%s: no token for the byte 0x%02X", name, c);
            goto done;
        }
    }
    b->special = lookup(b, BPE_EOT, strlen(BPE_EOT));
    ok = true;
done:
    cJSON_Delete(root);
    return ok;
}

static int32_t *pair_slot(const Bpe *b, uint64_t key, bool *found) {
    for (uint32_t k = hash_pair(key) & b->pair_mask;; k = (k + 1) & b->pair_mask) {
        if (b->pair_joined[k] < 0 || b->pair_key[k] == key) {
            *found = b->pair_joined[k] >= 0;
            return &b->pair_joined[k];
        }
    }
}

static bool load_merges(Bpe *b, const char *text, size_t len, const char *name, char *err,
                        size_t errsz) {
    int lines = 0;
    for (size_t k = 0; k < len; k++) lines += text[k] == '\n';
    if (lines > BPE_MAX_MERGES + 1)
        return text_fail(err, errsz, "%s: more than %d merges", name, BPE_MAX_MERGES);
    uint32_t slots = 1;
    while (slots < 2u * (uint32_t)(lines + 1)) slots <<= 1;
    b->pair_key = malloc(sizeof *b->pair_key * slots);
    b->pair_rank = malloc(sizeof *b->pair_rank * slots);
    b->pair_joined = malloc(sizeof *b->pair_joined * slots);
    b->pair_mask = slots - 1;
    if (!b->pair_key || !b->pair_rank || !b->pair_joined)
        return text_fail(err, errsz, "%s: out of memory for %d merges", name, lines);
    memset(b->pair_joined, 0xFF, sizeof *b->pair_joined * slots);
    int line = 0;
    static char left[65536], right[65536], both[131072];
    for (size_t at = 0; at < len;) {
        const char *s = text + at, *nl = memchr(s, '\n', len - at);
        size_t n = nl ? (size_t)(nl - s) : len - at;
        at += n + 1;
        line++;
        if (n && s[n - 1] == '\r') n--;
        if (n == 0 || (line == 1 && n >= 8 && !memcmp(s, "#version", 8))) continue;
        const char *space = memchr(s, ' ', n);
        if (!space || space == s || space == s + n - 1 ||
            memchr(space + 1, ' ', (size_t)(s + n - space - 1)))
            return text_fail(err, errsz, "%s:%d: not two tokens separated by one space", name,
                             line);
        size_t ln, rn;
        if ((size_t)(space - s) >= sizeof left || (size_t)(s + n - space - 1) >= sizeof right)
            return text_fail(err, errsz, "%s:%d: a token longer than %zu bytes", name, line,
                             sizeof left - 1);
        if (!symbols_to_bytes(s, (size_t)(space - s), left, &ln) ||
            !symbols_to_bytes(space + 1, (size_t)(s + n - space - 1), right, &rn))
            return text_fail(err, errsz, "%s:%d: not text in GPT-2's byte alphabet", name, line);
        int32_t a = lookup(b, left, ln), c = lookup(b, right, rn);
        memcpy(both, left, ln);
        memcpy(both + ln, right, rn);
        int32_t joined = lookup(b, both, ln + rn);
        if (a < 0 || c < 0) {
            bool left_missing = a < 0; /* as written in the file */
            return text_fail(
                err, errsz, "%s:%d: '%.*s' is not in the vocabulary", name, line,
                (int)(left_missing ? (size_t)(space - s) : (size_t)(s + n - space - 1)),
                left_missing ? s : space + 1);
        }
        if (joined < 0)
            return text_fail(err, errsz, "%s:%d: the join of '%.*s' is not in the vocabulary", name,
                             line, (int)n, s);
        uint64_t key = (uint64_t)(uint32_t)a << 32 | (uint32_t)c;
        bool found;
        int32_t *slot = pair_slot(b, key, &found);
        if (found) continue; /* a repeated merge keeps its first rank */
        size_t k = (size_t)(slot - b->pair_joined);
        b->pair_key[k] = key;
        b->pair_rank[k] = b->merges++;
        *slot = joined;
    }
    return true;
}

bool bpe_load(Bpe *b, const char *vocab, size_t vocab_len, const char *vocab_name,
              const char *merges, size_t merges_len, const char *merges_name, char *err,
              size_t errsz) {
    Bpe fresh = {0};
    if (!load_vocab(&fresh, vocab, vocab_len, vocab_name, err, errsz) ||
        !load_merges(&fresh, merges, merges_len, merges_name, err, errsz)) {
        bpe_free(&fresh);
        return false;
    }
    *b = fresh;
    return true;
}

/* What a tokenizer.json does besides its vocabulary and merges must be what
 * GPT-2's does, or its ids would differ from the model's without a word: no
 * normalizer, the ByteLevel pre-tokenizer with GPT-2's pattern and no prefix
 * space, no byte fallback, merges not skipped. Else one line naming it. */
static bool gpt2_kind(const cJSON *root, const char *name, char *err, size_t errsz) {
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(root, "normalizer");
    const cJSON *pre = cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer");
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    const char *what = NULL;
    char kind[60] = "";
    if (norm && !cJSON_IsNull(norm)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(norm, "type");
        snprintf(kind, sizeof kind, "normalizer %.40s", cJSON_IsString(t) ? t->valuestring : "?");
        what = kind;
    } else if (pre && !cJSON_IsNull(pre)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(pre, "type");
        const cJSON *prefix = cJSON_GetObjectItemCaseSensitive(pre, "add_prefix_space");
        const cJSON *regex = cJSON_GetObjectItemCaseSensitive(pre, "use_regex");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "ByteLevel")) {
            snprintf(kind, sizeof kind, "pre_tokenizer %.40s",
                     cJSON_IsString(t) ? t->valuestring : "?");
            what = kind;
        } else if (cJSON_IsTrue(prefix)) {
            what = "ByteLevel's add_prefix_space";
        } else if (cJSON_IsFalse(regex)) {
            what = "ByteLevel without its pattern (use_regex false)";
        }
    }
    if (!what && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "byte_fallback")))
        what = "model.byte_fallback";
    if (!what && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "ignore_merges")))
        what = "model.ignore_merges";
    if (!what) return true;
    return text_fail(err, errsz,
                     _("%s: its %s is not read yet: attnlab tokenizes as GPT-2's byte-level BPE "
                       "does, and would give other ids than the model's"),
                     name, what);
}

bool bpe_load_tokenizer_json(Bpe *b, const char *text, size_t len, const char *name, char *err,
                             size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the tokenizer"), err, errsz);
    if (!root) return false;
    bool ok = false;
    char *vocab = NULL, *merges = NULL;
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(model, "type");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(model, "vocab");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(model, "merges");
    if (!cJSON_IsObject(model) ||
        (type && !(cJSON_IsString(type) && !strcmp(type->valuestring, "BPE")))) {
        text_fail(err, errsz, "%s: \"model\" is not a BPE model, GPT-2's tokenizer", name);
        goto done;
    }
    if (!cJSON_IsObject(v) || !cJSON_IsArray(m)) {
        text_fail(err, errsz, "%s: model.vocab must be an object and model.merges an array", name);
        goto done;
    }
    if (!gpt2_kind(root, name, err, errsz)) goto done;
    /* the merges as merges.txt's lines: "A B" strings, or [A, B] pairs in newer files */
    size_t bytes = 1;
    int entry = 0;
    for (const cJSON *e = m->child; e; e = e->next, entry++) {
        const cJSON *l = cJSON_GetArrayItem(e, 0), *r = cJSON_GetArrayItem(e, 1);
        bool pair = cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2 && cJSON_IsString(l) &&
                    cJSON_IsString(r);
        if (!(cJSON_IsString(e) || pair)) {
            text_fail(err, errsz, "%s: model.merges[%d] is not \"A B\" or [\"A\", \"B\"]", name,
                      entry);
            goto done;
        }
        const char *parts[2] = {pair ? l->valuestring : e->valuestring, pair ? r->valuestring : ""};
        for (int k = 0; k < 2; k++)
            if (strchr(parts[k], '\n')) {
                text_fail(err, errsz, "%s: model.merges[%d] holds a line break", name, entry);
                goto done;
            }
        bytes += strlen(parts[0]) + strlen(parts[1]) + 2;
    }
    vocab = cJSON_PrintUnformatted(v);
    merges = malloc(bytes);
    if (!vocab || !merges) {
        text_fail(err, errsz, "%s: out of memory", name);
        goto done;
    }
    size_t at = 0;
    for (const cJSON *e = m->child; e; e = e->next)
        at += (size_t)sprintf(merges + at, cJSON_IsString(e) ? "%s\n" : "%s %s\n",
                              cJSON_IsString(e) ? e->valuestring
                                                : cJSON_GetArrayItem(e, 0)->valuestring,
                              cJSON_IsString(e) ? "" : cJSON_GetArrayItem(e, 1)->valuestring);
    char vocab_name[600], merges_name[600];
    snprintf(vocab_name, sizeof vocab_name, "%s (model.vocab)", name);
    snprintf(merges_name, sizeof merges_name, "%s (model.merges, entry)", name);
    ok = bpe_load(b, vocab, strlen(vocab), vocab_name, merges, at, merges_name, err, errsz);
done:
    free(vocab);
    free(merges);
    cJSON_Delete(root);
    return ok;
}

void bpe_free(Bpe *b) {
    free(b->arena);
    free(b->offset);
    free(b->length);
    free(b->table);
    free(b->pair_key);
    free(b->pair_rank);
    free(b->pair_joined);
    memset(b, 0, sizeof *b);
}

size_t bpe_token_bytes(const Bpe *b, int32_t id, const char **bytes) {
    if (id < 0 || id >= b->count) {
        *bytes = "";
        return 0;
    }
    *bytes = b->arena + b->offset[id];
    return b->length[id];
}

int32_t bpe_special(const Bpe *b) {
    return b->special;
}

/* ---- encoding ---------------------------------------------------------------------- */

typedef struct Encoder {
    const Bpe *b;
    const char *text;
    const uint32_t *cp; /* code points, and where each starts in text */
    const uint32_t *at;
    int32_t *ids;
    int count, max;
} Encoder;

/* One piece's bytes, merged lowest rank first, onto the ids. */
static bool merge_piece(Encoder *e, size_t begin, size_t end) {
    static int32_t sym[BPE_MAX_TEXT];
    int n = 0;
    for (size_t k = begin; k < end; k++) sym[n++] = e->b->byte_id[(uint8_t)e->text[k]];
    for (;;) {
        int32_t best = INT32_MAX, joined = -1, left = -1, right = -1;
        for (int k = 0; k + 1 < n; k++) {
            bool found;
            uint64_t key = (uint64_t)(uint32_t)sym[k] << 32 | (uint32_t)sym[k + 1];
            const int32_t *slot = pair_slot(e->b, key, &found);
            if (!found) continue;
            int32_t rank = e->b->pair_rank[slot - e->b->pair_joined];
            if (rank < best) best = rank, joined = *slot, left = sym[k], right = sym[k + 1];
        }
        if (joined < 0) break;
        int w = 0; /* every occurrence, left to right */
        for (int k = 0; k < n; k++) {
            if (k + 1 < n && sym[k] == left && sym[k + 1] == right) {
                sym[w++] = joined;
                k++;
            } else {
                sym[w++] = sym[k];
            }
        }
        n = w;
    }
    if (e->count + n > e->max) return false;
    memcpy(e->ids + e->count, sym, sizeof *sym * (size_t)n);
    e->count += n;
    return true;
}

static bool is_other(uint32_t c) {
    return !unicode_is_space(c) && !unicode_is_letter(c) && !unicode_is_number(c);
}

/* The pre-tokenizer's match at code point i of [i, end): its length in code points. */
static int match(const uint32_t *cp, int i, int end) {
    static const char *const tails[] = {"s", "t", "re", "ve", "m", "ll", "d"};
    if (cp[i] == '\'')
        for (int t = 0; t < 7; t++) {
            int n = (int)strlen(tails[t]), k = 0;
            while (k < n && i + 1 + k < end && cp[i + 1 + k] == (uint32_t)tails[t][k]) k++;
            if (k == n) return n + 1;
        }
    bool (*const classes[3])(uint32_t) = {unicode_is_letter, unicode_is_number, is_other};
    for (int c = 0; c < 3; c++) { /* ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+` */
        int k = i + (cp[i] == ' ' && i + 1 < end && classes[c](cp[i + 1]));
        if (!classes[c](cp[k])) continue;
        while (k < end && classes[c](cp[k])) k++;
        return k - i;
    }
    int run = 0; /* `\s+(?!\S)`, then `\s+` */
    while (i + run < end && unicode_is_space(cp[i + run])) run++;
    if (i + run == end || run == 1) return run;
    return run - 1;
}

int bpe_encode(const Bpe *b, const char *text, size_t len, int32_t *ids, int max, char *err,
               size_t errsz) {
    if (len > BPE_MAX_TEXT) {
        text_fail(err, errsz, _("the text has %zu bytes; at most %d are tokenized"), len,
                  BPE_MAX_TEXT);
        return -1;
    }
    static uint32_t cp[BPE_MAX_TEXT + 1], at[BPE_MAX_TEXT + 1];
    int n = 0;
    for (size_t k = 0; k < len;) {
        size_t step = text_utf8_next(text + k, len - k, &cp[n]);
        if (step == 0 || cp[n] == 0) {
            text_fail(err, errsz, _("the text is not UTF-8 without NUL at byte %zu"), k);
            return -1;
        }
        at[n++] = (uint32_t)k;
        k += step;
    }
    at[n] = (uint32_t)len;
    Encoder e = {.b = b, .text = text, .cp = cp, .at = at, .ids = ids, .max = max};
    size_t eot = strlen(BPE_EOT);
    int start = 0;
    while (start <= n) {
        /* up to the next <|endoftext|>, when the vocabulary has it */
        int stop = n;
        if (b->special >= 0)
            for (int k = start; k + (int)eot <= n; k++)
                if (cp[k] == '<' && at[k] + eot <= len && !memcmp(text + at[k], BPE_EOT, eot)) {
                    stop = k;
                    break;
                }
        for (int i = start; i < stop;) {
            int m = match(cp, i, stop);
            if (!merge_piece(&e, at[i], at[i + m])) goto too_many;
            i += m;
        }
        if (stop == n) break;
        if (e.count == max) goto too_many;
        ids[e.count++] = b->special;
        start = stop + (int)eot;
    }
    return e.count;
too_many:
    text_fail(err, errsz, _("the text is more than %d tokens"), max);
    return BPE_TOO_MANY;
}
