/* The command line; see cli.h. No SDL here, so it is tested without a window. */
#include "../core/i18n.h"
#include "cli.h"

#include "../model/hide.h"

#include "../lesson/tex.h"

#include "../core/perm.h"
#include "../core/text.h"
#include "../model/action.h"
#include "../model/real_gen.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* "  --dk N                query/key width d_k (1 to 1024)", from the table */
static void usage_setting(FILE *f, const Setting *st) {
    char left[96];
    switch (st->type) {
    case SETTING_BOOL:
        snprintf(left, sizeof left, "%s", st->cli);
        fprintf(f, "  %-22s%s\n", left, _(st->help));
        return;
    case SETTING_CHOICE: {
        char list[64];
        setting_choice_list(st->id, "|", "", list, sizeof list);
        snprintf(left, sizeof left, "%s %s", st->cli, list);
        if (strlen(left) > 21) /* the help goes under a long list of names */
            fprintf(f, "  %s\n  %-22s%s\n", left, "", _(st->help));
        else
            fprintf(f, "  %-22s%s\n", left, _(st->help));
        return;
    }
    case SETTING_FLOAT:
        snprintf(left, sizeof left, "%s F", st->cli);
        fprintf(f, "  %-22s%s (%g to %g)\n", left, _(st->help), st->min, st->max);
        return;
    case SETTING_INT:
    case SETTING_U32:
        snprintf(left, sizeof left, "%s N", st->cli);
        fprintf(f, "  %-22s%s (%.0f to %.0f)\n", left, _(st->help), st->min, st->max);
        return;
    }
}

void cli_usage(FILE *f) {
    fputs(_("Usage: attnlab [OPTION]...\n"
            "Explore transformer self-attention by direct manipulation.\n"
            "\n"
            "Scene:\n"
            "  --scene FILE          load a scene file (JSON; see docs/files.md)\n"
            "  --tokens \"w1 w2 ...\"  use these tokens (embedded from the vocabulary)\n"),
          f);
    for (int k = 0; k < SET_COUNT; k++) usage_setting(f, setting((Setting_Id)k));
    fputs(
        _("  --perm \"i0 i1 ...\"    reorder: new position i holds old token p[i] (0-based)\n"
          "  --lesson FILE         open a lesson\n"
          "\n"
          "Window:\n"
          "  --view explorer|scaling|permutation|train|shift|model\n"
          "  --size WxH            window size in pixels (16 to 16384 each)\n"
          "  --fullscreen          start fullscreen\n"
          "  --ui-scale F          UI zoom (0.75 to 3)\n"
          "\n"
          "Without a window:\n"
          "  --export json|csv     print every matrix of the computation and exit\n"
          "  --screenshot FILE.png render one frame of --view at --size and exit\n"
          "  --presenter           big panels, the lesson as a caption strip, hover callouts (P)\n"
          "  --hide NAME,NAME,...  hide these panels and controls for a class (plane, controls,\n"
          "                        S, A, dk, mask, ...; docs/command-line.md lists them)\n"
          "  --theme T             dark (default), light (pale projectors) or contrast; F2 cycles\n"
          "  --lang L              the interface's language: en, es, de or zh_CN (default: the\n"
          "                        environment's, as LANGUAGE, LC_ALL, LC_MESSAGES, LANG)\n"
          "  --render-math TEX     with --screenshot: just this formula, display style, tight\n"
          "                        on the lesson panel's background (scaled by --ui-scale)\n"
          "  --dump-ui             print the laid-out interface as JSON and exit\n"
          "  --export-figure FILE.pdf|FILE.svg|FILE.png [--panel ID] [--scale F]\n"
          "        [--background theme|white|transparent]\n"
          "                        the frame as a vector figure (PDF with real text, SVG)\n"
          "                        or a PNG at any scale; --panel: one panel\n"
          "  --experiment variance run the score-scaling experiment at --dk and exit\n"
          "  --samples N           samples for --experiment (1 to 1000000; default 10000)\n"
          "  --check-lessons DIR   validate every lesson in DIR; exit 0 only if all pass\n"
          "  --by-input            with --check-lessons: also meet every goal with mouse and\n"
          "                        keyboard input only, laid out as the window would be at\n"
          "                        --size (default 1600x900), --ui-scale, --presenter, --theme\n"
          "                        (--model PATH|NAME: the model the Model view's goals read;\n"
          "                        default gpt2, then distilgpt2, from the cache if there)\n"),
        f);
    fputs(_("  --jobs N              with --check-lessons: play N lessons at once (1 to 64;\n"
            "                        default 1); the output is the same\n"
            "  --translations play|layout|none  with --check-lessons: what DIR/LANG/ lessons\n"
            "                        get: played like the English ones (default), checked\n"
            "                        against their original and laid out page by page at\n"
            "                        --size without playing their goals, or nothing\n"
            "  --train-budget N      with --check-lessons: the training one lesson may cost\n"
            "                        (100 to 10000000 steps of a d_k = 16 head; default\n"
            "                        60000); goals past it are not judged, and a note says so\n"),
          f);
    fputs(_("  --bench               measure frame and recompute times, print JSON\n"
            "  --train match|previous|induction  train on a toy task and print JSON: with\n"
            "                        --steps N (1 to 1000000; default 3000), --lr F,\n"
            "                        --optimizer adam|sgd, --test-n N (9 to 16: a held-out\n"
            "                        batch that long), and --seed, --pos, --dk, --no-scale;\n"
            "                        induction trains layers of heads: --layers N (1 to 4),\n"
            "                        --heads N (1 to 4), --width N, --vocab N, --context N,\n"
            "                        --repeat-min N, --repeat-max N, --pos, --steps, --seed, --lr\n"
            "  --model PATH|NAME --text TEXT --export json\n"
            "                        run a model checkpoint (a folder, or a name in the\n"
            "                        Hugging Face cache; never downloaded) on TEXT and print its\n"
            "                        tokens, every head's scores and weights, the logits and\n"
            "                        the 10 likeliest next tokens; with --bench instead of\n"
            "                        --text and --export, time its forward pass; in the window\n"
            "                        (--view model) with --text, --layer L and --head H; the\n"
            "                        families read: GPT-2, Llama (SmolLM2, TinyLlama, Llama 3),\n"
            "                        Qwen2 and Qwen3\n"
            "  --model PATH|NAME --text TEXT --generate N --export json\n"
            "                        the model writes N tokens (1 to 4096) after TEXT, one at a\n"
            "                        time on its KV cache, and prints each step's choice, its 10\n"
            "                        likeliest candidates and the new token's row of every\n"
            "                        head's weights; greedy, or with --temperature F (0 to 100)\n"
            "                        drawn from softmax(logits / F), cut by --top-k K and\n"
            "                        --top-p P, with --seed S for the draws; it stops early at\n"
            "                        any of the model's end-of-text tokens or its context\n"
            "                        length; in the window (--view model, N up to 128) the\n"
            "                        writing panel opens with N tokens written, drawn as these\n"
            "                        options say\n"
            "  --help                show this help and exit\n"
            "  --version             show the version and exit\n"
            "\n"
            "\n"
            "Keys in the window:\n"
            "  1 2 3 4 5 6           explorer, scaling, permutation, train, shift, model\n"
            "  R S T I               reverse, shuffle, rotate, restore the token order\n"
            "  Up Down               previous / next query\n"
            "  Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y   undo, redo\n"
            "  Ctrl+S                save the scene (atomically)\n"
            "  Left Right, PageUp PageDown, Home End   lesson steps\n"
            "  Ctrl+= Ctrl+- Ctrl+0  zoom in, out, reset\n"
            "  F1 or ?               help overlay (Esc closes)\n"
            "  Ctrl+E                export every matrix as JSON (attnlab-export-*.json)\n"
            "  F12 / Shift+F12       PNG of the window / of the panel under the mouse\n"
            "  F5 reload shaders   F11 fullscreen   Ctrl+Q quit\n"
            "\n"
            "Bad options or files exit with status 2 and one line on stderr.\n"),
          f);
}

void cli_report(const char *prefix, const char *msg) {
    char line[2048];
    text_escape(msg, strlen(msg), line, sizeof line);
    fprintf(stderr, "%s%s\n", prefix, line);
}

static bool fail(char *err, size_t errsz, const char *opt, const char *fmt, ...) {
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, errsz, _("attnlab: %s: %s"), opt, what);
    return false;
}

/* Whole-string numbers (core/text.h): no junk or space on either side, and
 * a value out of range is quoted as written, never clamped or rounded. */
static bool parse_int(const char *opt, const char *v, int64_t lo, int64_t hi, int64_t *dest,
                      char *err, size_t errsz) {
    Text_Num r = text_parse_i64(v, lo, hi, dest);
    if (r == TEXT_NUM_OK) return true;
    char why[240];
    text_num_message(r, v, true, (double)lo, (double)hi, why, sizeof why);
    return fail(err, errsz, opt, "%s", why);
}

static bool parse_float(const char *opt, const char *v, double lo, double hi, double *dest,
                        char *err, size_t errsz) {
    Text_Num r = text_parse_f64(v, lo, hi, dest);
    if (r == TEXT_NUM_OK) return true;
    char why[240];
    text_num_message(r, v, false, lo, hi, why, sizeof why);
    return fail(err, errsz, opt, "%s", why);
}

static bool parse_perm(const char *v, Cli_Options *o, char *err, size_t errsz) {
    o->perm_n = 0;
    const char *p = v;
    while (*p) {
        p += strspn(p, " \t,");
        if (!*p) break;
        if (o->perm_n == ATTN_MAX_TOKENS)
            return fail(err, errsz, "--perm", _("more than %d entries"), ATTN_MAX_TOKENS);
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || (*end && !strchr(" \t,", *end)) || errno == ERANGE || x < 0 ||
            x >= ATTN_MAX_TOKENS) {
            char word[32];
            snprintf(word, sizeof word, "%.*s", (int)strcspn(p, " \t,"), p);
            return fail(err, errsz, "--perm", _("'%s' is not a token index"), word);
        }
        o->perm[o->perm_n++] = (int)x;
        p = end;
    }
    if (o->perm_n == 0) return fail(err, errsz, "--perm", _("no indexes given"));
    char why[120];
    if (!perm_validate(o->perm, o->perm_n, why, sizeof why))
        return fail(err, errsz, "--perm", _("not a permutation: %s"), why);
    return true;
}

/* --render-math: a formula the window could not set, or with an unknown
 * command, is refused here with the parser's words. */
static bool check_formula(const char *tex, char *err, size_t errsz) {
    Tex *t = malloc(sizeof *t);
    if (!t) return fail(err, errsz, "--render-math", _("out of memory"));
    char why[200];
    bool ok = tex_parse(t, tex, strlen(tex), why, sizeof why);
    if (!ok)
        fail(err, errsz, "--render-math", "%s", why);
    else if (t->unknown)
        ok = fail(err, errsz, "--render-math", _("unknown TeX command %.*s"),
                  t->unknown_len > 60 ? 60 : t->unknown_len, t->unknown);
    free(t);
    return ok;
}

/* The option that picks each mode without a window. */
static const char *const mode_names[] = {
    [CLI_EXPORT] = "--export",
    [CLI_SCREENSHOT] = "--screenshot",
    [CLI_DUMP_UI] = "--dump-ui",
    [CLI_EXPERIMENT] = "--experiment",
    [CLI_CHECK_LESSONS] = "--check-lessons",
    [CLI_BENCH] = "--bench",
    [CLI_TRAIN] = "--train",
    [CLI_FIGURE] = "--export-figure",
};

static bool set_mode(Cli_Options *o, Cli_Mode m, const char *opt, char *err, size_t errsz) {
    if (o->mode != CLI_WINDOW && o->mode != m)
        return fail(err, errsz, opt, _("cannot be combined with %s"), mode_names[o->mode]);
    o->mode = m;
    return true;
}

/* The layered model's sizes (--train induction): name, range. Their values
 * land in Cli_Options.stack in this order. */
typedef struct Stack_Option {
    const char *name;
    int lo, hi;
} Stack_Option;
static const Stack_Option stack_options[STACK_OPTIONS] = {
    {"--layers", 1, 4},   {"--width", 1, 64},      {"--vocab", 2, 64},
    {"--context", 4, 64}, {"--repeat-min", 1, 63}, {"--repeat-max", 1, 63},
};

static const Stack_Option *stack_option(const char *name) {
    for (int k = 0; k < STACK_OPTIONS; k++)
        if (!strcmp(stack_options[k].name, name)) return &stack_options[k];
    return NULL;
}

/* Options that take a value, so "--size 800x600" and "--size=800x600" both
 * work; scene settings are settings.h's (all take a value but the switches). */
static const char *const valued[] = {
    "--scene",     "--lesson",        "--tokens",       "--perm",          "--view",
    "--size",      "--ui-scale",      "--export",       "--screenshot",    "--experiment",
    "--samples",   "--check-lessons", "--train",        "--steps",         "--lr",
    "--optimizer", "--render-math",   "--theme",        "--export-figure", "--panel",
    "--scale",     "--background",    "--hide",         "--test-n",        "--layers",
    "--width",     "--vocab",         "--context",      "--repeat-min",    "--repeat-max",
    "--model",     "--text",          "--layer",        "--head",          "--lang",
    "--jobs",      "--translations",  "--train-budget", "--generate",      "--temperature",
    "--top-k",     "--top-p",
};
static const char *const flags[] = {"--fullscreen", "--presenter", "--dump-ui", "--bench",
                                    "--help",       "--version",   "--by-input"};

static const char *find_in(const char *name, const char *const *list, size_t count) {
    for (size_t k = 0; k < count; k++)
        if (strcmp(name, list[k]) == 0) return list[k];
    return NULL;
}

static bool is_in(const char *name, const char *const *list, size_t count) {
    return find_in(name, list, count) != NULL;
}

/* Which modes use an option: one given to a mode that ignores it is refused,
 * never silently dropped (--train once ran unchanged with --d, --heads or
 * --scene). A scene setting is used wherever a scene is (SCENE_MODES), and
 * a few by the experiment and training too (settings_modes below). */
#define MODE(m) (1u << (m))
#define SCENE_MODES                                                                                \
    (MODE(CLI_WINDOW) | MODE(CLI_EXPORT) | MODE(CLI_SCREENSHOT) | MODE(CLI_DUMP_UI) |              \
     MODE(CLI_FIGURE))
#define VIEW_MODES (MODE(CLI_WINDOW) | MODE(CLI_SCREENSHOT) | MODE(CLI_DUMP_UI) | MODE(CLI_FIGURE))
static const struct {
    const char *name;
    unsigned modes;
} used_by[] = {
    {"--scene", SCENE_MODES | MODE(CLI_EXPERIMENT)},
    {"--tokens", SCENE_MODES},
    {"--perm", SCENE_MODES},
    {"--lesson", VIEW_MODES},
    {"--view", VIEW_MODES},
    {"--size", VIEW_MODES | MODE(CLI_CHECK_LESSONS)},
    {"--ui-scale", VIEW_MODES | MODE(CLI_CHECK_LESSONS)},
    {"--presenter", VIEW_MODES | MODE(CLI_CHECK_LESSONS)},
    {"--theme", VIEW_MODES | MODE(CLI_CHECK_LESSONS)},
    {"--hide", VIEW_MODES | MODE(CLI_CHECK_LESSONS)},
    {"--fullscreen", MODE(CLI_WINDOW)},
    /* these have a message of their own when given a value; `--optimizer adam`
     * (the default) reaches the table */
    {"--steps", MODE(CLI_TRAIN)},
    {"--lr", MODE(CLI_TRAIN)},
    {"--test-n", MODE(CLI_TRAIN)},
    {"--layers", MODE(CLI_TRAIN)},
    {"--width", MODE(CLI_TRAIN)},
    {"--vocab", MODE(CLI_TRAIN)},
    {"--context", MODE(CLI_TRAIN)},
    {"--repeat-min", MODE(CLI_TRAIN)},
    {"--repeat-max", MODE(CLI_TRAIN)},
    {"--optimizer", MODE(CLI_TRAIN)},
    {"--samples", MODE(CLI_EXPERIMENT)},
    {"--model", MODE(CLI_EXPORT) | MODE(CLI_BENCH) | MODE(CLI_CHECK_LESSONS) | VIEW_MODES},
    {"--text", MODE(CLI_EXPORT) | VIEW_MODES},
    {"--generate", MODE(CLI_EXPORT) | VIEW_MODES},
    {"--temperature", MODE(CLI_EXPORT) | VIEW_MODES},
    {"--top-k", MODE(CLI_EXPORT) | VIEW_MODES},
    {"--top-p", MODE(CLI_EXPORT) | VIEW_MODES},
    {"--layer", VIEW_MODES},
    {"--head", VIEW_MODES},
    {"--by-input", MODE(CLI_CHECK_LESSONS)},
    {"--jobs", MODE(CLI_CHECK_LESSONS)},
    {"--translations", MODE(CLI_CHECK_LESSONS)},
    {"--train-budget", MODE(CLI_CHECK_LESSONS)},
    {"--render-math", MODE(CLI_SCREENSHOT)},
    {"--panel", MODE(CLI_FIGURE)},
    {"--scale", MODE(CLI_FIGURE)},
    {"--background", MODE(CLI_FIGURE)},
};

static unsigned modes_of(const char *name) {
    for (size_t k = 0; k < sizeof used_by / sizeof *used_by; k++)
        if (!strcmp(used_by[k].name, name)) return used_by[k].modes;
    const Setting *st = setting_by_cli(name);
    if (!st) return ~0u; /* the mode options themselves, --help, --version */
    unsigned m = SCENE_MODES;
    if (st->id == SET_DK || st->id == SET_SEED) m |= MODE(CLI_EXPERIMENT) | MODE(CLI_TRAIN);
    if (st->id == SET_POS || st->id == SET_SCALED || st->id == SET_HEADS) m |= MODE(CLI_TRAIN);
    return m;
}

/* --model and --text go together, and replace the scene: its options are
 * refused rather than ignored. */
static bool real_model_options(const Cli_Options *o, char *err, size_t errsz) {
    if (o->text && !o->model) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --text: needs --model PATH|NAME, the model that reads it"));
        return false;
    }
    if (o->generate && !o->text) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --generate: needs --model PATH|NAME and --text \"…\", the text the "
                   "model writes after"));
        return false;
    }
    if (o->generate > REAL_GEN_MAX && o->mode != CLI_EXPORT) {
        snprintf(err, errsz, _("attnlab: --generate: the window writes at most %d tokens"),
                 REAL_GEN_MAX);
        return false;
    }
    /* the window: top-k and top-p cut what the writing draws (--seed is the scene's too) */
    for (int k = 0; k < o->given_n && o->mode != CLI_EXPORT; k++)
        if ((!strcmp(o->given[k], "--top-k") || !strcmp(o->given[k], "--top-p")) &&
            !(o->generate && o->temperature > 0)) {
            snprintf(err, errsz,
                     _("attnlab: %s: needs --generate N and --temperature above 0, the writing "
                       "it cuts"),
                     o->given[k]);
            return false;
        }
    if ((o->open_layer || o->open_head) && !o->model) {
        snprintf(err, errsz, "%s", _("attnlab: --layer and --head: need --model PATH|NAME"));
        return false;
    }
    if (!o->model) return true;
    if (o->mode == CLI_BENCH && !o->text) return true; /* timing the forward pass */
    if (o->mode != CLI_EXPORT) return true;            /* the window: the Model view opens it */
    if (!o->text) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --model: needs --text \"…\", the text the model reads"));
        return false;
    }
    if (o->export_format != EXPORT_JSON) {
        snprintf(err, errsz, "%s", _("attnlab: --export csv: the real model exports json only"));
        return false;
    }
    static const char *const sampling[] = {"--temperature", "--top-k", "--top-p", "--seed"};
    for (int k = 0; k < o->given_n; k++)
        if (!o->generate && is_in(o->given[k], sampling, 4)) {
            snprintf(err, errsz, _("attnlab: %s: needs --generate N, the tokens to write"),
                     o->given[k]);
            return false;
        }
    if (o->generate && !(o->temperature > 0))
        for (int k = 0; k < o->given_n; k++)
            if (!strcmp(o->given[k], "--top-k") || !strcmp(o->given[k], "--top-p") ||
                !strcmp(o->given[k], "--seed")) {
                snprintf(err, errsz,
                         _("attnlab: %s: needs --temperature above 0 (at 0 the likeliest token "
                           "is taken: nothing is drawn)"),
                         o->given[k]);
                return false;
            }
    for (int k = 0; k < o->given_n; k++)
        if (strcmp(o->given[k], "--model") && strcmp(o->given[k], "--text") &&
            strcmp(o->given[k], "--export") && strcmp(o->given[k], "--bench") &&
            strcmp(o->given[k], "--lang") && strcmp(o->given[k], "--generate") &&
            !is_in(o->given[k], sampling, 4)) {
            snprintf(err, errsz, _("attnlab: %s: not used with --model (the text is --text)"),
                     o->given[k]);
            return false;
        }
    return true;
}

bool cli_parse(int argc, char **argv, Cli_Options *o, char *err, size_t errsz) {
    memset(o, 0, sizeof *o);
    o->top_p = 1;
    o->width = 1600;
    o->height = 900;
    o->ui_scale = 1.0f;
    o->samples = 10000;
    bool help = false, version = false;
    for (int k = 1; k < argc; k++) {
        char name[64];
        const char *arg = argv[k], *value = NULL;
        const char *eq = strchr(arg, '=');
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(err, errsz, _("attnlab: unexpected argument '%s' (see --help)"), arg);
            return false;
        }
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), arg);
        const Setting *st = setting_by_cli(name);
        const char *known = st ? st->cli
                            : find_in(name, valued, sizeof valued / sizeof *valued)
                                ? find_in(name, valued, sizeof valued / sizeof *valued)
                                : find_in(name, flags, sizeof flags / sizeof *flags);
        if (known && o->given_n < CLI_MAX_GIVEN) o->given[o->given_n++] = known;
        bool takes_value =
            st ? st->type != SETTING_BOOL : is_in(name, valued, sizeof valued / sizeof *valued);
        bool is_flag =
            st ? st->type == SETTING_BOOL : is_in(name, flags, sizeof flags / sizeof *flags);
        if (takes_value) {
            if (eq) {
                value = eq + 1;
            } else if (k + 1 < argc) {
                value = argv[++k];
            } else {
                snprintf(err, errsz, _("attnlab: %s needs a value (see --help)"), name);
                return false;
            }
        } else if (is_flag) {
            if (eq) {
                snprintf(err, errsz, _("attnlab: %s takes no value"), name);
                return false;
            }
        } else {
            snprintf(err, errsz, _("attnlab: unknown option '%s' (see --help)"), name);
            return false;
        }

        int64_t iv;
        double fv;
        if (!strcmp(name, "--help")) {
            help = true;
        } else if (!strcmp(name, "--version")) {
            version = true;
        } else if (!strcmp(name, "--by-input")) {
            o->by_input = true;
        } else if (!strcmp(name, "--jobs")) {
            if (!parse_int(name, value, 1, 64, &iv, err, errsz)) return false;
            o->jobs = (int)iv;
        } else if (!strcmp(name, "--train-budget")) {
            if (!parse_int(name, value, 100, 10000000, &iv, err, errsz)) return false;
            o->train_budget = (long)iv;
        } else if (!strcmp(name, "--translations")) {
            static const char *const how[] = {"play", "layout", "none"};
            o->translations = -1;
            for (int k = 0; k < 3; k++)
                if (!strcmp(value, how[k])) o->translations = k;
            if (o->translations < 0)
                return fail(err, errsz, name, _("'%s' is not one of: %s"), value,
                            "play, layout, none");
        } else if (!strcmp(name, "--scene")) {
            o->scene_path = value;
        } else if (!strcmp(name, "--model")) {
            if (!*value)
                return fail(err, errsz, name, _("give a checkpoint folder or a model name"));
            o->model = value;
        } else if (!strcmp(name, "--text")) {
            o->text = value;
        } else if (!strcmp(name, "--generate")) {
            if (!parse_int(name, value, 1, CLI_MAX_GENERATE, &iv, err, errsz)) return false;
            o->generate = (int)iv;
        } else if (!strcmp(name, "--temperature")) {
            if (!parse_float(name, value, 0, 100, &o->temperature, err, errsz)) return false;
        } else if (!strcmp(name, "--top-k")) {
            if (!parse_int(name, value, 0, 1000000, &iv, err, errsz)) return false;
            o->top_k = (int)iv;
        } else if (!strcmp(name, "--top-p")) {
            if (!parse_float(name, value, 0.000001, 1, &o->top_p, err, errsz)) return false;
        } else if (!strcmp(name, "--layer") || !strcmp(name, "--head")) {
            /* the model's own range is checked once it is open */
            if (!parse_int(name, value, 0, 1000, &iv, err, errsz)) return false;
            if (name[2] == 'l') /* --layer */
                o->open_layer = (int)iv + 1;
            else
                o->open_head = (int)iv + 1;
        } else if (!strcmp(name, "--lesson")) {
            o->lesson_path = value;
        } else if (!strcmp(name, "--tokens")) {
            o->tokens = value;
        } else if (st) {
            /* a scene setting; a switch (--no-scale) sets the opposite of its default */
            char why[240];
            if (st->type == SETTING_BOOL)
                o->value[st->id] = !st->def;
            else if (!setting_parse(st, value, &o->value[st->id], why, sizeof why))
                return fail(err, errsz, name, "%s", why);
            o->has[st->id] = true;
        } else if (!strcmp(name, "--perm")) {
            if (!parse_perm(value, o, err, errsz)) return false;
            o->has_perm = true;
        } else if (!strcmp(name, "--view")) {
            if (!view_parse(value, &o->view))
                return fail(err, errsz, name, _("'%s' is not one of: %s"), value,
                            view_names_list());
        } else if (!strcmp(name, "--size")) {
            /* exactly one 'x' between two whole numbers, nothing around them */
            const char *x = strchr(value, 'x');
            if (!x || x == value || strchr(x + 1, 'x'))
                return fail(err, errsz, name, _("'%s' is not WIDTHxHEIGHT"), value);
            char wbuf[32];
            if ((size_t)(x - value) >= sizeof wbuf)
                return fail(err, errsz, name, _("'%s' is not WIDTHxHEIGHT"), value);
            snprintf(wbuf, sizeof wbuf, "%.*s", (int)(x - value), value);
            if (!parse_int("--size width", wbuf, CLI_MIN_SIZE, CLI_MAX_SIZE, &iv, err, errsz))
                return false;
            o->width = (int)iv;
            if (!parse_int("--size height", x + 1, CLI_MIN_SIZE, CLI_MAX_SIZE, &iv, err, errsz))
                return false;
            o->height = (int)iv;
            o->has_size = true;
        } else if (!strcmp(name, "--theme")) {
            if (!theme_by_name(value, &o->theme))
                return fail(err, errsz, name, _("'%s' is not one of: dark, light, contrast"),
                            value);
            o->has_theme = true;
        } else if (!strcmp(name, "--lang")) {
            static const char *const codes[] = {"en", "es", "de", "zh_CN"};
            o->lang = NULL;
            for (size_t k = 0; k < sizeof codes / sizeof *codes; k++)
                if (!strcmp(value, codes[k])) o->lang = codes[k];
            if (!o->lang)
                return fail(err, errsz, name, _("'%s' is not one of: en, es, de, zh_CN"), value);
        } else if (!strcmp(name, "--fullscreen")) {
            o->fullscreen = true;
        } else if (!strcmp(name, "--presenter")) {
            o->presenter = true;
        } else if (!strcmp(name, "--hide")) {
            char why[900];
            if (!hide_list_parse(value, o->hide, sizeof o->hide, why, sizeof why))
                return fail(err, errsz, name, "%s", why);
            o->has_hide = true;
        } else if (!strcmp(name, "--ui-scale")) {
            if (!parse_float(name, value, 0.75, 3.0, &fv, err, errsz)) return false;
            o->ui_scale = (float)fv;
            o->has_ui_scale = true;
        } else if (!strcmp(name, "--export")) {
            if (!strcmp(value, "json"))
                o->export_format = EXPORT_JSON;
            else if (!strcmp(value, "csv"))
                o->export_format = EXPORT_CSV;
            else
                return fail(err, errsz, name, _("'%s' is not one of: json, csv"), value);
            if (!set_mode(o, CLI_EXPORT, name, err, errsz)) return false;
        } else if (!strcmp(name, "--screenshot")) {
            size_t n = strlen(value);
            if (n < 5 || strcmp(value + n - 4, ".png") != 0)
                return fail(err, errsz, name, _("'%s' must end in .png"), value);
            o->screenshot_path = value;
            if (!set_mode(o, CLI_SCREENSHOT, name, err, errsz)) return false;
        } else if (!strcmp(name, "--export-figure")) {
            size_t n = strlen(value);
            if (n < 5 || (strcmp(value + n - 4, ".pdf") && strcmp(value + n - 4, ".svg") &&
                          strcmp(value + n - 4, ".png")))
                return fail(err, errsz, name, _("'%s' must end in .pdf, .svg or .png"), value);
            o->figure_path = value;
            if (!set_mode(o, CLI_FIGURE, name, err, errsz)) return false;
        } else if (!strcmp(name, "--panel")) {
            o->figure_panel = value;
        } else if (!strcmp(name, "--scale")) {
            if (!parse_float(name, value, 0.1, 16.0, &fv, err, errsz)) return false;
            o->figure_scale = (float)fv;
        } else if (!strcmp(name, "--background")) {
            if (!strcmp(value, "theme"))
                o->figure_background = FIGURE_BG_THEME;
            else if (!strcmp(value, "white"))
                o->figure_background = FIGURE_BG_WHITE;
            else if (!strcmp(value, "transparent"))
                o->figure_background = FIGURE_BG_TRANSPARENT;
            else
                return fail(err, errsz, name, _("'%s' is not one of: theme, white, transparent"),
                            value);
        } else if (!strcmp(name, "--render-math")) {
            if (!check_formula(value, err, errsz)) return false;
            o->render_math = value;
        } else if (!strcmp(name, "--dump-ui")) {
            if (!set_mode(o, CLI_DUMP_UI, name, err, errsz)) return false;
        } else if (!strcmp(name, "--experiment")) {
            if (strcmp(value, "variance") != 0)
                return fail(err, errsz, name, _("'%s' is not a known experiment (variance)"),
                            value);
            if (!set_mode(o, CLI_EXPERIMENT, name, err, errsz)) return false;
        } else if (!strcmp(name, "--samples")) {
            if (!parse_int(name, value, 1, ATTN_MAX_SAMPLES, &iv, err, errsz)) return false;
            o->samples = (int)iv;
            o->has_samples = true;
        } else if (!strcmp(name, "--check-lessons")) {
            o->check_dir = value;
            if (!set_mode(o, CLI_CHECK_LESSONS, name, err, errsz)) return false;
        } else if (!strcmp(name, "--bench")) {
            if (!set_mode(o, CLI_BENCH, name, err, errsz)) return false;
        } else if (!strcmp(name, "--train")) {
            if (strcmp(value, "match") && strcmp(value, "previous") && strcmp(value, "induction"))
                return fail(err, errsz, name, _("'%s' is not a task (match, previous, induction)"),
                            value);
            /* TRAIN_MATCH 0, TRAIN_PREVIOUS 1, and 2 for the layered model's induction */
            o->train_task = !strcmp(value, "previous") ? 1 : !strcmp(value, "induction") ? 2 : 0;
            if (!set_mode(o, CLI_TRAIN, name, err, errsz)) return false;
        } else if (!strcmp(name, "--steps")) {
            if (!parse_int(name, value, 1, 1000000, &iv, err, errsz)) return false;
            o->train_steps = (long)iv;
        } else if (!strcmp(name, "--lr")) {
            Text_Num r = text_parse_f64(value, 1e-9, 1e3, &fv);
            if (r != TEXT_NUM_OK) {
                char why[200];
                text_num_message(r, value, false, 1e-9, 1e3, why, sizeof why);
                return fail(err, errsz, name, "%s", why);
            }
            o->train_lr = fv;
        } else if (!strcmp(name, "--optimizer")) {
            if (strcmp(value, "adam") && strcmp(value, "sgd"))
                return fail(err, errsz, name, _("'%s' is not an optimizer (adam, sgd)"), value);
            o->train_optimizer = !strcmp(value, "sgd"); /* TRAIN_ADAM 0, TRAIN_SGD 1 */
        } else if (!strcmp(name, "--test-n")) {
            if (!parse_int(name, value, 9, 16, &iv, err, errsz)) return false;
            o->train_test_n = (int)iv;
        } else if (stack_option(name)) { /* the layered model's sizes */
            const Stack_Option *so = stack_option(name);
            if (!parse_int(name, value, so->lo, so->hi, &iv, err, errsz)) return false;
            o->stack[so - stack_options] = (int)iv;
        }
    }
    if ((o->train_steps || o->train_lr || o->train_optimizer || o->train_test_n) &&
        o->mode != CLI_TRAIN) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --steps, --lr, --optimizer and --test-n: only used with --train"));
        return false;
    }
    for (int k = 0; k < STACK_OPTIONS; k++)
        if (o->stack[k] && (o->mode != CLI_TRAIN || o->train_task != 2)) {
            snprintf(err, errsz, _("attnlab: %s: only used with --train induction"),
                     stack_options[k].name);
            return false;
        }
    if (o->train_task == 2 && (o->train_test_n || o->train_optimizer)) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --test-n and --optimizer: not used with --train induction"));
        return false;
    }
    if (o->train_test_n % 2 && o->train_task == 0) {
        snprintf(
            err, errsz,
            _("attnlab: --test-n: %d is odd; match pairs its tokens, so its sentences are even"),
            o->train_test_n);
        return false;
    }
    if (o->mode == CLI_TRAIN && !o->train_steps) o->train_steps = 3000;
    if (o->by_input && o->mode != CLI_CHECK_LESSONS) {
        snprintf(err, errsz, "%s", _("attnlab: --by-input: only used with --check-lessons"));
        return false;
    }
    if ((o->figure_panel || o->figure_scale || o->figure_background) && o->mode != CLI_FIGURE) {
        snprintf(err, errsz, "%s",
                 _("attnlab: --panel, --scale and --background: only used with --export-figure"));
        return false;
    }
    if (!o->figure_scale) o->figure_scale = 1;
    if (o->render_math && o->mode != CLI_SCREENSHOT) {
        snprintf(err, errsz, "%s", _("attnlab: --render-math: needs --screenshot FILE.png"));
        return false;
    }
    if (o->has_samples && o->mode != CLI_EXPERIMENT) {
        snprintf(err, errsz, "%s", _("attnlab: --samples: only used with --experiment"));
        return false;
    }
    if (!help && !version && !real_model_options(o, err, errsz)) return false;
    for (int k = 0; !help && !version && k < o->given_n; k++) {
        /* the one-head tasks have no heads to count; the layered model's
         * heads have their width from --width, and are always scaled */
        bool induction = o->mode == CLI_TRAIN && o->train_task == 2;
        bool task_ignores =
            o->mode == CLI_TRAIN &&
            (induction ? !strcmp(o->given[k], "--dk") || !strcmp(o->given[k], "--no-scale")
                       : !strcmp(o->given[k], "--heads"));
        if (!(modes_of(o->given[k]) & MODE(o->mode)) || task_ignores) {
            if (o->mode == CLI_WINDOW)
                snprintf(err, errsz, _("attnlab: %s: not used by the window"), o->given[k]);
            else
                snprintf(err, errsz, _("attnlab: %s: not used by %s, which would ignore it"),
                         o->given[k], induction ? "--train induction" : mode_names[o->mode]);
            return false;
        }
    }
    if (help)
        o->mode = CLI_HELP;
    else if (version)
        o->mode = CLI_VERSION;
    return true;
}

/* One override, as the action it is; why names the option. */
static bool override(Scene *s, Action a, const Vocab *vocab, const char *option, char *err,
                     size_t errsz) {
    char why[400];
    bool changed;
    if (scene_apply(s, &a, vocab, &changed, why, sizeof why)) return true;
    snprintf(err, errsz, _("attnlab: %s: %s"), option, why);
    return false;
}

bool cli_apply(const Cli_Options *o, Scene *s, const Vocab *vocab, char *err, size_t errsz) {
    /* d first (it re-embeds the tokens at the new width), then the sentence,
     * then every other setting, then the order */
    if (o->has[SET_D] && !override(s, action_set(SET_D, o->value[SET_D]), vocab, "--d", err, errsz))
        return false;
    if (o->tokens && !override(s, (Action){.kind = ACTION_SENTENCE, .text = o->tokens}, vocab,
                               "--tokens", err, errsz))
        return false;
    for (int k = 0; k < SET_COUNT; k++)
        if (k != SET_D && o->has[k] &&
            !override(s, action_set((Setting_Id)k, o->value[k]), vocab, setting((Setting_Id)k)->cli,
                      err, errsz))
            return false;
    if (o->has_perm) {
        if (o->perm_n != s->n) {
            snprintf(err, errsz, _("attnlab: --perm: %d indexes given but the scene has %d tokens"),
                     o->perm_n, s->n);
            return false;
        }
        if (!override(s, (Action){.kind = ACTION_PERMUTE, .n = o->perm_n, .perm = o->perm}, vocab,
                      "--perm", err, errsz))
            return false;
    }
    return true;
}
