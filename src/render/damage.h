/* Damage: which pixels a new frame changes, from the old and new frames'
 * draw items alone. No GL here, so it is tested on plain arrays.
 *
 * An item is one drawn command in the order its pixels are painted, with a
 * hash of everything that decides those pixels (kind, colour, geometry,
 * text, grid values, its clipped bounds) and its bounds in device pixels.
 * A pixel's colour depends only on the items that cover it and their order.
 * So if the new frame is the old one with some items deleted and some
 * inserted, every pixel outside those items' bounds is unchanged: only they
 * need painting again.
 *
 *   void damage_diff(const Damage_Item *old, int old_n, const Damage_Item *now, int now_n,
 *       int w, int h, Damage *out)
 *       match the two sequences in order (greedy, with a bounded look-ahead to
 *       step over insertions and deletions); every unmatched item's bounds
 *       are damage; a frame mostly damaged becomes one full-frame rect
 *   void damage_full(Damage *d, int w, int h)
 *   void damage_add(Damage *d, int x0, int y0, int x1, int y1)
 *       merge a rect into at most DAMAGE_MAX_RECTS: overlapping or close rects
 *       join, and when the list is full the pair whose union wastes least
 *   uint64_t damage_hash(uint64_t h, const void *bytes, size_t n)
 *       64-bit hash, chained: start from DAMAGE_HASH_SEED
 */
#ifndef ATTN_DAMAGE_H
#define ATTN_DAMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DAMAGE_MAX_RECTS 16
#define DAMAGE_HASH_SEED 0x9e3779b97f4a7c15u
/* a frame with more than this share of its area damaged is redrawn whole:
 * one pass costs less than several scissored ones covering most of it */
#define DAMAGE_FULL_SHARE 0.6

typedef struct Damage_Item {
    uint64_t hash;
    int x0, y0, x1, y1; /* device pixels, half-open, already clipped */
} Damage_Item;

typedef struct Damage_Rect {
    int x0, y0, x1, y1;
} Damage_Rect;

typedef struct Damage {
    Damage_Rect rects[DAMAGE_MAX_RECTS];
    int count;
    bool full;
    int w, h; /* the frame the rects lie in */
} Damage;

void damage_diff(const Damage_Item *old, int old_n, const Damage_Item *now, int now_n, int w, int h,
                 Damage *out);
void damage_full(Damage *d, int w, int h);
void damage_add(Damage *d, int x0, int y0, int x1, int y1);
uint64_t damage_hash(uint64_t h, const void *bytes, size_t n);

#endif
