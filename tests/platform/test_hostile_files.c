/* Missing, unreadable or broken data files: one clear line naming the file,
 * exit status 2, never a crash. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static void copy_data(void) {
    snprintf(dir, sizeof dir, "/tmp/attnlab-data-XXXXXX");
    cr_assert(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp -R '%s/assets' '%s/shaders' '%s/lessons' '%s/'",
             test_env("ATTNLAB_DATA"), test_env("ATTNLAB_DATA"), test_env("ATTNLAB_DATA"), dir);
    cr_assert_eq(system(cmd), 0);
}

static void remove_data(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(hostile_files, .init = copy_data, .fini = remove_data);

/* Run attnlab on the damaged copy; return the exit status and stderr. */
static int run(const char *args, char *err, size_t errsz) {
    char cmd[2048], errpath[128];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    snprintf(cmd, sizeof cmd, "ATTNLAB_DATA='%s' '%s' %s > /dev/null 2> '%s'", dir,
             test_env("ATTNLAB_BIN"), args, errpath);
    int st = system(cmd);
    FILE *f = fopen(errpath, "r");
    size_t n = f ? fread(err, 1, errsz - 1, f) : 0;
    err[n] = '\0';
    if (f) fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(const char *args, const char *needle) {
    char err[2048];
    int st = run(args, err, sizeof err);
    cr_assert_eq(st, 2, "%s: status %d, stderr: %s", args, st, err);
    cr_assert(strstr(err, needle), "%s: stderr '%s' does not name '%s'", args, err, needle);
    cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "%s: one line, got '%s'", args, err);
}

static void damage(const char *shell) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s", dir, shell);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

Test(hostile_files, missing_font) {
    damage("rm assets/fonts/DejaVuSans.ttf");
    expect("--screenshot /tmp/attnlab-x.png --size 200x100",
           "assets/fonts/DejaVuSans.ttf: cannot open font");
}

Test(hostile_files, corrupt_font) {
    damage("head -c 3000 /dev/urandom > assets/fonts/DejaVuSansMono.ttf");
    expect("--screenshot /tmp/attnlab-x.png --size 200x100",
           "assets/fonts/DejaVuSansMono.ttf: cannot open font");
}

Test(hostile_files, missing_shader) {
    damage("rm shaders/shape.frag");
    expect("--screenshot /tmp/attnlab-x.png --size 200x100", "shaders/shape.frag: cannot open");
}

Test(hostile_files, broken_shader) {
    damage("printf '#version 330 core\\nout vec4 frag;\\nvoid main() { frag = nope; }\\n' > "
           "shaders/text.frag");
    expect("--screenshot /tmp/attnlab-x.png --size 200x100", "shaders/text.frag:3: ");
}

Test(hostile_files, missing_default_scene) {
    damage("rm assets/scenes/default.json");
    expect("--export json", "assets/scenes/default.json: cannot open");
}

Test(hostile_files, missing_vocabulary) {
    damage("rm assets/vocab.tsv");
    expect("--export json", "no assets/vocab.tsv there");
}

Test(hostile_files, broken_vocabulary_line) {
    damage("printf 'cat\\tanimal\\t1\\t2\\t3\\n' >> assets/vocab.tsv");
    expect("--export json", "vocab.tsv:");
}

Test(hostile_files, unreadable_lessons_folder_leaves_the_menu_empty) {
    /* the app still starts: lessons are optional */
    damage("rm -rf lessons");
    char err[2048];
    cr_assert_eq(run("--screenshot /tmp/attnlab-x.png --size 300x200", err, sizeof err), 0, "%s",
                 err);
    unlink("/tmp/attnlab-x.png");
}
