/*
 * Internals shared by the three report renderers: one rendering context,
 * render-safe copies of tool-supplied strings, and the small lookups every
 * format needs (a tool's source file, the strongest tier of a check in a
 * finding, the catalogue of known check descriptions).
 */
#ifndef MV_REPORT_INT_H
#define MV_REPORT_INT_H

#include <stdbool.h>

#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/check.h"
#include "mcpvet/engine.h"
#include "mcpvet/report.h"

/* Caps for render-safe copies of identifiers (names are short in practice;
 * a 64 KiB tool name must not turn every line of a report into a wall). */
#define MV_REPORT_NAME_CAP 256u
#define MV_REPORT_PATH_CAP 512u
#define MV_REPORT_SOURCE_CAP 1024u

typedef struct mv_report_ctx {
    const mv_scan *scan;
    const mv_registry *registry;
    const mv_coverage *coverage;
    mv_scan_summary summary;
    const mv_report_options *opts;
    const char *version;
    mv_verdict fail_on;
    mv_buf *out;
    mv_arena *arena; /* render-safe copies; rewound per tool */
    bool failed;     /* an allocation failed */
} mv_report_ctx;

/* Render-safe copy of `len` bytes capped at `cap` output bytes. On
 * out-of-memory sets ctx->failed and returns "?". */
mv_str mv_report_safe(mv_report_ctx *ctx, const char *ptr, size_t len, size_t cap);

/* Render-safe "server/tool" for a tool. */
mv_str mv_report_tool_label(mv_report_ctx *ctx, const mv_tool *tool);

/* The tool's source name (render-safe), or an empty string when unknown or
 * standard input. */
mv_str mv_report_tool_source(mv_report_ctx *ctx, size_t tool_index);

/* The strongest tier among the finding's signals from check `id`. */
mv_tier mv_report_check_tier(const mv_finding *f, const char *id);

/* Number of tools on which check `id` failed. */
uint64_t mv_report_failed_tool_count(const mv_report_ctx *ctx, const char *id);

/* Description of a known check id, or NULL. */
const char *mv_report_check_description(const char *id);

/* Usual tier of a known check id; MV_TIER_SOFT for unknown ids. */
mv_tier mv_report_check_default_tier(const char *id);

/* Append a JSON string of a NUL-terminated C string (NULL -> null). */
void mv_report_json_cstr(mv_buf *b, const char *s);

/* Append a JSON string of an mv_str. */
void mv_report_json_str(mv_buf *b, mv_str s);

/* The renderers; each appends to ctx->out. Return 0 or a negative code. */
int mv_report_render_text(mv_report_ctx *ctx);
int mv_report_render_json(mv_report_ctx *ctx);
int mv_report_render_sarif(mv_report_ctx *ctx);

#endif
