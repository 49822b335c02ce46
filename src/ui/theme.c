/* The themes; see theme.h. Query / key / value colours are the Okabe–Ito
 * colour-blind-safe set (orange, sky blue, bluish green), darkened on the
 * light theme and brightened on the contrast theme so text in them keeps
 * its contrast. */
#include "theme.h"

#include <string.h>

#define SIZES_FULL    .text_size = 17, .small_size = 14, .title_size = 19, .pad = 10, .radius = 6
#define SIZES_COMPACT .text_size = 15, .small_size = 13, .title_size = 16, .pad = 7, .radius = 5

#define DARK                                                                                       \
    .bg = {24, 26, 31, 255}, .panel = {34, 37, 44, 255}, .panel_border = {58, 62, 72, 255},        \
    .text = {235, 237, 240, 255}, .text_dim = {160, 166, 178, 255}, .accent = {44, 112, 184, 255}, \
    .accent_text = {255, 255, 255, 255}, .highlight = {240, 228, 66, 255},                         \
    .query = {230, 159, 0, 255}, .key = {86, 180, 233, 255}, .value = {0, 158, 115, 255},          \
    .error_bg = {150, 40, 40, 255}, .error_text = {255, 255, 255, 255},                            \
    .good = {0, 158, 115, 255}, .grid = {70, 75, 86, 255}, .plot = {20, 22, 27, 255},              \
    .field = {16, 18, 22, 255}, .button = {58, 62, 72, 255}, .button_hot = {78, 84, 98, 255},      \
    .button_down = {100, 110, 128, 255}, .on_bright = {0, 0, 0, 255},                              \
    .faint = {200, 200, 200, 110}, .point_ring = {0, 0, 0, 200}, .masked = {58, 60, 68, 255},      \
    .masked_mark = {110, 114, 126, 255}, .cell_line = {0, 0, 0, 90}, .good_bg = {20, 70, 55, 255}, \
    .bad_bg = {90, 45, 20, 255}, .goal_bg = {44, 48, 58, 255}, .math = {255, 214, 140, 255},       \
    .code = {170, 220, 255, 255}, .math_error = {255, 110, 100, 255}, .dim = {0, 0, 0, 150},       \
    .line = 1

#define LIGHT                                                                                      \
    .bg = {236, 238, 242, 255}, .panel = {255, 255, 255, 255},                                     \
    .panel_border = {204, 208, 216, 255}, .text = {20, 22, 26, 255},                               \
    .text_dim = {84, 90, 102, 255}, .accent = {0, 96, 170, 255},                                   \
    .accent_text = {255, 255, 255, 255}, .highlight = {120, 80, 0, 255},                           \
    .query = {168, 84, 0, 255}, .key = {0, 104, 168, 255}, .value = {0, 118, 86, 255},             \
    .error_bg = {170, 30, 30, 255}, .error_text = {255, 255, 255, 255}, .good = {0, 118, 86, 255}, \
    .grid = {214, 218, 226, 255}, .plot = {250, 251, 253, 255}, .field = {255, 255, 255, 255},     \
    .button = {220, 224, 232, 255}, .button_hot = {186, 192, 204, 255},                            \
    .button_down = {160, 168, 184, 255}, .on_bright = {255, 255, 255, 255},                        \
    .faint = {90, 96, 110, 120}, .point_ring = {255, 255, 255, 230},                               \
    .masked = {214, 216, 222, 255}, .masked_mark = {150, 154, 166, 255},                           \
    .cell_line = {255, 255, 255, 110}, .good_bg = {214, 240, 228, 255},                            \
    .bad_bg = {250, 226, 208, 255}, .goal_bg = {240, 242, 246, 255}, .math = {110, 60, 0, 255},    \
    .code = {0, 80, 150, 255}, .math_error = {190, 20, 20, 255}, .dim = {0, 0, 0, 90}, .line = 1

#define CONTRAST                                                                                   \
    .bg = {0, 0, 0, 255}, .panel = {0, 0, 0, 255}, .panel_border = {255, 255, 255, 255},           \
    .text = {255, 255, 255, 255}, .text_dim = {225, 225, 225, 255},                                \
    .accent = {120, 190, 255, 255}, .accent_text = {0, 0, 0, 255},                                 \
    .highlight = {255, 240, 60, 255}, .query = {255, 176, 0, 255}, .key = {120, 205, 255, 255},    \
    .value = {40, 220, 160, 255}, .error_bg = {255, 255, 255, 255},                                \
    .error_text = {160, 0, 0, 255}, .good = {40, 220, 160, 255}, .grid = {120, 120, 120, 255},     \
    .plot = {0, 0, 0, 255}, .field = {0, 0, 0, 255}, .button = {0, 0, 0, 255},                     \
    .button_hot = {60, 60, 60, 255}, .button_down = {100, 100, 100, 255},                          \
    .on_bright = {0, 0, 0, 255}, .faint = {255, 255, 255, 170}, .point_ring = {0, 0, 0, 255},      \
    .masked = {50, 50, 50, 255}, .masked_mark = {200, 200, 200, 255}, .cell_line = {0, 0, 0, 160}, \
    .good_bg = {0, 0, 0, 255}, .bad_bg = {0, 0, 0, 255}, .goal_bg = {0, 0, 0, 255},                \
    .math = {255, 225, 150, 255}, .code = {170, 225, 255, 255},                                    \
    .math_error = {255, 120, 110, 255}, .dim = {0, 0, 0, 200}, .line = 2, .plates = true

static const Theme themes[THEME_COUNT][2] = {
    [THEME_DARK] = {{DARK, SIZES_FULL}, {DARK, SIZES_COMPACT}},
    [THEME_LIGHT] = {{LIGHT, SIZES_FULL}, {LIGHT, SIZES_COMPACT}},
    [THEME_CONTRAST] = {{CONTRAST, SIZES_FULL}, {CONTRAST, SIZES_COMPACT}},
};

static const char *const names[THEME_COUNT] = {"dark", "light", "contrast"};

const Theme *theme_get(Theme_Id id, bool compact) {
    if ((unsigned)id >= THEME_COUNT) id = THEME_DARK;
    return &themes[id][compact ? 1 : 0];
}

const char *theme_name(Theme_Id id) {
    return (unsigned)id < THEME_COUNT ? names[id] : "dark";
}

bool theme_by_name(const char *name, Theme_Id *id) {
    for (int k = 0; k < THEME_COUNT; k++)
        if (!strcmp(name, names[k])) {
            *id = (Theme_Id)k;
            return true;
        }
    return false;
}
