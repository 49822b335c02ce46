/* Strict text and number checks shared by every way text comes in: the
 * command line, scene files, lessons, the vocabulary and the sentence editor.
 * libc only, so every layer can use it.
 *
 *   bool text_utf8_check(const char *s, size_t len, size_t *bad)
 *       true if s[0..len) is well-formed UTF-8 with no NUL: no overlong forms,
 *       no encoded surrogates, nothing above U+10FFFF. Else *bad is the offset
 *       of the first byte that is wrong.
 *   bool text_underflows_float(const char *written, double v)
 *       whether a number written as `written` (a JSON or command-line literal) is not zero but
 *       v, what it was read as, is zero in float32: 1e-400, 1e-46 (said, never silently 0)
 *   size_t text_utf8_next(const char *s, size_t avail, uint32_t *cp)
 *       length (1 to 4) of the well-formed sequence at s, its code point in
 *       *cp; 0 if the bytes there are not one
 *   bool text_fail(char *err, size_t errsz, const char *fmt, ...)
 *       printf's fmt and what follows into err (cut to errsz), then false: the
 *       one line a function that fails returns
 *   size_t text_escape(const char *s, size_t len, char *dest, size_t destsz)
 *       a copy that is one line and safe for a terminal: control characters
 *       (C0, DEL and C1) become \n \t \r or \xNN / \u00NN, bytes that are not
 *       UTF-8 become \xNN; cut with "…" (on a character boundary) if dest is
 *       too small. Returns the length written.
 *   Text_Num text_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *dest)
 *   Text_Num text_parse_f64(const char *s, double lo, double hi, double *dest)
 *       the whole string must be the number: no leading or trailing space or
 *       junk; dest is written only on TEXT_NUM_OK
 *   void text_num_message(Text_Num r, const char *written, bool whole, double lo,
 *                         double hi, char *dest, size_t destsz)
 *       the problem in words, quoting the value as written
 */
#ifndef ATTN_TEXT_H
#define ATTN_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum Text_Num {
    TEXT_NUM_OK,
    TEXT_NUM_SYNTAX,     /* not a number at all, or junk around it */
    TEXT_NUM_RANGE,      /* a number, outside [lo, hi] */
    TEXT_NUM_OVERFLOW,   /* too large for its type */
    TEXT_NUM_UNDERFLOW,  /* non-zero but too small to represent */
    TEXT_NUM_NOT_FINITE, /* nan, inf */
} Text_Num;

bool text_utf8_check(const char *s, size_t len, size_t *bad);
bool text_underflows_float(const char *written, double v);
size_t text_utf8_next(const char *s, size_t avail, uint32_t *cp);
bool text_fail(char *err, size_t errsz, const char *fmt, ...);
size_t text_escape(const char *s, size_t len, char *dest, size_t destsz);
Text_Num text_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *dest);
Text_Num text_parse_f64(const char *s, double lo, double hi, double *dest);
void text_num_message(Text_Num r, const char *written, bool whole, double lo, double hi, char *dest,
                      size_t destsz);

#endif
