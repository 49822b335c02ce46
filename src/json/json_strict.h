/* One strict reader for every JSON file a user hands attnlab: scenes, the
 * settings and the lesson progress.
 *
 * cJSON alone reads a NUL as the end of the text, takes "02" for a number,
 * strings with \u0000 or broken UTF-8, and keeps both copies of a key that
 * appears twice. Here each of those is one line naming the file, line and
 * column, and nothing is parsed.
 *
 *   cJSON *json_read_strict(const char *text, size_t len, const char *name, const char *what,
 *       char *err, size_t errsz)
 *       the parsed value (caller deletes it), or NULL with "NAME:LINE:COL: problem" in err;
 *       `what` names the value in the message about text after it ("the scene object")
 *   char *json_print_lines(const cJSON *root)
 *       an object or array with one member or element a line, each written compactly (a settings
 *       file a person can read and diff); malloc'd, NULL when out of memory
 */
#ifndef ATTN_JSON_STRICT_H
#define ATTN_JSON_STRICT_H

#include <cjson/cJSON.h>
#include <stddef.h>

cJSON *json_read_strict(const char *text, size_t len, const char *name, const char *what, char *err,
                        size_t errsz);

char *json_print_lines(const cJSON *root);

#endif
