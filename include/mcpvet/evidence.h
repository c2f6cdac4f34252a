/*
 * Render-safe text. Everything a report prints that came from a tool
 * definition passes through here: control, format, bidi, private-use,
 * unassigned, tag and other invisible characters become visible \uXXXX
 * escapes, ESC can never reach a terminal, backslashes are doubled so an
 * escape cannot be faked, and the result is length-capped on a character
 * boundary. A report therefore never carries a live payload.
 */
#ifndef MCPVET_EVIDENCE_H
#define MCPVET_EVIDENCE_H

#include <stdbool.h>
#include "mcpvet/arena.h"
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when code point `cp` is printed as itself (visible, not a control,
 * format, bidi, private-use, unassigned, surrogate, tag, variation selector,
 * invisible filler or line/paragraph separator). Space (U+0020) is visible. */
bool mv_evidence_is_visible(int32_t cp);

/*
 * Render `len` raw bytes into at most `max_bytes` bytes (>= 16) of output
 * allocated from `arena`. When the input does not fit, output ends with
 * "..." and *truncated (if non-NULL) is set. Invalid UTF-8 bytes become
 * \xNN. Output is NUL-terminated (not counted in out->len).
 * Returns 0, MV_ENOMEM, or MV_EINVAL.
 */
int mv_evidence_render(mv_arena *arena, const char *raw, size_t len, size_t max_bytes, mv_str *out,
                       bool *truncated);

#ifdef __cplusplus
}
#endif
#endif
