/* \val names; see tex_value.h. */
#include "tex_value.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* "23", "{23}", "{2,3}", "{12,3}" → i = 2, j = 3 (1-based, each 1…9999) */
static bool two_indices(const char *s, size_t n, int *i, int *j) {
    char buf[32];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *b = buf;
    size_t len = n;
    if (b[0] == '{') {
        if (b[len - 1] != '}') return false;
        b[len - 1] = '\0';
        b++;
        len -= 2;
    }
    int a = 0, c = 0, used = 0;
    if (strchr(b, ',')) {
        if (sscanf(b, "%4d,%4d%n", &a, &c, &used) != 2 || (size_t)used != len) return false;
    } else {
        if (len != 2 || !isdigit((unsigned char)b[0]) || !isdigit((unsigned char)b[1]))
            return false;
        a = b[0] - '0';
        c = b[1] - '0';
    }
    if (a < 1 || c < 1) return false;
    *i = a;
    *j = c;
    return true;
}

bool tex_value_name(const char *s, size_t n, Tex_Value *v) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n == 1 && (s[0] == 'n' || s[0] == 'd')) {
        *v = (Tex_Value){.kind = s[0] == 'n' ? TEX_VALUE_N : TEX_VALUE_D};
        return true;
    }
    if ((n == 3 && !memcmp(s, "d_k", 3)) || (n == 5 && !memcmp(s, "d_{k}", 5))) {
        *v = (Tex_Value){.kind = TEX_VALUE_DK};
        return true;
    }
    static const struct {
        const char *name;
        Tex_Value_Kind kind;
    } model[] = {{"layers", TEX_VALUE_LAYERS},
                 {"heads", TEX_VALUE_HEADS},
                 {"kv_heads", TEX_VALUE_KV_HEADS},
                 {"kv_{heads}", TEX_VALUE_KV_HEADS},
                 {"d_h", TEX_VALUE_DH},
                 {"d_{h}", TEX_VALUE_DH},
                 {"d_model", TEX_VALUE_DMODEL},
                 {"d_{model}", TEX_VALUE_DMODEL}};
    for (size_t k = 0; k < sizeof model / sizeof *model; k++)
        if (strlen(model[k].name) == n && !memcmp(s, model[k].name, n)) {
            *v = (Tex_Value){.kind = model[k].kind};
            return true;
        }
    if (n > 2 && (s[0] == 'a' || s[0] == 's') && s[1] == '_') {
        int i, j;
        if (!two_indices(s + 2, n - 2, &i, &j)) return false;
        *v = (Tex_Value){.kind = s[0] == 'a' ? TEX_VALUE_WEIGHT : TEX_VALUE_SCORE, .i = i, .j = j};
        return true;
    }
    return false;
}
