/* Fuzz target: formulas. The input becomes the body of inline math ($…$)
 * and of display math ($$…$$) in an otherwise valid lesson, so every byte
 * reaches the TeX parser (nesting, \frac, scripts, matrices, unknown
 * commands) through the same path a lesson file takes; every formula the
 * lesson accepts is then set as boxes (ui/math_layout) with stub metrics. */
#include "lesson/lesson.h"
#include "ui/math_layout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static float width(void *ctx, Font_Id f, float size, const char *s, int len) {
    (void)ctx;
    (void)f;
    (void)s;
    return 0.6f * size * (float)len;
}

static float line_height(void *ctx, Font_Id f, float size) {
    (void)ctx;
    (void)f;
    return 1.2f * size;
}

static bool value(void *ctx, const Tex_Value *v, char *out, size_t outsz) {
    (void)ctx;
    snprintf(out, outsz, "%d.%d", v->i, v->j);
    return true;
}

static void lay_out(const Lesson *l) {
    static Math_Scratch ms;
    static const Text_Metrics tm = {.width = width, .line_height = line_height};
    for (int k = 0; k < l->span_count; k++) {
        const Lesson_Span *sp = &l->spans[k];
        if (sp->kind != SPAN_MATH) continue;
        char err[200];
        /* the lesson accepted it, so the parser must too */
        if (!tex_parse(&ms.tex, l->text + sp->off, (size_t)sp->len, err, sizeof err))
            __builtin_trap();
        Math_Desc d = {.tm = &tm, .size = 20, .display = sp->style & STYLE_DISPLAY, .value = value};
        math_layout(&ms.layout, &ms.tex, &d);
        if (!(ms.layout.w == ms.layout.w) || ms.layout.count > MATH_MAX_ITEMS) __builtin_trap();
    }
}

static void one(const char *open, const char *close, const uint8_t *data, size_t size) {
    static Lesson l;
    static const char head[] = "# T\n\n## S\n\n";
    size_t ho = strlen(head), ol = strlen(open), cl = strlen(close);
    size_t n = ho + ol + size + cl;
    char *text = malloc(n); /* exact size: ASan sees any overread */
    if (!text) return;
    memcpy(text, head, ho);
    memcpy(text + ho, open, ol);
    memcpy(text + ho + ol, data, size);
    memcpy(text + ho + ol + size, close, cl);
    char err[512];
    if (!lesson_parse(&l, text, n, "fuzz.md", err, sizeof err)) {
        if (strncmp(err, "fuzz.md:", 8) != 0) __builtin_trap();
    } else {
        lay_out(&l);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size + 32 > LESSON_FILE_MAX) return 0;
    one("$", "$\n", data, size);
    one("$$", "$$\n", data, size);
    return 0;
}
