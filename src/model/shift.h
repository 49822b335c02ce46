/* The shift lab's data: what each positional scheme does when the whole
 * sentence moves later in a document, and when its words are reordered.
 *
 * For each scheme (none, sin, learned, rope, alibi; the scene's strength, base,
 * scaling, mask and H, head 1's projections):
 *   - S with the sentence at position 0 and at the scene's pos_offset, and
 *     max |S(offset) − S(0)| over the cells the mask leaves (also relative
 *     to max |S(0)|): rounding for none, rope and alibi, large for sin and
 *     learned;
 *   - the permutation verdict: max |O(PX) − P·O(X)| for the scene's order
 *     against its original one, or, when they are the same, the sentence
 *     rotated by one place;
 *   - one query–key pair's score (the two tokens' content, moved through
 *     positions): against the offset i − j with i fixed, and against i with
 *     i − j fixed (flat for none, rope and alibi).
 * And for RoPE, the pair's fastest and slowest 2-D coordinate pairs, turned.
 *
 *   bool shift_update(Lab_Shift *sh, const Scene *s, const Derived *dv, int query, int key)
 *       recompute what changed; dv must be up to date with s; false when out of memory
 *   double shift_pair_score(const Scene *s, const Derived *dv, Pos_Mode mode, const float *xq,
 *                           const float *xk, int pi, int pj)
 *       the score of content xq at position pi against content xk at pj, head 1
 *   void shift_free(Lab_Shift *sh)
 */
#ifndef ATTN_SHIFT_H
#define ATTN_SHIFT_H

#include "scene.h"

#include <stdbool.h>
#include <stdint.h>

#define SHIFT_REACH       12 /* the Δ curve spans i − j = −12 … 12 */
#define SHIFT_DELTAS      (2 * SHIFT_REACH + 1)
#define SHIFT_SPAN        40 /* the position curve: 40 positions from the offset on */
#define SHIFT_FIXED_DELTA 2  /* i − j held at 2 on the position curve */

typedef struct Shift_Scheme {
    double shift_max, shift_rel; /* max |S(offset) − S(0)|, and over max |S(0)| */
    double perm_max, perm_rel;   /* max |O(PX) − P·O(X)|, and over max |O| */
    double by_delta[SHIFT_DELTAS];
    double by_pos[SHIFT_SPAN];
} Shift_Scheme;

typedef struct Lab_Shift {
    bool valid;
    uint64_t key;
    int query, key_token;
    bool rotated;                        /* the permutation probe is the rotation by one */
    Shift_Scheme scheme[POS_MODE_COUNT]; /* by Pos_Mode */
    float *S0, *S1;                      /* the scene's scheme: S at 0 and at the offset, n×n */
    float rope_pairs[2][2][2];           /* [fast, slow][q, k][x, y], turned by position */
    int rope_m[2];                       /* which pairs those are */
    long cap_s0, cap_s1, cap_x2, cap_p;  /* elements allocated */
    Attend a, b;                         /* scratch: head 1 under two schemes */
    float *x2;                           /* a reordered X, n×d */
    float *P;                            /* an added term, n×d */
} Lab_Shift;

bool shift_update(Lab_Shift *sh, const Scene *s, const Derived *dv, int query, int key);
double shift_pair_score(const Scene *s, const Derived *dv, Pos_Mode mode, const float *xq,
                        const float *xk, int pi, int pj);
void shift_free(Lab_Shift *sh);

#endif
