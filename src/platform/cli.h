/* The command line: parsing and applying the contract in DESIGN.md.
 *
 * Parsing never touches files or the window; every problem becomes one line
 * ("attnlab: --dk: 5000 is out of range (1 to 1024)") and the caller exits 2.
 * Nothing is clamped: a value outside its range is an error.
 *
 *   bool cli_parse(int argc, char **argv, Cli_Options *opts, char *err, size_t errsz)
 *   bool cli_apply(const Cli_Options *opts, Scene *s, const Vocab *vocab, char *err, size_t errsz)
 *       --tokens/--d/... onto a scene
 *   void cli_usage(FILE *f)
 *       the --help text
 *   void cli_report(const char *prefix, const char *msg)
 *       print "prefix msg" to stderr as one line that is safe for a terminal: user text inside msg
 *       (a file name, a JSON key, a token) may hold newlines, escape sequences or bytes that are
 *       not UTF-8
 */
#ifndef ATTN_CLI_H
#define ATTN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../model/scene.h"
#include "../model/settings.h"
#include "../model/view_kind.h"
#include "../ui/theme.h"

#define STACK_OPTIONS 6 /* the layered model's size options */

#define CLI_MIN_SIZE 16 /* --size, each side */
#define CLI_MAX_SIZE 16384
#define CLI_MAX_GIVEN                                                                              \
    64 /* distinct options is far fewer; repeats past it are not checked again                     \
        */

typedef enum Cli_Mode {
    CLI_WINDOW = 0,
    CLI_HELP,
    CLI_VERSION,
    CLI_EXPORT,
    CLI_SCREENSHOT,
    CLI_DUMP_UI,
    CLI_EXPERIMENT,
    CLI_CHECK_LESSONS,
    CLI_BENCH,
    CLI_TRAIN,
    CLI_FIGURE,
} Cli_Mode;

typedef enum Figure_Background {
    FIGURE_BG_THEME = 0,
    FIGURE_BG_WHITE,
    FIGURE_BG_TRANSPARENT
} Figure_Background;

typedef enum Cli_Export { EXPORT_JSON = 0, EXPORT_CSV } Cli_Export;

#define CLI_MAX_GENERATE 4096 /* tokens --generate writes at most */

typedef struct Cli_Options {
    Cli_Mode mode;
    const char *scene_path;
    const char *model, *text;  /* --model PATH|NAME --text TEXT: the real model */
    int generate;              /* --generate N: tokens the model writes after the text; 0: none */
    double temperature;        /* --temperature (0: greedy, the default) */
    int top_k;                 /* --top-k (0: every token) */
    double top_p;              /* --top-p (1: no cut) */
    int open_layer, open_head; /* --layer, --head + 1; 0: not given */
    const char *lesson_path;
    const char *tokens;
    bool has[SET_COUNT];     /* scene settings given on the command line (settings.h) */
    double value[SET_COUNT]; /* their values, checked against the table */
    bool has_perm;
    int perm[ATTN_MAX_TOKENS];
    int perm_n;
    View view;
    int width, height;
    const char *lang; /* --lang: "en", "es", "de" or "zh_CN"; NULL: not given */
    bool has_size, has_ui_scale, has_theme; /* given on the command line: they win over prefs.h */
    Theme_Id theme;
    bool fullscreen;
    bool presenter;
    bool has_hide;  /* --hide given: it wins over the settings file's */
    char hide[320]; /* panels and controls hidden, " a b" (model/hide.h) */
    float ui_scale;
    Cli_Export export_format;
    const char *screenshot_path;
    const char *render_math; /* with --screenshot: only this formula */
    /* --export-figure */
    const char *figure_path, *figure_panel;
    float figure_scale; /* 1: one point or pixel per window pixel */
    Figure_Background figure_background;
    const char *check_dir;
    int samples;
    bool has_samples;
    bool by_input;     /* --check-lessons: goals met through input events too */
    int jobs;          /* --check-lessons --jobs: lessons played at once; 0 or 1: one */
    int translations;  /* --check-lessons --translations: 0 play, 1 layout, 2 none */
    long train_budget; /* --check-lessons --train-budget; 0: LESSON_CHECK_TRAIN_BUDGET */
    /* --train */
    int train_task; /* a Train_Task */
    long train_steps;
    double train_lr; /* 0: the optimizer's default */
    int train_optimizer;
    int train_test_n; /* 0, or a held-out sentence length past training's */
    /* --train induction: --layers, --width, --vocab, --context, --repeat-min,
     * --repeat-max in that order; 0 for the default */
    int stack[STACK_OPTIONS];
    /* the options given, by their canonical names: each must be one the mode uses */
    const char *given[CLI_MAX_GIVEN];
    int given_n;
} Cli_Options;

bool cli_parse(int argc, char **argv, Cli_Options *opts, char *err, size_t errsz);
bool cli_apply(const Cli_Options *opts, Scene *s, const Vocab *vocab, char *err, size_t errsz);
void cli_usage(FILE *f);
void cli_report(const char *prefix, const char *msg);

#endif
