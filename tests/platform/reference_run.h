/* What the real-model tests share: a checkpoint made by a reference tool
 * (tests/tools/gpt2_reference.py, llama_reference.py), attnlab's export of a text, the tool's
 * float64 check of that export, a broken copy of a good checkpoint, and a refusal that must be one
 * line. Each test file keeps its folders under its own top. */
#ifndef ATTN_REFERENCE_RUN_H
#define ATTN_REFERENCE_RUN_H

#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Debian's python3, which has numpy (python3-numpy), even when another
 * python3 comes first on PATH. */
static inline const char *python(void) {
    return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

static inline void sh(const char *cmd) {
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* A checkpoint in top/name made by the reference tool with these options. */
static inline const char *ref_make(const char *tool, const char *top, const char *name,
                                   const char *options) {
    static char dir[300];
    char cmd[1200];
    snprintf(dir, sizeof dir, "%s/%s", top, name);
    snprintf(cmd, sizeof cmd, "%s '%s/../tools/%s' make '%s' %s", python(),
             test_env("ATTNLAB_TESTDATA"), tool, dir, options);
    sh(cmd);
    return dir;
}

/* text single-quoted for the shell: each ' as '\'' */
static inline Run export_text(const char *model, const char *text) {
    char args[3000], quoted[2000];
    size_t q = 0;
    for (const char *c = text; *c && q + 5 < sizeof quoted; c++) {
        if (*c == '\'') {
            memcpy(quoted + q, "'\\''", 4);
            q += 4;
        } else
            quoted[q++] = *c;
    }
    quoted[q] = '\0';
    snprintf(args, sizeof args, "--model '%s' --text '%s' --export json", model, quoted);
    return run_attnlab(args);
}

/* attnlab's export of text, checked by the tool's float64 reference. */
static inline void ref_matches(const char *tool, const char *top, const char *dir,
                               const char *text) {
    Run r = export_text(dir, text);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_empty(r.err);
    char path[400], cmd[1200];
    snprintf(path, sizeof path, "%s/export.json", top);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(r.out, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s '%s/../tools/%s' check '%s' '%s'", python(),
             test_env("ATTNLAB_TESTDATA"), tool, dir, path);
    FILE *p = popen(cmd, "r");
    char *said = slurp(p);
    int st = pclose(p);
    cr_assert_eq(st, 0, "%s: %s", dir, said);
    free(said);
    run_free(&r);
}

/* One line on stderr holding each of `says`, exit 2, nothing on stdout. */
static inline void refused(Run r, const char *says1, const char *says2) {
    cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
    cr_assert_str_empty(r.out, "stdout: %.200s", r.out);
    cr_assert(strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "one line: %s", r.err);
    cr_assert(strstr(r.err, says1), "'%s' in: %s", says1, r.err);
    if (says2) cr_assert(strstr(r.err, says2), "'%s' in: %s", says2, r.err);
    run_free(&r);
}

/* A copy of a good checkpoint in top/name, then a shell command run in it. */
static inline const char *ref_broken(const char *top, const char *good, const char *name,
                                     const char *how) {
    static char dir[300];
    char cmd[2000];
    snprintf(dir, sizeof dir, "%s/%s", top, name);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && cd '%s' && %s", good, dir, dir, how);
    sh(cmd);
    return dir;
}

#endif
