/* The Llama family's rows of the checkpoint table (Llama, Qwen2, Qwen3)
 * from the command line: `--model DIR --text … --export json` on random
 * checkpoints that tests/tools/llama_reference.py writes as transformers
 * writes them (grouped-query heads, head_dim apart from the width, Qwen2's
 * biases, Qwen3's q/k norms, Llama 3's RoPE scaling, transformers 5's
 * rope_parameters, tied and separate lm_head, F32, F16, BF16 and mixed, one
 * file or shards with their index), checked against that tool's float64 pass:
 * every head's weights within 1e-4, scores and logits within 1e-4 of their
 * largest magnitude. Then every broken folder is one line naming its file. */
#define _POSIX_C_SOURCE 200809L
#include "reference_run.h"

#include <stdlib.h>
#include <string.h>

static char top[] = "/tmp/attnlab-llama-XXXXXX";

static void setup(void) {
    cr_assert(mkdtemp(top));
}

static void teardown(void) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(llama_family, .init = setup, .fini = teardown, .timeout = 120);

static const char *make(const char *name, const char *options) {
    return ref_make("llama_reference.py", top, name, options);
}
static void matches(const char *dir) {
    ref_matches("llama_reference.py", top, dir,
                "The cat sat on the mat. The cat sat on the mat, and then the cat");
}

Test(llama_family, each_family_matches_the_float64_reference) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("numbers: judged in the normal pass");
    /* SmolLM2's kind: grouped-query heads, untied */
    matches(make("llama", "--family llama --heads 4 --kv-heads 2 --seed 1"));
    /* Qwen2.5: q/k/v biases, one key/value head for four, BF16 */
    matches(make("qwen2", "--family qwen2 --kv-heads 1 --dtype bf16 --seed 2"));
    /* Qwen3: q/k norms, 4 heads of 16 from a stream of 24, tied, mixed dtypes */
    matches(make("qwen3", "--family qwen3 --head-dim 16 --tied --dtype mixed --seed 3"));
}

Test(llama_family, rope_scaling_shards_and_transformers_5_match_too) {
    /* Llama 3.2: llama3 scaling (original 16 positions: every kind of pair), 3 shards */
    matches(make("llama3", "--family llama --rope-scaling llama3 --shards 3 --tied --seed 4"));
    /* transformers 5's rope_parameters, Llama's attention_bias, F16 */
    matches(make("tf5", "--family llama --rope-parameters --rope-scaling llama3 "
                        "--attention-bias --dtype f16 --seed 5"));
    /* Qwen3 as transformers 5 writes it: θ in rope_parameters, 2 shards, heads = kv heads */
    matches(make("qwen3-tf5", "--family qwen3 --rope-parameters --theta 1000000 --shards 2 "
                              "--kv-heads 4 --seed 6"));
}

/* The same checkpoint in one file and in shards gives the same export, bit
 * for bit (only the model's name differs). */
Test(llama_family, shards_are_the_one_file_split) {
    const char *text = "one file or three";
    Run a = export_text(make("one", "--family qwen2 --seed 7"), text);
    Run b = export_text(make("three", "--family qwen2 --seed 7 --shards 3"), text);
    cr_assert_eq(a.status + b.status, 0, "%s%s", a.err, b.err);
    cr_assert_str_eq(strstr(a.out, "\"ids\""), strstr(b.out, "\"ids\""));
    run_free(&a);
    run_free(&b);
}

static const char *broken(const char *good, const char *name, const char *how) {
    return ref_broken(top, good, name, how);
}

/* config.json with key's value replaced (a sed on the tool's indented JSON) */
static const char *config_with(const char *good, const char *name, const char *sed) {
    char how[600];
    snprintf(how, sizeof how, "sed -i '%s' config.json", sed);
    return broken(good, name, how);
}

Test(llama_family, every_broken_folder_is_one_line_naming_the_file) {
    char good[300], tied[300], sharded[300];
    snprintf(good, sizeof good, "%s", make("good", "--family llama --seed 8"));
    snprintf(tied, sizeof tied, "%s", make("tiedgood", "--family llama --seed 8 --tied"));
    snprintf(sharded, sizeof sharded, "%s", make("sharded", "--family llama --seed 8 --shards 2"));
    /* what the config holds that is not computed: each named */
    refused(export_text(config_with(good, "yarn",
                                    "s/\"rope_scaling\": null/\"rope_scaling\": "
                                    "{\"rope_type\": \"yarn\", \"factor\": 4}/"),
                        "hi"),
            "config.json", "RoPE scaling \"yarn\" is not computed");
    refused(export_text(config_with(good, "gelu", "s/\"silu\"/\"gelu\"/"), "hi"), "config.json",
            "hidden_act gelu is not computed");
    refused(export_text(config_with(good, "kv3",
                                    "s/\"num_key_value_heads\": 2/"
                                    "\"num_key_value_heads\": 3/"),
                        "hi"),
            "config.json", "num_attention_heads 4 is not a multiple of num_key_value_heads 3");
    refused(export_text(config_with(good, "mlpbias",
                                    "s/\"attention_bias\": false/"
                                    "\"mlp_bias\": true/"),
                        "hi"),
            "config.json", "mlp_bias");
    refused(export_text(config_with(good, "moe",
                                    "s/\"attention_bias\": false/"
                                    "\"num_local_experts\": 8/"),
                        "hi"),
            "config.json", "mixture of experts");
    refused(export_text(config_with(good, "nolayers", "/num_hidden_layers/d"), "hi"), "config.json",
            "no \"num_hidden_layers\"");
    /* untied without its lm_head; a misshapen key projection */
    refused(export_text(config_with(tied, "untied",
                                    "s/\"tie_word_embeddings\": true/"
                                    "\"tie_word_embeddings\": false/"),
                        "hi"),
            "model.safetensors", "no tensor 'lm_head.weight'");
    refused(export_text(config_with(good, "headdim", "s/\"head_dim\": 8/\"head_dim\": 6/"), "hi"),
            "model.safetensors", "the config asks for");
    /* shards: one missing, an index naming a file outside the folder, a tensor it misplaces,
       a tensor it does not list, no index at all */
    refused(export_text(broken(sharded, "noshard", "rm model-00002-of-00002.safetensors"), "hi"),
            "model-00002-of-00002.safetensors", NULL);
    refused(export_text(broken(sharded, "outside",
                               "sed -i 's/model-00002-of-00002.safetensors/..\\/x.safetensors/' "
                               "model.safetensors.index.json"),
                        "hi"),
            "model.safetensors.index.json", "plain name ending in .safetensors");
    refused(export_text(broken(sharded, "misplaced",
                               "sed -i '0,/00002-of/s/00002-of/00001-of/' "
                               "model.safetensors.index.json"),
                        "hi"),
            "model.safetensors.index.json", "where it says");
    refused(export_text(broken(sharded, "unlisted",
                               "sed -i '/model.norm.weight/d' model.safetensors.index.json"),
                        "hi"),
            "model.safetensors.index.json", "which it does not list");
    refused(export_text(broken(sharded, "noindex", "rm model.safetensors.index.json"), "hi"),
            "model.safetensors", NULL);
}

/* A tokenizer.json that asks for what attnlab does not do (another
 * normalizer, a Replace of a regex, a Metaspace with another mark,
 * ByteLevel's prefix space, a pattern PCRE2 cannot compile, another
 * post-processor) is refused by name: its ids would not be the model's. A
 * text with a character the vocabulary lacks, where the tokenizer has no
 * fallback for it, is refused when typed. What it does do is held to
 * Hugging Face's ids on real files in tests/tokenizers/check.mjs. */
Test(llama_family, a_tokenizer_attnlab_does_not_read_is_named) {
    char good[300];
    snprintf(good, sizeof good, "%s", make("good", "--family qwen2 --seed 9"));
    static const struct {
        const char *name, *sed, *says;
    } bad[] = {
        {"mark", "s/\"type\": \"ByteLevel\"/\"type\": \"Metaspace\", \"replacement\": \"_\"/",
         "Metaspace replacement other than"},
        {"regex",
         "s/\"normalizer\": null/\"normalizer\": {\"type\": \"Replace\", \"pattern\": "
         "{\"Regex\": \" \"}, \"content\": \"x\"}/",
         "normalizer Replace of a Regex"},
        {"nfkc", "s/\"normalizer\": null/\"normalizer\": {\"type\": \"NFKC\"}/", "normalizer NFKC"},
        {"prefix", "s/\"add_prefix_space\": false/\"add_prefix_space\": true/", "add_prefix_space"},
        {"pattern",
         "s/\"pre_tokenizer\": {/\"pre_tokenizer\": {\"type\": \"Sequence\", \"pretokenizers\": "
         "[{\"type\": \"Split\", \"behavior\": \"Isolated\", \"pattern\": {\"Regex\": "
         "\"(?<\"}}, {/; s/\"use_regex\": true}/\"use_regex\": true}]}/",
         "the Split pattern does not compile"},
        {"roberta",
         "s/\"normalizer\": null/\"post_processor\": {\"type\": "
         "\"RobertaProcessing\"}, \"normalizer\": null/",
         "post_processor RobertaProcessing"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char how[600];
        snprintf(how, sizeof how, "sed -i '%s' tokenizer.json", bad[k].sed);
        refused(export_text(broken(good, bad[k].name, how), "hi"), "tokenizer.json", bad[k].says);
    }
    /* Metaspace without ByteLevel: the vocabulary is text, and has no ▁ */
    const char *bare = broken(good, "metaspace",
                              "sed -i 's/\"type\": \"ByteLevel\"/\"type\": \"Metaspace\"/' "
                              "tokenizer.json");
    refused(export_text(bare, "h i"), "--text",
            "the character U+2581 is not in the tokenizer's vocabulary");
}

/* Lesson 15 on the hand-set Llama (llama_reference.py make --circuit): a
 * previous-token head made by RoPE alone and an attention sink that share one
 * key/value head. First the circuit's heads are what the lesson needs, from
 * the export (and the float64 pass); then --check-lessons plays the lesson in
 * English and its three translations, and --by-input meets its goals by clicks
 * at projector sizes, presenter mode too. Without a model it passes with a
 * note; with a model that has no RoPE (GPT-2's kind), its RoPE goal is not
 * judged, and a note says so. */
Test(llama_family, lesson_15_is_met_by_input_on_a_modern_model_and_skipped_without) {
    const char *dir = make("circuit", "--circuit");
    char cmd[1400], args[1600];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' --model . --text 'The cat sat on the mat, and the dog sat on the "
             "rug by the door.' --export json > e.json && /usr/bin/python3 -c \"import json; "
             "d = json.load(open('e.json')); A = d['attn'][0]; n = d['n']; "
             "prev = sum(A[0][i][i - 1] for i in range(1, n)) / (n - 1); "
             "first = sum(A[1][i][0] for i in range(1, n)) / (n - 1); t = d['turn_moved'][0]; "
             "assert d['ids'][0] == 512 and prev > 0.8 and first > 0.95, (prev, first); "
             "assert t[0] > 0.6 and t[1] < 0.01, t\"",
             dir, test_env("ATTNLAB_BIN"));
    sh(cmd);
    matches(dir);
    snprintf(cmd, sizeof cmd,
             "mkdir '%s/l15' && cd '%s/lessons' && cp 15-a-modern-model.md '%s/l15/' && "
             "for l in es de zh_CN; do mkdir '%s/l15/'$l && cp $l/15-a-modern-model.md "
             "'%s/l15/'$l/; done",
             top, test_env("ATTNLAB_DATA"), top, top, top);
    sh(cmd);
    static const char *const sizes[] = {"--size 1920x1080 --ui-scale 2 --presenter",
                                        "--size 1024x768", "--size 1920x1080 --ui-scale 2",
                                        "--size 1600x900",
                                        "--size 1024x768 --presenter --theme light"};
    size_t count = getenv("ATTNLAB_SANITIZED") ? 1 : sizeof sizes / sizeof *sizes;
    for (size_t k = 0; k <= count; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l15' --model '%s' %s%s", top, dir,
                 k ? "--by-input " : "", k ? sizes[k - 1] : "");
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        cr_assert(strstr(r.out, "(4 steps, 2 goals") && strstr(r.out, "4 passed, 0 failed"), "%s",
                  r.out);
        cr_assert_null(strstr(r.err, "not judged"), "%s", r.err);
        cr_assert_null(strstr(r.err, "not met by input"), "%s", r.err);
        run_free(&r);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l15'%s", top,
                 k ? " --by-input --size 1024x768" : "");
        Run r = run_attnlab_env("HF_HUB_CACHE=/nonexistent", args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.out, "4 passed, 0 failed"), "%s", r.out);
        cr_assert(strstr(r.err, "note: 2 goals read a real model, and none is open"), "%s", r.err);
        run_free(&r);
    }
    /* GPT-2's kind: no RoPE, so the turn is not judged; the sink goal still is */
    const char *gpt2 = ref_make("gpt2_reference.py", top, "gpt2", "--circuit");
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l15' --model '%s'%s", top, gpt2,
                 k ? " --by-input --size 1024x768" : "");
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.out, "4 passed, 0 failed"), "%s", r.out);
        cr_assert(strstr(r.err, "note: 1 goal reads RoPE's turn, and the model open has no RoPE"),
                  "%s", r.err);
        run_free(&r);
    }
}
