/* src/platform/checkpoint.c: a checkpoint folder by path, or by name in a
 * fake Hugging Face cache laid out as the hub's client lays it (refs/main,
 * snapshots/REV/), under each of the variables that place the cache; files
 * read into memory the checkpoint owns, and a FIFO, folder, empty or oversized file refused in
 * one line without waiting. */
#define _POSIX_C_SOURCE 200809L
#include "platform/checkpoint.h"
#include "test_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[] = "/tmp/attnlab-checkpoint-XXXXXX";

static void setup(void) {
    cr_assert(mkdtemp(top));
    unsetenv("HF_HUB_CACHE");
    unsetenv("HF_HOME");
}

static void teardown(void) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(checkpoint, .init = setup, .fini = teardown);

static void touch(const char *path, const char *text) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && printf '%%s' '%s' > '%s'", path,
             text, path);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

Test(checkpoint, a_folder_with_a_config_is_the_checkpoint) {
    char path[600], dir[1024], err[600];
    snprintf(path, sizeof path, "%s/my-gpt2/config.json", top);
    touch(path, "{}");
    snprintf(path, sizeof path, "%s/my-gpt2", top);
    cr_assert(checkpoint_find(path, dir, sizeof dir, err, sizeof err), "%s", err);
    cr_assert_str_eq(dir, path);
    snprintf(path, sizeof path, "%s/empty", top);
    cr_assert_eq(mkdir(path, 0700), 0);
    cr_assert_not(checkpoint_find(path, dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "empty: not a checkpoint folder: it has no config.json"), "%s", err);
}

/* The cache by each variable, refs/main before the newest snapshot, an
 * organisation's name with its slash as "--". */
Test(checkpoint, a_name_is_found_in_the_hugging_face_cache) {
    char path[800], dir[1024], want[800], err[800];
    snprintf(path, sizeof path, "%s/hub/models--gpt2/snapshots/aaa/config.json", top);
    touch(path, "{}");
    snprintf(path, sizeof path, "%s/hub/models--gpt2/snapshots/bbb/config.json", top);
    touch(path, "{}");
    snprintf(path, sizeof path, "%s/hub/models--gpt2/refs/main", top);
    touch(path, "aaa");
    snprintf(path, sizeof path, "%s/hub", top);
    setenv("HF_HUB_CACHE", path, 1);
    cr_assert(checkpoint_find("gpt2", dir, sizeof dir, err, sizeof err), "%s", err);
    snprintf(want, sizeof want, "%s/hub/models--gpt2/snapshots/aaa", top);
    cr_assert_str_eq(dir, want, "refs/main names the revision");
    unsetenv("HF_HUB_CACHE");
    setenv("HF_HOME", top, 1); /* $HF_HOME/hub */
    snprintf(path, sizeof path, "%s/hub/models--gpt2/refs/main", top);
    cr_assert_eq(unlink(path), 0);
    snprintf(path, sizeof path, "%s/hub/models--gpt2/snapshots/aaa", top);
    cr_assert_eq(system("sleep 0.01"), 0);
    cr_assert(checkpoint_find("gpt2", dir, sizeof dir, err, sizeof err), "%s", err);
    cr_assert(strstr(dir, "/hub/models--gpt2/snapshots/"), "%s", dir);
    snprintf(path, sizeof path, "%s/hub/models--openai-community--gpt2/snapshots/r1/config.json",
             top);
    touch(path, "{}");
    cr_assert(checkpoint_find("openai-community/gpt2", dir, sizeof dir, err, sizeof err), "%s",
              err);
    cr_assert(strstr(dir, "models--openai-community--gpt2/snapshots/r1"), "%s", dir);
    /* $HOME/.cache/huggingface/hub when neither is set */
    unsetenv("HF_HOME");
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", top, 1);
    snprintf(path, sizeof path,
             "%s/.cache/huggingface/hub/models--distilgpt2/snapshots/x/config.json", top);
    touch(path, "{}");
    cr_assert(checkpoint_find("distilgpt2", dir, sizeof dir, err, sizeof err), "%s", err);
    cr_assert(strstr(dir, ".cache/huggingface/hub/models--distilgpt2/snapshots/x"), "%s", dir);
    /* not there: where it looked, and that nothing is downloaded */
    cr_assert_not(checkpoint_find("gpt2-medium", dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "gpt2-medium: no such folder, and not in the Hugging Face cache (looked "
                          "in ~/.cache/huggingface/hub"),
              "%s", err);
    cr_assert(strstr(err, "never downloads"), "%s", err);
    cr_assert_not(checkpoint_find("../etc", dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "../etc: no such folder"), "%s", err);
    if (home) setenv("HOME", home, 1);
    free(home);
}

Test(checkpoint, files_are_mapped_and_the_rest_refused_in_one_line) {
    char path[600], err[600];
    Mapped_File m = {0};
    snprintf(path, sizeof path, "%s/model.safetensors", top);
    touch(path, "0123456789");
    cr_assert(checkpoint_map(path, &m, 1 << 20, err, sizeof err), "%s", err);
    cr_assert(m.size == 10 && !memcmp(m.bytes, "0123456789", 10));
    checkpoint_unmap(&m);
    cr_assert_null(m.bytes);
    cr_assert_not(checkpoint_map(path, &m, 9, err, sizeof err));
    cr_assert(strstr(err, "model.safetensors: 10 bytes, more than the 9 read here"), "%s", err);
    snprintf(path, sizeof path, "%s/empty", top);
    touch(path, "");
    cr_assert_not(checkpoint_map(path, &m, 100, err, sizeof err));
    cr_assert(strstr(err, "empty: the file is empty"), "%s", err);
    snprintf(path, sizeof path, "%s/fifo", top);
    cr_assert_eq(mkfifo(path, 0600), 0);
    cr_assert_not(checkpoint_map(path, &m, 100, err, sizeof err), "a FIFO, without waiting");
    cr_assert(strstr(err, "fifo: not a regular file"), "%s", err);
    cr_assert_not(checkpoint_map(top, &m, 100, err, sizeof err));
    cr_assert(strstr(err, "not a regular file"), "%s", err);
    snprintf(path, sizeof path, "%s/missing", top);
    cr_assert_not(checkpoint_map(path, &m, 100, err, sizeof err));
    cr_assert(strstr(err, "missing: cannot open: No such file or directory"), "%s", err);
}

/* Each refusal names its real cause: a config.json that is a FIFO or a
 * folder, a file given for the folder, a cache variable too long to use (it
 * said "HOME is not set"), and no variable at all. */
Test(checkpoint, a_refusal_names_its_real_cause) {
    char path[600], dir[1024], err[3400];
    snprintf(path, sizeof path, "%s/fifo-config", top);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/fifo-config/config.json", top);
    cr_assert_eq(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/fifo-config", top);
    cr_assert_not(checkpoint_find(path, dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "fifo-config: not a checkpoint folder: its config.json is not a regular "
                          "file"),
              "%s", err);
    snprintf(path, sizeof path, "%s/dir-config/config.json", top);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/dir-config", top);
    cr_assert_not(checkpoint_find(path, dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "dir-config: not a checkpoint folder: its config.json is a folder"), "%s",
              err);
    snprintf(path, sizeof path, "%s/ok/config.json", top);
    touch(path, "{}");
    cr_assert_not(checkpoint_find(path, dir, sizeof dir, err, sizeof err));
    cr_assert(strstr(err, "ok/config.json: a file, not a folder: give the folder that holds "
                          "config.json"),
              "%s", err);
    static char huge[3001];
    memset(huge, 'x', 3000);
    setenv("HF_HUB_CACHE", huge, 1);
    cr_assert_not(checkpoint_find("gpt2", dir, sizeof dir, err, sizeof err));
    cr_assert_str_eq(err, "gpt2: no such folder, and $HF_HUB_CACHE is too long a path to look in "
                          "(2047 bytes at most)");
    unsetenv("HF_HUB_CACHE");
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("HOME");
    cr_assert_not(checkpoint_find("gpt2", dir, sizeof dir, err, sizeof err));
    cr_assert_str_eq(err, "gpt2: no such folder, and no cache to look in (HF_HUB_CACHE, HF_HOME "
                          "and HOME are not set)");
    if (home) setenv("HOME", home, 1);
    free(home);
}
