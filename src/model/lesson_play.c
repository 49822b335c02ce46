/* Playing a lesson's actions on the model; see lesson_play.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_play.h"

#include "../core/text.h"
#include "scene_file.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- acting on the model ------------------------------------------------------ */

/* A token reference: "#3" is position 3; a word is its first occurrence
 * (ignoring ASCII case). -1 if there is no such token. */
int lesson_find_token(const Scene *s, const char *ref) {
    if (ref[0] == '#') {
        int64_t v;
        if (text_parse_i64(ref + 1, 0, s->n - 1, &v) != TEXT_NUM_OK) return -1;
        return (int)v;
    }
    for (int i = 0; i < s->n; i++) {
        const char *a = s->tokens[i], *b = ref;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
        if (!*a && !*b) return i;
    }
    return -1;
}

bool lesson_apply(const Lesson *l, int first, int count, Lesson_Env *env, char *err, size_t errsz) {
    Model *m = env->m;
    for (int k = first; k < first + count; k++) {
        const Lesson_Action *a = &l->actions[k];
        Scene *s = &m->scene;
        char why[400];
        switch (a->kind) {
        case ACT_SCENE: {
            char path[1200];
            size_t dl = strlen(env->data_dir);
            snprintf(path, sizeof path, "%.*s/assets/scenes/%s",
                     (int)(dl && env->data_dir[dl - 1] == '/' ? dl - 1 : dl), env->data_dir,
                     a->text);
            /* a look, not an open: opening a FIFO there would wait for a writer */
            if (access(path, F_OK) != 0) {
                snprintf(err, errsz, "%s:%d: scene: no file '%s' in assets/scenes", l->path,
                         a->line, a->text);
                return false;
            }
            Scene *next = &m->next; /* the model's scratch scene */
            if (!scene_load(next, path, m->vocab, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: scene: %s", l->path, a->line, why);
                return false;
            }
            model_replace_scene(m, next);
            env->selected = 0;
            break;
        }
        case ACT_TOKENS:
            if (!model_set_sentence(m, a->text, why, sizeof why)) {
                snprintf(err, errsz, "%s:%d: tokens: %s", l->path, a->line, why);
                return false;
            }
            env->selected = 0;
            break;
        case ACT_DK:
            model_set_dk(m, a->i);
            break;
        case ACT_DV:
            model_set_dv(m, a->i);
            break;
        case ACT_D:
            model_set_d(m, a->i);
            break;
        case ACT_SEED:
            model_set_seed(m, a->seed);
            break;
        case ACT_SCALE:
            model_set_scaled(m, a->i != 0);
            break;
        case ACT_POS:
            model_set_pos(m, (Pos_Mode)a->i);
            if (a->i == POS_SIN) model_set_pos_strength(m, a->x);
            break;
        case ACT_VIEW:
            env->view = a->i;
            break;
        case ACT_ORDER: {
            if (a->n != s->n) {
                snprintf(err, errsz, "%s:%d: order: %d positions but the scene has %d tokens",
                         l->path, a->line, a->n, s->n);
                return false;
            }
            /* order lists original positions; the permutation from the current
             * order is: new slot i takes the token whose origin is order[i] */
            int where[ATTN_MAX_TOKENS], p[ATTN_MAX_TOKENS];
            for (int i = 0; i < s->n; i++) where[s->origin[i]] = i;
            for (int i = 0; i < s->n; i++) p[i] = where[a->order[i]];
            model_permute(m, p);
            break;
        }
        case ACT_SELECT:
        case ACT_MOVE: {
            int i = lesson_find_token(s, a->text);
            if (i < 0) {
                snprintf(err, errsz, "%s:%d: %s: no token '%s' in the scene at this step", l->path,
                         a->line, a->kind == ACT_SELECT ? "select" : "move", a->text);
                return false;
            }
            if (a->kind == ACT_SELECT)
                env->selected = i;
            else
                model_move_token(m, i, 0, a->x, s->d > 1 ? 1 : 0, s->d > 1 ? a->y : a->x);
            break;
        }
        case ACT_REVERSE:
            model_reverse(m);
            break;
        case ACT_SHUFFLE:
            model_shuffle(m, s->seed + 17u);
            break;
        case ACT_ROTATE:
            model_rotate(m, a->i);
            break;
        case ACT_RESTORE:
            model_restore_order(m);
            break;
        case ACT_HIGHLIGHT:
            snprintf(env->highlight, sizeof env->highlight, "%s",
                     strcmp(a->text, "none") ? a->text : "");
            break;
        }
    }
    if (!model_update(m)) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    return true;
}
