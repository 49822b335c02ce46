/* src/json/json_strict.c's check for a key that appears twice: the one in
 * the file's order whose second copy comes first, at any depth, named with
 * its line and column; an object of 200,000 distinct keys (a tokenizer's
 * vocabulary is 151,000) passes, and a copy of its last key is found. */
#include "json/json_strict.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void refused(const char *text, const char *want) {
    char err[300];
    cJSON *v = json_read_strict(text, strlen(text), "t.json", "the object", err, sizeof err);
    cr_assert_null(v, "%s was read", text);
    cr_assert_str_eq(err, want, "%s", text);
}

Test(json_strict, a_key_twice_is_the_first_whose_copy_comes_first) {
    /* b's copy comes before a's: b, though a sorts first */
    refused("{\"b\": 1, \"a\": 2, \"b\": 3, \"a\": 4}", "t.json:1:23: field \"b\" appears twice");
    refused("{\"x\": {\"k\": 1,\n \"z\": 2,\n \"k\": 3}}", "t.json:1:7: field \"k\" appears twice");
    refused("[1, {\"q\": [{\"r\": 1, \"r\": 2}]}]", "t.json:1:1: field \"r\" appears twice");
    char err[300];
    const char *fine = "{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": 2}]}";
    cJSON *v = json_read_strict(fine, strlen(fine), "t.json", "the object", err, sizeof err);
    cr_assert_not_null(v, "the same key in other objects is fine: %s", err);
    cJSON_Delete(v);
}

Test(json_strict, two_hundred_thousand_keys_are_read_and_a_copy_of_the_last_found) {
    enum { N = 200000 };
    size_t cap = (size_t)N * 24 + 64, len = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    len += (size_t)snprintf(text + len, cap - len, "{");
    for (int k = 0; k < N; k++)
        len += (size_t)snprintf(text + len, cap - len, "%s\"t%d\": %d", k ? ", " : "", k, k);
    size_t open_end = len;
    len += (size_t)snprintf(text + len, cap - len, "}");
    char err[300];
    cJSON *v = json_read_strict(text, len, "v.json", "the vocabulary", err, sizeof err);
    cr_assert_not_null(v, "%s", err);
    cr_assert_eq(cJSON_GetArraySize(v), N);
    cJSON_Delete(v);
    len = open_end + (size_t)snprintf(text + open_end, cap - open_end, ", \"t%d\": 0}", N - 1);
    v = json_read_strict(text, len, "v.json", "the vocabulary", err, sizeof err);
    cr_assert_null(v);
    cr_assert(strstr(err, "field \"t199999\" appears twice"), "%s", err);
    free(text);
}
