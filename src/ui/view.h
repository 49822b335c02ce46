/* The whole interface for one frame: top bar, token chips, the panels of
 * the current view and the status line. Reads the model, changes it only
 * through model actions.
 *
 *   view_init(vs)
 *   view_frame(ui, vs, model)     build the frame's draw list
 *   view_name(v)
 */
#ifndef ATTN_VIEW_H
#define ATTN_VIEW_H

#include "../model/model.h"
#include "ui.h"

typedef enum View { VIEW_EXPLORER = 0, VIEW_SCALING, VIEW_PERMUTATION, VIEW_COUNT } View;

typedef struct View_State {
    View view;
    int selected; /* query row */
    Colormap weight_map;
    char status[512];
    bool status_error;
    int hover_row, hover_col; /* cell under the mouse in S or A, or -1 */
} View_State;

void view_init(View_State *vs);
void view_frame(Ui *ui, View_State *vs, Model *m);
const char *view_name(View v);

#endif
