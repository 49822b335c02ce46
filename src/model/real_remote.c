/* Jobs run elsewhere: their numbers, and the worker's side; see real_remote.h. */
#include "real_remote.h"

#include "../core/grow.h"

#include <stdlib.h>
#include <string.h>

int real_remote_job(void) {
    static int jobs;
    return ++jobs;
}

bool real_serve(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n, int arg) {
    if (!real_serve_begin(s, kind, ids, n, arg)) return false;
    while (!real_serve_next(s)) {
    }
    return true;
}

bool real_serve_next(Real_Server *s) {
    return s->kind != REMOTE_PASS || net_step(s->model, &s->run);
}

int real_serve_stage(const Real_Server *s) {
    return s->kind == REMOTE_PASS ? s->run.stage : 0;
}

bool real_serve_begin(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n, int arg) {
    const Net_Model *m = s->model;
    s->kind = kind;
    s->r0 = s->r1 = 0;
    if (kind == REMOTE_PASS) {
        if (n < 1 || !net_reserve(&s->run, m, n)) return false;
        s->run.want_turn = arg != 0 && m->rope_theta > 0;
        s->run.keep = NULL;
        net_begin(m, ids, n, &s->run);
        return true;
    }
    Net_Cache *c = &s->cache;
    c->fault = (Net_Fault){0};
    if (kind == REMOTE_PREFILL) {
        if (n < 1 || n > arg || !net_cache_reserve(c, m, arg) || !net_reserve(&s->prefill, m, n))
            return false;
        c->n = 0;
        if (net_cache_prefill(m, c, &s->prefill, ids, n)) s->r1 = n;
        return true;
    }
    /* a step at position arg: the rows from there on are written again (a step the page
     * no longer waited for may have gone past it) */
    if (n != 1 || arg < 1 || arg > c->n || arg >= c->cap) return false;
    c->n = arg;
    if (net_cache_step(m, c, ids[0])) {
        s->r0 = arg;
        s->r1 = arg + 1;
    }
    return true;
}

int real_serve_chunks(const Real_Server *s, int field) {
    const Net_Model *m = s->model;
    if (s->kind == REMOTE_PASS) {
        if (s->run.fault.kind != NET_FAULT_NONE || field < 0 || field >= REMOTE_RUN_FIELDS)
            return 0;
        return field != REMOTE_RUN_TURN || s->run.want_turn;
    }
    if (s->r1 == s->r0) return 0; /* not finite: nothing written */
    switch (field) {
    case REMOTE_CACHE_K:
    case REMOTE_CACHE_V:
        return m->layers;
    case REMOTE_CACHE_ATTN:
        return m->layers * m->heads;
    case REMOTE_CACHE_LOGITS:
        return 1;
    default:
        return 0;
    }
}

const float *real_serve_field(Real_Server *s, int field, int index, int64_t *floats) {
    const Net_Model *m = s->model;
    if (index < 0 || index >= real_serve_chunks(s, field)) {
        *floats = 0;
        return NULL;
    }
    if (s->kind == REMOTE_PASS) {
        const Net_Run *r = &s->run;
        int64_t n = r->n, lh = (int64_t)m->layers * m->heads;
        switch (field) {
        case REMOTE_RUN_STREAM:
            *floats = (m->layers + 1) * n * m->width;
            return r->stream;
        case REMOTE_RUN_MID:
            *floats = m->layers * n * m->width;
            return r->mid;
        case REMOTE_RUN_SCORES:
            *floats = lh * n * n;
            return r->scores;
        case REMOTE_RUN_ATTN:
            *floats = lh * n * n;
            return r->attn;
        case REMOTE_RUN_LOGITS:
            *floats = m->vocab;
            return r->logits;
        default:
            *floats = lh;
            return r->turn_moved;
        }
    }
    const Net_Cache *c = &s->cache;
    int64_t rows = s->r1 - s->r0, gd = (int64_t)remote_kv_width(m);
    switch (field) {
    case REMOTE_CACHE_K:
    case REMOTE_CACHE_V:
        *floats = rows * gd;
        return (field == REMOTE_CACHE_K ? c->k : c->v) + ((int64_t)index * c->cap + s->r0) * gd;
    case REMOTE_CACHE_ATTN: { /* rows r0 … r1 − 1, r1 weights each (row i: i + 1, then zeros) */
        *floats = rows * s->r1;
        if (!grow_floats(&s->rows, *floats)) {
            *floats = 0;
            return NULL;
        }
        const float *a = net_cache_attn(c, index / m->heads, index % m->heads);
        for (int64_t i = 0; i < rows; i++)
            memcpy(s->rows + i * s->r1, a + (s->r0 + i) * c->cap, (size_t)s->r1 * sizeof *s->rows);
        return s->rows;
    }
    default:
        *floats = m->vocab;
        return c->logits;
    }
}

Net_Fault real_serve_fault(const Real_Server *s) {
    return s->kind == REMOTE_PASS ? s->run.fault : s->cache.fault;
}

int real_serve_held(const Real_Server *s) {
    return s->cache.n;
}

void real_serve_free(Real_Server *s) {
    net_free(&s->run);
    net_free(&s->prefill);
    net_cache_free(&s->cache);
    free(s->rows);
    const Net_Model *m = s->model;
    memset(s, 0, sizeof *s);
    s->model = m;
}
