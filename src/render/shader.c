/* GLSL programs; see shader.h. */
#define _POSIX_C_SOURCE 200809L
#include "shader.h"

#include "../core/fileio.h"

#include <assert.h>
#include "gl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const Program_Files program_files[PROGRAM_COUNT] = {
    [PROGRAM_SHAPE] = {"ui.vert", "shape.frag"},
    [PROGRAM_TEXT] = {"ui.vert", "text.frag"},
    [PROGRAM_HEATMAP] = {"heatmap.vert", "heatmap.frag"},
};
static_assert(PROGRAM_COUNT == 3, "every program needs its files listed above");

/* Rewrite Mesa's "0:12(5): error: …" (or NVIDIA's "0(12) : error …") into
 * "shaders/NAME:12: error: …", keeping only the first message line. */
static void format_log(const char *name, const char *log, char *err, size_t errsz) {
    int file = 0, line = 0, col = 0, used = 0;
    const char *msg = log;
    if (sscanf(log, "%d:%d(%d): %n", &file, &line, &col, &used) == 3 && used > 0) {
        msg = log + used;
    } else if (sscanf(log, "%d(%d) : %n", &file, &line, &used) == 2 && used > 0) {
        msg = log + used;
    } else {
        line = 0;
    }
    int len = (int)strcspn(msg, "\n");
    if (line > 0)
        snprintf(err, errsz, "shaders/%s:%d: %.*s", name, line, len, msg);
    else
        snprintf(err, errsz, "shaders/%s: %.*s", name, len, msg);
}

static unsigned int compile(const char *data_dir, const char *name, GLenum type, char *err,
                            size_t errsz) {
    char path[1200], *src;
    size_t len;
    snprintf(path, sizeof path, "%s/shaders/%s", data_dir, name);
    if (!file_read_all(path, 1 << 20, &src, &len, err, errsz)) return 0;
    /* the file's "#version 330 core" line gives way to the context's own */
    size_t skip = 0;
    if (len >= 8 && !memcmp(src, "#version", 8)) {
        while (skip < len && src[skip] != '\n') skip++;
        if (skip < len) skip++;
    }
    GLuint sh = glCreateShader(type);
    const GLchar *text[2] = {RENDER_GLSL_PREFIX, src + skip};
    GLint n[2] = {(GLint)strlen(RENDER_GLSL_PREFIX), (GLint)(len - skip)};
    glShaderSource(sh, 2, text, n);
    glCompileShader(sh);
    free(src);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        format_log(name, log, err, errsz);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

bool shader_build(const char *data_dir, Program_Id id, Program *dest, char *err, size_t errsz) {
    const Program_Files *f = &program_files[id];
    GLuint vs = compile(data_dir, f->vs, GL_VERTEX_SHADER, err, errsz);
    if (!vs) return false;
    GLuint fs = compile(data_dir, f->fs, GL_FRAGMENT_SHADER, err, errsz);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        char both[200];
        snprintf(both, sizeof both, "%s+%s (link)", f->vs, f->fs);
        format_log(both, log, err, errsz);
        glDeleteProgram(prog);
        return false;
    }
    *dest = (Program){
        .id = prog,
        .u_proj = glGetUniformLocation(prog, "u_proj"),
        .u_atlas = glGetUniformLocation(prog, "u_atlas"),
        .u_grid = glGetUniformLocation(prog, "u_grid"),
        .u_colormaps = glGetUniformLocation(prog, "u_colormaps"),
        .u_vmin = glGetUniformLocation(prog, "u_vmin"),
        .u_vmax = glGetUniformLocation(prog, "u_vmax"),
        .u_map_row = glGetUniformLocation(prog, "u_map_row"),
    };
    return true;
}

bool shader_build_all(const char *data_dir, Program programs[PROGRAM_COUNT], char *err,
                      size_t errsz) {
    Program fresh[PROGRAM_COUNT] = {0};
    for (int i = 0; i < PROGRAM_COUNT; i++) {
        if (!shader_build(data_dir, (Program_Id)i, &fresh[i], err, errsz)) {
            for (int k = 0; k < i; k++) shader_free(&fresh[k]);
            return false; /* the old programs stay in use */
        }
    }
    for (int i = 0; i < PROGRAM_COUNT; i++) {
        shader_free(&programs[i]);
        programs[i] = fresh[i];
    }
    return true;
}

void shader_free(Program *p) {
    if (p->id) glDeleteProgram(p->id);
    memset(p, 0, sizeof *p);
}
