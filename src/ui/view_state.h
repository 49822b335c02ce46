/* What the interface remembers between frames (selection, drags, hover,
 * the lesson session, animations, the status line), and the small helpers
 * every panel uses on it.
 *
 *   void view_init(View_State *vs)
 *   void view_set_status(View_State *vs, bool error, const char *fmt, ...)
 *       the status line; user text in it is escaped to one safe line. A message goes away
 *       with the next change to the scene; one that is not an error also after
 *       VIEW_STATUS_SECONDS
 *   double view_wake_in(const View_State *vs)
 *       seconds until the view changes by itself (a message expires: 0 once it has), or
 *       -1; VIEW_PROGRESS_SECONDS while the Model view's work runs on threads alone
 *   bool view_hides(const View_State *vs, const char *panel)
 *       the teacher hides that panel or control (vs->teacher_hidden), or the open lesson's
 *       step does (`hide`)
 *   bool view_wants_frames(const View_State *vs)
 *       an animation is running, or actions wait for the next frame
 *   void view_act(View_State *vs, Action a)
 *       queue a change to the scene; the next frame applies it before it lays out
 *   const Attn *view_attn(const View_State *vs, const Model *m)
 *       the attention of the head on show (the first when there are fewer heads now)
 *   Action view_shuffle(View_State *vs, const Scene *s)
 *       a shuffle that differs from the last one asked for
 *   void view_slider_gesture(View_State *vs)
 *       a slider drag is one undo step, however many values it passes
 *   void subscript(int i, char *buf, size_t size)   i in Unicode subscript digits
 */
#ifndef ATTN_VIEW_STATE_H
#define ATTN_VIEW_STATE_H

#include <stdint.h>

#include "../model/action.h"
#include "../lesson/lesson.h"
#include "../lesson/lesson_index.h"
#include "../lesson/lesson_play.h"
#include "../model/model.h"
#include "math_layout.h"
#include "ui.h"

#define VIEW_ANIM_SECONDS     0.25
#define VIEW_EDIT_BYTES       2048
#define VIEW_STATUS_SECONDS   6.0
#define VIEW_PROGRESS_SECONDS 0.1

typedef struct Plane_Map {
    Rect r;       /* plot area in logical units */
    float cx, cy; /* data value at the centre */
    float span;   /* data units from the centre to each edge */
    int axis0, axis1;
} Plane_Map;

/* A lesson being taken: which one, where the student is, and the scene
 * and view to give back on leaving. Storage for the Lesson and the saved
 * Scene is the platform's (allocated once); the session fills and reads it. */
/* The explorer's own state: the plane's axes and zoom, a point being
 * dragged, and the score colour range held while lock S is on. */
typedef struct Explorer_State {
    bool lock_range;
    float locked_smax;
    int axis0, axis1; /* embedding coordinates shown in the plane */
    int drag_point;   /* token being dragged in the plane, or -1 */
    float drag_off_x, drag_off_y;
    Plane_Map plane;
    float plane_span;
    /* compact layout: which panel each tabbed area shows, and the lesson
     * highlight last followed */
    int main_tab; /* 0 S and A, 1 strips, 2 the query */
    int side_tab; /* 0 controls, 1 X */
    char seen_highlight[32];
} Explorer_State;

/* The scaling lab's own state. */
typedef struct Scaling_State {
    int samples;
    uint64_t resample;
    float lock;      /* the S colour range held while d_k moves; 0 = take it now */
    bool fixed_axis; /* the raw histogram keeps one axis for every d_k */
} Scaling_State;

typedef enum Lesson_Go {
    LESSON_GO_NONE,
    LESSON_GO_NEXT,
    LESSON_GO_PREV,
    LESSON_GO_FIRST,
    LESSON_GO_LAST
} Lesson_Go;

/* Which steps of which lessons the student has done (every goal met, or
 * read when a step has none), by lesson file name. The menu marks finished
 * lessons; the platform keeps it between runs (platform/progress.h). */
/* Lessons a run keeps progress for: the menu lists at most LESSON_INDEX_MAX,
 * and the file may hold lessons of other folders too (more are kept in the
 * file, and said). */
#define PROGRESS_MAX_LESSONS 256
typedef struct Lesson_Progress {
    int count;
    char file[PROGRESS_MAX_LESSONS][128]; /* the lesson's file name, without its folder */
    int steps[PROGRESS_MAX_LESSONS];      /* how many steps it had when a step was done */
    uint32_t done[PROGRESS_MAX_LESSONS];  /* bit s: step s done (LESSON_MAX_STEPS ≤ 32) */
    bool changed;                         /* since the platform last saved it */
} Lesson_Progress;

typedef struct Lesson_Session {
    Lesson *lesson;
    Scene *saved;       /* the student's own scene, given back on leaving */
    Math_Scratch *math; /* where the panel sets each formula */
    View saved_view;
    const Lesson_Index *index;
    const char *data_dir; /* lesson scenes come from data_dir/assets/scenes */
    bool active, menu;
    bool progress_full;  /* said that the progress list is full */
    char hidden[128];    /* panels the step hides (lesson `hide`), space-separated */
    bool pending;        /* enter the loaded lesson before the next layout */
    bool leave;          /* leave it before the next layout */
    char open_path[512]; /* a link clicked (a step's `see`, the writing panel's): open it next */
    Lesson_Go go;        /* a step asked for by the panel's buttons */
    int step;
    /* a step's text longer than its panel is shown a page at a time (→ turns
     * the page, then the step); no line is ever cut across two pages */
    int page, pages;  /* the page shown, and how many the last layout made */
    char misfit[200]; /* what of the step the last layout could not fit, or "" */
    char highlight[32];
    int goal_state[LESSON_MAX_GOALS];     /* 1 met, 0 not yet, -1 cannot tell (error) */
    char goal_why[LESSON_MAX_GOALS][300]; /* why a goal cannot be told */
    bool showing;                         /* "show me" is playing a solution */
    int show_goal, show_action;
    double show_t0;
    float show_from_x, show_from_y;
    Lesson_Progress progress;
    /* the step's prediction: the answer given (a token, or 1 yes / 0 no; -1 none yet) */
    int predict_given;
    bool predict_waiting; /* a later prediction, answered: judged once the goals are met */
    bool predict_right;
    char predict_truth[96];          /* the right answer, in words */
    char predict_picked[96];         /* the key the student picked, in words */
    char predict_error[300];         /* why it could not be judged */
    int predict_asked, predict_hits; /* the tally, this lesson */
    /* what stays hidden until then: a query's row of S and A, or the verdicts */
    int hide_row; /* -1 none */
    bool hide_verdict;
} Lesson_Session;

typedef struct View_State {
    View view;
    int view_asked; /* a tab clicked: 1 + the view the next frame shows, else 0 */
    int selected;   /* query row */
    int shift_key;  /* the key the shift lab's curves follow, or -1: the next token */
    int head;       /* the head S, A, the strips and the query show (0-based) */
    bool y_arrows;  /* the plane shows x_i → x_i + y_i */
    Colormap weight_map;
    /* hover, set during the frame */
    int hover_row, hover_col; /* S or A cell, or -1 */
    Rect hover_cell;          /* where that cell is */
    Rect hover_grid[2];       /* S's and A's cells, and their panels (headers above the */
    Rect hover_panel[2];      /* cells): what a callout must not cover */
    int hover_token;          /* chip or point, or -1 */
    int mark_key;             /* key column of the hovered cell, highlighted everywhere */
    char hover_text[512];     /* what the thing under the mouse is, for the status line */
    /* drags */
    int drag_chip; /* chip being dragged, or -1 */
    float drag_chip_x0, drag_chip_y0;
    float drag_chip_grab, drag_chip_grab_y; /* where on the chip it was taken */
    bool drag_chip_moved;
    /* the chip row scrolls when the sentence is longer than the window */
    float chip_scroll;      /* logical units the row is scrolled left */
    bool chip_autoscroll;   /* a chip is held at either end: keep the frames coming */
    int chip_seen_selected; /* the selection last brought into view */
    bool slider_gesture;
    /* editing the sentence as text */
    bool editing;
    char edit[VIEW_EDIT_BYTES];
    int edit_len;
    int edit_cursor;                 /* byte offset, always on a UTF-8 boundary */
    int edit_anchor;                 /* the other end of the selection (= cursor: none) */
    float edit_origin;               /* where the text starts on screen, for the mouse */
    char clipboard[VIEW_EDIT_BYTES]; /* copied or cut, for the platform to take */
    bool want_clipboard;
    /* typing d_k */
    bool typing_dk;
    char dk_text[8];
    /* reorder animation: new position i came from anim_from[i]. The view
     * sees a reorder itself, by comparing the scene with the one it last
     * drew (same tokens, origins moved): the model keeps no animation data. */
    double anim_start;
    bool animating;
    int anim_from[ATTN_MAX_TOKENS];
    float row_offset[ATTN_MAX_TOKENS]; /* this frame, in cells (old − new, eased) */
    unsigned long seen_version;        /* the model version last compared */
    int seen_n, seen_selected;
    int seen_origin[ATTN_MAX_TOKENS];
    char seen_tokens[ATTN_MAX_TOKENS][ATTN_MAX_TOKEN_BYTES];
    /* overlays and messages */
    bool help;
    /* the interface's language, as the platform set it (platform/lang.h):
     * names in their own language, short labels for the top bar; a pick is
     * lang_want (-1: none) until the platform applies it */
    int lang, lang_count, lang_want;
    const char *lang_names[8], *lang_short[8];
    bool lang_menu;
    bool in_browser; /* the web page: the help lists the browser's keys */
    Theme_Id theme;  /* F2 cycles it */
    bool presenter;  /* P: big panels, the lesson as a caption strip, callouts */
    char status[512];
    bool status_error;
    double status_time;     /* when it was set */
    unsigned long status_n; /* how many messages have been set: a new one is a new number */
    /* requests to the platform */
    bool want_save;
    bool want_quit;
    unsigned long shuffle_count;
    Explorer_State explorer;
    Scaling_State scaling;
    float temperature;   /* the Model view's next-token temperature */
    int real_next_mode;  /* the next-token panel: 0 the ten likeliest, 1 the model writing */
    bool real_greedy;    /* writing: the likeliest each step (else drawn under the temperature) */
    float gen_top_k;     /* writing, drawn: the likeliest kept (0: all), a whole number */
    float gen_top_p;     /* writing, drawn: the fewest kept whose p reach this (1: no cut) */
    unsigned gen_seed;   /* writing, drawn: the draws' seed */
    float gen_speed;     /* writing: steps a second while playing */
    int real_gen_shown;  /* writing: the step shown (scrubbed back), or −1: the latest */
    int real_tab;        /* low Model view: 0 every head, 1 the open head, 2 next token */
    int real_head_mode;  /* the open head as 0 heatmaps, 1 lines, 2 queries and keys, 3 beside
                            the heads it is compared with, 4 beside itself without RoPE */
    int real_compare[4]; /* heads side by side (layer·heads + head), oldest first */
    int real_compare_n;
    int real_grid_mode;   /* the left panel: 0 every head, 1 the block diagram, 2 the first token */
    bool real_looked;     /* the platform looked for a model once (the view asked) */
    bool real_busy;       /* the pass (or the open head) is not done: frames keep coming */
    bool real_on_threads; /* ... but all of it runs on threads, which wake the window when
                             done: a frame now and then shows their progress */
    char real_before[VIEW_EDIT_BYTES];    /* the text when editing began: Esc puts it back */
    bool real_typing_path;                /* the field holds a model's folder or name */
    char real_open_path[VIEW_EDIT_BYTES]; /* asked for (Open model…): the platform opens it */
    bool train_running;                   /* mirrors the lab's play/pause, for view_wants_frames */
    bool train_queued;                    /* steps asked for are still running (train_drain) */
    double train_rate;                    /* steps per second, as last measured */
    double train_rate_t0;                 /* when that measurement started (view time) */
    double layers_t0;                     /* the layers lab's last frame (view time): its pace */
    int layers_tab;                       /* low layers lab: 0 loss, 1 head scores, 2 every head */
    int layers_pick; /* with too little room for every head: the one shown (layer · 4 + head) */
    char layers_seen_highlight[32]; /* the lesson highlight the tab last followed */
    char real_seen_highlight[48];   /* the Model view's: "STEP PANEL" */
    bool real_pick;         /* in the browser, Open model… asks the page for its file picker */
    long train_rate_steps0; /* and the step count then */
    int perm_tab;           /* narrow permutation lab: 0 the weights, 1 the outputs */
    char perm_seen_highlight[32]; /* the lesson highlight it last followed */
    int shift_tab;                /* narrow shift lab: 0 S twice, 1 the curves, 2 RoPE's pairs */
    char shift_seen_highlight[32];
    Lesson_Session session; /* the lesson being taken, if any */
    /* changes to the scene asked for while laying out this frame; the next
     * frame applies them, all at once, before it lays out */
    Action_List actions;
    unsigned long layouts;          /* frames laid out so far: one per view_frame */
    unsigned long laid_out_version; /* the model version the last layout showed */
    bool labs_ready; /* the current lab's derived data is there (not out of memory) */
    double now;
    bool framing; /* inside view_frame: now is this frame's time */
    /* what the teacher hides (settings, --hide, ?hide=), " a b" as hide.h
     * writes it, and this frame's whole list (with the lesson step's) */
    char teacher_hidden[320];
    char hidden_now[480];
    /* scratch owned here so a frame allocates nothing and hides no state */
    float chip_x[ATTN_MAX_TOKENS];                      /* left edge of each token chip */
    float perm_grid[ATTN_MAX_TOKENS * ATTN_MAX_TOKENS]; /* the permutation matrix P */
} View_State;

void view_init(View_State *vs);
void view_set_status(View_State *vs, bool error, const char *fmt, ...);
bool view_hides(const View_State *vs, const char *panel);
bool view_wants_frames(const View_State *vs);
double view_wake_in(const View_State *vs);
void view_act(View_State *vs, Action a);
const Attn *view_attn(const View_State *vs, const Model *m);
Action view_shuffle(View_State *vs, const Scene *s);
void view_slider_gesture(View_State *vs);
void subscript(int i, char *buf, size_t size);

#endif
