/* Damage from two frames' draw items; see damage.h. */
#include "damage.h"

#include <string.h>

/* ---- hashing ------------------------------------------------------------ */

static const uint64_t P1 = 0x9e3779b185ebca87u, P2 = 0xc2b2ae3d27d4eb4fu;

static uint64_t rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

static uint64_t round64(uint64_t acc, uint64_t w) {
    return rotl(acc + w * P2, 31) * P1;
}

static uint64_t fmix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return h;
}

/* xxHash64's round on four lanes: a heatmap's grid (up to a megabyte) is
 * hashed every frame, so the lanes let the multiplies overlap */
uint64_t damage_hash(uint64_t h, const void *bytes, size_t n) {
    const unsigned char *p = bytes;
    uint64_t v[4] = {h + P1 + P2, h + P2, h, h - P1};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * k, 8);
            v[k] = round64(v[k], w);
        }
    }
    uint64_t acc = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18) + n;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        acc = round64(acc, w);
    }
    uint64_t tail = 0;
    if (i < n) memcpy(&tail, p + i, n - i);
    return fmix(round64(acc, tail ^ (uint64_t)(n - i)));
}

/* ---- rects -------------------------------------------------------------- */

static long long area(Damage_Rect r) {
    return (long long)(r.x1 - r.x0) * (r.y1 - r.y0);
}

static Damage_Rect join(Damage_Rect a, Damage_Rect b) {
    return (Damage_Rect){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                         a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1};
}

/* rects this close (device pixels) join: a pass costs more than the strip */
enum { NEAR = 8 };

static bool close_to(Damage_Rect a, Damage_Rect b) {
    return a.x0 <= b.x1 + NEAR && b.x0 <= a.x1 + NEAR && a.y0 <= b.y1 + NEAR && b.y0 <= a.y1 + NEAR;
}

void damage_full(Damage *d, int w, int h) {
    d->w = w;
    d->h = h;
    d->full = true;
    d->count = 1;
    d->rects[0] = (Damage_Rect){0, 0, w, h};
}

void damage_add(Damage *d, int x0, int y0, int x1, int y1) {
    if (d->full) return;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > d->w) x1 = d->w;
    if (y1 > d->h) y1 = d->h;
    if (x1 <= x0 || y1 <= y0) return;
    Damage_Rect r = {x0, y0, x1, y1};
    /* join every rect it touches; a join can reach further ones, so repeat */
    for (bool joined = true; joined;) {
        joined = false;
        for (int k = 0; k < d->count; k++) {
            if (!close_to(d->rects[k], r)) continue;
            r = join(r, d->rects[k]);
            d->rects[k] = d->rects[--d->count];
            joined = true;
            break;
        }
    }
    if (d->count == DAMAGE_MAX_RECTS) {
        /* full: fold the new rect into the one whose union grows least */
        int best = 0;
        long long waste = -1;
        for (int k = 0; k < d->count; k++) {
            Damage_Rect u = join(d->rects[k], r);
            long long wk = area(u) - area(d->rects[k]) - area(r);
            if (waste < 0 || wk < waste) {
                waste = wk;
                best = k;
            }
        }
        r = join(d->rects[best], r);
        d->rects[best] = d->rects[--d->count];
        damage_add(d, r.x0, r.y0, r.x1, r.y1); /* the union may now touch others */
        return;
    }
    d->rects[d->count++] = r;
}

/* ---- the diff ----------------------------------------------------------- */

/* how far ahead the diff looks for a match; a longer run of insertions or
 * deletions is taken as replaced items, which is still correct (both sides'
 * bounds are damage), only less tight */
enum { LOOKAHEAD = 48 };

static void add_item(Damage *d, const Damage_Item *it) {
    damage_add(d, it->x0, it->y0, it->x1, it->y1);
}

void damage_diff(const Damage_Item *old, int old_n, const Damage_Item *now, int now_n, int w, int h,
                 Damage *out) {
    memset(out, 0, sizeof *out);
    out->w = w;
    out->h = h;
    int i = 0, j = 0;
    while (i < old_n && j < now_n) {
        if (old[i].hash == now[j].hash) {
            i++;
            j++;
            continue;
        }
        /* inserted: old[i] shows up a little later in the new frame */
        int ins = -1, del = -1;
        for (int k = 1; k <= LOOKAHEAD && j + k < now_n; k++) {
            if (now[j + k].hash == old[i].hash) {
                ins = k;
                break;
            }
        }
        /* deleted: now[j] was a little later in the old frame */
        for (int k = 1; k <= LOOKAHEAD && i + k < old_n; k++) {
            if (old[i + k].hash == now[j].hash) {
                del = k;
                break;
            }
        }
        if (ins > 0 && (del < 0 || ins <= del)) {
            for (int k = 0; k < ins; k++) add_item(out, &now[j + k]);
            j += ins;
        } else if (del > 0) {
            for (int k = 0; k < del; k++) add_item(out, &old[i + k]);
            i += del;
        } else {
            add_item(out, &old[i++]);
            add_item(out, &now[j++]);
        }
    }
    for (; i < old_n; i++) add_item(out, &old[i]);
    for (; j < now_n; j++) add_item(out, &now[j]);
    long long damaged = 0;
    for (int k = 0; k < out->count; k++) damaged += area(out->rects[k]);
    if ((double)damaged > DAMAGE_FULL_SHARE * (double)w * (double)h) damage_full(out, w, h);
}
