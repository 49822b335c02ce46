/* Fuzz target: the command-line parser. The input is split into arguments
 * at newlines; a parsed command line is then applied to a scene. */
#include "platform/cli.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char buf[128 * 1024];
    static Cli_Options o;
    static Scene s;
    static Vocab vocab;
    if (size >= sizeof buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[64] = {"attnlab"};
    int argc = 1;
    for (char *p = buf; argc < 64 && p <= buf + size;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        argv[argc++] = p;
        if (!nl) break;
        p = nl + 1;
    }
    char err[512];
    if (!cli_parse(argc, argv, &o, err, sizeof err)) {
        if (strncmp(err, "attnlab: ", 9) != 0) __builtin_trap();
        return 0;
    }
    scene_default(&s);
    if (!scene_set_sentence(&s, "the cat sat", &vocab, err, sizeof err)) __builtin_trap();
    if (cli_apply(&o, &s, &vocab, err, sizeof err)) {
        if (!scene_validate(&s, err, sizeof err)) __builtin_trap();
    }
    return 0;
}
