/* The window's remembered settings; see prefs.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "prefs.h"

#include "lang.h"

#include "../core/fileio.h"
#include "../model/hide.h"
#include "../json/json_strict.h"
#include "cli.h"
#include "paths.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PREFS_MAX_BYTES 65536

bool prefs_path(char *dest, size_t size) {
    return paths_user_file("XDG_CONFIG_HOME", ".config", "settings.json", dest, size, NULL, 0) ==
           PATHS_OK;
}

/* One field of the file into *p; NULL, or why it is not usable. */
static const char *read_field(const cJSON *it, Prefs *p) {
    if (!strcmp(it->string, "theme")) {
        if (!cJSON_IsString(it) || !theme_by_name(it->valuestring, &p->theme))
            return _("\"theme\" must be \"dark\", \"light\" or \"contrast\"");
        p->has_theme = true;
    } else if (!strcmp(it->string, "lang")) {
        int lang = cJSON_IsString(it) ? lang_parse(it->valuestring) : -1;
        if (lang < 0) return _("\"lang\" must be \"en\", \"es\", \"de\" or \"zh_CN\"");
        p->lang = lang;
        p->has_lang = true;
    } else if (!strcmp(it->string, "ui_scale")) {
        if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < 0.75 ||
            it->valuedouble > 3)
            return _("\"ui_scale\" must be a number from 0.75 to 3");
        p->zoom = (float)it->valuedouble;
        p->has_zoom = true;
    } else if (!strcmp(it->string, "hide")) {
        if (!cJSON_IsString(it)) return _("\"hide\" must be a string of names, as --hide takes");
        if (!hide_list_parse(it->valuestring, p->hide, sizeof p->hide, p->why + 8,
                             sizeof p->why - 8)) {
            memcpy(p->why, "\"hide\": ", 8);
            p->hide[0] = '\0';
            return p->why;
        }
        p->has_hide = true;
    } else if (!strcmp(it->string, "window")) {
        const cJSON *w = cJSON_GetArrayItem(it, 0), *h = cJSON_GetArrayItem(it, 1);
        if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2 || !cJSON_IsNumber(w) ||
            !cJSON_IsNumber(h) || w->valuedouble != floor(w->valuedouble) ||
            h->valuedouble != floor(h->valuedouble) || w->valuedouble < CLI_MIN_SIZE ||
            h->valuedouble < CLI_MIN_SIZE || w->valuedouble > CLI_MAX_SIZE ||
            h->valuedouble > CLI_MAX_SIZE)
            return _("\"window\" must be [width, height] in whole pixels");
        p->width = (int)w->valuedouble;
        p->height = (int)h->valuedouble;
        p->has_size = true;
    }
    /* other fields (a newer version's, a user's notes) are left alone */
    return NULL;
}

bool prefs_load(Prefs *p, char *warn, size_t warnsz) {
    memset(p, 0, sizeof *p);
    char path[1024], err[PREFS_MESSAGE_BYTES - 200]; /* room for the translated note after it */
    Paths_User where = paths_user_file("XDG_CONFIG_HOME", ".config", "settings.json", path,
                                       sizeof path, err, sizeof err);
    if (where != PATHS_OK) {
        if (where == PATHS_NO_HOME) return true; /* no home at all: the defaults */
        snprintf(warn, warnsz, _("%s (the settings are ignored)"), err);
        return false;
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return true; /* never saved: the defaults */
    char *text;
    size_t len;
    if (!file_read_all(path, PREFS_MAX_BYTES, &text, &len, err, sizeof err)) {
        snprintf(warn, warnsz, _("%s (the settings are ignored)"), err);
        return false;
    }
    cJSON *root = json_read_strict(text, len, path, _("the settings object"), err, sizeof err);
    free(text);
    if (!root || !cJSON_IsObject(root)) {
        if (root) snprintf(err, sizeof err, _("%s: not a JSON object"), path);
        snprintf(warn, warnsz, _("%s (the settings are ignored; the file is left as it is)"), err);
        cJSON_Delete(root);
        return false;
    }
    /* each good field is used; a bad one is said, and stays in the file as
     * it is until the user changes that setting */
    char why[sizeof p->why] = ""; /* the first field's reason (it may live in a copy) */
    int bad = 0;
    for (const cJSON *it = root->child; it; it = it->next) {
        Prefs one = *p;
        const char *w = read_field(it, &one);
        if (w) {
            if (!bad) snprintf(why, sizeof why, "%s", w);
            bad++;
        } else {
            *p = one;
        }
    }
    if (bad)
        snprintf(warn, warnsz, _("%s: %s (%s ignored; the rest is used)"), path, why,
                 bad > 1 ? _("those settings are") : _("that setting is"));
    cJSON_Delete(root);
    return bad == 0;
}

/* The settings file as it is on disk, with only the fields in `changes` set
 * to their new values. A file that cannot be read is not replaced. */
static char *merge_prefs(const char *old, size_t len, const void *ctx, char *err, size_t errsz) {
    const Prefs *p = ctx;
    char path[1024] = "settings.json";
    prefs_path(path, sizeof path);
    cJSON *root = old ? json_read_strict(old, len, path, _("the settings object"), err, errsz)
                      : cJSON_CreateObject();
    if (!root) return NULL;
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsz, _("%s: not a JSON object"), path);
        cJSON_Delete(root);
        return NULL;
    }
    cJSON *theme = p->has_theme ? cJSON_CreateString(theme_name(p->theme)) : NULL;
    /* four decimals: 1.1 is written as 1.1, not as the float nearest to it */
    cJSON *zoom = p->has_zoom ? cJSON_CreateNumber(round((double)p->zoom * 1e4) / 1e4) : NULL;
    int size[2] = {p->width, p->height};
    cJSON *window = p->has_size ? cJSON_CreateIntArray(size, 2) : NULL;
    cJSON *lang = p->has_lang ? cJSON_CreateString(lang_code(p->lang)) : NULL;
    cJSON *set[] = {theme, zoom, window, lang};
    const char *keys[] = {"theme", "ui_scale", "window", "lang"};
    for (int k = 0; k < 4; k++) {
        if (!set[k]) continue;
        if (cJSON_GetObjectItemCaseSensitive(root, keys[k]))
            cJSON_ReplaceItemInObjectCaseSensitive(root, keys[k], set[k]);
        else
            cJSON_AddItemToObject(root, keys[k], set[k]);
    }
    char *text = json_print_lines(root);
    cJSON_Delete(root);
    if (!text) snprintf(err, errsz, _("%s: out of memory"), path);
    return text;
}

bool prefs_save(const Prefs *changes, char *err, size_t errsz) {
    char path[1024];
    if (paths_user_file("XDG_CONFIG_HOME", ".config", "settings.json", path, sizeof path, err,
                        errsz) != PATHS_OK)
        return false;
    if (!paths_make_parents(path, err, errsz)) return false;
    if (file_update_atomic(path, PREFS_MAX_BYTES, merge_prefs, changes, err, errsz)) return true;
    size_t n = strlen(err);
    snprintf(err + n, errsz - n, "%s", _(" (not saved: the file is left as it is)"));
    return false;
}
