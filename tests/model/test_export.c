/* src/model/export.c: the JSON parses and carries exactly the derived numbers;
 * CSV blocks have the promised shape. */
#define _POSIX_C_SOURCE 200809L
#include "model/export.h"
#include "json/jsonw.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static Vocab vocab;

static void load_vocab(void) {
    test_load_vocab(&vocab);
}

static void free_vocab(void) {
    vocab_free(&vocab);
}

TestSuite(export, .init = load_vocab, .fini = free_vocab);

static void check_matrix(const cJSON *root, const char *key, const float *m, int rows, int cols) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    cr_assert(cJSON_IsArray(a), "%s missing", key);
    cr_assert_eq(cJSON_GetArraySize(a), rows, "%s rows", key);
    int i = 0;
    for (const cJSON *row = a->child; row; row = row->next, i++) {
        cr_assert_eq(cJSON_GetArraySize(row), cols, "%s[%d] cols", key, i);
        int j = 0;
        for (const cJSON *v = row->child; v; v = v->next, j++)
            /* shortest round-trip text: the float comes back bit for bit */
            cr_assert_eq((float)v->valuedouble, m[i * cols + j], "%s[%d][%d]", key, i, j);
    }
}

Test(export, json_has_every_matrix_exactly) {
    static Scene s;
    static Derived dv;
    char err[256];
    scene_default(&s);
    s.d = 3;
    s.d_k = 5;
    s.d_v = 4;
    s.pos = POS_SIN;
    s.pos_strength = 0.5f;
    cr_assert(scene_set_sentence(&s, "the cat \"sat\"", &vocab, err, sizeof err));
    cr_assert(derived_update(&dv, &s));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    export_json(&s, &dv, f);
    fclose(f);
    cJSON *root = cJSON_Parse(buf);
    cr_assert(root, "export is not valid JSON");
    const char *keys[] = {"tokens", "n",   "d",   "d_k", "d_v", "seed", "scaled", "pos", "X", "P",
                          "W_Q",    "W_K", "W_V", "Q",   "K",   "V",    "S",      "A",   "O"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        cr_assert(cJSON_HasObjectItem(root, keys[k]), "missing %s", keys[k]);
    cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "tokens"), 2)->valuestring,
                     "\"sat\"");
    cr_assert_eq(cJSON_GetObjectItem(root, "n")->valueint, 3);
    cr_assert_str_eq(cJSON_GetObjectItem(root, "pos")->valuestring, "sin");
    const Attn *a = &dv.pass.head[0];
    check_matrix(root, "X", s.X, 3, 3);
    check_matrix(root, "P", dv.P, 3, 3);
    check_matrix(root, "W_Q", dv.W_Q, 3, 5);
    check_matrix(root, "W_V", dv.W_V, 3, 4);
    check_matrix(root, "Q", a->Q, 3, 5);
    check_matrix(root, "K", a->K, 3, 5);
    check_matrix(root, "V", a->V, 3, 4);
    check_matrix(root, "S", a->S, 3, 3);
    check_matrix(root, "A", a->A, 3, 3);
    check_matrix(root, "O", a->O, 3, 4);
    cJSON_Delete(root);
    free(buf);
    derived_free(&dv);
}

Test(export, json_p_is_null_without_positions) {
    static Scene s;
    static Derived dv;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "a b", &vocab, err, sizeof err));
    cr_assert(derived_update(&dv, &s));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    export_json(&s, &dv, f);
    fclose(f);
    cJSON *root = cJSON_Parse(buf);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(root, "P")));
    cJSON_Delete(root);
    free(buf);
    derived_free(&dv);
}

Test(export, csv_blocks) {
    static Scene s;
    static Derived dv;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "x, y", &vocab, err, sizeof err));
    cr_assert(derived_update(&dv, &s));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    export_csv(&s, &dv, f);
    fclose(f);
    cr_assert(strstr(buf, "# X 2x2\ntoken,x0,x1\n\"x,\","), "%s", buf);
    cr_assert(strstr(buf, "# S 2x2\ntoken,\"x,\",y\n"));
    const char *blocks[] = {"# W_Q 2x16", "# W_K 2x16", "# W_V 2x16", "# Q 2x16",
                            "# K 2x16",   "# V 2x16",   "# A 2x2",    "# O 2x16"};
    for (int b = 0; b < 8; b++) cr_assert(strstr(buf, blocks[b]), "missing %s", blocks[b]);
    cr_assert_null(strstr(buf, "# P "), "no P block without positions");
    free(buf);
    derived_free(&dv);
}

Test(export, derived_recomputes_only_what_changed) {
    /* Changing X keeps the projections; changing d_k regrows them column-stably. */
    static Scene s;
    static Derived dv;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "a b c", &vocab, err, sizeof err));
    cr_assert(derived_update(&dv, &s));
    float q00 = dv.W_Q[0];
    s.d_k = 17;
    cr_assert(derived_update(&dv, &s));
    cr_assert_eq(dv.W_Q[0], q00);
    cr_assert_eq(dv.pass.head[0].d_k, 17);
    derived_free(&dv);
}

/* Masked scores are the only values an export writes as null (JSON) or -inf
 * (CSV). Any other non-finite value would look like a masked cell, or become
 * "nan": the export refuses it, naming the cell, in every matrix it writes. */
Test(export, a_value_that_is_not_finite_is_refused_not_written_as_a_mask) {
    static Scene s;
    static Derived dv;
    char err[300];
    scene_default(&s);
    s.heads = 2;
    s.mask = MASK_CAUSAL;
    cr_assert(scene_set_sentence(&s, "the cat sat", &vocab, err, sizeof err));
    cr_assert(derived_update(&dv, &s));
    cr_assert(export_check(&s, &dv, err, sizeof err), "a masked scene exports: %s", err);
    Attn *h2 = (Attn *)derived_head(&dv, 1);
    const struct {
        float *cell, value;
        const char *says;
    } bad[] = {
        {&h2->A[1 * 3 + 0], NAN, "export: A[1][0] of head 2 is NaN"},
        {&h2->S[0 * 3 + 0], INFINITY, "export: S[0][0] of head 2 is +inf"},
        {&h2->S[2 * 3 + 1], -INFINITY, "export: S[2][1] of head 2 is -inf"},
        {&h2->S[0 * 3 + 2], 0.5f, "export: S[0][2] of head 2 is finite"},
        {&dv.pass.Y[4], NAN, "export: Y[2][0] is NaN"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        float keep = *bad[k].cell;
        *bad[k].cell = bad[k].value;
        cr_assert_not(export_check(&s, &dv, err, sizeof err), "%s", bad[k].says);
        cr_assert(strstr(err, bad[k].says), "'%s' does not say '%s'", err, bad[k].says);
        *bad[k].cell = keep;
    }
    derived_free(&dv);
}

/* fmt_g9 writes exactly what printf's "%.9g" writes: every float32 exponent, near-halfway
 * digit strings, the powers of ten and their neighbours, subnormals, and random bit patterns. */
static void same_as_printf(float x) {
    char mine[FMT_FLOAT_BYTES], libc[FMT_FLOAT_BYTES];
    int len = fmt_g9(x, mine);
    snprintf(libc, sizeof libc, "%.9g", (double)x);
    cr_assert_str_eq(mine, libc, "%a: fmt_g9 wrote %s, printf %s", (double)x, mine, libc);
    cr_assert_eq(len, (int)strlen(libc));
}

Test(export, nine_digits_are_printfs_for_every_kind_of_float) {
    const float fixed[] = {1.0f,      -1.0f,       0.5f,         0.1f,         1e-5f,
                           1e-4f,     9.99999e-5f, 123456789.0f, 999999999.0f, 1e9f,
                           1e10f,     3.0e38f,     FLT_MAX,      FLT_MIN,      1e-45f,
                           -2.5e-30f, 0.0001234f,  65504.0f,     1e-13f,       1e29f};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) same_as_printf(fixed[i]);
    for (int e = -45; e <= 38; e++) { /* each power of ten and the floats beside it */
        float p = (float)pow(10.0, e);
        for (int step = -3; step <= 3; step++) {
            float v = p;
            for (int s = 0; s < (step < 0 ? -step : step); s++)
                v = nextafterf(v, step < 0 ? 0.0f : INFINITY);
            if (v > 0 && isfinite(v)) {
                same_as_printf(v);
                same_as_printf(-v);
            }
        }
    }
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 2000000; i++) { /* random finite bit patterns, all exponents */
        state = state * 6364136223846793005u + 1442695040888963407u;
        uint32_t bits = (uint32_t)(state >> 32);
        float v;
        memcpy(&v, &bits, sizeof v);
        if (isfinite(v) && v != 0) same_as_printf(v);
    }
    for (int i = 1; i < 1000000; i++) same_as_printf((float)i / 1000000.0f); /* weights */
}
