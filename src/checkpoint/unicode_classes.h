/* The character classes of GPT-2's pre-tokenizer pattern: \p{L} (letters),
 * \p{N} (numbers) and \s (white space), as JavaScript's regular expressions
 * define them (the reference encoder's), for every code point. The tables
 * are generated (tests/tools/gen_unicode_classes.mjs).
 *
 *   bool unicode_is_letter(uint32_t c)
 *   bool unicode_is_number(uint32_t c)
 *   bool unicode_is_space(uint32_t c)
 *   bool unicode_in(const uint32_t (*ranges)[2], size_t count, uint32_t c)
 *       c inside one of the sorted, disjoint [first, last] ranges (binary search)
 */
#ifndef ATTN_UNICODE_CLASSES_H
#define ATTN_UNICODE_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool unicode_is_letter(uint32_t c);
bool unicode_is_number(uint32_t c);
bool unicode_is_space(uint32_t c);
bool unicode_in(const uint32_t (*ranges)[2], size_t count, uint32_t c);

#endif
