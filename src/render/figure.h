/* Figures for slides and papers: the same draw list the GL renderer shows,
 * replayed through cairo into a PDF (real, selectable text with the fonts
 * embedded), an SVG, or a PNG at any scale. Heatmaps become vector cells.
 * Shapes and text are painted in the GL renderer's order (within a segment
 * between layers, clips and heatmaps, all shapes, then all text), so the
 * picture is the window's.
 *
 *   bool figure_format_of(const char *path, Figure_Format *f)
 *       by the file's ending: .pdf, .svg or .png
 *   bool figure_write(const Draw_List *dl, const Figure_Desc *d, char *err, size_t errsz)
 *       write d->area of the layout (logical units) to d->path; false with a one-line reason.
 *       The file appears whole or not at all (written beside it, then renamed). A heatmap of
 *       more than 64 × 64 cells is embedded as an image of one pixel a cell (sharp at any zoom),
 *       so a figure's size stays bounded; a PNG over FIGURE_MAX_PNG_SIDE a side is refused.
 */
#ifndef ATTN_FIGURE_H
#define ATTN_FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "../gfx/draw.h"

typedef enum Figure_Format { FIGURE_PDF, FIGURE_SVG, FIGURE_PNG } Figure_Format;

#define FIGURE_MAX_PNG_SIDE 16384 /* pixels: as --size; 16384² is already 1 GiB of pixels */

typedef struct Figure_Desc {
    const char *path;
    Figure_Format format;
    const char *data_dir; /* the fonts: data_dir/assets/fonts */
    Rect area;            /* what to draw, in logical units */
    float scale;          /* output pixels (PNG) or points (PDF, SVG) per logical unit */
    Color background;     /* painted under everything unless transparent */
    bool transparent;
} Figure_Desc;

bool figure_format_of(const char *path, Figure_Format *f);
bool figure_write(const Draw_List *dl, const Figure_Desc *d, char *err, size_t errsz);

#endif
