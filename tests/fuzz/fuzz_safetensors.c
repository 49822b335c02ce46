/* Fuzz target: the safetensors reader must accept or refuse any bytes
 * without crashing or reading outside them; what it accepts, it can read:
 * every tensor's bytes lie inside the file, and widening them either works
 * or names a NaN or infinity. A refusal leaves the file struct alone and
 * names the file. The same bytes are also read as a shard index
 * (model.safetensors.index.json): accepted or refused in one line naming it,
 * and an accepted one lists only plain .safetensors names, each once, and
 * checks against a set of this file alone without crashing. */
#include "checkpoint/safetensors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a shard index, and that index against a set of `alone`. */
static void as_index(const uint8_t *data, size_t size, const St_Set *alone) {
    St_Index ix;
    char err[600];
    if (!st_index_parse((const char *)data, size, "index.json", &ix, err, sizeof err)) {
        if (strncmp(err, "index.json", 10) != 0 || strchr(err, '\n')) __builtin_trap();
        return;
    }
    if (ix.files < 1 || ix.files > ST_MAX_SHARDS || ix.count < 1) __builtin_trap();
    for (int a = 0; a < ix.files; a++) {
        size_t n = strlen(ix.file[a]);
        if (n < 13 || strcmp(ix.file[a] + n - 12, ".safetensors") || strchr(ix.file[a], '/'))
            __builtin_trap();
        for (int b = 0; b < a; b++)
            if (!strcmp(ix.file[a], ix.file[b])) __builtin_trap();
    }
    for (int k = 0; k < ix.count; k++)
        if (ix.shard[k] >= ix.files) __builtin_trap();
    if (alone && ix.files == 1 && !st_index_check(&ix, alone, "index.json", err, sizeof err) &&
        (strncmp(err, "index.json", 10) != 0 || strchr(err, '\n')))
        __builtin_trap();
    st_index_free(&ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    St_File f = {.count = -7}, before = f;
    char err[600];
    as_index(data, size, NULL);
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
    static St_Set alone;
    alone.count = 1;
    alone.file[0] = f;
    alone.bytes[0] = data;
    /* the file's header as an index of itself: its JSON starts 8 bytes in */
    as_index(data + 8, (size_t)(f.data_start - 8), &alone);
    st_free(&f);
    return 0;
}
