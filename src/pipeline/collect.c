/*
 * The collect step for configured servers: reach each one through the MCP
 * client, at most `concurrency` at a time (the scan of many servers takes
 * about as long as the slowest), then write what they advertised as one
 * snapshot document and hand it to the model like any other input. The
 * snapshot is also what --save-snapshot writes, so a saved scan reads back
 * with identical verdicts.
 *
 * A server that cannot be scanned is recorded with its status and reason
 * and still appears in the report; it never fails the collect step.
 * Nothing from a server's env or headers is written anywhere.
 */
#include "pipeline/pipeline_int.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/writer.h"

/* One server to reach, after duplicates were folded together. */
typedef struct pl_job {
    const mv_server_config *config;
    char *name;    /* unique within the scan: "name" or "name@client" */
    char *also_in; /* other configs declaring the very same server, or NULL */
    mv_mcp_result result;
    bool fetched;
} pl_job;

typedef struct pl_pool {
    mv_pipeline *p;
    pl_job *jobs;
    size_t n_jobs;
    size_t next; /* next job to take, under lock */
    pthread_mutex_t lock;
    int rc;      /* first MV_ENOMEM, under lock */
} pl_pool;

/* ------------------------------------------------------- identities */

static bool str_eq(const char *a, const char *b) {
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Same server in every way that changes what runs or what is reached:
 * transport, command, arguments, environment, working directory, URL and
 * headers. Two clients configured alike start the same program. */
static bool same_server(const mv_server_config *a, const mv_server_config *b) {
    if (!str_eq(a->name, b->name) || a->transport != b->transport ||
        !str_eq(a->command, b->command) || !str_eq(a->cwd, b->cwd) || !str_eq(a->url, b->url) ||
        a->n_args != b->n_args || a->n_env != b->n_env || a->n_headers != b->n_headers ||
        a->readiness != b->readiness)
        return false;
    for (size_t i = 0; i < a->n_args; i++)
        if (!str_eq(a->args[i], b->args[i]))
            return false;
    for (size_t i = 0; i < a->n_env; i++)
        if (!str_eq(a->env[i].name, b->env[i].name) || !str_eq(a->env[i].value, b->env[i].value))
            return false;
    for (size_t i = 0; i < a->n_headers; i++)
        if (!str_eq(a->headers[i].name, b->headers[i].name) ||
            !str_eq(a->headers[i].value, b->headers[i].value))
            return false;
    return true;
}

static int append_also(const mv_allocator *a, char **list, const mv_server_config *s) {
    const char *client = s->client != NULL ? s->client : "?";
    const char *path = s->config_path != NULL ? s->config_path : "?";
    size_t old = *list != NULL ? strlen(*list) : 0;
    size_t n = old + strlen(client) + strlen(path) + 8;
    char *grown = pl_realloc(a, *list, n);
    if (grown == NULL)
        return MV_ENOMEM;
    snprintf(grown + old, n - old, "%s%s (%s)", old > 0 ? "; " : "", client, path);
    *list = grown;
    return MV_OK;
}

/* Fold exact duplicates into one job and give every job a unique name:
 * a name that two different servers share becomes "name@client" (and
 * "name@client#2"... when even that repeats). */
static int plan_jobs(pl_pool *pool, const mv_server_config *const *servers, size_t n) {
    const mv_allocator *a = pool->p->a;
    pool->jobs = pl_alloc(a, (n > 0 ? n : 1) * sizeof *pool->jobs);
    if (pool->jobs == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const mv_server_config *s = servers[i];
        bool dup = false;
        for (size_t j = 0; j < pool->n_jobs && !dup; j++) {
            if (same_server(pool->jobs[j].config, s)) {
                if (append_also(a, &pool->jobs[j].also_in, s) != MV_OK)
                    return MV_ENOMEM;
                dup = true;
            }
        }
        if (!dup)
            pool->jobs[pool->n_jobs++].config = s;
    }
    for (size_t i = 0; i < pool->n_jobs; i++) {
        const mv_server_config *s = pool->jobs[i].config;
        bool clash = false;
        for (size_t j = 0; j < pool->n_jobs && !clash; j++)
            clash = j != i && str_eq(pool->jobs[j].config->name, s->name);
        const char *base = s->name != NULL && s->name[0] != '\0' ? s->name : "unnamed";
        size_t len = strlen(base) + (s->client != NULL ? strlen(s->client) : 1) + 24;
        char *name = pl_realloc(a, NULL, len);
        if (name == NULL)
            return MV_ENOMEM;
        if (!clash) {
            snprintf(name, len, "%s", base);
        } else {
            unsigned k = 1;
            for (size_t j = 0; j < i; j++)
                k += str_eq(pool->jobs[j].config->name, s->name) &&
                     str_eq(pool->jobs[j].config->client, s->client);
            if (k == 1)
                snprintf(name, len, "%s@%s", base, s->client != NULL ? s->client : "?");
            else
                snprintf(name, len, "%s@%s#%u", base, s->client != NULL ? s->client : "?", k);
        }
        pool->jobs[i].name = name;
    }
    return MV_OK;
}

/* ---------------------------------------------------------- fetching */

typedef struct pl_progress {
    pl_pool *pool;
} pl_progress;

static void notify(pl_pool *pool, mv_collect_event ev, const mv_server_config *s, const char *phase,
                   const mv_mcp_result *r) {
    if (pool->p->opts.on_collect == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->p->opts.on_collect(pool->p->opts.on_collect_arg, ev, s, phase, r);
    pthread_mutex_unlock(&pool->lock);
}

static void on_phase(void *arg, const mv_server_config *server, const char *phase) {
    notify(arg, MV_COLLECT_PHASE, server, phase, NULL);
}

/* A server that is not started still gets a result saying why. */
static void skip_result(pl_job *job) {
    const mv_server_config *s = job->config;
    memset(&job->result, 0, sizeof job->result);
    job->result.transport = s->transport;
    job->result.exit_status = -1;
    switch (s->readiness) {
    case MV_SERVER_DISABLED:
        job->result.status = MV_MCP_DISABLED;
        break;
    case MV_SERVER_NEEDS_INPUT:
        job->result.status = MV_MCP_NEEDS_INPUT;
        break;
    default:
        job->result.status = MV_MCP_INVALID_CONFIG;
        break;
    }
    snprintf(job->result.reason, sizeof job->result.reason, "%s",
             s->readiness_reason != NULL ? s->readiness_reason
                                         : mv_server_readiness_name(s->readiness));
}

static void *worker(void *arg) {
    pl_pool *pool = arg;
    mv_mcp_options mopts = pool->p->opts.mcp;
    mopts.progress = on_phase;
    mopts.progress_arg = pool;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        size_t i = pool->next < pool->n_jobs ? pool->next++ : SIZE_MAX;
        pthread_mutex_unlock(&pool->lock);
        if (i == SIZE_MAX)
            break;
        pl_job *job = &pool->jobs[i];
        if (job->config->readiness != MV_SERVER_READY) {
            skip_result(job);
            notify(pool, MV_COLLECT_SKIPPED, job->config, NULL, &job->result);
            continue;
        }
        notify(pool, MV_COLLECT_STARTING, job->config, NULL, NULL);
        mv_error err;
        mv_error_clear(&err);
        int rc = mv_mcp_fetch(&job->result, job->config, &mopts, &err);
        job->fetched = true;
        if (rc != MV_OK) {
            /* Not a server problem: out of memory (or a caller bug). Keep the
             * first error and record the server as not scanned. */
            pthread_mutex_lock(&pool->lock);
            if (pool->rc == MV_OK)
                pool->rc = rc == MV_ENOMEM ? MV_ENOMEM : MV_EINVAL;
            pthread_mutex_unlock(&pool->lock);
            job->result.status = MV_MCP_PROTOCOL_ERROR;
            snprintf(job->result.reason, sizeof job->result.reason, "%s",
                     err.message[0] != '\0' ? err.message : mv_strerror(rc));
        }
        notify(pool, MV_COLLECT_DONE, job->config, NULL, &job->result);
    }
    return NULL;
}

static int run_pool(pl_pool *pool) {
    /* Load libcurl before any worker exists (src/mcp/curl_dl.h): dlopen and
     * the libraries' constructors then never run beside a worker spawning
     * a stdio server. A failure is not fatal here: only HTTP servers need
     * it, and their transports then fail with a clear status. */
    if (pool->n_jobs > 0)
        (void)mv_mcp_global_init();
    unsigned n = pool->p->opts.concurrency;
    if (n > pool->n_jobs)
        n = (unsigned)pool->n_jobs;
    if (n <= 1) {
        worker(pool);
        return MV_OK;
    }
    pthread_t *threads = pl_alloc(pool->p->a, n * sizeof *threads);
    if (threads == NULL)
        return MV_ENOMEM;
    unsigned started = 0;
    for (; started < n; started++)
        if (pthread_create(&threads[started], NULL, worker, pool) != 0)
            break;
    if (started == 0)
        worker(pool); /* no thread could start: do the work here */
    for (unsigned i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pl_free(pool->p->a, threads);
    return MV_OK;
}

/* ---------------------------------------------------------- snapshot */

static void put_list(mv_jw *w, const char *key, const mv_buf *items, bool always) {
    if (items->len > 0)
        mv_jw_raw(w, key, items->data, items->len);
    else if (always)
        mv_jw_raw(w, key, "[]", 2);
}

static void put_server(mv_jw *w, const pl_job *job) {
    const mv_server_config *s = job->config;
    const mv_mcp_result *r = &job->result;
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "name", job->name);
    if (s->client != NULL)
        mv_jw_cstr(w, "client", s->client);
    if (s->config_path != NULL)
        mv_jw_cstr(w, "config", s->config_path);
    mv_jw_cstr(w, "transport", mv_transport_name(r->transport != MV_TRANSPORT_NONE
                                                     ? r->transport
                                                     : s->transport));
    mv_jw_cstr(w, "status", mv_mcp_status_name(r->status));
    if (r->reason[0] != '\0')
        mv_jw_cstr(w, "reason", r->reason);
    if (r->protocol_version[0] != '\0')
        mv_jw_cstr(w, "protocolVersion", r->protocol_version);
    put_list(w, "tools", &r->tools, true);
    put_list(w, "prompts", &r->prompts, false);
    put_list(w, "resources", &r->resources, false);
    put_list(w, "resourceTemplates", &r->resource_templates, false);
    /* They reach the model like a description; the model scans them. */
    if (r->instructions != NULL && r->instructions_len > 0)
        mv_jw_str(w, "instructions", (mv_str){r->instructions, r->instructions_len});
    mv_jw_obj_end(w);
}

static int write_snapshot(mv_buf *out, const pl_pool *pool) {
    mv_jw w;
    mv_jw_init(&w, out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_arr_begin(&w, "servers");
    for (size_t i = 0; i < pool->n_jobs; i++)
        put_server(&w, &pool->jobs[i]);
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    return mv_jw_finish(&w);
}

/* ------------------------------------------------- report servers */

void mv_pipeline_servers_free(mv_pipeline *p) {
    for (size_t i = 0; i < p->n_servers; i++) {
        mv_report_server *s = &p->servers[i];
        pl_free(p->a, s->name);
        pl_free(p->a, s->client);
        pl_free(p->a, s->config);
        pl_free(p->a, s->reason);
        pl_free(p->a, s->transport);
        pl_free(p->a, s->status);
        pl_free(p->a, s->protocol_version);
        pl_free(p->a, s->also_in);
    }
    pl_free(p->a, p->servers);
    pl_free(p->a, p->server_configs);
    p->servers = NULL;
    p->server_configs = NULL;
    p->n_servers = 0;
}

/* Append the report entries of the pool's servers (same order as the
 * snapshot's servers). Strings are copied: the pool goes away. */
int mv_pipeline_servers_reserve(mv_pipeline *p, size_t more) {
    size_t n = p->n_servers + more + 1;
    mv_report_server *grown = pl_realloc(p->a, p->servers, n * sizeof *grown);
    if (grown == NULL)
        return MV_ENOMEM;
    p->servers = grown;
    const mv_server_config **cfgs = pl_realloc(p->a, p->server_configs, n * sizeof *cfgs);
    if (cfgs == NULL)
        return MV_ENOMEM;
    p->server_configs = cfgs;
    return MV_OK;
}

static int record_servers(mv_pipeline *p, pl_pool *pool) {
    if (mv_pipeline_servers_reserve(p, pool->n_jobs) != MV_OK)
        return MV_ENOMEM;
    for (size_t i = 0; i < pool->n_jobs; i++) {
        pl_job *job = &pool->jobs[i];
        const mv_mcp_result *r = &job->result;
        p->server_configs[p->n_servers] = job->config;
        mv_report_server *rs = &p->servers[p->n_servers];
        memset(rs, 0, sizeof *rs);
        mv_transport t = r->transport != MV_TRANSPORT_NONE ? r->transport : job->config->transport;
        rs->transport = pl_strdup(p->a, mv_transport_name(t));
        rs->status = pl_strdup(p->a, mv_mcp_status_name(r->status));
        rs->tools = r->n_tools;
        rs->prompts = r->n_prompts;
        rs->resources = r->n_resources + r->n_resource_templates;
        rs->name = pl_strdup(p->a, job->name);
        rs->client = pl_strdup(p->a, job->config->client);
        rs->config = pl_strdup(p->a, job->config->config_path);
        rs->reason = r->reason[0] != '\0' ? pl_strdup(p->a, r->reason) : NULL;
        rs->protocol_version =
            r->protocol_version[0] != '\0' ? pl_strdup(p->a, r->protocol_version) : NULL;
        rs->also_in = job->also_in;
        job->also_in = NULL;
        p->n_servers++;
        if (rs->name == NULL || rs->transport == NULL || rs->status == NULL || (job->config->client != NULL && rs->client == NULL) ||
            (job->config->config_path != NULL && rs->config == NULL) ||
            (r->reason[0] != '\0' && rs->reason == NULL) ||
            (r->protocol_version[0] != '\0' && rs->protocol_version == NULL))
            return MV_ENOMEM;
    }
    return MV_OK;
}

static void pool_free(pl_pool *pool) {
    for (size_t i = 0; i < pool->n_jobs; i++) {
        mv_mcp_result_free(&pool->jobs[i].result);
        pl_free(pool->p->a, pool->jobs[i].name);
        pl_free(pool->p->a, pool->jobs[i].also_in);
    }
    pl_free(pool->p->a, pool->jobs);
    pthread_mutex_destroy(&pool->lock);
}

int mv_pipeline_collect(mv_pipeline *p, const mv_server_config *const *servers, size_t n,
                        mv_error *err) {
    pl_pool pool;
    mv_buf doc;
    int rc;
    memset(&pool, 0, sizeof pool);
    mv_buf_init(&doc, p->a);
    pool.p = p;
    pthread_mutex_init(&pool.lock, NULL);
    if ((rc = plan_jobs(&pool, servers, n)) != MV_OK || (rc = run_pool(&pool)) != MV_OK)
        goto done;
    if (pool.rc != MV_OK) {
        rc = pool.rc;
        goto done;
    }
    if ((rc = write_snapshot(&doc, &pool)) != MV_OK)
        goto done;
    size_t base = p->n_servers;
    if ((rc = record_servers(p, &pool)) != MV_OK)
        goto done;
    rc = mv_pipeline_add_document(p, doc.data, doc.len, "<servers>", NULL, err);
    if (rc != MV_OK)
        goto done;
    p->sets[p->n_sets - 1].servers_base = base;
    /* One snapshot of everything collected: a second collect replaces it. */
    mv_buf_release(&p->snapshot);
    p->snapshot = doc;
    mv_buf_init(&doc, NULL);
done:
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "out of memory");
    mv_buf_release(&doc);
    pool_free(&pool);
    return rc;
}
