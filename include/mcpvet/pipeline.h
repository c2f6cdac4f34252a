/*
 * The one shared pipeline, "collect -> scan -> decide -> report", that every
 * entry point calls (the CLI today; REST, the MCP server and the proxy
 * later), so they cannot drift apart. Entry points stay thin: they parse
 * their arguments or request, feed the pipeline, and render its result.
 *
 *   collect  tools files, in-memory documents, or configured servers reached
 *            through the MCP client (concurrently, bounded); what servers
 *            advertised becomes one snapshot document, which is also what
 *            --save-snapshot writes, so a saved scan reads back identically
 *   scan     every item into one registry, the pure engine over it
 *   decide   with an approval store: pin every item, apply the scan to the
 *            state machine (pending, approved, changed, quarantined,
 *            removed) in one transaction, and keep each item's state for
 *            the report (the pipeline reads the clock, the engine never)
 *   report   the options every renderer needs (servers, sources, states), and the
 *            exit code, which never claims clean when a server or a check
 *            was left out
 *
 * Not thread-safe: one pipeline per scan.
 */
#ifndef MCPVET_PIPELINE_H
#define MCPVET_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/config.h"
#include "mcpvet/engine.h"
#include "mcpvet/mcp.h"
#include "mcpvet/model.h"
#include "mcpvet/report.h"
#include "mcpvet/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the collect step reports while servers are reached (for progress). */
typedef enum mv_collect_event {
    MV_COLLECT_STARTING = 0, /* the server is being started or connected */
    MV_COLLECT_PHASE,        /* a new phase ("handshake", "listing tools") */
    MV_COLLECT_DONE,         /* finished: see the result's status */
    MV_COLLECT_SKIPPED       /* not started: disabled, needs input or invalid */
} mv_collect_event;

typedef struct mv_pipeline_options {
    mv_engine_options engine;
    /* A long-running entry point (the proxy) builds its engine once and
     * lends it to every pipeline: when set, `engine` is ignored, the
     * pipeline uses this one and never frees it (it must outlive the
     * pipeline). NULL = the pipeline builds its own from `engine`. */
    const mv_engine *shared_engine;
    /* Allocator and limits; `server` is ignored. model.allocator is also
     * the pipeline's own (sets, report servers, states, the snapshot) and,
     * when mcp.allocator is NULL, the MCP client's: with concurrency > 1
     * it is called from several threads. */
    mv_model_options model;
    mv_mcp_options mcp; /* caps and deadlines of the MCP client */
    unsigned concurrency;   /* servers reached at once, default 4 */
    /* Progress, called from the fetching threads under a lock (so calls
     * never interleave); may be NULL. `phase` is set for MV_COLLECT_PHASE,
     * `result` for MV_COLLECT_DONE and MV_COLLECT_SKIPPED. */
    void (*on_collect)(void *arg, mv_collect_event ev, const mv_server_config *server,
                       const char *phase, const mv_mcp_result *result);
    void *on_collect_arg;
} mv_pipeline_options;

typedef struct mv_pipeline mv_pipeline;

/* NULL options = defaults. Builds the engine. Returns 0, MV_ENOMEM or
 * MV_EINVAL (engine options, e.g. an unknown disabled check). */
int mv_pipeline_new(mv_pipeline **out, const mv_pipeline_options *opts, mv_error *err);
void mv_pipeline_free(mv_pipeline *p);

/* Collect a tools file (tools/list, snapshot or corpus; "-" = stdin).
 * `server` as mv_model_options.server. Returns what mv_model_load_file does. */
int mv_pipeline_add_file(mv_pipeline *p, const char *path, const char *server, mv_error *err);

/* Collect an in-memory document named `source` (copied). */
int mv_pipeline_add_document(mv_pipeline *p, const char *data, size_t len, const char *source,
                             const char *server, mv_error *err);

/*
 * Collect configured servers: each READY one is reached through the MCP
 * client (at most `concurrency` at once), the others are recorded with
 * their reason; all of them appear in the report. Servers whose name
 * repeats with a different identity are told apart as "name@client".
 * A server that cannot be scanned is not an error (its status says why).
 * The configs are borrowed and must outlive the pipeline (decide reads
 * each server's identity from them).
 * Returns 0 or MV_ENOMEM / MV_EPARSE (the collected snapshot did not
 * parse, which would be a bug: a server's own text never makes it fail).
 */
int mv_pipeline_collect(mv_pipeline *p, const mv_server_config *const *servers, size_t n,
                        mv_error *err);

/* The snapshot of every server collected so far (a `{"servers":[...]}`
 * document in the model's snapshot shape, or empty when none was). */
const mv_buf *mv_pipeline_snapshot(const mv_pipeline *p);

/* Scan everything collected, with `jobs` threads. Returns 0, MV_ENOMEM or
 * MV_ELIMIT (too many tools for one registry), or MV_EINVAL when a file
 * was loaded slim (model.slim: only mv_pipeline_scan_stream scans those). */
int mv_pipeline_scan(mv_pipeline *p, unsigned jobs, mv_error *err);

/*
 * Scan and render together, range by range, so that only one range's
 * findings are ever in memory (a scan of a million tools): the report is
 * the one `ropts` describes (the pipeline fills its own members as
 * mv_pipeline_report_options does) and mv_pipeline_render_to writes it.
 * The scan's findings are not kept, so decide cannot follow (use
 * mv_pipeline_scan with a store); exit code and summary are as after
 * mv_pipeline_scan. Files loaded slim (model.slim) are made full a group
 * of runs at a time (mv_toolset_expand) as the ranges reach them. Returns
 * what mv_pipeline_scan does, or MV_EIO (the report's temporary file
 * failed, or a slim file changed or cannot be read again).
 */
int mv_pipeline_scan_stream(mv_pipeline *p, unsigned jobs, const mv_report_options *ropts,
                            mv_error *err);

/* Write the report of the scan to `write`: the streamed one, or the
 * scan rendered as `ropts` says (with the pipeline's own members filled).
 * Returns what mv_report_render_to does. */
int mv_pipeline_render_to(const mv_pipeline *p, mv_report_write_fn write, void *arg,
                          const mv_report_options *ropts, mv_error *err);
/* The same, when `write` writes straight (unbuffered) to file descriptor
 * `fd`: a streamed report's spill is then copied to `fd` in the kernel
 * (mv_report_stream_sink_fd). Same bytes; -1 is mv_pipeline_render_to. */
int mv_pipeline_render_to_fd(const mv_pipeline *p, int fd, mv_report_write_fn write, void *arg,
                             const mv_report_options *ropts, mv_error *err);

/* After scan: the finished scan and the engine (owned by the pipeline). */
const mv_scan *mv_pipeline_result(const mv_pipeline *p);
const mv_engine *mv_pipeline_engine(const mv_pipeline *p);

/* Number of items collected so far. */
size_t mv_pipeline_tool_count(const mv_pipeline *p);

/*
 * Decide: apply the finished scan to the approval store `st` as `actor` at
 * time `now` (seconds since the epoch). Every server the scan reached whole
 * (or partially, marked so) and every server of a tools file goes in;
 * servers that could not be scanned are left out (their tools are not
 * marked removed); corpus inputs never touch a store. Needs the pipeline to
 * have been created with model.keep_definitions. One transaction: all or
 * nothing. Returns 0, MV_EINVAL (no scan yet, or definitions not kept) or
 * the store's error (err names it).
 */
int mv_pipeline_decide(mv_pipeline *p, mv_store *st, mv_actor actor, int64_t now,
                       mv_error *err);

/* After decide: what it did (NULL before), and the store's verdict on the
 * run (mv_store_scan_fails). */
const mv_store_scan_result *mv_pipeline_decisions(const mv_pipeline *p);
bool mv_pipeline_decisions_fail(const mv_pipeline *p, bool fail_on_pending);

/* Fill the pipeline-owned members of report options: sources, servers,
 * engine, and after decide the per-tool states. Other members (format,
 * fail_on, ...) are left as they are. */
void mv_pipeline_report_options(const mv_pipeline *p, mv_report_options *ropts);

/* The exit code the scan deserves under `ropts` (see
 * mv_report_exit_code_opts, which also counts the store's states when
 * decide ran: a changed or quarantined tool, or with
 * ropts->fail_on_pending a pending one, exits 1); MV_EXIT_USAGE before a
 * scan. */
int mv_pipeline_exit_code(const mv_pipeline *p, const mv_report_options *ropts);

#ifdef __cplusplus
}
#endif
#endif
