/* src/platform/lesson_scan.c: the lessons of a folder, bad files included,
 * and every shipped lesson through the checker. */
#define _POSIX_C_SOURCE 200809L
#include "model/lesson_check.h"
#include "platform/lesson_scan.h"
#include "test_util.h"

#include <string.h>
#include <sys/stat.h>

static Vocab vocab;
static Lesson lesson;

static void load_vocab(void) {
    test_load_vocab(&vocab);
}

static void free_vocab(void) {
    vocab_free(&vocab);
}

TestSuite(lesson_scan, .init = load_vocab, .fini = free_vocab);

Test(lesson_scan, the_shipped_lessons_all_pass_the_checker) {
    static Lesson_Index index;
    char dir[1024], err[1024];
    snprintf(dir, sizeof dir, "%s/lessons", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_index_scan(&index, dir, err, sizeof err), "%s", err);
    cr_assert_geq(index.count, 7, "at least seven lessons");
    for (int k = 0; k < index.count; k++) {
        cr_assert(lesson_load(&lesson, index.path[k], err, sizeof err), "%s", err);
        cr_assert(lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), NULL, err, sizeof err),
                  "%s", err);
    }
}

Test(lesson_scan, a_folder_with_bad_lessons_lists_them_with_their_errors) {
    char dir[] = "/tmp/attnlab-lessons-XXXXXX", path[200], err[300];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a-good.md", dir);
    FILE *f = fopen(path, "w");
    fputs("# Good\n\n## S\n\ntext\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/b-bad.md", dir);
    f = fopen(path, "w");
    fputs("# Bad\n\n## S\n\n```attnlab\nfrobnicate\n```\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/c-fifo.md", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    static Lesson_Index ix;
    cr_assert(lesson_index_scan(&ix, dir, err, sizeof err), "%s", err);
    cr_assert_eq(ix.count, 3);
    cr_assert_eq(ix.broken, 2);
    cr_assert_str_eq(ix.title[0], "Good");
    cr_assert_str_eq(ix.error[0], "");
    char want[300];
    snprintf(want, sizeof want, "%s/b-bad.md:6: unknown directive 'frobnicate'", dir);
    cr_assert_str_eq(ix.error[1], want);
    snprintf(want, sizeof want, "%s/c-fifo.md: is a FIFO (named pipe), not a regular file", dir);
    cr_assert_str_eq(ix.error[2], want);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
