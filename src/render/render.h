/* The renderer: replays a draw list with OpenGL 3.3 core. The only GL code.
 *
 * Needs a current GL context (the platform makes it). Everything it owns is
 * created in render_init and released in render_shutdown; a frame allocates
 * nothing (the per-command records grow only when the draw list does).
 * Within a layer (the span between heatmaps, clip changes and draw_layer)
 * all shapes are drawn in order, then all text over them, each with its own
 * small shader, so no shape pixel pays for a texture lookup; a heatmap is one
 * float texture plus a colormap lookup drawn by one shader, so a frame is a
 * handful of draw calls whatever n is.
 *
 * A frame costs what changed. The renderer keeps the last frame in a canvas
 * and compares the new draw list with the one the canvas shows (damage.h):
 * only the rects that changed are cleared and painted again, each with only
 * the commands that reach it, and nothing a later heatmap covers. A hover
 * repaints a cell outline and the status line; a heatmap whose values did
 * not change is not uploaded again. The canvas is then copied whole to the
 * window, whose back buffer keeps nothing between frames (a browser canvas
 * that keeps its pixels is painted directly: render_window_keeps_pixels).
 *
 *   bool render_init(Renderer *r, const Render_Desc *desc, char *err, size_t errsz)
 *       programs, atlas, buffers
 *   void render_shutdown(Renderer *r)
 *   bool render_reload_shaders(Renderer *r, char *err, size_t errsz)
 *       F5: all or nothing
 *   void render_set_scale(Renderer *r, float scale)
 *       logical → pixel factor for layout
 *   Text_Metrics render_text_metrics(Renderer *r)
 *       measuring text for the UI
 *   void render_frame(Renderer *r, const Draw_List *dl, int fb_w, int fb_h, Color clear)
 *       paint what changed since the last frame into the canvas, then copy the canvas to
 *       the window or the offscreen target
 *   void render_invalidate(Renderer *r)
 *       the next frame paints everything (after F5 reloads the shaders)
 *   void render_window_keeps_pixels(Renderer *r)
 *       the window's framebuffer keeps its pixels from frame to frame (a browser canvas
 *       made with preserveDrawingBuffer): frames paint what changed straight into it, with
 *       no canvas and no copy
 *   bool render_wants_redraw(const Renderer *r)
 *       the glyph atlas was reset mid-frame
 *   bool render_offscreen_begin(Renderer *r, int w, int h, char *err, size_t errsz)
 *   void render_offscreen_end(Renderer *r)
 *   int render_max_side(void)
 *       the largest width or height, in pixels, the GL context renders offscreen
 *   void render_read_rgba(Renderer *r, int w, int h, unsigned char *dest)
 *       top row first, 4 bytes a pixel
 *   Render_Stats render_stats(const Renderer *r)
 *       draw calls and quads of the last frame
 *   bool render_gl_ready(char *why, size_t whysz)
 *       the current context is OpenGL 3.3 core or newer; else why says what it is
 *   void render_finish(Renderer *r)
 *       wait until the GPU has drawn everything (for timing a frame; a readback waits by itself)
 */
#ifndef ATTN_RENDER_H
#define ATTN_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "../gfx/draw.h"
#include "../gfx/text_metrics.h"
#include "damage.h"
#include "font.h"
#include "shader.h"

typedef struct Render_Desc {
    const char *data_dir; /* holds shaders/ and assets/fonts/ */
    int max_quads;        /* per batch; default 16384 */
} Render_Desc;

typedef struct Render_Stats {
    int draw_calls, quads, heatmaps, texture_uploads;
    int damage_rects;  /* scissored passes this frame; 0 when nothing changed */
    int64_t damage_px; /* device pixels painted again */
    bool full;         /* the whole frame was painted */
} Render_Stats;

#define RENDER_HEATMAP_TEXTURES 16

typedef struct Renderer {
    char data_dir[1024];
    Program programs[PROGRAM_COUNT];
    Font_Atlas atlas;
    unsigned int vao, vbo, ibo;
    unsigned int heat_vao, heat_vbo;
    struct Vertex *verts, *text_verts; /* shapes and glyphs of the current layer */
    int quad_count, text_count, max_quads;
    unsigned int colormap_tex;
    unsigned int heat_tex[RENDER_HEATMAP_TEXTURES];
    int heat_w[RENDER_HEATMAP_TEXTURES], heat_h[RENDER_HEATMAP_TEXTURES];
    uint64_t heat_hash[RENDER_HEATMAP_TEXTURES]; /* the grid each texture holds */
    int heat_next;
    float scale;
    int fb_w, fb_h;
    float proj[16];
    unsigned int fbo, fbo_color;
    int fbo_w, fbo_h;
    unsigned int target; /* the framebuffer a frame ends up in: 0 (the window) or fbo */
    /* The canvas keeps the last frame's pixels; a frame paints only what
     * changed into it (see damage.h), then copies it to the target. */
    unsigned int canvas, canvas_color;
    int canvas_w, canvas_h;
    bool canvas_ok;    /* the canvas framebuffer is complete */
    bool window_keeps; /* the window's framebuffer keeps its pixels: no canvas for it */
    bool shown_direct; /* `shown` describes the window itself, not the canvas */
    int shown_w, shown_h;
    bool canvas_valid;   /* it (or the window, painted directly) holds the items in `shown` */
    float canvas_scale;  /* the frame it holds was drawn at this scale … */
    Color canvas_clear;  /* … on this background */
    Damage_Item *items;  /* this frame's commands, by command index */
    uint64_t *grid_hash; /* heatmap commands: their grid's hash … */
    Damage_Rect *cover;  /* … and the pixels they paint opaquely */
    int *heats, heat_n;  /* this frame's heatmap commands, in order */
    Damage_Item *order;  /* this frame's items in painting order */
    Damage_Item *shown;  /* the canvas's items in painting order */
    int order_n, shown_n, item_cap;
    int pass_x0, pass_y0, pass_x1, pass_y1; /* the damage rect being painted */
    Render_Stats stats;
    bool redraw;
} Renderer;

bool render_init(Renderer *r, const Render_Desc *desc, char *err, size_t errsz);
void render_shutdown(Renderer *r);
bool render_reload_shaders(Renderer *r, char *err, size_t errsz);
void render_set_scale(Renderer *r, float scale);
Text_Metrics render_text_metrics(Renderer *r);
void render_frame(Renderer *r, const Draw_List *dl, int fb_w, int fb_h, Color clear);
void render_invalidate(Renderer *r);
void render_window_keeps_pixels(Renderer *r);
bool render_wants_redraw(const Renderer *r);
bool render_offscreen_begin(Renderer *r, int w, int h, char *err, size_t errsz);
void render_offscreen_end(Renderer *r);
int render_max_side(void);
void render_read_rgba(Renderer *r, int w, int h, unsigned char *dest);
Render_Stats render_stats(const Renderer *r);
bool render_gl_ready(char *why, size_t whysz);
void render_finish(Renderer *r);

#endif
