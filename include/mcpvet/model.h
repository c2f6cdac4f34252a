/*
 * Tool model: strict JSON in, mv_tool views out. Accepts three shapes:
 *   1. an MCP tools/list result        {"tools":[...]}            (one server)
 *   2. a multi-server snapshot         {"servers":[{"name","tools":[...]}]}
 *      (optionally with "prompts", "resources" and "resourceTemplates"
 *      lists, scanned as items of that kind, and the metadata of
 *      mv_server_meta)
 *   3. the labeled corpus              {"entries":[{"id","label",...}]}
 * Invalid UTF-8, duplicate object keys (a parser-differential trick), bad
 * shapes and over-cap documents are errors with file, line and column or the
 * field path and the limit. Over-cap strings inside a tool are kept up to the
 * cap and the cap is recorded on the tool (the scan is then degraded), never
 * silently truncated. "\u0000" inside strings is kept.
 */
#ifndef MCPVET_MODEL_H
#define MCPVET_MODEL_H

#include <stdbool.h>
#include "mcpvet/arena.h"
#include "mcpvet/common.h"
#include "mcpvet/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Caps. Zero members take the defaults. */
typedef struct mv_model_limits {
    uint64_t max_document_bytes;   /* whole input, default 1 GiB: error when over */
    uint32_t max_field_bytes;      /* one string, default 65536: kept to cap, recorded */
    uint32_t max_schema_depth;     /* nesting inside a schema, default 32: deeper parts
                                      are not walked, recorded */
    uint32_t max_tools_per_server; /* default 10000: extra tools dropped, recorded */
    uint32_t max_fields_per_tool;  /* scanned strings per tool, default 4096: recorded */
} mv_model_limits;

#define MV_DEFAULT_MAX_DOCUMENT_BYTES (1024ull * 1024 * 1024)
#define MV_DEFAULT_MAX_FIELD_BYTES 65536u
#define MV_DEFAULT_MAX_SCHEMA_DEPTH 32u
#define MV_DEFAULT_MAX_TOOLS_PER_SERVER 10000u
#define MV_DEFAULT_MAX_FIELDS_PER_TOOL 4096u

typedef enum mv_input_kind {
    MV_INPUT_TOOLS_LIST = 1,
    MV_INPUT_SNAPSHOT,
    MV_INPUT_CORPUS
} mv_input_kind;

typedef struct mv_model_options {
    const mv_allocator *allocator; /* NULL = default */
    mv_model_limits limits;
    /* Server name for shape 1 (tools/list has none); NULL = derived from the
     * source name (file base name without extension). With shapes 2 and 3 a
     * non-NULL value keeps only that server's tools. */
    const char *server;
    /* Fill mv_tool.definition with the canonical JSON of each tool (the
     * input of its pin, docs/pinning.md). Off by default: a plain scan does
     * not need it. */
    bool keep_definitions;
    /* Threads that build tools from the parsed document (0 or 1 = the
     * calling thread). The tool set is identical for any value. With more
     * than one, `allocator` is called from several threads. */
    unsigned jobs;
    /* A snapshot larger than this many bytes is walked a few runs of
     * servers at a time, each run's parse tree dropped once its tools are
     * built, so the whole document's tree never exists at once (the tool
     * set and any error are the same). 0 = MV_DEFAULT_CHUNK_BYTES. */
    size_t chunk_bytes;
    /* Keep a large snapshot file slim (mv_model_load_file only: a regular
     * file walked in runs, without keep_definitions; else ignored). Each
     * tool then holds only what the cross-server checks read of other
     * tools (server, name, title, description, kind, the model's caps and
     * its parameters' names and sides: no fields, no definition), and
     * mv_toolset_expand builds a run of full tools again from the file
     * when they are scanned, so the whole tool set never exists at once.
     * mv_toolset_is_slim says whether it was done. */
    bool slim;
} mv_model_options;

#define MV_DEFAULT_CHUNK_BYTES (16u * 1024u * 1024u)

/* A corpus entry (shape 3). Tools are indices into mv_toolset.tools. */
typedef struct mv_corpus_entry {
    mv_str id;
    mv_str label; /* "malicious" or "benign" */
    mv_str category;
    mv_str resembles;  /* empty when absent */
    mv_str provenance; /* empty when absent */
    mv_str family;     /* phrase family for variant-parity stats, may be empty */
    mv_str variant;    /* "canonical", "wording", "spaced", "homoglyph", "es"...; may be empty */
    mv_str expected;   /* "quarantine" or "review" for attacks that state the tier they
                          must reach (red-team sets); empty when absent */
    bool malicious;
    uint32_t tool;       /* the entry's own tool */
    uint32_t first_peer; /* peers are tools[first_peer .. first_peer+n_peers) */
    uint32_t n_peers;
} mv_corpus_entry;

/* A server of a snapshot (shape 2) and what the snapshot says about it.
 * Optional strings are empty when absent (files written by hand have none;
 * `mcpvet scan --save-snapshot` writes them all). */
typedef struct mv_server_meta {
    mv_str name;
    mv_str client;    /* client id the server was configured in */
    mv_str config;    /* config file */
    mv_str transport; /* "stdio", "http", "sse" */
    mv_str status;    /* mv_mcp_status_name of the fetch ("ok", "timeout"...) */
    mv_str reason;    /* why it could not be scanned, when it could not */
    mv_str protocol_version;
    size_t first_tool; /* its items are tools[first_tool .. first_tool + n_tools) */
    size_t n_tools;    /* tools, prompts and resources together */
    size_t counts[MV_ITEM_KIND_COUNT]; /* items per kind */
} mv_server_meta;

typedef struct mv_toolset {
    mv_input_kind kind;
    mv_str source;  /* the source name given to the parser */
    mv_tool *tools; /* in document order; for corpora, entry tools and peers */
    size_t n_tools;
    mv_server_meta *servers; /* shape 2 only, in document order (after --server) */
    size_t n_servers;
    mv_corpus_entry *entries; /* shape 3 only */
    size_t n_entries;
    uint64_t n_caps; /* caps recorded on all tools together */
    mv_arena *arena; /* owns everything above */
    /* Arenas of the threads that built tools (mv_model_options.jobs > 1),
     * owned by the set like `arena`; NULL and 0 otherwise. */
    mv_arena **more_arenas;
    size_t n_more_arenas;
    /* A snapshot walked in runs (chunk_bytes) keeps `tools` and `servers`
     * in heap arrays of these capacities, from `alloc`; 0 otherwise. */
    size_t heap_tools, heap_servers;
    const mv_allocator *alloc;
    /* A slim set (mv_model_options.slim): how to build full tools again. */
    struct mdl_rewalk *rewalk;
} mv_toolset;

/*
 * Parse `len` bytes named `source` (used in messages) into *out.
 * Returns 0 or MV_EPARSE / MV_ELIMIT / MV_ENOMEM / MV_EINVAL with err filled:
 * syntax and UTF-8 errors carry line and column; shape errors carry the path
 * (err->where, e.g. "tools[3].inputSchema") and a sentence saying what was
 * expected. On failure *out is NULL and nothing leaks.
 */
int mv_model_parse(mv_toolset **out, const char *data, size_t len, const char *source,
                   const mv_model_options *opts, mv_error *err);

/* Read a whole file ("-" = standard input) and parse it. Adds MV_EIO for
 * unreadable files and MV_ELIMIT when larger than max_document_bytes. */
int mv_model_load_file(mv_toolset **out, const char *path, const mv_model_options *opts,
                       mv_error *err);

void mv_toolset_free(mv_toolset *set);

/*
 * Slim tool sets (mv_model_options.slim). mv_toolset_expand makes the
 * tools of the run holding tool `tool` full again, [*begin, *end) (any
 * other expanded run is made slim first): they are what a one-pass parse
 * builds, byte for byte, until mv_toolset_shrink or the next expand.
 * Runs are read from the file again and checked against what the first
 * pass read: MV_EIO when the file changed (or cannot be read), MV_ENOMEM.
 * On a set that is not slim, expand gives [0, n_tools) and does nothing.
 */
bool mv_toolset_is_slim(const mv_toolset *set);
int mv_toolset_expand(mv_toolset *set, size_t tool, size_t *begin, size_t *end, mv_error *err);
void mv_toolset_shrink(mv_toolset *set);

#ifdef __cplusplus
}
#endif
#endif
