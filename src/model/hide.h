/* What a teacher (a settings file, --hide, ?hide=) or a lesson step can hide:
 * the panels and the controls, by the names --dump-ui gives them.
 *
 *   bool hide_name_known(const char *name)
 *   bool hide_list_parse(const char *text, char *dest, size_t destsz, char *err, size_t errsz)
 *       names separated by commas or spaces into dest as " a b c" (each with a space before
 *       it, the form hide_list_has reads); false with err naming an unknown name or saying
 *       the list is too long for dest
 *   bool hide_list_has(const char *list, const char *name)
 *       whether the list holds exactly that name
 *   const char *hide_names(void)
 *       every name, comma-separated, for messages and help
 */
#ifndef ATTN_HIDE_H
#define ATTN_HIDE_H

#include <stdbool.h>
#include <stddef.h>

bool hide_name_known(const char *name);
bool hide_list_parse(const char *text, char *dest, size_t destsz, char *err, size_t errsz);
bool hide_list_has(const char *list, const char *name);
const char *hide_names(void);

#endif
