/* src/core/posenc.c against the sinusoidal formula in double. */
#include "core/posenc.h"
#include "test_util.h"

#include <math.h>

Test(posenc, matches_formula) {
    static float P[100 * 16];
    posenc_sinusoidal(0, 100, 16, 0.5f, P);
    for (int p = 0; p < 100; p++) {
        for (int i = 0; i < 8; i++) {
            double angle = p / pow(10000.0, 2.0 * i / 16.0);
            /* float32 result of a value ≤ 0.5: within 1e-7 absolute */
            cr_assert(fabs(P[p * 16 + 2 * i] - 0.5 * sin(angle)) < 1e-7);
            cr_assert(fabs(P[p * 16 + 2 * i + 1] - 0.5 * cos(angle)) < 1e-7);
        }
    }
}

Test(posenc, position_zero_and_odd_width) {
    float P[3 * 3];
    posenc_sinusoidal(0, 3, 3, 2.0f, P);
    cr_assert_eq(P[0], 0.0f); /* sin 0 */
    cr_assert_eq(P[1], 2.0f); /* cos 0 */
    cr_assert_eq(P[2], 0.0f); /* the last, unpaired coordinate is a sine */
    cr_assert_float_eq(P[3], 2.0f * (float)sin(1.0), 1e-6);
}

Test(posenc, distinct_positions_get_distinct_codes) {
    static float P[64 * 8];
    posenc_sinusoidal(0, 64, 8, 1.0f, P);
    for (int a = 0; a < 64; a++) {
        for (int b = a + 1; b < 64; b++) {
            double dist = 0;
            for (int c = 0; c < 8; c++) dist += pow(P[a * 8 + c] - P[b * 8 + c], 2);
            cr_assert(dist > 1e-4, "positions %d and %d coincide", a, b);
        }
    }
}
