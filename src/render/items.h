/* What each command of a draw list covers, for the renderer's damage
 * tracking (damage.h): its bounds in device pixels within its clip, a hash
 * of everything that decides its pixels, and the commands in the order
 * their pixels are painted. Also the geometry the renderer shares with it
 * (a line's quad, a text run's glyph quads, a clip in pixels), so bounds
 * and painting never disagree. No GL here.
 *
 *   void items_line_quad(const Renderer *r, const Draw_Cmd *cmd, float xy[8], float uv[8],
 *                        float p[4])
 *       a line's quad: a rectangle along it, round caps and fringe included
 *   void items_text(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd,
 *                   void (*glyph)(void *ctx, const float xy[8], const float uv[8]), void *ctx)
 *       each glyph quad of a text run, in logical units, with its atlas coordinates; a glyph
 *       the full atlas cannot hold sets r->redraw
 *   Damage_Rect items_clip_px(const Renderer *r, Rect q)
 *       a logical rect in device pixels, rounded outwards as scissoring needs
 *   bool items_reserve(Renderer *r, int count)
 *       room for count commands' items (grown, never per frame); false when out of memory
 *   void items_build(Renderer *r, const Draw_List *dl)
 *       r->items by command, r->order in painting order, r->heats and their r->cover
 *   bool items_hidden(const Renderer *r, int i, const Damage_Rect *d, const int *occ,
 *                     int occ_n)
 *       a heatmap drawn after command i (of occ, in order) covers all of it within d
 *   void items_free(Renderer *r)
 */
#ifndef ATTN_ITEMS_H
#define ATTN_ITEMS_H

#include "render.h"

void items_line_quad(const Renderer *r, const Draw_Cmd *cmd, float xy[8], float uv[8], float p[4]);
void items_text(Renderer *r, const Draw_List *dl, const Draw_Cmd *cmd,
                void (*glyph)(void *ctx, const float xy[8], const float uv[8]), void *ctx);
Damage_Rect items_clip_px(const Renderer *r, Rect q);
bool items_reserve(Renderer *r, int count);
void items_build(Renderer *r, const Draw_List *dl);
bool items_hidden(const Renderer *r, int i, const Damage_Rect *d, const int *occ, int occ_n);
void items_free(Renderer *r);

#endif
