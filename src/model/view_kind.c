/* The app's views by name; see view_kind.h. */
#include "view_kind.h"

#include <string.h>

static const char *const names[VIEW_COUNT] = {"explorer", "scaling", "permutation",
                                              "train",    "shift",   "model"};

const char *view_name(View v) {
    return v >= 0 && v < VIEW_COUNT ? names[v] : "?";
}

bool view_parse(const char *name, View *dest) {
    for (int v = 0; v < VIEW_COUNT; v++)
        if (strcmp(name, names[v]) == 0) {
            *dest = (View)v;
            return true;
        }
    return false;
}

const char *view_names_list(void) {
    return "explorer, scaling, permutation, train, shift, model";
}
