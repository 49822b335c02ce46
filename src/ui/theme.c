/* The default theme: dark panels on a darker background, so colormaps
 * read well on projectors. Query / key / value colours are the Okabe–Ito
 * colour-blind-safe set (orange, sky blue, bluish green). */
#include "theme.h"

#define COLOURS                                                                                    \
    .bg = {24, 26, 31, 255}, .panel = {34, 37, 44, 255}, .panel_border = {58, 62, 72, 255},        \
    .text = {235, 237, 240, 255}, .text_dim = {160, 166, 178, 255}, .accent = {86, 156, 214, 255}, \
    .accent_text = {255, 255, 255, 255}, .highlight = {240, 228, 66, 255},                         \
    .query = {230, 159, 0, 255}, .key = {86, 180, 233, 255}, .value = {0, 158, 115, 255},          \
    .error_bg = {150, 40, 40, 255}, .error_text = {255, 255, 255, 255},                            \
    .good = {0, 158, 115, 255}, .grid = {70, 75, 86, 255}

const Theme theme_default = {
    COLOURS, .text_size = 17, .small_size = 14, .title_size = 19, .pad = 10, .radius = 6,
};

const Theme theme_compact = {
    COLOURS, .text_size = 15, .small_size = 13, .title_size = 16, .pad = 7, .radius = 5,
};
