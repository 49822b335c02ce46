/* The real model's pass as the browser build computes it: the same C (core
 * and model) built by emscripten for WebAssembly with -msimd128, the portable
 * gemm kernel instead of OpenBLAS, in a 32-bit address space. Run under
 * Node.js (NODERAWFS reads the checkpoint folder, through the same
 * checkpoint_open as the page: shards and tokenizer.json included); prints the same JSON as
 * `attnlab --model DIR --text TEXT --export json`, which `make test-web`
 * checks against the float64 reference and against the desktop's output.
 *
 *   node model_check.js DIR TEXT
 */
#include "core/gemm.h"
#include "model/export_real.h"
#include "platform/checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: model_check DIR TEXT\n");
        return 2;
    }
    char err[1024];
    static Checkpoint ck;
    if (!checkpoint_open(argv[1], &ck, err, sizeof err)) {
        fprintf(stderr, "model_check: %s\n", err);
        return 2;
    }
    const Real_Model *m = &ck.model;
    int32_t *ids = malloc((size_t)m->weights.model.positions * sizeof *ids);
    int n = real_model_tokenize(m, argv[2], strlen(argv[2]), ids, err, sizeof err);
    Net_Run run = {0};
    if (n < 0 || !net_reserve(&run, &m->weights.model, n)) {
        fprintf(stderr, "model_check: %s\n", n < 0 ? err : "out of memory");
        return 2;
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
