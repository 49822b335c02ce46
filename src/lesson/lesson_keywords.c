/* The lesson directives' keywords and the panels a step may point at; see
 * lesson_keywords.h. */
#include "lesson_keywords.h"
#include "lesson_directive.h"

#include <string.h>

/* The panels `highlight` may frame. */
static const char *const panel_names[] = {
    "plane",
    "controls",
    "S",
    "A",
    "Q",
    "K",
    "V",
    "query",
    "qk_plane",
    "O",
    "X",
    "heads",
    "train_controls",
    "train_loss",
    "train_A",
    "train_bilinear",
    "experiment",
    "hist_raw",
    "hist_scaled",
    "entropy_plot",
    "max_plot",
    "scaling_controls",
    "P",
    "reorder",
    "verdict",
    "A_PX",
    "A_P",
    "A_diff",
    "O_PX",
    "O_P",
    "O_diff",
    "shift_controls",
    "shift_verdicts",
    "S_at_0",
    "S_at_offset",
    "score_by_delta",
    "score_by_position",
    "rope_pairs",
    "train_lengths",
    "layers_controls",
    "layers_loss",
    "layers_scores",
    "layers_heads",
    "model_tokens",
    "model_grid",
    "model_blocks",
    "model_sinks",
    "model_turns",
    "model_open",
    "model_lines",
    "model_plane",
    "model_compare",
    "model_unturned",
    "model_next",
    "model_write",
    "model_cache",
    "none",
};

/* Every directive keyword, once: what it makes and how it is written.
 * lessons/README.md documents exactly these (a test holds the two together).
 * The actions' are the directive table's rows (lesson_directive.h), copied in
 * front of these, the keywords that are not actions, once. */
static const Lesson_Keyword other_keywords[] = {
    {"goal", -1, "goal CONDITION [and CONDITION …] [: LABEL]"},
    {"solution", -1, "solution ACTION; ACTION; …"},
    {"see", -1, "see FILE.md"},
    {"predict", -1,
     "predict key TOKEN | [later] yes if CONDITION [after ACTIONS] : QUESTION | WHY"},
};

static const Lesson_Keyword cond_keywords[] = {
    {"weight", COND_WEIGHT, "weight Q K CMP NUMBER"},
    {"score", COND_SCORE, "score Q K CMP NUMBER"},
    {"x", COND_X, "x TOKEN C CMP NUMBER"},
    {"dk", COND_DK, "dk CMP N"},
    {"dv", COND_DV, "dv CMP N"},
    {"d", COND_D, "d CMP N"},
    {"n", COND_N, "n CMP N"},
    {"scale", COND_SCALE, "scale on|off"},
    {"pos", COND_POS, "pos none|sin|learned|rope|alibi"},
    {"view", COND_VIEW, "view NAME"},
    {"mean-max", COND_MEAN_MAX, "mean-max CMP NUMBER"},
    {"mean-entropy", COND_MEAN_ENTROPY, "mean-entropy CMP NUMBER"},
    {"order", COND_ORDER, "order reversed|original|changed"},
    {"perm-diff", COND_PERM_DIFF, "perm-diff CMP NUMBER"},
    {"shift-diff", COND_SHIFT_DIFF, "shift-diff CMP NUMBER"},
    {"selected", COND_SELECTED, "selected TOKEN"},
    {"heads", COND_SETTING, "heads CMP N"},
    {"mask", COND_SETTING, "mask none|causal"},
    {"offset", COND_SETTING, "offset CMP N"},
    {"rope_base", COND_SETTING, "rope_base CMP F"},
    {"loss", COND_LOSS, "loss CMP NUMBER"},
    {"trained", COND_TRAINED, "trained CMP N"},
    {"loss-other", COND_LOSS_OTHER, "loss-other CMP NUMBER"},
    {"prefix", COND_PREFIX, "prefix CMP NUMBER"},
    {"ic-loss", COND_IC_LOSS, "ic-loss CMP NUMBER"},
    {"zeroed", COND_ZEROED, "zeroed CMP N"},
    {"layers", COND_LAYERS, "layers CMP N"},
    {"layers-pos", COND_LAYERS_POS, "layers-pos none|sin|learned|rope"},
    {"learned", COND_LEARNED, "learned"},
    {"head-prev", COND_HEAD_PREV, "head-prev CMP NUMBER"},
    {"head-first", COND_HEAD_FIRST, "head-first CMP NUMBER"},
    {"head-prefix", COND_HEAD_PREFIX, "head-prefix CMP NUMBER"},
    {"head-turn", COND_HEAD_TURN, "head-turn CMP NUMBER"},
    {"weighted-first", COND_WEIGHTED_FIRST, "weighted-first CMP NUMBER"},
    {"model-change", COND_MODEL_CHANGE, "model-change CMP NUMBER"},
    {"written", COND_WRITTEN, "written CMP N"},
};

#define COUNT(a) ((int)(sizeof a / sizeof *a))

/* Every directive keyword: the table's rows, then goal, solution, see and predict. */
static const Lesson_Keyword *action_keywords(int *count) {
    static Lesson_Keyword all[LESSON_KEYWORDS_MAX];
    static int n;
    if (!n) {
        const Lesson_Directive *d;
        for (int k = 0; (d = lesson_directive_at(k)) && n < LESSON_KEYWORDS_MAX; k++)
            all[n++] = (Lesson_Keyword){d->word, (int)d->kind, d->usage};
        for (int k = 0; k < COUNT(other_keywords) && n < LESSON_KEYWORDS_MAX; k++)
            all[n++] = other_keywords[k];
    }
    *count = n;
    return all;
}

const Lesson_Keyword *lesson_keywords(Lesson_Keyword_Table table, int *count) {
    if (table == LESSON_KEYWORDS_ACTIONS) return action_keywords(count);
    *count = COUNT(cond_keywords);
    return cond_keywords;
}

const Lesson_Keyword *lesson_keyword_find(Lesson_Keyword_Table table, const char *word) {
    int count;
    const Lesson_Keyword *kw = lesson_keywords(table, &count);
    for (int k = 0; k < count; k++)
        if (!strcmp(kw[k].name, word)) return &kw[k];
    return NULL;
}

bool lesson_panel_known(const char *name) {
    for (size_t t = 0; t < sizeof panel_names / sizeof *panel_names; t++)
        if (!strcmp(name, panel_names[t])) return true;
    return false;
}
