/*
 * The shared pipeline (see include/mcpvet/pipeline.h): tool sets collected
 * from files, documents and servers go into one registry and one scan, and
 * the pipeline keeps what every renderer needs to say where each tool came
 * from. The collect step for configured servers lives in collect.c.
 */
#include "pipeline/pipeline_int.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/registry.h"

/* The size header of a pipeline block (keeps the payload max-aligned). */
#define PL_HEADER sizeof(max_align_t)

void *pl_alloc(const mv_allocator *a, size_t size) {
    void *p = pl_realloc(a, NULL, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

void *pl_realloc(const mv_allocator *a, void *ptr, size_t size) {
    char *base = ptr != NULL ? (char *)ptr - PL_HEADER : NULL;
    size_t old = 0;
    if (size > SIZE_MAX - PL_HEADER)
        return NULL;
    if (base != NULL)
        memcpy(&old, base, sizeof old);
    char *n = base != NULL ? mv_realloc(a, base, old + PL_HEADER, size + PL_HEADER)
                           : mv_alloc(a, size + PL_HEADER);
    if (n == NULL)
        return NULL;
    memcpy(n, &size, sizeof size);
    return n + PL_HEADER;
}

void pl_free(const mv_allocator *a, const void *ptr) {
    if (ptr == NULL)
        return;
    char *base = (char *)(uintptr_t)ptr - PL_HEADER;
    size_t size;
    memcpy(&size, base, sizeof size);
    mv_free(a, base, size + PL_HEADER);
}

char *pl_strdup(const mv_allocator *a, const char *s) {
    if (s == NULL)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = pl_realloc(a, NULL, n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

int mv_pipeline_new(mv_pipeline **out, const mv_pipeline_options *opts, mv_error *err) {
    mv_pipeline *p = NULL;
    int rc = MV_ENOMEM;
    *out = NULL;
    p = pl_alloc(opts != NULL ? opts->model.allocator : NULL, sizeof *p);
    if (p == NULL)
        goto done;
    if (opts != NULL)
        p->opts = *opts;
    p->a = p->opts.model.allocator;
    if (p->opts.mcp.allocator == NULL)
        p->opts.mcp.allocator = p->a;
    p->opts.model.server = NULL;
    if (p->opts.concurrency == 0)
        p->opts.concurrency = MV_PIPELINE_DEFAULT_CONCURRENCY;
    mv_buf_init(&p->snapshot, p->a);
    if (p->opts.shared_engine != NULL) {
        p->engine = p->opts.shared_engine;
    } else {
        if ((rc = mv_engine_new(&p->own_engine, &p->opts.engine, err)) != MV_OK)
            goto done;
        p->engine = p->own_engine;
    }
    rc = MV_OK;
    *out = p;
    p = NULL;
done:
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "out of memory");
    mv_pipeline_free(p);
    return rc;
}

void mv_pipeline_free(mv_pipeline *p) {
    if (p == NULL)
        return;
    mv_report_stream_free(p->stream);
    mv_scan_free(p->scan);
    mv_registry_free(p->registry);
    for (size_t i = 0; i < p->n_sets; i++) {
        mv_toolset_free(p->sets[i].set);
        pl_free(p->a, p->sets[i].source);
        pl_free(p->a, p->sets[i].data);
    }
    pl_free(p->a, p->sets);
    pl_free(p->a, p->tool_sources);
    for (size_t i = 0; p->states != NULL && i < p->n_states; i++)
        pl_free(p->a, p->states[i].changed);
    pl_free(p->a, p->states);
    pl_free(p->a, p->changed_servers);
    mv_store_scan_result_free(p->decisions);
    mv_pipeline_servers_free(p);
    mv_buf_release(&p->snapshot);
    mv_engine_free(p->own_engine);
    pl_free(p->a, p);
}

/* Make room for one more tool set. */
static pl_set *push_set(mv_pipeline *p) {
    if (p->n_sets == p->cap_sets) {
        size_t cap = p->cap_sets ? 2 * p->cap_sets : 4;
        pl_set *grown = pl_realloc(p->a, p->sets, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        p->sets = grown;
        p->cap_sets = cap;
    }
    pl_set *s = &p->sets[p->n_sets];
    memset(s, 0, sizeof *s);
    s->servers_base = SIZE_MAX;
    return s;
}

/* A snapshot saved by a scan of servers says how each was reached and
 * whether it was scanned whole: report those servers again, so reading the
 * snapshot back gives the same report and exit code. */
static int adopt_snapshot_servers(mv_pipeline *p, pl_set *s) {
    const mv_toolset *set = s->set;
    bool any = false;
    for (size_t k = 0; k < set->n_servers && !any; k++)
        any = set->servers[k].status.len > 0;
    if (!any)
        return MV_OK;
    if (mv_pipeline_servers_reserve(p, set->n_servers) != MV_OK)
        return MV_ENOMEM;
    s->servers_base = p->n_servers;
    for (size_t k = 0; k < set->n_servers; k++) {
        const mv_server_meta *m = &set->servers[k];
        p->server_configs[p->n_servers] = NULL;
        mv_report_server *rs = &p->servers[p->n_servers++];
        memset(rs, 0, sizeof *rs);
        const mv_str *src[] = {&m->name,   &m->client, &m->config,          &m->transport,
                               &m->status, &m->reason, &m->protocol_version};
        const char **dst[] = {&rs->name,   &rs->client, &rs->config,          &rs->transport,
                              &rs->status, &rs->reason, &rs->protocol_version};
        for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
            if (src[i]->len == 0 && i != 0 && i != 4)
                continue;
            /* C strings: up to an embedded NUL, as every reader sees them */
            const char *nul = src[i]->len > 0 ? memchr(src[i]->ptr, '\0', src[i]->len) : NULL;
            size_t len = nul != NULL ? (size_t)(nul - src[i]->ptr) : src[i]->len;
            char *copy = pl_realloc(p->a, NULL, len + 1);
            if (copy == NULL)
                return MV_ENOMEM;
            if (len > 0)
                memcpy(copy, src[i]->ptr, len);
            copy[len] = '\0';
            *dst[i] = copy;
        }
        rs->tools = m->counts[MV_ITEM_TOOL];
        rs->prompts = m->counts[MV_ITEM_PROMPT];
        rs->resources = m->counts[MV_ITEM_RESOURCE] + m->counts[MV_ITEM_RESOURCE_TEMPLATE];
    }
    return MV_OK;
}

int mv_pipeline_add_file(mv_pipeline *p, const char *path, const char *server, mv_error *err) {
    mv_model_options mopts = p->opts.model;
    mopts.server = server;
    pl_set *s = push_set(p);
    if (s == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    s->source = pl_strdup(p->a, path);
    if (s->source == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    int rc = mv_model_load_file(&s->set, path, &mopts, err);
    if (rc != MV_OK) {
        pl_free(p->a, s->source);
        return rc;
    }
    p->n_tools += s->set->n_tools;
    p->n_sets++;
    if (adopt_snapshot_servers(p, s) != MV_OK)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    return MV_OK;
}

int mv_pipeline_add_document(mv_pipeline *p, const char *data, size_t len, const char *source,
                             const char *server, mv_error *err) {
    mv_model_options mopts = p->opts.model;
    mopts.server = server;
    pl_set *s = push_set(p);
    if (s == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    /* The model's strings point into the document: keep a copy alive. */
    s->data = len < SIZE_MAX ? pl_realloc(p->a, NULL, len + 1) : NULL;
    s->source = pl_strdup(p->a, source != NULL ? source : "<document>");
    if (s->data == NULL || s->source == NULL) {
        pl_free(p->a, s->data);
        pl_free(p->a, s->source);
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    }
    if (len > 0)
        memcpy(s->data, data, len);
    s->data[len] = '\0';
    int rc = mv_model_parse(&s->set, s->data, len, s->source, &mopts, err);
    if (rc != MV_OK) {
        pl_free(p->a, s->data);
        pl_free(p->a, s->source);
        return rc;
    }
    p->n_tools += s->set->n_tools;
    p->n_sets++;
    return MV_OK;
}

const mv_buf *mv_pipeline_snapshot(const mv_pipeline *p) {
    return &p->snapshot;
}

size_t mv_pipeline_tool_count(const mv_pipeline *p) {
    return p->n_tools;
}

/* The source name every tool is reported with: its file, or for a server
 * reached through its config, that config file. */
static const char *tool_source(const mv_pipeline *p, const pl_set *s, size_t tool) {
    if (s->servers_base == SIZE_MAX)
        return s->source;
    for (size_t k = 0; k < s->set->n_servers; k++) {
        const mv_server_meta *m = &s->set->servers[k];
        if (tool >= m->first_tool && tool < m->first_tool + m->n_tools) {
            const mv_report_server *rs = &p->servers[s->servers_base + k];
            return rs->config != NULL ? rs->config : s->source;
        }
    }
    return s->source;
}

/* Every collected tool into one frozen registry, with its source. */
static int build_registry(mv_pipeline *p, unsigned jobs, mv_error *err) {
    int rc = MV_ENOMEM;
    if (p->scan != NULL || p->registry != NULL)
        return mv_error_set(err, MV_EINVAL, "the pipeline has already scanned");
    p->registry = mv_registry_new(p->a);
    mv_registry_set_jobs(p->registry, jobs);
    p->tool_sources = pl_alloc(p->a, (p->n_tools + 1) * sizeof *p->tool_sources);
    if (p->registry == NULL || p->tool_sources == NULL)
        goto oom;
    size_t next = 0;
    for (size_t i = 0; i < p->n_sets; i++) {
        const pl_set *s = &p->sets[i];
        for (size_t t = 0; t < s->set->n_tools; t++, next++) {
            int ar = mv_registry_add(p->registry, &s->set->tools[t]);
            if (ar == MV_ENOMEM)
                goto oom;
            if (ar != MV_OK)
                return mv_error_set(err, MV_ELIMIT, "too many tools for one registry");
            p->tool_sources[next] = tool_source(p, s, t);
        }
    }
    if (mv_registry_freeze(p->registry) != MV_OK)
        goto oom;
    return MV_OK;
oom:
    rc = mv_error_set(err, MV_ENOMEM, "out of memory");
    return rc;
}

/* A slim set (mv_model_options.slim) holds only what the cross-server
 * checks read of other tools: only the streamed scan makes its runs full
 * as it goes. */
static bool any_slim(const mv_pipeline *p) {
    for (size_t i = 0; i < p->n_sets; i++)
        if (mv_toolset_is_slim(p->sets[i].set))
            return true;
    return false;
}

int mv_pipeline_scan(mv_pipeline *p, unsigned jobs, mv_error *err) {
    if (any_slim(p))
        return mv_error_set(err, MV_EINVAL, "slim tool sets need mv_pipeline_scan_stream");
    int rc = build_registry(p, jobs, err);
    if (rc != MV_OK)
        return rc;
    if ((rc = mv_scan_new(&p->scan, p->engine, p->registry, err)) != MV_OK ||
        (rc = mv_scan_run(p->scan, jobs, err)) != MV_OK)
        goto done;
    return MV_OK;
done:
    mv_scan_free(p->scan);
    p->scan = NULL;
    return rc;
}

int mv_pipeline_scan_stream(mv_pipeline *p, unsigned jobs, const mv_report_options *ropts,
                            mv_error *err) {
    int rc = build_registry(p, jobs, err);
    if (rc != MV_OK)
        return rc;
    mv_report_options o = *ropts;
    mv_pipeline_report_options(p, &o);
    size_t n = mv_registry_count(p->registry);
    if ((rc = mv_scan_new(&p->scan, p->engine, p->registry, err)) != MV_OK ||
        (rc = mv_report_stream_new(&p->stream, &o, err)) != MV_OK)
        goto done;
    /* Scan, render and release range by range: the findings of one range
     * are all that is ever kept. The tools of a slim set are made full a
     * group of runs at a time (mv_toolset_expand): ranges stop at the end
     * of each, and only one is full at a time. */
    size_t si = 0, set_base = 0, full_end = 0;
    for (size_t begin = 0; begin < n;) {
        while (si < p->n_sets && begin >= set_base + p->sets[si].set->n_tools) {
            mv_toolset_shrink(p->sets[si].set);
            set_base += p->sets[si++].set->n_tools;
        }
        if (si >= p->n_sets) {
            rc = mv_error_set(err, MV_EINVAL, "the registry and the tool sets disagree");
            goto done;
        }
        mv_toolset *set = p->sets[si].set;
        if (begin >= full_end) {
            size_t b = 0, e = 0;
            if ((rc = mv_toolset_expand(set, begin - set_base, &b, &e, err)) != MV_OK)
                goto done;
            full_end = set_base + e;
        }
        size_t end =
            full_end - begin < MV_PIPELINE_SCAN_RANGE ? full_end : begin + MV_PIPELINE_SCAN_RANGE;
        if ((rc = mv_scan_run_range(p->scan, begin, end, jobs, err)) != MV_OK ||
            (rc = mv_report_stream_add(p->stream, p->scan, begin, end, err)) != MV_OK)
            goto done;
        begin = end;
    }
    if ((rc = mv_scan_finish(p->scan, err)) != MV_OK)
        goto done;
    return MV_OK;
done:
    mv_report_stream_free(p->stream);
    p->stream = NULL;
    mv_scan_free(p->scan);
    p->scan = NULL;
    return rc;
}

int mv_pipeline_render_to_fd(const mv_pipeline *p, int fd, mv_report_write_fn write, void *arg,
                             const mv_report_options *ropts, mv_error *err) {
    if (p->scan == NULL)
        return mv_error_set(err, MV_EINVAL, "the pipeline has not scanned");
    mv_report_options o = *ropts;
    mv_pipeline_report_options(p, &o);
    if (p->stream != NULL) {
        mv_report_stream_sink_fd(p->stream, fd);
        return mv_report_stream_finish(p->stream, p->scan, write, arg, err);
    }
    return mv_report_render_to(write, arg, p->scan, &o, err);
}

int mv_pipeline_render_to(const mv_pipeline *p, mv_report_write_fn write, void *arg,
                          const mv_report_options *ropts, mv_error *err) {
    return mv_pipeline_render_to_fd(p, -1, write, arg, ropts, err);
}

const mv_scan *mv_pipeline_result(const mv_pipeline *p) {
    return p->scan;
}

const mv_engine *mv_pipeline_engine(const mv_pipeline *p) {
    return p->engine;
}

void mv_pipeline_report_options(const mv_pipeline *p, mv_report_options *ropts) {
    ropts->sources = p->tool_sources;
    ropts->n_sources = p->tool_sources != NULL ? p->n_tools : 0;
    ropts->servers = p->servers;
    ropts->n_servers = p->n_servers;
    ropts->engine = p->engine;
    ropts->states = p->states;
    ropts->n_states = p->states != NULL ? p->n_states : 0;
    ropts->changed_servers = p->changed_servers;
}

int mv_pipeline_exit_code(const mv_pipeline *p, const mv_report_options *ropts) {
    if (p->scan == NULL)
        return MV_EXIT_USAGE;
    mv_report_options o = *ropts;
    mv_pipeline_report_options(p, &o);
    return mv_report_exit_code_opts(p->scan, &o);
}
