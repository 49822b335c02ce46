/* UTF-8 stepping; see utf8.h. */
#include "utf8.h"

#include <stdbool.h>
#include <stddef.h>

const char *utf8_next(const char *s, uint32_t *cp) {
    const unsigned char *p = (const unsigned char *)s;
    uint32_t c = p[0];
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0) {
        *cp = 0xFFFD; /* stray continuation or invalid lead byte */
        return s + 1;
    }
    c &= extra == 0 ? 0x7F : (0x3F >> extra);
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return s + i;
        }
        c = (c << 6) | (p[i] & 0x3F);
    }
    *cp = c;
    return s + 1 + extra;
}

int utf8_prev(const char *s, int at) {
    do at--;
    while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80);
    return at < 0 ? 0 : at;
}

int utf8_after(const char *s, int at, int len) {
    do at++;
    while (at < len && ((unsigned char)s[at] & 0xC0) == 0x80);
    return at > len ? len : at;
}

/* Chinese has no spaces: a line may break before or after any CJK character,
 * but never before closing punctuation (。，、：) nor after opening (（「). */
bool utf8_cjk(uint32_t cp) {
    return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x3000 && cp <= 0x303F);
}

static bool no_line_start(uint32_t cp) {
    static const uint32_t closing[] = {0x3002, 0xFF0C, 0x3001, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,
                                       0xFF09, 0x300D, 0x300F, 0x300B, 0x3009, 0x3011, 0xFF0E};
    for (size_t k = 0; k < sizeof closing / sizeof *closing; k++)
        if (cp == closing[k]) return true;
    return false;
}

static bool no_line_end(uint32_t cp) {
    return cp == 0xFF08 || cp == 0x300C || cp == 0x300E || cp == 0x300A || cp == 0x3008 ||
           cp == 0x3010;
}

/* the code point at s (s < end), and where the next one starts */
static const char *next_in(const char *s, const char *end, uint32_t *cp) {
    const char *n = utf8_next(s, cp);
    return n > end ? end : n;
}

const char *utf8_word_end(const char *s, const char *end) {
    uint32_t cp;
    if (s >= end) return s;
    const char *e = next_in(s, end, &cp);
    while (no_line_end(cp) && e < end) e = next_in(e, end, &cp); /* 「 holds what it opens */
    if (utf8_cjk(cp)) { /* one character, and the marks that may not start a line */
        while (e < end) {
            const char *n = next_in(e, end, &cp);
            if (!no_line_start(cp)) break;
            e = n;
        }
        return e;
    }
    while (e < end && *e != ' ' && *e != '\n') { /* a Latin word, up to a space or Han */
        const char *n = next_in(e, end, &cp);
        if (utf8_cjk(cp) && !no_line_start(cp)) break;
        e = n;
    }
    return e;
}
