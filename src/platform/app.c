/* The windowed app. The window, renderer and panels arrive with the renderer
 * and explorer work; until then the window modes say so plainly. */
#include "app.h"

#include <stdio.h>

int app_run(const App_Desc *desc) {
    (void)desc;
    fprintf(stderr, "attnlab: the window is not available in this build yet; "
                    "use --export or --experiment\n");
    return 1;
}
