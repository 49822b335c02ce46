/* --check-lessons DIR: every lesson of a folder and every translation in its
 * DIR/LANG/ folders, parsed, played against the model (lesson_check.h) and,
 * with --by-input, met by mouse and keys at a window size (lesson_input.h).
 *
 * --jobs N plays N lessons at once, each in a process of its own; what each
 * prints comes out whole and in the lessons' order, as with one job, so the
 * output does not depend on N. --translations says what the translations get:
 * play (as the English lessons), layout (their shape against the original
 * and, by input, every page of every step laid out at the size without
 * playing goals) or none.
 *
 *   int lesson_checks_run(const Cli_Options *o, const Vocab *vocab, const char *data_dir)
 *       prints "ok  PATH  (…)" per lesson and "N passed, N failed"; 0 only if all pass, else 2
 */
#ifndef ATTN_LESSON_CHECKS_H
#define ATTN_LESSON_CHECKS_H

#include "../model/vocab.h"
#include "cli.h"

int lesson_checks_run(const Cli_Options *o, const Vocab *vocab, const char *data_dir);

#endif
