/* make install / make uninstall into a temporary DESTDIR: the installed
 * binary finds its data from anywhere, and uninstall removes exactly what
 * install put there. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <string.h>
#include <unistd.h>

static int sh(const char *fmt, const char *a, const char *b) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    return system(cmd);
}

Test(install, installed_binary_runs_from_anywhere_and_uninstalls_cleanly, .timeout = 300) {
    char dir[] = "/tmp/attnlab-install-XXXXXX";
    cr_assert(mkdtemp(dir));
    const char *src = test_env("ATTNLAB_DATA");
    /* the normal build's binary, whichever pass of the tests this is */
    cr_assert_eq(
        sh("make -s -C '%s' SANITIZE= install PREFIX=/usr DESTDIR='%s' >/dev/null", src, dir), 0);
    const char *files[] = {"usr/bin/attnlab",
                           "usr/share/attnlab/assets/vocab.tsv",
                           "usr/share/attnlab/shaders/shape.frag",
                           "usr/share/attnlab/lessons/01-tokens-become-vectors.md",
                           "usr/share/applications/attnlab.desktop",
                           "usr/share/icons/hicolor/scalable/apps/attnlab.svg",
                           "usr/share/man/man1/attnlab.1"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        cr_assert_eq(access(path, R_OK), 0, "%s was not installed", files[k]);
    }
    /* run it from another folder, with no hint where its data is */
    cr_assert_eq(
        sh("cd / && env -u ATTNLAB_DATA '%s/usr/bin/attnlab' --export json > '%s/out.json'", dir,
           dir),
        0);
    cr_assert_eq(sh("grep -q '\"tokens\": \\[\"the\", \"cat\"' '%s/out.json'%s", dir, ""), 0);
    cr_assert_eq(sh("cd / && env -u ATTNLAB_DATA '%s/usr/bin/attnlab' --screenshot '%s/shot.png' "
                    "--size 320x200",
                    dir, dir),
                 0);
    cr_assert_eq(sh("test -s '%s/shot.png'%s", dir, ""), 0);
    cr_assert_eq(sh("rm -f '%s/out.json' '%s/shot.png'", dir, dir), 0);
    cr_assert_eq(
        sh("make -s -C '%s' SANITIZE= uninstall PREFIX=/usr DESTDIR='%s' >/dev/null", src, dir), 0);
    /* nothing but empty folders is left */
    cr_assert_eq(sh("test -z \"$(find '%s' -type f)\"%s", dir, ""), 0,
                 "files left after uninstall");
    cr_assert_eq(sh("rm -rf '%s'%s", dir, ""), 0);
}
