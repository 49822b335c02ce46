/* Fuzz target: the scene loader must reject or accept any bytes without
 * crashing, and never touch the destination scene when it rejects. */
#include "model/scene_file.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Vocab vocab; /* empty: every word gets its hashed embedding */
    static Scene s, before;
    static char text[1 << 20];
    if (size >= sizeof text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    scene_default(&s);
    before = s;
    char err[512];
    if (!scene_parse(&s, text, size, "fuzz.json", &vocab, err, sizeof err)) {
        if (memcmp(&s, &before, sizeof s) != 0) __builtin_trap();
        if (strncmp(err, "fuzz.json:", 10) != 0) __builtin_trap();
    } else {
        char why[256];
        if (!scene_validate(&s, why, sizeof why)) __builtin_trap();
    }
    return 0;
}
