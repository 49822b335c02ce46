#version 330 core
// Glyphs: coverage from the atlas, tinted by the run's colour.
in vec2 v_uv;
in vec4 v_color;

uniform sampler2D u_atlas;

out vec4 frag;

void main() {
    frag = vec4(v_color.rgb, v_color.a * texture(u_atlas, v_uv).r);
}
