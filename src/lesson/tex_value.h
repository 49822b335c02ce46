/* What a formula's \val{…} names: a live number of the scene that a lesson
 * shows inside its maths (tex.h parses the formula; the lesson panel fills
 * the number in each frame).
 *
 *   bool tex_value_name(const char *s, size_t n, Tex_Value *v)
 *       what \val{…} names: a_{ij}, s_{ij}, d_k, n or d (indices 1-based); of the open real
 *       model, layers, heads, d_h (a head's width) and d_model
 */
#ifndef ATTN_TEX_VALUE_H
#define ATTN_TEX_VALUE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum Tex_Value_Kind {
    TEX_VALUE_WEIGHT, /* a_{ij} */
    TEX_VALUE_SCORE,  /* s_{ij}, the scaled score as S shows it */
    TEX_VALUE_DK,
    TEX_VALUE_N,
    TEX_VALUE_D,
    TEX_VALUE_LAYERS, /* the open real model's, so lesson text is true to the model on screen */
    TEX_VALUE_HEADS,
    TEX_VALUE_KV_HEADS, /* key/value heads (grouped-query attention: fewer than heads) */
    TEX_VALUE_DH,
    TEX_VALUE_DMODEL,
} Tex_Value_Kind;

typedef struct Tex_Value {
    Tex_Value_Kind kind;
    int i, j; /* 1-based, for a and s */
} Tex_Value;

bool tex_value_name(const char *s, size_t n, Tex_Value *v);

#endif
