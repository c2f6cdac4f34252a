/*
 * Private interface between the parts of the tool model: the document-level
 * parser (model.c: shapes, corpus entries, errors, file loading) and the tool
 * builder (walk.c: one tool object -> one mv_tool with flattened fields).
 * Nothing here is public; the contract is include/mcpvet/model.h.
 */
#ifndef MCPVET_MODEL_INTERNAL_H
#define MCPVET_MODEL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "json/json.h"
#include "mcpvet/buf.h"
#include "mcpvet/model.h"

/* A document location such as servers[2].tools[5], kept as segments so the
 * path string is only formatted when an error actually happens. */
#define MDL_LOC_MAX 4

typedef struct mdl_seg {
    const char *key; /* "" for a bare array index */
    int64_t index;   /* < 0: no index */
} mdl_seg;

typedef struct mdl_loc {
    mdl_seg seg[MDL_LOC_MAX];
    unsigned n;
} mdl_loc;

/* A cap the caller wants recorded on a tool (tools_per_server). */
typedef struct mdl_extra_cap {
    const char *cap;
    uint64_t limit;
    uint64_t observed;
    const char *where; /* static string */
} mdl_extra_cap;

/* An interned field path. */
typedef struct mdl_path {
    const char *ptr;
    uint32_t len;
    uint32_t hash;
} mdl_path;

typedef struct mdl_build mdl_build;

/* Parser state shared by every tool of one document. Scratch vectors are
 * allocator-owned and reused across tools; finished tools are copied into
 * the arena. */
typedef struct mdl_ctx {
    mv_arena *arena;
    const mv_allocator *alloc;
    mv_model_limits lim; /* resolved: no zero members */
    mv_error *err;
    bool err_set; /* err already describes the failure */

    /* scratch, reused across tools */
    mv_field *fields;
    size_t n_fields, cap_fields;
    mv_cap_hit *caps;
    size_t n_caps, cap_caps;
    char *path; /* tool-relative path of the value being walked */
    size_t path_len, path_cap;
    mv_str *req; /* sorted "required" names of the schema being walked */
    size_t n_req, cap_req;

    /* Field paths repeat across tools ("description",
     * "inputSchema.properties.query.description"...): each distinct path is
     * stored once in the arena and shared. Open addressing over `paths`
     * (slot = index + 1, 0 = empty); sizes are powers of two. */
    uint32_t *path_slots;
    size_t path_slot_cap;
    struct mdl_path *paths;
    size_t n_paths, cap_paths;

    /* Short strings are packed into pool chunks without the arena's
     * 16-byte alignment (text needs none). */
    char *pool;
    size_t pool_left;

    /* per-tool state */
    mv_param *params;
    uint32_t n_params;
    uint32_t param_base; /* first param index of the schema being walked */
    mv_schema_side side;
    uint64_t n_strings;    /* strings seen, stored or dropped */
    long fields_cap_index; /* index in caps of "fields_per_tool", or -1 */
    long depth_cap_index;  /* index in caps of "schema_depth", or -1 */
    uint32_t source_index; /* next mv_tool.source_index */

    /* mv_model_options.keep_definitions, and the scratch buffer the
     * canonical definitions are written into (definition.c). */
    bool keep_definitions;
    mv_buf def;

    /* The queue of tools waiting to be built (build.c); only the context
     * of the document walk has one. */
    mdl_build *build;

    /* mv_model_load_file's read buffer of a large file: the walk in runs
     * gives back the pages of the runs it is done with, and a one-pass
     * parse after it reads them from the file again. NULL otherwise. */
    struct mdl_input *input;
    /* Slim builds (mv_model_options.slim, build.c): each tool is built in
     * `arena` as usual, then copied slim into `keep` (what other tools'
     * checks read) and `arena` is emptied after its batch. NULL otherwise. */
    mv_arena *keep;
    char *keep_pool; /* packed short strings in `keep` */
    size_t keep_left;
} mdl_ctx;

/* A read buffer whose pages can be given back (model.c). */
typedef struct mdl_input {
    char *buf;       /* page-aligned (mmap) */
    size_t len;      /* bytes of the document */
    int fd;          /* the file, to read released pages again */
    size_t released; /* buf[0, released) was given back */
    size_t cap;      /* bytes mapped */
    bool adopted;    /* a slim set took the mapping (mdl_rewalk) */
} mdl_input;

/* One group of runs of a slim set's first pass (parsed together). */
typedef struct mdl_group {
    size_t first_run, count;     /* runs [first_run, first_run + count) */
    size_t server_base;          /* document index of its first server */
    size_t tool_begin, tool_end; /* its tools: set->tools[tool_begin, tool_end) */
    size_t byte_begin, byte_end; /* its bytes in the document */
    uint64_t hash;               /* of those bytes, as the first pass read them */
} mdl_group;

/* What a slim set needs to build a group's full tools again (model.c). */
typedef struct mdl_rewalk {
    const mv_allocator *alloc;
    mv_model_limits lim;
    char *source, *filter; /* copies; filter NULL when none */
    char *buf;             /* the document's mapping, pages given back */
    size_t cap, len;
    int fd;
    mv_json_chunks ch;
    unsigned threads; /* runs parsed at a time (as the first pass) */
    unsigned jobs;    /* build threads */
    size_t block;     /* parse arena block */
    size_t tool_block;
    mdl_group *groups;
    size_t n_groups, cap_groups;
    size_t cur;     /* expanded group, or SIZE_MAX */
    mv_tool *saved; /* the slim tools of the expanded group */
    size_t cap_saved;
    mv_arena **held; /* the full tools' arenas */
    size_t n_held, cap_held;
    /* The next group's bytes, read and hashed on a thread of their own
     * while the expanded group is scanned (jobs > 1; model.c, rewalk_read). */
    pthread_t fetch_thread;
    bool fetching;      /* fetch_thread runs or has not been joined */
    size_t fetch_group; /* the group it reads */
    int fetch_state;    /* FETCH_* of that read */
    int fetch_errno;
} mdl_rewalk;

/* Free the scratch vectors (not the arena). */
void mdl_ctx_release(mdl_ctx *c);

/* Record a failure in c->err: clears it, sets code, message and the where
 * path (loc, then `rel` when non-NULL). Returns `code`. */
int mdl_fail(mdl_ctx *c, int code, const mdl_loc *loc, const char *rel, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* The canonical definition of a tool (docs/pinning.md) from its members;
 * NULL members are absent. Copied into the tool set's arena. */
int mdl_definition(mdl_ctx *c, const mv_jv *name, const mv_jv *title, const mv_jv *description,
                   const mv_jv *input_schema, const mv_jv *output_schema, const mv_jv *annotations,
                   mv_str *out);

/* Build *out from the tool object `tool` found at `loc`. `extra` (may be
 * NULL) is a cap to record on this tool. Errors carry loc-based paths. */
int mdl_build_tool(mdl_ctx *c, const mv_jv *tool, const mdl_loc *loc, mv_str server,
                   const mdl_extra_cap *extra, mv_tool *out);

/* Deferred builds (build.c). mdl_build_new gives c a queue for `set` built
 * by `threads` threads (0 = 1) whose arenas use `arena_block`-byte blocks.
 * mdl_build_queue queues the tool for slot `slot` of set->tools (built with
 * mdl_build_tool, then given `kind`); a full batch is built at once and its
 * error returned. mdl_build_flush builds what is queued: the first failing
 * tool in document order sets c->err and its code is returned.
 * mdl_build_adopt hands the threads' arenas to the set (call it once every
 * tool is built, before the set is returned); mdl_build_free releases the
 * queue and whatever was not adopted. */
int mdl_build_new(mdl_ctx *c, mv_toolset *set, unsigned threads, size_t arena_block);
/* Make the queue's builds slim (before the first flush): every tool is
 * built on a context of its own whose arena is emptied after each flush,
 * and kept as a slim copy (mdl_slim_tool) in arenas the set adopts. */
void mdl_build_slim(mdl_ctx *c);
/* Replace *t (built in c->arena) by its slim copy in c->keep: server,
 * name, title, description, kind, source_index, the model's caps, and each
 * parameter's name, side, required and has_enum; no fields, no
 * definition. What the cross-server checks read of other tools is all
 * there (src/engine/checks/shadowing.c). Returns 0 or MV_ENOMEM. */
int mdl_slim_tool(mdl_ctx *c, mv_tool *t);

/* A fast 64-bit hash of n bytes (walk.c): paths are interned by it; a slim
 * set's second pass checks each group's bytes against it. Not
 * cryptographic: it catches a file changed between the passes, not one
 * crafted to collide (whose writer could have written either version). */
uint64_t mdl_hash_bytes(const char *s, size_t n);
int mdl_build_queue(mdl_ctx *c, const mv_jv *tool, const mdl_loc *loc, mv_str server,
                    const mdl_extra_cap *extra, mv_item_kind kind, uint32_t slot);
int mdl_build_flush(mdl_ctx *c);
int mdl_build_adopt(mdl_ctx *c);
void mdl_build_free(mdl_ctx *c);

#endif
