/* Positions inside JSON text, for error messages.
 *
 * cJSON tells where parsing failed but keeps no positions for values it
 * parsed, so a problem found later ("d_k is 5000") is located by walking the
 * already-valid text to the value a path names.
 *
 *   bool json_validate(const char *text, size_t len, size_t *end, size_t *off, char *why,
 *       size_t whysz)
 *       value (numbers as JSON writes them, strings in strict UTF-8 with no \u0000 or lone
 *       surrogates, at most JSON_MAX_DEPTH levels); *end is where the value ends, or *off and why
 *       say what is wrong where
 *   void json_locate(const char *text, const Json_Path *path, int *line, int *col)
 *       1-based position of a value
 *   void json_literal(const char *text, const Json_Path *path, char *dest, size_t destsz)
 *       the value's text as written (for messages: "1000.0000001", not the double it rounds to)
 *   void json_offset_to_line_col(const char *text, size_t off, int *line, int *col)
 *   void json_describe_error(const char *text, size_t len, size_t *off, char *why, size_t whysz)
 *       moving off onto the character to blame
 */
#ifndef ATTN_JSONPOS_H
#define ATTN_JSONPOS_H

#include <stddef.h>

#include <stdbool.h>

#define JSON_MAX_DEPTH 32 /* a scene is 3 deep; this is room, not a hint */

typedef struct Json_Path {
    const char *key; /* member of the root object, or NULL for the root itself */
    int nth;         /* which occurrence of key (0 = first), for duplicate keys */
    int i, j;        /* array indexes below the member, -1 when not used */
} Json_Path;

bool json_validate(const char *text, size_t len, size_t *end, size_t *off, char *why, size_t whysz);
void json_locate(const char *text, const Json_Path *path, int *line, int *col);
void json_literal(const char *text, const Json_Path *path, char *dest, size_t destsz);
void json_offset_to_line_col(const char *text, size_t off, int *line, int *col);
void json_describe_error(const char *text, size_t len, size_t *off, char *why, size_t whysz);

#endif
