/* Running the attnlab binary from a test: its exit status, stdout and
 * stderr. Shared by the platform tests that drive the command line. */
#ifndef ATTN_TEST_RUN_H
#define ATTN_TEST_RUN_H

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct Run {
    int status;
    char *out, *err;
} Run;

static inline char *slurp(FILE *f) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    return buf;
}

/* Run the binary with a shell-quoted argument string, after an optional
 * environment assignment ("NAME=value"). */
static inline Run run_attnlab_env(const char *env, const char *args) {
    char errpath[] = "/tmp/attnlab-stderr-XXXXXX";
    int fd = mkstemp(errpath);
    cr_assert(fd >= 0);
    close(fd);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s '%s' %s 2>'%s'", env, test_env("ATTNLAB_BIN"), args, errpath);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    Run r;
    r.out = slurp(p);
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *e = fopen(errpath, "r");
    r.err = slurp(e);
    fclose(e);
    unlink(errpath);
    return r;
}

static inline Run run_attnlab(const char *args) {
    return run_attnlab_env("", args);
}

static inline void run_free(Run *r) {
    free(r->out);
    free(r->err);
}

#endif
