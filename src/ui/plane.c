/* Data ↔ screen for the 2D plots; see plane.h. */
#include "plane.h"

#include <cglm/cglm.h>

#include <math.h>

/* Half the plot's side in pixels; never zero, so a 1-pixel window still maps. */
static float plane_half(const Plane_Map *p) {
    return fmaxf(fminf(p->r.w, p->r.h) * 0.5f, 1e-3f);
}

/* Data → screen as one 2D affine matrix: move the data centre to the
 * origin, scale (flipping y, which grows downward on screen), move to the
 * plot's centre. The inverse maps a drag back to data. */
static void plane_matrix(const Plane_Map *p, mat3 dest) {
    float k = plane_half(p) / p->span;
    glm_translate2d_make(dest, (vec2){p->r.x + p->r.w * 0.5f, p->r.y + p->r.h * 0.5f});
    glm_scale2d(dest, (vec2){k, -k});
    glm_translate2d(dest, (vec2){-p->cx, -p->cy});
}

void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy) {
    mat3 m;
    plane_matrix(p, m);
    vec3 v;
    glm_mat3_mulv(m, (vec3){x, y, 1.0f}, v);
    *sx = v[0];
    *sy = v[1];
}

void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y) {
    mat3 m, inv;
    plane_matrix(p, m);
    glm_mat3_inv(m, inv);
    vec3 v;
    glm_mat3_mulv(inv, (vec3){sx, sy, 1.0f}, v);
    *x = v[0];
    *y = v[1];
}

/* The smallest "nice" span (1, 1.5, 2, 3, 5 × 10^k) covering v. */
float nice_span(float v) {
    static const float steps[] = {1, 1.5f, 2, 3, 5};
    float base = powf(10, floorf(log10f(fmaxf(v, 1e-3f))));
    for (int k = 0; k < 5; k++)
        if (steps[k] * base >= v) return steps[k] * base;
    return 10 * base;
}

bool plane_label_spot(const Rect *placed, int count, float x, float y, float r, float w, float lh,
                      bool sideways, Rect *spot) {
    Rect spots[4] = {{x - w * 0.5f, y - r - lh, w, lh},
                     {x - w * 0.5f, y + r, w, lh},
                     {x + r + 2, y - lh * 0.5f, w, lh},
                     {x - r - 2 - w, y - lh * 0.5f, w, lh}};
    for (int q = 0; q < 4; q++) {
        int k = sideways ? (q + 2) % 4 : q;
        bool free = true;
        for (int q = 0; q < count && free; q++)
            free =
                spots[k].x + spots[k].w <= placed[q].x || placed[q].x + placed[q].w <= spots[k].x ||
                spots[k].y + spots[k].h <= placed[q].y || placed[q].y + placed[q].h <= spots[k].y;
        if (free) {
            *spot = spots[k];
            return true;
        }
    }
    *spot = spots[sideways ? 2 : 0];
    return false;
}
