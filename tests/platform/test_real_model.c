/* The real model from the command line: `--model PATH|NAME --text … --export
 * json` on small random GPT-2 checkpoints that tests/tools/gpt2_reference.py
 * writes (several shapes; F32, F16, BF16 and mixed; with and without the
 * "transformer." prefix; tied and separate lm_head; data stored out of the
 * header's order), checked against that tool's float64 forward pass: every
 * head's weights within 1e-4, scores and logits within 1e-4 of their largest
 * magnitude. Then every bad checkpoint and bad text: one line naming the
 * file and the problem, exit 2, nothing on stdout. */
#define _POSIX_C_SOURCE 200809L
#include "model/export_real.h"
#include "model/real_lab.h"
#include "platform/checkpoint.h"
#include "platform/real_open.h"
#include "reference_run.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <threads.h>

static char top[] = "/tmp/attnlab-real-XXXXXX";

static void setup(void) {
    cr_assert(mkdtemp(top));
}

static void teardown(void) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(real_model, .init = setup, .fini = teardown, .timeout = 120);

/* GPT-2's reference tool, in top/ */
static const char *make(const char *name, const char *options) {
    return ref_make("gpt2_reference.py", top, name, options);
}
static void matches_reference(const char *dir, const char *text) {
    ref_matches("gpt2_reference.py", top, dir, text);
}
static const char *broken(const char *good, const char *name, const char *how) {
    return ref_broken(top, good, name, how);
}

Test(real_model, float32_checkpoints_match_the_float64_reference) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("numbers: judged in the normal pass");
    const char *text = "The cat sat on the mat. The cat sat on the";
    matches_reference(make("f32", "--seed 1"), text);
    matches_reference(make("wide", "--seed 2 --layers 1 --heads 4 --embd 32 --inner 24 --eps 1e-3"),
                      text);
    matches_reference(make("lm", "--seed 3 --lm-head --no-prefix --shuffle --layers 3"), text);
}

Test(real_model, half_and_bfloat16_and_mixed_checkpoints_match_the_reference) {
    const char *text = "It's 2024:  naïve café 東京 👩‍👩‍👧 <|endoftext|> again\n";
    matches_reference(make("f16", "--seed 4 --dtype f16"), text);
    matches_reference(make("bf16", "--seed 5 --dtype bf16 --no-prefix"), text);
    matches_reference(make("mixed", "--seed 6 --dtype mixed --shuffle --heads 4"), text);
}

Test(real_model, a_tokenizer_json_in_place_of_vocab_and_merges_gives_the_same_ids) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("ids: judged in the normal pass");
    const char *text = "Tokenizers: it's the same  text, twice\n\n東京";
    Run a = export_text(make("pair", "--seed 13"), text);
    Run b = export_text(make("strings", "--seed 13 --tokenizer-json strings"), text);
    Run c = export_text(make("pairs", "--seed 13 --tokenizer-json pairs"), text);
    cr_assert_eq(a.status + b.status + c.status, 0, "%s%s%s", a.err, b.err, c.err);
    /* the same ids, tokens and numbers: only the model's name differs */
    cr_assert_str_eq(strstr(a.out, "\"ids\""), strstr(b.out, "\"ids\""));
    cr_assert_str_eq(strstr(a.out, "\"ids\""), strstr(c.out, "\"ids\""));
    run_free(&a);
    run_free(&b);
    run_free(&c);
}

Test(real_model, one_token_and_a_full_context_work) {
    const char *dir = make("small", "--seed 7 --positions 8");
    matches_reference(dir, "Hi");
    matches_reference(dir, "one two three four five six seven eight");
}

Test(real_model, the_export_names_tokens_ids_and_the_likeliest_next_tokens) {
    const char *dir = make("f32", "--seed 8");
    Run r = export_text(dir, "Hello<|endoftext|> world, \xe6\x9d\xb1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *root = cJSON_Parse(r.out);
    cr_assert(root);
    const cJSON *ids = cJSON_GetObjectItem(root, "ids");
    const cJSON *tokens = cJSON_GetObjectItem(root, "tokens");
    /* Hello, <|endoftext|> typed in the text, " world", ",", then " 東", whose three
     * bytes GPT-2's merges leave as " \xe6", "\x9d", "\xb1" */
    int want[] = {15496, 50256, 995, 11, 10545, 251, 109};
    cr_assert_eq(cJSON_GetArraySize(ids), 7, "%s", r.out);
    for (int k = 0; k < 7; k++)
        cr_assert_eq(cJSON_GetArrayItem(ids, k)->valueint, want[k], "id %d", k);
    cr_assert_str_eq(cJSON_GetArrayItem(tokens, 1)->valuestring, "<|endoftext|>");
    cr_assert_str_eq(cJSON_GetArrayItem(tokens, 2)->valuestring, " world");
    /* a token cut inside a character shows U+FFFD for the cut part */
    cr_assert_str_eq(cJSON_GetArrayItem(tokens, 4)->valuestring, " \xef\xbf\xbd");
    cr_assert_str_eq(cJSON_GetArrayItem(tokens, 5)->valuestring, "\xef\xbf\xbd");
    cr_assert_str_eq(cJSON_GetArrayItem(tokens, 6)->valuestring, "\xef\xbf\xbd");
    /* chips: visible spaces and line breaks, a fragment's bytes */
    static Checkpoint ck;
    char err[600], label[64];
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    const struct {
        int32_t id;
        const char *label;
    } chips[] = {{995, "\xE2\x90\xA3world"},
                 {220, "\xE2\x90\xA3"},
                 {198, "\xE2\x86\xB5"},
                 {197, "\xE2\x87\xA5"},
                 {10545, "\xE2\x90\xA3\xE2\x80\xB9"
                         "e6\xE2\x80\xBA"},
                 {109, "\xE2\x80\xB9"
                       "b1\xE2\x80\xBA"},
                 {50256, "<|endoftext|>"}};
    for (size_t k = 0; k < sizeof chips / sizeof *chips; k++) {
        real_model_token_label(&ck.model, chips[k].id, label, sizeof label);
        cr_assert_str_eq(label, chips[k].label, "token %d", chips[k].id);
    }
    checkpoint_close(&ck);
    cr_assert_eq(cJSON_GetObjectItem(root, "n_layer")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(root, "n_head")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(root, "d_model")->valueint, 16);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "logits")), 50257);
    const cJSON *next = cJSON_GetObjectItem(root, "next");
    cr_assert_eq(cJSON_GetArraySize(next), 10);
    double total = 0, last = 1;
    for (int k = 0; k < 10; k++) {
        const cJSON *t = cJSON_GetArrayItem(next, k);
        double p = cJSON_GetObjectItem(t, "p")->valuedouble;
        cr_assert(p <= last && p > 0, "next is sorted, most likely first");
        last = p;
        total += p;
        cr_assert(cJSON_IsString(cJSON_GetObjectItem(t, "token")));
    }
    cr_assert(total <= 1 + 1e-9);
    cJSON_Delete(root);
    run_free(&r);
}

Test(real_model, bad_text_is_one_line_and_exit_2) {
    const char *dir = make("small", "--seed 9 --positions 8");
    refused(export_text(dir, ""), "--text", "empty");
    refused(export_text(dir, "one two three four five six seven eight nine"), "more than 8 tokens",
            "n_positions");
    refused(run_attnlab("--text hello --export json"), "--text", "needs --model");
    char args[600];
    snprintf(args, sizeof args, "--model '%s' --export json", dir);
    refused(run_attnlab(args), "--model", "needs --text");
    snprintf(args, sizeof args, "--model '%s' --text hi --export csv", dir);
    refused(run_attnlab(args), "csv", "json only");
    snprintf(args, sizeof args, "--model '%s' --text hi --export json --dk 4", dir);
    refused(run_attnlab(args), "--dk", "not used with --model");
    snprintf(args, sizeof args, "--model '%s' --text \"$(printf 'a\\377')\" --export json", dir);
    refused(run_attnlab(args), "--text", "UTF-8");
}

Test(real_model, every_bad_checkpoint_is_one_line_naming_the_file) {
    const char *good = make("good", "--seed 10");
    char good_dir[300];
    snprintf(good_dir, sizeof good_dir, "%s", good);
    /* the header's JSON broken */
    refused(export_text(broken(good_dir, "header",
                               "printf 'X' | dd of=model.safetensors bs=1 "
                               "seek=8 conv=notrunc 2>/dev/null"),
                        "hi"),
            "model.safetensors", NULL);
    /* a tensor cut short: the file ends before its data does */
    refused(export_text(broken(good_dir, "cut", "truncate -s -100 model.safetensors"), "hi"),
            "model.safetensors", "inside the");
    /* a shape the config does not ask for */
    refused(export_text(
                broken(good_dir, "shape", "sed -i 's/\"n_embd\": 16/\"n_embd\": 32/' config.json"),
                "hi"),
            "model.safetensors", "the config asks for");
    /* another architecture: say which are read */
    refused(export_text(broken(good_dir, "mistral",
                               "sed -i 's/\"model_type\": \"gpt2\"/\"model_type\": \"mistral\"/' "
                               "config.json"),
                        "hi"),
            "config.json",
            "model_type \"mistral\" is not read: attnlab reads the model types "
            "gpt2, llama, qwen2 and qwen3");
    /* a family that is read, but with GPT-2's fields: its own are missing, by name */
    refused(export_text(broken(good_dir, "llama",
                               "sed -i 's/\"model_type\": \"gpt2\"/\"model_type\": \"llama\"/' "
                               "config.json"),
                        "hi"),
            "config.json", "no \"num_hidden_layers\"");
    /* a tokenizer file missing */
    refused(export_text(broken(good_dir, "notok", "rm merges.txt"), "hi"), "merges.txt",
            "tokenizer.json (or GPT-2's vocab.json and merges.txt)");
    /* a tokenizer.json of another kind of model */
    refused(export_text(broken(make("tj", "--seed 10 --tokenizer-json strings"), "wordpiece",
                               "sed -i 's/\"type\": \"BPE\"/\"type\": \"WordPiece\"/' "
                               "tokenizer.json"),
                        "hi"),
            "tokenizer.json", "not a BPE model");
    /* a folder that is not a checkpoint */
    char empty[400];
    snprintf(empty, sizeof empty, "%s/empty", top);
    mkdir(empty, 0700);
    refused(export_text(empty, "hi"), "config.json", NULL);
    /* NaN weights, in float32 and in float16 */
    refused(export_text(make("nan32", "--seed 11 --nan h.1.mlp.c_fc.weight"), "hi"),
            "h.1.mlp.c_fc.weight", "NaN");
    refused(export_text(make("nan16", "--seed 11 --dtype f16 --nan wpe.weight"), "hi"),
            "wpe.weight", "NaN");
    /* model.safetensors a FIFO: refused without waiting for a writer */
    refused(export_text(broken(good_dir, "fifo",
                               "rm model.safetensors && mkfifo "
                               "model.safetensors"),
                        "hi"),
            "model.safetensors", "not a regular file");
}

Test(real_model, a_name_is_found_in_the_hugging_face_cache) {
    char cache[400], cmd[3000];
    snprintf(cache, sizeof cache, "%s/hub", top);
    const char *good = make("good", "--seed 12");
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/models--gpt2/snapshots/abc123' '%s/models--gpt2/refs' && "
             "cp '%s'/* '%s/models--gpt2/snapshots/abc123/' && printf abc123 > "
             "'%s/models--gpt2/refs/main'",
             cache, cache, good, cache, cache);
    sh(cmd);
    char env[500];
    snprintf(env, sizeof env, "HF_HUB_CACHE='%s'", cache);
    Run r = run_attnlab_env(env, "--model gpt2 --text 'Hello world' --export json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"ids\": [15496, 995]"), "%.300s", r.out);
    run_free(&r);
    r = run_attnlab_env(env, "--model distilgpt2 --text 'Hello' --export json");
    refused(r, "distilgpt2", "never downloads");
}

Test(real_model, the_options_are_in_help_readme_and_man_page) {
    Run r = run_attnlab("--help");
    cr_assert(strstr(r.out, "--model PATH|NAME --text TEXT --export json"));
    run_free(&r);
    const char *docs[][2] = {
        {"docs/command-line.md", "--model PATH|NAME --text TEXT --export json"},
        {"docs/command-line.md", "--text TEXT --generate N [--temperature F]"},
        {"docs/model.md", "--generate N [--temperature F] [--top-k K]"},
        {"assets/attnlab.1", "\\-\\-model"},
        {"assets/attnlab.1", "\\-\\-generate"}};
    for (int k = 0; k < 5; k++) {
        char path[600], cmd[800];
        snprintf(path, sizeof path, "%s/%s", test_env("ATTNLAB_DATA"), docs[k][0]);
        snprintf(cmd, sizeof cmd, "grep -qF -e '%s' '%s'", docs[k][1], path);
        cr_assert_eq(system(cmd), 0, "%s lacks %s", docs[k][0], docs[k][1]);
    }
}

/* The Model view's lab: the pass runs a layer per slice (a budget of 0 still
 * runs one), ends with the same numbers as the pass at once, keeps the
 * previous text when a new one is refused, and reads its text again when
 * another model is attached. */
Test(real_model, the_lab_runs_the_pass_in_slices_and_keeps_its_text) {
    static Checkpoint a, b;
    char err[600];
    cr_assert(checkpoint_open(make("a", "--seed 14 --layers 3"), &a, err, sizeof err), "%s", err);
    cr_assert(
        checkpoint_open(make("b", "--seed 15 --layers 2 --heads 4 --embd 32"), &b, err, sizeof err),
        "%s", err);
    static Real_Lab lab;
    cr_assert(real_lab_attach(&lab, &a.model, "a", err, sizeof err));
    const char *text = "A lab, a text, a pass";
    cr_assert(real_lab_set_text(&lab, text, strlen(text), err, sizeof err), "%s", err);
    int slices = 0;
    while (!real_lab_work(&lab, 0)) slices++;
    /* sliced, a step is half a layer: its attention, then its MLP */
    cr_assert_eq(slices, 6, "3 layers in halves, then the logits: %d slices before the last",
                 slices);
    cr_assert_eq(lab.generation, 1);
    cr_assert(lab.head_done, "the open head (0, 0) is derived with the pass");
    /* the same numbers as the pass at once */
    Net_Run once = {0};
    const Net_Model *m = &a.model.weights.model;
    cr_assert(net_reserve(&once, m, lab.n));
    net_forward(m, lab.ids, lab.n, &once);
    const Net_Run *shown = real_lab_shown(&lab);
    cr_assert(shown && lab.shown_n == lab.n);
    cr_assert(!memcmp(once.attn, shown->attn, sizeof(float) * 3 * 2 * lab.n * lab.n));
    /* a new text computes in the other run: the shown pass stays whole until it is done */
    const char *longer = "A lab, a text, a pass, and a longer text";
    cr_assert(real_lab_set_text(&lab, longer, strlen(longer), err, sizeof err), "%s", err);
    real_lab_work(&lab, 0);
    cr_assert(real_lab_shown(&lab) == shown && lab.shown_n != lab.n);
    cr_assert(!memcmp(once.attn, shown->attn, sizeof(float) * 3 * 2 * lab.shown_n * lab.shown_n));
    real_lab_settle(&lab);
    cr_assert(real_lab_shown(&lab) != shown && lab.shown_n == lab.n);
    cr_assert(real_lab_set_text(&lab, text, strlen(text), err, sizeof err));
    real_lab_settle(&lab);
    /* next tokens: temperature 1 is the export's; a higher one flattens them */
    int32_t ids[10], ids_hot[10];
    double p[10], p_hot[10];
    cr_assert_eq(real_lab_next(&lab, 1, 10, ids, p), 10);
    int32_t want[10];
    double want_p[10];
    export_real_top(once.logits, m->vocab, 10, 1, want, want_p);
    for (int k = 0; k < 10; k++) cr_assert(ids[k] == want[k] && p[k] == want_p[k]);
    cr_assert_eq(real_lab_next(&lab, 2, 10, ids_hot, p_hot), 10);
    cr_assert(!memcmp(ids, ids_hot, sizeof ids), "the order does not depend on temperature");
    /* p ∝ e^{logit/T}: at T = 2 each ratio is the square root of T = 1's */
    for (int k = 1; k < 10; k++)
        cr_assert(fabs(log(p_hot[0] / p_hot[k]) - 0.5 * log(p[0] / p[k])) < 1e-9);
    net_free(&once);
    /* a refused text keeps the one before */
    cr_assert(!real_lab_set_text(&lab, "", 0, err, sizeof err));
    cr_assert(!real_lab_set_text(&lab, "a\xff", 2, err, sizeof err));
    cr_assert_str_eq(lab.text, text);
    cr_assert(real_lab_work(&lab, 0), "nothing left to do");
    /* another model reads the same text; the open head outside it closes */
    real_lab_open(&lab, 2, 1);
    cr_assert(real_lab_attach(&lab, &b.model, "b", err, sizeof err));
    cr_assert_str_eq(lab.text, text);
    cr_assert_eq(lab.open_layer, -1, "layer 2 is not in a 2-layer model");
    real_lab_open(&lab, 1, 3);
    real_lab_settle(&lab);
    cr_assert(lab.head_done && lab.norm[0] > 0);
    /* its value-weighted attention against the float64 reference */
    char cmd[3000];
    int at = snprintf(cmd, sizeof cmd, "%s '%s/../tools/gpt2_reference.py' weighted '%s/b' 1 3",
                      python(), test_env("ATTNLAB_TESTDATA"), top);
    for (int i = 0; i < lab.shown_n; i++)
        at += snprintf(cmd + at, sizeof cmd - (size_t)at, " %d", (int)lab.shown_ids[i]);
    FILE *pipe = popen(cmd, "r");
    char *said = slurp(pipe);
    cr_assert_eq(pclose(pipe), 0, "%s", said);
    cJSON *ref = cJSON_Parse(said);
    cr_assert(cJSON_GetArraySize(ref) == lab.shown_n, "%.200s", said);
    double worst = 0;
    for (int i = 0; i < lab.shown_n; i++)
        for (int j = 0; j < lab.shown_n; j++) {
            double w = cJSON_GetArrayItem(cJSON_GetArrayItem(ref, i), j)->valuedouble;
            worst = fmax(worst, fabs(w - lab.weighted[i * lab.shown_n + j]) / (1 + fabs(w)));
        }
    cr_assert(worst < 1e-4, "value-weighted attention off by %.3g (relative)", worst);
    /* the picture shows each row as shares of its total, on A's scale: the reference's row over
     * its sum, 1e-5 (shares are at most 1) */
    double share_worst = 0;
    for (int i = 0; i < lab.shown_n; i++) {
        const cJSON *row = cJSON_GetArrayItem(ref, i);
        double all = 0, sum = 0;
        for (int j = 0; j < lab.shown_n; j++) all += cJSON_GetArrayItem(row, j)->valuedouble;
        for (int j = 0; j < lab.shown_n; j++) {
            double want = cJSON_GetArrayItem(row, j)->valuedouble / all;
            share_worst = fmax(share_worst, fabs(want - lab.weighted_share[i * lab.shown_n + j]));
            sum += lab.weighted_share[i * lab.shown_n + j];
        }
        cr_assert(fabs(sum - 1) < 1e-5, "row %d of the shares sums to %.9g", i, sum);
    }
    cr_assert(share_worst < 1e-5, "the shares are off by %.3g", share_worst);
    /* queries and keys in one plane: centred on their joint mean */
    double sx = 0, sy = 0, spread = 0;
    for (int i = 0; i < 2 * lab.shown_n; i++) {
        sx += lab.plane[2 * i];
        sy += lab.plane[2 * i + 1];
        spread += fabs(lab.plane[2 * i]);
    }
    cr_assert(fabs(sx) < 1e-4 * spread && fabs(sy) < 1e-4 * spread && spread > 0);
    cr_assert(lab.plane_share > 0 && lab.plane_share <= 1 + 1e-9);
    cJSON_Delete(ref);
    free(said);
    real_lab_free(&lab);
    checkpoint_close(&a);
    checkpoint_close(&b);
}

/* The window's options: --layer and --head pick the open head, within the
 * model's range; a bad checkpoint stops the window before it opens. */
Test(real_model, the_window_opens_the_head_asked_for_and_refuses_one_past_the_model) {
    const char *dir = make("small", "--seed 16 --layers 3 --heads 2");
    char args[800];
    snprintf(args, sizeof args,
             "--view model --model '%s' --layer 2 --head 1 --text 'one two' --dump-ui", dir);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "Layer 2, head 1"), "the open head's panel is titled");
    cr_assert(strstr(r.out, "\"model_head\", \"index\": 5"), "3 × 2 heads in the grid");
    cr_assert_null(strstr(r.out, "\"model_head\", \"index\": 6"));
    run_free(&r);
    snprintf(args, sizeof args, "--view model --model '%s' --layer 3 --dump-ui", dir);
    refused(run_attnlab(args), "--layer: 3 is past the model's 3", "0 to 2");
    snprintf(args, sizeof args, "--view model --model '%s' --head 2 --dump-ui", dir);
    refused(run_attnlab(args), "--head: 2 is past the model's 2", NULL);
    refused(run_attnlab("--view model --layer 1 --dump-ui"), "--layer and --head", "--model");
    snprintf(args, sizeof args, "--view model --model '%s/nothing' --dump-ui", top);
    refused(run_attnlab(args), "nothing", "no such folder");
}

/* "Open model…" in the window: a good checkpoint replaces the one open and
 * reads the same text; a bad one is one line and the open one stays. */
Test(real_model, opening_a_bad_model_keeps_the_one_open) {
    static Model m;
    Checkpoint *ck = NULL;
    char err[1200];
    const char *a = make("a", "--seed 17 --layers 2");
    char first[400];
    snprintf(first, sizeof first, "%s", a);
    cr_assert(real_open(&m, &ck, first, err, sizeof err), "%s", err);
    cr_assert_str_eq(m.real.text, REAL_DEFAULT_TEXT);
    cr_assert(real_lab_set_text(&m.real, "kept text", 9, err, sizeof err));
    real_lab_settle(&m.real);
    const Checkpoint *before = ck;
    char bad[400];
    snprintf(bad, sizeof bad, "%s/missing", top);
    cr_assert_not(real_open(&m, &ck, bad, err, sizeof err));
    cr_assert(strstr(err, "missing") && !strchr(err, '\n'), "%s", err);
    cr_assert(ck == before && m.real.model == &before->model, "the open model stays");
    cr_assert_str_eq(m.real.text, "kept text");
    const char *b = make("b", "--seed 18 --layers 3 --heads 4 --embd 32");
    cr_assert(real_open(&m, &ck, b, err, sizeof err), "%s", err);
    cr_assert(ck != before && m.real.model == &ck->model);
    cr_assert_str_eq(m.real.text, "kept text", "the new model reads the same text");
    real_lab_settle(&m.real);
    cr_assert_eq(real_lab_shown(&m.real)->heads, 4);
    real_close(&m, &ck);
    cr_assert_null(ck);
}

/* Lesson 14's heads, on the checkpoint built by hand to hold them (make
 * --circuit): each score against its definition computed here from the
 * pass's weights, the best head of each kind where the weights put it, the
 * value-weighted share against the float64 reference, and the change after a
 * reorder. */
Test(real_model, the_head_scores_find_the_heads_the_hand_built_checkpoint_holds) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("numbers: judged in the normal pass");
    static Checkpoint ck;
    static Real_Lab lab;
    char err[600];
    const char *dir = make("circuit", "--circuit");
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    cr_assert(real_lab_attach(&lab, &ck.model, "circuit", err, sizeof err));
    const char *plain = "One two three four";
    cr_assert(real_lab_set_text(&lab, plain, strlen(plain), err, sizeof err));
    real_lab_settle(&lab);
    cr_assert(isnan(real_lab_head_score(&lab, REAL_HEAD_PREFIX, 1, 0)), "nothing repeats");
    const char *text = "The cat sat on the mat. The cat sat on the mat.";
    cr_assert(real_lab_set_text(&lab, text, strlen(text), err, sizeof err));
    real_lab_settle(&lab);
    const Net_Run *r = real_lab_shown(&lab);
    int n = lab.shown_n;
    const int32_t *ids = lab.shown_ids;
    for (int a = 0; a < 2; a++)
        for (int h = 0; h < 4; h++) {
            const float *A = net_attn(r, a, h);
            double prev = 0, first = 0, prefix = 0;
            int repeats = 0;
            for (int i = 1; i < n; i++) {
                prev += (double)A[i * n + i - 1] / (n - 1);
                first += (double)A[i * n] / (n - 1);
                double on = 0;
                int copies = 0;
                for (int j = 0; j < i; j++)
                    if (ids[j] == ids[i]) on += A[i * n + j + 1], copies++;
                if (copies) prefix += on, repeats++;
            }
            cr_assert_gt(repeats, 0);
            cr_assert_float_eq(real_lab_head_score(&lab, REAL_HEAD_PREV, a, h), prev, 1e-9);
            cr_assert_float_eq(real_lab_head_score(&lab, REAL_HEAD_FIRST, a, h), first, 1e-9);
            cr_assert_float_eq(real_lab_head_score(&lab, REAL_HEAD_PREFIX, a, h), prefix / repeats,
                               1e-9);
        }
    static const struct {
        Real_Head_Kind kind;
        int layer, head;
        double above;
    } want[] = {
        {REAL_HEAD_PREV, 0, 0, 0.95}, {REAL_HEAD_FIRST, 0, 1, 0.8}, {REAL_HEAD_PREFIX, 1, 0, 0.95}};
    for (int k = 0; k < 3; k++) {
        int a = -1, h = -1;
        cr_assert(real_lab_best_head(&lab, want[k].kind, &a, &h));
        cr_assert(a == want[k].layer && h == want[k].head, "kind %d: head %d.%d", k, a, h);
        cr_assert_gt(real_lab_head_score(&lab, want[k].kind, a, h), want[k].above);
    }
    /* the first-token head, value-weighted: its share against the float64 reference */
    real_lab_find(&lab, REAL_HEAD_FIRST);
    cr_assert(lab.open_layer == 0 && lab.open_head == 1);
    cr_assert(isnan(real_lab_weighted_first(&lab)), "not computed until the lab works");
    real_lab_settle(&lab);
    char cmd[2000];
    int at = snprintf(cmd, sizeof cmd, "%s '%s/../tools/gpt2_reference.py' weighted '%s' 0 1",
                      python(), test_env("ATTNLAB_TESTDATA"), dir);
    for (int i = 0; i < n; i++) at += snprintf(cmd + at, sizeof cmd - (size_t)at, " %d", ids[i]);
    FILE *f = popen(cmd, "r");
    static char json[1 << 16];
    size_t got = fread(json, 1, sizeof json - 1, f);
    json[got] = '\0';
    cr_assert_eq(pclose(f), 0);
    cJSON *rows = cJSON_Parse(json);
    cr_assert(rows && cJSON_GetArraySize(rows) == n);
    double share = 0;
    for (int i = 1; i < n; i++) {
        cJSON *row = cJSON_GetArrayItem(rows, i);
        double all = 0;
        for (int j = 0; j <= i; j++) all += cJSON_GetArrayItem(row, j)->valuedouble;
        share += cJSON_GetArrayItem(row, 0)->valuedouble / all / (n - 1);
    }
    cJSON_Delete(rows);
    cr_assert_float_eq(real_lab_weighted_first(&lab), share, 1e-4);
    cr_assert_lt(share, 0.5, "its short value on the first token: %g", share);
    /* reversed: the weights do not just move with their tokens */
    cr_assert_not(lab.has_change);
    cr_assert(real_lab_rearrange(&lab, 0, 0));
    real_lab_settle(&lab);
    cr_assert(lab.has_change && lab.change_max > 0.5, "%g", lab.change_max);
    real_lab_free(&lab);
    checkpoint_close(&ck);
}

/* Lesson 14 with a model: --check-lessons plays it, and --by-input meets its
 * goals by clicks and keys at projector sizes, presenter mode too. Without
 * one, it passes with a note that its model goals were not judged. */
Test(real_model, lesson_14_is_met_by_input_with_a_model_and_skipped_without) {
    const char *dir = make("circuit", "--circuit");
    char cmd[1200], args[1600];
    /* English and its three translations, each checked in its own language */
    snprintf(cmd, sizeof cmd,
             "mkdir '%s/l14' && cd '%s/lessons' && cp 14-a-real-models-heads.md '%s/l14/' && "
             "for l in es de zh_CN; do mkdir '%s/l14/'$l && cp $l/14-a-real-models-heads.md "
             "'%s/l14/'$l/; done",
             top, test_env("ATTNLAB_DATA"), top, top, top);
    sh(cmd);
    static const char *const sizes[] = {"--size 1920x1080 --ui-scale 2 --presenter",
                                        "--size 1024x768", "--size 1920x1080 --ui-scale 2",
                                        "--size 1600x900",
                                        "--size 1024x768 --presenter --theme light"};
    size_t count = getenv("ATTNLAB_SANITIZED") ? 1 : sizeof sizes / sizeof *sizes;
    for (size_t k = 0; k <= count; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l14' --model '%s' %s%s", top, dir,
                 k ? "--by-input " : "", k ? sizes[k - 1] : "");
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        cr_assert(strstr(r.out, "(5 steps, 4 goals") && strstr(r.out, "4 passed, 0 failed"), "%s",
                  r.out);
        cr_assert_null(strstr(r.err, "not judged"), "%s", r.err);
        cr_assert_null(strstr(r.err, "not met by input"), "%s", r.err);
        run_free(&r);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l14'%s", top,
                 k ? " --by-input --size 1024x768" : "");
        Run r = run_attnlab_env("HF_HUB_CACHE=/nonexistent", args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.out, "4 passed, 0 failed"), "%s", r.out);
        cr_assert(strstr(r.err, "note: 4 goals read a real model, and none is open"), "%s", r.err);
        cr_assert(strstr(r.err, "zh_CN/14-a-real-models-heads.md: note: 4 goals"), "%s", r.err);
        run_free(&r);
    }
}

static atomic_int wakes;
static void count_wake(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&wakes, 1);
}

/* The window's pass on a thread of its own: the same numbers as the pass at
 * once; real_lab_work only starts it and takes it over (it never computes in
 * the frame); a new text while it runs stops it between two layers, and the
 * text shown is the new one; the thread wakes the window as it finishes (so
 * the window draws it at once, not at its next frame). Off again, the pass is
 * sliced as before. */
Test(real_model, the_pass_on_a_thread_gives_the_same_numbers_and_a_new_text_stops_it) {
    static Checkpoint ck;
    static Real_Lab lab;
    char err[600];
    cr_assert(checkpoint_open(make("t", "--seed 19 --layers 6 --heads 2 --embd 32"), &ck, err,
                              sizeof err),
              "%s", err);
    cr_assert(real_lab_attach(&lab, &ck.model, "t", err, sizeof err));
    cr_assert(real_lab_threaded(&lab, true));
    const char *first = "A first text that the thread reads", *second = "and then another one";
    cr_assert(real_lab_set_text(&lab, first, strlen(first), err, sizeof err));
    cr_assert_not(real_lab_work(&lab, 1e9), "the frame only starts the thread");
    cr_assert(real_lab_set_text(&lab, second, strlen(second), err, sizeof err));
    /* the window sleeps while the thread works, and the thread wakes it as it finishes */
    real_lab_on_wake(&lab, count_wake, NULL);
    int polls = 0;
    while (!real_lab_work(&lab, 0) && polls < 100000) {
        cr_assert(real_lab_on_threads(&lab) || atomic_load(&wakes) == 1,
                  "all that is owed runs on the thread, until it wakes the window");
        thrd_sleep(&(struct timespec){.tv_nsec = 100000}, NULL);
        polls++;
    }
    cr_assert(lab.pass_done && lab.has_shown, "%d polls", polls);
    cr_assert_not(real_lab_on_threads(&lab), "nothing is owed");
    cr_assert_eq(atomic_load(&wakes), 1, "the second text's pass woke the window once: %d",
                 atomic_load(&wakes));
    cr_assert_eq(lab.generation, 1, "the first text's pass was stopped, never shown");
    Net_Run once = {0};
    const Net_Model *m = &ck.model.weights.model;
    cr_assert(net_reserve(&once, m, lab.n));
    net_forward(m, lab.ids, lab.n, &once);
    const Net_Run *shown = real_lab_shown(&lab);
    cr_assert_eq(lab.shown_n, lab.n);
    double worst = 0;
    for (long k = 0; k < 6L * 2 * lab.n * lab.n; k++)
        worst = fmax(worst, fabs(once.attn[k] - shown->attn[k]));
    cr_assert_lt(worst, 1e-6, "the thread's weights differ by %g", worst);
    /* off: sliced again, half a layer a call */
    cr_assert(real_lab_threaded(&lab, false));
    cr_assert(real_lab_set_text(&lab, first, strlen(first), err, sizeof err));
    int slices = 0;
    while (!real_lab_work(&lab, 0)) slices++;
    cr_assert_eq(slices, 12, "6 layers in halves, then the logits with the last call: %d", slices);
    net_free(&once);
    real_lab_free(&lab);
    checkpoint_close(&ck);
}

/* Finite weights whose pass overflows (the attention's weights ×1e30): the
 * export names layer, head and cell and exits 2, printing nothing (its null
 * means masked); the Model view's lab keeps nothing of the pass and says
 * where it broke, and a finite text afterwards is shown as usual. Before,
 * every cell was exported as null, "p" as -nan, with exit 0. */
Test(real_model, a_pass_that_is_not_finite_is_named_never_drawn) {
    const char *dir = make("overflow", "--scale h.0.attn.c_attn.weight=1e30");
    Run r = export_text(dir, "Hello again, world");
    cr_assert_eq(r.status, 2, "%s", r.err);
    char want[600];
    snprintf(want, sizeof want,
             "attnlab: %s: the pass is not finite: layer 0, head 0: the score of row 0, column 0 "
             "is inf\n",
             dir);
    cr_assert_str_eq(r.err, want);
    cr_assert_str_eq(r.out, "");
    run_free(&r);
    /* in the class's language too: --lang goes with --model */
    char args[800];
    snprintf(args, sizeof args, "--lang de --model '%s' --text 'Hello again, world' --export json",
             dir);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 2, "%s", r.err);
    snprintf(want, sizeof want,
             "attnlab: %s: der Durchlauf ist nicht endlich: Schicht 0, Head 0: der Score in Zeile "
             "0, Spalte 0 ist inf\n",
             dir);
    cr_assert_str_eq(r.err, want);
    run_free(&r);
    static Checkpoint ck;
    static Real_Lab lab;
    char err[600];
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    cr_assert(real_lab_attach(&lab, &ck.model, "overflow", err, sizeof err), "%s", err);
    cr_assert(real_lab_set_text(&lab, "Hello again", 11, err, sizeof err), "%s", err);
    real_lab_settle(&lab);
    cr_assert(lab.pass_done);
    cr_assert_not(lab.has_shown, "no head of it is shown");
    cr_assert_str_eq(lab.fault, "layer 0, head 0: the score of row 0, column 0 is inf");
    real_lab_free(&lab);
    checkpoint_close(&ck);
}

/* The weights are the app's own once opened: model.safetensors cut to 100
 * bytes, then another checkpoint copied over it, under an open lab, and
 * the next passes still run on what was opened (it died of SIGBUS, the file
 * mapped). A folder with vocab.json and a complete tokenizer.json but no
 * merges.txt opens: tokenizer.json holds both. */
Test(real_model, the_weights_survive_their_file_changing_and_tokenizer_json_suffices) {
    char dir[300], other[300];
    snprintf(dir, sizeof dir, "%s", make("changing", "--seed 21"));
    static Checkpoint ck;
    static Real_Lab lab;
    char err[600], cmd[1400];
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    cr_assert(real_lab_attach(&lab, &ck.model, "changing", err, sizeof err), "%s", err);
    cr_assert(real_lab_set_text(&lab, "before the change", 17, err, sizeof err), "%s", err);
    real_lab_settle(&lab);
    float before = net_attn(&lab.runs[1 - lab.work], 1, 1)[lab.n + 1];
    snprintf(cmd, sizeof cmd, "truncate -s 100 '%s/model.safetensors'", dir);
    sh(cmd);
    cr_assert(real_lab_rearrange(&lab, 0, 0));
    real_lab_settle(&lab);
    cr_assert(real_lab_rearrange(&lab, 2, 0), "back to the text's order");
    real_lab_settle(&lab);
    cr_assert_float_eq(net_attn(&lab.runs[1 - lab.work], 1, 1)[lab.n + 1], before, 0,
                       "the same weights, bit for bit");
    snprintf(other, sizeof other, "%s", make("other", "--seed 22 --layers 3"));
    snprintf(cmd, sizeof cmd, "cp '%s/model.safetensors' '%s/model.safetensors'", other, dir);
    sh(cmd);
    cr_assert(real_lab_set_text(&lab, "after the change", 16, err, sizeof err), "%s", err);
    real_lab_settle(&lab);
    cr_assert(lab.has_shown && !lab.fault[0]);
    real_lab_free(&lab);
    checkpoint_close(&ck);

    const char *tok = make("tokjson", "--tokenizer-json strings");
    snprintf(cmd, sizeof cmd, "cp '%s/vocab.json' '%s/' && test ! -e '%s/merges.txt'", other, tok,
             tok);
    sh(cmd);
    cr_assert(checkpoint_open(tok, &ck, err, sizeof err), "%s", err);
    checkpoint_close(&ck);
}

/* Every head's S and A are kept whole, and what they take is known before a
 * pass: 2 layers of 8 heads at 4200 tokens would take 2153 MB, past the
 * 2 GiB kept (NET_STORE_BUDGET), and both the export and the Model view's lab
 * say so in one line naming the length and the model's size; a short text
 * fits. Without the bound, 8192 tokens asked for 8.6 GB. */
Test(real_model, a_text_whose_attention_would_not_fit_is_one_line) {
    /* without HF's mask buffers, which at 8192 positions are 537 MB the pass never reads */
    const char *dir = make("wide", "--layers 2 --heads 8 --embd 16 --positions 8192 --no-buffers");
    static char text[9000];
    for (int k = 0; k < 4200; k++) memcpy(text + 2 * k, " a", 2);
    text[8400] = '\0';
    char args[800];
    snprintf(args, sizeof args,
             "--model '%s' --text \"$(printf ' a%%.0s' $(seq 4200))\" --export json", dir);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, ": 4200 tokens are too many for this model: every head's scores and "
                            "weights (2 layers × 8 heads × 4200² cells, twice) would take 2153 MB, "
                            "more than the 2048 MB kept; give a shorter text\n"),
              "%s", r.err);
    cr_assert_str_eq(r.out, "");
    run_free(&r);
    static Checkpoint ck;
    static Real_Lab lab;
    char err[600];
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    cr_assert(real_lab_attach(&lab, &ck.model, "wide", err, sizeof err), "%s", err);
    cr_assert_not(real_lab_set_text(&lab, text, 8400, err, sizeof err));
    cr_assert(strstr(err, "4200 tokens are too many for this model"), "%s", err);
    cr_assert(real_lab_set_text(&lab, text, 200, err, sizeof err), "100 tokens fit: %s", err);
    real_lab_free(&lab);
    checkpoint_close(&ck);
}

/* The model loader's lines speak the chosen language (they were English under --lang): a
 * header cut short, another architecture, a text too long for the model, a NaN weight. */
Test(real_model, the_loaders_lines_are_in_the_chosen_language) {
    const char *good = make("lang", "--seed 12 --positions 4");
    char good_dir[300], args[1000];
    snprintf(good_dir, sizeof good_dir, "%s", good);
    const char *empty = broken(good_dir, "empty", ": > model.safetensors");
    snprintf(args, sizeof args, "--lang de --model '%s' --text hi --export json", empty);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "/model.safetensors: die Datei ist leer\n"), "%s", r.err);
    run_free(&r);
    const char *other = broken(good_dir, "mistral", "sed -i 's/\"gpt2\"/\"mistral\"/' config.json");
    snprintf(args, sizeof args, "--lang es --model '%s' --text hi --export json", other);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "model_type \"mistral\" no se lee: attnlab lee los tipos de modelo "
                            "gpt2, llama, qwen2 y qwen3"),
              "%s", r.err);
    run_free(&r);
    snprintf(args, sizeof args, "--lang zh_CN --model '%s' --text 'a b c d e f' --export json",
             good_dir);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "文本超过 4 个词元"), "%s", r.err);
    run_free(&r);
    const char *cut =
        broken(good_dir, "cut", "printf '\\010\\0\\0\\0\\0\\0\\0\\0{' > model.safetensors");
    snprintf(args, sizeof args, "--lang de --model '%s' --text hi --export json", cut);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    cr_assert(
        strstr(r.err, "keine safetensors-Datei: ihre Headerlänge 8 ist jenseits des Dateiendes"),
        "%s", r.err);
    run_free(&r);
}

/* A head wider than the explorer takes has its "explore ↗" off, never a button that refuses
 * when pressed; the pointer on it says why. A head it takes keeps the button. */
Test(real_model, explore_is_off_with_its_reason_for_a_head_too_wide) {
    const char *wide = make("wide", "--seed 21 --layers 1 --heads 2 --embd 160 --positions 16");
    char args[800];
    snprintf(args, sizeof args,
             "--dump-ui --view model --model '%s' --text 'one two three' --layer 0 --head 1", wide);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"kind\": \"disabled\", \"id\": \"model_explore\""), "%.300s", r.out);
    cr_assert_null(strstr(r.out, "\"kind\": \"button\", \"id\": \"model_explore\""));
    run_free(&r);
    const char *narrow = make("narrow", "--seed 22 --layers 1 --heads 2 --embd 32 --positions 16");
    snprintf(args, sizeof args,
             "--dump-ui --view model --model '%s' --text 'one two three' --layer 0 --head 1",
             narrow);
    r = run_attnlab(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"kind\": \"button\", \"id\": \"model_explore\""), "%.300s", r.out);
    run_free(&r);
}
