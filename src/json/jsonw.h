/* A small streaming JSON writer for scene files and exports.
 *
 * cJSON reads every file; writing is streamed instead so large exports need
 * no tree in memory and scene files can keep one embedding row per line.
 * Floats are written in the shortest form that reads back to the same
 * float32, so a save → load round trip is exact.
 *
 *   void fmt_float(float x, char *buf)
 *       shortest round-trip text ("0.1", "-3")
 *   int fmt_g9(float x, char *buf)
 *       exactly what printf's "%.9g" writes (nine significant digits: the float32 reads
 *       back), about ten times faster; returns its length
 *   void jw_string(FILE *f, const char *s)
 *       a JSON string literal, escaped
 *   void jw_row(FILE *f, const float *row, int count)
 *       [a, b, c]
 *   void jw_matrix(FILE *f, const float *m, int rows, int cols, const char *indent)
 *       array of rows, one row per line
 */
#ifndef ATTN_JSONW_H
#define ATTN_JSONW_H

#include <stdio.h>

#define FMT_FLOAT_BYTES 32

void fmt_float(float x, char *buf);
int fmt_g9(float x, char *buf);
void jw_string(FILE *f, const char *s);
void jw_row(FILE *f, const float *row, int count);
void jw_matrix(FILE *f, const float *m, int rows, int cols, const char *indent);

#endif
