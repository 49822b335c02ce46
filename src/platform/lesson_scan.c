/* Scanning a folder for lessons; see lesson_scan.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_path(const void *a, const void *b) {
    return strcmp(a, b);
}

/* one entry of the index from the lesson at path */
static void fill(Lesson_Index *index, int k, const char *path, Lesson *scratch) {
    char why[600];
    snprintf(index->path[k], sizeof index->path[0], "%s", path);
    index->error[k][0] = '\0';
    /* lesson_load refuses FIFOs and devices at once, and a hostile file
     * fails with its FILE:LINE instead of stopping the scan */
    if (lesson_load(scratch, path, why, sizeof why)) {
        snprintf(index->title[k], sizeof index->title[0], "%s", scratch->title);
        index->steps[k] = scratch->step_count;
    } else {
        const char *base = strrchr(path, '/');
        snprintf(index->title[k], sizeof index->title[0], "%.120s", base ? base + 1 : path);
        snprintf(index->error[k], sizeof index->error[0], "%.399s", why);
    }
}

bool lesson_localized_path(const char *path, const char *lang, char *dest, size_t size) {
    if (!lang || !strcmp(lang, "en") || strlen(lang) > 8) return false;
    const char *base = strrchr(path, '/');
    int dir_len = base ? (int)(base - path) : 1;
    const char *dir = base ? path : ".";
    int n = snprintf(dest, size, "%.*s/%s/%s", dir_len, dir, lang, base ? base + 1 : path);
    struct stat st;
    return n > 0 && (size_t)n < size && stat(dest, &st) == 0 && S_ISREG(st.st_mode);
}

void lesson_index_localize(Lesson_Index *index, const char *lang) {
    if (!lang || !strcmp(lang, "en") || strlen(lang) > 8) return;
    Lesson *scratch = malloc(sizeof *scratch);
    if (!scratch) return; /* the English lessons stay listed */
    for (int k = 0; k < index->count; k++) {
        char local[600];
        if (!lesson_localized_path(index->path[k], lang, local, sizeof local)) continue;
        bool was_broken = index->error[k][0] != '\0';
        fill(index, k, local, scratch);
        index->broken += (index->error[k][0] != '\0') - was_broken;
    }
    free(scratch);
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
        fill(index, index->count, names[k], scratch);
        index->broken += index->error[index->count][0] != '\0';
        index->count++;
    }
    free(names);
    free(scratch);
    return true;
}
