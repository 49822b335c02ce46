/* The arithmetic behind one cell; see explain.h. */
#include "../core/i18n.h"
#include "explain.h"

#include "view_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void explain_cell(const Model *m, const Attn *a, int i, int j, char *buf, size_t size) {
    /* 1-based indices, as in the formulas: s_ij for query i and key j. With
     * two-digit indices a comma keeps s₁₂,₃ readable. */
    const Scene *s = &m->scene;

    int n = s->n;
    char si[24], sj[24], ij[56];
    subscript(i + 1, si, sizeof si);
    subscript(j + 1, sj, sizeof sj);
    snprintf(ij, sizeof ij, "%s%s%s", si, (i + 1 >= 10 || j + 1 >= 10) ? "," : "", sj);
    /* q and k as the score used them: turned by position under rope */
    double dot = 0;
    for (int r = 0; r < s->d_k; r++) dot += (double)a->Qr[i * s->d_k + r] * a->Kr[j * s->d_k + r];
    int hh = 0; /* which head this is */
    for (int h = 0; h < s->heads; h++)
        if (derived_head(&m->derived, h) == a) hh = h;
    char sline[640];
    if (!isfinite(a->S[i * n + j])) { /* the causal mask */
        snprintf(buf, size,
                 _("s%s = −∞: masked — key %d (%s) comes after query %d (%s), so a%s = 0 exactly"),
                 ij, j + 1, s->tokens[j], i + 1, s->tokens[i], ij);
        return;
    }
    /* the pair, with the position term the scheme puts in the rule */
    char pair[120];
    if (s->pos == POS_ROPE)
        snprintf(pair, sizeof pair, "⟨R_p q%s, R_p′ k%s⟩", si, sj);
    else
        snprintf(pair, sizeof pair, "⟨q%s,k%s⟩", si, sj);
    char value[200];
    if (s->scaled)
        snprintf(value, sizeof value, "%s/√d_k", pair);
    else
        snprintf(value, sizeof value, "%s", pair);
    char nums[160];
    if (s->scaled)
        snprintf(nums, sizeof nums, "%.2f/√%d", dot, s->d_k);
    else
        snprintf(nums, sizeof nums, "%.2f", dot);
    if (s->pos == POS_ALIBI) {
        double m_h = scene_alibi_slope(s, hh);
        snprintf(value + strlen(value), sizeof value - strlen(value), " − m·|%d−%d|", i + 1, j + 1);
        snprintf(nums + strlen(nums), sizeof nums - strlen(nums), " − %.3g·%d", m_h, abs(i - j));
    }
    char where[64] = "";
    if (s->pos == POS_ROPE)
        snprintf(where, sizeof where, "  (p = %d, p′ = %d)", s->pos_offset + i, s->pos_offset + j);
    snprintf(sline, sizeof sline, "s%s = %s = %s = %.2f%s%s", ij, value, nums,
             (double)a->S[i * n + j], s->scaled ? "" : _("  (unscaled)"), where);
    /* the softmax's denominator, with its value, so the weight can be redone
     * by hand; past what a double holds it is written as a power of e */
    double top = -INFINITY, sum = 0;
    for (int l = 0; l < n; l++)
        if (isfinite(a->S[i * n + l])) top = fmax(top, a->S[i * n + l]);
    for (int l = 0; l < n; l++)
        if (isfinite(a->S[i * n + l])) sum += exp((double)a->S[i * n + l] - top);
    double sij = a->S[i * n + j];
    char num[40], den[40];
    if (top < 700) {
        snprintf(num, sizeof num, "%.4g", exp(sij));
        snprintf(den, sizeof den, "%.4g", exp(top) * sum);
    } else {
        snprintf(num, sizeof num, "e^%.1f", sij);
        snprintf(den, sizeof den, "e^%.1f", top + log(sum));
    }
    /* with several heads, which one this is */
    char head[40] = "";
    for (int h = 0; h < s->heads && s->heads > 1; h++)
        if (derived_head(&m->derived, h) == a)
            snprintf(head, sizeof head, _("head %d of %d: "), h + 1, s->heads);
    snprintf(buf, size, "%s%s     a%s = e^%.2f / Σ_ℓ e^s%sℓ = %s / %s = %.3f   (%s → %s)", head,
             sline, ij, sij, si, num, den, (double)a->A[i * n + j], s->tokens[i], s->tokens[j]);
}
