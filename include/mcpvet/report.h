/*
 * Reports: a finished scan rendered as text for people, JSON for programs
 * (schema "mcpvet.scan/1", see docs/json-output.md) and SARIF 2.1.0 for
 * code-scanning tools, plus the exit code a scan deserves.
 *
 * Every string that came from a tool definition (server and tool names,
 * field paths, source names) is passed through mv_evidence_render before it
 * is written, in every format, so a report never carries a live terminal
 * escape, bidi override or invisible character. Output is deterministic: the
 * same scan gives byte-identical bytes, whatever `jobs` the scan ran with.
 * Numbers are formatted without printf's locale-dependent %f.
 */
#ifndef MCPVET_REPORT_H
#define MCPVET_REPORT_H

#include <stdbool.h>
#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Process exit codes shared by the CLI subcommands. */
#define MV_EXIT_OK 0       /* clean (or gate passed) */
#define MV_EXIT_FINDINGS 1 /* a finding at or above --fail-on */
#define MV_EXIT_USAGE 2    /* bad usage, unreadable or invalid input, configuration error */
#define MV_EXIT_DEGRADED 3 /* a check failed or a cap was hit, nothing else failed */
#define MV_EXIT_GATE 6     /* eval gate breached */

typedef enum mv_report_format {
    MV_REPORT_TEXT = 0,
    MV_REPORT_JSON,
    MV_REPORT_SARIF
} mv_report_format;

/* "text", "json", "sarif". Never NULL. */
const char *mv_report_format_name(mv_report_format format);

/* Parse a format name (exact, lowercase). Returns 0 or MV_EINVAL. */
int mv_report_parse_format(mv_report_format *out, const char *name);

/* Parse "review" or "quarantine". Returns 0 or MV_EINVAL. */
int mv_report_parse_fail_on(mv_verdict *out, const char *name);

/*
 * A server the scan reached (or tried to), for the servers section of every
 * format. Strings are NUL-terminated, may be NULL when unknown, and are
 * rendered safe. Scans of tools files have no servers section.
 */
typedef struct mv_report_server {
    const char *name;             /* as in the registry (tool->server) */
    const char *client;           /* client id the config belongs to, or NULL */
    const char *config;           /* config file, or NULL */
    const char *transport;        /* "stdio", "http", "sse", or NULL */
    const char *status;           /* mv_mcp_status_name: "ok", "timeout"... */
    const char *reason;           /* why it was not (fully) scanned, or NULL */
    const char *protocol_version; /* agreed version, or NULL */
    uint64_t tools, prompts, resources; /* items fetched per kind */
    /* Other configs that declare the very same server (same name, command
     * or URL and environment), scanned once: "vscode (/p/.vscode/mcp.json)";
     * several are separated by "; ". NULL when none. */
    const char *also_in;
} mv_report_server;

/* Whether a server's lists were not fetched whole (any status but "ok" or
 * "disabled" — a disabled server is not started by its client either): the
 * scan is then degraded and can never exit 0. */
bool mv_report_server_incomplete(const mv_report_server *s);

/* A tool's state in the approval store after this scan (mcpvet scan with a
 * store, security scan). Strings are NUL-terminated, static or owned by
 * the caller; NULL when not applicable. */
typedef struct mv_report_tool_state {
    const char *state;        /* "pending", "approved", "changed", "quarantined" */
    const char *previous;     /* before this scan; "none" for a new tool */
    const char *changed;      /* fields that differ from the approved definition,
                                 "description, inputSchema"; NULL when none */
    const char *renamed_from; /* a vanished tool with the same definition */
} mv_report_tool_state;

typedef struct mv_report_options {
    mv_report_format format;
    /* Verdict at or above which the scan fails (exit 1). MV_VERDICT_CLEAN
     * (the zero value) means the default, MV_VERDICT_QUARANTINE. */
    mv_verdict fail_on;
    /* Version string printed in reports; NULL = MCPVET_VERSION. Tests pass a
     * fixed value so golden files survive releases. */
    const char *version;
    /* Input file per registry tool index (sources[i] for tool i), used for
     * SARIF artifact locations and the JSON "source" member. NULL array, an
     * index past n_sources or a NULL/"-" element means unknown/stdin. */
    const char *const *sources;
    size_t n_sources;
    /* Text only: also list clean tools (default: only review/quarantine in
     * detail, clean ones are counted). JSON and SARIF ignore it: JSON always
     * lists every tool, SARIF lists results only. */
    bool show_clean;
    /* Optional: the engine that ran the scan. When given, SARIF declares a
     * rule for every registered check (not only the ones that fired). */
    const mv_engine *engine;
    /* Threads rendering per-tool parts of the report (0 or 1 = the calling
     * thread). The bytes are identical for any value. */
    unsigned jobs;
    /* Servers reached by the scan (NULL/0 for scans of files). */
    const mv_report_server *servers;
    size_t n_servers;
    /* Text only: colour verdicts and statuses with ANSI sequences (never
     * inside a string taken from a tool). */
    bool color;
    /* Store states per registry tool (states[i] for tool i), NULL when the
     * scan ran without a store. A changed or quarantined state fails the
     * scan (exit 1) whatever the verdict; so does pending with
     * fail_on_pending. */
    const mv_report_tool_state *states;
    size_t n_states;
    bool fail_on_pending;
    /* Servers whose identity (command or URL) changed since approval,
     * render-safe names, NULL-terminated; they fail the scan too. */
    const char *const *changed_servers;
} mv_report_options;

/*
 * Append the rendering of finished scan `s` to `out`. NULL opts = text with
 * defaults. Every allocation of the render (scratch included) comes from
 * out->alloc, so an injected allocator sees all of them. Returns 0, MV_EINVAL (NULL scan/buffer, unknown format) or
 * MV_ENOMEM (also when out->failed is set afterwards).
 */
int mv_report_render(mv_buf *out, const mv_scan *s, const mv_report_options *opts, mv_error *err);

/*
 * Sink for streamed reports: called with consecutive pieces of the report,
 * in order. Returns 0, or nonzero to stop (the render then fails with
 * MV_EIO and writes nothing more).
 */
typedef int (*mv_report_write_fn)(void *arg, const char *data, size_t len);

/*
 * Like mv_report_render, but the report goes to `write` in pieces as it is
 * rendered (flushed at tool boundaries), so memory stays bounded by a
 * batch of tools instead of growing with the report. The concatenated
 * pieces are byte-identical to what mv_report_render produces. On failure
 * a prefix of the report may already have been written. Returns 0,
 * MV_EINVAL, MV_ENOMEM or MV_EIO (the sink failed).
 */
int mv_report_render_to(mv_report_write_fn write, void *arg, const mv_scan *s,
                        const mv_report_options *opts, mv_error *err);

/*
 * A report of a scan run range by range (mv_scan_run_range), for scans too
 * large to keep every finding: after each range, mv_report_stream_add
 * renders that range's tools (into memory, or past a few MiB into an
 * unlinked temporary file in $TMPDIR or /tmp); once mv_scan_finish ran,
 * mv_report_stream_finish writes the whole report to `write`: the parts
 * that come first but need every tool (summary, coverage, SARIF rules and
 * notifications) and then the tools. The bytes are exactly those
 * mv_report_render gives for the same scan run whole, in every format and
 * for any `jobs`. `opts` is copied (its arrays are borrowed and must stay
 * valid until finish); SARIF wants opts->engine. Each returns 0, MV_EINVAL,
 * MV_ENOMEM or MV_EIO (the temporary file or the sink failed).
 */
typedef struct mv_report_stream mv_report_stream;
int mv_report_stream_new(mv_report_stream **out, const mv_report_options *opts, mv_error *err);
int mv_report_stream_add(mv_report_stream *st, const mv_scan *s, size_t begin, size_t end,
                         mv_error *err);
int mv_report_stream_finish(mv_report_stream *st, const mv_scan *s, mv_report_write_fn write,
                            void *arg, mv_error *err);
void mv_report_stream_free(mv_report_stream *st);
/*
 * Tell the stream that the `write` given to finish writes straight
 * (unbuffered) to file descriptor `fd` (-1: not so, the default). A spill
 * kept in a temporary file is then copied to `fd` in the kernel
 * (copy_file_range, else sendfile) instead of being read back and written
 * through `write`; the bytes are the same. What `write` gets before the
 * spill is always flushed to it first.
 */
void mv_report_stream_sink_fd(mv_report_stream *st, int fd);

/*
 * Exit code of a finished scan: MV_EXIT_FINDINGS when any finding's verdict
 * is >= fail_on (a value below MV_VERDICT_REVIEW counts as REVIEW: a clean
 * tool is never a finding), else MV_EXIT_DEGRADED when the coverage is
 * degraded, else MV_EXIT_OK. Never MV_EXIT_OK on a degraded scan. A NULL
 * scan gives MV_EXIT_USAGE.
 */
int mv_report_exit_code(const mv_scan *s, mv_verdict fail_on);

/* Whether a store state fails a run: changed or quarantined, or pending
 * when fail_on_pending. NULL or no state: false. */
bool mv_report_state_fails(const mv_report_tool_state *st, bool fail_on_pending);

/* The same, also counting the servers of `opts` (fail_on from opts): a
 * server that could not be scanned whole makes a clean scan exit
 * MV_EXIT_DEGRADED. This is the code every report prints. */
int mv_report_exit_code_opts(const mv_scan *s, const mv_report_options *opts);

/*
 * Append `value` with exactly `decimals` (0..9) fraction digits, rounded
 * half away from zero, without the C locale machinery (no %f): "0.930".
 * NaN prints as 0; magnitudes are clamped to 1e15. Returns 0 or MV_ENOMEM.
 */
int mv_report_put_fixed(mv_buf *b, double value, unsigned decimals);

#ifdef __cplusplus
}
#endif
#endif
