/* Byte-level BPE tokenizers; see bpe.h. */
#include "bpe.h"

#include "../core/text.h"
#include "../core/i18n.h"
#include "../json/json_strict.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include <ctype.h>
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
int32_t bpe_lookup(const Bpe *b, const char *s, size_t n) {
    for (uint32_t k = hash_bytes(s, n) & b->table_mask;; k = (k + 1) & b->table_mask) {
        int32_t id = b->table[k];
        if (id < 0) return -1;
        if (b->length[id] == n && !memcmp(b->arena + b->offset[id], s, n)) return id;
    }
}

/* A token as the vocabulary writes it to the bytes it is looked up by: in
 * the byte alphabet, its raw bytes (false if a character is outside the
 * alphabet); SentencePiece-style, itself. */
static bool token_text(const Bpe *b, const char *s, size_t n, char *out, size_t *out_n) {
    if (b->chars) {
        memcpy(out, s, n);
        *out_n = n;
        return true;
    }
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

/* A SentencePiece-style token's text as the decoder gives it: each ▁ a
 * space, and a byte token <0xNN> its byte. Never longer than the token. */
static bool show_chars(Bpe *b) {
    size_t bytes = 0;
    for (int32_t id = 0; id < b->count; id++) bytes += b->length[id];
    b->shown = malloc(bytes ? bytes : 1);
    b->shown_length = malloc(sizeof *b->shown_length * (size_t)b->count);
    if (!b->shown || !b->shown_length) return false;
    for (int32_t id = 0; id < b->count; id++) {
        const char *t = b->arena + b->offset[id];
        char *out = b->shown + b->offset[id];
        size_t n = b->length[id], used = 0;
        if (n == 6 && !memcmp(t, "<0x", 3) && isxdigit((unsigned char)t[3]) &&
            isxdigit((unsigned char)t[4]) && t[5] == '>') {
            char hex[3] = {t[3], t[4], 0};
            out[used++] = (char)strtoul(hex, NULL, 16);
        } else {
            for (size_t k = 0; k < n; k++) {
                if (k + 3 <= n && !memcmp(t + k, "\xE2\x96\x81", 3)) { /* ▁ */
                    out[used++] = ' ';
                    k += 2;
                } else {
                    out[used++] = t[k];
                }
            }
        }
        b->shown_length[id] = (uint16_t)used;
    }
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
    if (count < (b->chars ? 1 : 256) || count > BPE_MAX_VOCAB) {
        text_fail(err, errsz, "%s: %d tokens; a %s vocabulary has %d to %d", name, count,
                  b->chars ? "SentencePiece-style" : "byte-level", b->chars ? 1 : 256,
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
        if (!token_text(b, e->string, strlen(e->string), b->arena + used, &n) || n == 0 ||
            n >= UINT16_MAX) {
            text_fail(err, errsz, "%s: token '%.40s' is not text in GPT-2's byte alphabet", name,
                      e->string);
            goto done;
        }
        if (bpe_lookup(b, b->arena + used, n) >= 0) {
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
        char one[8];
        int n = b->chars ? snprintf(one, sizeof one, "<0x%02X>", c) : (one[0] = (char)c, 1);
        if ((b->byte_id[c] = bpe_lookup(b, one, (size_t)n)) < 0 && !b->chars) {
            text_fail(err, errsz, "%s: no token for the byte 0x%02X", name, c);
            goto done;
        }
    }
    if (b->chars && !show_chars(b)) {
        text_fail(err, errsz, "%s: out of memory for %d tokens", name, count);
        goto done;
    }
    b->special = bpe_lookup(b, BPE_EOT, strlen(BPE_EOT));
    b->vocab_count = count;
    ok = true;
done:
    cJSON_Delete(root);
    return ok;
}

int32_t *bpe_pair_slot(const Bpe *b, uint64_t key, bool *found) {
    for (uint32_t k = hash_pair(key) & b->pair_mask;; k = (k + 1) & b->pair_mask) {
        if (b->pair_joined[k] < 0 || b->pair_key[k] == key) {
            *found = b->pair_joined[k] >= 0;
            return &b->pair_joined[k];
        }
    }
}

/* Room for `count` merges. */
static bool merge_table(Bpe *b, int count, const char *name, char *err, size_t errsz) {
    if (count > BPE_MAX_MERGES)
        return text_fail(err, errsz, "%s: more than %d merges", name, BPE_MAX_MERGES);
    uint32_t slots = 1;
    while (slots < 2u * (uint32_t)(count + 1)) slots <<= 1;
    b->pair_key = malloc(sizeof *b->pair_key * slots);
    b->pair_rank = malloc(sizeof *b->pair_rank * slots);
    b->pair_joined = malloc(sizeof *b->pair_joined * slots);
    b->pair_mask = slots - 1;
    if (!b->pair_key || !b->pair_rank || !b->pair_joined)
        return text_fail(err, errsz, "%s: out of memory for %d merges", name, count);
    memset(b->pair_joined, 0xFF, sizeof *b->pair_joined * slots);
    return true;
}

/* The next merge, of two tokens as the vocabulary writes them: both and
 * their join must be tokens. `line` names it in an error. */
static bool add_merge(Bpe *b, const char *l, size_t ln, const char *r, size_t rn, const char *name,
                      int line, char *err, size_t errsz) {
    static char left[65536], right[65536], both[131072];
    if (ln >= sizeof left || rn >= sizeof right)
        return text_fail(err, errsz, "%s:%d: a token longer than %zu bytes", name, line,
                         sizeof left - 1);
    size_t lb, rb;
    if (!token_text(b, l, ln, left, &lb) || !token_text(b, r, rn, right, &rb))
        return text_fail(err, errsz, "%s:%d: not text in GPT-2's byte alphabet", name, line);
    int32_t a = bpe_lookup(b, left, lb), c = bpe_lookup(b, right, rb);
    if (a < 0 || c < 0)
        return text_fail(err, errsz, "%s:%d: '%.*s' is not in the vocabulary", name, line,
                         (int)(a < 0 ? ln : rn), a < 0 ? l : r);
    memcpy(both, left, lb);
    memcpy(both + lb, right, rb);
    int32_t joined = bpe_lookup(b, both, lb + rb);
    if (joined < 0)
        return text_fail(err, errsz,
                         "%s:%d: the join of '%.*s' and '%.*s' is not in the vocabulary", name,
                         line, (int)ln, l, (int)rn, r);
    uint64_t key = (uint64_t)(uint32_t)a << 32 | (uint32_t)c;
    bool found;
    int32_t *slot = bpe_pair_slot(b, key, &found);
    if (found) return true; /* a repeated merge keeps its first rank */
    size_t k = (size_t)(slot - b->pair_joined);
    b->pair_key[k] = key;
    b->pair_rank[k] = b->merges++;
    *slot = joined;
    return true;
}

/* "A B": two tokens and one space between. */
static bool split_merge(const char *s, size_t n, const char **space) {
    *space = memchr(s, ' ', n);
    return *space && *space != s && *space != s + n - 1 &&
           !memchr(*space + 1, ' ', (size_t)(s + n - *space - 1));
}

/* merges.txt: a `#version` line may come first, then "A B" a line. */
static bool load_merges(Bpe *b, const char *text, size_t len, const char *name, char *err,
                        size_t errsz) {
    int lines = 0;
    for (size_t k = 0; k < len; k++) lines += text[k] == '\n';
    if (!merge_table(b, lines, name, err, errsz)) return false;
    int line = 0;
    for (size_t at = 0; at < len;) {
        const char *s = text + at, *nl = memchr(s, '\n', len - at), *space;
        size_t n = nl ? (size_t)(nl - s) : len - at;
        at += n + 1;
        line++;
        if (n && s[n - 1] == '\r') n--;
        if (n == 0 || (line == 1 && n >= 8 && !memcmp(s, "#version", 8))) continue;
        if (!split_merge(s, n, &space))
            return text_fail(err, errsz, "%s:%d: not two tokens separated by one space", name,
                             line);
        if (!add_merge(b, s, (size_t)(space - s), space + 1, (size_t)(s + n - space - 1), name,
                       line, err, errsz))
            return false;
    }
    return true;
}

/* tokenizer.json's model.merges: "A B" strings, or ["A", "B"] pairs in
 * newer files (a token may hold a space or a line break there). Errors
 * name the entry, from 0. */
static bool load_merge_list(Bpe *b, const cJSON *list, const char *name, char *err, size_t errsz) {
    if (!merge_table(b, cJSON_GetArraySize(list), name, err, errsz)) return false;
    int entry = 0;
    for (const cJSON *e = list->child; e; e = e->next, entry++) {
        const cJSON *l = cJSON_GetArrayItem(e, 0), *r = cJSON_GetArrayItem(e, 1);
        const char *space;
        bool ok;
        if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2 && cJSON_IsString(l) &&
            cJSON_IsString(r) && l->valuestring[0] && r->valuestring[0])
            ok = add_merge(b, l->valuestring, strlen(l->valuestring), r->valuestring,
                           strlen(r->valuestring), name, entry, err, errsz);
        else if (cJSON_IsString(e) && split_merge(e->valuestring, strlen(e->valuestring), &space))
            ok = add_merge(b, e->valuestring, (size_t)(space - e->valuestring), space + 1,
                           strlen(space + 1), name, entry, err, errsz);
        else
            return text_fail(err, errsz, "%s:%d: not \"A B\" or [\"A\", \"B\"]", name, entry);
        if (!ok) return false;
    }
    return true;
}

/* GPT-2's pre-tokenizer pattern: ByteLevel's, and vocab.json's files' own. */
static const char gpt2_pattern[] =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* A pattern as a pre-tokenizer step: PCRE2 with UTF-8 and Unicode
 * properties (\s, \p{L} as Unicode defines them, as the tokenizers' own
 * regex engine does). */
static bool add_pattern(Bpe *b, const char *pattern, size_t len, const char *name, char *err,
                        size_t errsz) {
    if (b->steps == BPE_MAX_STEPS)
        return text_fail(err, errsz, "%s: more than %d pre-tokenizers", name, BPE_MAX_STEPS);
    int code;
    PCRE2_SIZE where;
    pcre2_code *re =
        pcre2_compile((PCRE2_SPTR)pattern, len, PCRE2_UTF | PCRE2_UCP, &code, &where, NULL);
    if (!re) {
        PCRE2_UCHAR why[160];
        pcre2_get_error_message(code, why, sizeof why);
        return text_fail(err, errsz, "%s: the Split pattern does not compile at offset %zu: %s",
                         name, (size_t)where, (const char *)why);
    }
    b->step[b->steps++] = re;
    if ((!b->match && !(b->match = pcre2_match_data_create(8, NULL))) ||
        (!b->limits && !(b->limits = pcre2_match_context_create(NULL))))
        return text_fail(err, errsz, "%s: out of memory", name);
    return true;
}

/* The added tokens: <|endoftext|> for GPT-2's files. */
static bool add_token(Bpe *b, int32_t id, const char *name, char *err, size_t errsz) {
    if (b->added == BPE_MAX_ADDED)
        return text_fail(err, errsz, "%s: more than %d added tokens", name, BPE_MAX_ADDED);
    int32_t *grown = realloc(b->added_id, sizeof *grown * (size_t)(b->added + 1));
    if (!grown) return text_fail(err, errsz, "%s: out of memory", name);
    b->added_id = grown;
    /* longest first, so "<|im_start|>" wins over a shorter token it begins with */
    int k = b->added;
    while (k > 0 && b->length[grown[k - 1]] < b->length[id]) {
        grown[k] = grown[k - 1];
        k--;
    }
    grown[k] = id;
    b->added++;
    return true;
}

bool bpe_load(Bpe *b, const char *vocab, size_t vocab_len, const char *vocab_name,
              const char *merges, size_t merges_len, const char *merges_name, char *err,
              size_t errsz) {
    Bpe fresh = {.unk = -1};
    if (!load_vocab(&fresh, vocab, vocab_len, vocab_name, err, errsz) ||
        !load_merges(&fresh, merges, merges_len, merges_name, err, errsz) ||
        !add_pattern(&fresh, gpt2_pattern, sizeof gpt2_pattern - 1, vocab_name, err, errsz) ||
        (fresh.special >= 0 && !add_token(&fresh, fresh.special, vocab_name, err, errsz))) {
        bpe_free(&fresh);
        return false;
    }
    *b = fresh;
    return true;
}

/* One line naming what a tokenizer.json asks for that is not done here. */
static bool not_read(char *err, size_t errsz, const char *name, const char *what) {
    return text_fail(err, errsz,
                     _("%s: its %s is not read yet: attnlab would split the text otherwise and "
                       "give other ids than the model's"),
                     name, what);
}

static const char *type_of(const cJSON *o) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
    return cJSON_IsString(t) ? t->valuestring : "?";
}

/* A step of normalizing, at the end of the list. */
static Bpe_Norm *add_norm(Bpe *b, int kind, const char *name, char *err, size_t errsz) {
    if (b->norms == BPE_MAX_NORMS) {
        text_fail(err, errsz, "%s: more than %d normalizers", name, BPE_MAX_NORMS - 1);
        return NULL;
    }
    Bpe_Norm *n = &b->norm[b->norms++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

/* A string a normalizer puts in (or looks for): at most BPE_MAX_REPLACE bytes. */
static bool norm_string(char *dest, const cJSON *s, bool may_be_empty, const char *name,
                        const char *what, char *err, size_t errsz) {
    if (!cJSON_IsString(s) || strlen(s->valuestring) > BPE_MAX_REPLACE ||
        (!may_be_empty && !s->valuestring[0]))
        return text_fail(err, errsz, "%s: %s is not a string of 1 to %d bytes", name, what,
                         BPE_MAX_REPLACE);
    strcpy(dest, s->valuestring);
    return true;
}

/* normalizer: none, NFC, Prepend, Replace of a string, or a Sequence of them. */
static bool read_normalizer(Bpe *b, const cJSON *n, const char *name, char *err, size_t errsz) {
    if (!n || cJSON_IsNull(n)) return true;
    char what[80];
    const char *t = type_of(n);
    Bpe_Norm *step;
    if (!strcmp(t, "Sequence")) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(n, "normalizers");
        for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next)
            if (!read_normalizer(b, e, name, err, errsz)) return false;
        return true;
    }
    if (!strcmp(t, "NFC")) return add_norm(b, BPE_NFC, name, err, errsz) != NULL;
    if (!strcmp(t, "Prepend"))
        return (step = add_norm(b, BPE_PREPEND, name, err, errsz)) &&
               norm_string(step->to, cJSON_GetObjectItemCaseSensitive(n, "prepend"), false, name,
                           "normalizer Prepend's prepend", err, errsz);
    if (!strcmp(t, "Replace")) {
        const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(n, "pattern");
        const cJSON *plain = cJSON_GetObjectItemCaseSensitive(pattern, "String");
        if (!cJSON_IsString(plain))
            return not_read(err, errsz, name, "normalizer Replace of a Regex (not a String)");
        return (step = add_norm(b, BPE_REPLACE, name, err, errsz)) &&
               norm_string(step->from, plain, false, name, "normalizer Replace's pattern", err,
                           errsz) &&
               norm_string(step->to, cJSON_GetObjectItemCaseSensitive(n, "content"), true, name,
                           "normalizer Replace's content", err, errsz);
    }
    snprintf(what, sizeof what, "normalizer %.40s", t);
    return not_read(err, errsz, name, what);
}

/* Whether the pre-tokenizers have a ByteLevel: then the vocabulary is in
 * GPT-2's byte alphabet, else it is text (SentencePiece-style). */
static bool has_byte_level(const cJSON *p) {
    if (!p || cJSON_IsNull(p)) return false;
    if (!strcmp(type_of(p), "ByteLevel")) return true;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "pretokenizers");
    for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next)
        if (has_byte_level(e)) return true;
    return false;
}

/* Metaspace's split before each ▁: the ▁ goes with what follows it. */
static const char metaspace_split[] = "\\x{2581}[^\\x{2581}]*";

/* Metaspace: each space becomes ▁, a ▁ goes before the text as its
 * prepend_scheme says (or the older add_prefix_space), and split cuts
 * before each ▁. As the first pre-tokenizer, its replacing is one more
 * normalizing step. */
static bool read_metaspace(Bpe *b, const cJSON *p, const char *name, char *err, size_t errsz) {
    const cJSON *replacement = cJSON_GetObjectItemCaseSensitive(p, "replacement");
    const cJSON *scheme = cJSON_GetObjectItemCaseSensitive(p, "prepend_scheme");
    const cJSON *prefix = cJSON_GetObjectItemCaseSensitive(p, "add_prefix_space");
    const cJSON *split = cJSON_GetObjectItemCaseSensitive(p, "split");
    if (b->steps > 0 || !b->chars)
        return not_read(err, errsz, name, "Metaspace after another pre-tokenizer");
    if (replacement &&
        !(cJSON_IsString(replacement) && !strcmp(replacement->valuestring, "\xE2\x96\x81")))
        return not_read(err, errsz, name, "Metaspace replacement other than \xE2\x96\x81");
    Bpe_Norm *step = add_norm(b, BPE_METASPACE, name, err, errsz);
    if (!step) return false;
    step->scheme = cJSON_IsFalse(prefix) ? BPE_NEVER : BPE_ALWAYS;
    if (scheme) {
        static const char *const schemes[] = {"always", "first", "never"};
        int k = 0;
        while (k < 3 && !(cJSON_IsString(scheme) && !strcmp(scheme->valuestring, schemes[k]))) k++;
        if (k == 3) return not_read(err, errsz, name, "Metaspace prepend_scheme");
        step->scheme = k;
    }
    return cJSON_IsFalse(split) ||
           add_pattern(b, metaspace_split, sizeof metaspace_split - 1, name, err, errsz);
}

/* pre_tokenizer: ByteLevel, Split (a Regex, Isolated), Digits, Metaspace, or a Sequence of them. */
static bool read_pre(Bpe *b, const cJSON *p, const char *name, char *err, size_t errsz) {
    const char *t = type_of(p);
    char what[80];
    if (!strcmp(t, "Sequence")) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "pretokenizers");
        for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next)
            if (!read_pre(b, e, name, err, errsz)) return false;
        return true;
    }
    if (!strcmp(t, "ByteLevel")) {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "add_prefix_space")))
            return not_read(err, errsz, name, "ByteLevel's add_prefix_space");
        if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(p, "use_regex"))) return true;
        return add_pattern(b, gpt2_pattern, sizeof gpt2_pattern - 1, name, err, errsz);
    }
    if (!strcmp(t, "Metaspace")) return read_metaspace(b, p, name, err, errsz);
    if (!strcmp(t, "Digits")) { /* each digit its own piece, or each run of them */
        bool one = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "individual_digits"));
        return one ? add_pattern(b, "\\p{N}", 5, name, err, errsz)
                   : add_pattern(b, "\\p{N}+", 6, name, err, errsz);
    }
    if (!strcmp(t, "Split")) {
        const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(p, "pattern");
        const cJSON *re = cJSON_GetObjectItemCaseSensitive(pattern, "Regex");
        const cJSON *behavior = cJSON_GetObjectItemCaseSensitive(p, "behavior");
        if (!cJSON_IsString(re))
            return not_read(err, errsz, name, "Split on a String (not a Regex)");
        if (!cJSON_IsString(behavior) || strcmp(behavior->valuestring, "Isolated") ||
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "invert")))
            return not_read(err, errsz, name, "Split behaviour other than Isolated");
        return add_pattern(b, re->valuestring, strlen(re->valuestring), name, err, errsz);
    }
    snprintf(what, sizeof what, "pre_tokenizer %.40s", t);
    return not_read(err, errsz, name, what);
}

/* model's flags: byte fallback, the unknown token, no continuing-subword
 * prefix or word suffix. The unknown token's id is found once the
 * vocabulary is read. */
static bool read_model_flags(Bpe *b, const cJSON *model, const char *name, char *err,
                             size_t errsz) {
    static const char *const affixes[] = {"continuing_subword_prefix", "end_of_word_suffix"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(model, affixes[k]);
        if (a && !cJSON_IsNull(a) && !(cJSON_IsString(a) && !a->valuestring[0]))
            return not_read(err, errsz, name, affixes[k]);
    }
    const cJSON *unk = cJSON_GetObjectItemCaseSensitive(model, "unk_token");
    if (unk && !cJSON_IsNull(unk) && !cJSON_IsString(unk))
        return text_fail(err, errsz, "%s: model.unk_token is not a string", name);
    b->unk = cJSON_IsString(unk) && b->table
                 ? bpe_lookup(b, unk->valuestring, strlen(unk->valuestring))
                 : -1;
    b->byte_fallback = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "byte_fallback"));
    b->fuse_unk = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "fuse_unk"));
    b->ignore_merges = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(model, "ignore_merges"));
    return true;
}

/* added_tokens: in the vocabulary already, or right after it, id by id. */
static bool read_added(Bpe *b, const cJSON *list, const char *name, char *err, size_t errsz) {
    int count = 0;
    size_t bytes = 0;
    for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next, count++) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "content");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
        if (!cJSON_IsString(c) || !c->valuestring[0] || strlen(c->valuestring) >= UINT16_MAX ||
            !cJSON_IsNumber(id) || id->valuedouble != (int32_t)id->valuedouble ||
            id->valuedouble < 0 || id->valuedouble >= BPE_MAX_VOCAB)
            return text_fail(err, errsz, "%s: added_tokens[%d] needs a content and an id", name,
                             count);
        bytes += strlen(c->valuestring);
    }
    if (count > BPE_MAX_ADDED)
        return text_fail(err, errsz, "%s: more than %d added tokens", name, BPE_MAX_ADDED);
    /* room for those past the vocabulary */
    int32_t top = b->count;
    for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next) {
        int32_t id = (int32_t)cJSON_GetObjectItemCaseSensitive(e, "id")->valuedouble;
        if (id >= top) top = id + 1;
    }
    if (top > b->count) {
        uint32_t used = 0;
        for (int32_t k = 0; k < b->count; k++) used += b->length[k];
        char *arena = realloc(b->arena, used + bytes + 1);
        if (arena) b->arena = arena;
        uint32_t *offset = realloc(b->offset, sizeof *offset * (size_t)top);
        if (offset) b->offset = offset;
        uint16_t *length = realloc(b->length, sizeof *length * (size_t)top);
        if (length) b->length = length;
        if (!arena || !offset || !length) return text_fail(err, errsz, "%s: out of memory", name);
        for (int32_t k = b->count; k < top; k++) b->length[k] = UINT16_MAX; /* a gap, so far */
        for (const cJSON *e = list->child; e; e = e->next) {
            const char *c = cJSON_GetObjectItemCaseSensitive(e, "content")->valuestring;
            int32_t id = (int32_t)cJSON_GetObjectItemCaseSensitive(e, "id")->valuedouble;
            if (id < b->count) continue;
            if (b->length[id] != UINT16_MAX)
                return text_fail(err, errsz, "%s: added token id %d is given twice", name, id);
            b->offset[id] = used;
            b->length[id] = (uint16_t)strlen(c);
            memcpy(b->arena + used, c, b->length[id]);
            used += b->length[id];
        }
        for (int32_t k = b->count; k < top; k++)
            if (b->length[k] == UINT16_MAX)
                return text_fail(err, errsz,
                                 "%s: no token has id %d, between the vocabulary and the last "
                                 "added token",
                                 name, k);
        b->count = top;
    }
    for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next) {
        int32_t id = (int32_t)cJSON_GetObjectItemCaseSensitive(e, "id")->valuedouble;
        if (!add_token(b, id, name, err, errsz)) return false;
    }
    return true;
}

/* The id of a special token the post-processor names. */
static bool special_id(const cJSON *post, const cJSON *item, int32_t *dest) {
    const cJSON *tok = cJSON_GetObjectItemCaseSensitive(item, "SpecialToken");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(tok, "id");
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(post, "special_tokens");
    const cJSON *entry =
        cJSON_IsString(key) ? cJSON_GetObjectItemCaseSensitive(map, key->valuestring) : NULL;
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(entry, "ids");
    if (!cJSON_IsArray(ids) || cJSON_GetArraySize(ids) != 1 || !cJSON_IsNumber(ids->child))
        return false;
    *dest = (int32_t)ids->child->valuedouble;
    return true;
}

/* post_processor: none, ByteLevel (offsets only), or TemplateProcessing's
 * single template: special tokens around the text (Llama's BOS). */
static bool read_post(Bpe *b, const cJSON *post, const char *name, char *err, size_t errsz) {
    if (!post || cJSON_IsNull(post) || !strcmp(type_of(post), "ByteLevel")) return true;
    if (strcmp(type_of(post), "TemplateProcessing")) {
        char what[80];
        snprintf(what, sizeof what, "post_processor %.40s", type_of(post));
        return not_read(err, errsz, name, what);
    }
    const cJSON *single = cJSON_GetObjectItemCaseSensitive(post, "single");
    int side = 0;
    for (const cJSON *e = cJSON_IsArray(single) ? single->child : NULL; e; e = e->next) {
        if (cJSON_GetObjectItemCaseSensitive(e, "Sequence")) {
            side = 1;
            continue;
        }
        int32_t id;
        int *count = side ? &b->after : &b->before;
        if (!special_id(post, e, &id) || id < 0 || id >= b->count || *count == BPE_MAX_AROUND)
            return text_fail(err, errsz,
                             "%s: post_processor's single template names a special token that "
                             "is not one",
                             name);
        b->around[side][(*count)++] = id;
    }
    return true;
}

bool bpe_load_tokenizer_json(Bpe *b, const char *text, size_t len, const char *name, char *err,
                             size_t errsz) {
    cJSON *root = json_read_strict(text, len, name, _("the tokenizer"), err, errsz);
    if (!root) return false;
    bool ok = false;
    char *vocab = NULL;
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(model, "type");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(model, "vocab");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(model, "merges");
    if (!cJSON_IsObject(model) ||
        (type && !(cJSON_IsString(type) && !strcmp(type->valuestring, "BPE")))) {
        text_fail(err, errsz, "%s: \"model\" is not a BPE model", name);
        goto done;
    }
    if (!cJSON_IsObject(v) || !cJSON_IsArray(m)) {
        text_fail(err, errsz, "%s: model.vocab must be an object and model.merges an array", name);
        goto done;
    }
    /* refused before the vocabulary is read: the cheap checks first */
    Bpe spec = {.unk = -1};
    bool fits = read_normalizer(&spec, cJSON_GetObjectItemCaseSensitive(root, "normalizer"), name,
                                err, errsz) &&
                read_model_flags(&spec, model, name, err, errsz);
    bpe_free(&spec);
    if (!fits) goto done;
    vocab = cJSON_PrintUnformatted(v);
    if (!vocab) {
        text_fail(err, errsz, "%s: out of memory", name);
        goto done;
    }
    char vocab_name[600], merges_name[600];
    snprintf(vocab_name, sizeof vocab_name, "%s (model.vocab)", name);
    snprintf(merges_name, sizeof merges_name, "%s (model.merges, entry)", name);
    const cJSON *pre = cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer");
    Bpe fresh = {.unk = -1, .chars = !has_byte_level(pre)};
    ok = load_vocab(&fresh, vocab, strlen(vocab), vocab_name, err, errsz) &&
         load_merge_list(&fresh, m, merges_name, err, errsz) &&
         read_normalizer(&fresh, cJSON_GetObjectItemCaseSensitive(root, "normalizer"), name, err,
                         errsz) &&
         read_model_flags(&fresh, model, name, err, errsz) &&
         (!pre || cJSON_IsNull(pre) || read_pre(&fresh, pre, name, err, errsz)) &&
         read_added(&fresh, cJSON_GetObjectItemCaseSensitive(root, "added_tokens"), name, err,
                    errsz) &&
         read_post(&fresh, cJSON_GetObjectItemCaseSensitive(root, "post_processor"), name, err,
                   errsz);
    if (ok)
        *b = fresh;
    else
        bpe_free(&fresh);
done:
    free(vocab);
    cJSON_Delete(root);
    return ok;
}

void bpe_free(Bpe *b) {
    for (int k = 0; k < b->steps; k++) pcre2_code_free(b->step[k]);
    pcre2_match_data_free(b->match);
    pcre2_match_context_free(b->limits);
    free(b->added_id);
    free(b->shown);
    free(b->shown_length);
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
    if (b->chars && id < b->vocab_count) {
        *bytes = b->shown + b->offset[id];
        return b->shown_length[id];
    }
    *bytes = b->arena + b->offset[id];
    return b->length[id];
}

int32_t bpe_special(const Bpe *b) {
    return b->special;
}
