/* The windowed app: everything that needs SDL, GL and a display.
 *
 *   app_run(desc)   open the window (or render offscreen for --screenshot,
 *                   --dump-ui, --bench) and return the process exit status
 */
#ifndef ATTN_APP_H
#define ATTN_APP_H

#include "../model/scene.h"
#include "cli.h"

typedef struct App_Desc {
    const Cli_Options *opts;
    const Scene *scene;
    const Vocab *vocab;
    const char *data_dir;
    const char *scene_path; /* --scene, or NULL: Ctrl+S then writes attnlab-scene.json */
    double start_ms;        /* CLOCK_MONOTONIC when main began, for --bench */
} App_Desc;

int app_run(const App_Desc *desc);

#endif
