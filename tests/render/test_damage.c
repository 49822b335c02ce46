/* src/render/damage.c: which pixels a frame must paint again. The rule it
 * rests on: a pixel changes only if the items covering it, in painting
 * order, change. Checked against that rule by brute force on small frames. */
#include "render/damage.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FW = 48, FH = 40, MAX_ITEMS = 64 };

static Damage_Item item(uint64_t hash, int x0, int y0, int x1, int y1) {
    return (Damage_Item){hash, x0, y0, x1, y1};
}

static bool in_damage(const Damage *d, int x, int y) {
    for (int k = 0; k < d->count; k++) {
        const Damage_Rect *r = &d->rects[k];
        if (r->x0 <= x && x < r->x1 && r->y0 <= y && y < r->y1) return true;
    }
    return false;
}

/* The hashes covering (x, y), in order: what decides the pixel. */
static int stack_at(const Damage_Item *v, int n, int x, int y, uint64_t *out) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (v[i].x0 <= x && x < v[i].x1 && v[i].y0 <= y && y < v[i].y1) out[k++] = v[i].hash;
    return k;
}

/* Every pixel whose stack differs lies in the damage. */
static void assert_covers(const Damage_Item *old, int on, const Damage_Item *now, int nn,
                          const Damage *d, const char *what) {
    for (int y = 0; y < FH; y++) {
        for (int x = 0; x < FW; x++) {
            uint64_t a[MAX_ITEMS], b[MAX_ITEMS];
            int ka = stack_at(old, on, x, y, a), kb = stack_at(now, nn, x, y, b);
            bool same = ka == kb && !memcmp(a, b, sizeof a[0] * (size_t)ka);
            cr_assert(same || in_damage(d, x, y), "%s: pixel (%d, %d) changed outside the damage",
                      what, x, y);
        }
    }
}

static long long damaged_area(const Damage *d) {
    long long a = 0;
    for (int k = 0; k < d->count; k++)
        a += (long long)(d->rects[k].x1 - d->rects[k].x0) * (d->rects[k].y1 - d->rects[k].y0);
    return a;
}

Test(damage, the_same_frame_damages_nothing) {
    Damage_Item v[3] = {item(1, 0, 0, 10, 10), item(2, 5, 5, 20, 20), item(3, 30, 0, 40, 8)};
    Damage d;
    damage_diff(v, 3, v, 3, FW, FH, &d);
    cr_assert_eq(d.count, 0);
    cr_assert_not(d.full);
}

Test(damage, an_inserted_item_damages_its_bounds_only) {
    Damage_Item old[3] = {item(1, 0, 0, 48, 40), item(2, 2, 2, 12, 12), item(3, 30, 20, 40, 30)};
    Damage_Item now[4] = {old[0], old[1], item(9, 14, 3, 18, 7), old[2]};
    Damage d;
    damage_diff(old, 3, now, 4, FW, FH, &d);
    cr_assert_eq(d.count, 1);
    cr_assert_eq(d.rects[0].x0, 14);
    cr_assert_eq(d.rects[0].y0, 3);
    cr_assert_eq(d.rects[0].x1, 18);
    cr_assert_eq(d.rects[0].y1, 7);
}

Test(damage, a_deleted_or_changed_item_damages_where_it_was_and_is) {
    Damage_Item old[3] = {item(1, 0, 0, 48, 40), item(2, 2, 2, 6, 6), item(3, 30, 20, 34, 24)};
    Damage_Item now[2] = {old[0], item(4, 40, 30, 44, 34)}; /* 2 gone, 3 moved */
    Damage d;
    damage_diff(old, 3, now, 2, FW, FH, &d);
    assert_covers(old, 3, now, 2, &d, "delete and move");
    cr_assert(in_damage(&d, 3, 3) && in_damage(&d, 31, 21) && in_damage(&d, 41, 31));
    cr_assert_not(in_damage(&d, 20, 10), "a pixel no item touched is damaged");
}

Test(damage, two_overlapping_items_swapped_damage_their_overlap) {
    Damage_Item old[2] = {item(1, 0, 0, 20, 20), item(2, 10, 10, 30, 30)};
    Damage_Item now[2] = {old[1], old[0]};
    Damage d;
    damage_diff(old, 2, now, 2, FW, FH, &d);
    assert_covers(old, 2, now, 2, &d, "swap");
    cr_assert(in_damage(&d, 15, 15));
}

Test(damage, a_mostly_changed_frame_is_painted_whole) {
    Damage_Item old[1] = {item(1, 0, 0, 48, 40)};
    Damage_Item now[1] = {item(2, 0, 0, 48, 40)};
    Damage d;
    damage_diff(old, 1, now, 1, FW, FH, &d);
    cr_assert(d.full);
    cr_assert_eq(d.count, 1);
    cr_assert_eq(damaged_area(&d), FW * FH);
}

Test(damage, scattered_changes_merge_into_a_bounded_list) {
    Damage d = {.w = 1000, .h = 1000};
    for (int k = 0; k < 100; k++) {
        int x = (k * 97) % 990, y = (k * 61) % 990;
        damage_add(&d, x, y, x + 3, y + 3);
        cr_assert_leq(d.count, DAMAGE_MAX_RECTS);
        cr_assert(in_damage(&d, x + 1, y + 1), "change %d was dropped", k);
    }
    for (int k = 0; k < d.count; k++)
        for (int j = k + 1; j < d.count; j++) {
            const Damage_Rect *a = &d.rects[k], *b = &d.rects[j];
            bool overlap = a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
            cr_assert_not(overlap, "rects %d and %d overlap: a pixel would be painted twice", k, j);
        }
}

Test(damage, damage_stays_inside_the_frame) {
    Damage d = {.w = 100, .h = 50};
    damage_add(&d, -20, -5, 10, 10);
    damage_add(&d, 95, 45, 140, 90);
    damage_add(&d, 200, 200, 210, 210); /* all outside: nothing */
    cr_assert_eq(d.count, 2);
    for (int k = 0; k < d.count; k++) {
        cr_assert_geq(d.rects[k].x0, 0);
        cr_assert_geq(d.rects[k].y0, 0);
        cr_assert_leq(d.rects[k].x1, 100);
        cr_assert_leq(d.rects[k].y1, 50);
    }
}

/* Random frames and random edits (insert, delete, replace, move, swap,
 * runs longer than the diff's look-ahead): every changed pixel is damaged. */
Test(damage, random_edits_never_leave_a_changed_pixel_unpainted) {
    srand(17);
    static Damage_Item old[MAX_ITEMS], now[MAX_ITEMS];
    uint64_t next_hash = 1;
    for (int trial = 0; trial < 400; trial++) {
        int on = 1 + rand() % 40;
        for (int i = 0; i < on; i++) {
            int x = rand() % FW, y = rand() % FH;
            old[i] = item(next_hash++, x, y, x + 1 + rand() % 12, y + 1 + rand() % 12);
        }
        int nn = 0;
        for (int i = 0; i < on && nn < MAX_ITEMS - 2; i++) {
            switch (rand() % 8) {
            case 0: /* deleted */
                break;
            case 1: { /* something new before it */
                int x = rand() % FW, y = rand() % FH;
                now[nn++] = item(next_hash++, x, y, x + 1 + rand() % 8, y + 1 + rand() % 8);
                now[nn++] = old[i];
                break;
            }
            case 2: /* changed in place */
                now[nn] = old[i];
                now[nn++].hash = next_hash++;
                break;
            default:
                now[nn++] = old[i];
            }
        }
        if (nn >= 2 && rand() % 3 == 0) { /* two items change places */
            int a = rand() % nn, b = rand() % nn;
            Damage_Item t = now[a];
            now[a] = now[b];
            now[b] = t;
        }
        Damage d;
        damage_diff(old, on, now, nn, FW, FH, &d);
        cr_assert_leq(d.count, DAMAGE_MAX_RECTS);
        assert_covers(old, on, now, nn, &d, "random edit");
    }
}

Test(damage, hash_tells_apart_what_differs_in_one_bit_or_in_length) {
    float a[300], b[300];
    for (int i = 0; i < 300; i++) a[i] = b[i] = (float)i * 0.25f;
    uint64_t h = damage_hash(DAMAGE_HASH_SEED, a, sizeof a);
    cr_assert_eq(h, damage_hash(DAMAGE_HASH_SEED, b, sizeof b), "not a function of the bytes");
    for (int i = 0; i < 300; i += 7) {
        b[i] = nextafterf(a[i], 1e9f);
        cr_assert_neq(h, damage_hash(DAMAGE_HASH_SEED, b, sizeof b), "a change at %d was missed",
                      i);
        b[i] = a[i];
    }
    for (size_t n = 0; n < 40; n++)
        cr_assert_neq(damage_hash(DAMAGE_HASH_SEED, a, n), damage_hash(DAMAGE_HASH_SEED, a, n + 1),
                      "lengths %zu and %zu collide", n, n + 1);
}
