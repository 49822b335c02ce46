/* The real model's pass as the browser build computes it: the same C (core
 * and model) built by emscripten for WebAssembly with -msimd128, the portable
 * gemm kernel instead of OpenBLAS, in a 32-bit address space. Run under
 * Node.js (NODERAWFS reads the checkpoint folder); prints the same JSON as
 * `attnlab --model DIR --text TEXT --export json`, which `make test-web`
 * checks against the float64 reference and against the desktop's output.
 *
 *   node model_check.js DIR TEXT
 */
#include "core/gemm.h"
#include "model/export_real.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, or NULL (err says why). */
static char *slurp(const char *dir, const char *name, size_t *len, char *err, size_t errsz) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        snprintf(err, errsz, "%s: cannot read", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return buf;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: model_check DIR TEXT\n");
        return 2;
    }
    char err[1024];
    size_t lens[4] = {0};
    const char *names[4] = {"config.json", "model.safetensors", "vocab.json", "merges.txt"};
    char *bytes[4] = {0};
    for (int k = 0; k < 4; k++)
        if (!(bytes[k] = slurp(argv[1], names[k], &lens[k], err, sizeof err))) {
            fprintf(stderr, "model_check: %s\n", err);
            return 2;
        }
    Real_Model_Files files = {.config = bytes[0],
                              .config_name = names[0],
                              .config_len = lens[0],
                              .weights = (const uint8_t *)bytes[1],
                              .weights_name = names[1],
                              .weights_size = lens[1],
                              .vocab = bytes[2],
                              .vocab_name = names[2],
                              .vocab_len = lens[2],
                              .merges = bytes[3],
                              .merges_name = names[3],
                              .merges_len = lens[3]};
    static Real_Model m;
    if (!real_model_load(&m, &files, err, sizeof err)) {
        fprintf(stderr, "model_check: %s\n", err);
        return 2;
    }
    int32_t *ids = malloc((size_t)m.config.n_positions * sizeof *ids);
    int n = real_model_tokenize(&m, argv[2], strlen(argv[2]), ids, err, sizeof err);
    Net_Run run = {0};
    if (n < 0 || !net_reserve(&run, &m.weights.model, n)) {
        fprintf(stderr, "model_check: %s\n", n < 0 ? err : "out of memory");
        return 2;
    }
    net_forward(&m.weights.model, ids, n, &run);
    fprintf(stderr, "model_check: %s, pointers of %d bits\n", gemm_backend(),
            (int)(8 * sizeof(void *)));
    export_real_json(&m, argv[1], ids, n, &run, stdout);
    net_free(&run);
    free(ids);
    real_model_free(&m);
    for (int k = 0; k < 4; k++) free(bytes[k]);
    return 0;
}
