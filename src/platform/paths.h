/* Where attnlab finds its data (assets/, shaders/, lessons/).
 *
 * In order: $ATTNLAB_DATA if set (an explicit choice wins, so a developer can
 * point any binary at any tree), then the folder holding the executable (a
 * build run in place), then the install location ATTNLAB_DATADIR
 * ($(PREFIX)/share/attnlab). A folder counts only if it holds
 * assets/vocab.tsv.
 *
 *   bool paths_find_data(char *dest, size_t size, char *err, size_t errsz)
 *   void paths_join(const char *dir, const char *rel, char *dest, size_t size)
 *
 * And where the user's own files go, by the XDG base directories:
 *
 *   Paths_User paths_user_file(const char *xdg_var, const char *home_dir, const char *name,
 *                              char *dest, size_t size, char *err, size_t errsz)
 *       $xdg_var/attnlab/name, or $HOME/home_dir/attnlab/name when the variable is unset
 *       or not absolute; PATHS_NO_HOME if neither is set, PATHS_TOO_LONG if the path does
 *       not fit, and then err (may be NULL) says which
 *   bool paths_make_parents(const char *path, char *err, size_t errsz)
 *       create the folders leading to path
 */
#ifndef ATTN_PATHS_H
#define ATTN_PATHS_H

#include <stdbool.h>
#include <stddef.h>

bool paths_find_data(char *dest, size_t size, char *err, size_t errsz);
void paths_join(const char *dir, const char *rel, char *dest, size_t size);
/* Where a user's own file goes: a no-home run keeps nothing, and says
 * nothing on load; a path too long is said. */
typedef enum Paths_User { PATHS_OK = 0, PATHS_NO_HOME, PATHS_TOO_LONG } Paths_User;

Paths_User paths_user_file(const char *xdg_var, const char *home_dir, const char *name, char *dest,
                           size_t size, char *err, size_t errsz);
bool paths_make_parents(const char *path, char *err, size_t errsz);

#endif
