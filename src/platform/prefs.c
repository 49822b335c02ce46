/* The window's remembered settings; see prefs.h. */
#define _POSIX_C_SOURCE 200809L
#include "prefs.h"

#include "../core/fileio.h"
#include "cli.h"
#include "paths.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PREFS_MAX_BYTES 65536

bool prefs_path(char *dest, size_t size) {
    return paths_user_file("XDG_CONFIG_HOME", ".config", "settings.json", dest, size);
}

bool prefs_load(Prefs *p, char *warn, size_t warnsz) {
    memset(p, 0, sizeof *p);
    char path[1024], err[600];
    if (!prefs_path(path, sizeof path)) return true;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return true; /* never saved: the defaults */
    char *text;
    size_t len;
    if (!file_read_all(path, PREFS_MAX_BYTES, &text, &len, err, sizeof err)) {
        snprintf(warn, warnsz, "%s (the settings are ignored)", err);
        return false;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const char *why = NULL;
    Prefs got = {0};
    if (!root || !cJSON_IsObject(root)) {
        why = "not a JSON object";
    } else {
        const cJSON *theme = cJSON_GetObjectItemCaseSensitive(root, "theme");
        const cJSON *zoom = cJSON_GetObjectItemCaseSensitive(root, "ui_scale");
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(root, "window");
        if (theme) {
            if (!cJSON_IsString(theme) || !theme_by_name(theme->valuestring, &got.theme))
                why = "\"theme\" must be \"dark\", \"light\" or \"contrast\"";
            got.has_theme = true;
        }
        if (zoom && !why) {
            if (!cJSON_IsNumber(zoom) || !isfinite(zoom->valuedouble) || zoom->valuedouble < 0.75 ||
                zoom->valuedouble > 3)
                why = "\"ui_scale\" must be a number from 0.75 to 3";
            got.zoom = (float)zoom->valuedouble;
            got.has_zoom = true;
        }
        if (size && !why) {
            const cJSON *w = cJSON_GetArrayItem(size, 0), *h = cJSON_GetArrayItem(size, 1);
            if (!cJSON_IsArray(size) || cJSON_GetArraySize(size) != 2 || !cJSON_IsNumber(w) ||
                !cJSON_IsNumber(h) || w->valuedouble != floor(w->valuedouble) ||
                h->valuedouble != floor(h->valuedouble) || w->valuedouble < CLI_MIN_SIZE ||
                h->valuedouble < CLI_MIN_SIZE || w->valuedouble > CLI_MAX_SIZE ||
                h->valuedouble > CLI_MAX_SIZE)
                why = "\"window\" must be [width, height] in whole pixels";
            else {
                got.width = (int)w->valuedouble;
                got.height = (int)h->valuedouble;
                got.has_size = true;
            }
        }
    }
    cJSON_Delete(root);
    if (why) {
        snprintf(warn, warnsz, "%s: %s (the settings are ignored)", path, why);
        return false;
    }
    *p = got;
    return true;
}

static void write_prefs(FILE *f, const void *ctx) {
    const Prefs *p = ctx;
    const char *sep = "";
    fprintf(f, "{");
    if (p->has_theme) {
        fprintf(f, "%s\"theme\": \"%s\"", sep, theme_name(p->theme));
        sep = ", ";
    }
    if (p->has_zoom) {
        fprintf(f, "%s\"ui_scale\": %.4g", sep, (double)p->zoom);
        sep = ", ";
    }
    if (p->has_size) fprintf(f, "%s\"window\": [%d, %d]", sep, p->width, p->height);
    fprintf(f, "}\n");
}

bool prefs_save(const Prefs *p, char *err, size_t errsz) {
    char path[1024];
    if (!prefs_path(path, sizeof path)) {
        snprintf(err, errsz, "neither XDG_CONFIG_HOME nor HOME is set");
        return false;
    }
    return paths_make_parents(path, err, errsz) &&
           file_write_atomic(path, write_prefs, p, err, errsz);
}
