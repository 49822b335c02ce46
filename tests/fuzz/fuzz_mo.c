/* Fuzz target: the .mo reader must accept or refuse any bytes without
 * crashing, hanging or reading outside them. What it accepts, glibc's
 * gettext could walk safely: every message is found by a binary search and
 * by the hash table's walk, and each translation's printf directives are its
 * original's. A refusal frees the bytes and names the file. */
#include "platform/catalog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *copy = malloc(size ? size : 1), err[600];
    if (!copy) return 0;
    memcpy(copy, data, size);
    Catalog c;
    if (!catalog_parse(&c, copy, size, "fuzz.mo", err, sizeof err)) {
        if (c.data || strncmp(err, "fuzz.mo: ", 9) != 0) __builtin_trap();
        return 0;
    }
    /* every original is found, and what is not there is not */
    for (uint32_t i = 0; i < c.count; i++) {
        uint32_t off;
        memcpy(&off, c.data + c.originals + (size_t)i * 8 + 4, 4);
        if (c.swap) off = __builtin_bswap32(off);
        if (!catalog_text(&c, c.data + off)) __builtin_trap();
        catalog_plural(&c, c.data + off, 2);
    }
    catalog_text(&c, "\x01 not a message \x02");
    catalog_free(&c);
    return 0;
}
