/* Fuzz target: GPT-2's tokenizer loaders and encoder. The input is
 * VOCAB \0 MERGES \0 TEXT: a vocabulary that loads must encode any text into
 * ids of the vocabulary whose bytes give the text back, or refuse it in one
 * line; a refused load names its file. An input with no \0 is a
 * tokenizer.json: it loads or is refused naming its file. */
#include "checkpoint/bpe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *v = (const char *)data, *end = v + size;
    const char *m = memchr(v, '\0', size);
    char err[600];
    if (!m) {
        Bpe tj;
        if (bpe_load_tokenizer_json(&tj, v, size, "t.json", err, sizeof err))
            bpe_free(&tj);
        else if (strncmp(err, "t.json", 6) || strchr(err, '\n'))
            __builtin_trap();
        return 0;
    }
    m++;
    const char *t = memchr(m, '\0', (size_t)(end - m));
    if (!t) return 0;
    t++;
    Bpe b;
    if (!bpe_load(&b, v, (size_t)(m - 1 - v), "v.json", m, (size_t)(t - 1 - m), "m.txt", err,
                  sizeof err)) {
        if (strncmp(err, "v.json", 6) && strncmp(err, "m.txt", 5)) __builtin_trap();
        return 0;
    }
    static int32_t ids[BPE_MAX_TEXT];
    size_t len = (size_t)(end - t);
    int n = bpe_encode(&b, t, len, ids, BPE_MAX_TEXT, err, sizeof err);
    if (n >= 0) {
        size_t used = 0;
        for (int k = 0; k < n; k++) {
            if (ids[k] < 0 || ids[k] >= b.count) __builtin_trap();
            const char *bytes;
            size_t nb = bpe_token_bytes(&b, ids[k], &bytes);
            if (used + nb > len || memcmp(t + used, bytes, nb)) __builtin_trap();
            used += nb;
        }
        if (used != len) __builtin_trap();
    } else if (strchr(err, '\n')) {
        __builtin_trap();
    }
    bpe_free(&b);
    return 0;
}
