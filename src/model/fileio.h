/* Whole-file reads and atomic writes.
 *
 *   file_read_all(path, max, text, len, err, errsz)  NUL-terminated copy, caller frees
 *   file_write_atomic(path, write, ctx, err, errsz)  write to a temporary file in
 *       the same folder, fsync, rename over path: readers see the old file or
 *       the new one, never half of it
 */
#ifndef ATTN_FILEIO_H
#define ATTN_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef void (*File_Writer)(FILE *f, const void *ctx);

bool file_read_all(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsz);
bool file_write_atomic(const char *path, File_Writer write, const void *ctx, char *err,
                       size_t errsz);

#endif
