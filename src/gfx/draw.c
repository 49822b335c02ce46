/* The draw list; see draw.h. */
#include "draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What an ordinary frame needs: the buffers start here and grow past it only
 * when a frame does. */
#define START_CMDS 16384
#define START_TEXT (256 * 1024)
#define START_GRID (6 * 512 * 512)

static int imin(int a, int b) {
    return a < b ? a : b;
}

bool draw_init(Draw_List *dl, const Draw_Desc *desc) {
    memset(dl, 0, sizeof *dl);
    dl->max_cmds = desc->max_cmds ? desc->max_cmds : 1 << 20;
    dl->max_text = desc->max_text ? desc->max_text : 16 << 20;
    dl->max_grid = desc->max_grid ? desc->max_grid : 32 * 512 * 512;
    dl->cap = imin(START_CMDS, dl->max_cmds);
    dl->text_cap = imin(START_TEXT, dl->max_text);
    dl->grid_cap = dl->max_grid < START_GRID ? dl->max_grid : START_GRID;
    dl->cmds = malloc(sizeof *dl->cmds * (size_t)dl->cap);
    dl->text = malloc((size_t)dl->text_cap);
    dl->grid = malloc(sizeof *dl->grid * (size_t)dl->grid_cap);
    if (!dl->cmds || !dl->text || !dl->grid) {
        draw_free(dl);
        return false;
    }
    return true;
}

void draw_free(Draw_List *dl) {
    free(dl->cmds);
    free(dl->text);
    free(dl->grid);
    memset(dl, 0, sizeof *dl);
}

void draw_clear(Draw_List *dl) {
    dl->count = 0;
    dl->text_len = 0;
    dl->grid_len = 0;
    dl->dropped = 0;
}

/* Room for `need` more of `size`-byte items in a buffer holding `len` of
 * `*cap`: the capacity doubles (at most to `max`). Commands refer to text and
 * grids by offset, so moving a buffer breaks nothing. false past `max` or
 * when memory runs out: the caller drops the command and counts it. */
static bool reserve(void **buf, int32_t *cap, int32_t len, int32_t need, int32_t max, size_t size) {
    if (need > max - len) return false;
    if (len + need <= *cap) return true;
    int32_t want = *cap;
    while (want < len + need) want = want > max / 2 ? max : want * 2;
    void *p = realloc(*buf, size * (size_t)want);
    if (!p) return false;
    *buf = p;
    *cap = want;
    return true;
}

static Draw_Cmd *push(Draw_List *dl, Draw_Kind kind, Color c) {
    int32_t cap = dl->cap;
    void *buf = dl->cmds;
    bool ok = reserve(&buf, &cap, dl->count, 1, dl->max_cmds, sizeof *dl->cmds);
    dl->cmds = buf;
    dl->cap = cap;
    if (!ok) {
        dl->dropped++;
        return NULL;
    }
    Draw_Cmd *cmd = &dl->cmds[dl->count++];
    cmd->kind = kind;
    cmd->color = c;
    return cmd;
}

void draw_rect(Draw_List *dl, Rect r, Color c) {
    draw_round_rect(dl, r, 0, c);
}

void draw_round_rect(Draw_List *dl, Rect r, float radius, Color c) {
    Draw_Cmd *cmd = push(dl, DRAW_RECT, c);
    if (cmd) {
        cmd->rect.r = r;
        cmd->rect.radius = radius;
        cmd->rect.thickness = 0;
    }
}

void draw_rect_outline(Draw_List *dl, Rect r, float radius, float width, Color c) {
    Draw_Cmd *cmd = push(dl, DRAW_RECT, c);
    if (cmd) {
        cmd->rect.r = r;
        cmd->rect.radius = radius;
        cmd->rect.thickness = width;
    }
}

void draw_circle(Draw_List *dl, float cx, float cy, float radius, Color c) {
    draw_round_rect(dl, (Rect){cx - radius, cy - radius, 2 * radius, 2 * radius}, radius, c);
}

void draw_circle_outline(Draw_List *dl, float cx, float cy, float radius, float width, Color c) {
    draw_rect_outline(dl, (Rect){cx - radius, cy - radius, 2 * radius, 2 * radius}, radius, width,
                      c);
}

void draw_line(Draw_List *dl, float x0, float y0, float x1, float y1, float width, Color c) {
    Draw_Cmd *cmd = push(dl, DRAW_LINE, c);
    if (cmd) {
        cmd->line.x0 = x0;
        cmd->line.y0 = y0;
        cmd->line.x1 = x1;
        cmd->line.y1 = y1;
        cmd->line.width = width;
    }
}

void draw_arrow(Draw_List *dl, float x0, float y0, float x1, float y1, float width, float head,
                Color c) {
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1e-6f) return;
    float ux = dx / len, uy = dy / len;
    if (head > len) head = len;
    /* the shaft stops inside the head so the round cap does not poke out */
    float bx = x1 - ux * head * 0.8f, by = y1 - uy * head * 0.8f;
    draw_line(dl, x0, y0, bx, by, width, c);
    float hw = head * 0.5f;
    float tx[3] = {x1, x1 - ux * head - uy * hw, x1 - ux * head + uy * hw};
    float ty[3] = {y1, y1 - uy * head + ux * hw, y1 - uy * head - ux * hw};
    draw_triangle(dl, tx, ty, c);
}

void draw_triangle(Draw_List *dl, const float x[3], const float y[3], Color c) {
    Draw_Cmd *cmd = push(dl, DRAW_TRIANGLE, c);
    if (cmd) {
        memcpy(cmd->tri.x, x, sizeof cmd->tri.x);
        memcpy(cmd->tri.y, y, sizeof cmd->tri.y);
    }
}

void draw_textn(Draw_List *dl, Font_Id font, float size, float x, float y, Align align, Color c,
                const char *text, int len) {
    if (len <= 0) return;
    int32_t cap = dl->text_cap;
    void *buf = dl->text;
    bool ok = reserve(&buf, &cap, dl->text_len, len, dl->max_text, 1);
    dl->text = buf;
    dl->text_cap = cap;
    if (!ok) {
        dl->dropped++;
        return;
    }
    Draw_Cmd *cmd = push(dl, DRAW_TEXT, c);
    if (!cmd) return;
    memcpy(dl->text + dl->text_len, text, (size_t)len);
    cmd->text.x = x;
    cmd->text.y = y;
    cmd->text.size = size;
    cmd->text.font = font;
    cmd->text.align = align;
    cmd->text.offset = dl->text_len;
    cmd->text.len = len;
    dl->text_len += len;
}

void draw_text(Draw_List *dl, Font_Id font, float size, float x, float y, Align align, Color c,
               const char *text) {
    draw_textn(dl, font, size, x, y, align, c, text, (int)strlen(text));
}

void draw_heatmap(Draw_List *dl, Rect r, const float *grid, int rows, int cols, float vmin,
                  float vmax, Colormap map) {
    if (rows <= 0 || cols <= 0) return;
    if ((int64_t)rows * cols > dl->max_grid) {
        dl->dropped++;
        return;
    }
    int32_t count = rows * cols;
    void *buf = dl->grid;
    bool ok = reserve(&buf, &dl->grid_cap, dl->grid_len, count, dl->max_grid, sizeof *dl->grid);
    dl->grid = buf;
    if (!ok) {
        dl->dropped++;
        return;
    }
    Draw_Cmd *cmd = push(dl, DRAW_HEATMAP, rgba(255, 255, 255, 255));
    if (!cmd) return;
    /* a masked score (−∞) has no colour of its own: it goes in as vmin, and
     * the UI draws masked cells over it */
    for (int32_t k = 0; k < count; k++)
        dl->grid[dl->grid_len + k] = isfinite(grid[k]) ? grid[k] : vmin;
    cmd->heat.r = r;
    cmd->heat.rows = rows;
    cmd->heat.cols = cols;
    cmd->heat.offset = dl->grid_len;
    cmd->heat.vmin = vmin;
    cmd->heat.vmax = vmax;
    cmd->heat.map = map;
    dl->grid_len += count;
}

void draw_clip(Draw_List *dl, Rect r) {
    Draw_Cmd *cmd = push(dl, DRAW_CLIP, rgba(0, 0, 0, 0));
    if (cmd) {
        cmd->clip.r = r;
        cmd->clip.on = true;
    }
}

void draw_noclip(Draw_List *dl) {
    Draw_Cmd *cmd = push(dl, DRAW_CLIP, rgba(0, 0, 0, 0));
    if (cmd) cmd->clip.on = false;
}

void draw_layer(Draw_List *dl) {
    push(dl, DRAW_LAYER, rgba(0, 0, 0, 0));
}
