/* Scanning a folder for lessons; see lesson_scan.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_path(const void *a, const void *b) {
    return strcmp(a, b);
}

bool lesson_index_scan(Lesson_Index *index, const char *dir, char *err, size_t errsz) {
    memset(index, 0, sizeof *index);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "%s: cannot open: %s", dir, strerror(errno));
        return false;
    }
    char(*names)[512] = malloc(sizeof(char[LESSON_INDEX_MAX][512]));
    Lesson *scratch = malloc(sizeof *scratch);
    if (!names || !scratch) {
        free(names);
        free(scratch);
        closedir(d);
        snprintf(err, errsz, "%s: out of memory", dir);
        return false;
    }
    int count = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") || !strcmp(e->d_name, "README.md")) continue;
        if (count == LESSON_INDEX_MAX) {
            index->skipped++;
            continue;
        }
        size_t dl = strlen(dir);
        snprintf(names[count++], sizeof names[0], "%.*s/%.*s",
                 (int)(dl && dir[dl - 1] == '/' ? dl - 1 : dl), dir, 250, e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], by_path);
    for (int k = 0; k < count; k++) {
        snprintf(index->path[index->count], sizeof index->path[0], "%s", names[k]);
        char why[600];
        /* lesson_load refuses FIFOs and devices at once, and a hostile file
         * fails with its FILE:LINE instead of stopping the scan */
        if (lesson_load(scratch, names[k], why, sizeof why)) {
            snprintf(index->title[index->count], sizeof index->title[0], "%s", scratch->title);
            index->steps[index->count] = scratch->step_count;
        } else {
            const char *base = strrchr(names[k], '/');
            snprintf(index->title[index->count], sizeof index->title[0], "%.120s",
                     base ? base + 1 : names[k]);
            snprintf(index->error[index->count], sizeof index->error[0], "%.399s", why);
            index->broken++;
        }
        index->count++;
    }
    free(names);
    free(scratch);
    return true;
}
