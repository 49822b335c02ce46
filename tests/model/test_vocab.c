/* src/model/vocab.c and the word-level parts of src/model/scene.c */
#define _POSIX_C_SOURCE 200809L
#include "model/scene.h"
#include "test_util.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

static Vocab vocab;

static void load_vocab(void) {
    test_load_vocab(&vocab);
}

static void free_vocab(void) {
    vocab_free(&vocab);
}

TestSuite(vocab, .init = load_vocab, .fini = free_vocab);

Test(vocab, has_at_least_150_words_in_groups) {
    cr_assert_geq(vocab.count, 150);
    const char *groups[] = {"animal", "place", "verb", "function", "adjective"};
    for (int g = 0; g < 5; g++) {
        int count = 0;
        for (int i = 0; i < vocab.count; i++)
            count += strcmp(vocab.entries[i].group, groups[g]) == 0;
        cr_assert_geq(count, 8, "group %s has %d words", groups[g], count);
    }
}

static double group_spread(const char *group, double *cx, double *cy) {
    double sx = 0, sy = 0;
    int n = 0;
    for (int i = 0; i < vocab.count; i++) {
        if (strcmp(vocab.entries[i].group, group)) continue;
        sx += vocab.entries[i].x[0];
        sy += vocab.entries[i].x[1];
        n++;
    }
    *cx = sx / n;
    *cy = sy / n;
    double spread = 0;
    for (int i = 0; i < vocab.count; i++) {
        if (strcmp(vocab.entries[i].group, group)) continue;
        spread = fmax(spread, hypot(vocab.entries[i].x[0] - *cx, vocab.entries[i].x[1] - *cy));
    }
    return spread;
}

Test(vocab, first_two_coordinates_cluster_groups) {
    /* Related words sit together in the embedding plane: animals, verbs and
     * function words are three clusters whose centres lie further apart than
     * any word lies from its own centre. */
    double ax, ay, vx, vy, fx, fy;
    double sa = group_spread("animal", &ax, &ay);
    double sv = group_spread("verb", &vx, &vy);
    double sf = group_spread("function", &fx, &fy);
    double worst = fmax(sa, fmax(sv, sf));
    cr_assert_gt(hypot(ax - vx, ay - vy), worst);
    cr_assert_gt(hypot(ax - fx, ay - fy), worst);
    cr_assert_gt(hypot(vx - fx, vy - fy), worst);
}

Test(vocab, lookup_ignores_case) {
    cr_assert_geq(vocab_find(&vocab, "cat"), 0);
    cr_assert_eq(vocab_find(&vocab, "CAT"), vocab_find(&vocab, "cat"));
    cr_assert_eq(vocab_find(&vocab, "Cat"), vocab_find(&vocab, "cat"));
    cr_assert_eq(vocab_find(&vocab, "zyzzyva"), -1);
    float a[4], b[4];
    vocab_embed(&vocab, "MAT", 4, a);
    vocab_embed(&vocab, "mat", 4, b);
    cr_assert_eq(memcmp(a, b, sizeof a), 0);
}

Test(vocab, unknown_words_are_deterministic_and_distinct) {
    float a[8], b[8], c[8];
    vocab_embed(&vocab, "zyzzyva", 8, a);
    vocab_embed(&vocab, "ZYZZYVA", 8, b);
    vocab_embed(&vocab, "quokka", 8, c);
    cr_assert_eq(memcmp(a, b, sizeof a), 0);
    cr_assert_neq(memcmp(a, c, sizeof a), 0);
    for (int i = 0; i < 8; i++) cr_assert(fabsf(a[i]) <= 0.75f);
    /* listed words keep their table values and extend past VOCAB_DIMS */
    float cat[8];
    vocab_embed(&vocab, "cat", 8, cat);
    int idx = vocab_find(&vocab, "cat");
    for (int i = 0; i < VOCAB_DIMS; i++) cr_assert_eq(cat[i], vocab.entries[idx].x[i]);
}

Test(vocab, bad_vocabulary_file_names_the_line) {
    char path[] = "/tmp/attnlab-vocab-XXXXXX", err[512];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    const char *text = "# comment\ncat\tanimal\t1\t2\t3\t4\ndog\tanimal\t1\tx\t3\t4\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    Vocab v = {0};
    cr_assert_not(vocab_load(&v, path, err, sizeof err));
    char want[600];
    snprintf(want, sizeof want, "%s:3: x1: 'x' is not a number in [-1000, 1000]", path);
    cr_assert_str_eq(err, want);
    unlink(path);
}

/* The vocabulary is read whole: no line is split at a buffer size, and bytes
 * that are not UTF-8 (or junk after a number) name their line. */
Test(vocab, hostile_vocabulary_lines_name_their_line) {
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"cat\tanimal\t1\t2\t3\t4\nd\xc0\xafg\tanimal\t1\t2\t3\t4\n",
         "%s:2: invalid UTF-8 at byte 2"},
        {"cat\tanimal\t1\t2\t3\t4junk\n", "%s:1: x3: '4junk' is not a number in [-1000, 1000]"},
        {"cat\tanimal\t1\t2\t3\t 4\n", "%s:1: x3: ' 4' is not a number in [-1000, 1000]"},
        {"# a comment of 600 bytes ..............................................................."
         "................................................................................."
         "................................................................................."
         "................................................................................."
         "................................................................................."
         "................................................................................."
         "................................................................................."
         "...\ncat\tanimal\t1\t2\t3\t4\n",
         "%s:1: line longer than 511 bytes"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char path[] = "/tmp/attnlab-vocab-XXXXXX", err[512];
        int fd = mkstemp(path);
        cr_assert(fd >= 0);
        cr_assert_eq(write(fd, cases[k].text, strlen(cases[k].text)),
                     (ssize_t)strlen(cases[k].text));
        close(fd);
        Vocab v = {0};
        cr_assert_not(vocab_load(&v, path, err, sizeof err), "case %zu loaded", k);
        char want[600];
        snprintf(want, sizeof want, cases[k].want, path);
        cr_assert_str_eq(err, want, "case %zu", k);
        unlink(path);
    }
}

Test(vocab, sentence_splits_on_whitespace) {
    static Scene s;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "  the\tcat \n sat  ", &vocab, err, sizeof err));
    cr_assert_eq(s.n, 3);
    cr_assert_str_eq(s.tokens[2], "sat");
    cr_assert_not(scene_set_sentence(&s, "   ", &vocab, err, sizeof err));
    cr_assert_str_eq(err, "no tokens: the sentence is empty");
    cr_assert_eq(s.n, 3, "a rejected sentence leaves the scene alone");
    cr_assert_not(
        scene_set_sentence(&s, "ok supercalifragilisticexpialidocious", &vocab, err, sizeof err));
    cr_assert(strstr(err, "longer than 31 bytes"), "%s", err);
}

Test(vocab, set_d_keeps_shared_columns) {
    static Scene s;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "the cat sat", &vocab, err, sizeof err));
    s.X[1 * 2 + 0] = 0.5f; /* a dragged value must survive widening */
    scene_set_d(&s, 6, &vocab);
    cr_assert_eq(s.d, 6);
    cr_assert_eq(s.X[1 * 6 + 0], 0.5f);
    float want[6];
    vocab_embed(&vocab, "cat", 6, want);
    cr_assert_eq(s.X[1 * 6 + 1], want[1]);
    cr_assert_eq(s.X[1 * 6 + 5], want[5]);
    scene_set_d(&s, 1, &vocab);
    cr_assert_eq(s.X[1], 0.5f);
}

Test(vocab, permute_moves_tokens_with_their_rows) {
    static Scene s;
    char err[256];
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "a b c", &vocab, err, sizeof err));
    float b0 = s.X[1 * s.d];
    int p[3] = {1, 2, 0};
    scene_permute(&s, p);
    cr_assert_str_eq(s.tokens[0], "b");
    cr_assert_eq(s.X[0], b0);
    cr_assert_eq(s.origin[0], 1);
    cr_assert_eq(s.origin[2], 0);
}
