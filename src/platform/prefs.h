/* What the window remembers between runs: the theme, the UI zoom and the
 * window size, in $XDG_CONFIG_HOME/attnlab/settings.json (or
 * ~/.config/attnlab/settings.json). The command line wins over it. A file
 * that cannot be read or makes no sense is ignored with one warning; a
 * missing one is silently the defaults.
 *
 *   bool prefs_path(char *dest, size_t size)
 *       the settings file's path; false if neither XDG_CONFIG_HOME nor HOME is set
 *   bool prefs_load(Prefs *p, char *warn, size_t warnsz)
 *       false (and *p all unset) with a one-line warning if the file exists and is bad
 *   bool prefs_save(const Prefs *p, char *err, size_t errsz)
 *       atomically, creating the folder; the fields that are set
 */
#ifndef ATTN_PREFS_H
#define ATTN_PREFS_H

#include "../ui/theme.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct Prefs {
    bool has_theme, has_zoom, has_size;
    Theme_Id theme;
    float zoom;
    int width, height;
} Prefs;

bool prefs_path(char *dest, size_t size);
bool prefs_load(Prefs *p, char *warn, size_t warnsz);
bool prefs_save(const Prefs *p, char *err, size_t errsz);

#endif
