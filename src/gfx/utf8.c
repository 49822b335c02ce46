/* UTF-8 stepping; see utf8.h. */
#include "utf8.h"

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
