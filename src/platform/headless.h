/* The modes that answer without a window on screen. The screenshot and the
 * benchmark draw through a GL context that the backend opened hidden;
 * --dump-ui needs only the fonts' metrics.
 *
 *   int headless_screenshot(App *a)     --screenshot FILE.png: one settled frame
 *   int headless_bench(App *a, double process_start_ms)   --bench: drags at n = 6 … 512
 *   int headless_dump_ui(const App_Desc *desc)
 *       --dump-ui: the laid-out interface as JSON; --export-figure: the frame through cairo
 * Each returns the process exit status.
 */
#ifndef ATTN_HEADLESS_H
#define ATTN_HEADLESS_H

#include "app.h"

int headless_screenshot(App *a);
int headless_bench(App *a, double process_start_ms);
int headless_dump_ui(const App_Desc *desc);

#endif
