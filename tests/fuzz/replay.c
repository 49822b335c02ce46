/* Replays a fuzz corpus through its target without libFuzzer, so `make test`
 * checks every saved input (crashers included, once fixed) in the normal and
 * sanitizer builds. Prints "N passed, 0 failed"; a crash ends the run. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    int passed = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            fprintf(stderr, "replay: cannot open %s\n", argv[a]);
            return 2;
        }
        for (struct dirent *e = readdir(d); e; e = readdir(d)) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(path, "rb");
            if (!f) continue;
            /* the whole file, whatever its size: corpora hold inputs at the
             * real file limits (a 512 KB lesson, an 8 MB scene) */
            size_t cap = 1 << 16, n = 0, got;
            uint8_t *buf = malloc(cap);
            while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
                n += got;
                if (n == cap) {
                    uint8_t *p = realloc(buf, cap *= 2);
                    if (!p) free(buf);
                    buf = p;
                }
            }
            fclose(f);
            if (!buf) {
                fprintf(stderr, "replay: out of memory for %s\n", path);
                return 2;
            }
            uint8_t *copy = malloc(n ? n : 1); /* exact-size copy: ASan sees overreads */
            memcpy(copy, buf, n);
            free(buf);
            LLVMFuzzerTestOneInput(copy, n);
            free(copy);
            passed++;
        }
        closedir(d);
    }
    printf("%d passed, 0 failed\n", passed);
    return passed ? 0 : 2;
}
