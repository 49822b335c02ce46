/* The real model's pass as the browser build computes it: the same C (core
 * and model) built by emscripten for WebAssembly with -msimd128, the portable
 * gemm kernel instead of OpenBLAS, in a 32-bit address space. Run under
 * Node.js (NODERAWFS reads the checkpoint folder, through the same
 * checkpoint_open as the page: shards and tokenizer.json included); prints the same JSON as
 * `attnlab --model DIR --text TEXT --export json`, which `make test-web`
 * checks against the float64 reference and against the desktop's output.
 *
 *   node model_check.js DIR TEXT
 *   node model_check.js DIR TEXT N TEMPERATURE SEED
 *       the second: N tokens written on the KV cache, as `attnlab --model DIR --text TEXT
 *       --generate N --temperature T --seed S --export json` prints them (greedy at T = 0)
 */
#include "core/gemm.h"
#include "model/export_real.h"
#include "platform/checkpoint.h"

#include "nn/net_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text's tokens in the cache by one pass, then N steps written. */
static int generate(const Real_Model *m, const char *name, int32_t *ids, int n, char **argv) {
    const Net_Model *tm = &m->weights.model;
    int steps = atoi(argv[3]), cap = n + steps < tm->positions ? n + steps : tm->positions;
    Net_Choice how = {atof(argv[4]), 0, 1};
    Net_Cache c = {0};
    Net_Run text = {0};
    if (steps < 1 || !net_cache_reserve(&c, tm, cap) || !net_reserve(&text, tm, n) ||
        !net_cache_prefill(tm, &c, &text, ids, n)) {
        fprintf(stderr, "model_check: no cache for %d tokens\n", cap);
        return 2;
    }
    const char *stop;
    int written = export_real_generate(m, name, ids, n, steps, &how, strtoull(argv[5], NULL, 10),
                                       &c, stdout, &stop);
    net_free(&text);
    net_cache_free(&c);
    return written < 0 ? 2 : 0;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 6) {
        fprintf(stderr, "usage: model_check DIR TEXT [N TEMPERATURE SEED]\n");
        return 2;
    }
    char err[1024];
    static Checkpoint ck;
    if (!checkpoint_open(argv[1], &ck, err, sizeof err)) {
        fprintf(stderr, "model_check: %s\n", err);
        return 2;
    }
    const Real_Model *m = &ck.model;
    int32_t *ids = malloc(((size_t)m->weights.model.positions + 1) * sizeof *ids);
    int n = real_model_tokenize(m, argv[2], strlen(argv[2]), ids, err, sizeof err);
    Net_Run run = {0};
    if (n < 0 || !net_reserve(&run, &m->weights.model, n)) {
        fprintf(stderr, "model_check: %s\n", n < 0 ? err : "out of memory");
        return 2;
    }
    if (argc == 6) {
        fprintf(stderr, "model_check: %s, pointers of %d bits\n", gemm_backend(),
                (int)(8 * sizeof(void *)));
        int status = generate(m, argv[1], ids, n, argv);
        net_free(&run);
        free(ids);
        checkpoint_close(&ck);
        return status;
    }
    net_forward(&m->weights.model, ids, n, &run);
    fprintf(stderr, "model_check: %s, pointers of %d bits\n", gemm_backend(),
            (int)(8 * sizeof(void *)));
    export_real_json(m, argv[1], ids, n, &run, stdout);
    net_free(&run);
    free(ids);
    checkpoint_close(&ck);
    return 0;
}
