/* A reader of gettext's compiled catalogs (.mo), for the browser, where
 * there is no libintl: the same files msgfmt writes for the desktop. The
 * desktop uses glibc's gettext; tests hold this reader to it message by
 * message.
 *
 * A .mo file is a header, two tables of (length, offset) pairs and the
 * strings; msgfmt sorts the originals, so a lookup is a binary search. A
 * plural entry's original is "one\0many" and its translation the forms one
 * after another; the form is picked by the header's Plural-Forms, of which
 * this reader knows the two our languages use: nplurals=1 (Chinese) and
 * nplurals=2 with plural=(n != 1) (English, Spanish, German). Anything else
 * is refused by name, as is a file that is not a catalog, a table or string
 * out of bounds, unsorted originals or a translation that is not UTF-8.
 *
 *   bool catalog_load(Catalog *c, const char *path, char *err, size_t errsz)
 *       read and check the file; err: "PATH: problem"
 *   bool catalog_parse(Catalog *c, char *data, size_t size, const char *name, char *err,
 *                      size_t errsz)
 *       the same on bytes in memory, which the catalog then owns (freed by catalog_free)
 *   const char *catalog_text(const Catalog *c, const char *msgid)
 *       the translation, or NULL
 *   const char *catalog_plural(const Catalog *c, const char *one, unsigned long n)
 *       the form for n of the entry whose singular is one, or NULL
 *   void catalog_free(Catalog *c)
 */
#ifndef ATTN_CATALOG_H
#define ATTN_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Catalog {
    char *data;
    size_t size;
    uint32_t count, originals, translations; /* entries and the two tables' offsets */
    bool swap;                               /* written on a machine of the other byte order */
    int nplurals;
} Catalog;

bool catalog_load(Catalog *c, const char *path, char *err, size_t errsz);
bool catalog_parse(Catalog *c, char *data, size_t size, const char *name, char *err, size_t errsz);
const char *catalog_text(const Catalog *c, const char *msgid);
const char *catalog_plural(const Catalog *c, const char *one, unsigned long n);
void catalog_free(Catalog *c);

#endif
