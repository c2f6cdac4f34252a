/*
 * The builtin checks, in the engine's fixed order. Each check lives in its
 * own file in this folder and exports one const mv_check table.
 */
#ifndef MV_CHECKS_BUILTIN_H
#define MV_CHECKS_BUILTIN_H

#include "mcpvet/check.h"

/* NULL-terminated, in engine order. */
extern const mv_check *const mv_builtin_checks[];
/* Builtin checks that may use the tool memo (mcpvet/check.h). */
extern const mv_check *const mv_tool_memo_checks[];

#endif
