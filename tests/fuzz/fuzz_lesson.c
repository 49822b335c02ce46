/* Fuzz target: the lesson parser (md4c plus directives) on any bytes. */
#include "lesson/lesson.h"
#include "lesson/lesson_goals.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Lesson l;
    char err[512];
    if (size > LESSON_FILE_MAX) return 0;
    if (lesson_parse(&l, (const char *)data, size, "fuzz.md", err, sizeof err)) {
        /* describing every goal walks every parsed condition */
        char buf[400];
        for (int s = 0; s < l.step_count; s++)
            for (int g = 0; g < l.steps[s].goal_count; g++)
                lesson_goal_describe(&l.steps[s].goals[g], buf, sizeof buf);
        if (l.step_count < 1 || !l.title[0]) __builtin_trap();
    } else if (strncmp(err, "fuzz.md:", 8) != 0) {
        __builtin_trap();
    }
    return 0;
}
