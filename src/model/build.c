/*
 * Deferred, batched tool builds. The document walk (model.c) checks the
 * shapes and queues every tool object it finds with its slot in the tool
 * set; the queue is built in batches of MDL_BATCH tools, on
 * mv_model_options.jobs threads when there is enough work for them. Each
 * thread has its own context (scratch vectors, path table, string pool and
 * arena; the arenas end up owned by the tool set), so the tool set holds the
 * same tools in the same slots whatever the thread count.
 *
 * Errors stay those of a one-pass build: the walk only queues tools that
 * precede the point where it stopped, so the first failing tool of the
 * queue (in document order) came before anything the walk reported, and
 * its error wins.
 */
#include "model_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Tools per batch: bounds the queue (~150 bytes a tool) and gives each of
 * two threads a few milliseconds of work per batch. */
#define MDL_BATCH 8192u
/* Each thread gets at least this many tools (about a millisecond of
 * work), so small inputs never pay for thread starts. */
#define MDL_MIN_PER_THREAD 256u
/* More threads than this do not pay off (one parse feeds them). */
#define MDL_MAX_THREADS 64u

typedef struct mdl_job {
    const mv_jv *tool;
    mdl_loc loc;
    mv_str server;
    mdl_extra_cap extra;
    bool has_extra;
    mv_item_kind kind;
    uint32_t slot; /* index in set->tools, which is also its source_index */
} mdl_job;

/* A context of one extra thread. */
typedef struct mdl_worker {
    mdl_ctx ctx;
    mv_error err;
    struct mdl_build *b;
    size_t begin, end; /* range of the queue it builds */
    int rc;
    pthread_t thread;
} mdl_worker;

struct mdl_build {
    mv_toolset *set;
    mdl_job *jobs;
    size_t n_jobs, cap_jobs;
    unsigned threads; /* >= 1, the calling thread included */
    size_t arena_block;
    mdl_worker *workers; /* threads - 1, created on the first parallel batch
                            (slim: threads, the calling thread's first) */
    size_t n_workers;
    bool slim; /* mdl_build_slim */
};

int mdl_build_new(mdl_ctx *c, mv_toolset *set, unsigned threads, size_t arena_block) {
    mdl_build *b = mv_calloc(c->alloc, 1, sizeof(*b));
    if (b == NULL)
        return MV_ENOMEM;
    b->set = set;
    b->threads = threads == 0 ? 1 : threads > MDL_MAX_THREADS ? MDL_MAX_THREADS : threads;
    b->arena_block = arena_block;
    c->build = b;
    return MV_OK;
}

void mdl_build_slim(mdl_ctx *c) {
    c->build->slim = true;
}

/* A string packed into c->keep without alignment, NUL-terminated. */
static int keep_str(mdl_ctx *c, mv_str *s) {
    enum { KEEP_CHUNK = 16384 };
    char *p;
    if (s->len == 0) {
        *s = (mv_str){"", 0};
        return MV_OK;
    }
    if (s->len >= KEEP_CHUNK / 4) {
        p = mv_arena_memdup(c->keep, s->ptr, s->len);
        if (p == NULL)
            return MV_ENOMEM;
        s->ptr = p;
        return MV_OK;
    }
    if (c->keep_left < s->len + 1) {
        c->keep_pool = mv_arena_alloc(c->keep, KEEP_CHUNK);
        c->keep_left = c->keep_pool != NULL ? KEEP_CHUNK : 0;
        if (c->keep_pool == NULL)
            return MV_ENOMEM;
    }
    p = c->keep_pool;
    memcpy(p, s->ptr, s->len);
    p[s->len] = '\0';
    c->keep_pool += s->len + 1;
    c->keep_left -= s->len + 1;
    s->ptr = p;
    return MV_OK;
}

int mdl_slim_tool(mdl_ctx *c, mv_tool *t) {
    mv_param *params = NULL;
    mv_cap_hit *caps = NULL;
    int rc = MV_OK;
    if ((rc = keep_str(c, &t->name)) != MV_OK || (rc = keep_str(c, &t->title)) != MV_OK ||
        (rc = keep_str(c, &t->description)) != MV_OK)
        return rc;
    if (t->n_params > 0) {
        params = mv_arena_alloc(c->keep, t->n_params * sizeof(*params));
        if (params == NULL)
            return MV_ENOMEM;
        for (uint32_t i = 0; i < t->n_params; i++) {
            params[i] = t->params[i];
            params[i].type = (mv_str){"", 0};
            params[i].description = (mv_str){"", 0};
            if ((rc = keep_str(c, &params[i].name)) != MV_OK)
                return rc;
        }
    }
    if (t->n_caps > 0) {
        caps = mv_arena_alloc(c->keep, t->n_caps * sizeof(*caps));
        if (caps == NULL)
            return MV_ENOMEM;
        for (uint32_t i = 0; i < t->n_caps; i++) {
            caps[i] = t->caps[i];
            if ((rc = keep_str(c, &caps[i].where)) != MV_OK)
                return rc;
        }
    }
    t->params = params;
    t->caps = caps;
    t->fields = NULL;
    t->n_fields = 0;
    t->definition = (mv_str){"", 0};
    return MV_OK;
}

int mdl_build_adopt(mdl_ctx *c) {
    mdl_build *b = c->build;
    if (b == NULL || b->n_workers == 0)
        return MV_OK;
    mv_arena **kept = mv_arena_calloc(c->arena, b->n_workers, sizeof(*kept));
    if (kept == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < b->n_workers; i++) {
        mdl_ctx *w = &b->workers[i].ctx;
        /* slim: the set keeps the slim copies; the build arenas go */
        if (b->slim) {
            mv_arena_free(w->arena);
            w->arena = w->keep;
            w->keep = NULL;
        }
        kept[i] = w->arena;
        w->arena = NULL;
    }
    b->set->more_arenas = kept;
    b->set->n_more_arenas = b->n_workers;
    return MV_OK;
}

void mdl_build_free(mdl_ctx *c) {
    mdl_build *b = c->build;
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->n_workers; i++) {
        mv_arena_free(b->workers[i].ctx.arena);
        mv_arena_free(b->workers[i].ctx.keep);
        b->workers[i].ctx.arena = NULL;
        b->workers[i].ctx.keep = NULL;
        mdl_ctx_release(&b->workers[i].ctx);
    }
    mv_free(c->alloc, b->workers, b->n_workers * sizeof(*b->workers));
    mv_free(c->alloc, b->jobs, b->cap_jobs * sizeof(*b->jobs));
    mv_free(c->alloc, b, sizeof(*b));
    c->build = NULL;
}

/* Build jobs [begin, end) with context c; on failure *failed is the job. */
static int run_range(mdl_ctx *c, mdl_build *b, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
        const mdl_job *j = &b->jobs[i];
        mv_tool *out = &b->set->tools[j->slot];
        c->source_index = j->slot;
        int rc =
            mdl_build_tool(c, j->tool, &j->loc, j->server, j->has_extra ? &j->extra : NULL, out);
        if (rc != MV_OK)
            return rc;
        out->kind = j->kind;
        if (c->keep != NULL && (rc = mdl_slim_tool(c, out)) != MV_OK)
            return rc;
    }
    return MV_OK;
}

static void *worker_main(void *arg) {
    mdl_worker *w = arg;
    w->rc = run_range(&w->ctx, w->b, w->begin, w->end);
    return NULL;
}

/* The extra contexts: same limits and options, their own memory. */
static int ensure_workers(mdl_ctx *c, mdl_build *b, size_t n) {
    if (b->n_workers >= n)
        return MV_OK;
    mdl_worker *grown = mv_calloc(c->alloc, n, sizeof(*grown));
    if (grown == NULL)
        return MV_ENOMEM;
    if (b->n_workers > 0)
        memcpy(grown, b->workers, b->n_workers * sizeof(*grown));
    for (size_t i = 0; i < b->n_workers; i++)
        grown[i].ctx.err = &grown[i].err; /* it pointed into the old array */
    mv_free(c->alloc, b->workers, b->n_workers * sizeof(*b->workers));
    b->workers = grown;
    for (size_t i = b->n_workers; i < n; i++) {
        mdl_worker *w = &b->workers[i];
        w->ctx.alloc = c->alloc;
        w->ctx.lim = c->lim;
        w->ctx.keep_definitions = c->keep_definitions;
        w->ctx.err = &w->err;
        mv_buf_init(&w->ctx.def, c->alloc);
        w->ctx.arena = mv_arena_new(c->alloc, b->arena_block);
        if (b->slim)
            w->ctx.keep = mv_arena_new(c->alloc, b->arena_block);
        b->n_workers = i + 1; /* counted now, so its arena is freed with it */
        if (w->ctx.arena == NULL || (b->slim && w->ctx.keep == NULL))
            return MV_ENOMEM;
    }
    return MV_OK;
}

int mdl_build_flush(mdl_ctx *c) {
    mdl_build *b = c->build;
    size_t n = b->n_jobs;
    int rc = MV_OK;
    if (n == 0)
        return MV_OK;
    size_t t = b->threads;
    if (t > n / MDL_MIN_PER_THREAD)
        t = n / MDL_MIN_PER_THREAD;
    if (t < 1)
        t = 1;
    /* Slim builds never use c itself (its arena outlives the batch): the
     * calling thread builds on workers[0], thread k on workers[k]. */
    size_t own = b->slim ? 1 : 0;
    if (b->slim) {
        if (ensure_workers(c, b, t) != MV_OK)
            return MV_ENOMEM;
    } else if (t < 2 || ensure_workers(c, b, t - 1) != MV_OK) {
        t = 1; /* out of memory for a context: build on this thread */
    }
    /* The walk may already have recorded its own (later) error: a tool
     * failing here without a message must not be reported with that one. */
    bool err_was_set = c->err_set;
    c->err_set = false;
    /* Range k is [k * per, (k + 1) * per): the calling thread builds range
     * 0, thread k range k. */
    size_t per = (n + t - 1) / t;
    size_t started = 0;
    for (size_t k = 1; k < t; k++) {
        mdl_worker *w = &b->workers[k - 1 + own];
        w->b = b;
        w->begin = k * per;
        w->end = (k + 1) * per < n ? (k + 1) * per : n;
        w->rc = MV_OK;
        w->ctx.err_set = false;
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
            break;
        started = k;
    }
    if (own) {
        mdl_worker *w0 = &b->workers[0];
        w0->ctx.err_set = false;
        rc = run_range(&w0->ctx, b, 0, per < n ? per : n);
        if (rc != MV_OK) {
            c->err_set = w0->ctx.err_set;
            if (c->err != NULL && w0->ctx.err_set)
                *c->err = w0->err;
        }
    } else {
        rc = run_range(c, b, 0, per < n ? per : n);
    }
    for (size_t k = 1; k <= started; k++)
        pthread_join(b->workers[k - 1 + own].thread, NULL);
    /* The first failure in document order wins. */
    for (size_t k = 1; k <= started && rc == MV_OK; k++) {
        mdl_worker *w = &b->workers[k - 1 + own];
        if (w->rc == MV_OK)
            continue;
        rc = w->rc;
        c->err_set = w->ctx.err_set;
        if (c->err != NULL && w->ctx.err_set)
            *c->err = w->err;
    }
    /* Ranges whose thread did not start are built here, after the others. */
    if (rc == MV_OK && started + 1 < t) {
        mdl_ctx *rest = own ? &b->workers[0].ctx : c;
        rest->err_set = false;
        rc = run_range(rest, b, (started + 1) * per, n);
        if (rc != MV_OK && own) {
            c->err_set = rest->err_set;
            if (c->err != NULL && rest->err_set)
                *c->err = b->workers[0].err;
        }
    }
    if (rc == MV_OK)
        c->err_set = err_was_set;
    b->n_jobs = 0;
    /* Slim: the full tools of the batch are copied; their memory (and the
     * paths and pool that point into it) goes. */
    for (size_t k = 0; b->slim && k < b->n_workers; k++) {
        mdl_ctx *w = &b->workers[k].ctx;
        mdl_ctx_release(w);
        mv_arena_reset(w->arena);
        mv_buf_init(&w->def, c->alloc);
    }
    return rc;
}

int mdl_build_queue(mdl_ctx *c, const mv_jv *tool, const mdl_loc *loc, mv_str server,
                    const mdl_extra_cap *extra, mv_item_kind kind, uint32_t slot) {
    mdl_build *b = c->build;
    if (b->n_jobs == b->cap_jobs) {
        size_t cap = b->cap_jobs == 0 ? 64 : b->cap_jobs * 2;
        if (cap > MDL_BATCH)
            cap = MDL_BATCH;
        mdl_job *grown =
            mv_realloc(c->alloc, b->jobs, b->cap_jobs * sizeof(*grown), cap * sizeof(*grown));
        if (grown == NULL)
            return MV_ENOMEM;
        b->jobs = grown;
        b->cap_jobs = cap;
    }
    mdl_job *j = &b->jobs[b->n_jobs++];
    j->tool = tool;
    j->loc = *loc;
    j->server = server;
    j->has_extra = extra != NULL;
    if (extra != NULL)
        j->extra = *extra;
    j->kind = kind;
    j->slot = slot;
    return b->n_jobs == MDL_BATCH ? mdl_build_flush(c) : MV_OK;
}
