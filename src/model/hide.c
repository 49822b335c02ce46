/* Names that can be hidden; see hide.h. */
#include "../core/i18n.h"
#include "hide.h"

#include <stdio.h>
#include <string.h>

/* Panels (as the lessons' `highlight` names them) and controls (as --dump-ui
 * names their widgets). "heads" is the heads strip and the H slider both. */
static const char *const names[] = {
    /* explorer */
    "plane", "controls", "S", "A", "Q", "K", "V", "O", "X", "query", "qk_plane", "heads",
    /* its controls */
    "dk", "dv", "d", "scale", "lock", "pos", "pos_strength", "rope_base", "mask", "reroll",
    "colormap", "y_arrows",
    /* the sentence's row */
    "edit", "reverse", "shuffle", "restore",
    /* scaling lab */
    "hist_raw", "hist_scaled", "entropy_plot", "max_plot", "scaling_controls",
    /* permutation lab */
    "P", "reorder", "verdict", "A_PX", "A_P", "A_diff", "O_PX", "O_P", "O_diff",
    /* training lab */
    "train_controls", "train_loss", "train_A", "train_bilinear", "train_lengths",
    /* shift lab */
    "shift_controls", "pos_offset", "shift_verdicts", "score_by_delta", "score_by_position",
    "rope_pairs"};

bool hide_name_known(const char *name) {
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(name, names[k])) return true;
    return false;
}

const char *hide_names(void) {
    static const char all[] =
        "plane, controls, S, A, Q, K, V, O, X, query, qk_plane, heads, dk, dv, d, scale, lock, "
        "pos, pos_strength, rope_base, mask, reroll, colormap, y_arrows, edit, reverse, shuffle, "
        "restore, "
        "hist_raw, hist_scaled, entropy_plot, max_plot, scaling_controls, P, "
        "reorder, verdict, A_PX, A_P, A_diff, O_PX, O_P, O_diff, train_controls, train_loss, "
        "train_A, train_bilinear, train_lengths, shift_controls, pos_offset, shift_verdicts, "
        "score_by_delta, "
        "score_by_position, rope_pairs";
    return all;
}

bool hide_list_has(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
        if (p > list && p[-1] == ' ' && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

bool hide_list_parse(const char *text, char *dest, size_t destsz, char *err, size_t errsz) {
    size_t used = 0;
    dest[0] = '\0';
    const char *p = text;
    while (*p) {
        while (*p == ',' || *p == ' ') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',' && *e != ' ') e++;
        char name[32];
        if ((size_t)(e - p) >= sizeof name) {
            snprintf(err, errsz, _("'%.31s…' is not a panel or control (they are: %s)"), p,
                     hide_names());
            return false;
        }
        memcpy(name, p, (size_t)(e - p));
        name[e - p] = '\0';
        if (!hide_name_known(name)) {
            snprintf(err, errsz, _("'%s' is not a panel or control (they are: %s)"), name,
                     hide_names());
            return false;
        }
        if (!hide_list_has(dest, name)) {
            if (used + strlen(name) + 2 > destsz) {
                snprintf(err, errsz, _("more names than fit (%zu bytes)"), destsz - 1);
                return false;
            }
            used += (size_t)snprintf(dest + used, destsz - used, " %s", name);
        }
        p = e;
    }
    return true;
}
