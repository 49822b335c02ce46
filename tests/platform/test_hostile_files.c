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

/* Run attnlab on the damaged copy; return the exit status (124 when the
 * hang guard fired: a FIFO used to block fopen forever) and stderr. */
static int run(const char *args, char *err, size_t errsz) {
    char cmd[2400], errpath[128];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    snprintf(cmd, sizeof cmd, "ATTNLAB_DATA='%s' timeout 60 '%s' %s > /dev/null 2> '%s'", dir,
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
    cr_assert_eq(st, 2, "%s: status %d (124 = hung), stderr: %s", args, st, err);
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

/* ---- files that used to block or crash every start ------------------------------- */

Test(hostile_files, a_fifo_is_refused_at_once_wherever_a_file_is_read) {
    damage("mkfifo pipe.json pipe.md && mkdir fifodir && mkfifo fifodir/x.md");
    char args[600];
    snprintf(args, sizeof args, "--export json --scene '%s/pipe.json'", dir);
    expect(args, "pipe.json: is a FIFO (named pipe), not a regular file");
    snprintf(args, sizeof args, "--dump-ui --lesson '%s/pipe.md'", dir);
    expect(args, "pipe.md: is a FIFO (named pipe), not a regular file");
    snprintf(args, sizeof args, "--check-lessons '%s/fifodir'", dir);
    expect(args, "x.md: is a FIFO (named pipe), not a regular file");
    snprintf(args, sizeof args, "--export json --scene '%s'", "/dev/zero");
    expect(args, "/dev/zero: is a character device, not a regular file");
}

/* Every start scans lessons/: one bad file there is a warning and a greyed
 * menu entry, never a stop. */
Test(hostile_files, a_bad_file_in_lessons_never_stops_a_start) {
    damage("mkfifo lessons/50-fifo.md && "
           "printf '# Deep\\n\\n## S\\n\\n$' > lessons/51-deep.md && "
           "for i in $(seq 60000); do printf 'x^{'; done >> lessons/51-deep.md && "
           "for i in $(seq 60000); do printf '}'; done >> lessons/51-deep.md && "
           "printf '$\\n' >> lessons/51-deep.md && "
           "printf '\\357\\273\\277# Not UTF-8 \\300\\257\\n' > lessons/52-utf8.md");
    static const char *const modes[] = {"--screenshot /tmp/attnlab-hostile.png --size 400x300",
                                        "--dump-ui --size 800x600"};
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
        char err[4096];
        int st = run(modes[k], err, sizeof err);
        cr_assert_eq(st, 0, "%s: status %d, stderr: %s", modes[k], st, err);
        cr_assert(strstr(err, "lessons/50-fifo.md: is a FIFO"), "%s", err);
        cr_assert(strstr(err, "lessons/51-deep.md:5: formula longer than 4096 bytes"), "%s", err);
        cr_assert(strstr(err, "lessons/52-utf8.md:1: invalid UTF-8"), "%s", err);
        int lines = 0;
        for (const char *c = err; *c; c++) lines += *c == '\n';
        cr_assert_eq(lines, 3, "one warning per bad lesson, once: %s", err);
    }
    unlink("/tmp/attnlab-hostile.png");
    /* the checker and --lesson still fail on them */
    char args[600];
    snprintf(args, sizeof args, "--dump-ui --lesson '%s/lessons/51-deep.md'", dir);
    expect(args, "51-deep.md:5: formula longer than 4096 bytes");
}
