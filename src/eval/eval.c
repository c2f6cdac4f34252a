/*
 * Corpus evaluation: scan every labeled entry, then count verdicts against
 * labels per category, per hard-negative class, overall and for the holdout
 * set. In per-entry mode each entry gets its own registry (its tool plus its
 * peers) and entries are spread over worker threads; every entry writes only
 * its own slot, so the result does not depend on the number of threads. In
 * whole-registry mode all tools form one registry and the engine's own
 * threads do the work. The gate and the renderers live in gate.c and
 * scorecard_*.c.
 */
#include "eval_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ categories */

typedef struct category_map {
    const char *category;
    const char *check;
    bool structural;
} category_map;

static const category_map categories[] = {
    {"unicode_smuggling", "unicode.hidden", true},
    {"shadowing", "shadowing.cross_server", true},
    {"decoded_payload", "payload.decoded", true},
    {"phrase_injection", "directive.imperative", false},
    {"capability_mismatch", "capability.mismatch", false},
    {"embedded_secret", "secret.embedded", false},
};

static const category_map *find_category(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++) {
        if (strlen(categories[i].category) == len && memcmp(categories[i].category, name, len) == 0)
            return &categories[i];
    }
    return NULL;
}

const char *mv_eval_category_check(const char *category, size_t len) {
    const category_map *c = category != NULL ? find_category(category, len) : NULL;
    return c != NULL ? c->check : NULL;
}

bool mv_eval_category_structural(const char *category, size_t len) {
    const category_map *c = category != NULL ? find_category(category, len) : NULL;
    return c != NULL && c->structural;
}

const char *mv_eval_mode_name(mv_eval_mode mode) {
    return mode == MV_EVAL_WHOLE_REGISTRY ? "whole-registry" : "per-entry";
}

bool mv_eval_str_eq(mv_str s, const char *lit) {
    size_t n = strlen(lit);
    return s.len == n && (n == 0 || memcmp(s.ptr, lit, n) == 0);
}

static bool is_holdout(mv_str source) {
    static const char mark[] = "/holdout/";
    size_t n = sizeof mark - 1;
    if (source.len >= n - 1 && memcmp(source.ptr, mark + 1, n - 1) == 0)
        return true;
    for (size_t i = 0; source.len >= n && i <= source.len - n; i++) {
        if (memcmp(source.ptr + i, mark, n) == 0)
            return true;
    }
    return false;
}

/* A builtin check exists in this build even when a run disables it: its
 * category stays enforced, so disabling a check is a visible regression. */
static bool check_is_builtin(const char *id) {
    const char *const *ids = mv_builtin_check_ids();
    for (size_t i = 0; id != NULL && ids[i] != NULL; i++) {
        if (strcmp(ids[i], id) == 0)
            return true;
    }
    return false;
}

bool mv_eval_check_registered(const mv_eval *ev, const char *id) {
    for (size_t i = 0; id != NULL && i < ev->n_check_ids; i++) {
        if (strcmp(ev->check_ids[i], id) == 0)
            return true;
    }
    return false;
}

/* --------------------------------------------------------------- metrics */

static double ratio(uint64_t num, uint64_t den) {
    return den == 0 ? 0.0 : (double)num / (double)den;
}

static void metrics_count(mv_eval_metrics *m, const mv_eval_entry *en) {
    bool any = en->verdict >= MV_VERDICT_REVIEW;
    bool quarantine = en->verdict == MV_VERDICT_QUARANTINE;
    m->entries++;
    if (en->degraded)
        m->degraded++;
    if (en->malicious) {
        m->malicious++;
        m->caught_any += any;
        m->caught_quarantine += quarantine;
        if (mv_eval_str_eq(en->expected, "quarantine")) {
            m->expected_quarantine++;
            m->caught_expected_quarantine += quarantine;
        }
    } else if (en->hard_negative) {
        m->hard_negatives++;
        m->hn_fp_any += any;
        m->hn_fp_quarantine += quarantine;
    } else {
        m->benign++;
        m->benign_fp_any += any;
        m->benign_fp_quarantine += quarantine;
    }
}

static void metrics_finish(mv_eval_metrics *m) {
    m->recall_any = ratio(m->caught_any, m->malicious);
    m->recall_quarantine = ratio(m->caught_quarantine, m->malicious);
    m->recall_expected_quarantine = ratio(m->caught_expected_quarantine, m->expected_quarantine);
    m->hn_fp_rate_any = ratio(m->hn_fp_any, m->hard_negatives);
    m->hn_fp_rate_quarantine = ratio(m->hn_fp_quarantine, m->hard_negatives);
    m->benign_fp_rate_any = ratio(m->benign_fp_any, m->benign);
    m->benign_fp_rate_quarantine = ratio(m->benign_fp_quarantine, m->benign);
    uint64_t flagged = m->caught_any + m->hn_fp_any + m->benign_fp_any;
    m->precision = ratio(m->caught_any, flagged);
    double sum = m->precision + m->recall_any;
    m->f1 = sum > 0.0 ? 2.0 * m->precision * m->recall_any / sum : 0.0;
}

bool mv_eval_has_precision(const mv_eval_metrics *m) {
    return m->caught_any + m->hn_fp_any + m->benign_fp_any > 0;
}

/* ------------------------------------------------------------ row tables */

typedef struct row_vec {
    mv_eval_row *rows;
    size_t n, cap;
} row_vec;

static mv_eval_row *row_get(row_vec *v, mv_eval_row_kind kind, mv_str name) {
    for (size_t i = 0; i < v->n; i++) {
        mv_eval_row *r = &v->rows[i];
        if (r->kind == kind && r->name.len == name.len &&
            (name.len == 0 || memcmp(r->name.ptr, name.ptr, name.len) == 0))
            return r;
    }
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        mv_eval_row *rows = mv_realloc(NULL, v->rows, v->cap * sizeof *rows, cap * sizeof *rows);
        if (rows == NULL)
            return NULL;
        v->rows = rows;
        v->cap = cap;
    }
    mv_eval_row *r = &v->rows[v->n++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->name = name;
    return r;
}

static int mvstr_cmp(mv_str a, mv_str b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n > 0 ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0)
        return c;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

static int row_cmp(const void *pa, const void *pb) {
    const mv_eval_row *a = pa, *b = pb;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return mvstr_cmp(a->name, b->name);
}

static int parity_cmp(const void *pa, const void *pb) {
    const mv_eval_parity *a = pa, *b = pb;
    int c = mvstr_cmp(a->family, b->family);
    return c != 0 ? c : mvstr_cmp(a->variant, b->variant);
}

/* Count every entry (or only holdout ones) into `sec`. */
static int build_section(mv_eval *ev, mv_eval_section *sec, bool holdout_only) {
    int rc = MV_ENOMEM;
    row_vec v = {0};
    for (size_t i = 0; i < ev->n_entries; i++) {
        const mv_eval_entry *en = &ev->entries[i];
        if (holdout_only && !en->holdout)
            continue;
        metrics_count(&sec->overall, en);
        mv_eval_row *r = NULL;
        if (en->malicious)
            r = row_get(&v, MV_EVAL_ROW_MALICIOUS, en->category);
        else if (en->hard_negative)
            r = row_get(&v, MV_EVAL_ROW_HARD_NEGATIVE, en->resembles);
        else
            r = row_get(&v, MV_EVAL_ROW_BENIGN, en->category);
        if (r == NULL)
            goto done;
        metrics_count(&r->m, en);
    }
    metrics_finish(&sec->overall);
    if (v.n > 0)
        qsort(v.rows, v.n, sizeof *v.rows, row_cmp);
    for (size_t i = 0; i < v.n; i++) {
        mv_eval_row *r = &v.rows[i];
        metrics_finish(&r->m);
        if (r->kind == MV_EVAL_ROW_MALICIOUS) {
            r->check_id = mv_eval_category_check(r->name.ptr, r->name.len);
            r->check_registered = mv_eval_check_registered(ev, r->check_id);
            r->enforced =
                r->check_id == NULL || r->check_registered || check_is_builtin(r->check_id);
        }
    }
    sec->rows = mv_arena_calloc(ev->arena, v.n + 1, sizeof *sec->rows);
    if (sec->rows == NULL)
        goto done;
    if (v.n > 0)
        memcpy(sec->rows, v.rows, v.n * sizeof *v.rows);
    sec->n_rows = v.n;
    rc = MV_OK;
done:
    mv_free(NULL, v.rows, v.cap * sizeof *v.rows);
    return rc;
}

static int build_parity(mv_eval *ev) {
    size_t n = 0;
    int rc = MV_ENOMEM;
    mv_eval_parity *p = mv_arena_calloc(ev->arena, ev->n_entries + 1, sizeof *p);
    if (p == NULL)
        goto done;
    for (size_t i = 0; i < ev->n_entries; i++) {
        const mv_eval_entry *en = &ev->entries[i];
        if (!en->malicious || !mv_eval_str_eq(en->category, "phrase_injection") ||
            en->family.len == 0 || en->variant.len == 0)
            continue;
        size_t k = 0;
        while (k < n && (mvstr_cmp(p[k].family, en->family) != 0 ||
                         mvstr_cmp(p[k].variant, en->variant) != 0))
            k++;
        if (k == n) {
            p[n].family = en->family;
            p[n].variant = en->variant;
            n++;
        }
        p[k].total++;
        p[k].caught_any += en->verdict >= MV_VERDICT_REVIEW;
        p[k].caught_quarantine += en->verdict == MV_VERDICT_QUARANTINE;
    }
    for (size_t k = 0; k < n; k++)
        p[k].recall_any = ratio(p[k].caught_any, p[k].total);
    if (n > 0)
        qsort(p, n, sizeof *p, parity_cmp);
    ev->parity = p;
    ev->n_parity = n;
    rc = MV_OK;
done:
    return rc;
}

/* --------------------------------------------------------------- scanning */

/* Where an entry's tools live. */
typedef struct entry_ref {
    const mv_toolset *set;
    const mv_corpus_entry *ce;
} entry_ref;

typedef struct eval_job {
    const mv_engine *engine;
    const entry_ref *refs;
    mv_eval_entry *entries;
    const char **check_slots; /* width per entry */
    size_t width;
    size_t n;
    size_t next;
    int rc;
    mv_error err;
    pthread_mutex_t lock;
} eval_job;

/* Copy a finding's outcome into an entry (check ids into its slot). */
static void record(mv_eval_entry *en, const mv_finding *f, bool degraded, const char **slot,
                   size_t width) {
    en->verdict = f->verdict;
    en->severity = f->severity;
    en->confidence = f->confidence;
    en->risk = f->risk;
    en->degraded = degraded;
    size_t n = f->n_checks < width ? f->n_checks : width;
    for (size_t i = 0; i < n; i++)
        slot[i] = f->checks[i];
    en->checks = slot;
    en->n_checks = (uint32_t)n;
}

static int scan_one(const eval_job *job, size_t index, mv_error *err) {
    const entry_ref *ref = &job->refs[index];
    const mv_corpus_entry *ce = ref->ce;
    mv_registry *reg = NULL;
    mv_scan *scan = NULL;
    int rc = MV_ENOMEM;

    reg = mv_registry_new(NULL);
    if (reg == NULL)
        goto done;
    rc = mv_registry_add(reg, &ref->set->tools[ce->tool]);
    for (uint32_t k = 0; rc == MV_OK && k < ce->n_peers; k++)
        rc = mv_registry_add(reg, &ref->set->tools[ce->first_peer + k]);
    if (rc == MV_OK)
        rc = mv_registry_freeze(reg);
    if (rc != MV_OK) {
        mv_error_set(err, rc, "eval: cannot build the registry of entry %zu", index);
        goto done;
    }
    rc = mv_scan_new(&scan, job->engine, reg, err);
    if (rc == MV_OK)
        rc = mv_scan_run(scan, 1, err);
    if (rc != MV_OK)
        goto done;
    const mv_finding *f = mv_scan_finding(scan, 0);
    const mv_coverage *cov = mv_scan_coverage(scan);
    if (f == NULL || cov == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "eval: the scan of entry %zu gave no finding", index);
        goto done;
    }
    record(&job->entries[index], f, cov->degraded, &job->check_slots[index * job->width],
           job->width);
done:
    mv_scan_free(scan);
    mv_registry_free(reg);
    return rc;
}

static void *worker(void *arg) {
    eval_job *job = arg;
    mv_error err;
    mv_error_clear(&err);
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t index = job->next;
        bool stop = job->rc != MV_OK || index >= job->n;
        if (!stop)
            job->next++;
        pthread_mutex_unlock(&job->lock);
        if (stop)
            break;
        int rc = scan_one(job, index, &err);
        if (rc != MV_OK) {
            pthread_mutex_lock(&job->lock);
            if (job->rc == MV_OK) {
                job->rc = rc;
                job->err = err;
            }
            pthread_mutex_unlock(&job->lock);
            break;
        }
    }
    return NULL;
}

static int run_per_entry(eval_job *job, unsigned jobs, mv_error *err) {
    pthread_t *threads = NULL;
    size_t started = 0;
    int rc = MV_OK;
    size_t n_threads = jobs > 1 ? jobs : 1;
    if (n_threads > job->n)
        n_threads = job->n > 0 ? job->n : 1;
    if (n_threads > 1) {
        threads = mv_calloc(NULL, n_threads - 1, sizeof *threads);
        if (threads == NULL) {
            rc = mv_error_set(err, MV_ENOMEM, "eval: out of memory");
            goto done;
        }
        /* Fewer threads than asked only makes the eval slower, never different. */
        while (started < n_threads - 1 && pthread_create(&threads[started], NULL, worker, job) == 0)
            started++;
    }
    worker(job);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    rc = job->rc;
    if (rc != MV_OK && err != NULL)
        *err = job->err;
done:
    mv_free(NULL, threads, (n_threads > 1 ? n_threads - 1 : 0) * sizeof *threads);
    return rc;
}

static int run_whole_registry(eval_job *job, const mv_toolset *const *sets, size_t n_sets,
                              unsigned jobs, bool *degraded, mv_error *err) {
    mv_registry *reg = NULL;
    mv_scan *scan = NULL;
    size_t *base = NULL;
    int rc = MV_ENOMEM;

    base = mv_calloc(NULL, n_sets + 1, sizeof *base);
    reg = mv_registry_new(NULL);
    if (base == NULL || reg == NULL) {
        mv_error_set(err, rc, "eval: out of memory");
        goto done;
    }
    rc = MV_OK;
    size_t next = 0;
    for (size_t s = 0; rc == MV_OK && s < n_sets; s++) {
        base[s] = next;
        for (size_t t = 0; rc == MV_OK && t < sets[s]->n_tools; t++, next++)
            rc = mv_registry_add(reg, &sets[s]->tools[t]);
    }
    if (rc == MV_OK)
        rc = mv_registry_freeze(reg);
    if (rc != MV_OK) {
        mv_error_set(err, rc, "eval: cannot build the whole registry");
        goto done;
    }
    rc = mv_scan_new(&scan, job->engine, reg, err);
    if (rc == MV_OK)
        rc = mv_scan_run(scan, jobs, err);
    if (rc != MV_OK)
        goto done;
    const mv_coverage *cov = mv_scan_coverage(scan);
    *degraded = cov != NULL && cov->degraded;
    for (size_t i = 0; i < job->n; i++) {
        const entry_ref *ref = &job->refs[i];
        size_t s = 0;
        while (sets[s] != ref->set)
            s++;
        const mv_finding *f = mv_scan_finding(scan, base[s] + ref->ce->tool);
        if (f == NULL) {
            rc = mv_error_set(err, MV_EINVAL, "eval: no finding for entry %zu", i);
            goto done;
        }
        bool tool_degraded = f->n_failed_checks > 0 || f->n_caps > 0;
        record(&job->entries[i], f, tool_degraded, &job->check_slots[i * job->width], job->width);
    }
done:
    mv_scan_free(scan);
    mv_registry_free(reg);
    mv_free(NULL, base, (n_sets + 1) * sizeof *base);
    return rc;
}

/* ------------------------------------------------------------------- API */

static int validate(const mv_toolset *const *sets, size_t n_sets, size_t *n_entries,
                    mv_error *err) {
    size_t total = 0;
    for (size_t s = 0; s < n_sets; s++) {
        const mv_toolset *set = sets[s];
        if (set == NULL || set->kind != MV_INPUT_CORPUS)
            return mv_error_set(err, MV_EINVAL, "eval: %.*s is not a labeled corpus",
                                set != NULL ? (int)(set->source.len > 200 ? 200 : set->source.len)
                                            : 6,
                                set != NULL ? set->source.ptr : "(null)");
        for (size_t i = 0; i < set->n_entries; i++) {
            const mv_corpus_entry *ce = &set->entries[i];
            if (ce->tool >= set->n_tools || ce->first_peer > set->n_tools ||
                ce->n_peers > set->n_tools - ce->first_peer)
                return mv_error_set(err, MV_EINVAL, "eval: entry %zu refers to a missing tool", i);
        }
        total += set->n_entries;
    }
    if (total == 0)
        return mv_error_set(err, MV_EINVAL, "eval: the corpus has no entries");
    *n_entries = total;
    return MV_OK;
}

void mv_eval_free(mv_eval *ev) {
    if (ev == NULL)
        return;
    mv_arena *arena = ev->arena;
    mv_free(NULL, ev, sizeof *ev);
    mv_arena_free(arena);
}

int mv_eval_run(mv_eval **out, const mv_engine *e, const mv_toolset *const *sets, size_t n_sets,
                const mv_eval_options *opts, mv_error *err) {
    static const mv_eval_options defaults = {MV_EVAL_PER_ENTRY, 1};
    mv_eval *ev = NULL;
    entry_ref *refs = NULL;
    eval_job job;
    size_t n = 0;
    int rc = MV_EINVAL;

    memset(&job, 0, sizeof job);
    if (out == NULL || e == NULL || (sets == NULL && n_sets > 0)) {
        mv_error_set(err, rc, "eval: missing engine or corpus");
        goto done;
    }
    *out = NULL;
    if (opts == NULL)
        opts = &defaults;
    rc = validate(sets, n_sets, &n, err);
    if (rc != MV_OK)
        goto done;

    rc = MV_ENOMEM;
    ev = mv_calloc(NULL, 1, sizeof *ev);
    if (ev == NULL || (ev->arena = mv_arena_new(NULL, 0)) == NULL) {
        mv_error_set(err, rc, "eval: out of memory");
        goto done;
    }
    ev->mode = opts->mode;
    ev->n_sources = n_sets;
    ev->n_check_ids = mv_engine_check_count(e);
    const char **ids = mv_arena_calloc(ev->arena, ev->n_check_ids + 1, sizeof *ids);
    ev->entries = mv_arena_calloc(ev->arena, n, sizeof *ev->entries);
    job.width = ev->n_check_ids;
    job.check_slots = mv_arena_calloc(ev->arena, n * job.width + 1, sizeof *job.check_slots);
    refs = mv_calloc(NULL, n, sizeof *refs);
    if (ids == NULL || ev->entries == NULL || job.check_slots == NULL || refs == NULL) {
        mv_error_set(err, rc, "eval: out of memory");
        goto done;
    }
    for (size_t i = 0; i < ev->n_check_ids; i++)
        ids[i] = mv_engine_check_id(e, i);
    ev->check_ids = ids;

    size_t k = 0;
    for (size_t s = 0; s < n_sets; s++) {
        const mv_toolset *set = sets[s];
        bool holdout = is_holdout(set->source);
        for (size_t i = 0; i < set->n_entries; i++, k++) {
            const mv_corpus_entry *ce = &set->entries[i];
            const mv_tool *tool = &set->tools[ce->tool];
            mv_eval_entry *en = &ev->entries[k];
            refs[k].set = set;
            refs[k].ce = ce;
            en->id = ce->id;
            en->label = ce->label;
            en->category = ce->category;
            en->resembles = ce->resembles;
            en->family = ce->family;
            en->variant = ce->variant;
            en->expected = ce->expected;
            en->server = tool->server;
            en->tool = tool->name;
            en->source = set->source;
            en->malicious = ce->malicious;
            en->hard_negative = !ce->malicious && mv_eval_str_eq(ce->category, "hard_negative");
            en->holdout = holdout;
            ev->has_holdout = ev->has_holdout || holdout;
        }
    }
    ev->n_entries = n;

    job.engine = e;
    job.refs = refs;
    job.entries = ev->entries;
    job.n = n;
    if (pthread_mutex_init(&job.lock, NULL) != 0) {
        rc = mv_error_set(err, MV_ENOMEM, "eval: cannot create a lock");
        goto done;
    }
    bool whole_degraded = false;
    if (opts->mode == MV_EVAL_WHOLE_REGISTRY)
        rc = run_whole_registry(&job, sets, n_sets, opts->jobs, &whole_degraded, err);
    else
        rc = run_per_entry(&job, opts->jobs, err);
    pthread_mutex_destroy(&job.lock);
    if (rc != MV_OK)
        goto done;

    for (size_t i = 0; i < n; i++)
        ev->degraded_entries += ev->entries[i].degraded;
    ev->degraded = whole_degraded || ev->degraded_entries > 0;
    rc = build_section(ev, &ev->all, false);
    if (rc == MV_OK && ev->has_holdout)
        rc = build_section(ev, &ev->holdout, true);
    if (rc == MV_OK)
        rc = build_parity(ev);
    if (rc != MV_OK) {
        mv_error_set(err, rc, "eval: out of memory");
        goto done;
    }
    *out = ev;
    ev = NULL;
done:
    mv_free(NULL, refs, n * sizeof *refs);
    mv_eval_free(ev);
    return rc;
}

int mv_eval_render(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *opts,
                   mv_error *err) {
    static const mv_eval_render_options defaults = {MV_REPORT_TEXT, false, NULL};
    mv_arena *arena = NULL;
    bool failed = false;
    int rc = MV_EINVAL;
    if (out == NULL || ev == NULL) {
        mv_error_set(err, rc, "eval: nothing to render");
        goto done;
    }
    if (opts == NULL)
        opts = &defaults;
    arena = mv_arena_new(NULL, 0);
    if (arena == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "eval: out of memory");
        goto done;
    }
    if (opts->format == MV_REPORT_TEXT) {
        rc = mv_eval_render_text(out, ev, opts, arena, &failed);
    } else if (opts->format == MV_REPORT_JSON) {
        rc = mv_eval_render_json(out, ev, opts, arena, &failed);
    } else {
        mv_error_set(err, rc, "eval: the scorecard is available as text or json, not %s",
                     mv_report_format_name(opts->format));
        goto done;
    }
    if (rc == MV_OK && (failed || out->failed))
        rc = MV_ENOMEM;
    if (rc != MV_OK)
        mv_error_set(err, rc, "eval: %s", mv_strerror(rc));
done:
    mv_arena_free(arena);
    return rc;
}
