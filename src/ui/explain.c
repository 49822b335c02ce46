/* The arithmetic behind one cell; see explain.h. */
#include "explain.h"

#include "view_state.h"

#include <math.h>
#include <stdio.h>

void explain_cell(const Model *m, const Attn *a, int i, int j, char *buf, size_t size) {
    /* 1-based indices, as in the formulas: s_ij for query i and key j. With
     * two-digit indices a comma keeps s₁₂,₃ readable. */
    const Scene *s = &m->scene;

    int n = s->n;
    char si[24], sj[24], ij[56];
    subscript(i + 1, si, sizeof si);
    subscript(j + 1, sj, sizeof sj);
    snprintf(ij, sizeof ij, "%s%s%s", si, (i + 1 >= 10 || j + 1 >= 10) ? "," : "", sj);
    double dot = 0;
    for (int r = 0; r < s->d_k; r++) dot += (double)a->Q[i * s->d_k + r] * a->K[j * s->d_k + r];
    char sline[200];
    if (!isfinite(a->S[i * n + j])) { /* the causal mask */
        snprintf(buf, size,
                 "s%s = −∞: masked — key %d (%s) comes after query %d (%s), so a%s = 0 exactly", ij,
                 j + 1, s->tokens[j], i + 1, s->tokens[i], ij);
        return;
    }
    if (s->scaled)
        snprintf(sline, sizeof sline, "s%s = ⟨q%s,k%s⟩/√d_k = %.2f/√%d = %.2f", ij, si, sj, dot,
                 s->d_k, (double)a->S[i * n + j]);
    else
        snprintf(sline, sizeof sline, "s%s = ⟨q%s,k%s⟩ = %.2f  (unscaled)", ij, si, sj,
                 (double)a->S[i * n + j]);
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
            snprintf(head, sizeof head, "head %d of %d: ", h + 1, s->heads);
    snprintf(buf, size, "%s%s     a%s = e^%.2f / Σ_ℓ e^s%sℓ = %s / %s = %.3f   (%s → %s)", head,
             sline, ij, sij, si, num, den, (double)a->A[i * n + j], s->tokens[i], s->tokens[j]);
}
