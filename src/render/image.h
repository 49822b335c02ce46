/* PNG files written through SDL2_image, atomically (temporary + rename).
 *
 *   bool image_save_png(const char *path, int w, int h, const unsigned char *rgba, char *err,
 *       size_t errsz)
 *       rgba: top row first
 */
#ifndef ATTN_IMAGE_H
#define ATTN_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

bool image_save_png(const char *path, int w, int h, const unsigned char *rgba, char *err,
                    size_t errsz);

#endif
