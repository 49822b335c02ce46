/* The heatmap widget: a matrix as coloured cells with token labels on both
 * axes, a legend bar with ticks, numbers inside cells when they fit, and
 * hover / click on cells and row labels.
 *
 *   void ui_heatmap(Ui *ui, const Heatmap_Desc *d, Heatmap_Result *res)
 *   void heatmap_number(double v, int decimals, bool sci, char *buf, size_t size)
 *       v as a cell shows it: with that many decimals, or as 1.2e3 when sci; never "-0.00"
 */
#ifndef ATTN_HEATMAP_H
#define ATTN_HEATMAP_H

#include "ui.h"

#include <stddef.h>

typedef struct Heatmap_Desc {
    const char *name; /* what --dump-ui calls it; the heatmap takes no input of its own */
    Rect r;
    const char *title;
    const char *caption; /* under the title, e.g. "S = QKᵀ/√d_k" */
    const float *values; /* rows×cols, row-major */
    int rows, cols;
    float vmin, vmax;
    Colormap map;
    const char *const *row_labels; /* may be NULL */
    const char *const *col_labels;
    const char *row_axis, *col_axis; /* "query", "key" */
    bool numbers;                    /* numbers in cells, when they fit */
    int decimals;                    /* at most this many; fewer, or 1.2e3, to fit a cell */
    int selected_row;                /* -1 for none */
    int mark_row, mark_col;          /* hover highlight from elsewhere; -1 none */
    const float *row_offset;         /* animation: per-row displacement in cells, or NULL */
    const float *col_offset;
    bool highlighted; /* a lesson points at this panel */
    bool stretch;     /* cells fill the area instead of staying square */
    bool no_legend;   /* the caption states the colour range instead (compact layouts) */
    bool causal;      /* cells above the diagonal are masked, whatever they hold (A's zeros) */
    bool hide_row_on; /* row hide_row waits for a prediction: drawn blank with "?" */
    int hide_row;
} Heatmap_Desc;

typedef struct Heatmap_Result {
    int hover_row, hover_col; /* -1 when not over a cell */
    int clicked_row;          /* row label or cell clicked, or -1 */
    Rect grid;                /* where the cells were drawn */
    float cell_w, cell_h;
    bool masked; /* some cells are masked (−∞): drawn grey, struck through */
} Heatmap_Result;

void ui_heatmap(Ui *ui, const Heatmap_Desc *d, Heatmap_Result *res);
void heatmap_number(double v, int decimals, bool sci, char *buf, size_t size);

#endif
