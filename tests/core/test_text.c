/* Strict UTF-8, terminal-safe escaping and whole-string numbers (src/core/text.c). */
#include "core/text.h"

#include <criterion/criterion.h>
#include <float.h>
#include <string.h>

Test(text, utf8_accepts_every_well_formed_class) {
    static const char *const good[] = {
        "plain",
        "caf\xc3\xa9",
        "\xe2\x82\xac",     /* € */
        "\xef\xbf\xbf",     /* U+FFFF */
        "\xf0\x9f\x98\x80", /* U+1F600 */
        "\xf4\x8f\xbf\xbf", /* U+10FFFF, the last code point */
        "\xed\x9f\xbf",     /* U+D7FF, just below the surrogates */
        "\xee\x80\x80",     /* U+E000, just above them */
    };
    for (size_t k = 0; k < sizeof good / sizeof *good; k++)
        cr_assert(text_utf8_check(good[k], strlen(good[k]), NULL), "case %zu", k);
}

Test(text, utf8_rejects_overlong_surrogate_too_large_truncated_and_nul) {
    static const struct {
        const char *s;
        size_t len, bad;
    } cases[] = {
        {"a\xc0\xaf", 3, 1},        /* overlong '/' */
        {"\xc1\xbf", 2, 0},         /* overlong */
        {"ab\xe0\x80\xaf", 5, 2},   /* overlong 3-byte */
        {"\xf0\x80\x80\xaf", 4, 0}, /* overlong 4-byte */
        {"\xed\xa0\x80", 3, 0},     /* U+D800 encoded */
        {"x\xed\xbf\xbf", 4, 1},    /* U+DFFF encoded */
        {"\xf4\x90\x80\x80", 4, 0}, /* U+110000 */
        {"\xf5\x80\x80\x80", 4, 0}, /* lead byte past F4 */
        {"abc\xe2\x82", 5, 3},      /* cut short */
        {"\x80", 1, 0},             /* lone continuation */
        {"ok\0no", 5, 2},           /* NUL */
        {"\xe2\x28\xa1", 3, 0},     /* bad continuation */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        size_t bad = 99;
        cr_assert_not(text_utf8_check(cases[k].s, cases[k].len, &bad), "case %zu", k);
        cr_assert_eq(bad, cases[k].bad, "case %zu: bad at %zu", k, bad);
    }
}

Test(text, escape_makes_one_safe_line) {
    char out[128];
    text_escape("a\nb", 3, out, sizeof out);
    cr_assert_str_eq(out, "a\\nb");
    text_escape("\x1b[31mred", 8, out, sizeof out);
    cr_assert_str_eq(out, "\\x1B[31mred");
    text_escape("caf\xc3\xa9\t\x7f", 7, out, sizeof out);
    cr_assert_str_eq(out, "caf\xc3\xa9\\t\\x7F");
    text_escape("\xc2\x9b"
                "x",
                3, out, sizeof out); /* C1 CSI */
    cr_assert_str_eq(out, "\\u009Bx");
    text_escape("\xc0\xaf", 2, out, sizeof out);
    cr_assert_str_eq(out, "\\xC0\\xAF");
    /* the result is always valid UTF-8 without control characters */
    for (size_t k = 0; out[k]; k++) cr_assert((unsigned char)out[k] >= 0x20);
}

Test(text, escape_cuts_on_a_character_boundary_with_an_ellipsis) {
    char out[10];
    const char *s = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"; /* éééé é: 10 bytes */
    size_t n = text_escape(s, strlen(s), out, sizeof out);
    cr_assert_eq(n, strlen(out));
    cr_assert(text_utf8_check(out, n, NULL), "cut mid-character: %s", out);
    cr_assert(strstr(out, "…"), "%s", out);
    /* exactly fitting text is not cut */
    char fit[6];
    text_escape("abcde", 5, fit, sizeof fit);
    cr_assert_str_eq(fit, "abcde");
}

Test(text, whole_numbers_are_the_whole_string) {
    int64_t v = 0;
    cr_assert_eq(text_parse_i64("4294967295", 0, 4294967295LL, &v), TEXT_NUM_OK);
    cr_assert_eq(v, 4294967295LL);
    cr_assert_eq(text_parse_i64("16777217", 0, 4294967295LL, &v), TEXT_NUM_OK);
    cr_assert_eq(v, 16777217); /* not rounded through a float */
    cr_assert_eq(text_parse_i64("-3", -5, 5, &v), TEXT_NUM_OK);
    cr_assert_eq(v, -3);
    static const char *const junk[] = {"", " 5", "5 ", "5x", "+5", "0x10", "5.0", "1e3", "--5"};
    for (size_t k = 0; k < sizeof junk / sizeof *junk; k++)
        cr_assert_eq(text_parse_i64(junk[k], -100, 100, &v), TEXT_NUM_SYNTAX, "'%s'", junk[k]);
    cr_assert_eq(text_parse_i64("4294967296", 0, 4294967295LL, &v), TEXT_NUM_RANGE);
    cr_assert_eq(text_parse_i64("99999999999999999999", 0, 10, &v), TEXT_NUM_OVERFLOW);
}

Test(text, decimals_are_strict_and_report_under_and_overflow) {
    double v = 0;
    cr_assert_eq(text_parse_f64("1.5", 0, 3, &v), TEXT_NUM_OK);
    cr_assert_eq(v, 1.5);
    cr_assert_eq(text_parse_f64("-.5e1", -10, 10, &v), TEXT_NUM_OK);
    cr_assert_eq(v, -5.0);
    static const char *const junk[] = {"", " 1", "1 ", "1.5x", "0x1p3", ".", "1e", "e5", "+1"};
    for (size_t k = 0; k < sizeof junk / sizeof *junk; k++)
        cr_assert_eq(text_parse_f64(junk[k], -100, 100, &v), TEXT_NUM_SYNTAX, "'%s'", junk[k]);
    cr_assert_eq(text_parse_f64("nan", 0, 1, &v), TEXT_NUM_NOT_FINITE);
    cr_assert_eq(text_parse_f64("-Infinity", 0, 1, &v), TEXT_NUM_NOT_FINITE);
    cr_assert_eq(text_parse_f64("1e-400", 0, 1, &v), TEXT_NUM_UNDERFLOW);
    cr_assert_eq(text_parse_f64("1e400", 0, 1, &v), TEXT_NUM_OVERFLOW);
    cr_assert_eq(text_parse_f64("1000.0000001", 0, 1000, &v), TEXT_NUM_RANGE);
}

Test(text, messages_quote_the_value_as_written) {
    char m[200];
    text_num_message(TEXT_NUM_RANGE, "1000.0000001", false, 0.75, 3, m, sizeof m);
    cr_assert_str_eq(m, "1000.0000001 is out of range (0.75 to 3)");
    text_num_message(TEXT_NUM_UNDERFLOW, "1e-400", false, 0, 10, m, sizeof m);
    cr_assert_str_eq(m, "'1e-400' is too small to represent (underflow); write 0 for zero");
    text_num_message(TEXT_NUM_SYNTAX, "5\n6", true, 1, 9, m, sizeof m);
    cr_assert_str_eq(m, "'5\\n6' is not a whole number");
    text_num_message(TEXT_NUM_RANGE, "4294967296", true, 0, 4294967295.0, m, sizeof m);
    cr_assert_str_eq(m, "4294967296 is out of range (0 to 4294967295)");
}
