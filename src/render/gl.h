/* The OpenGL the renderer is built against: OpenGL 3.3 core through
 * libepoxy on the desktop, OpenGL ES 3.0 (WebGL2) in the browser. The
 * renderer uses only what both have, so nothing else needs to know.
 *
 *   RENDER_GLSL_PREFIX   replaces each shader's "#version 330 core" line
 */
#ifndef ATTN_GL_H
#define ATTN_GL_H

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
/* the same line count as the desktop's one "#version" line, so errors keep their line numbers */
#define RENDER_GLSL_PREFIX "#version 300 es\nprecision highp float;\n#line 2\n"
#else
#include <epoxy/gl.h>
#define RENDER_GLSL_PREFIX "#version 330 core\n"
#endif

#endif
