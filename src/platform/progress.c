/* Lesson progress on disk; see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include "../core/fileio.h"
#include "../model/jsonw.h"
#include "paths.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROGRESS_MAX_BYTES (256 * 1024)

static bool path_of(char *dest, size_t size) {
    return paths_user_file("XDG_DATA_HOME", ".local/share", "progress.json", dest, size);
}

bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz) {
    memset(p, 0, sizeof *p);
    char path[1024], err[600];
    struct stat st;
    if (!path_of(path, sizeof path) || (stat(path, &st) != 0 && errno == ENOENT)) return true;
    char *text;
    size_t len;
    if (!file_read_all(path, PROGRESS_MAX_BYTES, &text, &len, err, sizeof err)) {
        snprintf(warn, warnsz, "%s (lesson progress is ignored)", err);
        return false;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *list = root ? cJSON_GetObjectItemCaseSensitive(root, "lessons") : NULL;
    const char *why = cJSON_IsArray(list) ? NULL : "not {\"lessons\": [...]}";
    for (const cJSON *it = list ? list->child : NULL; it && !why; it = it->next) {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(it, "file");
        const cJSON *steps = cJSON_GetObjectItemCaseSensitive(it, "steps");
        const cJSON *done = cJSON_GetObjectItemCaseSensitive(it, "done");
        if (!cJSON_IsString(file) || strlen(file->valuestring) >= sizeof p->file[0] ||
            strchr(file->valuestring, '/') || !cJSON_IsNumber(steps) || steps->valueint < 1 ||
            steps->valueint > LESSON_MAX_STEPS || steps->valuedouble != steps->valueint ||
            !cJSON_IsArray(done)) {
            why = "each lesson is {\"file\": NAME.md, \"steps\": N, \"done\": [step, …]}";
            break;
        }
        if (p->count == LESSON_INDEX_MAX) {
            why = "more lessons than the menu can list";
            break;
        }
        int k = p->count++;
        snprintf(p->file[k], sizeof p->file[k], "%s", file->valuestring);
        p->steps[k] = steps->valueint;
        for (const cJSON *s = done->child; s; s = s->next) {
            if (!cJSON_IsNumber(s) || s->valuedouble != s->valueint || s->valueint < 0 ||
                s->valueint >= p->steps[k]) {
                why = "a done step is not one of the lesson's steps";
                break;
            }
            p->done[k] |= (uint32_t)1 << s->valueint;
        }
    }
    cJSON_Delete(root);
    if (why) {
        memset(p, 0, sizeof *p);
        snprintf(warn, warnsz, "%s: %s (lesson progress is ignored)", path, why);
        return false;
    }
    return true;
}

static void write_progress(FILE *f, const void *ctx) {
    const Lesson_Progress *p = ctx;
    fprintf(f, "{\"lessons\": [");
    for (int k = 0; k < p->count; k++) {
        fprintf(f, "%s\n  {\"file\": ", k ? "," : "");
        jw_string(f, p->file[k]);
        fprintf(f, ", \"steps\": %d, \"done\": [", p->steps[k]);
        const char *sep = "";
        for (int s = 0; s < p->steps[k] && s < 32; s++)
            if ((p->done[k] >> s) & 1) {
                fprintf(f, "%s%d", sep, s);
                sep = ", ";
            }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
}

bool progress_save(const Lesson_Progress *p, char *err, size_t errsz) {
    char path[1024];
    if (!path_of(path, sizeof path)) {
        snprintf(err, errsz, "neither XDG_DATA_HOME nor HOME is set");
        return false;
    }
    return paths_make_parents(path, err, errsz) &&
           file_write_atomic(path, write_progress, p, err, errsz);
}
