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
#include "json/writer.h"

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
    const mv_allocator *alloc; /* every allocation of the render: out->alloc */
    mv_arena *arena;           /* render-safe copies; rewound per tool */
    bool failed;     /* an allocation failed */
    /* Streaming: when `write` is set, ctx->out is a bounded staging buffer
     * handed to it at tool boundaries (mv_report_flush). */
    mv_report_write_fn write;
    void *write_arg;
    bool write_failed; /* the sink refused bytes; nothing more is written */
    unsigned jobs;     /* renderer threads for per-tool ranges (>= 1) */
    /* Cache of the last rendered source name (see mv_report_tool_source). */
    const char *source_key;
    mv_str source_val;
    char *source_mem;
    size_t source_mem_size;
    /* A streamed report (stream.c) counts the tools each check failed on
     * as the ranges go by, since their findings are gone by the end:
     * failed_counts[i] tools for check failed_count_ids[i]. NULL otherwise
     * (the findings are counted). */
    const char *const *failed_count_ids;
    const uint64_t *failed_counts;
    size_t n_failed_counts;
} mv_report_ctx;

/*
 * Renders the items [begin, end) of a per-tool list (findings) with `w`
 * (NULL for text). Writes to c->out only; may run on a worker thread with
 * its own context, arena and buffer, so it must not touch shared mutable
 * state. When `w` is used, the first item it writes must start with the
 * writer's separator, so that the caller can drop a leading ',' (see
 * mv_report_ranges). Returns true when it wrote any item.
 */
typedef bool (*mv_report_range_fn)(mv_report_ctx *c, mv_jw *w, size_t begin, size_t end,
                                   const void *arg);

/*
 * Render every item of [0, n) through `fn`, in order, in batches: with
 * ctx->jobs > 1 each batch is split among threads rendering into their own
 * buffers, concatenated in order, so the bytes are those of a single
 * thread. `w` (may be NULL) is the writer whose open container holds the
 * items; it is updated as if it had written them itself. The output is
 * flushed between batches when streaming. Returns 0 or MV_ENOMEM.
 */
int mv_report_ranges(mv_report_ctx *ctx, mv_jw *w, size_t n, mv_report_range_fn fn,
                     const void *arg);

/* The same over the items [begin, end) only. */
int mv_report_ranges_span(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end,
                          mv_report_range_fn fn, const void *arg);

/* Hand ctx->out to the sink when streaming and it holds at least a staging
 * buffer's worth (or anything, with `force`). No-op without a sink. */
void mv_report_flush(mv_report_ctx *ctx, bool force);

/* Append bytes to the report (to the sink after what is staged, when
 * streaming). */
void mv_report_emit(mv_report_ctx *ctx, const char *data, size_t len);

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

/* The store state of registry tool `i`, or NULL without a store. */
const mv_report_tool_state *mv_report_tool_state_of(const mv_report_ctx *ctx, size_t i);

/* Number of servers whose lists were not fetched whole. */
size_t mv_report_incomplete_servers(const mv_report_ctx *ctx);

/* Whether the report must say "degraded": a check failed, a cap was hit or
 * a server could not be scanned whole. */
bool mv_report_degraded(const mv_report_ctx *ctx);

/* Render-safe copy of a NUL-terminated string (NULL -> empty). */
mv_str mv_report_safe_cstr(mv_report_ctx *ctx, const char *s, size_t cap);

/* The "servers" array member (JSON report, SARIF run properties). */
void mv_report_json_servers(mv_report_ctx *ctx, mv_jw *w);

/* The pieces of each layout, so a streamed report (stream.c) can write the
 * per-tool part range by range and the parts around it at the end. */

/* JSON: everything before the tools, up to and including the tools
 * array's "["; the tools of [begin, end); what follows the last tool. */
void mv_report_json_head(mv_report_ctx *ctx, mv_jw *w);
bool mv_report_json_tools(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end, const void *arg);
int mv_report_json_tail(mv_report_ctx *ctx, mv_jw *w);

/* SARIF: the rules (engine checks, then checks seen in findings in order of
 * first appearance, then failed checks), the document up to the results
 * array's "[", the results of [begin, end) (arg: the rule set), the rest. */
#define MV_SARIF_MAX_RULES 256u
typedef struct mv_sarif_rules {
    const char *ids[MV_SARIF_MAX_RULES];
    mv_tier seen[MV_SARIF_MAX_RULES]; /* strongest tier emitted in this scan */
    bool any[MV_SARIF_MAX_RULES];     /* the check emitted at least one signal */
    size_t n;
} mv_sarif_rules;
void mv_report_sarif_rules_begin(const mv_report_ctx *ctx, mv_sarif_rules *rules);
void mv_report_sarif_rules_add(mv_sarif_rules *rules, const mv_finding *f);
void mv_report_sarif_rules_end(const mv_report_ctx *ctx, mv_sarif_rules *rules);
void mv_report_sarif_head(mv_report_ctx *ctx, mv_jw *w, const mv_sarif_rules *rules);
bool mv_report_sarif_results(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end,
                             const void *arg);
int mv_report_sarif_tail(mv_report_ctx *ctx, mv_jw *w);

/* Text: the findings are listed in passes (quarantine, review, then clean
 * ones with a failing store state or, with show_clean, every clean one);
 * each pass is a range function over the tools, and a pass whose last
 * listed tool had no block of its own is followed by a blank line. */
typedef struct mv_text_pass {
    mv_verdict verdict;
    bool states_only;
} mv_text_pass;
#define MV_TEXT_MAX_PASSES 3u
size_t mv_report_text_passes(const mv_report_ctx *ctx, mv_text_pass *passes);
bool mv_report_text_in_pass(const mv_report_ctx *ctx, const mv_finding *f,
                            const mv_text_pass *pass);
bool mv_report_text_has_block(const mv_report_ctx *ctx, const mv_finding *f);
bool mv_report_text_range(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end, const void *arg);
void mv_report_text_head(mv_report_ctx *ctx);
int mv_report_text_tail(mv_report_ctx *ctx);

/* Tests: move a stream's spills to temporary files past `bytes`. */
void mv_report_stream_spill_limit(mv_report_stream *st, size_t bytes);

/* The renderers; each appends to ctx->out. Return 0 or a negative code. */
int mv_report_render_text(mv_report_ctx *ctx);
int mv_report_render_json(mv_report_ctx *ctx);
int mv_report_render_sarif(mv_report_ctx *ctx);

#endif
