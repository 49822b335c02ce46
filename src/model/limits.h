/* Every size limit of a scene, in one place.
 *
 * The bounds on embedding values and positional strength are what make the
 * "never NaN or Inf" promise provable: with |x| ≤ ATTN_MAX_ABS_X, strength ≤
 * ATTN_MAX_POS_STRENGTH, d ≤ ATTN_MAX_D and N(0,1) projection entries (which
 * the polar method keeps below 9 in magnitude), a query or key coordinate is
 * below 1.1e3 · 64 · 9 ≈ 6.4e5 and an unscaled score below 1024 · (6.4e5)² ≈
 * 4.2e14, far inside float range.
 */
#ifndef ATTN_LIMITS_H
#define ATTN_LIMITS_H

#define ATTN_MAX_TOKENS       512
#define ATTN_MAX_TOKEN_BYTES  32 /* including the terminating NUL */
#define ATTN_MAX_D            64
#define ATTN_MAX_DK           1024
#define ATTN_MAX_DV           1024
#define ATTN_MAX_ABS_X        1000.0
#define ATTN_MAX_POS_STRENGTH 10.0
#define ATTN_MAX_SEED         4294967295.0 /* seeds are 32-bit so JSON holds them exactly */
#define ATTN_MAX_SAMPLES      1000000
#define ATTN_MAX_HEADS        16
#define ATTN_MAX_POS_OFFSET   1000
#define ATTN_MIN_ROPE_BASE    2.0
#define ATTN_MAX_ROPE_BASE    10000000.0

#endif
