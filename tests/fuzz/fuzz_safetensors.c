/* Fuzz target: the safetensors reader must accept or refuse any bytes
 * without crashing or reading outside them; what it accepts, it can read:
 * every tensor's bytes lie inside the file, and widening them either works
 * or names a NaN or infinity. A refusal leaves the file struct alone and
 * names the file. */
#include "checkpoint/safetensors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    St_File f = {.count = -7}, before = f;
    char err[600];
    if (!st_parse(data, size, "fuzz.safetensors", &f, err, sizeof err)) {
        if (memcmp(&f, &before, sizeof f) != 0) __builtin_trap();
        if (strncmp(err, "fuzz.safetensors", 16) != 0) __builtin_trap();
        return 0;
    }
    for (int k = 0; k < f.count; k++) {
        const St_Tensor *t = &f.tensors[k];
        if (t->end > f.size - f.data_start || t->begin > t->end) __builtin_trap();
        uint64_t n = st_elements(t);
        if (n > (1u << 20)) continue; /* the bytes are inside the input: at most its size */
        float *dest = malloc(sizeof(float) * (n ? n : 1));
        if (!dest) continue;
        if (!st_read_f32(&f, t, data, dest, err, sizeof err) && !strstr(err, "element"))
            __builtin_trap();
        free(dest);
    }
    st_free(&f);
    return 0;
}
