/*
 * Internals shared by the eval module's files: small string helpers, the
 * "is this check registered" lookup, render-safe copies of corpus strings and
 * the two scorecard renderers.
 */
#ifndef MV_EVAL_INT_H
#define MV_EVAL_INT_H

#include <stdbool.h>

#include "mcpvet/buf.h"
#include "mcpvet/eval.h"

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

/* Corpus strings (ids, categories) shown in a scorecard are capped here. */
#define MV_EVAL_NAME_CAP 160u

/* True when `s` equals the NUL-terminated literal `lit`. */
bool mv_eval_str_eq(mv_str s, const char *lit);

/* True when check `id` is registered in the engine the eval ran with. */
bool mv_eval_check_registered(const mv_eval *ev, const char *id);

/* True when precision is defined (something was flagged). */
bool mv_eval_has_precision(const mv_eval_metrics *m);

/* Render-safe copy of corpus text into `arena`; on OOM sets *failed and
 * returns "?". Empty input gives `empty_as`. */
mv_str mv_eval_safe(mv_arena *arena, mv_str s, const char *empty_as, bool *failed);

int mv_eval_render_text(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *o,
                        mv_arena *arena, bool *failed);
int mv_eval_render_json(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *o,
                        mv_arena *arena, bool *failed);

#endif
