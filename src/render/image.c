/* PNG output; see image.h. */
#define _POSIX_C_SOURCE 200809L
#include "image.h"

#include "../core/fileio.h"

#include <SDL.h>
#include <SDL_image.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool image_save_png(const char *link_path, int w, int h, const unsigned char *rgba, char *err,
                    size_t errsz) {
    char path[4096];
    if (!file_follow_links(link_path, path, sizeof path, err, errsz)) return false;
    SDL_Surface *s =
        SDL_CreateRGBSurfaceWithFormatFrom((void *)rgba, w, h, 32, w * 4, SDL_PIXELFORMAT_ABGR8888);
    if (!s) {
        snprintf(err, errsz, "%s: %s", path, SDL_GetError());
        return false;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    int rc = IMG_SavePNG(s, tmp);
    SDL_FreeSurface(s);
    if (rc != 0) {
        snprintf(err, errsz, "%s: cannot write PNG: %s", path, IMG_GetError());
        unlink(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errsz, "%s: cannot write PNG: %s", path, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}
