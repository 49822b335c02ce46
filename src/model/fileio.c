/* Whole-file reads and atomic writes; see fileio.h. */
#define _POSIX_C_SOURCE 200809L
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool file_read_all(const char *path, size_t max, char **text, size_t *len, char *err,
                   size_t errsz) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errsz, "%s: is a folder, not a file", path);
        fclose(f);
        return false;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max) {
            snprintf(err, errsz, "%s: larger than %zu bytes", path, max);
            free(buf);
            fclose(f);
            return false;
        }
        if (got == 0) break;
        if (n == cap) {
            cap *= 2;
            char *p = realloc(buf, cap + 1);
            if (!p) {
                free(buf);
                buf = NULL;
            } else {
                buf = p;
            }
        }
    }
    if (!buf) {
        snprintf(err, errsz, "%s: out of memory", path);
        fclose(f);
        return false;
    }
    if (ferror(f)) {
        snprintf(err, errsz, "%s: read error: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return false;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return true;
}

bool file_write_atomic(const char *path, File_Writer write, const void *ctx, char *err,
                       size_t errsz) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
        snprintf(err, errsz, "%s: path too long", path);
        return false;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsz, "%s: cannot create a temporary file beside it: %s", path,
                 strerror(errno));
        return false;
    }
    /* Keep the permissions of the file being replaced; a new file gets the
     * usual 0666 less the umask instead of mkstemp's 0600. */
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(fd, mode);
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return false;
    }
    write(f, ctx);
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(err, errsz, "%s: cannot save: %s", path, strerror(saved));
        unlink(tmp);
    }
    return ok;
}
