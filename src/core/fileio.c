/* Whole-file reads and atomic writes; see fileio.h. */
#define _POSIX_C_SOURCE 200809L
#include "fileio.h"

#include "i18n.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m) {
    return S_ISDIR(m)    ? _("a folder")
           : S_ISFIFO(m) ? _("a FIFO (named pipe)")
           : S_ISCHR(m)  ? _("a character device")
           : S_ISBLK(m)  ? _("a block device")
           : S_ISSOCK(m) ? _("a socket")
                         : _("not a regular file");
}

bool file_read_all(const char *path, size_t max, char **text, size_t *len, char *err,
                   size_t errsz) {
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer forever. Anything but a regular file is refused before a read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, _("%s: cannot open: %s"), path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errsz, _("%s: cannot open: %s"), path, strerror(errno));
        close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errsz, _("%s: is %s, not a regular file"), path, kind_of(st.st_mode));
        close(fd);
        return false;
    }
    if ((uintmax_t)st.st_size > (uintmax_t)max) {
        snprintf(err, errsz, _("%s: larger than %zu bytes"), path, max);
        close(fd);
        return false;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errsz, _("%s: cannot open: %s"), path, strerror(errno));
        close(fd);
        return false;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max) {
            snprintf(err, errsz, _("%s: larger than %zu bytes"), path, max);
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
        snprintf(err, errsz, _("%s: out of memory"), path);
        fclose(f);
        return false;
    }
    if (ferror(f)) {
        snprintf(err, errsz, _("%s: read error: %s"), path, strerror(errno));
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

/* The folder part of path ("." for a bare name) and the name part. */
static void split_path(const char *path, char *dir, size_t dirsz, const char **base) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dirsz, ".");
        *base = path;
    } else {
        snprintf(dir, dirsz, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* A save killed half-way (kill -9, a crash, power loss) leaves its temporary
 * file behind. Ours are named NAME.tmp-PID-XXXXXX; one whose process is gone
 * is stale and removed. (Version 1 named them NAME.tmp-XXXXXX with no PID;
 * those are removed once a minute old, long past any save in progress.) */
static void remove_stale_temps(const char *dir, const char *base) {
    DIR *d = opendir(dir);
    if (!d) return;
    size_t blen = strlen(base);
    time_t now = time(NULL);
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        const char *n = e->d_name;
        if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp-", 5) != 0) continue;
        const char *tail = n + blen + 5;
        size_t digits = strspn(tail, "0123456789");
        bool stale = false;
        char full[4200];
        if (snprintf(full, sizeof full, "%s/%s", dir, n) >= (int)sizeof full) continue;
        if (digits > 0 && digits < 10 && tail[digits] == '-' && strlen(tail + digits + 1) == 6) {
            long pid = strtol(tail, NULL, 10);
            stale = pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
        } else if (strlen(tail) == 6 &&
                   strspn(tail, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
                       6) {
            struct stat st;
            stale = lstat(full, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > 60;
        }
        if (stale) unlink(full);
    }
    closedir(d);
}

/* Where a save of path lands: path itself, or, when path is a symbolic link
 * (a settings file kept in a dotfiles folder, say), the file at the end of
 * its chain of links, so that the rename replaces the target and the link
 * stays a link. A dangling link's target is created. */
bool file_follow_links(const char *path, char *dest, size_t size, char *err, size_t errsz) {
    if (snprintf(dest, size, "%s", path) >= (int)size) {
        snprintf(err, errsz, _("%s: path too long"), path);
        return false;
    }
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(dest, &st) != 0 || !S_ISLNK(st.st_mode)) return true;
        char target[4096];
        ssize_t n = readlink(dest, target, sizeof target - 1);
        if (n < 0 || (size_t)n >= sizeof target - 1) {
            snprintf(err, errsz, _("%s: cannot follow the link: %s"), path,
                     n < 0 ? strerror(errno) : _("target too long"));
            return false;
        }
        target[n] = '\0';
        char next[4096];
        const char *slash = strrchr(dest, '/');
        int len = target[0] == '/' || !slash
                      ? snprintf(next, sizeof next, "%s", target)
                      : snprintf(next, sizeof next, "%.*s/%s", (int)(slash - dest), dest, target);
        if (len < 0 || (size_t)len >= sizeof next || (size_t)len >= size) {
            snprintf(err, errsz, _("%s: cannot follow the link: target too long"), path);
            return false;
        }
        memcpy(dest, next, (size_t)len + 1);
    }
    snprintf(err, errsz, _("%s: cannot follow the link: too many levels of links"), path);
    return false;
}

bool file_write_atomic(const char *link_path, File_Writer write, const void *ctx, char *err,
                       size_t errsz) {
    char path[4096], dir[4096];
    if (!file_follow_links(link_path, path, sizeof path, err, errsz)) return false;
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    remove_stale_temps(dir, base);
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld-XXXXXX", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errsz, _("%s: path too long"), path);
        return false;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsz, _("%s: cannot create a temporary file beside it: %s"), path,
                 strerror(errno));
        return false;
    }
    /* Keep the permissions of the file being replaced; a new file gets the
     * usual 0666 less the umask instead of mkstemp's 0600. In the browser the
     * umask is 0777, which would leave the file unreadable: mkstemp's 0600
     * stays, and the page hands the file to the user as a download. */
#ifndef __EMSCRIPTEN__
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
#endif
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
        snprintf(err, errsz, _("%s: cannot save: %s"), path, strerror(saved));
        unlink(tmp);
        return false;
    }
    /* The rename lives in the folder: flush the folder too, or a power loss
     * can bring back the old name. Best effort: the new file is complete and
     * in place either way, and some file systems cannot fsync a folder. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return true;
}

static void write_string(FILE *f, const void *ctx) {
    fputs(ctx, f);
}

bool file_update_atomic(const char *link_path, size_t max, File_Merge merge, const void *ctx,
                        char *err, size_t errsz) {
    char path[4096], lock_path[4200];
    if (!file_follow_links(link_path, path, sizeof path, err, errsz)) return false;
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock < 0) {
        snprintf(err, errsz, _("%s: cannot lock: %s"), lock_path, strerror(errno));
        return false;
    }
    /* a whole-file write lock, waited for: the other holder is a save of a
     * few kilobytes. fcntl locks go with the process, so a killed saver
     * never leaves the file locked. */
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int rc;
    while ((rc = fcntl(lock, F_SETLKW, &fl)) != 0 && errno == EINTR) {
    }
    /* some file systems cannot lock: the save goes on, merged all the same */
    (void)rc;
    char *old = NULL;
    size_t len = 0;
    struct stat st;
    bool ok = true;
    if (stat(path, &st) == 0 || errno != ENOENT)
        ok = file_read_all(path, max, &old, &len, err, errsz);
    char *text = ok ? merge(old, len, ctx, err, errsz) : NULL;
    ok = text && file_write_atomic(path, write_string, text, err, errsz);
    free(old);
    free(text);
    close(lock); /* releases the lock */
    return ok;
}

bool file_unique_name(const char *stem, const char *ext, char *dest, size_t destsz) {
    for (int k = 1; k < 1000; k++) {
        int n = k == 1 ? snprintf(dest, destsz, "%s%s", stem, ext)
                       : snprintf(dest, destsz, "%s-%d%s", stem, k, ext);
        if (n < 0 || (size_t)n >= destsz) return false;
        struct stat st;
        if (lstat(dest, &st) != 0 && errno == ENOENT) return true;
    }
    return false;
}
