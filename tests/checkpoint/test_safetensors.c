/* src/checkpoint/safetensors.c: a header is read only when every field holds,
 * each problem is one line naming the file, and F32, F16 and BF16 widen to
 * the exact float32 values. Files are built in memory here. */
#include "checkpoint/safetensors.h"
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint8_t buf[1 << 16];
static St_File f;

static void teardown(void) {
    st_free(&f);
}

TestSuite(safetensors, .fini = teardown);

/* header JSON, padded with spaces to `pad` bytes if larger, then `data` */
static uint64_t build(const char *header, const void *data, size_t data_len, size_t pad) {
    size_t n = strlen(header);
    size_t padded = n < pad ? pad : n;
    for (int k = 0; k < 8; k++) buf[k] = (uint8_t)((uint64_t)padded >> (8 * k));
    memcpy(buf + 8, header, n);
    memset(buf + 8 + n, ' ', padded - n);
    if (data_len) memcpy(buf + 8 + padded, data, data_len);
    return 8 + padded + data_len;
}

Test(safetensors, a_good_file_reads_every_dtype_exactly) {
    /* F32 [2,2], F16 [5], BF16 [2], a scalar, an empty tensor, metadata */
    uint8_t data[16 + 10 + 4 + 4];
    const float f32[4] = {1.5f, -2.25f, 3e-7f, 65504.0f};
    memcpy(data, f32, 16); /* little-endian, as the format */
    const uint16_t f16[5] = {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x8000}; /* 1, −2, 65504, 2^−24, −0 */
    memcpy(data + 16, f16, 10);
    const uint16_t bf16[2] = {0x3F80, 0xC0A0}; /* 1, −5 */
    memcpy(data + 26, bf16, 4);
    const float scalar = 7;
    memcpy(data + 30, &scalar, 4);
    static const char header[] =
        "{\"__metadata__\":{\"format\":\"pt\"},"
        "\"transformer.wte.weight\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
        "\"h.0.ln_1.bias\":{\"dtype\":\"F16\",\"shape\":[5],\"data_offsets\":[16,26]},"
        "\"b\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[26,30]},"
        "\"s\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[30,34]},"
        "\"e\":{\"dtype\":\"F16\",\"shape\":[0,3],\"data_offsets\":[34,34]}}";
    uint64_t size = build(header, data, sizeof data, 64);
    char err[400];
    cr_assert(st_parse(buf, size, "m.safetensors", &f, err, sizeof err), "%s", err);
    cr_assert_eq(f.count, 5, "the metadata is not a tensor");
    const St_Tensor *w = st_find(&f, "wte.weight");
    cr_assert_not_null(w, "found without its transformer. prefix");
    cr_assert_eq(w, st_find(&f, "transformer.wte.weight"));
    cr_assert_null(st_find(&f, "wpe.weight"));
    cr_assert(w->dims == 2 && w->shape[0] == 2 && w->shape[1] == 2 && w->dtype == ST_F32);
    float out[8];
    cr_assert(st_read_f32(&f, w, buf, out, err, sizeof err), "%s", err);
    cr_assert_eq(memcmp(out, f32, sizeof f32), 0);
    cr_assert(st_read_f32(&f, st_find(&f, "h.0.ln_1.bias"), buf, out, err, sizeof err), "%s", err);
    cr_assert(out[0] == 1 && out[1] == -2 && out[2] == 65504);
    cr_assert_eq(out[3], ldexpf(1, -24), "the smallest subnormal half");
    cr_assert(out[4] == 0 && signbit(out[4]), "−0 keeps its sign");
    cr_assert(st_read_f32(&f, st_find(&f, "b"), buf, out, err, sizeof err), "%s", err);
    cr_assert(out[0] == 1 && out[1] == -5);
    const St_Tensor *s = st_find(&f, "s");
    cr_assert_eq(s->dims, 0);
    cr_assert_eq(st_elements(s), 1, "a scalar holds one element");
    cr_assert(st_read_f32(&f, s, buf, out, err, sizeof err) && out[0] == 7);
    cr_assert_eq(st_elements(st_find(&f, "e")), 0);
}

/* Every half: normals, subnormals and signs against ldexp arithmetic. */
Test(safetensors, every_half_widens_to_its_value) {
    static uint16_t all[1 << 16];
    int finite = 0;
    for (int h = 0; h < 1 << 16; h++)
        if ((h >> 10 & 0x1F) != 0x1F) all[finite++] = (uint16_t)h;
    char header[160];
    snprintf(header, sizeof header,
             "{\"x\":{\"dtype\":\"F16\",\"shape\":[%d],\"data_offsets\":[0,%d]}}", finite,
             2 * finite);
    static uint8_t big[8 + 160 + 2 * 65536];
    size_t n = strlen(header);
    for (int k = 0; k < 8; k++) big[k] = (uint8_t)((uint64_t)n >> (8 * k));
    memcpy(big + 8, header, n);
    memcpy(big + 8 + n, all, 2 * (size_t)finite);
    char err[300];
    cr_assert(st_parse(big, 8 + n + 2 * (uint64_t)finite, "h.safetensors", &f, err, sizeof err),
              "%s", err);
    static float out[1 << 16];
    cr_assert(st_read_f32(&f, &f.tensors[0], big, out, err, sizeof err), "%s", err);
    for (int k = 0; k < finite; k++) {
        int h = all[k], e = h >> 10 & 0x1F, m = h & 0x3FF;
        double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
        if (h & 0x8000) v = -v;
        cr_assert_eq((double)out[k], v, "half %04x", h);
    }
}

/* NaN and infinity in the weights are refused, naming the tensor and place. */
Test(safetensors, a_nan_weight_is_refused_by_name) {
    const float data[3] = {1, NAN, 2};
    uint64_t size =
        build("{\"h.3.mlp.c_fc.weight\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}",
              data, sizeof data, 0);
    char err[300];
    cr_assert(st_parse(buf, size, "m.safetensors", &f, err, sizeof err), "%s", err);
    float out[3];
    cr_assert_not(st_read_f32(&f, &f.tensors[0], buf, out, err, sizeof err));
    cr_assert_str_eq(err, "m.safetensors: tensor 'h.3.mlp.c_fc.weight': element 1 is NaN");
    const uint16_t inf = 0x7C00;
    size = build("{\"x\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[0,2]}}", &inf, 2, 0);
    st_free(&f);
    cr_assert(st_parse(buf, size, "m.safetensors", &f, err, sizeof err), "%s", err);
    cr_assert_not(st_read_f32(&f, &f.tensors[0], buf, out, err, sizeof err));
    cr_assert_str_eq(err, "m.safetensors: tensor 'x': element 0 is infinite");
}

/* Each broken header is one line naming the file, and f is not touched. */
Test(safetensors, every_broken_header_is_one_line) {
    static const struct {
        const char *header;
        size_t data;
        const char *says;
    } bad[] = {
        {"[1,2]", 0, "b.st: not a safetensors file: its header does not start with '{'"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4, "b.st: tensor 'x': no data_offsets"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"y\":1}}", 4,
         "b.st: tensor 'x': unknown field 'y'"},
        {"{\"x\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]}}", 8,
         "b.st: tensor 'x': dtype I64 is not supported (F32, F16 and BF16 are read)"},
        {"{\"x\":{\"dtype\":\"F33\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
         "b.st: tensor 'x': dtype 'F33' is unknown (F32, F16 and BF16 are read)"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4,
         "b.st: tensor 'x': shape entry 0 is not a whole number"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}", 4,
         "b.st: tensor 'x': shape entry 0 is not a whole number"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,1],\"data_offsets\":[0,4]}}", 4,
         "b.st: tensor 'x': more than 8 dimensions"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", 4,
         "b.st: tensor 'x': data_offsets are not whole numbers begin <= end inside the 4 bytes"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 4,
         "b.st: tensor 'x': data_offsets are not whole numbers begin <= end inside the 4 bytes"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8,
         "b.st: tensor 'x': data_offsets hold 8 bytes, but its shape of F32 needs 12"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776],\"data_offsets\":[0,"
         "8]}}",
         8, "b.st: tensor 'x': data_offsets hold 8 bytes, but its shape of F32 needs more than"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"y\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
         12, "b.st: tensors 'x' and 'y' share bytes 4 to 8"},
        {"{\"__metadata__\":{\"a\":1}}", 0, "b.st: __metadata__ is not an object of strings"},
        {"{\"x\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},\"x\":{}}", 4,
         "b.st header:1:"}, /* a key twice: the strict reader's line and column */
        {"{\"x\":1} junk", 0, "b.st header:1:9: unexpected text after the header"},
    };
    static const uint8_t zeros[16];
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        uint64_t size = build(bad[k].header, zeros, bad[k].data, 0);
        f = (St_File){.count = -7};
        char err[400];
        cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err), "accepted %s",
                      bad[k].header);
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s' does not start with '%s'",
                  err, bad[k].says);
        cr_assert_null(strchr(err, '\n'), "one line: %s", err);
        cr_assert_eq(f.count, -7, "a refused file leaves f alone");
        f = (St_File){0};
    }
    /* a name too long, and the header length itself */
    char longname[400];
    memset(longname, 'a', 300);
    longname[300] = '\0';
    char header[600];
    snprintf(header, sizeof header,
             "{\"%s\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", longname);
    uint64_t size = build(header, zeros, 4, 0);
    char err[400];
    cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err));
    cr_assert(strstr(err, "a tensor name is longer than 255 bytes"), "%s", err);
    cr_assert_not(st_parse(buf, 5, "b.st", &f, err, sizeof err));
    cr_assert_str_eq(err, "b.st: not a safetensors file: 5 bytes, fewer than its 8-byte header "
                          "length");
    size = build("{}", NULL, 0, 0);
    buf[0] = 200; /* header length past the end */
    cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err));
    cr_assert_str_eq(err, "b.st: not a safetensors file: its header length 200 is past the "
                          "file's end");
    memset(buf, 0xFF, 8);
    cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err));
    cr_assert(strstr(err, "past the format's 100 MB"), "%s", err);
    memset(buf, 0, 8);
    cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err));
    cr_assert(strstr(err, "its header length 0 is 0"), "%s", err);
    size = build("PK\x03\x04", NULL, 0, 0); /* a zip, say a .bin checkpoint */
    cr_assert_not(st_parse(buf, size, "b.st", &f, err, sizeof err));
    cr_assert(strstr(err, "does not start with '{'"), "%s", err);
}

/* Nesting far deeper than any header is refused, not a stack overflow. */
Test(safetensors, deep_nesting_is_an_error) {
    static char header[40000];
    size_t n = 0;
    header[n++] = '{';
    memcpy(header + n, "\"__metadata__\":", 15);
    n += 15;
    for (int k = 0; k < 19000; k++) header[n++] = '[';
    for (int k = 0; k < 19000; k++) header[n++] = ']';
    header[n++] = '}';
    header[n] = '\0';
    static uint8_t big[8 + 40000];
    for (int k = 0; k < 8; k++) big[k] = (uint8_t)((uint64_t)n >> (8 * k));
    memcpy(big + 8, header, n);
    char err[400];
    cr_assert_not(st_parse(big, 8 + n, "deep.st", &f, err, sizeof err));
    cr_assert_str_eq(err, "deep.st: its header nests deeper than a safetensors header does (3 "
                          "levels)");
}

/* A header's cost is bounded before a tree is built: 2 million numbers
 * (a 95 MB header of them took 3.8 GB and 19 s to refuse) are refused by a
 * count, in one line; commas inside strings do not count. */
Test(safetensors, a_header_of_millions_of_values_is_refused_before_it_is_parsed) {
    static uint8_t big[8 + (4u << 20)];
    size_t n = 0, cap = sizeof big - 8;
    char *h = (char *)big + 8;
    n += (size_t)snprintf(h, cap,
                          "{\"__metadata__\":{\"a\":\"%s\"},\"x\":{\"dtype\":\"F32\","
                          "\"shape\":[",
                          ",,,,,,,,,,");
    for (int k = 0; k < 2000000 - 1; k++) h[n++] = '1', h[n++] = ',';
    n += (size_t)snprintf(h + n, cap - n, "1],\"data_offsets\":[0,0]}}");
    for (int k = 0; k < 8; k++) big[k] = (uint8_t)((uint64_t)n >> (8 * k));
    char err[400];
    cr_assert_not(st_parse(big, 8 + n, "many.st", &f, err, sizeof err));
    cr_assert_str_eq(err, "many.st: its header holds more than 65536 values, more than the 4096 "
                          "tensors read here need");
}
