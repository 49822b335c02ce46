/* Lesson progress on disk; see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "progress.h"

#include "../core/fileio.h"
#include "../json/json_strict.h"
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define PROGRESS_MAX_BYTES (1 << 20)

static Paths_User path_of(char *dest, size_t size, char *err, size_t errsz) {
    return paths_user_file("XDG_DATA_HOME", ".local/share", "progress.json", dest, size, err,
                           errsz);
}

/* One entry {"file": NAME.md, "steps": N, "done": [s, …]}: its name and done
 * steps, or why it is not usable. "steps" is what the lesson had when it was
 * saved; the menu counts against the lesson as it is now. */
static const char *read_entry(const cJSON *it, char *file, size_t filesz, int *nsteps,
                              uint32_t *done) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "file");
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(it, "steps");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(it, "done");
    if (!cJSON_IsString(name) || strlen(name->valuestring) >= filesz ||
        strchr(name->valuestring, '/') || !name->valuestring[0] || !cJSON_IsNumber(steps) ||
        steps->valuedouble < 1 || steps->valuedouble > LESSON_MAX_STEPS ||
        steps->valuedouble != steps->valueint || !cJSON_IsArray(list))
        return _("a lesson is {\"file\": NAME.md, \"steps\": N (1 to 24), \"done\": [step, …]}");
    *done = 0;
    for (const cJSON *s = list->child; s; s = s->next) {
        if (!cJSON_IsNumber(s) || s->valuedouble != s->valueint || s->valueint < 0 ||
            s->valueint >= steps->valueint)
            return _("a done step is not one of the lesson's steps");
        *done |= (uint32_t)1 << s->valueint;
    }
    snprintf(file, filesz, "%s", name->valuestring);
    *nsteps = steps->valueint;
    return NULL;
}

/* The file's "lessons" array, or NULL with why in err. */
static cJSON *read_file_json(const char *text, size_t len, const char *path, cJSON **list,
                             char *err, size_t errsz) {
    cJSON *root = json_read_strict(text, len, path, _("the progress object"), err, errsz);
    *list = root ? cJSON_GetObjectItemCaseSensitive(root, "lessons") : NULL;
    if (root && !cJSON_IsArray(*list)) {
        snprintf(err, errsz, _("%s: not {\"lessons\": [...]}"), path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static int find(const Lesson_Progress *p, const char *file) {
    for (int k = 0; k < p->count; k++)
        if (!strcmp(p->file[k], file)) return k;
    return -1;
}

/* A file that cannot be read as progress at all is kept aside, never
 * overwritten: progress.json.bad-YYYYmmdd-HHMMSS beside it. */
static void keep_aside(const char *path, char *warn, size_t warnsz, const char *why) {
    char stamp[32], stem[1100], aside[1200];
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    snprintf(stem, sizeof stem, "%s.bad-%s", path, stamp);
    if (file_unique_name(stem, "", aside, sizeof aside) && rename(path, aside) == 0)
        snprintf(warn, warnsz, _("%s (kept aside as %s; lesson progress starts afresh)"), why,
                 aside);
    else
        snprintf(warn, warnsz, _("%s (lesson progress is ignored; the file is left as it is)"),
                 why);
}

bool progress_load(Lesson_Progress *p, char *warn, size_t warnsz) {
    memset(p, 0, sizeof *p);
    char path[1024], err[1200];
    struct stat st;
    Paths_User where = path_of(path, sizeof path, err, sizeof err);
    if (where != PATHS_OK) {
        if (where == PATHS_NO_HOME) return true; /* no home at all: nothing is kept */
        snprintf(warn, warnsz, _("%s (lesson progress is not kept)"), err);
        return false;
    }
    if (stat(path, &st) != 0 && errno == ENOENT) return true;
    char *text;
    size_t len;
    if (!file_read_all(path, PROGRESS_MAX_BYTES, &text, &len, err, sizeof err)) {
        snprintf(warn, warnsz, _("%s (lesson progress is ignored; the file is left as it is)"),
                 err);
        return false;
    }
    cJSON *list, *root = read_file_json(text, len, path, &list, err, sizeof err);
    free(text);
    if (!root) {
        keep_aside(path, warn, warnsz, err);
        return false;
    }
    /* every good entry is used; a bad one is said once and stays in the file */
    int bad = 0, over = 0;
    const char *why = NULL;
    for (const cJSON *it = list->child; it; it = it->next) {
        char file[sizeof p->file[0]];
        uint32_t done;
        int steps;
        const char *w = read_entry(it, file, sizeof file, &steps, &done);
        if (w) {
            if (!why) why = w;
            bad++;
            continue;
        }
        int k = find(p, file);
        if (k < 0 && p->count == PROGRESS_MAX_LESSONS) {
            over++;
            continue;
        }
        if (k < 0) {
            k = p->count++;
            memcpy(p->file[k], file, sizeof file);
        }
        p->done[k] |= done;
        if (steps > p->steps[k]) p->steps[k] = steps;
    }
    cJSON_Delete(root);
    if (why)
        snprintf(warn, warnsz, _("%s: %s (%d %s skipped and kept in the file; the rest is used)"),
                 path, why, bad, bad == 1 ? _("entry is") : _("entries are"));
    else if (over)
        snprintf(warn, warnsz,
                 _("%s: more than %d lessons; %d are kept in the file but not shown this time"),
                 path, PROGRESS_MAX_LESSONS, over);
    return !why && !over;
}

/* {"file": …, "steps": …, "done": […]}, with steps at least past the last done
 * step; NULL when out of memory. */
static cJSON *make_entry(const char *file, int steps, uint32_t done) {
    for (int s = 0; s < 32; s++)
        if ((done >> s) & 1 && s + 1 > steps) steps = s + 1;
    cJSON *entry = cJSON_CreateObject(), *arr = NULL;
    bool ok = entry && cJSON_AddStringToObject(entry, "file", file) &&
              cJSON_AddNumberToObject(entry, "steps", steps < 1 ? 1 : steps) &&
              (arr = cJSON_AddArrayToObject(entry, "done"));
    for (int s = 0; ok && s < 32; s++)
        if ((done >> s) & 1) ok = cJSON_AddItemToArray(arr, cJSON_CreateNumber(s));
    if (!ok) cJSON_Delete(entry);
    return ok ? entry : NULL;
}

/* The file as it is on disk now, with this run's done steps added to each
 * lesson's (a union: another window's steps are never lost). Entries this
 * run cannot read are kept as they are, unless this run has progress for the
 * same lesson, which then replaces them. */
static char *merge_progress(const char *old, size_t len, const void *ctx, char *err, size_t errsz) {
    const Lesson_Progress *p = ctx;
    char path[1024] = "progress.json";
    path_of(path, sizeof path, NULL, 0);
    cJSON *list, *root;
    if (old) {
        root = read_file_json(old, len, path, &list, err, errsz);
        if (!root) return NULL;
    } else {
        root = cJSON_CreateObject();
        list = cJSON_AddArrayToObject(root, "lessons");
    }
    bool oom = !root || !list;
    bool *seen = calloc((size_t)p->count + 1, sizeof *seen);
    oom |= !seen;
    for (cJSON *it = oom ? NULL : list->child, *next; it; it = next) {
        next = it->next;
        char file[sizeof p->file[0]];
        uint32_t done = 0;
        int disk_steps = 0;
        const char *w = read_entry(it, file, sizeof file, &disk_steps, &done);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "file");
        int k = find(p, w ? (cJSON_IsString(name) ? name->valuestring : "") : file);
        if (k < 0) continue; /* not this run's: kept as it is */
        if (seen[k]) {       /* a second entry for the same lesson folds into the first */
            cJSON_Delete(cJSON_DetachItemViaPointer(list, it));
            continue;
        }
        seen[k] = true;
        int steps = p->steps[k] > disk_steps ? p->steps[k] : disk_steps;
        cJSON *entry = make_entry(p->file[k], steps, done | p->done[k]);
        oom |= !entry || !cJSON_ReplaceItemViaPointer(list, it, entry);
    }
    for (int k = 0; !oom && k < p->count; k++) {
        if (seen[k]) continue;
        cJSON *entry = make_entry(p->file[k], p->steps[k], p->done[k]);
        oom |= !entry || !cJSON_AddItemToArray(list, entry);
    }
    free(seen);
    /* {"lessons": [ one lesson a line ]}, other members as they were */
    char *lines = oom ? NULL : json_print_lines(list);
    cJSON *keep = lines ? cJSON_DetachItemViaPointer(root, list) : NULL;
    char *rest = keep ? json_print_lines(root) : NULL;
    cJSON_Delete(keep);
    cJSON_Delete(root);
    char *text = rest ? malloc(strlen(lines) + strlen(rest) + 32) : NULL;
    if (text) {
        /* rest is "{…}\n": the lessons go first, then its members */
        size_t r = strlen(rest);
        bool others = r > 4;
        lines[strlen(lines) - 1] = '\0'; /* the array's newline */
        sprintf(text, "{\"lessons\": %s%s%.*s}\n", lines, others ? "," : "\n",
                others ? (int)(r - 3) : 0, others ? rest + 1 : "");
    }
    free(lines);
    free(rest);
    if (!text) snprintf(err, errsz, _("%s: out of memory"), path);
    return text;
}

bool progress_save(const Lesson_Progress *p, char *err, size_t errsz) {
    char path[1024];
    if (path_of(path, sizeof path, err, errsz) != PATHS_OK) return false;
    if (!paths_make_parents(path, err, errsz)) return false;
    if (file_update_atomic(path, PROGRESS_MAX_BYTES, merge_progress, p, err, errsz)) return true;
    size_t n = strlen(err);
    snprintf(err + n, errsz - n, "%s", _(" (not saved: the file is left as it is)"));
    return false;
}
