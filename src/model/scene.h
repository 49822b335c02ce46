/* The scene: everything a user can change, and what is derived from it.
 *
 * A Scene is plain data (no pointers), so it can be copied for undo and
 * compared with memcmp-free helpers. Derived holds the projections, the
 * positional term and the attention results recomputed from a scene; it
 * never feeds back into the scene.
 *
 *   void scene_default(Scene *s)
 *       the built-in fallback scene settings
 *   bool scene_validate(const Scene *s, char *err, size_t errsz)
 *       every field inside its limits
 *   bool scene_set_tokens(Scene *s, const char *const *words, int n, const Vocab *vocab, char *err,
 *       size_t errsz)
 *       new tokens, X from vocab
 *   bool scene_token_ok(const char *w, char *why, size_t whysz)
 *       one word: 1 to 31 bytes of strict UTF-8, no whitespace, no control characters; else why
 *       says what is wrong
 *   bool scene_set_sentence(Scene *s, const char *text, const Vocab *vocab, char *err,
 *       size_t errsz)
 *       whitespace-split text
 *   void scene_set_d(Scene *s, int d, const Vocab *vocab)
 *       keep shared columns, embed new ones
 *   void scene_permute(Scene *s, const int *p)
 *       new position i holds old token p[i]
 *   bool scene_equal(const Scene *a, const Scene *b)
 *       same tokens, shape, settings and X bits
 *   const char *pos_mode_name(Pos_Mode m)
 *   bool pos_mode_parse(const char *name, Pos_Mode *dest)
 *   bool pos_mode_added(Pos_Mode m)
 *       sin and learned: a term P is added to X
 *   void scene_positions(const Scene *s, float *P)
 *       the added term P (n×d) of an added mode, from pos_offset on
 *   double scene_alibi_slope(const Scene *s, int h)
 *       head h's (0-based) ALiBi slope, 0 unless pos is alibi
 *   bool derived_update(Derived *dv, const Scene *s)
 *       recompute W (only if seed or shape changed, or the scene's learned head), P, attention
 *   bool scene_uses_learned(const Scene *s, const Learned_Head *h)
 *       the scene is learned and h fits its shape: its weights are h's
 *   bool derived_update_token(Derived *dv, const Scene *s, int i)
 *       only token i's embedding changed since the last update
 *   void derived_free(Derived *dv)
 *   const Attn *derived_head(const Derived *dv, int h)
 *       head h (0-based) of the last update
 *   const float *derived_w(const Derived *dv, int h, Proj_Kind kind)
 *       head h's W_Q, W_K or W_V
 */
#ifndef ATTN_SCENE_H
#define ATTN_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../nn/attend.h"
#include "../core/projection.h"
#include "limits.h"
#include "vocab.h"

/* How position enters (core/posenc.h): added to X (sin, learned) or in the
 * attention rule (rope turns q and k, alibi biases the scores). */
typedef enum Pos_Mode {
    POS_NONE = 0,
    POS_SIN = 1,
    POS_LEARNED = 2,
    POS_ROPE = 3,
    POS_ALIBI = 4,
    POS_MODE_COUNT
} Pos_Mode;
typedef enum Mask_Mode { MASK_NONE = 0, MASK_CAUSAL = 1 } Mask_Mode;

typedef struct Scene {
    int n, d, d_k, d_v;
    uint32_t seed;
    bool scaled;
    Pos_Mode pos;
    float pos_strength; /* multiplier of an added term (sin, learned) */
    int pos_offset;     /* the first token's position: 0 … ATTN_MAX_POS_OFFSET */
    float rope_base;    /* rope's θ_m = base^(−2m/d_k) */
    int heads;          /* H: heads 2..H each have their own projections */
    Mask_Mode mask;     /* causal: query i sees keys j <= i */
    char tokens[ATTN_MAX_TOKENS][ATTN_MAX_TOKEN_BYTES];
    float X[ATTN_MAX_TOKENS * ATTN_MAX_D]; /* n×d, row stride d */
    int origin[ATTN_MAX_TOKENS];           /* original index of the token now at i */
    bool learned; /* one head with trained weights (Learned_Head), not the seed's */
} Scene;

/* A head's trained weights, for a scene with `learned` set: the layers lab
 * opens one in the explorer. While the scene's shape matches them (one head,
 * this d, d_k and d_v) they are the scene's W_Q, W_K, W_V and W_O; a new seed,
 * d, d_k, d_v or head count goes back to the seed's random weights. */
#define LEARNED_MAX_W 64
typedef struct Learned_Head {
    bool ready;
    uint32_t generation; /* a new head: the derived weights follow */
    int d, d_k, d_v;
    float W_Q[LEARNED_MAX_W * LEARNED_MAX_W], W_K[LEARNED_MAX_W * LEARNED_MAX_W];
    float W_V[LEARNED_MAX_W * LEARNED_MAX_W], W_O[LEARNED_MAX_W * LEARNED_MAX_W];
    char what[120]; /* "layer 1 head 0 of the layers lab, step 800" */
    int layer;      /* the layer the head is in, for what X holds */
    enum {
        LEARNED_X_EMBEDDINGS, /* a head trained on the scene's own embeddings */
        LEARNED_X_STREAM,     /* the layers lab's residual stream at the head's layer */
        LEARNED_X_FACTORS,    /* a real model's head: coordinates whose rows times W give its
                                 q, k, v (the stream as that head sees it) */
    } x_kind;
} Learned_Head;

/* Heads 2 to H: their own projections. */
typedef struct Derived_Head {
    float *W_Q, *W_K, *W_V;
} Derived_Head;

typedef struct Derived {
    const Learned_Head *learned; /* the model's, for a learned scene; may be NULL */
    /* cache key of the projections */
    bool have_w;
    bool from_learned; /* they are learned->W_*, of learned->generation */
    uint32_t generation;
    uint32_t seed;
    int d, d_k, d_v, heads;
    float *W_Q, *W_K, *W_V; /* head 1: d×d_k, d×d_k, d×d_v */
    float *P;               /* n×d, valid when has_p */
    bool has_p;
    size_t cap_p;                          /* elements allocated for P */
    Derived_Head more[ATTN_MAX_HEADS - 1]; /* heads 2..H */
    float *W_O;                            /* (H·d_v)×d */
    size_t cap_o;
    Attend pass; /* every head's matrices, as the layer stack computed them */
    /* the heads together: Y = Concat(O¹ … Oᴴ)·W_O, back in embedding space (the pass's) */
    const float *concat; /* n×(H·d_v) */
    const float *Y;      /* n×d */
} Derived;

void scene_default(Scene *s);
bool scene_validate(const Scene *s, char *err, size_t errsz);
bool scene_set_tokens(Scene *s, const char *const *words, int n, const Vocab *vocab, char *err,
                      size_t errsz);
bool scene_token_ok(const char *w, char *why, size_t whysz);
bool scene_set_sentence(Scene *s, const char *text, const Vocab *vocab, char *err, size_t errsz);
void scene_set_d(Scene *s, int d, const Vocab *vocab);
void scene_permute(Scene *s, const int *p);
bool scene_equal(const Scene *a, const Scene *b);
const char *pos_mode_name(Pos_Mode m);
bool pos_mode_parse(const char *name, Pos_Mode *dest);
bool pos_mode_added(Pos_Mode m);
void scene_positions(const Scene *s, float *P);
double scene_alibi_slope(const Scene *s, int h);

bool derived_update(Derived *dv, const Scene *s);
bool scene_uses_learned(const Scene *s, const Learned_Head *h);
bool derived_update_token(Derived *dv, const Scene *s, int i);
void derived_free(Derived *dv);
const Attn *derived_head(const Derived *dv, int h);
const float *derived_w(const Derived *dv, int h, Proj_Kind kind);

#endif
