/* Fuzz target: a whole checkpoint folder at once, as real_model_load takes
 * it. The input is CONFIG \0 WEIGHTS \0 TOKENIZER: config.json, the bytes of
 * model.safetensors and a tokenizer.json (or, with a third \0, vocab.json
 * \0 merges.txt). What loads must tokenize a text and run its pass, finite
 * or named where it is not, within the attention's budget; what is refused
 * is one line naming one of the files. */
#include "nn/net.h"
#include "checkpoint/real_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *part(const char *at, const char *end, size_t *len) {
    const char *nul = memchr(at, '\0', (size_t)(end - at));
    *len = (size_t)((nul ? nul : end) - at);
    return nul ? nul + 1 : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *at = (const char *)data, *end = at + size, *next;
    Real_Model_Files f = {.config_name = "config.json",
                          .weights_name = "model.safetensors",
                          .vocab_name = "vocab.json",
                          .merges_name = "merges.txt",
                          .tokenizer_name = "tokenizer.json"};
    f.config = at;
    if (!(next = part(at, end, &f.config_len))) return 0;
    f.weights = (const uint8_t *)next;
    size_t wlen;
    if (!(at = part(next, end, &wlen))) return 0;
    f.weights_size = wlen;
    const char *tok = at;
    size_t tlen;
    next = part(tok, end, &tlen);
    if (next) { /* vocab.json \0 merges.txt */
        f.vocab = tok, f.vocab_len = tlen;
        f.merges = next;
        part(next, end, &f.merges_len);
    } else {
        f.tokenizer = tok, f.tokenizer_len = tlen;
    }
    static Real_Model m;
    char err[800];
    if (!real_model_load(&m, &f, err, sizeof err)) {
        if (!strstr(err, ".json") && !strstr(err, "model.safetensors") &&
            !strstr(err, "merges.txt"))
            __builtin_trap();
        if (strchr(err, '\n')) __builtin_trap();
        return 0;
    }
    const Net_Model *tm = &m.weights.model;
    int32_t *ids = malloc(sizeof *ids * (size_t)(tm->positions > 0 ? tm->positions : 1));
    int n = ids ? real_model_tokenize(&m, "Hello, hello world", 18, ids, err, sizeof err) : -1;
    /* a pass only where it is cheap: the fuzzer's time goes to the loaders */
    if (n > 0 && net_store_fits(tm, n, err, sizeof err) &&
        (int64_t)tm->layers * tm->width * tm->width < (1 << 22) && tm->vocab < (1 << 20)) {
        static Net_Run run;
        if (net_reserve(&run, tm, n)) {
            net_forward(tm, ids, n, &run);
            char where[300];
            net_fault_text(&run, where, sizeof where);
            if ((run.fault.kind == NET_FAULT_NONE) != (where[0] == '\0')) __builtin_trap();
        }
        net_free(&run);
    }
    free(ids);
    real_model_free(&m);
    return 0;
}
