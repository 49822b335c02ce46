/* What the window remembers between runs: the theme, the UI zoom and the
 * window size, the language picked in the window ("lang"), and what a teacher hides ("hide": "S,
 * dk, mask", the names of
 * --hide; the window never changes it, so a save keeps it as it is), in
 * $XDG_CONFIG_HOME/attnlab/settings.json (or
 * ~/.config/attnlab/settings.json). The command line wins over it. The file
 * is read as strictly as a scene (no NUL, no duplicate keys); a field with a
 * bad value is said once and not used, and the good ones are; a file that
 * cannot be read at all is ignored with one warning and never replaced. A
 * missing file is silently the defaults.
 *
 * A save writes only the fields the user changed, merged into the file as it
 * is on disk at that moment (under a lock): another window's changes, unknown
 * fields and fields this run could not use are kept.
 *
 *   bool prefs_path(char *dest, size_t size)
 *       the settings file's path; false if neither XDG_CONFIG_HOME nor HOME is set
 *   bool prefs_load(Prefs *p, char *warn, size_t warnsz)
 *       the usable fields in *p; false with a one-line warning if the file exists and any of it
 *       is bad; PREFS_MESSAGE_BYTES hold any warning or error whole (the longest path, the
 *       longest reason, translated)
 *   bool prefs_save(const Prefs *changes, char *err, size_t errsz)
 *       the fields of `changes` that are set, merged as above; atomic, creating the folder,
 *       through a symbolic link to its target
 */
#ifndef ATTN_PREFS_H
#define ATTN_PREFS_H

#include "../ui/theme.h"

#include <stdbool.h>

#define PREFS_MESSAGE_BYTES 2048
#include <stddef.h>

typedef struct Prefs {
    bool has_theme, has_zoom, has_size, has_lang;
    bool has_hide;  /* "hide": what the teacher hides (read only: a save never writes it) */
    char hide[320]; /* " a b", as model/hide.h writes it */
    char why[900];  /* why a field could not be used, for the warning */
    Theme_Id theme;
    float zoom;
    int width, height;
    int lang; /* platform/lang.h's index: "lang": "de" in the file */
} Prefs;

bool prefs_path(char *dest, size_t size);
bool prefs_load(Prefs *p, char *warn, size_t warnsz);
bool prefs_save(const Prefs *changes, char *err, size_t errsz);

#endif
