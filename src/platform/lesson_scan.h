/* Scanning a folder for lessons (for the menu and --check-lessons).
 *
 *   bool lesson_index_scan(Lesson_Index *index, const char *dir, char *err, size_t errsz)
 *       every *.md but README.md, sorted by name, each parsed with
 *       lesson_load; false only if the folder cannot be read
 *   bool lesson_localized_path(const char *path, const char *lang, char *dest, size_t size)
 *       DIR/LANG/NAME.md for DIR/NAME.md, if that file exists; false for English
 *   void lesson_index_localize(Lesson_Index *index, const char *lang)
 *       each lesson that has a translation, DIR/LANG/NAME.md (lessons/de/05-why-scale.md), is
 *       listed by it instead; the others stay in English. "en" or NULL changes nothing
 */
#ifndef ATTN_LESSON_SCAN_H
#define ATTN_LESSON_SCAN_H

#include "../lesson/lesson_index.h"

bool lesson_index_scan(Lesson_Index *index, const char *dir, char *err, size_t errsz);
bool lesson_localized_path(const char *path, const char *lang, char *dest, size_t size);
void lesson_index_localize(Lesson_Index *index, const char *lang);

#endif
