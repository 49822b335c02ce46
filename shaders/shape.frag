#version 330 core
// Shapes of the UI: solid fills and anti-aliased signed-distance shapes
// (rounded rectangles, circles, capsule lines). fwidth() gives the width of
// one pixel in the shape's own units, so edges stay one pixel soft at any
// zoom. Text has its own program (text.frag), so no fragment here samples a
// texture: the software rasterizer pays for every instruction of every pixel.
in vec2 v_uv;
in vec4 v_params;
in vec4 v_color;
flat in int v_mode;

out vec4 frag;

float coverage(float dist) {
    float aa = max(fwidth(dist), 1e-4);
    return clamp(0.5 - dist / aa, 0.0, 1.0);
}

void main() {
    float alpha = 1.0;
    if (v_mode == 2) {
        vec2 half_size = v_params.xy;
        float radius = min(v_params.z, min(half_size.x, half_size.y));
        vec2 q = abs(v_uv) - half_size + radius;
        float dist = length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - radius;
        if (v_params.w > 0.0) dist = abs(dist + 0.5 * v_params.w) - 0.5 * v_params.w;
        alpha = coverage(dist);
    } else if (v_mode == 3) {
        // v_uv.x runs along the line from its centre, v_uv.y across it
        vec2 q = vec2(max(abs(v_uv.x) - v_params.x, 0.0), v_uv.y);
        alpha = coverage(length(q) - v_params.y);
    }
    frag = vec4(v_color.rgb, v_color.a * alpha);
}
