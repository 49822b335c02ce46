/* The app's views, named once: the command line (--view), lesson files
 * (view, goal view), scene-independent UI state and --dump-ui all use these.
 *
 *   const char *view_name(View v)
 *       "explorer", "scaling", "permutation", "train", "shift", "model"
 *   bool view_parse(const char *name, View *dest)
 *       the View a name means; false if none
 *   const char *view_names_list(void)
 *       "explorer, scaling, permutation, train, shift, model"
 */
#ifndef ATTN_VIEW_KIND_H
#define ATTN_VIEW_KIND_H

#include <stdbool.h>

typedef enum View {
    VIEW_EXPLORER = 0,
    VIEW_SCALING,
    VIEW_PERMUTATION,
    VIEW_TRAIN,
    VIEW_SHIFT,
    VIEW_MODEL, /* a real model (GPT-2): every head */
    VIEW_COUNT
} View;

const char *view_name(View v);
bool view_parse(const char *name, View *dest);
const char *view_names_list(void);

#endif
