/* Helpers shared by the test files: seeded random cases, float64 references
 * and paths handed over by the Makefile through the environment. */
#ifndef ATTN_TEST_UTIL_H
#define ATTN_TEST_UTIL_H

#include "core/rng.h"
#include "core/fileio.h"
#include "model/vocab.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline const char *test_env(const char *name) {
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set; run the tests through `make test`", name);
    return v;
}

/* The shipped vocabulary, as every model-level test uses it. */
static inline void test_load_vocab(Vocab *v) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/assets/vocab.tsv", test_env("ATTNLAB_DATA"));
    cr_assert(vocab_load(v, path, err, sizeof err), "%s", err);
}

/* The shipped lessons: every *.md of lessons/ but its README, in name
 * order, as the menu lists them (platform/lesson_scan.c). There are at least the eleven of this
 * wave, so a test that walks them cannot pass by finding none. */
typedef struct Test_Lessons {
    int count;
    char path[64][1280]; /* the folder (under 1024) and a name (under 256) */
} Test_Lessons;

static inline int test_cmp_path(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

static inline const Test_Lessons *test_shipped_lessons(void) {
    static Test_Lessons ls;
    char dir[1000];
    snprintf(dir, sizeof dir, "%s/lessons", test_env("ATTNLAB_DATA"));
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    ls.count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") || !strcmp(e->d_name, "README.md")) continue;
        cr_assert_lt(ls.count, 64, "more lessons than this helper holds");
        snprintf(ls.path[ls.count++], sizeof ls.path[0], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(ls.path, (size_t)ls.count, sizeof ls.path[0], test_cmp_path);
    cr_assert_geq(ls.count, 11, "only %d lessons in %s", ls.count, dir);
    return &ls;
}

/* How many translated lessons ship: the *.md of lessons/es, lessons/de and
 * lessons/zh_CN (or of lessons/ONLY), which --check-lessons checks beside
 * their originals. */
static inline int test_translated_lessons(const char *only) {
    static const char *const langs[] = {"es", "de", "zh_CN"};
    int count = 0;
    for (size_t k = 0; k < sizeof langs / sizeof *langs; k++) {
        if (only && strcmp(only, langs[k])) continue;
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/lessons/%s", test_env("ATTNLAB_DATA"), langs[k]);
        DIR *d = opendir(dir);
        cr_assert(d, "cannot open %s", dir);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t n = strlen(e->d_name);
            if (n >= 4 && !strcmp(e->d_name + n - 3, ".md") && strcmp(e->d_name, "README.md"))
                count++;
        }
        closedir(d);
    }
    return count;
}

/* A catalogue of bad files: ATTNLAB_TESTDATA/SUBDIR/expected-errors.tsv
 * lists "FILE<TAB>exact error" per line. Each file's text is handed to
 * `reject`, which must fail with exactly that error (its name argument is the
 * bare file name). Returns how many files were checked. */
typedef bool (*Reject_Fn)(const char *text, size_t len, const char *name, char *err, size_t errsz);

static inline int test_catalogue(const char *subdir, size_t max_bytes, Reject_Fn reject) {
    char dir[1024], list[1100], line[1024];
    snprintf(dir, sizeof dir, "%s/%s", test_env("ATTNLAB_TESTDATA"), subdir);
    snprintf(list, sizeof list, "%s/expected-errors.tsv", dir);
    FILE *f = fopen(list, "r");
    cr_assert(f, "cannot open %s", list);
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        cr_assert(tab, "malformed line in %s: %s", list, line);
        *tab = '\0';
        const char *name = line, *expected = tab + 1;
        char path[2200], err[1024], *text;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        cr_assert(file_read_all(path, max_bytes, &text, &len, err, sizeof err), "%s", err);
        bool ok = reject(text, len, name, err, sizeof err);
        free(text);
        cr_assert_not(ok, "%s was accepted but should fail", name);
        cr_assert_str_eq(err, expected, "%s", name);
        checked++;
    }
    fclose(f);
    return checked;
}

static inline int rand_int(Rng *r, int lo, int hi) {
    return lo + (int)(rng_next_u64(r) % (uint64_t)(hi - lo + 1));
}

static inline void rand_fill(Rng *r, float *x, long count, double scale) {
    for (long i = 0; i < count; i++) x[i] = (float)(scale * (2.0 * rng_uniform(r) - 1.0));
}

#endif
