/* Colours and sizes of the interface, in one place. Sizes are logical
 * units at UI zoom 1; the renderer scales them. Text sizes are generous on
 * purpose: the app is read from the back of a classroom. */
#ifndef ATTN_THEME_H
#define ATTN_THEME_H

#include "../gfx/colormap.h"

typedef struct Theme {
    Color bg, panel, panel_border, text, text_dim, accent, accent_text, highlight, query, key,
        value, error_bg, error_text, good, grid;
    float text_size, small_size, title_size, pad, radius;
} Theme;

extern const Theme theme_default;
extern const Theme theme_compact; /* same colours, smaller type, for small windows */

#endif
