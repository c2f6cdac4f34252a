/*
 * The engine: runs every registered check over every tool of a registry, in
 * a fixed order, and turns what they emit into per-tool findings and a
 * coverage record. It isolates failures (a failing check loses only its own
 * signals for that tool), enforces caps and records every cap it hits, and
 * keeps output deterministic whatever the number of worker threads: tool i
 * always lands in slot i and signals are sorted before aggregation.
 */
#include "mcpvet/engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "checks/builtin.h"
#include "mcpvet/aggregate.h"
#include "memo.h"
#include "tail.h"
#include "mcpvet/arena.h"
#include "mcpvet/evidence.h"

/* Cap on cap records kept in a scan; the rest are only counted. */
#define MAX_CAP_RECORDS 1000u
/* Tools handed to a worker at a time: small enough to balance load. */
#define WORK_CHUNK 32u
#define MAX_JOBS 256u

typedef struct engine_check {
    const mv_check *check;
    void *state;
    int init_rc;
    bool tool_memo; /* listed in mv_tool_memo_checks */
} engine_check;

struct mv_engine {
    const mv_allocator *alloc;
    mv_engine_limits limits;
    mv_tail *tail; /* cue automaton for the windows of fields past the field cap */
    engine_check *checks;
    size_t n_checks, cap_checks;
    bool no_field_memo;
};

/* ----------------------------------------------------------------- names */

const char *mv_tier_name(mv_tier tier) {
    switch (tier) {
    case MV_TIER_HARD:
        return "hard";
    case MV_TIER_SOFT:
        return "soft";
    default:
        return "info";
    }
}

const char *mv_threat_name(mv_threat threat) {
    static const char *const names[MV_THREAT_COUNT] = {"tool_poisoning", "prompt_injection",
                                                       "rug_pull",       "exfiltration",
                                                       "malicious_code", "uncategorized"};
    return (threat >= 0 && threat < MV_THREAT_COUNT) ? names[threat] : "uncategorized";
}

const char *mv_severity_name(mv_severity s) {
    static const char *const names[] = {"none", "low", "medium", "high", "critical"};
    return (s >= MV_SEVERITY_NONE && s <= MV_SEVERITY_CRITICAL) ? names[s] : "none";
}

const char *mv_verdict_name(mv_verdict v) {
    static const char *const names[] = {"clean", "review", "quarantine"};
    return (v >= MV_VERDICT_CLEAN && v <= MV_VERDICT_QUARANTINE) ? names[v] : "clean";
}

const char *mv_threat_level_name(mv_threat_level l) {
    static const char *const names[] = {"none", "warning", "dangerous"};
    return (l >= MV_LEVEL_NONE && l <= MV_LEVEL_DANGEROUS) ? names[l] : "none";
}

const char *mv_field_kind_name(mv_field_kind kind) {
    static const char *const names[MV_FIELD_KIND_COUNT] = {
        "name",         "title",      "description", "property_name", "schema_description",
        "schema_value", "annotation", "other"};
    return (kind >= 0 && kind < MV_FIELD_KIND_COUNT) ? names[kind] : "other";
}

const char *mv_item_kind_name(mv_item_kind kind) {
    static const char *const names[MV_ITEM_KIND_COUNT] = {
        "tool", "prompt", "resource", "resource_template", "instructions"};
    return (kind >= 0 && kind < MV_ITEM_KIND_COUNT) ? names[kind] : "tool";
}

/* ---------------------------------------------------------------- engine */

#define MAX_BUILTIN_CHECKS 16
static const char *builtin_ids[MAX_BUILTIN_CHECKS + 1];
static pthread_once_t builtin_ids_once = PTHREAD_ONCE_INIT;

/* The ids live in the check tables of other files, which are not constant
 * expressions in C, so the list is filled once, race-free. */
static void fill_builtin_ids(void) {
    size_t n = 0;
    for (; mv_builtin_checks[n] != NULL && n < MAX_BUILTIN_CHECKS; n++)
        builtin_ids[n] = mv_builtin_checks[n]->id;
    builtin_ids[n] = NULL;
}

const char *const *mv_builtin_check_ids(void) {
    pthread_once(&builtin_ids_once, fill_builtin_ids);
    return builtin_ids;
}

static uint32_t or_default(uint32_t v, uint32_t d) {
    return v == 0 ? d : v;
}

static bool is_disabled(const mv_engine_options *o, const char *id) {
    for (size_t i = 0; o != NULL && i < o->n_disabled; i++)
        if (o->disabled[i] != NULL && strcmp(o->disabled[i], id) == 0)
            return true;
    return false;
}

static int push_check(mv_engine *e, const mv_check *check) {
    if (e->n_checks == e->cap_checks) {
        size_t cap = e->cap_checks == 0 ? 8 : e->cap_checks * 2;
        engine_check *p =
            mv_realloc(e->alloc, e->checks, e->cap_checks * sizeof(*p), cap * sizeof(*p));
        if (p == NULL)
            return MV_ENOMEM;
        e->checks = p;
        e->cap_checks = cap;
    }
    engine_check *ec = &e->checks[e->n_checks++];
    ec->check = check;
    ec->state = NULL;
    ec->tool_memo = false;
    for (size_t k = 0; mv_tool_memo_checks[k] != NULL; k++)
        ec->tool_memo = ec->tool_memo || mv_tool_memo_checks[k] == check;
    ec->init_rc = check->init != NULL ? check->init(e->alloc, &ec->state) : MV_OK;
    if (ec->init_rc != MV_OK)
        ec->state = NULL;
    return MV_OK;
}

int mv_engine_new(mv_engine **out, const mv_engine_options *opts, mv_error *err) {
    int rc = MV_OK;
    mv_engine *e = NULL;
    const mv_allocator *a =
        (opts != NULL && opts->allocator != NULL) ? opts->allocator : mv_allocator_default();
    if (out == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_engine_new: NULL output");
    *out = NULL;
    /* Every disabled id must name a builtin: a typo must not silently run all. */
    for (size_t i = 0; opts != NULL && i < opts->n_disabled; i++) {
        bool known = false;
        for (size_t k = 0; mv_builtin_checks[k] != NULL; k++)
            if (opts->disabled[i] != NULL &&
                strcmp(mv_builtin_checks[k]->id, opts->disabled[i]) == 0)
                known = true;
        if (!known)
            return mv_error_set(err, MV_EINVAL, "unknown check id '%s'",
                                opts->disabled[i] != NULL ? opts->disabled[i] : "(null)");
    }
    e = mv_calloc(a, 1, sizeof(*e));
    if (e == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory creating the engine");
        goto done;
    }
    e->alloc = a;
    e->no_field_memo = opts != NULL && opts->no_field_memo;
    if (mv_tail_new(&e->tail, a) != MV_OK) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory creating the engine");
        goto done;
    }
    const mv_engine_limits *l = opts != NULL ? &opts->limits : NULL;
    e->limits.max_signals_per_tool =
        or_default(l ? l->max_signals_per_tool : 0, MV_DEFAULT_MAX_SIGNALS_PER_TOOL);
    e->limits.max_evidence_bytes =
        or_default(l ? l->max_evidence_bytes : 0, MV_DEFAULT_MAX_EVIDENCE_BYTES);
    e->limits.max_detail_bytes =
        or_default(l ? l->max_detail_bytes : 0, MV_DEFAULT_MAX_DETAIL_BYTES);
    e->limits.max_normalize_bytes =
        or_default(l ? l->max_normalize_bytes : 0, MV_DEFAULT_MAX_NORMALIZE_BYTES);
    if (e->limits.max_evidence_bytes < 16)
        e->limits.max_evidence_bytes = 16;
    if (e->limits.max_detail_bytes < 16)
        e->limits.max_detail_bytes = 16;
    if (opts == NULL || !opts->no_builtin_checks) {
        for (size_t k = 0; mv_builtin_checks[k] != NULL; k++) {
            if (is_disabled(opts, mv_builtin_checks[k]->id))
                continue;
            rc = push_check(e, mv_builtin_checks[k]);
            if (rc != MV_OK) {
                mv_error_set(err, rc, "out of memory registering checks");
                goto done;
            }
        }
    }
done:
    if (rc != MV_OK) {
        mv_engine_free(e);
        e = NULL;
    }
    *out = e;
    return rc;
}

void mv_engine_free(mv_engine *e) {
    if (e == NULL)
        return;
    for (size_t i = 0; i < e->n_checks; i++)
        if (e->checks[i].check->fini != NULL && e->checks[i].init_rc == MV_OK)
            e->checks[i].check->fini(e->alloc, e->checks[i].state);
    mv_free(e->alloc, e->checks, e->cap_checks * sizeof(*e->checks));
    mv_tail_free(e->tail);
    mv_free(e->alloc, e, sizeof(*e));
}

int mv_engine_add_check(mv_engine *e, const mv_check *check, mv_error *err) {
    if (e == NULL || check == NULL || check->id == NULL || check->inspect == NULL)
        return mv_error_set(err, MV_EINVAL, "a check needs an id and an inspect function");
    if (e->n_checks >= UINT16_MAX)
        return mv_error_set(err, MV_EINVAL, "too many checks");
    for (size_t i = 0; i < e->n_checks; i++)
        if (strcmp(e->checks[i].check->id, check->id) == 0)
            return mv_error_set(err, MV_EINVAL, "duplicate check id '%s'", check->id);
    int rc = push_check(e, check);
    if (rc != MV_OK)
        mv_error_set(err, rc, "out of memory registering check '%s'", check->id);
    return rc;
}

size_t mv_engine_check_count(const mv_engine *e) {
    return e == NULL ? 0 : e->n_checks;
}

const char *mv_engine_check_id(const mv_engine *e, size_t index) {
    return (e == NULL || index >= e->n_checks) ? NULL : e->checks[index].check->id;
}

/* ------------------------------------------------------------------ scan */

/* Worker-local results: arenas and records that outlive the worker. */
typedef struct worker {
    mv_arena *results; /* signals, strings, id lists of findings */
    mv_arena *scratch; /* per tool, reset after each */
    mv_normalizer *normalizer;
    mv_fmemo *memo; /* the checks' per-field results (NULL: off) */
    uint32_t *fids; /* this tool's field text ids in the memo, + 1 (0 unknown) */
    uint64_t fids_gen;
    uint32_t cap_at; /* signals of the tool when its last cap was recorded */
    char *memo_buf;  /* a record being kept */
    size_t memo_buf_cap;
    /* The tool memo's key of the tool being scanned (tool_memo_key). */
    char *tkey;
    size_t tkey_len, tkey_cap;
    uint32_t tkey_id;
    uint64_t tkey_gen;
    int tkey_state; /* 0: not built for this tool, 1: tkey_id valid in tkey_gen, -1: none */
    mv_cap_record *caps;
    size_t n_caps, cap_caps;
    uint64_t *check_failures; /* per check */
    int rc;                   /* first fatal error (out of memory) */
} worker;

struct mv_scan {
    const mv_engine *engine;
    const mv_registry *registry;
    const mv_allocator *alloc;
    void **registry_state; /* per check */
    int *prepare_rc;       /* per check */
    mv_finding *findings;  /* the window [win_begin, win_end) of the registry */
    size_t n_findings;     /* tools in the registry */
    size_t win_begin, win_end, win_cap;
    worker *workers;
    size_t n_workers;
    atomic_size_t next_tool;
    size_t range_end; /* workers stop here */
    bool ran;
    bool streamed;       /* ran range by range: only the last range's findings remain */
    size_t scanned;      /* tools scanned by mv_scan_run_range so far */
    mv_scan_summary sum; /* accumulated over the ranges */
    /* Merged results. */
    mv_coverage coverage;
    const char **failed_ids;
    mv_cap_record *caps;
    size_t n_caps;
};

struct mv_emitter {
    const mv_engine *engine;
    worker *w;
    const mv_tool *tool;   /* what the checks see: the tool, plus tail windows */
    uint32_t model_fields; /* fields of the tool itself; the rest are windows */
    uint32_t tool_index;
    uint16_t check_index;
    mv_signal *signals; /* scratch array of max_signals_per_tool */
    uint32_t *n_signals;
    bool *signal_cap_hit;
};

static int add_cap(worker *w, const mv_allocator *a, const char *cap, const char *check_id,
                   uint64_t limit, uint64_t observed, int64_t tool_index) {
    if (w->n_caps == w->cap_caps) {
        size_t cap_n = w->cap_caps == 0 ? 16 : w->cap_caps * 2;
        mv_cap_record *p = mv_realloc(a, w->caps, w->cap_caps * sizeof(*p), cap_n * sizeof(*p));
        if (p == NULL)
            return MV_ENOMEM;
        w->caps = p;
        w->cap_caps = cap_n;
    }
    w->caps[w->n_caps++] = (mv_cap_record){cap, check_id, limit, observed, tool_index};
    return MV_OK;
}

/* Evidence that lies inside one of the tool's own strings and would render
 * unchanged (printable ASCII, no backslash, within the cap) is referenced
 * instead of copied: tool strings outlive the scan by contract, and most
 * evidence (names in collision notes, matched phrases) is exactly that.
 * Saves a copy per signal, which matters at a million tools. */
static bool borrow_evidence(const mv_tool *tool, mv_str ev, uint32_t cap, mv_str *out) {
    if (ev.len == 0 || ev.len > cap)
        return false;
    for (size_t i = 0; i < ev.len; i++) {
        unsigned char c = (unsigned char)ev.ptr[i];
        if (c < 0x20 || c >= 0x7F || c == '\\')
            return false;
    }
    uintptr_t p = (uintptr_t)ev.ptr;
    for (uint32_t f = 0; f < tool->n_fields; f++) {
        uintptr_t b = (uintptr_t)tool->fields[f].text.ptr;
        if (p >= b && p - b <= tool->fields[f].text.len &&
            ev.len <= tool->fields[f].text.len - (p - b)) {
            *out = ev;
            return true;
        }
    }
    return false;
}

int mv_emit(mv_emitter *out, const mv_signal_spec *spec) {
    if (out == NULL || spec == NULL)
        return MV_EINVAL;
    const mv_engine_limits *lim = &out->engine->limits;
    if (*out->n_signals >= lim->max_signals_per_tool) {
        if (!*out->signal_cap_hit) {
            *out->signal_cap_hit = true;
            if (add_cap(out->w, out->engine->alloc, "signals_per_tool", NULL,
                        lim->max_signals_per_tool, 0, out->tool_index) != MV_OK)
                return MV_ENOMEM;
        }
        return MV_ELIMIT;
    }
    mv_signal *s = &out->signals[*out->n_signals];
    memset(s, 0, sizeof(*s));
    s->check_id = out->engine->checks[out->check_index].check->id;
    s->check_index = out->check_index;
    s->tier = spec->tier;
    s->threat = (spec->threat >= 0 && spec->threat < MV_THREAT_COUNT) ? spec->threat
                                                                      : MV_THREAT_UNCATEGORIZED;
    double c = spec->confidence;
    s->confidence = !(c > 0.0) ? 0.0 : (c > 1.0 ? 1.0 : c);
    s->critical = spec->critical;
    s->facets = spec->facets;
    s->hard_if_corroborated = false;
    s->field = (spec->field >= 0 && (uint32_t)spec->field < out->tool->n_fields) ? spec->field : -1;
    s->offset = spec->offset;
    s->length = spec->length;
    if (s->field >= 0 && (uint32_t)s->field >= out->model_fields) {
        /* A tail window: report it as the field it was taken from, at the
         * window's offset in the whole string. */
        const mv_field *win = &out->tool->fields[s->field];
        s->field = (int32_t)win->window_of - 1;
        uint64_t off = win->window_base + spec->offset;
        s->offset = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
    }
    if (s->field >= 0)
        s->field_path = out->tool->fields[s->field].path;
    if (!borrow_evidence(out->tool, spec->evidence, lim->max_evidence_bytes, &s->evidence) &&
        mv_evidence_render(out->w->results, spec->evidence.ptr, spec->evidence.len,
                           lim->max_evidence_bytes, &s->evidence, NULL) != MV_OK)
        return MV_ENOMEM;
    if (mv_evidence_render(out->w->results, spec->detail.ptr, spec->detail.len,
                           lim->max_detail_bytes, &s->detail, NULL) != MV_OK)
        return MV_ENOMEM;
    (*out->n_signals)++;
    return MV_OK;
}

int mv_emit_corroborable(mv_emitter *out, const mv_signal_spec *spec) {
    int rc = mv_emit(out, spec);
    if (rc == MV_OK && spec->tier == MV_TIER_SOFT)
        out->signals[*out->n_signals - 1].hard_if_corroborated = true;
    return rc;
}

void mv_emit_cap(mv_emitter *out, const char *cap, uint64_t limit, uint64_t observed) {
    if (out == NULL || cap == NULL)
        return;
    const char *id = out->engine->checks[out->check_index].check->id;
    out->w->cap_at = *out->n_signals;
    if (add_cap(out->w, out->engine->alloc, cap, id, limit, observed, out->tool_index) != MV_OK &&
        out->w->rc == MV_OK)
        out->w->rc = MV_ENOMEM;
}

/* ------------------------------------------------------ per-field memo */

/* A kept signal, followed by its evidence bytes (mode EV_BYTES) and its
 * detail bytes, both already render-safe. */
enum { EV_FIELD = 1, EV_BYTES = 2 };
typedef struct memo_sig {
    double confidence;
    uint32_t offset, length, facets;
    uint32_t ev_at, ev_len, det_len; /* ev_at: offset in the field (EV_FIELD) */
    int32_t field;                   /* tool records: the signal's field (-1: the whole tool) */
    uint32_t ev_field;               /* tool records: the field the evidence lies in (EV_FIELD) */
    uint8_t tier, threat, critical, hic, ev_mode;
} memo_sig;

typedef struct memo_cap {
    const char *cap; /* static */
    uint64_t limit, observed;
} memo_cap;

typedef struct memo_head {
    uint32_t n_signals, n_caps, data_len;
} memo_head;

/* Shorter fields are not remembered: a lookup and a record cost more than
 * the checks spend on them, and long fields hold most of the bytes. */
#define MEMO_MIN_TEXT 16u

/* Should the per-field memo be used for field `field` of this tool? Only
 * fields of the tool itself that were never cut (a window's or a cut
 * field's text is not all the check reads), of at least MEMO_MIN_TEXT
 * bytes. */
static bool memo_usable(const mv_emitter *out, uint32_t field) {
    const worker *w = out->w;
    if (w->memo == NULL || w->fids == NULL || field >= out->model_fields)
        return false;
    const mv_field *f = &out->tool->fields[field];
    return f->whole_len <= f->text.len && f->text.len >= MEMO_MIN_TEXT &&
           f->text.len <= MV_FMEMO_MAX_TEXT;
}

/* The field's text id in the memo, looked up once per tool; *repeat as
 * mv_fmemo_text says. fids hold id + 1, with the top bit for a repeat. */
#define FID_REPEAT 0x80000000u
static uint32_t memo_text_id(mv_emitter *out, uint32_t field, bool *repeat) {
    worker *w = out->w;
    uint64_t gen = mv_fmemo_generation(w->memo);
    if (gen != w->fids_gen) {
        memset(w->fids, 0, out->model_fields * sizeof(uint32_t));
        w->fids_gen = gen;
    }
    if (w->fids[field] != 0) {
        *repeat = (w->fids[field] & FID_REPEAT) != 0;
        return (w->fids[field] & ~FID_REPEAT) - 1;
    }
    mv_str t = out->tool->fields[field].text;
    uint32_t id = mv_fmemo_text(w->memo, t.ptr, t.len, repeat);
    if (mv_fmemo_generation(w->memo) != w->fids_gen) {
        /* emptied to make room: every other id of this tool is gone */
        memset(w->fids, 0, out->model_fields * sizeof(uint32_t));
        w->fids_gen = mv_fmemo_generation(w->memo);
    }
    if (id != MV_FMEMO_NONE && id < FID_REPEAT - 1)
        w->fids[field] = (id + 1) | (*repeat ? FID_REPEAT : 0u);
    return id;
}

/* Copy n render-safe bytes into the results, NUL-terminated. */
static int results_copy(worker *w, const char *p, size_t n, mv_str *out) {
    char *d = mv_arena_alloc(w->results, n + 1);
    if (d == NULL)
        return MV_ENOMEM;
    if (n > 0)
        memcpy(d, p, n);
    d[n] = '\0';
    *out = (mv_str){d, n};
    return MV_OK;
}

/* mv_emit for a kept signal: the same cap, the same members. */
static int replay_signal(mv_emitter *out, int32_t field, const char *ev_base, const memo_sig *r,
                         const char *ev, const char *det) {
    const mv_engine_limits *lim = &out->engine->limits;
    if (*out->n_signals >= lim->max_signals_per_tool) {
        if (!*out->signal_cap_hit) {
            *out->signal_cap_hit = true;
            if (add_cap(out->w, out->engine->alloc, "signals_per_tool", NULL,
                        lim->max_signals_per_tool, 0, out->tool_index) != MV_OK)
                return MV_ENOMEM;
        }
        return MV_ELIMIT;
    }
    mv_signal *s = &out->signals[*out->n_signals];
    memset(s, 0, sizeof(*s));
    s->check_id = out->engine->checks[out->check_index].check->id;
    s->check_index = out->check_index;
    s->tier = (mv_tier)r->tier;
    s->threat = (mv_threat)r->threat;
    s->confidence = r->confidence;
    s->critical = r->critical != 0;
    s->facets = r->facets;
    s->hard_if_corroborated = r->hic != 0;
    s->field = field;
    s->offset = r->offset;
    s->length = r->length;
    if (field >= 0)
        s->field_path = out->tool->fields[field].path;
    if (r->ev_mode == EV_FIELD)
        s->evidence = (mv_str){ev_base + r->ev_at, r->ev_len};
    else if (results_copy(out->w, ev, r->ev_len, &s->evidence) != MV_OK)
        return MV_ENOMEM;
    if (results_copy(out->w, det, r->det_len, &s->detail) != MV_OK)
        return MV_ENOMEM;
    (*out->n_signals)++;
    return MV_OK;
}

/* Where the kept bytes of record `rec` are. */
static void record_data(const char *rec, mv_memo *m) {
    memo_head h;
    memcpy(&h, rec, sizeof(h));
    const char *p = rec + sizeof(h);
    for (uint32_t i = 0; i < h.n_signals; i++) {
        memo_sig r;
        memcpy(&r, p, sizeof(r));
        p += sizeof(r) + (r.ev_mode == EV_BYTES ? r.ev_len : 0) + r.det_len;
    }
    m->data = p + h.n_caps * sizeof(memo_cap);
    m->len = h.data_len;
}

/* A record kept for a whole tool (tool memo) rather than for one field. */
#define TOOL_RECORD UINT32_MAX

/* Replay a kept record: its caps first (a kept section recorded them
 * before its signals), then its signals. A field record puts every signal
 * on `field`, its evidence an offset into that field's text; a tool record
 * (TOOL_RECORD) keeps each signal's own field and evidence field. */
static int replay(mv_emitter *out, uint32_t field, const char *rec) {
    memo_head h;
    memcpy(&h, rec, sizeof(h));
    const char *p = rec + sizeof(h);
    const char *sigs = p;
    int rc = MV_OK;
    for (uint32_t i = 0; i < h.n_signals; i++) {
        memo_sig r;
        memcpy(&r, p, sizeof(r));
        p += sizeof(r) + (r.ev_mode == EV_BYTES ? r.ev_len : 0) + r.det_len;
    }
    for (uint32_t i = 0; i < h.n_caps; i++) {
        memo_cap c;
        memcpy(&c, p + i * sizeof(c), sizeof(c));
        mv_emit_cap(out, c.cap, c.limit, c.observed);
    }
    p = sigs;
    for (uint32_t i = 0; i < h.n_signals && rc == MV_OK; i++) {
        memo_sig r;
        memcpy(&r, p, sizeof(r));
        const char *ev = p + sizeof(r);
        const char *det = ev + (r.ev_mode == EV_BYTES ? r.ev_len : 0);
        p = det + r.det_len;
        if (field != TOOL_RECORD) {
            rc = replay_signal(out, (int32_t)field, out->tool->fields[field].text.ptr, &r, ev, det);
        } else {
            const char *base =
                r.ev_mode == EV_FIELD ? out->tool->fields[r.ev_field].text.ptr : NULL;
            rc = replay_signal(out, r.field, base, &r, ev, det);
        }
    }
    return rc;
}

int mv_memo_peek(mv_emitter *out, uint32_t field, uint32_t slot, mv_str salt, mv_memo *m) {
    if (m == NULL)
        return MV_EINVAL;
    memset(m, 0, sizeof(*m));
    if (out == NULL || !memo_usable(out, field) || slot > 0xFF)
        return 0;
    bool repeat = false;
    uint32_t id = memo_text_id(out, field, &repeat);
    if (id == MV_FMEMO_NONE || (!repeat && out->tool->fields[field].text.len < MV_FMEMO_KEEP_FIRST))
        return 0; /* a short text seen once gets no record yet (memo.h) */
    uint32_t tag = (uint32_t)out->check_index << 16 | slot << 8 |
                   ((uint32_t)out->tool->fields[field].kind & 0xFFu);
    size_t len = 0;
    const char *rec = mv_fmemo_get(out->w->memo, id, tag, salt.ptr, salt.len, &len);
    if (rec != NULL) {
        m->rec = rec;
        m->field = field;
        record_data(rec, m);
        return 1;
    }
    m->active = true;
    m->gen = mv_fmemo_generation(out->w->memo);
    m->salt = salt;
    m->text = id;
    m->tag = tag;
    m->field = field;
    m->n_signals = *out->n_signals;
    m->n_caps = (uint32_t)out->w->n_caps;
    return 0;
}

int mv_memo_replay(mv_emitter *out, mv_memo *m) {
    if (out == NULL || m == NULL || m->rec == NULL)
        return MV_EINVAL;
    int rc = replay(out, m->field, m->rec);
    return rc == MV_OK ? 1 : rc;
}

int mv_memo_find(mv_emitter *out, uint32_t field, uint32_t slot, mv_str salt, mv_memo *m) {
    int rc = mv_memo_peek(out, field, slot, salt, m);
    return rc == 1 ? mv_memo_replay(out, m) : rc;
}

/* Room for a record of `need` bytes in the worker's buffer (doubling). */
static bool memo_buf_reserve(worker *w, const mv_allocator *alloc, size_t need) {
    if (need <= w->memo_buf_cap)
        return true;
    size_t cap = w->memo_buf_cap ? w->memo_buf_cap : 4096;
    while (cap < need)
        cap *= 2;
    char *nb = mv_realloc(alloc, w->memo_buf, w->memo_buf_cap, cap);
    if (nb == NULL)
        return false;
    w->memo_buf = nb;
    w->memo_buf_cap = cap;
    return true;
}

void mv_memo_keep(mv_emitter *out, mv_memo *m, const void *data, size_t len) {
    if (out == NULL || m == NULL || !m->active)
        return;
    m->active = false;
    worker *w = out->w;
    if (*out->signal_cap_hit || w->rc != MV_OK || m->gen != mv_fmemo_generation(w->memo) ||
        *out->n_signals < m->n_signals || w->n_caps < m->n_caps || len > UINT32_MAX)
        return;
    /* A replay records the caps first: a cap after one of the section's
     * signals would come out of order should a replay stop at the signal
     * cap, so such a section is not kept. */
    if (w->n_caps > m->n_caps && w->cap_at > m->n_signals)
        return;
    const mv_field *f = &out->tool->fields[m->field];
    uintptr_t fb = (uintptr_t)f->text.ptr;
    size_t need = sizeof(memo_head) + (w->n_caps - m->n_caps) * sizeof(memo_cap) + len;
    for (uint32_t i = m->n_signals; i < *out->n_signals; i++) {
        const mv_signal *s = &out->signals[i];
        if (s->field != (int32_t)m->field || s->check_index != out->check_index)
            return; /* another field's signal: not the field's alone */
        uintptr_t ep = (uintptr_t)s->evidence.ptr;
        bool in_field = s->evidence.len > 0 && ep >= fb && ep - fb <= f->text.len &&
                        s->evidence.len <= f->text.len - (ep - fb);
        need += sizeof(memo_sig) + (in_field ? 0 : s->evidence.len) + s->detail.len;
    }
    if (!memo_buf_reserve(w, out->engine->alloc, need))
        return; /* the memo is optional */
    char *rec = w->memo_buf;
    memo_head h = {*out->n_signals - m->n_signals, (uint32_t)(w->n_caps - m->n_caps),
                   (uint32_t)len};
    char *p = rec;
    memcpy(p, &h, sizeof(h));
    p += sizeof(h);
    for (uint32_t i = m->n_signals; i < *out->n_signals; i++) {
        const mv_signal *s = &out->signals[i];
        uintptr_t ep = (uintptr_t)s->evidence.ptr;
        bool in_field = s->evidence.len > 0 && ep >= fb && ep - fb <= f->text.len &&
                        s->evidence.len <= f->text.len - (ep - fb);
        memo_sig r;
        memset(&r, 0, sizeof(r));
        r.confidence = s->confidence;
        r.offset = s->offset;
        r.length = s->length;
        r.facets = s->facets;
        r.ev_mode = in_field ? EV_FIELD : EV_BYTES;
        r.ev_at = in_field ? (uint32_t)(ep - fb) : 0;
        r.ev_len = (uint32_t)s->evidence.len;
        r.det_len = (uint32_t)s->detail.len;
        r.tier = (uint8_t)s->tier;
        r.threat = (uint8_t)s->threat;
        r.critical = s->critical ? 1 : 0;
        r.hic = s->hard_if_corroborated ? 1 : 0;
        memcpy(p, &r, sizeof(r));
        p += sizeof(r);
        if (!in_field && s->evidence.len > 0) {
            memcpy(p, s->evidence.ptr, s->evidence.len);
            p += s->evidence.len;
        }
        if (s->detail.len > 0) {
            memcpy(p, s->detail.ptr, s->detail.len);
            p += s->detail.len;
        }
    }
    for (size_t i = m->n_caps; i < w->n_caps; i++) {
        memo_cap c = {w->caps[i].cap, w->caps[i].limit, w->caps[i].observed};
        memcpy(p, &c, sizeof(c));
        p += sizeof(c);
    }
    if (len > 0)
        memcpy(p, data, len);
    mv_fmemo_put(w->memo, m->gen, m->text, m->tag, m->salt.ptr, m->salt.len, rec, need);
}

/* ------------------------------------------------------------ tool memo */

/* The tool memo (check.h) keeps, for a check listed in mv_tool_memo_checks,
 * the signals and caps its inspect emitted for one tool, keyed by the
 * tool's whole content; a later identical tool replays them. The key is a
 * byte string (tool_memo_key) kept in the per-field memo as a text, so it
 * is compared in full like any field; the records hang off it under a tag
 * no field record has (kind 0xFF). A record is kept only when inspect
 * succeeded, read neither the server name nor the registry, did not reach
 * the signal cap and recorded no cap after one of its signals. */
#define TOOL_MEMO_TAG(check) ((uint32_t)(check) << 16 | 0xFFFFu)

/* Keys are written in place after one reservation (tool_memo_key): these
 * append at p and return the end. */
static char *key_u32(char *p, uint32_t v) {
    memcpy(p, &v, sizeof(v));
    return p + sizeof(v);
}

static char *key_bytes(char *p, const char *s, size_t n) {
    p = key_u32(p, (uint32_t)n);
    if (n > 0)
        memcpy(p, s, n);
    return p + n;
}

/* A string as its length and bytes (mark 0), or as the index of a field
 * whose text is this very string (mark 2): that field is in the key. */
static char *key_str(char *p, const mv_tool *tool, mv_str s) {
    for (uint32_t f = 0; s.len > 0 && f < tool->n_fields; f++)
        if (tool->fields[f].text.ptr == s.ptr && tool->fields[f].text.len == s.len)
            return key_u32(key_u32(p, 2), f);
    return key_bytes(key_u32(p, 0), s.ptr, s.len);
}

/* Keys of tools with more text than this are not made (no tool memo). */
#define TOOL_KEY_MAX ((size_t)1 << 20)

/* Everything a tool-memo check may read of the tool, in one byte string:
 * per field its kind, schema side, parameter, path and text; the
 * parameters; name, title, description and item kind. A field text the
 * memo keeps bytes of from its first sight is named by its text id (mark
 * 1: two ids are equal only when the bytes are); a shorter one, or one not
 * in the memo, is written out. Returns the key's text id, or MV_FMEMO_NONE
 * when the tool cannot use the memo (no memo, tail windows, too long, the
 * memo emptied while the key was made). Made once per tool and generation. */
static uint32_t tool_memo_key(mv_emitter *base, const mv_tool *tool) {
    worker *w = base->w;
    uint64_t gen = mv_fmemo_generation(w->memo);
    if (w->tkey_state != 0 && w->tkey_gen == gen)
        return w->tkey_state > 0 ? w->tkey_id : MV_FMEMO_NONE;
    w->tkey_state = -1;
    w->tkey_gen = gen;
    if (w->memo == NULL || w->fids == NULL || base->tool != tool)
        return MV_FMEMO_NONE; /* tail windows: the view is not the tool */
    /* room for the longest form of every part */
    size_t need = 9 * sizeof(uint32_t) + tool->name.len + tool->title.len + tool->description.len;
    for (uint32_t f = 0; f < tool->n_fields; f++)
        need += 8 * sizeof(uint32_t) + tool->fields[f].path.len + tool->fields[f].text.len;
    for (uint32_t k = 0; k < tool->n_params; k++)
        need += 7 * sizeof(uint32_t) + tool->params[k].name.len + tool->params[k].type.len +
                tool->params[k].description.len;
    if (need > TOOL_KEY_MAX)
        return MV_FMEMO_NONE;
    if (need > w->tkey_cap) {
        size_t cap = w->tkey_cap ? w->tkey_cap : 4096;
        while (cap < need)
            cap *= 2;
        char *nb = mv_realloc(base->engine->alloc, w->tkey, w->tkey_cap, cap);
        if (nb == NULL)
            return MV_FMEMO_NONE; /* the memo is optional */
        w->tkey = nb;
        w->tkey_cap = cap;
    }
    char *p = w->tkey;
    p = key_u32(key_u32(key_u32(p, (uint32_t)tool->kind), tool->n_fields), tool->n_params);
    for (uint32_t f = 0; f < tool->n_fields; f++) {
        const mv_field *fl = &tool->fields[f];
        uint32_t head[4] = {(uint32_t)fl->kind, (uint32_t)fl->schema, (uint32_t)fl->param,
                            fl->window_of};
        memcpy(p, head, sizeof(head));
        p = key_bytes(p + sizeof(head), fl->path.ptr, fl->path.len);
        /* Only texts that keep their bytes from their first sight are
         * named by id: a shorter one would be written out at its first
         * sight and named at the next, and the two keys would differ. */
        bool repeat = false;
        uint32_t id = memo_usable(base, f) && fl->text.len >= MV_FMEMO_KEEP_FIRST
                          ? memo_text_id(base, f, &repeat)
                          : MV_FMEMO_NONE;
        if (id != MV_FMEMO_NONE)
            p = key_u32(key_u32(key_u32(p, 1), id), (uint32_t)fl->text.len);
        else
            p = key_bytes(key_u32(p, 0), fl->text.ptr, fl->text.len);
    }
    for (uint32_t k = 0; k < tool->n_params; k++) {
        const mv_param *pm = &tool->params[k];
        uint32_t flags = (uint32_t)pm->fixed << 6 | (pm->fixed_const ? 32u : 0u) |
                         (uint32_t)pm->schema << 2 | (pm->required ? 2u : 0u) |
                         (pm->has_enum ? 1u : 0u);
        p = key_str(p, tool, pm->name);
        p = key_str(p, tool, pm->type);
        p = key_u32(key_str(p, tool, pm->description), flags);
    }
    p = key_str(p, tool, tool->name);
    p = key_str(p, tool, tool->title);
    p = key_str(p, tool, tool->description);
    w->tkey_len = (size_t)(p - w->tkey);
    if (mv_fmemo_generation(w->memo) != gen)
        return MV_FMEMO_NONE; /* the ids above are of an emptied memo */
    bool repeat = false;
    uint32_t id = mv_fmemo_text(w->memo, w->tkey, w->tkey_len, &repeat);
    if (id == MV_FMEMO_NONE || mv_fmemo_generation(w->memo) != gen ||
        (!repeat && w->tkey_len < MV_FMEMO_KEEP_FIRST))
        return MV_FMEMO_NONE;
    w->tkey_state = 1;
    w->tkey_id = id;
    return id;
}

/* The field whose text holds all of `ev`, or UINT32_MAX. */
static uint32_t evidence_field(const mv_tool *tool, mv_str ev) {
    uintptr_t p = (uintptr_t)ev.ptr;
    for (uint32_t f = 0; ev.len > 0 && f < tool->n_fields; f++) {
        uintptr_t b = (uintptr_t)tool->fields[f].text.ptr;
        if (p >= b && p - b <= tool->fields[f].text.len &&
            ev.len <= tool->fields[f].text.len - (p - b))
            return f;
    }
    return UINT32_MAX;
}

/* Keep what the check emitted since n_signals0 / n_caps0 for the tool key
 * `key` of generation `gen`. */
static void tool_memo_keep(mv_emitter *out, uint32_t key, uint64_t gen, uint32_t n_signals0,
                           size_t n_caps0) {
    worker *w = out->w;
    if (*out->signal_cap_hit || w->rc != MV_OK || gen != mv_fmemo_generation(w->memo) ||
        *out->n_signals < n_signals0 || w->n_caps < n_caps0)
        return;
    if (w->n_caps > n_caps0 && w->cap_at > n_signals0)
        return; /* a cap after a signal: a replay would order them otherwise */
    size_t need = sizeof(memo_head) + (w->n_caps - n_caps0) * sizeof(memo_cap);
    for (uint32_t i = n_signals0; i < *out->n_signals; i++) {
        const mv_signal *s = &out->signals[i];
        bool in_field = evidence_field(out->tool, s->evidence) != UINT32_MAX;
        need += sizeof(memo_sig) + (in_field ? 0 : s->evidence.len) + s->detail.len;
    }
    if (!memo_buf_reserve(w, out->engine->alloc, need))
        return; /* the memo is optional */
    char *p = w->memo_buf;
    memo_head h = {*out->n_signals - n_signals0, (uint32_t)(w->n_caps - n_caps0), 0};
    memcpy(p, &h, sizeof(h));
    p += sizeof(h);
    for (uint32_t i = n_signals0; i < *out->n_signals; i++) {
        const mv_signal *s = &out->signals[i];
        uint32_t ef = evidence_field(out->tool, s->evidence);
        memo_sig r;
        memset(&r, 0, sizeof(r));
        r.confidence = s->confidence;
        r.offset = s->offset;
        r.length = s->length;
        r.facets = s->facets;
        r.field = s->field;
        r.ev_mode = ef != UINT32_MAX ? EV_FIELD : EV_BYTES;
        r.ev_field = ef != UINT32_MAX ? ef : 0;
        r.ev_at =
            ef != UINT32_MAX ? (uint32_t)(s->evidence.ptr - out->tool->fields[ef].text.ptr) : 0;
        r.ev_len = (uint32_t)s->evidence.len;
        r.det_len = (uint32_t)s->detail.len;
        r.tier = (uint8_t)s->tier;
        r.threat = (uint8_t)s->threat;
        r.critical = s->critical ? 1 : 0;
        r.hic = s->hard_if_corroborated ? 1 : 0;
        memcpy(p, &r, sizeof(r));
        p += sizeof(r);
        if (ef == UINT32_MAX && s->evidence.len > 0) {
            memcpy(p, s->evidence.ptr, s->evidence.len);
            p += s->evidence.len;
        }
        if (s->detail.len > 0) {
            memcpy(p, s->detail.ptr, s->detail.len);
            p += s->detail.len;
        }
    }
    for (size_t i = n_caps0; i < w->n_caps; i++) {
        memo_cap c = {w->caps[i].cap, w->caps[i].limit, w->caps[i].observed};
        memcpy(p, &c, sizeof(c));
        p += sizeof(c);
    }
    mv_fmemo_put(w->memo, gen, key, TOOL_MEMO_TAG(out->check_index), NULL, 0, w->memo_buf, need);
}

static int compare_str(mv_str a, mv_str b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n > 0 ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0)
        return c;
    return a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
}

/* Total order on signals so output never depends on emission order. */
static int compare_signals(const void *pa, const void *pb) {
    const mv_signal *a = pa, *b = pb;
    if (a->check_index != b->check_index)
        return a->check_index < b->check_index ? -1 : 1;
    if (a->field != b->field)
        return a->field < b->field ? -1 : 1;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->length != b->length)
        return a->length < b->length ? -1 : 1;
    if (a->tier != b->tier)
        return a->tier > b->tier ? -1 : 1;
    if (a->threat != b->threat)
        return a->threat < b->threat ? -1 : 1;
    if (a->confidence != b->confidence)
        return a->confidence > b->confidence ? -1 : 1;
    if (a->critical != b->critical)
        return a->critical ? -1 : 1;
    int c = compare_str(a->evidence, b->evidence);
    return c != 0 ? c : compare_str(a->detail, b->detail);
}

/* Normalize every field of a tool once, for all checks. Over-long fields
 * are normalized up to the cap and the cap is recorded. */
static int normalize_tool(const mv_scan *s, worker *w, const mv_tool *tool, uint32_t index,
                          mv_norm_text **out) {
    const mv_engine *e = s->engine;
    mv_norm_text *norm = mv_arena_calloc(w->scratch, tool->n_fields + 1, sizeof(*norm));
    if (norm == NULL)
        return MV_ENOMEM;
    for (uint32_t f = 0; f < tool->n_fields; f++) {
        mv_str text = tool->fields[f].text;
        size_t len = text.len;
        if (len > e->limits.max_normalize_bytes) {
            len = e->limits.max_normalize_bytes;
            /* Back up to a character boundary. */
            while (len > 0 && ((unsigned char)text.ptr[len] & 0xC0) == 0x80)
                len--;
            if (add_cap(w, e->alloc, "normalize_bytes", NULL, e->limits.max_normalize_bytes,
                        text.len, index) != MV_OK)
                return MV_ENOMEM;
        }
        int rc = mv_normalize(w->normalizer, w->scratch, text.ptr, len, MV_NORM_DEFAULT, &norm[f]);
        if (rc != MV_OK)
            return rc;
    }
    *out = norm;
    return MV_OK;
}

/* Soft signals that asked for it become hard when another check reported
 * a soft or hard signal for the same tool. Only the original tiers count,
 * so the outcome does not depend on the order of the signals. */
static void corroborate(mv_signal *signals, uint32_t n) {
    bool any = false;
    for (uint32_t i = 0; i < n && !any; i++)
        any = signals[i].hard_if_corroborated;
    if (!any)
        return;
    uint32_t first_check = UINT32_MAX;
    bool several = false; /* non-info signals from more than one check */
    for (uint32_t i = 0; i < n; i++) {
        if (signals[i].tier == MV_TIER_INFO)
            continue;
        if (first_check == UINT32_MAX)
            first_check = signals[i].check_index;
        else if (signals[i].check_index != first_check)
            several = true;
    }
    if (!several)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (signals[i].hard_if_corroborated)
            signals[i].tier = MV_TIER_HARD;
}

#define MAX_TAIL_FIELDS 16u /* cut fields of one tool given tail windows */

/* The tool as the checks see it: when the model cut fields at its field
 * cap, their tails are searched in one linear pass for windows that look
 * like an instruction (tail.h), and those windows are appended as extra
 * fields (same kind and path, window_of set) so that every costly check
 * reads them; signals on them are mapped back in mv_emit. The model's own
 * "field_bytes" record says where the cap applied; windows left out by the
 * limits are recorded as "tail_windows". */
static int tail_view(const mv_scan *s, worker *w, const mv_tool *tool, uint32_t index,
                     const mv_tool **out) {
    const mv_engine *e = s->engine;
    uint32_t cut = 0;
    *out = tool;
    for (uint32_t f = 0; f < tool->n_fields; f++)
        cut += tool->fields[f].whole_len > tool->fields[f].text.len;
    if (cut == 0)
        return MV_OK;
    size_t most = (size_t)tool->n_fields + (size_t)MAX_TAIL_FIELDS * MV_TAIL_WINDOWS;
    mv_field *fields = mv_arena_alloc(w->scratch, most * sizeof(mv_field));
    mv_tool *view = mv_arena_alloc(w->scratch, sizeof(mv_tool));
    if (fields == NULL || view == NULL)
        return MV_ENOMEM;
    memcpy(fields, tool->fields, tool->n_fields * sizeof(mv_field));
    *view = *tool;
    uint32_t n = tool->n_fields, done = 0;
    bool capped = false;
    for (uint32_t f = 0; f < tool->n_fields; f++) {
        const mv_field *fl = &tool->fields[f];
        if (fl->whole_len <= fl->text.len)
            continue;
        if (done++ >= MAX_TAIL_FIELDS) {
            capped = true;
            continue;
        }
        mv_str whole = mv_field_whole(fl);
        mv_tail_window win[MV_TAIL_WINDOWS];
        uint32_t nw = 0;
        bool more = false;
        int rc = mv_tail_windows(e->tail, w->scratch, whole.ptr, whole.len, fl->text.len, win, &nw,
                                 &more);
        if (rc != MV_OK)
            return rc;
        capped |= more;
        for (uint32_t k = 0; k < nw; k++) {
            mv_field *x = &fields[n++];
            *x = *fl;
            x->text = (mv_str){whole.ptr + win[k].start, (size_t)(win[k].end - win[k].start)};
            x->whole_len = 0;
            x->window_of = f + 1;
            x->window_base = win[k].start;
        }
    }
    if (capped && add_cap(w, e->alloc, "tail_windows", NULL, MV_TAIL_WINDOWS, MV_TAIL_WINDOWS + 1,
                          index) != MV_OK)
        return MV_ENOMEM;
    view->fields = fields;
    view->n_fields = n;
    *out = view;
    return MV_OK;
}

static int scan_tool(mv_scan *s, worker *w, uint32_t index) {
    const mv_engine *e = s->engine;
    const mv_tool *tool = mv_registry_tool(s->registry, index);
    mv_finding *fd = &s->findings[index - s->win_begin];
    uint32_t max_signals = e->limits.max_signals_per_tool;
    int rc = MV_OK;

    mv_arena_reset(w->scratch);
    memset(fd, 0, sizeof(*fd));
    fd->tool = tool;
    fd->tool_index = index;
    size_t caps_before = w->n_caps; /* every cap recorded below is this tool's */

    /* Caps the model hit while building this tool degrade the scan too. */
    for (uint32_t c = 0; c < tool->n_caps; c++) {
        rc = add_cap(w, e->alloc, tool->caps[c].cap, NULL, tool->caps[c].limit,
                     tool->caps[c].observed, index);
        if (rc != MV_OK)
            return rc;
    }

    const mv_tool *view = tool;
    rc = tail_view(s, w, tool, index, &view);
    if (rc != MV_OK)
        return rc;

    /* The memo's text ids of this tool's fields, looked up on first use. */
    w->fids = NULL;
    w->tkey_state = 0; /* the tool memo's key: made on first use */
    if (w->memo != NULL) {
        w->fids = mv_arena_calloc(w->scratch, tool->n_fields + 1, sizeof(uint32_t));
        if (w->fids == NULL)
            return MV_ENOMEM;
        w->fids_gen = mv_fmemo_generation(w->memo);
    }

    mv_norm_text *norm = NULL;
    rc = normalize_tool(s, w, view, index, &norm);
    if (rc != MV_OK)
        return rc;

    /* Not zeroed: mv_emit initialises every signal it hands out. */
    mv_signal *signals = mv_arena_alloc(w->scratch, (size_t)max_signals * sizeof(*signals));
    const char **failed = mv_arena_calloc(w->scratch, e->n_checks + 1, sizeof(*failed));
    if (signals == NULL || failed == NULL)
        return MV_ENOMEM;
    uint32_t n_signals = 0, n_failed = 0;
    bool signal_cap_hit = false;

    for (size_t k = 0; k < e->n_checks; k++) {
        const engine_check *ec = &e->checks[k];
        if (ec->init_rc != MV_OK || s->prepare_rc[k] != MV_OK) {
            failed[n_failed++] = ec->check->id;
            w->check_failures[k]++;
            continue;
        }
        mv_emitter em = {e,           w,       view,       tool->n_fields, index,
                         (uint16_t)k, signals, &n_signals, &signal_cap_hit};
        uint32_t reads = 0; /* MV_READ_*: what the check read beyond the tool */
        mv_inspect_ctx ctx = {s->registry,          index,      norm,          ec->state,
                              s->registry_state[k], w->scratch, w->normalizer, &reads};
        uint32_t before = n_signals;
        int crc;
        /* An identical tool seen before replays this check's result (the
         * tool memo above); otherwise inspect runs and may be kept. */
        uint32_t key = ec->tool_memo && w->memo != NULL ? tool_memo_key(&em, tool) : MV_FMEMO_NONE;
        size_t rec_len = 0;
        const char *rec = key != MV_FMEMO_NONE
                              ? mv_fmemo_get(w->memo, key, TOOL_MEMO_TAG(k), NULL, 0, &rec_len)
                              : NULL;
        if (rec != NULL) {
            crc = replay(&em, TOOL_RECORD, rec);
        } else {
            uint64_t gen = mv_fmemo_generation(w->memo);
            size_t caps0 = w->n_caps;
            mv_arena_mark mark = mv_arena_save(w->scratch);
            crc = ec->check->inspect(&ctx, view, &em);
            mv_arena_rewind(w->scratch, mark);
            if (key != MV_FMEMO_NONE && crc == MV_OK && reads == 0)
                tool_memo_keep(&em, key, gen, before, caps0);
        }
        if (crc == MV_ELIMIT && signal_cap_hit)
            crc = MV_OK; /* stopping at the signal cap is not a failure */
        if (crc != MV_OK) {
            n_signals = before; /* a failing check loses only its own signals */
            failed[n_failed++] = ec->check->id;
            w->check_failures[k]++;
        }
        if (w->rc != MV_OK)
            return w->rc;
    }
    fd->n_caps = (uint32_t)(w->n_caps - caps_before);
    corroborate(signals, n_signals);

    qsort(signals, n_signals, sizeof(*signals), compare_signals);
    mv_signal *kept = mv_arena_alloc(w->results, (n_signals + 1) * sizeof(*kept));
    const char **checks = mv_arena_calloc(w->results, e->n_checks + 1, sizeof(*checks));
    const char **failed_kept = mv_arena_calloc(w->results, n_failed + 1, sizeof(*failed_kept));
    if (kept == NULL || checks == NULL || failed_kept == NULL)
        return MV_ENOMEM;
    memcpy(kept, signals, n_signals * sizeof(*kept));
    memcpy(failed_kept, failed, n_failed * sizeof(*failed_kept));

    /* Distinct contributing checks in engine order (signals are sorted). */
    uint32_t n_checks = 0;
    for (uint32_t i = 0; i < n_signals; i++) {
        if (kept[i].tier == MV_TIER_INFO)
            continue;
        if (n_checks == 0 || checks[n_checks - 1] != kept[i].check_id)
            checks[n_checks++] = kept[i].check_id;
    }

    mv_aggregate_result ag;
    mv_aggregate(kept, n_signals, &ag);
    fd->verdict = ag.verdict;
    fd->level = ag.level;
    fd->severity = ag.severity;
    fd->threat = ag.threat;
    fd->confidence = ag.confidence;
    fd->risk = ag.risk;
    fd->danger_class = ag.danger_class;
    fd->danger_basis = ag.danger_basis;
    fd->signals = kept;
    fd->n_signals = n_signals;
    fd->checks = checks;
    fd->n_checks = n_checks;
    fd->failed_checks = failed_kept;
    fd->n_failed_checks = n_failed;
    return MV_OK;
}

static void *worker_main(void *arg) {
    void **pair = arg;
    mv_scan *s = pair[0];
    worker *w = pair[1];
    size_t n = s->range_end;
    for (;;) {
        /* Near a window's end the chunks shrink (to a share of what is
         * left per worker), so the workers reach the join together rather
         * than one waiting for the other's last full chunk. Which worker
         * scans a tool never changes its finding. */
        size_t step = WORK_CHUNK;
        if (s->n_workers > 1) {
            size_t at = atomic_load(&s->next_tool);
            size_t share = at < n ? (n - at) / (2 * s->n_workers) : 0;
            step = share < 1 ? 1 : share < WORK_CHUNK ? share : WORK_CHUNK;
        }
        size_t begin = atomic_fetch_add(&s->next_tool, step);
        if (begin >= n || w->rc != MV_OK)
            break;
        size_t end = begin + step < n ? begin + step : n;
        for (size_t i = begin; i < end && w->rc == MV_OK; i++) {
            int rc = scan_tool(s, w, (uint32_t)i);
            if (rc != MV_OK)
                w->rc = rc;
        }
    }
    return NULL;
}

static void worker_release(const mv_allocator *a, worker *w, size_t n_checks) {
    mv_fmemo_free(w->memo);
    mv_free(a, w->memo_buf, w->memo_buf_cap);
    mv_free(a, w->tkey, w->tkey_cap);
    mv_arena_free(w->results);
    mv_arena_free(w->scratch);
    mv_normalizer_free(w->normalizer);
    mv_free(a, w->caps, w->cap_caps * sizeof(*w->caps));
    mv_free(a, w->check_failures, n_checks * sizeof(uint64_t));
    memset(w, 0, sizeof(*w));
}

static int worker_init(const mv_allocator *a, worker *w, size_t n_checks, bool memo) {
    memset(w, 0, sizeof(*w));
    if (memo && (w->memo = mv_fmemo_new(a)) == NULL)
        return MV_ENOMEM;
    w->results = mv_arena_new(a, 256 * 1024);
    w->scratch = mv_arena_new(a, 256 * 1024);
    w->normalizer = mv_normalizer_new(a);
    w->check_failures = mv_calloc(a, n_checks + 1, sizeof(uint64_t));
    if (w->results == NULL || w->scratch == NULL || w->normalizer == NULL ||
        w->check_failures == NULL)
        return MV_ENOMEM;
    return MV_OK;
}

int mv_scan_new(mv_scan **out, const mv_engine *e, const mv_registry *r, mv_error *err) {
    int rc = MV_OK;
    mv_scan *s = NULL;
    if (out == NULL || e == NULL || r == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_scan_new: NULL argument");
    *out = NULL;
    if (!mv_registry_frozen(r))
        return mv_error_set(err, MV_EINVAL, "the registry must be frozen before a scan");
    s = mv_calloc(e->alloc, 1, sizeof(*s));
    if (s == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    s->engine = e;
    s->registry = r;
    s->alloc = e->alloc;
    s->n_findings = mv_registry_count(r);
    s->registry_state = mv_calloc(e->alloc, e->n_checks + 1, sizeof(void *));
    s->prepare_rc = mv_calloc(e->alloc, e->n_checks + 1, sizeof(int));
    if (s->registry_state == NULL || s->prepare_rc == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t k = 0; k < e->n_checks; k++) {
        const engine_check *ec = &e->checks[k];
        if (ec->init_rc != MV_OK || ec->check->prepare == NULL)
            continue;
        s->prepare_rc[k] = ec->check->prepare(ec->state, r, e->alloc, &s->registry_state[k]);
        if (s->prepare_rc[k] != MV_OK)
            s->registry_state[k] = NULL;
    }
done:
    if (rc != MV_OK) {
        mv_scan_free(s);
        s = NULL;
        mv_error_set(err, rc, "out of memory preparing the scan");
    }
    *out = s;
    return rc;
}

void mv_scan_free(mv_scan *s) {
    if (s == NULL)
        return;
    const mv_engine *e = s->engine;
    for (size_t k = 0; s->registry_state != NULL && k < e->n_checks; k++)
        if (s->registry_state[k] != NULL && e->checks[k].check->release != NULL)
            e->checks[k].check->release(e->alloc, s->registry_state[k]);
    for (size_t i = 0; i < s->n_workers; i++)
        worker_release(s->alloc, &s->workers[i], e->n_checks);
    mv_free(s->alloc, s->workers, s->n_workers * sizeof(*s->workers));
    mv_free(s->alloc, s->registry_state, (e->n_checks + 1) * sizeof(void *));
    mv_free(s->alloc, s->prepare_rc, (e->n_checks + 1) * sizeof(int));
    mv_free(s->alloc, s->findings, (s->win_cap + 1) * sizeof(*s->findings));
    mv_free(s->alloc, s->failed_ids, (e->n_checks + 1) * sizeof(*s->failed_ids));
    mv_free(s->alloc, s->caps, (s->n_caps + 1) * sizeof(*s->caps));
    mv_free(s->alloc, s, sizeof(*s));
}

static int compare_caps(const void *pa, const void *pb) {
    const mv_cap_record *a = pa, *b = pb;
    if (a->tool_index != b->tool_index)
        return a->tool_index < b->tool_index ? -1 : 1;
    int c = strcmp(a->cap, b->cap);
    if (c != 0)
        return c;
    c = strcmp(a->check_id != NULL ? a->check_id : "", b->check_id != NULL ? b->check_id : "");
    if (c != 0)
        return c;
    if (a->limit != b->limit)
        return a->limit < b->limit ? -1 : 1;
    return a->observed < b->observed ? -1 : (a->observed > b->observed ? 1 : 0);
}

/* Merge worker records into the scan's coverage, independent of `jobs`. */
static int build_coverage(mv_scan *s) {
    const mv_engine *e = s->engine;
    mv_coverage *cov = &s->coverage;
    memset(cov, 0, sizeof(*cov));
    s->failed_ids = mv_calloc(s->alloc, e->n_checks + 1, sizeof(*s->failed_ids));
    if (s->failed_ids == NULL)
        return MV_ENOMEM;
    cov->checks_total = (uint32_t)e->n_checks;
    for (size_t k = 0; k < e->n_checks; k++) {
        uint64_t failures = 0;
        for (size_t i = 0; i < s->n_workers; i++)
            failures += s->workers[i].check_failures[k];
        /* A check that could not even start has failed, even on an empty registry. */
        if (e->checks[k].init_rc != MV_OK || s->prepare_rc[k] != MV_OK)
            failures += failures == 0 ? 1 : 0;
        if (failures > 0)
            s->failed_ids[cov->checks_failed++] = e->checks[k].check->id;
        cov->check_failures += failures;
    }
    cov->checks_run = cov->checks_total - cov->checks_failed;
    cov->failed_ids = s->failed_ids;
    cov->tools_scanned = s->n_findings;

    size_t total = 0;
    for (size_t i = 0; i < s->n_workers; i++)
        total += s->workers[i].n_caps;
    s->caps = mv_calloc(s->alloc, total + 1, sizeof(*s->caps));
    if (s->caps == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < s->n_workers; i++) {
        if (s->workers[i].n_caps == 0)
            continue; /* caps may be NULL: memcpy needs a valid pointer */
        memcpy(s->caps + s->n_caps, s->workers[i].caps, s->workers[i].n_caps * sizeof(*s->caps));
        s->n_caps += s->workers[i].n_caps;
    }
    qsort(s->caps, s->n_caps, sizeof(*s->caps), compare_caps);
    cov->caps = s->caps;
    cov->n_caps = (uint32_t)(s->n_caps < MAX_CAP_RECORDS ? s->n_caps : MAX_CAP_RECORDS);
    cov->caps_dropped = s->n_caps - cov->n_caps;
    cov->degraded = cov->checks_failed > 0 || s->n_caps > 0;
    return MV_OK;
}

/* Room for a window of `n` findings (kept across ranges). */
static int reserve_window(mv_scan *s, size_t n) {
    if (s->findings != NULL && n <= s->win_cap)
        return MV_OK;
    mv_finding *f = mv_calloc(s->alloc, n + 1, sizeof(*f));
    if (f == NULL)
        return MV_ENOMEM;
    mv_free(s->alloc, s->findings, (s->win_cap + 1) * sizeof(*s->findings));
    s->findings = f;
    s->win_cap = n;
    return MV_OK;
}

/* The workers, made once per scan: `jobs` of them, fewer when `total` tools
 * do not give each a chunk. */
static int make_workers(mv_scan *s, unsigned jobs, size_t total) {
    if (s->workers != NULL)
        return MV_OK;
    size_t want = jobs == 0 ? 1 : jobs;
    size_t useful = (total + WORK_CHUNK - 1) / WORK_CHUNK;
    if (want > useful)
        want = useful == 0 ? 1 : useful;
    if (want > MAX_JOBS)
        want = MAX_JOBS;
    s->workers = mv_calloc(s->alloc, want, sizeof(*s->workers));
    if (s->workers == NULL)
        return MV_ENOMEM;
    s->n_workers = want;
    for (size_t i = 0; i < want; i++) {
        int rc =
            worker_init(s->alloc, &s->workers[i], s->engine->n_checks, !s->engine->no_field_memo);
        if (rc != MV_OK)
            return rc;
    }
    return MV_OK;
}

/* Scan the tools [begin, end) into the findings window on the workers. */
static int run_window(mv_scan *s, size_t begin, size_t end) {
    int rc = MV_OK;
    size_t want = s->n_workers;
    pthread_t *threads = mv_calloc(s->alloc, want, sizeof(*threads));
    void *(*args)[2] = mv_calloc(s->alloc, want, sizeof(*args));
    if (threads == NULL || args == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    s->win_begin = begin;
    s->win_end = end;
    s->range_end = end;
    atomic_store(&s->next_tool, begin);
    /* Worker 0 runs on the calling thread; extra workers on new threads.
     * If a thread cannot start, the remaining workers simply take its share. */
    size_t started = 0;
    for (size_t i = 1; i < want; i++) {
        args[i][0] = s;
        args[i][1] = &s->workers[i];
        if (pthread_create(&threads[i], NULL, worker_main, args[i]) != 0)
            break;
        started = i;
    }
    args[0][0] = s;
    args[0][1] = &s->workers[0];
    worker_main(args[0]);
    for (size_t i = 1; i <= started; i++)
        pthread_join(threads[i], NULL);
    for (size_t i = 0; i < want; i++)
        if (s->workers[i].rc != MV_OK && rc == MV_OK)
            rc = s->workers[i].rc;
    /* The summary is a sum over tools: the same whatever the ranges. */
    for (size_t i = begin; rc == MV_OK && i < end; i++) {
        const mv_finding *f = &s->findings[i - begin];
        s->sum.tools++;
        if (f->verdict == MV_VERDICT_QUARANTINE)
            s->sum.quarantine++;
        else if (f->verdict == MV_VERDICT_REVIEW)
            s->sum.review++;
        else
            s->sum.clean++;
        if (f->n_caps > 0 || f->n_failed_checks > 0)
            s->sum.partial++;
        if (f->risk > s->sum.risk)
            s->sum.risk = f->risk;
        if (f->verdict > s->sum.worst)
            s->sum.worst = f->verdict;
    }
done:
    mv_free(s->alloc, threads, want * sizeof(*threads));
    mv_free(s->alloc, args, want * sizeof(*args));
    return rc;
}

int mv_scan_run(mv_scan *s, unsigned jobs, mv_error *err) {
    int rc = MV_OK;
    if (s == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_scan_run: NULL scan");
    if (s->ran || s->streamed)
        return mv_error_set(err, MV_EINVAL, "a scan runs once; create a new scan to rescan");
    size_t n = s->n_findings;
    if ((rc = make_workers(s, jobs, n)) != MV_OK || (rc = reserve_window(s, n)) != MV_OK ||
        (rc = run_window(s, 0, n)) != MV_OK || (rc = build_coverage(s)) != MV_OK)
        goto done;
done:
    if (rc != MV_OK)
        return mv_error_set(err, rc, "scan failed: %s", mv_strerror(rc));
    s->ran = true;
    return MV_OK;
}

int mv_scan_run_range(mv_scan *s, size_t begin, size_t end, unsigned jobs, mv_error *err) {
    int rc = MV_OK;
    if (s == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_scan_run_range: NULL scan");
    if (s->ran || (s->streamed && begin != s->scanned) || (!s->streamed && begin != 0) ||
        end < begin || end > s->n_findings)
        return mv_error_set(err, MV_EINVAL,
                            "mv_scan_run_range: ranges must cover the registry in order, once");
    s->streamed = true;
    /* The previous range's findings go: their memory is reused. */
    mv_scan_release_range(s);
    if ((rc = make_workers(s, jobs, s->n_findings)) != MV_OK ||
        (rc = reserve_window(s, end - begin)) != MV_OK || (rc = run_window(s, begin, end)) != MV_OK)
        goto done;
    s->scanned = end;
done:
    if (rc != MV_OK)
        return mv_error_set(err, rc, "scan failed: %s", mv_strerror(rc));
    return MV_OK;
}

void mv_scan_release_range(mv_scan *s) {
    if (s == NULL || !s->streamed || s->ran)
        return;
    for (size_t i = 0; i < s->n_workers; i++)
        mv_arena_reset(s->workers[i].results);
    s->win_begin = s->win_end = 0;
}

int mv_scan_finish(mv_scan *s, mv_error *err) {
    int rc = MV_OK;
    if (s == NULL || s->ran || (s->n_findings > 0 && (!s->streamed || s->scanned != s->n_findings)))
        return mv_error_set(err, MV_EINVAL,
                            "mv_scan_finish: the ranges have not covered the registry");
    mv_scan_release_range(s);
    s->streamed = true;
    if ((rc = make_workers(s, 1, s->n_findings)) != MV_OK || (rc = build_coverage(s)) != MV_OK)
        return mv_error_set(err, rc, "scan failed: %s", mv_strerror(rc));
    s->ran = true;
    return MV_OK;
}

bool mv_scan_streamed(const mv_scan *s) {
    return s != NULL && s->streamed;
}

size_t mv_scan_finding_count(const mv_scan *s) {
    return (s == NULL || (!s->ran && !s->streamed)) ? 0 : s->n_findings;
}

const mv_finding *mv_scan_finding(const mv_scan *s, size_t index) {
    if (s == NULL || (!s->ran && !s->streamed) || index < s->win_begin || index >= s->win_end)
        return NULL;
    return &s->findings[index - s->win_begin];
}

const mv_coverage *mv_scan_coverage(const mv_scan *s) {
    return (s == NULL || !s->ran) ? NULL : &s->coverage;
}

const mv_registry *mv_scan_registry(const mv_scan *s) {
    return s == NULL ? NULL : s->registry;
}

mv_scan_summary mv_scan_summarize(const mv_scan *s) {
    mv_scan_summary sum;
    memset(&sum, 0, sizeof(sum));
    if (s != NULL && (s->ran || s->streamed))
        sum = s->sum;
    return sum;
}
