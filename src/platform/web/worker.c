/* The page's Web Worker (attnlab-worker.js): the Model view's passes and the
 * writing's steps, off the page's thread, so its frames never run a layer.
 * It opens the same checkpoint files as the page (mounted read-only, not
 * copied) into a copy of the model of its own, and runs each job the page
 * posts whole, with the same code as the desktop's threads
 * (model/real_remote.h's Real_Server); worker.js sends back what the job
 * wrote, piece by piece.
 *
 *   int worker_open(const char *dir)        1, or 0 with worker_error()'s line
 *   int32_t *worker_ids(int n)              room for a job's n ids (NULL: out of memory)
 *   int worker_begin(int kind, int n, int arg) the job over worker_ids' n ids: 1 begun, 0 out
 *                                            of memory (Remote_Kind, post's arg)
 *   int worker_next(void)                   its next layer: 1 once done (real_serve_next)
 *   int worker_stage(void)                  the layers done
 *   int worker_chunks(int field)            real_serve_chunks
 *   float *worker_field(int field, int index) real_serve_field; its length: worker_floats()
 *   double worker_floats(void)
 *   int worker_held(void)                   the tokens the cache holds
 *   double worker_fault(int what)           the last job's Net_Fault: kind, layer, head, row,
 *                                            col, value (what 0 … 5)
 */
#include "../checkpoint.h"
#include "../../model/real_remote.h"

#include <emscripten.h>
#include <stdlib.h>

static Checkpoint ck;
static bool open_ok;
static Real_Server server;
static int32_t *ids;
static int ids_cap;
static int64_t floats;
static char error[1200];

EMSCRIPTEN_KEEPALIVE int worker_open(const char *dir) {
    if (open_ok) {
        real_serve_free(&server);
        checkpoint_close(&ck);
        open_ok = false;
    }
    if (!checkpoint_open(dir, &ck, error, sizeof error)) return 0;
    open_ok = true;
    server = (Real_Server){.model = &ck.model.weights.model};
    return 1;
}

EMSCRIPTEN_KEEPALIVE const char *worker_error(void) {
    return error;
}

EMSCRIPTEN_KEEPALIVE int32_t *worker_ids(int n) {
    if (n > ids_cap) {
        int32_t *more = realloc(ids, (size_t)n * sizeof *ids);
        if (!more) return NULL;
        ids = more;
        ids_cap = n;
    }
    return ids;
}

EMSCRIPTEN_KEEPALIVE int worker_begin(int kind, int n, int arg) {
    if (!open_ok || n > ids_cap) return 0;
    return real_serve_begin(&server, (Remote_Kind)kind, ids, n, arg);
}

EMSCRIPTEN_KEEPALIVE int worker_next(void) {
    return real_serve_next(&server);
}

EMSCRIPTEN_KEEPALIVE int worker_stage(void) {
    return real_serve_stage(&server);
}

EMSCRIPTEN_KEEPALIVE int worker_chunks(int field) {
    return open_ok ? real_serve_chunks(&server, field) : 0;
}

EMSCRIPTEN_KEEPALIVE const float *worker_field(int field, int index) {
    return real_serve_field(&server, field, index, &floats);
}

EMSCRIPTEN_KEEPALIVE double worker_floats(void) {
    return (double)floats;
}

EMSCRIPTEN_KEEPALIVE int worker_held(void) {
    return real_serve_held(&server);
}

EMSCRIPTEN_KEEPALIVE double worker_fault(int what) {
    Net_Fault f = real_serve_fault(&server);
    const double v[6] = {f.kind, f.layer, f.head, f.row, f.col, f.value};
    return what >= 0 && what < 6 ? v[what] : 0;
}
