/* UTF-8 stepping for drawing and editing text that is already valid (strict
 * checks of text coming in are core/text.h's job). Stray bytes decode as
 * U+FFFD and are stepped over one at a time, so drawing never stalls.
 *
 *   const char *utf8_next(const char *s, uint32_t *cp)  decode one code point, return what follows
 *   int utf8_prev(const char *s, int at)                byte offset of the character before at
 *   int utf8_after(const char *s, int at, int len)      byte offset of the character after at
 *   bool utf8_cjk(uint32_t cp)                          a Han, kana, CJK punctuation or fullwidth
 *                                                       character
 *   const char *utf8_word_end(const char *s, const char *end)
 *       where the word at s ends, for line breaking: at a space or newline, or, in Chinese,
 *       after one character, never before closing punctuation (。，、：) nor after opening (（「)
 */
#ifndef ATTN_UTF8_H
#define ATTN_UTF8_H

#include <stdbool.h>
#include <stdint.h>

const char *utf8_next(const char *s, uint32_t *cp);
int utf8_prev(const char *s, int at);
int utf8_after(const char *s, int at, int len);
bool utf8_cjk(uint32_t cp);
const char *utf8_word_end(const char *s, const char *end);

#endif
