/* Fuzz target: formulas. The input becomes the body of inline math ($…$)
 * and of display math ($$…$$) in an otherwise valid lesson, so every byte
 * reaches the TeX-to-text converter (nesting, \frac, scripts, unknown
 * commands) through the same path a lesson file takes. */
#include "model/lesson.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    if (!lesson_parse(&l, text, n, "fuzz.md", err, sizeof err) && strncmp(err, "fuzz.md:", 8) != 0)
        __builtin_trap();
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size + 32 > LESSON_FILE_MAX) return 0;
    one("$", "$\n", data, size);
    one("$$", "$$\n", data, size);
    return 0;
}
