/* src/checkpoint/gpt2.c: GPT-2's config.json is read with its defaults and
 * anything else is refused by name; a checkpoint's tensors are found with
 * or without the prefix, each of the shape the config asks for, and the
 * first one missing or misshapen is named. */
#include "checkpoint/gpt2.h"
#include "test_util.h"

#include <string.h>

static St_Set set;
static St_File *const f = &set.file[0];
static Model_Weights t;

static void teardown(void) {
    st_free(f);
    model_weights_free(&t);
}

TestSuite(gpt2, .fini = teardown);

/* GPT-2 small's config.json as the Hugging Face hub has it */
static const char small[] =
    "{\"activation_function\": \"gelu_new\", \"architectures\": [\"GPT2LMHeadModel\"], "
    "\"attn_pdrop\": 0.1, \"bos_token_id\": 50256, \"embd_pdrop\": 0.1, \"eos_token_id\": 50256, "
    "\"initializer_range\": 0.02, \"layer_norm_epsilon\": 1e-05, \"model_type\": \"gpt2\", "
    "\"n_ctx\": 1024, \"n_embd\": 768, \"n_head\": 12, \"n_layer\": 12, \"n_positions\": 1024, "
    "\"resid_pdrop\": 0.1, \"summary_activation\": null, \"summary_first_dropout\": 0.1, "
    "\"summary_proj_to_labels\": true, \"summary_type\": \"cls_index\", \"summary_use_proj\": "
    "true, \"task_specific_params\": {\"text-generation\": {\"do_sample\": true, \"max_length\": "
    "50}}, \"vocab_size\": 50257}";

Test(gpt2, gpt2_smalls_config_reads) {
    Gpt2_Config c;
    char err[300];
    cr_assert(gpt2_config_parse(small, strlen(small), "config.json", &c, err, sizeof err), "%s",
              err);
    cr_assert(c.n_layer == 12 && c.n_head == 12 && c.n_embd == 768 && c.n_positions == 1024);
    cr_assert(c.vocab_size == 50257 && c.n_inner == 3072 && c.layer_norm_epsilon == 1e-5);
    static const char bare[] = "{\"n_layer\": 2, \"n_head\": 2, \"n_embd\": 8, \"n_positions\": "
                               "16, \"vocab_size\": 40, \"n_inner\": null}";
    cr_assert(gpt2_config_parse(bare, strlen(bare), "config.json", &c, err, sizeof err), "%s", err);
    cr_assert(c.n_inner == 32 && c.layer_norm_epsilon == 1e-5, "the defaults");
}

Test(gpt2, other_configs_are_one_line) {
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"{\"model_type\": \"llama\", \"n_layer\": 2}",
         "c.json: model_type \"llama\" is not read: attnlab reads GPT-2-family checkpoints"},
        {"{\"architectures\": [\"BertModel\"], \"n_layer\": 2}",
         "c.json: architectures BertModel is not read: attnlab reads GPT-2's (GPT2LMHeadModel)"},
        {"{\"n_head\": 2, \"n_embd\": 8, \"n_positions\": 16, \"vocab_size\": 40}",
         "c.json: no \"n_layer\""},
        {"{\"n_layer\": 2.5, \"n_head\": 2, \"n_embd\": 8, \"n_positions\": 16, \"vocab_size\": "
         "40}",
         "c.json: \"n_layer\" must be a whole number from 1 to 96"},
        {"{\"n_layer\": 2, \"n_head\": 3, \"n_embd\": 8, \"n_positions\": 16, \"vocab_size\": 40}",
         "c.json: n_embd 8 is not a multiple of n_head 3"},
        {"{\"n_layer\": 2, \"n_head\": 2, \"n_embd\": 8, \"n_positions\": 16, \"vocab_size\": 40, "
         "\"activation_function\": \"relu\"}",
         "c.json: activation_function relu is not computed"},
        {"{\"n_layer\": 2, \"n_head\": 2, \"n_embd\": 8, \"n_positions\": 16, \"vocab_size\": 40, "
         "\"layer_norm_epsilon\": 0}",
         "c.json: \"layer_norm_epsilon\" must be a number above 0 and below 1"},
        {"[]", "c.json: not a JSON object"},
        {"{\"n_layer\": 1,}", "c.json:1:"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        Gpt2_Config c = {.n_layer = -4};
        char err[300];
        cr_assert_not(
            gpt2_config_parse(bad[k].text, strlen(bad[k].text), "c.json", &c, err, sizeof err),
            "accepted %s", bad[k].text);
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s' is not '%s'", err,
                  bad[k].says);
        cr_assert_eq(c.n_layer, -4, "a refused config leaves c alone");
    }
}

/* A checkpoint of zeros for this config: every tensor but `skip`, with
 * `odd` transposed, the prefix on every other name, lm_head if asked. */
static uint8_t file[1 << 20];
static const char *twin; /* a tensor written under both names, with and without the prefix */
static uint64_t checkpoint(const Gpt2_Config *c, const char *skip, const char *odd, bool lm_head) {
    static char header[1 << 16];
    int d = c->n_embd, V = c->vocab_size, P = c->n_positions, I = c->n_inner;
    struct {
        char name[64];
        int d0, d1;
    } list[200];
    int n = 0;
#define ADD(nm, a, b) snprintf(list[n].name, 64, "%s", nm), list[n].d0 = a, list[n++].d1 = b
    ADD("wte.weight", V, d);
    ADD("wpe.weight", P, d);
    for (int l = 0; l < c->n_layer; l++) {
        static const char *const parts[] = {
            "ln_1.weight",        "ln_1.bias",        "attn.c_attn.weight", "attn.c_attn.bias",
            "attn.c_proj.weight", "attn.c_proj.bias", "ln_2.weight",        "ln_2.bias",
            "mlp.c_fc.weight",    "mlp.c_fc.bias",    "mlp.c_proj.weight",  "mlp.c_proj.bias",
            "attn.bias"};
        const int d0[] = {d, d, d, 3 * d, d, d, d, d, d, I, I, d, 1};
        const int d1[] = {0, 0, 3 * d, 0, d, 0, 0, 0, I, 0, d, 0, 1};
        for (int p = 0; p < 13; p++) {
            char nm[64];
            snprintf(nm, sizeof nm, "h.%d.%s", l, parts[p]);
            ADD(nm, d0[p], d1[p]);
        }
    }
    ADD("ln_f.weight", d, 0);
    ADD("ln_f.bias", d, 0);
    if (lm_head) ADD("lm_head.weight", V, d);
#undef ADD
    size_t used = (size_t)snprintf(header, sizeof header, "{");
    uint64_t off = 0;
    for (int k = 0; k < n; k++) {
        if (skip && !strcmp(list[k].name, skip)) continue;
        int a = list[k].d0, b = list[k].d1;
        if (odd && !strcmp(list[k].name, odd)) { /* transposed, or one longer */
            a = list[k].d1 ? list[k].d1 : a + 1;
            b = list[k].d1 ? list[k].d0 : 0;
        }
        uint64_t bytes = 4ull * (uint64_t)a * (uint64_t)(b ? b : 1);
        char shape[40];
        if (b)
            snprintf(shape, sizeof shape, "[%d,%d]", a, b);
        else
            snprintf(shape, sizeof shape, "[%d]", a);
        used +=
            (size_t)snprintf(header + used, sizeof header - used,
                             "%s\"%s%s\":{\"dtype\":\"F32\",\"shape\":%s,\"data_offsets\":[%llu,"
                             "%llu]}",
                             used > 1 ? "," : "", k % 2 ? "transformer." : "", list[k].name, shape,
                             (unsigned long long)off, (unsigned long long)(off + bytes));
        off += bytes;
        if (twin && !strcmp(list[k].name, twin)) /* again, under the other name */
            used += (size_t)snprintf(header + used, sizeof header - used,
                                     ",\"%s%s\":{\"dtype\":\"F32\",\"shape\":%s,\"data_offsets\":["
                                     "%llu,%llu]}",
                                     k % 2 ? "" : "transformer.", list[k].name, shape,
                                     (unsigned long long)off, (unsigned long long)(off + bytes)),
                off += bytes;
    }
    used += (size_t)snprintf(header + used, sizeof header - used, "}");
    for (int k = 0; k < 8; k++) file[k] = (uint8_t)((uint64_t)used >> (8 * k));
    memcpy(file + 8, header, used);
    cr_assert_lt(8 + used + off, sizeof file);
    memset(file + 8 + used, 0, off);
    return 8 + used + off;
}

static const Gpt2_Config tiny = {.n_layer = 2,
                                 .n_head = 2,
                                 .n_embd = 4,
                                 .n_positions = 8,
                                 .vocab_size = 10,
                                 .n_inner = 16,
                                 .layer_norm_epsilon = 1e-5};

/* tiny's config.json, read by the family table: GPT-2's row */
static Model_Config tiny_config(void) {
    static const char text[] = "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 2, "
                               "\"n_embd\": 4, \"n_positions\": 8, \"vocab_size\": 10, "
                               "\"n_inner\": 16}";
    Model_Config c;
    char err[300];
    cr_assert(model_config_parse(text, strlen(text), "config.json", &c, err, sizeof err), "%s",
              err);
    cr_assert_str_eq(model_family_name(&c), "GPT-2");
    return c;
}

/* The checkpoint's bytes as a set of one file. */
static bool parse(uint64_t size, const char *name, char *err, size_t errsz) {
    set.count = 1;
    set.bytes[0] = file;
    return st_parse(file, size, name, f, err, errsz);
}

Test(gpt2, every_tensor_is_found_with_its_shape) {
    char err[400];
    Model_Config c = tiny_config();
    uint64_t size = checkpoint(&tiny, NULL, NULL, false);
    cr_assert(parse(size, "model.safetensors", err, sizeof err), "%s", err);
    cr_assert(model_weights_load(&set, "model.safetensors", &c, &t, err, sizeof err), "%s", err);
    cr_assert_eq(t.model.unembed, t.model.wte, "no lm_head: tied to wte");
    cr_assert(t.blocks[1].down_w && t.model.blocks == t.blocks);
    int count;
    const St_Tensor *wpe = st_set_find(&set, "wpe.weight", "transformer.", &count);
    cr_assert(wpe && count == 1 && !strncmp(wpe->name, "transformer.", 12),
              "found behind its prefix");
    cr_assert(t.model.wte && t.model.wpe && t.model.normf_w && t.model.normf_b &&
              t.blocks[0].qkv_w);
    cr_assert_eq(t.blocks[0].k_b, t.blocks[0].q_b + 4, "c_attn's bias is Q's, K's and V's");
    cr_assert_eq(t.model.norm, NET_NORM_LAYER);
    cr_assert_eq(t.model.mlp, NET_MLP_GELU);
    model_weights_free(&t);
    st_free(f);
    size = checkpoint(&tiny, NULL, NULL, true);
    cr_assert(parse(size, "model.safetensors", err, sizeof err), "%s", err);
    cr_assert(model_weights_load(&set, "model.safetensors", &c, &t, err, sizeof err), "%s", err);
    cr_assert_neq(t.model.unembed, t.model.wte);
}

Test(gpt2, a_missing_or_misshapen_tensor_is_named) {
    static const struct {
        const char *skip, *odd;
        bool lm_head;
        const char *says;
    } bad[] = {
        {"h.1.mlp.c_fc.bias", NULL, false,
         "m.st: no tensor 'h.1.mlp.c_fc.bias' (or 'transformer.h.1.mlp.c_fc.bias')"},
        {"wpe.weight", NULL, false, "m.st: no tensor 'wpe.weight'"},
        {NULL, "h.0.attn.c_attn.weight", false,
         "h.0.attn.c_attn.weight' is [12, 4]; the config asks for [4, 12]"},
        {NULL, "ln_f.bias", false, "ln_f.bias' is [5]; the config asks for [4]"},
        {NULL, "lm_head.weight", true, "lm_head.weight' is [4, 10]; the config asks for [10, 4]"},
    };
    Model_Config c = tiny_config();
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char err[400];
        uint64_t size = checkpoint(&tiny, bad[k].skip, bad[k].odd, bad[k].lm_head);
        cr_assert(parse(size, "m.st", err, sizeof err), "%s", err);
        t = (Model_Weights){0};
        cr_assert_not(model_weights_load(&set, "m.st", &c, &t, err, sizeof err), "case %zu", k);
        cr_assert(!strncmp(err, "m.st: ", 6) && strstr(err, bad[k].says), "'%s' lacks '%s'", err,
                  bad[k].says);
        cr_assert_null(t.blocks, "nothing kept");
        st_free(f);
    }
}

/* wpe.weight and transformer.wpe.weight, with other bytes: one was used
 * without a word. Which is the weight is not ours to guess. */
Test(gpt2, a_weight_under_two_names_is_refused) {
    char err[400];
    Model_Config c = tiny_config();
    twin = "wpe.weight";
    uint64_t size = checkpoint(&tiny, NULL, NULL, false);
    twin = NULL;
    cr_assert(parse(size, "m.st", err, sizeof err), "%s", err);
    t = (Model_Weights){0};
    cr_assert_not(model_weights_load(&set, "m.st", &c, &t, err, sizeof err));
    cr_assert_str_eq(err, "m.st: both 'wpe.weight' and 'transformer.wpe.weight' are there: which "
                          "one is the weight is not clear");
    cr_assert_null(t.blocks, "nothing kept");
}
