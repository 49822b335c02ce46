/* The Model view's state: a real model (the platform owns its files and
 * keeps them while it is attached), the text it reads, and its forward pass,
 * run a layer at a time within a budget a frame so no frame waits for a
 * whole pass, and what the view reads from it. Two runs take turns: the
 * view reads the last complete pass (`shown`) while the next one is
 * computed in the other, so the screen never mixes two texts.
 *
 *   bool real_lab_attach(Real_Lab *l, const Real_Model *m, const char *name, char *err,
 *                        size_t errsz)
 *       a model to read (m NULL: none); the text is tokenized again and its pass starts.
 *       False (the lab as it was) when out of memory
 *   bool real_lab_set_text(Real_Lab *l, const char *text, size_t len, char *err, size_t errsz)
 *       a new text, tokenized now, its pass started (buffers grow to its length); false with
 *       one line and the previous text kept for an empty one, not UTF-8, longer than the
 *       model reads, or out of memory
 *   bool real_lab_work(Real_Lab *l, double budget_ms)
 *       the pass's next slices, at least one, until it is done or budget_ms has passed; a
 *       complete pass is shown with every head's thumbnail (A averaged over blocks of cells
 *       to at most REAL_LAB_THUMB a side) and the block diagram's norms (stream_norm,
 *       attn_adds, mlp_adds: means over the tokens); then the open head's vectors, its
 *       value-weighted attention, and its queries and keys in one plane (stats_pca2 of both
 *       together; heads over 512 wide get none). True when everything is up to date
 *   void real_lab_settle(Real_Lab *l)
 *       all of it now (headless runs and tests)
 *   bool real_lab_threaded(Real_Lab *l, bool on)
 *       the pass on a thread of its own: real_lab_work starts it and takes it over once done,
 *       so a frame never waits for a layer, and an edit is on screen one frame after its pass
 *       (a new text or order stops the thread between two layers first). Off by default (the
 *       tests' and the checker's passes are sliced); false where there are no threads (the
 *       browser build)
 *   void real_lab_on_wake(Real_Lab *l, void (*wake)(void *ctx), void *ctx)
 *       wake(ctx) is called on the pass's thread (and the writing's) as it finishes, so a
 *       window asleep in its event loop draws the result at once, not at its next frame
 *   bool real_lab_on_threads(const Real_Lab *l)
 *       something is owed and all of it runs on threads (or the platform's worker): no frame
 *       is needed until one finishes (and wakes the window), bar one now and then for the
 *       progress shown
 *   void real_lab_remote(Real_Lab *l, const Real_Remote *remote)
 *       passes (and the writing's jobs) posted to the platform's worker (real_remote.h)
 *       where threads are not to be had (the browser); NULL: none. It outlives a model
 *   float *real_lab_landing(Real_Lab *l, int job, int field, int64_t floats)
 *   void real_lab_landed(Real_Lab *l, int job, const Net_Fault *fault)
 *       the worker's answer to pass `job`: where a Remote_Run_Field of that
 *       many floats goes (NULL for a stale job or a size its shapes do not hold), then the
 *       pass done, with where it stopped being finite (NULL: the worker could not run it;
 *       the pass then runs here in slices); it is shown at the next real_lab_work
 *   void real_lab_remote_stage(Real_Lab *l, int job, int stage)
 *       the worker says how many of pass job's layers are done (real_lab_stage)
 *   int real_lab_stage(const Real_Lab *l)
 *       the pass under way: how many of its layers (then the logits) are done
 *   bool real_lab_reorder(Real_Lab *l, const int *order)
 *       the text's tokens read in another order (order[i]: which token stands at i; a
 *       permutation of 0 … n − 1, else false, as when out of memory), or NULL for the
 *       text's own; the pass starts.
 *       Once it is done and the pass before was of the same text in another order, `change`
 *       says how far every head's A is from what a permutation-equivariant layer would give
 *       (the earlier A with rows and columns moved with their tokens): positions and the
 *       causal mask are why it is not 0
 *   bool real_lab_rearrange(Real_Lab *l, int how, unsigned shuffle)
 *       real_lab_reorder with the order as it stands reversed (how 0), shuffled (1: by a
 *       seed from shuffle, so each count gives another order) or as written (2)
 *   bool real_lab_move(Real_Lab *l, int from, int to)
 *       real_lab_reorder with the token at slot from taken out and put in at slot to, the
 *       ones between shifting over (a chip dragged along the row); false outside 0 … n − 1
 *   void real_lab_open(Real_Lab *l, int layer, int head)
 *       the head shown (clamped to none outside the model: −1)
 *   double real_lab_head_score(const Real_Lab *l, Real_Head_Kind kind, int layer, int head)
 *       in the shown pass, how much that head does what kind names, from 0 to 1 (NAN with no
 *       pass, no such head, or too few tokens to tell):
 *         REAL_HEAD_PREV    the mean weight of a query on the token just before it;
 *         REAL_HEAD_FIRST   the mean weight of a query on the first token;
 *         REAL_HEAD_PREFIX  over the tokens that occurred earlier, the mean weight on the
 *                           tokens that followed those earlier copies (an induction head's
 *                           prefix match; NAN when no token repeats)
 *         REAL_HEAD_TURN    with RoPE, the share of a row's weight RoPE's turn moves (the
 *                           pass's turn_moved: how much the head's pattern depends on
 *                           distance; NAN without RoPE)
 *       queries from the second token on, for the first token has only itself to look at
 *   bool real_lab_best_head(const Real_Lab *l, Real_Head_Kind kind, int *layer, int *head)
 *       the shown pass's head with the highest such score; false when no head has one
 *   void real_lab_want_turn(Real_Lab *l)
 *       from now on, with RoPE, passes compute every head's share of weight the turn moves
 *       (REAL_HEAD_TURN; a fifth more for a short pass, so only once something shows it);
 *       the shown pass, which has none, is run again in the same order
 *   void real_lab_find(Real_Lab *l, Real_Head_Kind kind)
 *       opens that best head, once the pass under way is shown (now if it is)
 *   double real_lab_weighted_first(const Real_Lab *l)
 *       the open head's share of its value-weighted attention on the first token (of
 *       a_ij·‖v_j W_O^h‖ over j, mean over queries from the second on); NAN until computed
 *   const Net_Run *real_lab_shown(const Real_Lab *l)
 *       the last complete pass, or NULL before the first; its tokens are shown_ids[0 … n)
 *   int real_lab_next(const Real_Lab *l, double temperature, int k, int32_t *ids, double *p)
 *       the shown pass's k likeliest next tokens and their probabilities under
 *       softmax(logits / temperature); returns how many (0 before the first pass)
 *   void real_lab_free(Real_Lab *l)
 */
#ifndef ATTN_REAL_LAB_H
#define ATTN_REAL_LAB_H

#include "../nn/net.h"
#include "real_gen.h"
#include "real_remote.h"
#include "../checkpoint/bpe.h"
#include "../checkpoint/real_model.h"

#define REAL_LAB_NAME      512
#define REAL_LAB_THUMB     48   /* cells a side of a head's picture in the grid */
#define REAL_LAB_BUDGET_MS 12.0 /* of the pass a window frame runs */

typedef enum Real_Head_Kind {
    REAL_HEAD_PREV,
    REAL_HEAD_FIRST,
    REAL_HEAD_PREFIX,
    REAL_HEAD_TURN,
    REAL_HEAD_KINDS
} Real_Head_Kind;

typedef struct Real_Lab {
    const Real_Model *model; /* NULL: none attached */
    char name[REAL_LAB_NAME];
    char text[BPE_MAX_TEXT + 1];
    int32_t *ids; /* the text's, n_positions of room */
    int n;
    int *order;        /* the order the pass reads them in: order[i] is the token at i */
    int32_t *input;    /* ids in that order: what the pass reads */
    int *run_order[2]; /* each run's order */
    long run_text[2];  /* each run's text (texts counts them) */
    long texts;
    int *qk_order;    /* scratch: where each token stood in the earlier order */
    bool has_change;  /* the shown pass and the one before are one text in two orders */
    bool keep_change; /* the next pass repeats the order: has_change and its numbers stay */
    bool want_turn;   /* passes compute every head's RoPE share (real_lab_want_turn) */
    double change_mean, change_max; /* |A − A moved with its tokens|, over every head's cells */
    /* the block diagram's numbers, for the shown pass, means over its tokens: */
    float stream_norm[MODEL_MAX_LAYERS + 1]; /* ‖x_l‖ */
    float attn_adds[MODEL_MAX_LAYERS];       /* ‖x'_l − x_l‖: what attention adds */
    float mlp_adds[MODEL_MAX_LAYERS];        /* ‖x_{l+1} − x'_l‖: what the MLP adds */
    Net_Run runs[2];
    int work;       /* the run the pass goes on in; the other is shown */
    bool pass_done; /* the text's pass is complete (and now shown) */
    bool has_shown; /* a pass is complete: runs[1 − work] */
    int32_t *shown_ids;
    int shown_n;
    long generation; /* counts finished passes: views cache by it */
    int open_layer, open_head;
    int find;       /* 1 + the Real_Head_Kind whose best head opens once the pass is shown, or 0 */
    bool head_done; /* Q, K, V, norm are the open head's in the shown pass */
    float *Q, *K, *V, *norm; /* shown_n×d_h each, and shown_n */
    float *weighted;         /* shown_n×shown_n: a_ij·‖v_j W_O^h‖ of the open head */
    float weighted_max;
    float *weighted_share; /* shown_n×shown_n: each row of weighted over its row's sum */
    float *unturned;       /* shown_n×shown_n, for a RoPE model: the open head's A from the same
                              q and k without RoPE's turn (softmax of q·k/√d_h, masked) */
    double turn_moves;     /* the share of a row's weight the turn puts elsewhere: half the
                              sum of |A − unturned| over a row, the mean over rows 1 … n − 1 */
    float *plane;          /* 2·shown_n × 2: the open head's q rows, then its k rows, on their
                              two principal axes (one PCA of both together) */
    double plane_share;    /* the share of their variance those two axes hold */
    float *qk;             /* scratch: q rows then k rows */
    double *pca;           /* scratch: mean, 2 axes, covariance */
    float *thumbs; /* layers×heads×thumb², every head's A pooled to at most REAL_LAB_THUMB */
    int thumb;
    char note[1024]; /* with no model: where the platform looked, and how to get one */
    char fault[300]; /* the text's pass is not finite: where (net_fault_text), else "" */
    bool threaded;   /* the pass runs on a thread of its own (real_lab_threaded) */
    struct Real_Worker *worker;
    const Real_Remote *remote; /* real_lab_remote: the browser's worker, or NULL */
    Remote_Wait wait;          /* the pass posted to it */
    bool refused;              /* it could not run this text's pass: slices */
    void (*wake)(void *ctx);   /* real_lab_on_wake */
    void *wake_ctx;
    Real_Gen gen; /* the model writing after the text (real_gen.h); emptied when it changes */
} Real_Lab;

bool real_lab_attach(Real_Lab *l, const Real_Model *m, const char *name, char *err, size_t errsz);
bool real_lab_set_text(Real_Lab *l, const char *text, size_t len, char *err, size_t errsz);
bool real_lab_reorder(Real_Lab *l, const int *order);
bool real_lab_rearrange(Real_Lab *l, int how, unsigned shuffle);
bool real_lab_move(Real_Lab *l, int from, int to);
bool real_lab_work(Real_Lab *l, double budget_ms);
bool real_lab_threaded(Real_Lab *l, bool on);
void real_lab_on_wake(Real_Lab *l, void (*wake)(void *ctx), void *ctx);
bool real_lab_on_threads(const Real_Lab *l);
void real_lab_remote(Real_Lab *l, const Real_Remote *remote);
float *real_lab_landing(Real_Lab *l, int job, int field, int64_t floats);
void real_lab_landed(Real_Lab *l, int job, const Net_Fault *fault);
void real_lab_remote_stage(Real_Lab *l, int job, int stage);
int real_lab_stage(const Real_Lab *l);
void real_lab_settle(Real_Lab *l);
void real_lab_open(Real_Lab *l, int layer, int head);
double real_lab_head_score(const Real_Lab *l, Real_Head_Kind kind, int layer, int head);
bool real_lab_best_head(const Real_Lab *l, Real_Head_Kind kind, int *layer, int *head);
void real_lab_want_turn(Real_Lab *l);
void real_lab_find(Real_Lab *l, Real_Head_Kind kind);
double real_lab_weighted_first(const Real_Lab *l);
const Net_Run *real_lab_shown(const Real_Lab *l);
int real_lab_next(const Real_Lab *l, double temperature, int k, int32_t *ids, double *p);
void real_lab_free(Real_Lab *l);

#endif
