/* Whole-file reads and atomic writes.
 *
 *   bool file_read_all(const char *path, size_t max, char **text, size_t *len, char *err,
 *       size_t errsz)
 *       NUL-terminated copy, caller frees
 *   bool file_write_atomic(const char *path, File_Writer write, const void *ctx, char *err,
 *       size_t errsz)
 *       write to a temporary file in the same folder, fsync, rename over path: readers see the old
 *       file or the new one, never half of it; the folder is flushed after the rename, and
 *       temporary files left by a killed save are removed; a path that is a symbolic link is
 *       written through to its target, and stays a link
 *   bool file_update_atomic(const char *path, size_t max, File_Merge merge, const void *ctx,
 *       char *err, size_t errsz)
 *       read, merge and write back under a lock (PATH.lock beside the file's target, held with
 *       fcntl), so that two windows saving the same file at once each merge into what the other
 *       wrote; written as file_write_atomic does
 *   bool file_follow_links(const char *path, char *dest, size_t size, char *err, size_t errsz)
 *       where a save of path must land: path, or the end of its chain of symbolic links (a save
 *       renames over the target, so the link stays a link)
 *   bool file_update_atomic(const char *path, size_t max, File_Merge merge, const void *ctx,
 *       char *err, size_t errsz)
 *       read, merge and write back under a lock (PATH.lock beside the file's target, held with
 *       fcntl), so that two windows saving the same file at once each merge into what the other
 *       wrote; written as file_write_atomic does
 *   bool file_update_atomic(const char *path, size_t max, File_Merge merge, const void *ctx, char
*err, size_t errsz); bool file_follow_links(const char *path, char *dest, size_t size, char *err,
size_t errsz); bool file_unique_name(const char *stem, const char *ext, char *dest, size_t destsz)
 *       stem+ext, or stem-2+ext, stem-3+ext …: the first name that does not exist yet
 *
 * file_read_all refuses anything but a regular file (a FIFO, a device, a
 * folder) at once, without waiting for a writer.
 */
#ifndef ATTN_FILEIO_H
#define ATTN_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef void (*File_Writer)(FILE *f, const void *ctx);
/* Given the file's current text (NULL when there is no file yet), the new text
 * (malloc'd; the caller frees it), or NULL with err set to leave the file alone. */
typedef char *(*File_Merge)(const char *old, size_t len, const void *ctx, char *err, size_t errsz);

bool file_read_all(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsz);
bool file_write_atomic(const char *path, File_Writer write, const void *ctx, char *err,
                       size_t errsz);
bool file_update_atomic(const char *path, size_t max, File_Merge merge, const void *ctx, char *err,
                        size_t errsz);
bool file_follow_links(const char *path, char *dest, size_t size, char *err, size_t errsz);
bool file_unique_name(const char *stem, const char *ext, char *dest, size_t destsz);

#endif
