/* The real model on the command line, without a window.
 *
 *   int model_export(const Cli_Options *o)
 *       --model … --text … --export json: the checkpoint opened, the text tokenized, the
 *       forward pass printed (export_real.h); returns the exit status, 2 with one line for a
 *       bad checkpoint or text
 *   int model_bench(const Cli_Options *o)
 *       --model … --bench: the forward pass timed on 16, 32, 64 and 256 tokens (those the
 *       model reads), with where the time goes and the same matrix products alone, as JSON
 */
#ifndef ATTN_MODEL_CLI_H
#define ATTN_MODEL_CLI_H

#include "cli.h"

int model_export(const Cli_Options *o);
int model_bench(const Cli_Options *o);

#endif
