/* GLSL programs loaded from shaders/ at run time.
 *
 * A compile or link error is reported as "shaders/NAME:LINE: message" (the
 * driver's "0:LINE(COL):" prefix rewritten), and the previous program, if
 * any, stays in use.
 *
 *   bool shader_build(const char *data_dir, Program_Id id, Program *dest, char *err, size_t errsz)
 *       compile + link one program
 *   bool shader_build_all(const char *data_dir, Program programs[PROGRAM_COUNT], char *err,
 *       size_t errsz)
 *       all or nothing
 *   void shader_free(Program *p)
 */
#ifndef ATTN_SHADER_H
#define ATTN_SHADER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum Program_Id {
    PROGRAM_SHAPE = 0,
    PROGRAM_TEXT,
    PROGRAM_HEATMAP,
    PROGRAM_COUNT
} Program_Id;

typedef struct Program_Files {
    const char *vs, *fs;
} Program_Files;

typedef struct Program {
    unsigned int id; /* 0 = none */
    int u_proj, u_atlas, u_grid, u_colormaps, u_vmin, u_vmax, u_map_row;
} Program;

extern const Program_Files program_files[PROGRAM_COUNT];

bool shader_build(const char *data_dir, Program_Id id, Program *dest, char *err, size_t errsz);
bool shader_build_all(const char *data_dir, Program programs[PROGRAM_COUNT], char *err,
                      size_t errsz);
void shader_free(Program *p);

#endif
