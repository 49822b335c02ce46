/* Every setting of a scene, once: its name, type, range, default, command-line
 * flag, scene-file key, lesson keyword and help line. The command line, the
 * scene loader and saver, the lesson parser, --help and scene_default read
 * this table, and tests hold the manual (README.md and docs/) and the man page to it. Adding a
 * setting is one line here plus what it means.
 *
 *   const Setting *setting(Setting_Id id)
 *   const Setting *setting_by_cli(const char *flag)       NULL if no setting has that flag
 *   const Setting *setting_by_json(const char *key)
 *   const Setting *setting_by_lesson(const char *keyword)
 *   double setting_get(const Scene *s, Setting_Id id)     every type fits a double exactly
 *   void setting_set(Scene *s, Setting_Id id, double v)   v already checked
 *   bool setting_parse(const Setting *st, const char *text, double *dest, char *why, size_t whysz)
 *       the value a person wrote, checked against the type and range; why
 *       says what is wrong, quoting text as written
 *   bool setting_check(const Setting *st, double v, const char *written, char *why, size_t whysz)
 *       a value read elsewhere (a JSON number) against the type and range
 *   const char *setting_choice_name(Setting_Id id, int v)
 *       a choice setting's name for v ("none", "sin", "causal", …)
 *   bool setting_choice_parse(Setting_Id id, const char *name, int *dest)
 *   void setting_choice_list(Setting_Id id, const char *sep, const char *quote, char *buf,
 *                            size_t size)
 *       the names joined: "none|sin", "\"none\" or \"sin\"" for usage lines and messages
 */
#ifndef ATTN_SETTINGS_H
#define ATTN_SETTINGS_H

#include "../core/i18n.h"
#include "scene.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum Setting_Type {
    SETTING_INT,    /* whole number in [min, max] */
    SETTING_U32,    /* whole number in [min, max], up to 2^32 − 1 */
    SETTING_FLOAT,  /* finite number in [min, max] */
    SETTING_BOOL,   /* true/false, on/off */
    SETTING_CHOICE, /* one of a few names (setting_choice_name), stored as its number */
} Setting_Type;

/* X(id, type, min, max, default, required in a scene file, CLI flag,
 *   JSON key, lesson keyword, help) */
#define SCENE_SETTINGS(X)                                                                          \
    X(SET_D, SETTING_INT, 1, ATTN_MAX_D, 2, true, "--d", "d", "d", N_("embedding width d"))        \
    X(SET_DK, SETTING_INT, 1, ATTN_MAX_DK, 16, true, "--dk", "d_k", "dk",                          \
      N_("query/key width d_k"))                                                                   \
    X(SET_DV, SETTING_INT, 1, ATTN_MAX_DV, 16, true, "--dv", "d_v", "dv", N_("value width d_v"))   \
    X(SET_SEED, SETTING_U32, 0, ATTN_MAX_SEED, 1, true, "--seed", "seed", "seed",                  \
      N_("projection seed"))                                                                       \
    X(SET_SCALED, SETTING_BOOL, 0, 1, 1, true, "--no-scale", "scaled", "scale",                    \
      N_("use QK^T without dividing by sqrt(d_k)"))                                                \
    X(SET_POS, SETTING_CHOICE, 0, 4, 0, false, "--pos", "pos", "pos",                              \
      N_("position: added to X (sin, learned) or in the rule (rope, alibi)"))                      \
    X(SET_POS_STRENGTH, SETTING_FLOAT, 0, ATTN_MAX_POS_STRENGTH, 1, false, "--pos-strength",       \
      "pos_strength", "pos", N_("multiplier of an added positional term (sin, learned)"))          \
    X(SET_POS_OFFSET, SETTING_INT, 0, ATTN_MAX_POS_OFFSET, 0, false, "--pos-offset", "pos_offset", \
      "offset", N_("position of the first token (a sentence later in a document)"))                \
    X(SET_ROPE_BASE, SETTING_FLOAT, ATTN_MIN_ROPE_BASE, ATTN_MAX_ROPE_BASE, 10000, false,          \
      "--rope-base", "rope_base", "rope_base", N_("rope's base: pair m turns at base^(-2m/d_k)"))  \
    X(SET_HEADS, SETTING_INT, 1, ATTN_MAX_HEADS, 1, false, "--heads", "heads", "heads",            \
      N_("attention heads H, each with its own W_Q, W_K, W_V"))                                    \
    X(SET_MASK, SETTING_CHOICE, 0, 1, 0, false, "--mask", "mask", "mask",                          \
      N_("causal: query i sees only keys j <= i"))

typedef enum Setting_Id {
#define SETTING_ENUM(id, ...) id,
    SCENE_SETTINGS(SETTING_ENUM)
#undef SETTING_ENUM
        SET_COUNT
} Setting_Id;

typedef struct Setting {
    Setting_Id id;
    Setting_Type type;
    double min, max, def;
    bool required; /* in a scene file */
    const char *cli, *json, *lesson, *help;
} Setting;

const Setting *setting(Setting_Id id);
const Setting *setting_by_cli(const char *flag);
const Setting *setting_by_json(const char *key);
const Setting *setting_by_lesson(const char *keyword);
double setting_get(const Scene *s, Setting_Id id);
void setting_set(Scene *s, Setting_Id id, double v);
bool setting_parse(const Setting *st, const char *text, double *dest, char *why, size_t whysz);
bool setting_check(const Setting *st, double v, const char *written, char *why, size_t whysz);
const char *setting_choice_name(Setting_Id id, int v);
bool setting_choice_parse(Setting_Id id, const char *name, int *dest);
void setting_choice_list(Setting_Id id, const char *sep, const char *quote, char *buf, size_t size);

#endif
