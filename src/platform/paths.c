/* Finding the data folder; see paths.h. */
#define _POSIX_C_SOURCE 200809L
#include "../core/i18n.h"
#include "paths.h"

#include <SDL.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ATTNLAB_DATADIR
#define ATTNLAB_DATADIR "/usr/local/share/attnlab"
#endif

void paths_join(const char *dir, const char *rel, char *dest, size_t size) {
    size_t n = strlen(dir);
    bool slash = n > 0 && dir[n - 1] == '/';
    snprintf(dest, size, "%s%s%s", dir, slash ? "" : "/", rel);
}

static bool is_data_dir(const char *dir) {
    char probe[4096];
    paths_join(dir, "assets/vocab.tsv", probe, sizeof probe);
    return access(probe, R_OK) == 0;
}

bool paths_find_data(char *dest, size_t size, char *err, size_t errsz) {
    const char *env = getenv("ATTNLAB_DATA");
    if (env && *env) {
        if (is_data_dir(env)) {
            snprintf(dest, size, "%s", env);
            return true;
        }
        snprintf(err, errsz, _("attnlab: ATTNLAB_DATA=%s: no assets/vocab.tsv there"), env);
        return false;
    }
    char *base = SDL_GetBasePath();
    if (base) {
        /* beside the executable (a build run in place), or ../share/attnlab
         * beside it (an installed binary, wherever PREFIX and DESTDIR put it) */
        char rel[4200];
        paths_join(base, "../share/attnlab", rel, sizeof rel);
        bool here = is_data_dir(base), installed = !here && is_data_dir(rel);
        if (here) snprintf(dest, size, "%s", base);
        if (installed) snprintf(dest, size, "%s", rel);
        SDL_free(base);
        if (here || installed) return true;
    }
    if (is_data_dir(ATTNLAB_DATADIR)) {
        snprintf(dest, size, "%s", ATTNLAB_DATADIR);
        return true;
    }
    snprintf(err, errsz,
             _("attnlab: cannot find the data folder (assets/vocab.tsv): looked beside the "
               "executable and in %s; set ATTNLAB_DATA"),
             ATTNLAB_DATADIR);
    return false;
}

Paths_User paths_user_file(const char *xdg_var, const char *home_dir, const char *name, char *dest,
                           size_t size, char *err, size_t errsz) {
    const char *xdg = getenv(xdg_var), *home = getenv("HOME");
    int n;
    bool from_xdg = xdg && xdg[0] == '/';
    if (from_xdg)
        n = snprintf(dest, size, "%s/attnlab/%s", xdg, name);
    else if (home && home[0])
        n = snprintf(dest, size, "%s/%s/attnlab/%s", home, home_dir, name);
    else {
        if (err) snprintf(err, errsz, _("neither %s nor HOME is set"), xdg_var);
        return PATHS_NO_HOME;
    }
    if (n > 0 && (size_t)n < size) return PATHS_OK;
    if (err)
        snprintf(err, errsz, _("%s=%.60s…: the path of attnlab/%s there is longer than %zu bytes"),
                 from_xdg ? xdg_var : "HOME", from_xdg ? xdg : home, name, size - 1);
    return PATHS_TOO_LONG;
}

bool paths_make_parents(const char *path, char *err, size_t errsz) {
    char dir[1200];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
        snprintf(err, errsz, _("%.200s…: path too long"), path);
        return false;
    }
    for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errsz, "%s: %s", dir, strerror(errno));
            return false;
        }
        *slash = '/';
    }
    return true;
}
