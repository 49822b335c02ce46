/* Colours and sizes of the interface, in one place. Sizes are logical
 * units at UI zoom 1; the renderer scales them. Text sizes are generous on
 * purpose: the app is read from the back of a classroom.
 *
 * Three themes, each in a full and a compact (small window) size:
 * dark (the default), light (for washed-out projectors: the frame's mean
 * luminance stays above 0.7) and contrast (black and white, every text at
 * least 7:1 against what it sits on, thicker outlines). The colormaps of
 * the heatmaps are the same colour-blind-safe maps in all three.
 *
 *   const Theme *theme_get(Theme_Id id, bool compact)
 *   const char *theme_name(Theme_Id id)                 "dark", "light", "contrast"
 *   bool theme_by_name(const char *name, Theme_Id *id)
 */
#ifndef ATTN_THEME_H
#define ATTN_THEME_H

#include <stdbool.h>

#include "../gfx/colormap.h"

typedef enum Theme_Id { THEME_DARK = 0, THEME_LIGHT, THEME_CONTRAST, THEME_COUNT } Theme_Id;

typedef struct Theme {
    Color bg, panel, panel_border, text, text_dim, accent, accent_text, highlight, query, key,
        value, error_bg, error_text, good, grid;
    Color plot;        /* behind plots and the embedding plane */
    Color field;       /* behind a text field being typed in */
    Color button;      /* a button or an unselected chip */
    Color button_hot;  /* a button under the mouse */
    Color button_down; /* a button held down */
    Color on_bright;   /* text on a query- or key-coloured chip */
    Color faint;       /* arrows and marks that stay in the background */
    Color point_ring;  /* the ring around a point in the plane */
    Color masked;      /* a masked cell, and its strike */
    Color masked_mark;
    Color cell_line;       /* lines between heatmap cells */
    Color good_bg, bad_bg; /* verdict and goal boxes: met / not the same */
    Color goal_bg;
    Color math, code, math_error; /* formulas, inline code, an unknown TeX command */
    Color dim;                    /* over the window behind a dialog */
    float line;                   /* outline and border width, 1 = thin */
    bool plates; /* numbers on heatmap cells get a black plate (7:1 on any colour) */
    float text_size, small_size, title_size, pad, radius;
} Theme;

const Theme *theme_get(Theme_Id id, bool compact);
const char *theme_name(Theme_Id id);
bool theme_by_name(const char *name, Theme_Id *id);

#endif
