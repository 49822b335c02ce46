#version 330 core
// A heatmap: a float texture of values (nearest: one flat colour per cell)
// mapped through a colormap lookup texture (one row per colormap).
in vec2 v_uv;

uniform sampler2D u_grid;
uniform sampler2D u_colormaps;
uniform float u_vmin;
uniform float u_vmax;
uniform float u_map_row; // texture-space v of the chosen colormap's row

out vec4 frag;

void main() {
    float value = texture(u_grid, v_uv).r;
    float t = clamp((value - u_vmin) / max(u_vmax - u_vmin, 1e-30), 0.0, 1.0);
    // sample at texel centres so t = 0 and t = 1 hit the first and last entries
    float x = (t * 255.0 + 0.5) / 256.0;
    frag = vec4(texture(u_colormaps, vec2(x, u_map_row)).rgb, 1.0);
}
