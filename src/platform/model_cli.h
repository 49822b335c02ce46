/* The real model on the command line, without a window.
 *
 *   int model_export(const Cli_Options *o)
 *       --model … --text … --export json: the checkpoint opened, the text tokenized, the
 *       forward pass printed (export_real.h); returns the exit status, 2 with one line for a
 *       bad checkpoint or text
 *   int model_generate(const Cli_Options *o)
 *       --model … --text … --generate N --export json: the model writes up to N tokens after
 *       the text on its KV cache (net_cache.h), greedily or drawn with --temperature, --top-k,
 *       --top-p and --seed, and prints each step (export_real_generation); it stops early at
 *       the end-of-text token, or at the model's context length with one line saying so
 *   int model_bench(const Cli_Options *o)
 *       --model … --bench: the forward pass timed on 16, 32, 64 and 256 tokens (those the
 *       model reads), with where the time goes and the same matrix products alone, as JSON
 */
#ifndef ATTN_MODEL_CLI_H
#define ATTN_MODEL_CLI_H

#include "cli.h"

int model_export(const Cli_Options *o);
int model_bench(const Cli_Options *o);
int model_generate(const Cli_Options *o);

#endif
