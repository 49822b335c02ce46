/* src/checkpoint/bpe.c: GPT-2's tokenizer gives the reference encoder's ids on
 * hard texts (tests/data/gpt2/cases.tsv, made by npm's gpt-3-encoder), its
 * tokens' bytes give the text back, <|endoftext|> typed is 50256, and bad
 * vocabularies and texts are one line each. */
#include "core/fileio.h"
#include "checkpoint/bpe.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <string.h>

static Bpe bpe;
static char *vocab, *merges;
static size_t vocab_len, merges_len;

static char *slurp(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/gpt2/%s", test_env("ATTNLAB_TESTDATA"), name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static void setup(void) {
    vocab = slurp("vocab.json", &vocab_len);
    merges = slurp("merges.txt", &merges_len);
    char err[400];
    cr_assert(bpe_load(&bpe, vocab, vocab_len, "vocab.json", merges, merges_len, "merges.txt", err,
                       sizeof err),
              "%s", err);
}

static void teardown(void) {
    bpe_free(&bpe);
    free(vocab);
    free(merges);
}

TestSuite(bpe, .init = setup, .fini = teardown);

Test(bpe, gpt2s_vocabulary_loads) {
    cr_assert_eq(bpe.count, 50257);
    cr_assert_eq(bpe.merges, 50000);
    cr_assert_eq(bpe_special(&bpe), 50256);
    const char *bytes;
    size_t n = bpe_token_bytes(&bpe, 220, &bytes);
    cr_assert(n == 1 && bytes[0] == ' ', "token 220 is a space (Ġ in the file)");
}

/* Every case of the reference file: the same ids, and the tokens' bytes
 * joined are the text. */
Test(bpe, the_ids_are_the_reference_encoders_on_hard_texts) {
    size_t len;
    char *cases = slurp("cases.tsv", &len);
    int checked = 0;
    for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        cr_assert_not_null(tab);
        *tab = '\0';
        cJSON *s = cJSON_Parse(line);
        cr_assert(cJSON_IsString(s), "%s", line);
        const char *text = s->valuestring;
        static int32_t want[4096], got[4096];
        int nw = 0;
        for (char *p = tab + 1; *p;) {
            want[nw++] = (int32_t)strtol(p, &p, 10);
            if (*p == ',') p++;
        }
        char err[300];
        int ng = bpe_encode(&bpe, text, strlen(text), got, 4096, err, sizeof err);
        cr_assert_eq(ng, nw, "%s: %d ids, the reference %d (%s)", line, ng, nw, err);
        for (int k = 0; k < nw; k++)
            cr_assert_eq(got[k], want[k], "%s: id %d is %d, the reference's %d", line, k, got[k],
                         want[k]);
        static char back[1 << 14];
        size_t used = 0;
        for (int k = 0; k < ng; k++) {
            const char *bytes;
            size_t n = bpe_token_bytes(&bpe, got[k], &bytes);
            memcpy(back + used, bytes, n);
            used += n;
        }
        cr_assert(used == strlen(text) && !memcmp(back, text, used), "the bytes give %s back",
                  line);
        cJSON_Delete(s);
        checked++;
    }
    cr_assert_geq(checked, 30);
    free(cases);
}

Test(bpe, endoftext_typed_is_the_special_token) {
    int32_t ids[16], alone[4];
    char err[300];
    cr_assert_eq(bpe_encode(&bpe, BPE_EOT, strlen(BPE_EOT), ids, 16, err, sizeof err), 1);
    cr_assert_eq(ids[0], 50256);
    int n = bpe_encode(&bpe, "Hi<|endoftext|> there", 21, ids, 16, err, sizeof err);
    cr_assert_eq(bpe_encode(&bpe, "Hi", 2, alone, 4, err, sizeof err), 1);
    cr_assert_eq(n, 3, "%s", err);
    cr_assert_eq(ids[0], alone[0]);
    cr_assert_eq(ids[1], 50256);
    cr_assert_eq(bpe_encode(&bpe, " there", 6, alone, 4, err, sizeof err), 1);
    cr_assert_eq(ids[2], alone[0], "the text after it is tokenized afresh");
    /* a broken one is text: the reference encoder's 27, 91, 437, 1659, 5239 */
    cr_assert_eq(bpe_encode(&bpe, "<|endoftext", 11, ids, 16, err, sizeof err), 5);
    cr_assert(ids[0] == 27 && ids[1] == 91 && ids[2] == 437 && ids[3] == 1659 && ids[4] == 5239);
}

Test(bpe, bad_texts_are_one_line) {
    int32_t ids[8];
    char err[300];
    cr_assert_eq(bpe_encode(&bpe, "ok\xff", 3, ids, 8, err, sizeof err), -1);
    cr_assert_str_eq(err, "the text is not UTF-8 without NUL at byte 2");
    cr_assert_eq(bpe_encode(&bpe, "a\0b", 3, ids, 8, err, sizeof err), -1);
    cr_assert_str_eq(err, "the text is not UTF-8 without NUL at byte 1");
    cr_assert_eq(bpe_encode(&bpe, "one two three four five six seven eight nine", 44, ids, 8, err,
                            sizeof err),
                 BPE_TOO_MANY);
    cr_assert_str_eq(err, "the text is more than 8 tokens");
    static char big[BPE_MAX_TEXT + 2];
    memset(big, 'a', sizeof big - 1);
    cr_assert_eq(bpe_encode(&bpe, big, BPE_MAX_TEXT + 1, ids, 8, err, sizeof err), -1);
    cr_assert(strstr(err, "at most 16384 are tokenized"), "%s", err);
}

/* A vocabulary or merges file that is not GPT-2's kind: one line with the
 * file (and line), and the loaded tokenizer untouched. */
Test(bpe, bad_vocabularies_are_one_line) {
    static const struct {
        const char *vocab, *merges, *says;
    } bad[] = {
        {"[1]", "", "v.json: not a JSON object"},
        {"{\"a\":0}", "", "v.json: 1 tokens; a byte-level vocabulary has 256 to"},
    };
    char err[400];
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        Bpe other = {.count = -3};
        cr_assert_not(bpe_load(&other, bad[k].vocab, strlen(bad[k].vocab), "v.json", bad[k].merges,
                               strlen(bad[k].merges), "m.txt", err, sizeof err));
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s'", err);
        cr_assert_eq(other.count, -3);
    }
    /* GPT-2's vocabulary with a broken merges file */
    static const struct {
        const char *merges, *says;
    } lines[] = {
        {"#version: 0.2\nĠ t\nĠt qqqqqqqqqqqq\n",
         "m.txt:3: 'qqqqqqqqqqqq' is not in the vocabulary"},
        {"Ġ t\nx Ġ\n", "m.txt:2: the join of 'x' and 'Ġ' is not in the vocabulary"},
        {"Ġ  t\n", "m.txt:1: not two tokens separated by one space"},
        {"Ġt\n", "m.txt:1: not two tokens separated by one space"},
        {"Ġ t\nq \xe2\x82\xac\n", "m.txt:2: not text in GPT-2's byte alphabet"},
    };
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
        Bpe other = {0};
        cr_assert_not(bpe_load(&other, vocab, vocab_len, "vocab.json", lines[k].merges,
                               strlen(lines[k].merges), "m.txt", err, sizeof err));
        cr_assert(!strncmp(err, lines[k].says, strlen(lines[k].says)), "'%s' is not '%s'", err,
                  lines[k].says);
    }
    /* a token longer than any GPT-2 has: one line, no overflow */
    static char huge[70010];
    memset(huge, 'a', 70000);
    memcpy(huge + 70000, " b\n", 4);
    Bpe big = {0};
    cr_assert_not(bpe_load(&big, vocab, vocab_len, "vocab.json", huge, strlen(huge), "m.txt", err,
                           sizeof err));
    cr_assert_str_eq(err, "m.txt:1: a token longer than 65535 bytes");
    /* a vocabulary missing a byte's token */
    char *cut = malloc(vocab_len + 1);
    memcpy(cut, vocab, vocab_len + 1);
    char *at = strstr(cut, "\"!\": 0, ");
    cr_assert_not_null(at, "vocab.json starts with \"!\": 0");
    memcpy(at, "\"x!\": 0,", 8);
    Bpe other = {0};
    cr_assert_not(
        bpe_load(&other, cut, strlen(cut), "v.json", merges, merges_len, "m.txt", err, sizeof err));
    cr_assert_str_eq(err, "v.json: no token for the byte 0x21");
    free(cut);
}

/* GPT-2's vocabulary and merges as a tokenizer.json with SmolLM2's
 * pre-tokenizers (Digits, each digit alone, then ByteLevel's pattern) and a
 * template that puts <|endoftext|> first, as Llama's puts its BOS. */
static char *kind_with(const char *pre) {
    cJSON *root = cJSON_CreateObject(), *model = cJSON_AddObjectToObject(root, "model");
    cJSON_AddStringToObject(model, "type", "BPE");
    cJSON_AddItemToObject(model, "vocab", cJSON_Parse(vocab));
    cJSON *list = cJSON_AddArrayToObject(model, "merges");
    char *lines = malloc(merges_len + 1);
    memcpy(lines, merges, merges_len + 1);
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n"))
        if (strncmp(line, "#version", 8)) cJSON_AddItemToArray(list, cJSON_CreateString(line));
    free(lines);
    cJSON_AddItemToObject(root, "pre_tokenizer", cJSON_Parse(pre));
    cJSON_AddItemToObject(root, "added_tokens",
                          cJSON_Parse("[{\"id\": 50256, \"content\": \"<|endoftext|>\"}]"));
    cJSON_AddItemToObject(
        root, "post_processor",
        cJSON_Parse("{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": "
                    "\"<|endoftext|>\"}}, {\"Sequence\": {\"id\": \"A\"}}], \"special_tokens\": "
                    "{\"<|endoftext|>\": {\"id\": \"<|endoftext|>\", \"ids\": [50256]}}}"));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* "year 2024!" is the template's token, then each piece as GPT-2 alone
 * gives it: "year", " ", the four digits one by one, "!". */
Test(bpe, digits_and_a_template_split_and_frame_the_text) {
    char *json = kind_with("{\"type\": \"Sequence\", \"pretokenizers\": ["
                           "{\"type\": \"Digits\", \"individual_digits\": true},"
                           "{\"type\": \"ByteLevel\", \"add_prefix_space\": false, "
                           "\"use_regex\": true}]}"),
         err[300];
    Bpe smol;
    cr_assert(bpe_load_tokenizer_json(&smol, json, strlen(json), "tokenizer.json", err, sizeof err),
              "%s", err);
    free(json);
    int32_t ids[32], one[4];
    int n = bpe_encode(&smol, "year 2024!", 10, ids, 32, err, sizeof err);
    static const char *const pieces[] = {"year", " ", "2", "0", "2", "4", "!"};
    cr_assert_eq(n, 8, "%d: %s", n, err);
    cr_assert_eq(ids[0], 50256, "the template's first token");
    for (int k = 0; k < 7; k++) {
        cr_assert_eq(bpe_encode(&bpe, pieces[k], strlen(pieces[k]), one, 4, err, sizeof err), 1);
        cr_assert_eq(ids[k + 1], one[0], "piece %d ('%s')", k, pieces[k]);
    }
    /* GPT-2's own files keep "2024" in one piece: not the same ids */
    cr_assert_lt(bpe_encode(&bpe, "year 2024!", 10, ids, 32, err, sizeof err), 7);
    bpe_free(&smol);
}

/* A Split pattern that backtracks without end ((\\w+\\s?)+$, the classic, on a
 * long run of a's that ends in "!"): the text is refused in one line, at once
 * (PCRE2's step limit), never hung on and never cut. */
Test(bpe, a_pattern_that_backtracks_without_end_is_refused_not_hung_on, .timeout = 10) {
    char *json = kind_with("{\"type\": \"Sequence\", \"pretokenizers\": ["
                           "{\"type\": \"Split\", \"behavior\": \"Isolated\", \"pattern\": "
                           "{\"Regex\": \"(\\\\w+\\\\s?)+$\"}},"
                           "{\"type\": \"ByteLevel\", \"use_regex\": false}]}"),
         err[300];
    Bpe slow;
    cr_assert(bpe_load_tokenizer_json(&slow, json, strlen(json), "tokenizer.json", err, sizeof err),
              "%s", err);
    free(json);
    static char text[4002];
    memset(text, 'a', 4000);
    text[4000] = '!';
    static int32_t ids[8192];
    int n = bpe_encode(&slow, text, 4001, ids, 8192, err, sizeof err);
    cr_assert_eq(n, -1, "%d ids", n);
    cr_assert(strstr(err, "the tokenizer's pattern gave up on this text") && !strchr(err, '\n'),
              "%s", err);
    /* where it matches, it is a pattern like any other */
    n = bpe_encode(&slow, "aab c", 5, ids, 8192, err, sizeof err);
    int32_t alone[8];
    int m = bpe_encode(&bpe, "aab c", 5, alone, 8, err, sizeof err); /* GPT-2's, as one piece */
    cr_assert(n == 1 + 3 && ids[0] == 50256, "the template's token, then %d ids, not %d", n - 1, m);
    bpe_free(&slow);
}

/* A SentencePiece-style tokenizer.json, small enough to work out by hand:
 * Metaspace (with or without its split), byte fallback, the unknown token. */
static int sp_encode(const char *metaspace, const char *model_flags, const char *text, int32_t *ids,
                     int max, Bpe *keep) {
    char json[1400], err[300];
    snprintf(json, sizeof json,
             "{\"model\": {\"type\": \"BPE\", \"unk_token\": \"<unk>\", %s, \"vocab\": "
             "{\"<unk>\": 0, \"<0xC3>\": 1, \"<0xA9>\": 2, \"\xE2\x96\x81\": 3, \"a\": 4, "
             "\"b\": 5, \"\xE2\x96\x81"
             "a\": 6, \"\xE2\x96\x81\xE2\x96\x81\": 7, \"ab\": 8, "
             "\"\xE2\x96\x81"
             "ab\": 9}, \"merges\": [[\"\xE2\x96\x81\", \"\xE2\x96\x81\"], "
             "[\"\xE2\x96\x81\", \"a\"], \"a b\", \"\xE2\x96\x81"
             "a b\"]}, "
             "\"pre_tokenizer\": {\"type\": \"Metaspace\", \"replacement\": \"\xE2\x96\x81\", %s}}",
             model_flags, metaspace);
    Bpe b;
    cr_assert(bpe_load_tokenizer_json(&b, json, strlen(json), "sp.json", err, sizeof err), "%s",
              err);
    int n = bpe_encode(&b, text, strlen(text), ids, max, err, sizeof err);
    cr_assert_geq(n, 0, "%s: %s", text, err);
    if (keep)
        *keep = b;
    else
        bpe_free(&b);
    return n;
}

#define IDS(...) ((const int32_t[]){__VA_ARGS__}), (int)(sizeof((const int32_t[]){__VA_ARGS__}) / 4)
static void same(const int32_t *got, int n, const int32_t *want, int wn, const char *what) {
    cr_assert_eq(n, wn, "%s: %d ids, not %d", what, n, wn);
    for (int k = 0; k < n; k++) cr_assert_eq(got[k], want[k], "%s: id %d", what, k);
}

Test(bpe, sentencepiece_style_by_hand) {
    int32_t ids[16];
    const char *flags = "\"byte_fallback\": true, \"fuse_unk\": true";
    /* "  a" is "▁▁a": merged whole, ▁▁ (rank 0) comes first; split before
     * each ▁, the pieces are "▁" and "▁a" */
    int n = sp_encode("\"split\": false", flags, "  a", ids, 16, NULL);
    same(ids, n, IDS(7, 4), "no split");
    n = sp_encode("\"split\": true", flags, "  a", ids, 16, NULL);
    same(ids, n, IDS(3, 6), "split");
    /* a ▁ goes first (prepend_scheme always); é is not a token, its bytes are */
    n = sp_encode("\"split\": true", flags, "ab é", ids, 16, NULL);
    same(ids, n, IDS(9, 3, 1, 2), "byte fallback");
    n = sp_encode("\"prepend_scheme\": \"never\"", flags, "ab", ids, 16, NULL);
    same(ids, n, IDS(8), "never a ▁ first");
    /* x and y have no token and no byte token: one unknown, or one each */
    n = sp_encode("\"split\": true", flags, "xy", ids, 16, NULL);
    same(ids, n, IDS(3, 0), "fused unknown");
    n = sp_encode("\"split\": true", "\"byte_fallback\": true", "xy", ids, 16, NULL);
    same(ids, n, IDS(3, 0, 0), "unknown each");
    /* a token's text: ▁ is a space, <0xC3> the byte */
    Bpe b;
    sp_encode("\"split\": true", flags, "a", ids, 16, &b);
    const char *bytes;
    cr_assert(bpe_token_bytes(&b, 6, &bytes) == 2 && !memcmp(bytes, " a", 2));
    cr_assert(bpe_token_bytes(&b, 1, &bytes) == 1 && bytes[0] == '\xC3');
    bpe_free(&b);
}
