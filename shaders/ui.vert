#version 330 core
// Shapes and text of the UI. Positions arrive in logical units; u_proj maps
// them (with the UI zoom and display scale folded in) to clip space.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec2 a_uv;     // glyph: atlas coordinate; shape: local position
layout(location = 2) in vec4 a_params; // shape: half extents, corner radius, outline width
layout(location = 3) in vec4 a_color;
layout(location = 4) in float a_mode;  // 0 solid, 1 glyph, 2 rounded rect, 3 line

uniform mat4 u_proj;

out vec2 v_uv;
out vec4 v_params;
out vec4 v_color;
flat out int v_mode;

void main() {
    gl_Position = u_proj * vec4(a_pos, 0.0, 1.0);
    v_uv = a_uv;
    v_params = a_params;
    v_color = a_color;
    v_mode = int(a_mode + 0.5);
}
