/* src/core/perm.c */
#include "core/perm.h"
#include "test_util.h"

#include <string.h>

Test(perm, validate_accepts_permutations) {
    char err[128];
    int p[5] = {4, 0, 3, 1, 2};
    cr_assert(perm_validate(p, 5, err, sizeof err));
}

Test(perm, validate_rejects_out_of_range_and_duplicates) {
    char err[128];
    int range[3] = {0, 3, 1};
    cr_assert_not(perm_validate(range, 3, err, sizeof err));
    cr_assert_str_eq(err, "entry 1 is 3, outside 0..2");
    int dup[3] = {2, 0, 2};
    cr_assert_not(perm_validate(dup, 3, err, sizeof err));
    cr_assert_str_eq(err, "2 appears twice (entries 0 and 2)");
    int neg[2] = {-1, 0};
    cr_assert_not(perm_validate(neg, 2, err, sizeof err));
}

Test(perm, apply_rows_follows_the_convention) {
    /* new position i holds old row p[i] */
    float src[6] = {0, 0, 1, 1, 2, 2}, dest[6];
    int p[3] = {2, 0, 1};
    perm_apply_rows(p, 3, src, 2, dest);
    cr_assert_eq(dest[0], 2);
    cr_assert_eq(dest[2], 0);
    cr_assert_eq(dest[4], 1);
}

Test(perm, inverse_and_compose) {
    Rng r;
    rng_seed(&r, 3);
    for (int t = 0; t < 50; t++) {
        int n = rand_int(&r, 1, 40), p[40], inv[40], id[40];
        perm_identity(n, p);
        for (int i = n - 1; i > 0; i--) {
            int j = rand_int(&r, 0, i), tmp = p[i];
            p[i] = p[j];
            p[j] = tmp;
        }
        perm_inverse(p, n, inv);
        perm_compose(p, inv, n, id);
        for (int i = 0; i < n; i++) cr_assert_eq(id[i], i);
        perm_compose(inv, p, n, id);
        for (int i = 0; i < n; i++) cr_assert_eq(id[i], i);
    }
}

Test(perm, reverse_and_rotate) {
    int p[4];
    perm_reverse(4, p);
    cr_assert(p[0] == 3 && p[1] == 2 && p[2] == 1 && p[3] == 0);
    perm_rotate(4, 1, p);
    cr_assert(p[0] == 1 && p[3] == 0);
    perm_rotate(4, -1, p);
    cr_assert(p[0] == 3 && p[1] == 0);
}
