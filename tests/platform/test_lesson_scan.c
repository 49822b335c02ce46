/* src/platform/lesson_scan.c: the lessons of a folder, bad files included.
 * Every shipped lesson through the checker: test_cli.c and make test's
 * lesson stage. */
#define _POSIX_C_SOURCE 200809L
#include "lesson/lesson_directive.h"
#include "platform/lesson_input.h"
#include "platform/lesson_scan.h"
#include "test_util.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* In another language the menu lists each lesson's translation where there
 * is one, and the English lesson where there is not; English is unchanged.
 * A folder of its own, so that the fallback stays tested once every shipped
 * lesson is translated. */
static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

Test(lesson_scan, the_menu_lists_translations_and_falls_back_to_english_per_lesson) {
    char dir[] = "/tmp/attnlab-langs-XXXXXX", path[200], err[300];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a-one.md", dir);
    write_file(path, "# One\n\n## S\n\ntext\n");
    snprintf(path, sizeof path, "%s/b-two.md", dir);
    write_file(path, "# Two\n\n## S\n\ntext\n");
    snprintf(path, sizeof path, "%s/de", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/de/a-one.md", dir);
    write_file(path, "# Eins\n\n## S\n\nText\n");
    snprintf(path, sizeof path, "%s/zh_CN", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/zh_CN/b-two.md", dir); /* a folder is no lesson */
    cr_assert_eq(mkdir(path, 0700), 0);

    static Lesson_Index index;
    cr_assert(lesson_index_scan(&index, dir, err, sizeof err), "%s", err);
    cr_assert_eq(index.count, 2, "the language folders are not lessons of their own");
    lesson_index_localize(&index, "en");
    cr_assert_str_eq(index.title[0], "One");
    lesson_index_localize(&index, "de");
    cr_assert_eq(index.count, 2);
    snprintf(path, sizeof path, "%s/de/a-one.md", dir);
    cr_assert_str_eq(index.path[0], path);
    cr_assert_str_eq(index.title[0], "Eins");
    snprintf(path, sizeof path, "%s/b-two.md", dir);
    cr_assert_str_eq(index.path[1], path, "no translation: the English lesson");
    cr_assert_str_eq(index.title[1], "Two");
    cr_assert_eq(index.broken, 0);

    char local[300];
    cr_assert_not(lesson_localized_path(path, "zh_CN", local, sizeof local),
                  "a folder in the translation's place is not a translation");
    cr_assert_not(lesson_localized_path(path, "en", local, sizeof local));
    snprintf(path, sizeof path, "%s/a-one.md", dir);
    cr_assert(lesson_localized_path(path, "de", local, sizeof local));
    snprintf(path, sizeof path, "%s/de/a-one.md", dir);
    cr_assert_str_eq(local, path);

    /* the shipped lessons: every translation stands for its English original */
    static Lesson_Index shipped;
    char lessons[300];
    snprintf(lessons, sizeof lessons, "%s/lessons", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_index_scan(&shipped, lessons, err, sizeof err), "%s", err);
    int count = shipped.count;
    lesson_index_localize(&shipped, "de");
    cr_assert_eq(shipped.count, count);
    cr_assert_str_eq(shipped.title[0], "1 · Aus Tokens werden Vektoren");

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The directive table's by-input column (platform/lesson_input.c): every row of the table
 * (lesson/lesson_directive.h) can be done with the mouse and keys, or says why not. */
Test(lesson_scan, every_directive_of_the_table_has_a_way_by_input) {
    const Lesson_Directive *d;
    int rows = 0;
    for (; (d = lesson_directive_at(rows)); rows++)
        cr_assert(lesson_input_plays(d->kind), "'%s' has no way by input", d->word);
    cr_assert_gt(rows, 20);
    cr_assert_not(lesson_input_plays(ACT_KIND_COUNT));
}
