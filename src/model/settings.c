/* The settings table; see settings.h. */
#include "settings.h"

#include "../core/i18n.h"

#include "../core/text.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const Setting table[] = {
#define SETTING_ROW(id, type, min, max, def, req, cli, json, lesson, help)                         \
    {id, type, (double)(min), (double)(max), (double)(def), req, cli, json, lesson, help},
    SCENE_SETTINGS(SETTING_ROW)
#undef SETTING_ROW
};
static_assert(sizeof table / sizeof *table == SET_COUNT, "one row per Setting_Id");

const Setting *setting(Setting_Id id) {
    assert(id >= 0 && id < SET_COUNT);
    return &table[id];
}

const Setting *setting_by_cli(const char *flag) {
    for (int k = 0; k < SET_COUNT; k++)
        if (!strcmp(table[k].cli, flag)) return &table[k];
    return NULL;
}

const Setting *setting_by_json(const char *key) {
    for (int k = 0; k < SET_COUNT; k++)
        if (!strcmp(table[k].json, key)) return &table[k];
    return NULL;
}

/* "pos" is both the mode and, as its optional second word, the strength:
 * the first row with the keyword is the one a directive names. */
const Setting *setting_by_lesson(const char *keyword) {
    for (int k = 0; k < SET_COUNT; k++)
        if (!strcmp(table[k].lesson, keyword)) return &table[k];
    return NULL;
}

double setting_get(const Scene *s, Setting_Id id) {
    switch (id) {
    case SET_D:
        return s->d;
    case SET_DK:
        return s->d_k;
    case SET_DV:
        return s->d_v;
    case SET_SEED:
        return s->seed;
    case SET_SCALED:
        return s->scaled;
    case SET_POS:
        return s->pos;
    case SET_POS_STRENGTH:
        return s->pos_strength;
    case SET_POS_OFFSET:
        return s->pos_offset;
    case SET_ROPE_BASE:
        return s->rope_base;
    case SET_HEADS:
        return s->heads;
    case SET_MASK:
        return s->mask;
    case SET_COUNT:
        break;
    }
    assert(!"unknown setting");
    return 0;
}

void setting_set(Scene *s, Setting_Id id, double v) {
    switch (id) {
    case SET_D:
        s->d = (int)v;
        break;
    case SET_DK:
        s->d_k = (int)v;
        break;
    case SET_DV:
        s->d_v = (int)v;
        break;
    case SET_SEED:
        s->seed = (uint32_t)v;
        break;
    case SET_SCALED:
        s->scaled = v != 0;
        break;
    case SET_POS:
        s->pos = (Pos_Mode)(int)v;
        break;
    case SET_POS_STRENGTH:
        s->pos_strength = (float)v;
        break;
    case SET_POS_OFFSET:
        s->pos_offset = (int)v;
        break;
    case SET_ROPE_BASE:
        s->rope_base = (float)v;
        break;
    case SET_HEADS:
        s->heads = (int)v;
        break;
    case SET_MASK:
        s->mask = (Mask_Mode)(int)v;
        break;
    case SET_COUNT:
        assert(!"unknown setting");
        break;
    }
}

bool setting_parse(const Setting *st, const char *text, double *dest, char *why, size_t whysz) {
    switch (st->type) {
    case SETTING_INT:
    case SETTING_U32: {
        int64_t v;
        Text_Num r = text_parse_i64(text, (int64_t)st->min, (int64_t)st->max, &v);
        if (r != TEXT_NUM_OK) {
            text_num_message(r, text, true, st->min, st->max, why, whysz);
            return false;
        }
        *dest = (double)v;
        return true;
    }
    case SETTING_FLOAT: {
        double v;
        Text_Num r = text_parse_f64(text, st->min, st->max, &v);
        if (r != TEXT_NUM_OK) {
            text_num_message(r, text, false, st->min, st->max, why, whysz);
            return false;
        }
        *dest = v;
        return true;
    }
    case SETTING_BOOL:
        if (!strcmp(text, "on") || !strcmp(text, "true")) {
            *dest = 1;
            return true;
        }
        if (!strcmp(text, "off") || !strcmp(text, "false")) {
            *dest = 0;
            return true;
        }
        snprintf(why, whysz, _("expected 'on' or 'off', not '%s'"), text);
        return false;
    case SETTING_CHOICE: {
        int c;
        if (!setting_choice_parse(st->id, text, &c)) {
            char list[64];
            setting_choice_list(st->id, ", ", "", list, sizeof list);
            snprintf(why, whysz, _("'%s' is not one of: %s"), text, list);
            return false;
        }
        *dest = c;
        return true;
    }
    }
    return false;
}

bool setting_check(const Setting *st, double v, const char *written, char *why, size_t whysz) {
    if (!isfinite(v)) {
        snprintf(why, whysz, _("\"%s\" is not a finite number"), st->json);
        return false;
    }
    if (st->type == SETTING_FLOAT && text_underflows_float(written, v)) {
        snprintf(why, whysz,
                 _("\"%s\" is %s, too small to represent (underflow); write 0 for zero"), st->json,
                 written);
        return false;
    }
    bool whole = st->type == SETTING_INT || st->type == SETTING_U32;
    if (whole && v != floor(v)) {
        snprintf(why, whysz, _("\"%s\" must be a whole number, not %s"), st->json, written);
        return false;
    }
    if (v < st->min || v > st->max) {
        if (whole)
            snprintf(why, whysz, _("\"%s\" is %s; it must be %.0f to %.0f"), st->json, written,
                     st->min, st->max);
        else
            snprintf(why, whysz, _("\"%s\" is %s; it must be %g to %g"), st->json, written, st->min,
                     st->max);
        return false;
    }
    return true;
}

/* The names of each choice setting, in the order of their numbers. */
static const char *const *choices(Setting_Id id, int *count) {
    static const char *const pos[] = {"none", "sin", "learned", "rope", "alibi"}, *const mask[] = {
                                                                                      "none",
                                                                                      "causal"};
    static_assert(POS_NONE == 0 && POS_SIN == 1 && POS_LEARNED == 2 && POS_ROPE == 3 &&
                      POS_ALIBI == 4 && POS_MODE_COUNT == 5 && MASK_NONE == 0 && MASK_CAUSAL == 1,
                  "a choice's number is its place in its list");
    *count = 5;
    if (id == SET_POS) return pos;
    *count = 2;
    if (id == SET_MASK) return mask;
    *count = 0;
    return NULL;
}

const char *setting_choice_name(Setting_Id id, int v) {
    int count;
    const char *const *names = choices(id, &count);
    return v >= 0 && v < count ? names[v] : "?";
}

bool setting_choice_parse(Setting_Id id, const char *name, int *dest) {
    int count;
    const char *const *names = choices(id, &count);
    for (int k = 0; k < count; k++)
        if (!strcmp(names[k], name)) {
            *dest = k;
            return true;
        }
    return false;
}

void setting_choice_list(Setting_Id id, const char *sep, const char *quote, char *buf,
                         size_t size) {
    int count;
    const char *const *names = choices(id, &count);
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < count && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s%s", k ? sep : "", quote, names[k],
                                 quote);
}
