/* Scene files: JSON read with cJSON, written atomically.
 *
 * The format is documented in docs/files.md. Loading checks every field (type,
 * range, finite numbers, row widths, unknown or duplicate keys) and reports
 * the first problem as "FILE:LINE:COL: message", where the position is where
 * JSON parsing stopped or the start of the offending value. On any error the
 * destination scene is left untouched.
 *
 *   bool scene_parse(Scene *dest, const char *text, size_t len, const char *name,
 *       const Vocab *vocab, char *err, size_t errsz)
 *   bool scene_load(Scene *dest, const char *path, const Vocab *vocab, char *err, size_t errsz)
 *   void scene_write(const Scene *s, FILE *f)
 *       the JSON text of a scene
 *   bool scene_save(const Scene *s, const char *path, char *err, size_t errsz)
 *       temporary file + fsync + rename
 */
#ifndef ATTN_SCENE_FILE_H
#define ATTN_SCENE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scene.h"

#define SCENE_FILE_MAX_BYTES (8 << 20)
#define SCENE_FILE_VERSION   1

bool scene_parse(Scene *dest, const char *text, size_t len, const char *name, const Vocab *vocab,
                 char *err, size_t errsz);
bool scene_load(Scene *dest, const char *path, const Vocab *vocab, char *err, size_t errsz);
void scene_write(const Scene *s, FILE *f);
bool scene_save(const Scene *s, const char *path, char *err, size_t errsz);

#endif
