/*
 * Internals of the pipeline shared by pipeline.c (sets, registry, scan,
 * report options) and collect.c (servers reached through the MCP client).
 */
#ifndef MCPVET_PIPELINE_INT_H
#define MCPVET_PIPELINE_INT_H

#include <stdint.h>

#include "mcpvet/pipeline.h"

#define MV_PIPELINE_DEFAULT_CONCURRENCY 4u
/* Tools scanned and rendered at a time by mv_pipeline_scan_stream. */
#define MV_PIPELINE_SCAN_RANGE 4096u

/* One collected tool set and what keeps its strings alive. */
typedef struct pl_set {
    mv_toolset *set;
    char *source; /* file name, or "<servers>" for a collected snapshot */
    char *data;   /* the document the set's strings point into (NULL for files) */
    /* For a collected snapshot: index of its first server in
     * mv_pipeline.servers (its servers follow in order); SIZE_MAX otherwise. */
    size_t servers_base;
} pl_set;

struct mv_pipeline {
    mv_pipeline_options opts;
    const mv_allocator *a; /* opts.model.allocator: every block the pipeline owns */
    const mv_engine *engine; /* own_engine, or borrowed (options.shared_engine) */
    mv_engine *own_engine;
    pl_set *sets;
    size_t n_sets, cap_sets;
    size_t n_tools;
    /* Report data for servers reached by collect (strings owned here). */
    mv_report_server *servers;
    const mv_server_config **server_configs; /* parallel to servers; NULL for servers
                                                read back from a snapshot file */
    size_t n_servers;
    mv_buf snapshot;
    /* After scan. */
    mv_registry *registry;
    mv_scan *scan;
    const char **tool_sources; /* per registry tool */
    mv_report_stream *stream;  /* the report of a streamed scan (scan_stream) */
    /* After decide. */
    mv_store_scan_result *decisions;
    mv_report_tool_state *states; /* per registry tool; `changed` strings owned */
    size_t n_states;
    const char **changed_servers; /* NULL-terminated, borrowed names */
};

/* The pipeline's own memory, from the injected allocator (`a` may be
 * NULL = the default). Each block carries its size in a header, so the
 * allocator's free gets the size its alloc was given. pl_alloc zeroes;
 * pl_realloc(a, NULL, n) allocates; pl_free(a, NULL) is a no-op. */
void *pl_alloc(const mv_allocator *a, size_t size);
void *pl_realloc(const mv_allocator *a, void *ptr, size_t size);
void pl_free(const mv_allocator *a, const void *ptr);
char *pl_strdup(const mv_allocator *a, const char *s);

/* Room for `more` report servers (and their configs). 0 or MV_ENOMEM. */
int mv_pipeline_servers_reserve(mv_pipeline *p, size_t more);

/* Release the report servers and their strings (collect.c). */
void mv_pipeline_servers_free(mv_pipeline *p);

#endif
