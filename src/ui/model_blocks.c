/* The Model view's block diagram (see model_blocks.h). */
#include "../core/i18n.h"
#include "model_blocks.h"

#include <math.h>
#include <stdio.h>

/* A box of the block diagram: its label, and its numbers when hovered. */
static bool block_box(Ui *ui, Rect b, const char *label, Color fill, bool open, const char *numbers,
                      View_State *vs) {
    const Theme *t = ui->theme;
    draw_round_rect(ui->dl, b, 4, fill);
    if (open) draw_rect_outline(ui->dl, b, 4, 2, t->accent);
    ui_label_abbrev(ui, b, FONT_SANS, t->small_size, ALIGN_CENTER, t->on_bright, label);
    bool over = ui_hit(ui, b);
    if (over) snprintf(vs->hover_text, sizeof vs->hover_text, "%s", numbers);
    return over && ui->in.released;
}

/* The model as boxes, as its kinds are: embeddings (and learned positions,
 * GPT-2's), then per layer norm → attention → + → norm → MLP → +, then the
 * last norm and the logits. LayerNorm or RMSNorm, GELU or SwiGLU, positions
 * added or RoPE turning q and k, heads sharing key/value heads or not: each
 * box says what this model does. Beside each layer, what its attention and
 * its MLP add to the residual stream (mean ‖Δx‖ over the tokens) as bars; the
 * open head's layer is marked, and a click on a layer's attention opens that
 * layer. Hovering a box gives its numbers. */
void model_block_diagram(Ui *ui, View_State *vs, const Real_Lab *l, Rect body) {
    const Theme *t = ui->theme;
    const Net_Model *tm = &l->model->weights.model;
    bool rms = tm->norm == NET_NORM_RMS, swiglu = tm->mlp == NET_MLP_SWIGLU;
    bool rope = tm->rope_theta > 0, grouped = tm->kv_heads > 0 && tm->kv_heads < tm->heads;
    ui_record(ui, "panel", "model_blocks", -1, body);
    int rows = tm->layers + 3;
    float row = fminf(body.h / rows, 44), gap = row >= 20 ? 3 : 1;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float label_w = ui_text_width(ui, FONT_MONO, t->small_size, "00") + 8;
    float bar_w = body.w * 0.28f;
    float box_w = (body.w - label_w - bar_w - 8) / 4;
    float big = 0;
    for (int a = 0; a < tm->layers; a++) big = fmaxf(big, fmaxf(l->attn_adds[a], l->mlp_adds[a]));
    char numbers[400], name[16];
    const char *adds = _("adds: attention, MLP");
    if (ui_text_width(ui, FONT_SANS, t->small_size, adds) > bar_w) adds = "adds";
    draw_text(ui->dl, FONT_SANS, t->small_size, body.x + body.w - bar_w, body.y, ALIGN_LEFT,
              t->text_dim, adds);
    body.y += row;
    Rect first = {body.x + label_w, body.y, 4 * box_w, row - gap};
    if (tm->wpe)
        snprintf(numbers, sizeof numbers,
                 _("token embeddings + learned positions: the residual stream x₀, ‖x₀‖ = %.2f on "
                   "average over the tokens"),
                 (double)l->stream_norm[0]);
    else
        snprintf(numbers, sizeof numbers,
                 _("token embeddings alone: the residual stream x₀, ‖x₀‖ = %.2f on average over "
                   "the tokens; position enters in every layer, where RoPE turns q and k"),
                 (double)l->stream_norm[0]);
    block_box(ui, first, tm->wpe ? _("embeddings + positions") : _("embeddings"), t->faint, false,
              numbers, vs);
    const char *norm = rms ? "RMSNorm" : "LayerNorm";
    bool small = row < lh + 2;
    for (int a = 0; a < tm->layers; a++) {
        float y = body.y + (a + 1) * row;
        snprintf(name, sizeof name, "%d", a);
        if (!small || a % 4 == 0)
            draw_text(ui->dl, FONT_MONO, t->small_size, body.x + label_w - 6,
                      y + (row - gap - lh) * 0.5f, ALIGN_RIGHT, t->text_dim, name);
        float x = body.x + label_w;
        double x_norm = l->stream_norm[a], adds_a = l->attn_adds[a];
        if (rope && grouped)
            snprintf(numbers, sizeof numbers,
                     _("layer %d: %s, then %d query heads sharing %d key/value heads read x_%d "
                       "(‖x‖ = %.2f), q and k turned by RoPE, and add %.2f to it; click to open "
                       "this layer's heads"),
                     a, norm, tm->heads, tm->kv_heads, a, x_norm, adds_a);
        else if (rope)
            snprintf(numbers, sizeof numbers,
                     _("layer %d: %s, then %d heads read x_%d (‖x‖ = %.2f), q and k turned by "
                       "RoPE, and add %.2f to it; click to open this layer's heads"),
                     a, norm, tm->heads, a, x_norm, adds_a);
        else if (rms || grouped)
            snprintf(numbers, sizeof numbers,
                     _("layer %d: %s, then %d heads on %d key/value heads read x_%d (‖x‖ = %.2f) "
                       "and add %.2f to it; click to open this layer's heads"),
                     a, norm, tm->heads, tm->kv_heads > 0 ? tm->kv_heads : tm->heads, a, x_norm,
                     adds_a);
        else
            snprintf(numbers, sizeof numbers,
                     _("layer %d: LayerNorm, then %d heads read x_%d (‖x‖ = %.2f) and add %.2f to "
                       "it; click to open this layer's heads"),
                     a, tm->heads, a, x_norm, adds_a);
        const char *attn_label = rms ? _("RMSNorm → attention") : _("LN → attention");
        if (rms && ui_text_width(ui, FONT_SANS, t->small_size, attn_label) > 2 * box_w - 8)
            attn_label = _("RMS → attention");
        if (block_box(ui, (Rect){x, y, 2 * box_w - gap, row - gap}, small ? "" : attn_label,
                      t->query, a == l->open_layer, numbers, vs))
            view_act(vs, (Action){.kind = ACTION_REAL_OPEN,
                                  .c0 = a,
                                  .c1 = l->open_head >= 0 ? l->open_head : 0});
        if (swiglu)
            snprintf(numbers, sizeof numbers,
                     _("layer %d: %s, then the MLP (%d wide, SwiGLU: silu(x·W_gate) times x·W_up, "
                       "then W_down) adds %.2f, which leaves the stream at ‖x_%d‖ = %.2f"),
                     a, norm, tm->inner, (double)l->mlp_adds[a], a + 1,
                     (double)l->stream_norm[a + 1]);
        else
            snprintf(numbers, sizeof numbers,
                     _("layer %d: LayerNorm, then the MLP (%d wide, GELU) adds %.2f, which leaves "
                       "the stream at ‖x_%d‖ = %.2f"),
                     a, tm->inner, (double)l->mlp_adds[a], a + 1, (double)l->stream_norm[a + 1]);
        const char *mlp_label = swiglu ? _("RMSNorm → SwiGLU") : _("LN → MLP");
        if (swiglu && ui_text_width(ui, FONT_SANS, t->small_size, mlp_label) > 2 * box_w - 8)
            mlp_label = _("SwiGLU");
        block_box(ui, (Rect){x + 2 * box_w, y, 2 * box_w - gap, row - gap}, small ? "" : mlp_label,
                  t->value, false, numbers, vs);
        Rect bars = {body.x + body.w - bar_w, y + 1, bar_w, row - gap - 2};
        if (big > 0) {
            draw_rect(ui->dl,
                      (Rect){bars.x, bars.y, bars.w * l->attn_adds[a] / big, bars.h * 0.45f},
                      t->query);
            draw_rect(ui->dl,
                      (Rect){bars.x, bars.y + bars.h * 0.55f, bars.w * l->mlp_adds[a] / big,
                             bars.h * 0.45f},
                      t->value);
        }
    }
    Rect last = {body.x + label_w, body.y + (tm->layers + 1) * row, 4 * box_w, row - gap};
    if (rms)
        snprintf(numbers, sizeof numbers,
                 _("the last RMSNorm and the unembedding: the next token's logits, from ‖x_%d‖ = "
                   "%.2f"),
                 tm->layers, (double)l->stream_norm[tm->layers]);
    else
        snprintf(numbers, sizeof numbers,
                 _("the last LayerNorm and the unembedding: the next token's logits, from ‖x_%d‖ "
                   "= %.2f"),
                 tm->layers, (double)l->stream_norm[tm->layers]);
    block_box(ui, last, rms ? _("RMSNorm → logits") : _("LN → logits"), t->faint, false, numbers,
              vs);
}
