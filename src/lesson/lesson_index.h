/* The list of lessons the menu offers: one entry per *.md file of a
 * folder, by file name. A file that does not load stays listed, with its
 * error, so the menu can show it greyed out: one bad file never stops the
 * app. Filled by platform/lesson_scan.h (reading folders is the platform's
 * job); read by the lesson menu and --check-lessons.
 *
 *   int lesson_index_find(const Lesson_Index *ix, const char *file)
 *       the entry of that file name (its folder aside) that loads, or −1 (ix may be NULL)
 */
#ifndef ATTN_LESSON_INDEX_H
#define ATTN_LESSON_INDEX_H

#include "lesson.h"

#include <string.h>

typedef struct Lesson_Index {
    int count;
    int broken;  /* how many entries have an error */
    int skipped; /* *.md files past LESSON_INDEX_MAX, not listed */
    char path[LESSON_INDEX_MAX][512];
    char title[LESSON_INDEX_MAX][128];
    int steps[LESSON_INDEX_MAX];       /* how many steps the lesson has */
    char error[LESSON_INDEX_MAX][400]; /* "" when the lesson loads */
} Lesson_Index;

static inline int lesson_index_find(const Lesson_Index *ix, const char *file) {
    for (int k = 0; ix && k < ix->count; k++) {
        const char *base = strrchr(ix->path[k], '/');
        if (!strcmp(base ? base + 1 : ix->path[k], file) && !ix->error[k][0]) return k;
    }
    return -1;
}

#endif
