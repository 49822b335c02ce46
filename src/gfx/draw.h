/* The draw list: what the UI wants on screen, with no GL in sight.
 *
 * Widgets append commands; the renderer replays them in order. Coordinates
 * are logical UI units (the renderer multiplies by UI zoom × display
 * scale), y grows downward. The list's buffers grow, by doubling, when a
 * frame needs more than any frame before it (more tokens, more heads): a
 * steady frame never allocates. Growth stops at the ceilings in Draw_Desc; a
 * command past a ceiling is dropped and counted in `dropped`, which the app
 * reports on screen (nothing is left out silently).
 *
 *   bool draw_init(Draw_List *dl, const Draw_Desc *desc)
 *   void draw_free(Draw_List *dl)
 *   void draw_clear(Draw_List *dl)
 *   void draw_rect(Draw_List *dl, Rect r, Color c)
 *       filled rectangle
 *   void draw_round_rect(Draw_List *dl, Rect r, float radius, Color c)
 *       filled, rounded corners
 *   void draw_rect_outline(Draw_List *dl, Rect r, float radius, float width, Color c)
 *   void draw_circle(Draw_List *dl, float cx, float cy, float radius, Color c)
 *   void draw_circle_outline(Draw_List *dl, float cx, float cy, float radius, float width, Color c)
 *   void draw_line(Draw_List *dl, float x0, float y0, float x1, float y1, float width, Color c)
 *       anti-aliased, round caps
 *   void draw_arrow(Draw_List *dl, float x0, float y0, float x1, float y1, float width, float head,
 *       Color c)
 *   void draw_triangle(Draw_List *dl, const float x[3], const float y[3], Color c)
 *   void draw_text(Draw_List *dl, Font_Id font, float size, float x, float y, Align align, Color c,
 *       const char *text)
 *       (x, y) = top of the line box
 *   void draw_textn(Draw_List *dl, Font_Id font, float size, float x, float y, Align align,
 *       Color c, const char *text, int len)
 *   void draw_heatmap(Draw_List *dl, Rect r, const float *grid, int rows, int cols, float vmin,
 *       float vmax, Colormap map)
 *       grid row-major, copied into the list
 *   void draw_clip(Draw_List *dl, Rect r)
 *   void draw_noclip(Draw_List *dl)
 *   void draw_layer(Draw_List *dl)
 *       start a new layer: the renderer draws shapes before text within a layer, so anything meant
 *       to cover text (an overlay, a dragged chip) starts a layer of its own
 */
#ifndef ATTN_DRAW_H
#define ATTN_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "colormap.h"

typedef struct Rect {
    float x, y, w, h;
} Rect;

/* FONT_ITALIC is the math italic: variables in formulas */
typedef enum Font_Id { FONT_SANS = 0, FONT_BOLD, FONT_MONO, FONT_ITALIC, FONT_COUNT } Font_Id;
typedef enum Align { ALIGN_LEFT = 0, ALIGN_CENTER = 1, ALIGN_RIGHT = 2 } Align;

typedef enum Draw_Kind {
    DRAW_RECT,
    DRAW_LINE,
    DRAW_TRIANGLE,
    DRAW_TEXT,
    DRAW_HEATMAP,
    DRAW_CLIP,
    DRAW_LAYER, /* everything after is drawn over everything before, text included */
} Draw_Kind;

typedef struct Draw_Cmd {
    Draw_Kind kind;
    Color color;
    union {
        struct {
            Rect r;
            float radius;    /* corner radius; w/2 for a circle */
            float thickness; /* 0 = filled, else outline width */
        } rect;
        struct {
            float x0, y0, x1, y1, width;
        } line;
        struct {
            float x[3], y[3];
        } tri;
        struct {
            float x, y, size;
            Font_Id font;
            Align align;
            int offset, len; /* into the list's text buffer */
        } text;
        struct {
            Rect r;
            int rows, cols;
            int32_t offset; /* into the list's grid buffer */
            float vmin, vmax;
            Colormap map;
        } heat;
        struct {
            Rect r;
            bool on;
        } clip;
    };
} Draw_Cmd;

/* Ceilings; zero means the default. Each buffer starts at the smaller of its
 * ceiling and a size that holds an ordinary frame. */
typedef struct Draw_Desc {
    int max_cmds;     /* default 1 << 20 */
    int max_text;     /* bytes, default 16 MiB */
    int32_t max_grid; /* floats, default 32 × 512 × 512: S, A and 16 heads' thumbnails at n = 512,
                         with room for the Q/K/V/O strips */
} Draw_Desc;

typedef struct Draw_List {
    Draw_Cmd *cmds;
    int count, cap;
    char *text;
    int text_len, text_cap;
    float *grid;
    int32_t grid_len, grid_cap;
    int max_cmds, max_text;
    int32_t max_grid;
    int dropped; /* commands left out of this frame: a ceiling was reached */
} Draw_List;

bool draw_init(Draw_List *dl, const Draw_Desc *desc);
void draw_free(Draw_List *dl);
void draw_clear(Draw_List *dl);

void draw_rect(Draw_List *dl, Rect r, Color c);
void draw_round_rect(Draw_List *dl, Rect r, float radius, Color c);
void draw_rect_outline(Draw_List *dl, Rect r, float radius, float width, Color c);
void draw_circle(Draw_List *dl, float cx, float cy, float radius, Color c);
void draw_circle_outline(Draw_List *dl, float cx, float cy, float radius, float width, Color c);
void draw_line(Draw_List *dl, float x0, float y0, float x1, float y1, float width, Color c);
void draw_arrow(Draw_List *dl, float x0, float y0, float x1, float y1, float width, float head,
                Color c);
void draw_triangle(Draw_List *dl, const float x[3], const float y[3], Color c);
void draw_text(Draw_List *dl, Font_Id font, float size, float x, float y, Align align, Color c,
               const char *text);
void draw_textn(Draw_List *dl, Font_Id font, float size, float x, float y, Align align, Color c,
                const char *text, int len);
void draw_heatmap(Draw_List *dl, Rect r, const float *grid, int rows, int cols, float vmin,
                  float vmax, Colormap map);
void draw_clip(Draw_List *dl, Rect r);
void draw_noclip(Draw_List *dl);
void draw_layer(Draw_List *dl);

static inline Color rgba(unsigned char r, unsigned char g, unsigned char b, unsigned char a) {
    return (Color){r, g, b, a};
}

#endif
