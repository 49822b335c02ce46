/* The Model view's state: a real model (the platform owns its files and
 * keeps them while it is attached), the text it reads, and its forward pass,
 * run a layer at a time within a budget a frame so no frame waits for a
 * whole pass, and what the view reads from it.
 *
 *   bool real_lab_attach(Real_Lab *l, const Real_Model *m, const char *name, char *err,
 *                        size_t errsz)
 *       a model to read (m NULL: none), its buffers made for n_positions tokens; the text
 *       is tokenized again and its pass starts. False (the lab as it was) when out of memory
 *   bool real_lab_set_text(Real_Lab *l, const char *text, size_t len, char *err, size_t errsz)
 *       a new text, tokenized now, its pass started; false with one line and the previous
 *       text kept for an empty one, not UTF-8, or longer than the model reads
 *   bool real_lab_work(Real_Lab *l, double budget_ms)
 *       the pass's next slices, at least one, until it is done or budget_ms has passed; then
 *       the open head's vectors. True when everything is up to date
 *   void real_lab_settle(Real_Lab *l)
 *       all of it now (headless runs and tests)
 *   void real_lab_open(Real_Lab *l, int layer, int head)
 *       the head shown (clamped to none outside the model: −1)
 *   int real_lab_next(const Real_Lab *l, double temperature, int k, int32_t *ids, double *p)
 *       after a complete pass: the k likeliest next tokens and their probabilities under
 *       softmax(logits / temperature); returns how many (0 before the pass is done)
 *   void real_lab_free(Real_Lab *l)
 */
#ifndef ATTN_REAL_LAB_H
#define ATTN_REAL_LAB_H

#include "../core/transformer.h"
#include "bpe.h"
#include "real_model.h"

#define REAL_LAB_NAME 512

typedef struct Real_Lab {
    const Real_Model *model; /* NULL: none attached */
    char name[REAL_LAB_NAME];
    char text[BPE_MAX_TEXT + 1];
    int32_t *ids; /* n_positions */
    int n;
    Tf_Run run;
    bool pass_done;
    long generation; /* counts finished passes: views cache by it */
    int open_layer, open_head;
    bool head_done;          /* Q, K, V, norm are the open head's for this generation */
    float *Q, *K, *V, *norm; /* n×d_h each, and n */
} Real_Lab;

bool real_lab_attach(Real_Lab *l, const Real_Model *m, const char *name, char *err, size_t errsz);
bool real_lab_set_text(Real_Lab *l, const char *text, size_t len, char *err, size_t errsz);
bool real_lab_work(Real_Lab *l, double budget_ms);
void real_lab_settle(Real_Lab *l);
void real_lab_open(Real_Lab *l, int layer, int head);
int real_lab_next(const Real_Lab *l, double temperature, int k, int32_t *ids, double *p);
void real_lab_free(Real_Lab *l);

#endif
