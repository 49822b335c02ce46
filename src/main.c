/* attnlab: entry point. Parses the command line, builds the scene, and either
 * answers without a window (--export, --experiment, …) or opens the app. */
#define _POSIX_C_SOURCE 200809L
#include "core/i18n.h"
#include "core/stats.h"
#include "nn/train_stack.h"
#include "nn/train_head.h"
#include "model/export.h"
#include "platform/model_cli.h"
#include "platform/app.h"
#include "platform/lesson_checks.h"
#include "model/scene.h"
#include "model/scene_file.h"
#include "platform/sdl_app.h"
#include "platform/cli.h"
#include "platform/paths.h"
#include "platform/lang.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ATTNLAB_VERSION "0.1.0"

/* What a mode printed must have reached standard output: a full disk or a
 * closed pipe is one line and exit 1, never a silent success. */
static int stdout_written(int status) {
    /* errno is left as the failed write set it: by fflush, or by an earlier
     * write that flushed a full buffer (successful calls leave it alone) */
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        fprintf(stderr, _("attnlab: cannot write to standard output: %s\n"),
                errno ? strerror(errno) : _("a write failed"));
        status = 1;
    }
    return status;
}

static int run_experiment(const Scene *s, const Cli_Options *o) {
    Variance_Result r;
    stats_variance_experiment(s->seed, s->d_k, o->samples, &r);
    printf("{\"d_k\": %d, \"samples\": %d, \"seed\": %llu, \"raw_mean\": %.17g, "
           "\"raw_var\": %.17g, \"scaled_mean\": %.17g, \"scaled_var\": %.17g}\n",
           r.d_k, r.samples, (unsigned long long)r.seed, r.raw_mean, r.raw_var, r.scaled_mean,
           r.scaled_var);
    return 0;
}

/* Prints a curve per head: [[[values of head 1 of layer 1], …], …]. */
static void print_head_curves(const char *name, const double *v, int layers, int heads, int points,
                              bool last) {
    printf("  \"%s\": [", name);
    for (int l = 0; l < layers; l++) {
        printf(l ? ", [" : "[");
        for (int h = 0; h < heads; h++) {
            printf(h ? ", [" : "[");
            for (int p = 0; p < points; p++)
                printf(p ? ", %.6g" : "%.6g", v[((long)l * heads + h) * points + p]);
            printf("]");
        }
        printf("]");
    }
    printf(last ? "]\n" : "],\n");
}

#define INDUCTION_EVERY 25 /* steps between held-out evaluations */

/* --train induction: the layered attention-only model, as JSON. Everything
 * but steps_per_s is the same for the same arguments. */
static int train_induction(const Cli_Options *o) {
    int heads = o->has[SET_HEADS] ? (int)o->value[SET_HEADS] : 1;
    Stack_Desc d = {.layers = o->stack[0] ? o->stack[0] : 2,
                    .heads = heads,
                    .width = o->stack[1] ? o->stack[1] : 16,
                    .vocab = o->stack[2] ? o->stack[2] : 16,
                    .context = o->stack[3] ? o->stack[3] : 24,
                    .repeat_min = o->stack[4] ? o->stack[4] : 3,
                    .repeat_max = o->stack[5] ? o->stack[5] : 12,
                    .pos = o->has[SET_POS] ? (Train_Pos)(int)o->value[SET_POS] : TRAIN_POS_LEARNED,
                    .seed = o->has[SET_SEED] ? (uint64_t)o->value[SET_SEED] : 1,
                    .lr = o->train_lr > 0 ? o->train_lr : 0.01,
                    .batch = 16};
    /* what the ranges of single options cannot say */
    const char *bad = heads > STACK_MAX_HEADS       ? "--heads: at most 4 heads a layer"
                      : d.width % d.heads           ? "--width: must be a multiple of --heads"
                      : d.repeat_min > d.repeat_max ? "--repeat-min: above --repeat-max"
                      : d.repeat_max >= d.context   ? "--repeat-max: must be below --context"
                      : d.pos == TRAIN_POS_ALIBI
                          ? "--pos: alibi is not offered for induction (none, sin, learned, rope)"
                          : NULL;
    if (bad) {
        fprintf(stderr, "attnlab: %s\n", bad);
        return 2;
    }
    static Stack s;
    if (!stack_init(&s, &d)) {
        fprintf(stderr, "attnlab: --train: out of memory\n");
        return 1;
    }
    long steps = o->train_steps, every = steps > 400 ? steps / 200 : 1;
    int points = (int)(steps / INDUCTION_EVERY) + 1, kept = 0, evals = 0;
    long cells = (long)d.layers * d.heads * points;
    double *values = malloc(sizeof(double) * (size_t)(steps / every + 1));
    long *at = malloc(sizeof(long) * (size_t)(steps / every + 1));
    double *ic = malloc(sizeof(double) * (size_t)points);
    double *prefix = malloc(sizeof(double) * (size_t)cells);
    double *prev = malloc(sizeof(double) * (size_t)cells);
    if (!values || !at || !ic || !prefix || !prev) {
        free(values), free(at), free(ic), free(prefix), free(prev);
        stack_free(&s);
        fprintf(stderr, "attnlab: --train: out of memory\n");
        return 1;
    }
    long phase = -1;
    Stack_Metrics m;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k <= steps; k++) {
        if (k) {
            double loss = stack_step(&s);
            if (k % every == 0 || k == 1) {
                at[kept] = k;
                values[kept++] = loss;
            }
        }
        if (k % INDUCTION_EVERY) continue;
        stack_eval(&s, &m);
        ic[evals] = m.in_context_loss;
        for (int l = 0; l < d.layers; l++)
            for (int h = 0; h < d.heads; h++) {
                long c = ((long)l * d.heads + h) * points + evals;
                prefix[c] = m.prefix_match[l][h];
                prev[c] = m.prev_token[l][h];
                if (phase < 0 && m.prefix_match[l][h] > 0.5) phase = k;
            }
        evals++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("{\n  \"task\": \"induction\",\n  \"steps\": %ld,\n  \"seed\": %llu,\n"
           "  \"layers\": %d,\n  \"heads\": %d,\n  \"width\": %d,\n  \"vocab\": %d,\n"
           "  \"context\": %d,\n  \"repeat_min\": %d,\n  \"repeat_max\": %d,\n"
           "  \"positions\": \"%s\",\n  \"lr\": %.17g,\n  \"batch\": %d,\n",
           steps, (unsigned long long)d.seed, d.layers, d.heads, d.width, d.vocab, d.context,
           d.repeat_min, d.repeat_max, setting_choice_name(SET_POS, (int)d.pos), d.lr, d.batch);
    printf("  \"loss\": {\"steps\": [");
    for (int k = 0; k < kept; k++) printf(k ? ", %ld" : "%ld", at[k]);
    printf("], \"values\": [");
    for (int k = 0; k < kept; k++) printf(k ? ", %.9g" : "%.9g", values[k]);
    printf("]},\n  \"eval_steps\": [");
    for (int k = 0; k < evals; k++) printf(k ? ", %ld" : "%ld", (long)k * INDUCTION_EVERY);
    printf("],\n  \"in_context_loss\": [");
    for (int k = 0; k < evals; k++) printf(k ? ", %.9g" : "%.9g", ic[k]);
    printf("],\n");
    print_head_curves("prefix_match", prefix, d.layers, d.heads, evals, false);
    print_head_curves("prev_token", prev, d.layers, d.heads, evals, false);
    if (phase >= 0)
        printf("  \"phase_step\": %ld,\n", phase);
    else
        printf("  \"phase_step\": null,\n");
    printf("  \"final_loss\": %.9g,\n  \"final_in_context_loss\": %.9g,\n"
           "  \"chance_loss\": %.9g,\n  \"steps_per_s\": %.1f\n}\n",
           m.loss, m.in_context_loss, log((double)d.vocab), secs > 0 ? (double)steps / secs : 0);
    free(values), free(at), free(ic), free(prefix), free(prev);
    stack_free(&s);
    return 0;
}

/* --train TASK: train one head, print what happened as one JSON object.
 * Everything but steps_per_s is the same for the same arguments. */
static int train(const Cli_Options *o) {
    if (o->train_task == 2) return train_induction(o);
    Train_Desc desc = {.task = (Train_Task)o->train_task,
                       .optimizer = (Train_Optimizer)o->train_optimizer,
                       .seed = o->has[SET_SEED] ? (uint64_t)o->value[SET_SEED] : 1,
                       .d_k = o->has[SET_DK] ? (int)o->value[SET_DK] : 0,
                       .pos = o->has[SET_POS] ? (Train_Pos)(int)o->value[SET_POS] : TRAIN_POS_NONE,
                       .test_n = o->train_test_n,
                       .unscaled = o->has[SET_SCALED] && o->value[SET_SCALED] == 0,
                       .lr = o->train_lr};
    static Trainer t;
    if (!train_init(&t, &desc)) {
        fprintf(stderr, "attnlab: --train: out of memory\n");
        return 1;
    }
    long steps = o->train_steps, every = steps > 400 ? steps / 200 : 1;
    double *values = malloc(sizeof(double) * (size_t)(steps / every + 1));
    long *at = malloc(sizeof(long) * (size_t)(steps / every + 1));
    if (!values || !at) {
        free(values);
        free(at);
        train_free(&t);
        fprintf(stderr, "attnlab: --train: out of memory\n");
        return 1;
    }
    int kept = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 1; k <= steps; k++) {
        double loss = train_step(&t);
        if (k % every == 0 || k == 1) {
            at[kept] = k;
            values[kept++] = loss;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    double accuracy, final = train_eval(&t, &accuracy);
    printf(
        "{\n  \"task\": \"%s\",\n  \"steps\": %ld,\n  \"seed\": %llu,\n  \"n\": %d,\n"
        "  \"vocab\": %d,\n  \"d\": %d,\n  \"d_k\": %d,\n  \"d_v\": %d,\n"
        "  \"positions\": \"%s\",\n  \"scaled\": %s,\n  \"optimizer\": \"%s\",\n  \"lr\": %.17g,\n",
        desc.task == TRAIN_MATCH ? "match" : "previous", steps, (unsigned long long)desc.seed, t.n,
        t.vocab, t.d, t.d_k, t.d_v, setting_choice_name(SET_POS, (int)t.pos),
        desc.unscaled ? "false" : "true", desc.optimizer == TRAIN_SGD ? "sgd" : "adam", t.desc.lr);
    printf("  \"loss\": {\"steps\": [");
    for (int k = 0; k < kept; k++) printf(k ? ", %ld" : "%ld", at[k]);
    printf("], \"values\": [");
    for (int k = 0; k < kept; k++) printf(k ? ", %.9g" : "%.9g", values[k]);
    printf("]},\n  \"final_loss\": %.9g,\n  \"chance_loss\": %.9g,\n  \"accuracy\": %.6g,\n", final,
           train_chance(t.n), accuracy);
    if (desc.test_n) { /* train short, test long */
        double test_accuracy, test_loss = train_eval_long(&t, &test_accuracy);
        printf("  \"test_n\": %d,\n  \"test_loss\": %.9g,\n  \"test_chance_loss\": %.9g,\n"
               "  \"test_accuracy\": %.6g,\n",
               desc.test_n, test_loss, train_chance(desc.test_n), test_accuracy);
    }
    printf("  \"steps_per_s\": %.1f\n}\n", secs > 0 ? (double)steps / secs : 0);
    free(values);
    free(at);
    train_free(&t);
    return 0;
}

int main(int argc, char **argv) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    static Cli_Options opts;
    char err[1024];
    static char notice[1024]; /* in the browser: what was wrong with the page's address */
    /* the language first, so that --help and the errors of the parse speak it */
    static char lang_data[4096];
    if (paths_find_data(lang_data, sizeof lang_data, err, sizeof err)) {
        int lang = lang_from_args(argc, argv);
        if (lang < 0) lang = lang_from_env();
        if (!lang_use(lang, lang_data, err, sizeof err)) cli_report(_("attnlab: warning: "), err);
    }
    if (!cli_parse(argc, argv, &opts, err, sizeof err)) {
        cli_report("", err);
#ifdef __EMSCRIPTEN__
        /* a page still opens: with the defaults, and the message on screen */
        snprintf(notice, sizeof notice, "%s — the defaults are shown", err);
        cli_parse(1, argv, &opts, err, sizeof err);
#else
        return 2;
#endif
    }
#ifdef __EMSCRIPTEN__
    if (opts.mode != CLI_WINDOW) { /* --export, --screenshot … have no page to write to */
        snprintf(notice, sizeof notice, "attnlab: only the window runs in the browser");
        opts.mode = CLI_WINDOW;
    }
#endif
    if (opts.mode == CLI_HELP) {
        cli_usage(stdout);
        return stdout_written(0);
    }
    if (opts.mode == CLI_VERSION) {
        printf("attnlab %s\n", ATTNLAB_VERSION);
        return stdout_written(0);
    }

    if (opts.mode == CLI_TRAIN) return stdout_written(train(&opts)); /* needs no data files */
    if (opts.model && (opts.mode == CLI_EXPORT || opts.mode == CLI_BENCH))
        return stdout_written(opts.mode == CLI_BENCH ? model_bench(&opts)
                              : opts.generate        ? model_generate(&opts)
                                                     : model_export(&opts));
    char data_dir[4096], path[4200];
    if (!paths_find_data(data_dir, sizeof data_dir, err, sizeof err)) {
        cli_report("", err);
        return 2;
    }
    static Vocab vocab;
    paths_join(data_dir, "assets/vocab.tsv", path, sizeof path);
    if (!vocab_load(&vocab, path, err, sizeof err)) {
        cli_report("attnlab: ", err);
        return 2;
    }

    static Scene scene;
    const char *scene_path = opts.scene_path;
    if (!scene_path) {
        paths_join(data_dir, "assets/scenes/default.json", path, sizeof path);
        scene_path = path;
    }
    int status = 0;
    if (opts.mode == CLI_CHECK_LESSONS) {
        status = lesson_checks_run(&opts, &vocab, data_dir);
        vocab_free(&vocab);
        return stdout_written(status);
    }
    if (!scene_load(&scene, scene_path, &vocab, err, sizeof err)) {
        cli_report("attnlab: ", err);
        status = 2;
    } else if (!cli_apply(&opts, &scene, &vocab, err, sizeof err)) {
        cli_report("", err);
        status = 2;
    }
#ifdef __EMSCRIPTEN__
    if (status != 0) { /* the default scene, with the message on screen */
        snprintf(notice, sizeof notice, "%s%s — the default scene is shown",
                 strncmp(err, "attnlab: ", 9) ? "attnlab: " : "", err);
        paths_join(data_dir, "assets/scenes/default.json", path, sizeof path);
        opts.scene_path = NULL;
        status = scene_load(&scene, path, &vocab, err, sizeof err) ? 0 : 2;
    }
#endif
    if (status == 0) {
        static Derived derived;
        switch (opts.mode) {
        case CLI_EXPERIMENT:
            status = run_experiment(&scene, &opts);
            break;
        case CLI_EXPORT:
            if (!derived_update(&derived, &scene)) {
                fprintf(stderr, "attnlab: out of memory computing attention for n=%d\n", scene.n);
                status = 1;
            } else if (!export_check(&scene, &derived, err, sizeof err)) {
                cli_report("attnlab: ", err);
                status = 2;
            } else if (opts.export_format == EXPORT_JSON) {
                export_json(&scene, &derived, stdout);
            } else {
                export_csv(&scene, &derived, stdout);
            }
            break;
        default:
            status = app_run(&(App_Desc){.opts = &opts,
                                         .scene = &scene,
                                         .vocab = &vocab,
                                         .data_dir = data_dir,
                                         .scene_path = opts.scene_path,
                                         .notice = notice[0] ? notice : NULL,
                                         .start_ms = start.tv_sec * 1e3 + start.tv_nsec / 1e6});
            break;
        }
        derived_free(&derived);
    }
    vocab_free(&vocab);
    return stdout_written(status);
}
