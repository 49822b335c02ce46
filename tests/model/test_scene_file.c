/* src/model/scene_file.c: the catalogue of bad files, exact round trips,
 * atomic saves. */
#define _POSIX_C_SOURCE 200809L
#include "core/fileio.h"
#include "model/scene_file.h"
#include "model/settings.h"
#include "test_util.h"

#include <math.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static Vocab vocab;

static void load_vocab(void) {
    test_load_vocab(&vocab);
}

static void free_vocab(void) {
    vocab_free(&vocab);
}

TestSuite(scene_file, .init = load_vocab, .fini = free_vocab);

/* Parsing a bad file must fail and leave the scene it was loading into alone. */
static bool reject_scene(const char *text, size_t len, const char *name, char *err, size_t errsz) {
    static Scene s, before;
    scene_default(&s);
    cr_assert(scene_set_sentence(&s, "kept as it was", &vocab, err, errsz));
    before = s;
    bool ok = scene_parse(&s, text, len, name, &vocab, err, errsz);
    if (!ok) cr_assert(scene_equal(&s, &before), "%s: a failed load changed the scene", name);
    return ok;
}

Test(scene_file, every_bad_file_gives_its_exact_error) {
    int checked = test_catalogue("scenes", SCENE_FILE_MAX_BYTES, reject_scene);
    cr_assert_geq(checked, 12, "the catalogue should hold at least 12 bad files");
}

Test(scene_file, load_names_the_path) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/scenes/bad-dk-range.json", test_env("ATTNLAB_TESTDATA"));
    static Scene s;
    cr_assert_not(scene_load(&s, path, &vocab, err, sizeof err));
    char want[1200];
    snprintf(want, sizeof want, "%s:4:10: \"d_k\" is 5000; it must be 1 to 1024", path);
    cr_assert_str_eq(err, want);
    cr_assert_not(scene_load(&s, "/nonexistent/x.json", &vocab, err, sizeof err));
    cr_assert_str_eq(err, "/nonexistent/x.json: cannot open: No such file or directory");
}

Test(scene_file, defaults_and_vocabulary_embedding) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/scenes/good-minimal.json", test_env("ATTNLAB_TESTDATA"));
    static Scene s;
    cr_assert(scene_load(&s, path, &vocab, err, sizeof err), "%s", err);
    cr_assert_eq(s.n, 3);
    cr_assert_eq(s.d, 5);
    cr_assert_eq(s.d_k, 3);
    cr_assert_eq(s.d_v, 2);
    cr_assert_eq(s.seed, 9u);
    cr_assert_not(s.scaled);
    cr_assert_eq(s.pos, POS_NONE);
    cr_assert_str_eq(s.tokens[0], "The"); /* the token keeps its spelling */
    float want[5];
    vocab_embed(&vocab, "the", 5, want);
    for (int c = 0; c < 5; c++) cr_assert_eq(s.X[c], want[c]);
}

static void random_scene(Scene *s, Rng *r) {
    char err[256];
    scene_default(s);
    s->d = rand_int(r, 1, ATTN_MAX_D);
    s->d_k = rand_int(r, 1, ATTN_MAX_DK);
    s->d_v = rand_int(r, 1, ATTN_MAX_DV);
    s->seed = (uint32_t)rng_next_u64(r);
    s->scaled = rng_next_u64(r) & 1;
    s->pos = (rng_next_u64(r) & 1) ? POS_SIN : POS_NONE;
    s->pos_strength = (float)(rng_uniform(r) * ATTN_MAX_POS_STRENGTH);
    cr_assert(scene_set_sentence(s, "the \"quoted\" back\\slash caf\xc3\xa9 dash\xe2\x80\x94 x",
                                 &vocab, err, sizeof err),
              "%s", err);
    /* X with awkward floats: tiny, huge, negative zero, many digits */
    for (int i = 0; i < s->n * s->d; i++) {
        double u = rng_uniform(r);
        s->X[i] = (float)((u - 0.5) * pow(10.0, rand_int(r, -8, 3)));
        if (fabsf(s->X[i]) > ATTN_MAX_ABS_X) s->X[i] = (float)ATTN_MAX_ABS_X;
    }
}

Test(scene_file, save_then_load_round_trips_exactly) {
    char dir[] = "/tmp/attnlab-test-XXXXXX", path[256], err[512];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/scene.json", dir);
    Rng r;
    rng_seed(&r, 4);
    for (int t = 0; t < 30; t++) {
        static Scene a, b;
        random_scene(&a, &r);
        cr_assert(scene_save(&a, path, err, sizeof err), "%s", err);
        cr_assert(scene_load(&b, path, &vocab, err, sizeof err), "%s", err);
        cr_assert(scene_equal(&a, &b), "round trip %d changed the scene", t);
    }
    unlink(path);
    rmdir(dir);
}

Test(scene_file, failed_save_leaves_the_old_file_and_no_temporary) {
    char dir[] = "/tmp/attnlab-test-XXXXXX", path[256], err[512];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/scene.json", dir);
    static Scene a;
    Rng r;
    rng_seed(&r, 5);
    random_scene(&a, &r);
    cr_assert(scene_save(&a, path, err, sizeof err), "%s", err);
    struct stat before;
    cr_assert_eq(stat(path, &before), 0);
    /* A read-only folder: the temporary file cannot be created. Root ignores
     * permissions, so there the test uses a path inside a regular file. */
    char bad[300];
    if (geteuid() == 0) {
        snprintf(bad, sizeof bad, "%s/not-a-dir/scene.json", path);
    } else {
        chmod(dir, 0500);
        snprintf(bad, sizeof bad, "%s", path);
    }
    cr_assert_not(scene_save(&a, bad, err, sizeof err));
    cr_assert(strstr(err, "cannot create a temporary file"), "%s", err);
    chmod(dir, 0700);
    struct stat after;
    cr_assert_eq(stat(path, &after), 0);
    cr_assert_eq(after.st_size, before.st_size);
    unlink(path);
    cr_assert_eq(rmdir(dir), 0, "the folder should be empty after removing scene.json");
}

/* A save through a symbolic link (a dotfiles folder's settings, a figure
 * path) writes the link's target and leaves the link a link: absolute and
 * relative links, a chain of two, and a dangling link, whose target it
 * creates. A loop of links is one line, and nothing is written. */
static void write_text(FILE *f, const void *ctx) {
    fputs(ctx, f);
}

Test(scene_file, a_save_through_a_symbolic_link_writes_its_target) {
    char dir[] = "/tmp/attnlab-test-XXXXXX", err[512];
    cr_assert(mkdtemp(dir));
    char real[300], abs_link[300], rel_link[300], chain[300], dangling[300], made[300];
    snprintf(real, sizeof real, "%s/real.json", dir);
    snprintf(abs_link, sizeof abs_link, "%s/abs.json", dir);
    snprintf(rel_link, sizeof rel_link, "%s/rel.json", dir);
    snprintf(chain, sizeof chain, "%s/chain.json", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.json", dir);
    snprintf(made, sizeof made, "%s/made.json", dir);
    FILE *f = fopen(real, "w");
    fputs("old", f);
    fclose(f);
    cr_assert_eq(symlink(real, abs_link), 0);
    cr_assert_eq(symlink("real.json", rel_link), 0);
    cr_assert_eq(symlink("rel.json", chain), 0);
    cr_assert_eq(symlink("made.json", dangling), 0);
    const char *links[] = {abs_link, rel_link, chain};
    const char *texts[] = {"one", "two", "three"};
    for (int k = 0; k < 3; k++) {
        cr_assert(file_write_atomic(links[k], write_text, texts[k], err, sizeof err), "%s", err);
        struct stat st;
        cr_assert_eq(lstat(links[k], &st), 0);
        cr_assert(S_ISLNK(st.st_mode), "%s is still a link", links[k]);
        char *text;
        size_t len;
        cr_assert(file_read_all(real, 100, &text, &len, err, sizeof err));
        cr_assert_str_eq(text, texts[k], "the target holds what was saved through %s", links[k]);
        free(text);
    }
    cr_assert(file_write_atomic(dangling, write_text, "new", err, sizeof err), "%s", err);
    struct stat st;
    cr_assert(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    cr_assert(lstat(made, &st) == 0 && S_ISREG(st.st_mode), "the dangling link's target exists");
    char loop_a[300], loop_b[300];
    snprintf(loop_a, sizeof loop_a, "%s/a", dir);
    snprintf(loop_b, sizeof loop_b, "%s/b", dir);
    cr_assert_eq(symlink("b", loop_a), 0);
    cr_assert_eq(symlink("a", loop_b), 0);
    cr_assert_not(file_write_atomic(loop_a, write_text, "x", err, sizeof err));
    cr_assert(strstr(err, "too many levels of links"), "%s", err);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static bool exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

/* kill -9 during a save leaves NAME.tmp-PID-XXXXXX behind; the next save
 * removes those whose process is gone, and never one a live save is writing. */
Test(scene_file, a_save_removes_temporaries_left_by_killed_saves) {
    char dir[] = "/tmp/attnlab-save-XXXXXX", err[512];
    cr_assert(mkdtemp(dir));
    char scene[100], dead[140], legacy_old[140], legacy_new[140], live[140], other[140];
    snprintf(scene, sizeof scene, "%s/s.json", dir);
    /* a process id that is certainly gone: a child that has exited and been reaped */
    pid_t child = fork();
    if (child == 0) _exit(0);
    waitpid(child, NULL, 0);
    snprintf(dead, sizeof dead, "%s.tmp-%ld-Ab12Cd", scene, (long)child);
    snprintf(live, sizeof live, "%s.tmp-%ld-Zz99Yy", scene, (long)getppid());
    snprintf(legacy_old, sizeof legacy_old, "%s.tmp-q1W2e3", scene);
    snprintf(legacy_new, sizeof legacy_new, "%s.tmp-r4T5y6", scene);
    snprintf(other, sizeof other, "%s/t.json.tmp-%ld-Ab12Cd", dir, (long)child);
    const char *const all[] = {dead, live, legacy_old, legacy_new, other};
    for (size_t k = 0; k < 5; k++) {
        FILE *f = fopen(all[k], "w");
        cr_assert(f);
        fputs("{\"half", f);
        fclose(f);
    }
    /* version 1's names carry no process id: only old ones count as stale */
    struct timespec old[2] = {{.tv_sec = time(NULL) - 3600}, {.tv_sec = time(NULL) - 3600}};
    cr_assert_eq(utimensat(AT_FDCWD, legacy_old, old, 0), 0);
    static Scene s;
    scene_default(&s);
    cr_assert(scene_save(&s, scene, err, sizeof err), "%s", err);
    cr_assert_not(exists(dead), "a dead save's temporary is still there");
    cr_assert_not(exists(legacy_old), "an old version-1 temporary is still there");
    cr_assert(exists(live), "a live process's temporary was removed");
    cr_assert(exists(legacy_new), "a fresh version-1 temporary was removed");
    cr_assert(exists(other), "another file's temporary was removed");
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(scene_file, unique_names_never_reuse_an_existing_file) {
    char dir[] = "/tmp/attnlab-uniq-XXXXXX", stem[100], name[140];
    cr_assert(mkdtemp(dir));
    snprintf(stem, sizeof stem, "%s/attnlab-export-20261130-101010", dir);
    for (int k = 1; k <= 3; k++) {
        cr_assert(file_unique_name(stem, ".json", name, sizeof name));
        char want[160];
        if (k == 1)
            snprintf(want, sizeof want, "%s.json", stem);
        else
            snprintf(want, sizeof want, "%s-%d.json", stem, k);
        cr_assert_str_eq(name, want);
        FILE *f = fopen(name, "w");
        cr_assert(f);
        fclose(f);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Every row of the settings table is written and read back by the scene
 * file at both ends of its range: the table is the one list the loader and
 * the saver use, so a new setting cannot be left out of either. */
Test(scene_file, every_setting_round_trips_at_both_ends_of_its_range) {
    char dir[] = "/tmp/attnlab-settings-XXXXXX", path[200], err[512];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s.json", dir);
    for (int k = 0; k < SET_COUNT; k++) {
        const Setting *st = setting((Setting_Id)k);
        for (int end = 0; end < 2; end++) {
            static Scene s, back;
            scene_default(&s);
            const char *words[] = {"the", "cat"};
            cr_assert(scene_set_tokens(&s, words, 2, &vocab, err, sizeof err), "%s", err);
            double v = end ? st->max : st->min;
            if (st->id == SET_D) scene_set_d(&s, (int)v, &vocab);
            setting_set(&s, st->id, v);
            cr_assert(scene_save(&s, path, err, sizeof err), "%s", err);
            cr_assert(scene_load(&back, path, &vocab, err, sizeof err), "%s: %s", st->json, err);
            cr_assert_eq(setting_get(&back, st->id), v, "\"%s\" = %g came back as %g", st->json, v,
                         setting_get(&back, st->id));
        }
    }
    unlink(path);
    rmdir(dir);
}
