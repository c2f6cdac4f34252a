/*
 * The guard's decisions: what a list reply may show the agent, whether a
 * tools/call may reach the server, and what a tool's result carries.
 *
 * A list page is scanned with the shared pipeline (a snapshot document of
 * this server: the list being read, plus the last complete list of every
 * other kind, so one scan's removals never touch items of another kind),
 * applied to the approval store as actor "proxy", and each item is decided
 * by the policy from the state the store gives it. The session keeps a view
 * per list (name -> allowed, and why not) that tools/call is decided by.
 *
 * An unchanged list is not scanned again: the engine is pure (the same
 * document gives the same findings), so the last complete scan of each
 * list kind is kept with the exact document the engine read, and a list
 * whose document is the same byte for byte reuses that scan (compared in
 * full rather than by a hash: as exact, and cheaper than hashing it). Only
 * the scan is reused, never a decision: the findings are applied to the
 * store and decided from the states it gives every time (a person may
 * have approved or quarantined something in between).
 *
 * Failing closed: when the scan or the store cannot be used, an item passes
 * only when this session already allowed that exact definition; audit
 * passes everything. Every decision that keeps something from the agent is
 * logged and noted in the store's audit log.
 *
 * Tool results: the text content of a tools/call result is scanned by an
 * engine with only unicode.hidden and payload.decoded (hidden characters
 * and decoded payloads are what text returned by a tool uses to smuggle
 * instructions to the model), text cut into pieces under the model's
 * per-string cap so nothing goes unscanned.
 */
#define _GNU_SOURCE /* gettid: the scan worker lowers its own priority */
#include "proxy/proxy_int.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <utf8proc.h>

#include "json/writer.h"
#include "mcpvet/pipeline.h"
#include "mcpvet/registry.h"
#include "mcpvet/tool.h"

/* Bytes of result text per scanned piece (under the model's 64 KiB field
 * cap, so no piece is cut). */
#define RESULT_PIECE 60000u
/* Items dropped from a list whose definition the model refuses, before
 * the whole list is refused. */
#define MAX_BAD_ITEMS 16
/* Signals kept in a findings summary. */
#define SUMMARY_SIGNALS 8u

static const char *const list_keys[PX_LIST_COUNT] = {"tools", "prompts", "resources",
                                                     "resourceTemplates", "instructions"};
static const char *const list_methods[PX_LIST_COUNT] = {
    "tools/list", "prompts/list", "resources/list", "resources/templates/list", "initialize"};
static const mv_item_kind list_kinds[PX_LIST_COUNT] = {MV_ITEM_TOOL, MV_ITEM_PROMPT,
                                                       MV_ITEM_RESOURCE, MV_ITEM_RESOURCE_TEMPLATE,
                                                       MV_ITEM_INSTRUCTIONS};
/* The one item of PX_INSTRUCTIONS, named as the model names it. */
static const char instructions_name[] = "server_instructions";

const char *px_list_key(px_list l) {
    return list_keys[l];
}
const char *px_list_method(px_list l) {
    return list_methods[l];
}
mv_item_kind px_list_kind(px_list l) {
    return list_kinds[l];
}

/* Item JSON texts of one list, as the server sent them (re-written compact). */
typedef struct px_items {
    mv_buf *v;
    mv_str *names; /* the item's "name" inside v[i] (empty when none) */
    size_t n, cap;
} px_items;

struct scan_job;

/* The queue of results waiting for the scan worker ("Results off the
 * relay's thread" below says who owns what). Fields marked (mu) are read
 * and written under mu; the others belong to the front's thread. */
typedef struct scan_q {
    pthread_mutex_t mu;
    pthread_cond_t work;       /* the worker waits for a job or stop */
    struct scan_job *head;     /* (mu) oldest job not yet recorded */
    struct scan_job *tail;     /* (mu) newest */
    struct scan_job *next;     /* (mu) oldest job the worker has not taken */
    size_t n, bytes;           /* (mu) jobs in the list, their text bytes */
    size_t peak_n, peak_bytes; /* (mu) the most n and bytes ever were */
    bool stop;                 /* (mu) the worker ends once it has taken every job */
    bool signalled;            /* (mu) a byte waits on wake */
    bool started;              /* the worker thread exists */
    bool start_failed;         /* logged once */
    uint64_t behind_next;      /* log the next full queue at this many inline scans */
    pthread_t thread;
    int wake[2]; /* cfg.lock NULL: the worker's "finished scans wait" */
} scan_q;

struct px_guard {
    px_guard_config cfg;
    FILE *log;
    mv_store *store;
    bool own_store;
    bool store_broken; /* the last store operation failed (logged once per episode) */
    /* The store said this session's identity differs from the stored one.
     * Only the first scan of the session hears it (the instructions, at
     * initialize), while the lists decided later are changed by it too. */
    bool identity_changed;
    mv_engine *engine;         /* every check: lists */
    mv_engine *results_engine; /* unicode.hidden and payload.decoded: results */
    bool own_engines;          /* made here (else borrowed from the config) */
    mv_arena *rarena;          /* the tools of one result scan, reset each time */
    bool caps_known;
    bool announced[PX_LIST_COUNT];
    px_items cache[PX_LIST_COUNT]; /* last complete list of each kind */
    bool cached[PX_LIST_COUNT];
    px_items acc[PX_LIST_COUNT][2]; /* pages so far: [0] the agent's, [1] the proxy's */
    px_view view[PX_LIST_COUNT];
    bool stale[PX_LIST_COUNT];
    char *list_failed[PX_LIST_COUNT]; /* why the last refresh failed, or NULL */
    mv_buf msg;                       /* the last message for the agent */
    uint64_t blocked_calls, hidden_items, result_findings;
    /* The last complete scan of each list kind (see the top of the file):
     * the pipeline owns the findings, `memo_doc` is the document it
     * scanned. One entry per kind bounds the memory (a document is under
     * the message cap). */
    mv_pipeline *memo[PX_LIST_COUNT];
    mv_buf memo_doc[PX_LIST_COUNT];
    uint64_t scan_reuses;
    scan_q sq; /* results off the relay's thread */
    uint64_t scans_queued, scans_inline;
};

/* ------------------------------------------------------------- helpers */

static void items_clear(px_items *it) {
    for (size_t i = 0; i < it->n; i++) {
        mv_buf_release(&it->v[i]);
        free((char *)(uintptr_t)it->names[i].ptr);
    }
    it->n = 0;
}

static void items_free(px_items *it) {
    items_clear(it);
    free(it->v);
    free(it->names);
    memset(it, 0, sizeof(*it));
}

static int items_grow(px_items *it) {
    if (it->n < it->cap)
        return MV_OK;
    size_t cap = it->cap ? 2 * it->cap : 64;
    mv_buf *g = realloc(it->v, cap * sizeof(*g));
    if (g == NULL)
        return MV_ENOMEM;
    it->v = g;
    mv_str *gn = realloc(it->names, cap * sizeof(*gn));
    if (gn == NULL)
        return MV_ENOMEM;
    it->names = gn;
    it->cap = cap;
    return MV_OK;
}

/* An item is an object of a list, or the instructions' string (whose name
 * is the model's). */
static int items_push(px_items *it, const mv_jv *v) {
    if (items_grow(it) != MV_OK)
        return MV_ENOMEM;
    mv_buf *b = &it->v[it->n];
    mv_buf_init(b, NULL);
    mv_json_write(b, v);
    const mv_jv *n = mv_jobject_get(v, "name");
    bool named = mv_jis_string(n) || mv_jis_string(v);
    const char *src = mv_jis_string(v) ? instructions_name : mv_jstring(n);
    size_t len = mv_jis_string(v) ? sizeof instructions_name - 1 : mv_jstring_len(n);
    char *name = NULL;
    if (named && (name = malloc(len + 1)) != NULL) {
        memcpy(name, src, len);
        name[len] = '\0';
    }
    if (b->failed || (named && name == NULL)) {
        mv_buf_release(b);
        free(name);
        return MV_ENOMEM;
    }
    it->names[it->n] = (mv_str){name, name != NULL ? len : 0};
    it->n++;
    return MV_OK;
}

static int items_copy(px_items *dst, const px_items *src) {
    items_clear(dst);
    for (size_t i = 0; i < src->n; i++) {
        if (items_grow(dst) != MV_OK)
            return MV_ENOMEM;
        mv_buf *b = &dst->v[dst->n];
        mv_buf_init(b, NULL);
        mv_buf_append(b, src->v[i].data, src->v[i].len);
        char *name = NULL;
        if (src->names[i].ptr != NULL && (name = malloc(src->names[i].len + 1)) != NULL) {
            memcpy(name, src->names[i].ptr, src->names[i].len);
            name[src->names[i].len] = '\0';
        }
        if (b->failed || (src->names[i].ptr != NULL && name == NULL)) {
            mv_buf_release(b);
            free(name);
            return MV_ENOMEM;
        }
        dst->names[dst->n] = (mv_str){name, src->names[i].len};
        dst->n++;
    }
    return MV_OK;
}

void px_json_string(mv_buf *b, const char *s, size_t len) {
    mv_buf_json_string(b, s, len);
}

static char *dupn(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d != NULL) {
        if (n > 0)
            memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void px_view_free(px_view *view) {
    for (size_t i = 0; i < view->n; i++) {
        free(view->v[i].name);
        free(view->v[i].reason);
        free(view->v[i].definition);
    }
    free(view->v);
    memset(view, 0, sizeof(*view));
}

static int cmp_name(const char *a, size_t al, const char *b, size_t bl) {
    int r = memcmp(a, b, al < bl ? al : bl);
    if (r != 0)
        return r;
    return al < bl ? -1 : (al > bl ? 1 : 0);
}

static int cmp_entry(const void *pa, const void *pb) {
    const px_entry *a = pa, *b = pb;
    return cmp_name(a->name, a->name_len, b->name, b->name_len);
}

typedef struct named_ix {
    mv_str name;
    size_t ix;
} named_ix;

static int cmp_named(const void *pa, const void *pb) {
    const named_ix *a = pa, *b = pb;
    if (a->name.ptr == NULL || b->name.ptr == NULL)
        return a->name.ptr == NULL ? (b->name.ptr == NULL ? 0 : -1) : 1;
    return cmp_name(a->name.ptr, a->name.len, b->name.ptr, b->name.len);
}

const px_entry *px_view_find(const px_view *view, const char *name, size_t len) {
    size_t lo = 0, hi = view->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = cmp_name(name, len, view->v[mid].name, view->v[mid].name_len);
        if (r == 0)
            return &view->v[mid];
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* A name as the log shows it: quoted, every byte that is not printable
 * ASCII escaped, at most 80 source bytes. */
typedef struct qname {
    char s[MV_JSON_QUOTE_SIZE(80)];
} qname;

static const char *quoted(qname *q, const char *s, size_t len) {
    mv_json_quote(q->s, s, len, 80);
    return q->s;
}

/* A name as a command line shows it: bare when it is plain, else in single
 * quotes (a quote inside as '\''). */
static void put_shell_word(mv_buf *b, const char *s, size_t len) {
    bool plain = len > 0;
    for (size_t i = 0; i < len && plain; i++) {
        unsigned char c = (unsigned char)s[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || c == '@' || c == '+';
    }
    if (plain) {
        mv_buf_append(b, s, len);
        return;
    }
    mv_buf_putc(b, '\'');
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\'')
            mv_buf_puts(b, "'\\''");
        else if (s[i] != '\0')
            mv_buf_putc(b, s[i]);
    }
    mv_buf_putc(b, '\'');
}

void px_log(px_guard *g, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* Last line of defence: names are quoted where they are inserted. */
    for (char *p = line; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
            *p = '?';
    qname q;
    fprintf(g->log, "mcpvet proxy %s: %s\n", quoted(&q, g->cfg.name, strlen(g->cfg.name)), line);
    fflush(g->log);
}

static int64_t now_s(const px_guard *g) {
    return g->cfg.clock != NULL ? g->cfg.clock(g->cfg.clock_arg) : (int64_t)time(NULL);
}

/* ------------------------------------------------------------- store */

static bool ensure_store(px_guard *g) {
    if (g->store != NULL)
        return true;
    mv_error err;
    mv_error_clear(&err);
    mv_store_options so = {.create = true, .clock = g->cfg.clock, .clock_arg = g->cfg.clock_arg};
    if (mv_store_open(&g->store, g->cfg.store_path, &so, &err) != MV_OK) {
        if (!g->store_broken)
            px_log(g, "the approval store cannot be opened (%s)%s", err.message,
                   g->cfg.policy == MV_PROXY_AUDIT ? "; audit policy: passing everything"
                                                   : "; failing closed: only what this "
                                                     "session already allowed passes");
        g->store_broken = true;
        return false;
    }
    g->own_store = true;
    return true;
}

static void store_failed(px_guard *g, const mv_error *err) {
    if (!g->store_broken)
        px_log(g, "the approval store failed (%s)%s", err->message,
               g->cfg.policy == MV_PROXY_AUDIT
                   ? "; audit policy: passing everything"
                   : "; failing closed: only what this session already allowed passes");
    g->store_broken = true;
}

static void note(px_guard *g, px_list list, const char *name, size_t len, const char *reason) {
    if (g->store == NULL)
        return;
    mv_error err;
    mv_error_clear(&err);
    mv_str tool = {name != NULL ? name : NULL, name != NULL ? len : 0};
    if (mv_store_note(g->store, g->cfg.name, px_list_kind(list), tool, MV_ACTOR_PROXY, reason,
                      &err) != MV_OK)
        store_failed(g, &err);
}

bool px_guard_store_ok(const px_guard *g) {
    return g->store != NULL && !g->store_broken;
}

/* ------------------------------------------------------------ life cycle */

static int results_engine_new(mv_engine **out, mv_error *err) {
    const char *const *ids = mv_builtin_check_ids();
    const char *off[32];
    size_t n = 0;
    for (size_t i = 0; ids[i] != NULL && n < 32; i++)
        if (strcmp(ids[i], "unicode.hidden") != 0 && strcmp(ids[i], "payload.decoded") != 0)
            off[n++] = ids[i];
    /* Neither check reads the normalized view (both read raw text), so
     * the engine's per-field normalization is capped to almost nothing:
     * it would cost more than both checks on a large result. The cap hits
     * it records are ignored (only hard signals are read). */
    mv_engine_options eo = {.disabled = off, .n_disabled = n};
    eo.limits.max_normalize_bytes = 1;
    return mv_engine_new(out, &eo, err);
}

int px_guard_engines_new(mv_engine **lists, mv_engine **results, mv_error *err) {
    int rc;
    *lists = NULL;
    *results = NULL;
    if ((rc = mv_engine_new(lists, NULL, err)) != MV_OK ||
        (rc = results_engine_new(results, err)) != MV_OK) {
        mv_engine_free(*lists);
        *lists = NULL;
    }
    return rc;
}

int px_guard_new(px_guard **out, const px_guard_config *cfg, mv_error *err) {
    px_guard *g = calloc(1, sizeof(*g));
    int rc;
    *out = NULL;
    if (g == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    g->cfg = *cfg;
    g->log = cfg->log != NULL ? cfg->log : stderr;
    pthread_mutex_init(&g->sq.mu, NULL);
    pthread_cond_init(&g->sq.work, NULL);
    g->sq.wake[0] = g->sq.wake[1] = -1;
    g->store = cfg->store;
    mv_buf_init(&g->msg, NULL);
    for (int k = 0; k < PX_LIST_COUNT; k++)
        mv_buf_init(&g->memo_doc[k], NULL);
    g->rarena = mv_arena_new(NULL, 4096);
    if (g->rarena == NULL) {
        px_guard_free(g);
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    }
    if (cfg->engine != NULL && cfg->results_engine != NULL) {
        g->engine = cfg->engine;
        g->results_engine = cfg->results_engine;
    } else if ((rc = px_guard_engines_new(&g->engine, &g->results_engine, err)) != MV_OK) {
        px_guard_free(g);
        return rc;
    } else {
        g->own_engines = true;
    }
    ensure_store(g);
    *out = g;
    return MV_OK;
}

void px_guard_free(px_guard *g) {
    if (g == NULL)
        return;
    /* Pending scans are recorded first: they need the store and the log. */
    px_guard_scans_finish(g);
    pthread_mutex_destroy(&g->sq.mu);
    pthread_cond_destroy(&g->sq.work);
    for (int i = 0; i < 2; i++)
        if (g->sq.wake[i] >= 0)
            close(g->sq.wake[i]);
    for (int k = 0; k < PX_LIST_COUNT; k++) {
        items_free(&g->cache[k]);
        items_free(&g->acc[k][0]);
        items_free(&g->acc[k][1]);
        px_view_free(&g->view[k]);
        free(g->list_failed[k]);
        mv_pipeline_free(g->memo[k]);
        mv_buf_release(&g->memo_doc[k]);
    }
    if (g->own_store)
        mv_store_close(g->store);
    if (g->own_engines) {
        mv_engine_free(g->engine);
        mv_engine_free(g->results_engine);
    }
    mv_buf_release(&g->msg);
    mv_arena_free(g->rarena);
    free(g);
}

void px_guard_counts(const px_guard *g, uint64_t *blocked_calls, uint64_t *hidden_items,
                     uint64_t *result_findings) {
    *blocked_calls = g->blocked_calls;
    *hidden_items = g->hidden_items;
    *result_findings = g->result_findings;
}

void px_guard_capabilities(px_guard *g, const mv_jv *caps) {
    if (!mv_jis_object(caps))
        return;
    g->caps_known = true;
    g->announced[PX_TOOLS] = mv_jobject_get(caps, "tools") != NULL;
    g->announced[PX_PROMPTS] = mv_jobject_get(caps, "prompts") != NULL;
    g->announced[PX_RESOURCES] = mv_jobject_get(caps, "resources") != NULL;
    g->announced[PX_TEMPLATES] = g->announced[PX_RESOURCES];
    /* The instructions come in the same result (px_guard_instructions). */
    g->announced[PX_INSTRUCTIONS] = true;
}

uint64_t px_guard_scan_reuses(const px_guard *g) {
    return g->scan_reuses;
}

const px_view *px_guard_view(const px_guard *g, px_list list) {
    return &g->view[list];
}

void px_guard_stale(px_guard *g, px_list list) {
    g->stale[list] = true;
}

bool px_guard_is_stale(const px_guard *g, px_list list) {
    return g->stale[list] || !g->view[list].known;
}

void px_guard_list_failed(px_guard *g, px_list list, const char *why) {
    free(g->list_failed[list]);
    g->list_failed[list] = dupn(why, strlen(why));
    px_log(g, "cannot list the server's %s: %s", px_list_key(list), why);
}

/* ------------------------------------------------------------ scanning */

/* The snapshot document: this server with the list being read (`acc`) and
 * the last complete list of every other kind. */
static void snapshot_doc(const px_guard *g, px_list list, const px_items *acc, const bool *skip,
                         mv_buf *b) {
    mv_buf_puts(b, "{\"servers\":[{\"name\":");
    mv_buf_json_string(b, g->cfg.name, strlen(g->cfg.name));
    /* The model wants a tools array; an empty one stands for tools not
     * listed yet (the scan is then partial: nothing of them is removed). */
    if (list != PX_TOOLS && !g->cached[PX_TOOLS])
        mv_buf_puts(b, ",\"tools\":[]");
    for (int k = 0; k < PX_LIST_COUNT; k++) {
        const px_items *it = k == (int)list ? acc : &g->cache[k];
        if (k != (int)list && !g->cached[k])
            continue;
        if (k == PX_INSTRUCTIONS) {
            /* A string member, not an array: at most one item. */
            for (size_t i = 0; i < it->n; i++)
                if (k != (int)list || !skip[i]) {
                    mv_buf_puts(b, ",\"instructions\":");
                    mv_buf_append(b, it->v[i].data, it->v[i].len);
                    break;
                }
            continue;
        }
        mv_buf_printf(b, ",\"%s\":[", list_keys[k]);
        bool first = true;
        for (size_t i = 0; i < it->n; i++) {
            if (k == (int)list && skip[i])
                continue;
            if (!first)
                mv_buf_putc(b, ',');
            first = false;
            mv_buf_append(b, it->v[i].data, it->v[i].len);
        }
        mv_buf_putc(b, ']');
    }
    mv_buf_puts(b, "}]}");
}

/* The index of the item of `list` a model error names
 * ("servers[0].tools[7]..."), or -1. */
static long bad_index(const mv_error *err, px_list list) {
    if (list == PX_INSTRUCTIONS)
        return strstr(err->where, ".instructions") != NULL ? 0 : -1;
    char pat[40];
    snprintf(pat, sizeof pat, ".%s[", list_keys[list]);
    const char *p = strstr(err->where, pat);
    if (p == NULL)
        return -1;
    return strtol(p + strlen(pat), NULL, 10);
}

/* A findings summary for the store: what `security list` and `approve`
 * show. */
static void summary(mv_buf *b, const mv_finding *f) {
    mv_jw w;
    uint32_t kept = 0;
    mv_jw_init_compact(&w, b);
    mv_jw_arr_begin(&w, NULL);
    for (uint32_t i = 0; i < f->n_signals && kept < SUMMARY_SIGNALS; i++) {
        const mv_signal *s = &f->signals[i];
        if (s->tier == MV_TIER_INFO)
            continue;
        kept++;
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "check", s->check_id);
        mv_jw_cstr(&w, "tier", mv_tier_name(s->tier));
        mv_jw_cstr(&w, "severity", mv_severity_name(f->severity));
        mv_jw_str(&w, "field", s->field_path);
        mv_jw_str(&w, "evidence", s->evidence);
        mv_jw_str(&w, "detail", s->detail);
        mv_jw_obj_end(&w);
    }
    mv_jw_arr_end(&w);
}

/* Why an item in `state` is kept from the agent (NULL: it may pass). */
static void block_reason(mv_buf *b, mv_tool_state state, const mv_finding *f,
                         const mv_store_item_result *ir, bool identity_changed) {
    switch (state) {
    case MV_STATE_QUARANTINED:
        if (f != NULL && f->verdict == MV_VERDICT_QUARANTINE) {
            mv_buf_puts(b, "quarantined: a hard or dangerous finding (");
            for (uint32_t i = 0; i < f->n_checks; i++)
                mv_buf_printf(b, "%s%s", i > 0 ? ", " : "", f->checks[i]);
            if (f->danger_class != NULL)
                mv_buf_printf(b, "%s%s", f->n_checks > 0 ? "; " : "", f->danger_class);
            mv_buf_putc(b, ')');
        } else {
            mv_buf_puts(b, "quarantined in the approval store");
        }
        break;
    case MV_STATE_CHANGED:
        if (ir != NULL && ir->changed_fields != 0) {
            mv_buf_puts(b, "changed since it was approved (");
            bool first = true;
            for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
                if (ir->changed_fields & (1u << k)) {
                    mv_buf_printf(b, "%s%s", first ? "" : ", ", mv_pin_field_name((mv_pin_field)k));
                    first = false;
                }
            mv_buf_putc(b, ')');
        } else if (identity_changed) {
            mv_buf_puts(b, "changed since it was approved (the server's command or arguments "
                           "differ)");
        } else {
            mv_buf_puts(b, "changed since it was approved");
        }
        break;
    case MV_STATE_PENDING:
        mv_buf_puts(b, "not approved");
        break;
    default:
        mv_buf_printf(b, "%s", mv_tool_state_name(state));
        break;
    }
}

/* How a person lets a kept item through (appended to a log line and an
 * audit event): "; a person approves it with `mcpvet security approve
 * SERVER NAME` (see ...)". */
static void approve_hint(mv_buf *b, const char *server, const char *name, size_t len, bool force) {
    mv_buf_puts(b, "; a person approves it with `mcpvet security approve ");
    put_shell_word(b, server, strlen(server));
    mv_buf_putc(b, ' ');
    put_shell_word(b, name, len);
    mv_buf_puts(b, force ? " --force` after reading its findings (`mcpvet security list --server "
                         : "` (see `mcpvet security list --server ");
    put_shell_word(b, server, strlen(server));
    mv_buf_puts(b, "`)");
}

/* The reason of every approval on first use (in the scan or after it). */
static const char tofu_reason[] = "trust on first use (mcpvet proxy --policy tofu)";

/* Whether an item of another kind with the same name changed since its
 * approval: approval is by name, so pinning this one on first use would
 * approve that change too (a new tool named "server_instructions" must
 * not wave changed instructions through). It stays pending instead. */
static bool changed_namesake(const mv_store_server_result *sr, const mv_scan_item *si, size_t n,
                             size_t self) {
    for (size_t k = 0; k < n; k++)
        if (k != self && si[k].kind != si[self].kind && sr->items[k].state == MV_STATE_CHANGED &&
            si[k].name.len == si[self].name.len &&
            memcmp(si[k].name.ptr, si[self].name.ptr, si[k].name.len) == 0)
            return true;
    return false;
}

/* One decided item of the list being read. */
typedef struct decided {
    bool allowed, audit_only, needs_force, mapped;
    mv_tool_state state;
    mv_buf reason;
    const mv_tool *tool; /* the model's item (NULL when it was refused) */
    const mv_finding *finding;
    const mv_store_item_result *ir;
    size_t scan_item; /* index into the scan items */
} decided;

/* The name of a list item from its JSON (for items the model refused). */
static void raw_name(const mv_buf *item, mv_buf *out) {
    mv_arena *a = mv_arena_new(NULL, 4096);
    const mv_jv *v = NULL;
    mv_jerror je;
    if (a != NULL && mv_json_parse(&v, a, NULL, item->data, item->len, &je) == MV_OK) {
        const mv_jv *n = mv_jobject_get(v, "name");
        if (n == NULL)
            n = mv_jobject_get(v, "uri");
        if (n == NULL)
            n = mv_jobject_get(v, "uriTemplate");
        if (mv_jis_string(n))
            mv_buf_append(out, mv_jstring(n), mv_jstring_len(n));
    }
    mv_arena_free(a);
}

static bool definition_allowed_before(const px_view *old, const mv_tool *t) {
    if (t == NULL)
        return false;
    const px_entry *e = px_view_find(old, t->name.ptr, t->name.len);
    return e != NULL && e->allowed && !e->audit_only && e->definition != NULL &&
           e->definition_len == t->definition.len &&
           memcmp(e->definition, t->definition.ptr, t->definition.len) == 0;
}

int px_guard_list_page(px_guard *g, px_list list, const mv_jv *items, bool first, bool last,
                       bool internal, bool *allow) {
    px_items *acc = &g->acc[list][internal ? 1 : 0];
    size_t page_start, n_page = mv_jarray_size(items);
    bool *skip = NULL;
    decided *d = NULL;
    mv_scan_item *scan_items = NULL;
    mv_buf *summaries = NULL;
    size_t n_summaries = 0;
    mv_pipeline *pipe = NULL;
    mv_store_scan_result *res = NULL;
    mv_buf doc;
    mv_error err;
    int rc = MV_ENOMEM;
    bool audit = g->cfg.policy == MV_PROXY_AUDIT;
    bool scanned = false, stored = false, batch = false;
    bool reused = false;  /* `pipe` is g->memo[list], not ours to free */
    bool memoize = false; /* keep `pipe` as the scan of this list kind */
    const char *fail_why = NULL;
    char why[600];
    px_view nv;

    mv_buf_init(&doc, NULL);
    memset(&nv, 0, sizeof(nv));
    if (first)
        items_clear(acc);
    page_start = acc->n;
    for (size_t i = 0; i < n_page; i++)
        if (items_push(acc, mv_jarray_get(items, i)) != MV_OK)
            goto done;
    skip = calloc(acc->n + 1, sizeof(*skip));
    d = calloc(acc->n + 1, sizeof(*d));
    if (skip == NULL || d == NULL)
        goto done;
    for (size_t i = 0; i < acc->n; i++)
        mv_buf_init(&d[i].reason, NULL);
    /* A name listed twice: which definition would the agent get? Neither
     * passes (and the store takes one definition per name). */
    if (acc->n > 1) {
        named_ix *ord = malloc(acc->n * sizeof(*ord));
        if (ord == NULL)
            goto done;
        for (size_t i = 0; i < acc->n; i++)
            ord[i] = (named_ix){acc->names[i], i};
        qsort(ord, acc->n, sizeof(*ord), cmp_named);
        for (size_t i = 1; i < acc->n; i++) {
            if (ord[i].name.ptr == NULL || cmp_named(&ord[i - 1], &ord[i]) != 0)
                continue;
            for (size_t k = i - 1; k <= i; k++)
                if (!skip[ord[k].ix]) {
                    skip[ord[k].ix] = true;
                    mv_buf_puts(&d[ord[k].ix].reason, "the server lists this name more than once");
                }
        }
        free(ord);
    }

    /* Scan: items the model refuses are left out one by one (and blocked),
     * a few times at most. */
    mv_pipeline_options po;
    memset(&po, 0, sizeof(po));
    po.shared_engine = g->engine;
    po.model.keep_definitions = true;
    for (int attempt = 0; attempt <= MAX_BAD_ITEMS && !scanned; attempt++) {
        if (!reused)
            mv_pipeline_free(pipe);
        pipe = NULL;
        reused = false;
        doc.len = 0;
        snapshot_doc(g, list, acc, skip, &doc);
        if (doc.failed)
            goto done;
        if (attempt == 0) {
            /* The document is everything the scan depends on (this list,
             * the other kinds' lists, the server's name); the engine and
             * its options are the guard's for its whole life. */
            const mv_buf *m = &g->memo_doc[list];
            if (g->memo[list] != NULL && m->len == doc.len && doc.len > 0 &&
                memcmp(m->data, doc.data, doc.len) == 0) {
                pipe = g->memo[list];
                reused = true;
                scanned = true;
                g->scan_reuses++;
                break;
            }
        }
        mv_error_clear(&err);
        if ((rc = mv_pipeline_new(&pipe, &po, &err)) != MV_OK)
            goto done;
        rc = mv_pipeline_add_document(pipe, doc.data, doc.len, "<proxy>", NULL, &err);
        if (rc == MV_ENOMEM)
            goto done;
        if (rc != MV_OK) {
            long bad = bad_index(&err, list);
            /* The index counts items left in the document: map it back. */
            long seen = -1;
            size_t at = SIZE_MAX;
            for (size_t i = 0; i < acc->n && bad >= 0; i++)
                if (!skip[i] && ++seen == bad)
                    at = i;
            snprintf(why, sizeof why, "%.200s%s%.300s", err.where, err.where[0] ? ": " : "",
                     err.message);
            if (at == SIZE_MAX) {
                fail_why = why;
                break;
            }
            skip[at] = true;
            mv_buf_printf(&d[at].reason, "malformed (%s)", err.message);
            continue;
        }
        mv_error_clear(&err);
        if ((rc = mv_pipeline_scan(pipe, 1, &err)) == MV_ENOMEM)
            goto done;
        if (rc != MV_OK) {
            snprintf(why, sizeof why, "%.500s", err.message);
            fail_why = why;
            break;
        }
        scanned = true;
        /* Only a scan of the first document is kept (the one compared),
         * and only that of a complete list (the scans of earlier pages
         * would push it out). */
        memoize = attempt == 0 && last;
    }
    rc = MV_OK;
    if (!scanned && fail_why == NULL)
        fail_why = "too many malformed items";
    if (fail_why != NULL)
        px_log(g, "cannot scan the %s list (%s)%s", list_keys[list], fail_why,
               audit ? "; audit policy: passing it" : "; failing closed");

    /* Map the model's items of this list back to `acc`; build scan items
     * of every kind for the store. */
    size_t n_scan = 0;
    const mv_scan *scan = scanned ? mv_pipeline_result(pipe) : NULL;
    size_t n_found = scan != NULL ? mv_scan_finding_count(scan) : 0;
    if (n_found > 0) {
        scan_items = calloc(n_found, sizeof(*scan_items));
        if (scan_items == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    summaries = n_found > 0 ? calloc(n_found, sizeof(*summaries)) : NULL;
    if (n_found > 0 && summaries == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    size_t next_acc = 0;
    bool cut = false; /* the model kept fewer items than the list has (a cap) */
    for (size_t i = 0; i < n_found; i++) {
        const mv_finding *f = mv_scan_finding(scan, i);
        const mv_tool *t = f->tool;
        mv_scan_item *si = &scan_items[n_scan++];
        mv_buf_init(&summaries[i], NULL);
        n_summaries = i + 1;
        summary(&summaries[i], f);
        si->name = t->name;
        si->kind = t->kind;
        si->definition = t->definition;
        si->verdict = f->verdict;
        si->findings = (mv_str){summaries[i].data, summaries[i].len};
        if (t->kind != px_list_kind(list))
            continue;
        /* Pin on first use in the same write (tofu): the store pins only
         * what the approval below would (new, pending, no namesake of
         * another kind); the rest still goes through it. */
        si->pin_if_new = g->cfg.policy == MV_PROXY_TOFU && f->verdict != MV_VERDICT_QUARANTINE &&
                         memchr(t->name.ptr, '\0', t->name.len) == NULL;
        while (next_acc < acc->n && skip[next_acc])
            next_acc++;
        if (next_acc < acc->n) {
            d[next_acc].tool = t;
            d[next_acc].finding = f;
            d[next_acc].scan_item = n_scan - 1;
            d[next_acc].mapped = true;
            next_acc++;
        }
    }
    for (size_t i = next_acc; i < acc->n; i++)
        if (!skip[i] && !d[i].mapped) {
            cut = true;
            mv_buf_puts(&d[i].reason, "beyond the number of items the scan takes");
        }

    /* Decide: apply to the store, then pin on first use under tofu. The
     * scan, the pins and the notes of one page are one transaction (one
     * sync to disk instead of one per operation). */
    if (scanned && ensure_store(g)) {
        mv_error_clear(&err);
        batch = mv_store_batch_begin(g->store, &err) == MV_OK;
        bool complete = last && !cut;
        for (int k = 0; k < PX_LIST_COUNT && complete; k++)
            if (k != (int)list)
                complete = g->caps_known && (!g->announced[k] || g->cached[k]);
        mv_scan_server sv = {.ident = g->cfg.ident,
                             .items = scan_items,
                             .n_items = n_scan,
                             .partial = !complete,
                             .pin_reason = tofu_reason};
        mv_error_clear(&err);
        if (mv_store_apply_scan(g->store, &sv, 1, now_s(g), MV_ACTOR_PROXY, &res, &err) != MV_OK) {
            store_failed(g, &err);
        } else {
            stored = true;
            g->store_broken = false;
            if (res->servers[0].identity_changed)
                g->identity_changed = true;
        }
    }
    if (stored && g->cfg.policy == MV_PROXY_TOFU) {
        /* Pin on first use: every new item of this list that is not
         * quarantined (soft findings never block on their own). */
        const mv_store_server_result *sr = &res->servers[0];
        char **names = calloc(acc->n + 1, sizeof(*names));
        bool *pin = calloc(acc->n + 1, sizeof(*pin));
        size_t n_names = 0;
        if (names == NULL || pin == NULL) {
            free(names);
            free(pin);
            rc = MV_ENOMEM;
            goto done;
        }
        for (size_t i = 0; i < acc->n; i++) {
            if (!d[i].mapped)
                continue;
            const mv_store_item_result *ir = &sr->items[d[i].scan_item];
            if (!ir->pinned && ir->state == MV_STATE_PENDING &&
                d[i].finding->verdict != MV_VERDICT_QUARANTINE &&
                !changed_namesake(sr, scan_items, n_scan, d[i].scan_item) &&
                memchr(d[i].tool->name.ptr, '\0', d[i].tool->name.len) == NULL &&
                (names[n_names] = dupn(d[i].tool->name.ptr, d[i].tool->name.len)) != NULL) {
                n_names++;
                pin[i] = true;
            }
        }
        bool ok = true, one_by_one = false;
        if (n_names > 0) {
            mv_error_clear(&err);
            int ar = mv_store_approve(g->store, g->cfg.name, (const char *const *)names, n_names,
                                      false, MV_ACTOR_PROXY, tofu_reason, NULL, &err);
            if (ar == MV_EQUARANTINED) {
                /* Another kind of the same name is quarantined: one by one. */
                for (size_t i = 0; i < n_names; i++) {
                    mv_error_clear(&err);
                    mv_store_approve(g->store, g->cfg.name, (const char *const *)&names[i], 1,
                                     false, MV_ACTOR_PROXY, tofu_reason, NULL, &err);
                }
                ar = MV_OK;
                one_by_one = true;
            }
            if (ar != MV_OK) {
                store_failed(g, &err);
                ok = false;
            }
        }
        for (size_t i = 0; i < n_names; i++)
            free(names[i]);
        free(names);
        /* Approval is all or nothing: on success every name is approved
         * now (a one-by-one retry may have left a few pending). */
        for (size_t i = 0; i < acc->n; i++) {
            if (!d[i].mapped)
                continue;
            const mv_store_item_result *ir = &sr->items[d[i].scan_item];
            d[i].state = ok && !one_by_one && pin[i] ? MV_STATE_APPROVED : ir->state;
        }
        free(pin);
        if (ok && one_by_one) {
            /* Read the states back: what the store holds is what counts. */
            mv_store_tool_list *tl = NULL;
            mv_store_filter flt = {.server = g->cfg.name};
            mv_error_clear(&err);
            if (mv_store_list(g->store, &flt, &tl, &err) != MV_OK) {
                store_failed(g, &err);
                ok = false;
            } else {
                for (size_t i = 0; i < acc->n; i++) {
                    if (!d[i].mapped)
                        continue;
                    for (size_t k = 0; k < tl->n; k++)
                        if (tl->tools[k].kind == px_list_kind(list) &&
                            strlen(tl->tools[k].name) == d[i].tool->name.len &&
                            memcmp(tl->tools[k].name, d[i].tool->name.ptr, d[i].tool->name.len) ==
                                0) {
                            d[i].state = tl->tools[k].state;
                            break;
                        }
                }
                mv_store_tool_list_free(tl);
            }
        }
        if (!ok)
            stored = false;
    } else if (stored) {
        for (size_t i = 0; i < acc->n; i++)
            if (d[i].mapped)
                d[i].state = res->servers[0].items[d[i].scan_item].state;
    }

    /* The decisions and the new view. */
    nv.v = calloc(acc->n + 1, sizeof(*nv.v));
    if (nv.v == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    const px_view *old = &g->view[list];
    for (size_t i = 0; i < acc->n; i++) {
        decided *x = &d[i];
        mv_buf name;
        mv_buf_init(&name, NULL);
        if (x->mapped)
            mv_buf_append(&name, x->tool->name.ptr, x->tool->name.len);
        else if (list == PX_INSTRUCTIONS)
            mv_buf_puts(&name, instructions_name);
        else
            raw_name(&acc->v[i], &name);
        if (name.failed) {
            mv_buf_release(&name);
            rc = MV_ENOMEM;
            goto done;
        }
        if (!x->mapped) {
            if (x->reason.len == 0)
                mv_buf_printf(&x->reason, "not scanned (%s)", fail_why != NULL ? fail_why : "?");
            x->allowed = false;
        } else if (!stored) {
            x->allowed = definition_allowed_before(old, x->tool);
            if (!x->allowed)
                mv_buf_puts(&x->reason, "the approval store cannot be used and this session "
                                        "has not allowed this definition before");
        } else {
            const mv_store_item_result *ir = &res->servers[0].items[x->scan_item];
            x->allowed = x->state == MV_STATE_APPROVED;
            x->needs_force = x->state == MV_STATE_QUARANTINED;
            if (!x->allowed)
                block_reason(&x->reason, x->state, x->finding, ir, g->identity_changed);
        }
        if (!x->allowed && audit) {
            x->allowed = true;
            x->audit_only = true;
        }
        px_entry *e = &nv.v[nv.n++];
        e->name_len = name.len;
        e->name = dupn(name.data != NULL ? name.data : "", name.len);
        e->allowed = x->allowed;
        e->audit_only = x->audit_only;
        e->state = x->state;
        e->needs_force = x->needs_force;
        e->reason = x->reason.len > 0 ? dupn(x->reason.data, x->reason.len) : NULL;
        if (x->mapped && x->tool->definition.len > 0)
            e->definition = dupn(x->tool->definition.ptr, x->tool->definition.len);
        e->definition_len = x->mapped ? x->tool->definition.len : 0;
        mv_buf_release(&name);
        if (e->name == NULL || (x->reason.len > 0 && e->reason == NULL) ||
            (x->mapped && x->tool->definition.len > 0 && e->definition == NULL)) {
            rc = MV_ENOMEM;
            goto done;
        }
        if (i >= page_start)
            allow[i - page_start] = x->allowed;
        /* Log and note what is kept away (or, in audit, would be) when it
         * is new in this session. */
        if (e->reason != NULL) {
            const px_entry *was = px_view_find(old, e->name, e->name_len);
            bool news = was == NULL || was->reason == NULL || strcmp(was->reason, e->reason) != 0;
            if (news && i >= page_start) {
                bool ins = list == PX_INSTRUCTIONS;
                const char *where =
                    ins ? "removed from the initialize reply" : "left out of the list";
                qname q;
                char text[1024];
                mv_buf how;
                mv_buf_init(&how, NULL);
                if (ins && !audit)
                    approve_hint(&how, g->cfg.name, e->name, e->name_len, e->needs_force);
                snprintf(text, sizeof text, "%s %s: %s%s%s %s",
                         mv_item_kind_name(px_list_kind(list)), quoted(&q, e->name, e->name_len),
                         audit ? "passed (audit; would be " : "", where, audit ? "):" : ":",
                         e->reason);
                px_log(g, "%s%s", text, how.failed || how.data == NULL ? "" : how.data);
                snprintf(text, sizeof text, "%s%s: %s%s", audit ? "audit: would be " : "", where,
                         e->reason, how.failed || how.data == NULL ? "" : how.data);
                mv_buf_release(&how);
                if (stored)
                    note(g, list, e->name, e->name_len, text);
            }
            if (!audit && i >= page_start)
                g->hidden_items++;
        }
    }
    qsort(nv.v, nv.n, sizeof(*nv.v), cmp_entry);
    nv.known = last;
    px_view_free(&g->view[list]);
    g->view[list] = nv;
    memset(&nv, 0, sizeof(nv));
    if (last) {
        g->stale[list] = false;
        free(g->list_failed[list]);
        g->list_failed[list] = NULL;
        if (items_copy(&g->cache[list], acc) != MV_OK) {
            rc = MV_ENOMEM;
            g->cached[list] = false;
            goto done;
        }
        g->cached[list] = true;
    }
done:
    if (batch) {
        mv_error_clear(&err);
        if (mv_store_batch_end(g->store, true, &err) != MV_OK)
            store_failed(g, &err);
    }
    for (size_t i = 0; i < n_summaries; i++)
        mv_buf_release(&summaries[i]);
    free(summaries);
    if (rc == MV_ENOMEM)
        for (size_t i = 0; i < n_page; i++)
            allow[i] = audit;
    if (d != NULL)
        for (size_t i = 0; i < acc->n; i++)
            mv_buf_release(&d[i].reason);
    free(d);
    free(skip);
    free(scan_items);
    px_view_free(&nv);
    mv_store_scan_result_free(res);
    if (memoize && rc == MV_OK) {
        /* The buffers trade places: the old document's memory is reused
         * by the next list's. */
        mv_buf old_doc = g->memo_doc[list];
        mv_pipeline_free(g->memo[list]);
        g->memo[list] = pipe;
        g->memo_doc[list] = doc;
        doc = old_doc;
    } else if (!reused) {
        mv_pipeline_free(pipe);
    }
    mv_buf_release(&doc);
    return rc;
}

/* -------------------------------------------------------- instructions */

int px_guard_instructions(px_guard *g, const mv_jv *text, bool *allow) {
    /* No item when there is nothing the model would read (as the model
     * builds none); the empty list still counts as seen, so a server
     * that drops its instructions removes the item like a scan does. */
    bool has =
        text != NULL && !mv_jis_null(text) && !(mv_jis_string(text) && mv_jstring_len(text) == 0);
    mv_jv one = {.type = MV_JARRAY, .n = has ? 1u : 0u, .u.items = has ? text : NULL};
    bool ok[1] = {true};
    int rc = px_guard_list_page(g, PX_INSTRUCTIONS, &one, true, true, false, ok);
    *allow = !has || ok[0];
    return rc;
}

/* ----------------------------------------------------------- tools/call */

const char *px_guard_call(px_guard *g, const char *name, size_t len) {
    const px_view *v = &g->view[PX_TOOLS];
    const px_entry *e = v->known ? px_view_find(v, name, len) : NULL;
    bool audit = g->cfg.policy == MV_PROXY_AUDIT;
    qname q;
    mv_buf why;
    mv_buf_init(&why, NULL);
    if (e != NULL && e->allowed && !e->audit_only) {
        mv_buf_release(&why);
        return NULL;
    }
    if (e != NULL)
        mv_buf_puts(&why, e->reason != NULL ? e->reason : "not allowed");
    else if (!v->known && g->list_failed[PX_TOOLS] != NULL)
        mv_buf_printf(&why, "not checked: the proxy could not list the server's tools (%s)",
                      g->list_failed[PX_TOOLS]);
    else if (!v->known)
        mv_buf_puts(&why, "not checked: the server's tools could not be listed");
    else
        mv_buf_puts(&why, "not in the server's tools/list");
    if (why.failed) {
        mv_buf_release(&why);
        mv_buf_release(&g->msg);
        mv_buf_puts(&g->msg, "mcpvet proxy blocked this call (out of memory)");
        return audit ? NULL : "mcpvet proxy blocked this call (out of memory)";
    }
    if (audit) {
        px_log(g, "tools/call %s passed (audit; would be blocked: %s)", quoted(&q, name, len),
               why.data);
        mv_buf note_text;
        mv_buf_init(&note_text, NULL);
        mv_buf_printf(&note_text, "audit: tools/call passed; would be blocked: %s", why.data);
        if (!note_text.failed)
            note(g, PX_TOOLS, name, len, note_text.data);
        mv_buf_release(&note_text);
        mv_buf_release(&why);
        return NULL;
    }
    g->blocked_calls++;
    px_log(g, "tools/call %s blocked: %s", quoted(&q, name, len), why.data);
    mv_buf note_text;
    mv_buf_init(&note_text, NULL);
    mv_buf_printf(&note_text, "tools/call blocked: %s", why.data);
    if (!note_text.failed)
        note(g, PX_TOOLS, name, len, note_text.data);
    mv_buf_release(&note_text);

    /* The text the agent (and through it, the person) reads. */
    mv_buf *m = &g->msg;
    m->len = 0;
    m->failed = 0;
    mv_buf_puts(m, "mcpvet proxy blocked this call: the tool ");
    mv_buf_json_string(m, name, len);
    mv_buf_puts(m, " of the MCP server ");
    mv_buf_json_string(m, g->cfg.name, strlen(g->cfg.name));
    mv_buf_printf(m, " is %s. The call was not sent to the server.", why.data);
    if (e != NULL && e->state == MV_STATE_CHANGED) {
        mv_buf_puts(m, " A person can review the change with `mcpvet security diff ");
        put_shell_word(m, g->cfg.name, strlen(g->cfg.name));
        mv_buf_putc(m, ' ');
        put_shell_word(m, name, len);
        mv_buf_puts(m, "`.");
    }
    if (e != NULL) {
        mv_buf_puts(m, " A person approves it with `mcpvet security approve ");
        put_shell_word(m, g->cfg.name, strlen(g->cfg.name));
        mv_buf_putc(m, ' ');
        put_shell_word(m, name, len);
        mv_buf_puts(m, e->needs_force ? " --force`" : "`");
        mv_buf_puts(m, e->needs_force ? " (after reading its findings: `mcpvet security list "
                                        "--server "
                                      : " (see `mcpvet security list --server ");
        put_shell_word(m, g->cfg.name, strlen(g->cfg.name));
        mv_buf_puts(m, "`).");
    }
    mv_buf_release(&why);
    return m->failed ? "mcpvet proxy blocked this call" : m->data;
}

/* ------------------------------------------------------------- results */

/* Whether a code point is one that can hide or reorder text (the classes of
 * unicode.hidden): format characters, private use, unassigned, controls
 * other than tab and line ends, line/paragraph separators, variation
 * selectors and invisible fillers. */
static bool hidden_cp(int32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r')
        return false;
    if ((cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) ||
        (cp >= 0x180B && cp <= 0x180F) || cp == 0x115F || cp == 0x1160 || cp == 0x3164 ||
        cp == 0xFFA0 || cp == 0x2800)
        return true;
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        return true;
    default:
        return false;
    }
}

/* `s` without hidden code points; returns how many were removed. */
static size_t strip_hidden(mv_buf *out, const char *s, size_t len) {
    size_t removed = 0, i = 0;
    while (i < len) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t n =
            utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
        if (n <= 0) { /* not UTF-8 (cannot happen after the strict parse) */
            removed++;
            i++;
            continue;
        }
        if (hidden_cp(cp))
            removed++;
        else
            mv_buf_append(out, s + i, (size_t)n);
        i += (size_t)n;
    }
    return removed;
}

/* Cut at a UTF-8 boundary at most `max` bytes in. */
static size_t piece_len(const char *s, size_t len, size_t max) {
    if (len <= max)
        return len;
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n > 0 ? n : max;
}

/* The strings of a result (or of a server's request) that carry text the
 * model reads, the objects holding them, and the array a strip marker goes
 * to:
 *   tools/call      result.content[i].text of type "text" (and the
 *                   "resource" of an embedded resource item)
 *   prompts/get     result.messages[i].content (one object or an array)
 *   resources/read  result.contents[i].text
 *   sampling/createMessage (a request of the server)
 *                   params.messages[i].content (one object or an array),
 *                   params.systemPrompt
 *   elicitation/create (a request of the server)
 *                   params.message */
typedef struct text_slots {
    const mv_jv **holder;
    const mv_jv **text; /* the string, a member of holder[i] */
    size_t n, cap;
    const mv_jv *array; /* where a strip marker is appended (results only) */
} text_slots;

static bool jv_is_lit(const mv_jv *v, const char *lit) {
    size_t n = strlen(lit);
    return mv_jis_string(v) && mv_jstring_len(v) == n && memcmp(mv_jstring(v), lit, n) == 0;
}

/* A text the guard scans: a string, or in the relay's lazy tree
 * (mv_json_parse_lazy) a long escaped string left raw, which is decoded
 * where it is scanned (on the worker, for a queued result). */
static bool is_text(const mv_jv *v) {
    return mv_jis_string(v) || mv_jis_raw(v);
}

/* The decoded text of a raw value in a new allocation (*own, to free),
 * else the string itself. */
static mv_str text_of(const mv_jv *v, char **own) {
    *own = NULL;
    if (!mv_jis_raw(v))
        return (mv_str){mv_jstring(v), mv_jstring_len(v)};
    char *d = malloc((size_t)v->n + MV_JSON_RAW_SLACK);
    if (d == NULL)
        return (mv_str){NULL, 0};
    *own = d;
    return (mv_str){d, mv_json_raw_decode(d, v->u.s, v->n)};
}

static int slots_add_key(text_slots *s, const mv_jv *holder, const char *key) {
    const mv_jv *text = mv_jobject_get(holder, key);
    if (!mv_jis_object(holder) || !is_text(text))
        return MV_OK;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        const mv_jv **g = realloc(s->holder, cap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        s->holder = g;
        g = realloc(s->text, cap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        s->text = g;
        s->cap = cap;
    }
    s->holder[s->n] = holder;
    s->text[s->n++] = text;
    return MV_OK;
}

static int slots_add(text_slots *s, const mv_jv *holder) {
    return slots_add_key(s, holder, "text");
}

static void slots_free(text_slots *s) {
    free(s->holder);
    free(s->text);
}

/* The requests of the server whose text the guard scans: what the agent's
 * client shows a person or hands to a model. */
static bool request_kind(px_result_kind kind) {
    return kind == PX_REQUEST_SAMPLING || kind == PX_REQUEST_ELICIT;
}

/* A content block (tools/call content item, prompt message content). */
static int slots_block(text_slots *s, const mv_jv *block) {
    const mv_jv *type = mv_jobject_get(block, "type");
    if (jv_is_lit(type, "text"))
        return slots_add(s, block);
    if (jv_is_lit(type, "resource"))
        return slots_add(s, mv_jobject_get(block, "resource"));
    return MV_OK;
}

static int collect_slots(text_slots *s, px_result_kind kind, const mv_jv *result) {
    int rc = MV_OK;
    if (kind == PX_RESULT_CALL) {
        s->array = mv_jobject_get(result, "content");
        for (size_t i = 0; i < mv_jarray_size(s->array) && rc == MV_OK; i++)
            rc = slots_block(s, mv_jarray_get(s->array, i));
    } else if (kind == PX_RESULT_PROMPT) {
        s->array = mv_jobject_get(result, "messages");
        for (size_t i = 0; i < mv_jarray_size(s->array) && rc == MV_OK; i++) {
            const mv_jv *c = mv_jobject_get(mv_jarray_get(s->array, i), "content");
            if (mv_jis_array(c))
                for (size_t k = 0; k < mv_jarray_size(c) && rc == MV_OK; k++)
                    rc = slots_block(s, mv_jarray_get(c, k));
            else
                rc = slots_block(s, c);
        }
    } else if (kind == PX_REQUEST_SAMPLING) {
        const mv_jv *msgs = mv_jobject_get(result, "messages");
        for (size_t i = 0; i < mv_jarray_size(msgs) && rc == MV_OK; i++) {
            const mv_jv *c = mv_jobject_get(mv_jarray_get(msgs, i), "content");
            if (mv_jis_array(c))
                for (size_t k = 0; k < mv_jarray_size(c) && rc == MV_OK; k++)
                    rc = slots_block(s, mv_jarray_get(c, k));
            else
                rc = slots_block(s, c);
        }
        if (rc == MV_OK)
            rc = slots_add_key(s, result, "systemPrompt");
    } else if (kind == PX_REQUEST_ELICIT) {
        rc = slots_add_key(s, result, "message");
    } else {
        s->array = mv_jobject_get(result, "contents");
        for (size_t i = 0; i < mv_jarray_size(s->array) && rc == MV_OK; i++)
            rc = slots_add(s, mv_jarray_get(s->array, i));
    }
    if (!mv_jis_array(s->array))
        s->array = NULL;
    return rc;
}

static const char *const result_methods[] = {"tools/call", "prompts/get", "resources/read",
                                             "sampling/createMessage", "elicitation/create"};

const char *px_result_method(px_result_kind kind) {
    return result_methods[kind];
}

/* The tree again, with the "text" of every flagged holder stripped of
 * hidden characters and the marker item appended to the slots' array. */
typedef struct strip_ctx {
    const text_slots *s;
    const bool *flag;
    const char *marker; /* JSON text of the item to append */
    size_t removed;
} strip_ctx;

static bool strip_flagged(const strip_ctx *c, const mv_jv *v) {
    for (size_t i = 0; i < c->s->n; i++)
        if (c->s->text[i] == v)
            return c->flag[i];
    return false;
}

static void write_stripped(mv_buf *out, const mv_jv *v, strip_ctx *c) {
    if (mv_jis_array(v)) {
        mv_buf_putc(out, '[');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i > 0)
                mv_buf_putc(out, ',');
            write_stripped(out, &v->u.items[i], c);
        }
        if (v == c->s->array && c->marker != NULL) {
            if (v->n > 0)
                mv_buf_putc(out, ',');
            mv_buf_puts(out, c->marker);
        }
        mv_buf_putc(out, ']');
        return;
    }
    if (is_text(v) && strip_flagged(c, v)) {
        mv_buf clean;
        mv_buf_init(&clean, NULL);
        char *own = NULL;
        mv_str t = text_of(v, &own);
        if (t.ptr == NULL && v->n > 0)
            out->failed = 1;
        c->removed += strip_hidden(&clean, t.ptr != NULL ? t.ptr : "", t.len);
        free(own);
        mv_buf_json_string(out, clean.data != NULL ? clean.data : "", clean.len);
        if (clean.failed)
            out->failed = 1;
        mv_buf_release(&clean);
        return;
    }
    if (!mv_jis_object(v)) {
        mv_json_write(out, v);
        return;
    }
    mv_buf_putc(out, '{');
    for (uint32_t i = 0; i < v->n; i++) {
        const mv_jm *m = &v->u.members[i];
        if (i > 0)
            mv_buf_putc(out, ',');
        mv_buf_json_string(out, m->key, m->key_len);
        mv_buf_putc(out, ':');
        write_stripped(out, &m->value, c);
    }
    mv_buf_putc(out, '}');
}

/* The marker appended where hidden characters were removed: an item of
 * the same array, so the model sees that the text was altered. */
static void strip_marker(mv_buf *b, px_result_kind kind, size_t removed, const text_slots *s,
                         const bool *flag) {
    char text[160];
    snprintf(text, sizeof text, "[mcpvet proxy: %zu hidden character%s removed from this result]",
             removed, removed == 1 ? " was" : "s were");
    if (kind == PX_RESULT_CALL) {
        mv_buf_puts(b, "{\"type\":\"text\",\"text\":");
        mv_buf_json_string(b, text, strlen(text));
        mv_buf_putc(b, '}');
    } else if (kind == PX_RESULT_PROMPT) {
        mv_buf_puts(b, "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":");
        mv_buf_json_string(b, text, strlen(text));
        mv_buf_puts(b, "}}");
    } else {
        const mv_jv *uri = NULL;
        for (size_t i = 0; i < s->n && uri == NULL; i++)
            if (flag[i])
                uri = mv_jobject_get(s->holder[i], "uri");
        mv_buf_puts(b, "{\"uri\":");
        if (mv_jis_string(uri))
            mv_json_write(b, uri);
        else
            mv_buf_puts(b, "\"mcpvet:proxy\"");
        mv_buf_puts(b, ",\"mimeType\":\"text/plain\",\"text\":");
        mv_buf_json_string(b, text, strlen(text));
        mv_buf_putc(b, '}');
    }
}

/* Scan the texts of a result (one per text item) with the results engine:
 * hidden[i] / payload[i] say what item i carries. Uses only `e` (read-only
 * after creation, shared by threads like any engine), `arena` (the
 * caller's: the relay's rarena inline, the worker's own) and the texts:
 * nothing else of the guard, so the worker may run it beside the relay.
 * Returns 0, MV_ENOMEM, or another MV_E* with err set (the scan could not
 * run). */
static int scan_texts(const mv_engine *e, mv_arena *arena, const mv_str *texts, size_t n,
                      bool *hidden, bool *payload, size_t *n_hidden, size_t *n_payload,
                      mv_error *err) {
    mv_registry *reg = NULL;
    mv_scan *scan = NULL;
    size_t *owner = NULL, n_pieces = 0, cap_pieces = 0;
    int rc = MV_OK;
    *n_hidden = 0;
    *n_payload = 0;
    /* One scanned "tool" per piece of text (its description), built
     * straight into the engine's registry: no JSON document to write and
     * parse again per result. */
    mv_arena_reset(arena);
    reg = mv_registry_new(NULL);
    if (reg == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const char *p = texts[i].ptr;
        size_t left = texts[i].len;
        do {
            size_t k = piece_len(p, left, RESULT_PIECE);
            if (n_pieces == cap_pieces) {
                cap_pieces = cap_pieces ? 2 * cap_pieces : 8;
                size_t *grown = realloc(owner, cap_pieces * sizeof(*owner));
                if (grown == NULL) {
                    rc = MV_ENOMEM;
                    goto done;
                }
                owner = grown;
            }
            owner[n_pieces] = i;
            mv_tool *t = mv_arena_calloc(arena, 1, sizeof(*t));
            mv_field *f = mv_arena_calloc(arena, 2, sizeof(*f));
            char *nm = mv_arena_alloc(arena, 24);
            if (t == NULL || f == NULL || nm == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            int nl = snprintf(nm, 24, "r%zu", n_pieces);
            t->server = MV_STR_LIT("result");
            t->name = (mv_str){nm, (size_t)nl};
            t->description = (mv_str){p, k};
            t->kind = MV_ITEM_TOOL;
            t->source_index = (uint32_t)n_pieces;
            f[0] = (mv_field){.kind = MV_FIELD_NAME,
                              .schema = MV_SCHEMA_NONE,
                              .param = -1,
                              .path = MV_STR_LIT("name"),
                              .text = t->name};
            f[1] = (mv_field){.kind = MV_FIELD_DESCRIPTION,
                              .schema = MV_SCHEMA_NONE,
                              .param = -1,
                              .path = MV_STR_LIT("description"),
                              .text = t->description};
            t->fields = f;
            t->n_fields = 2;
            if (mv_registry_add(reg, t) != MV_OK) {
                rc = MV_ENOMEM;
                goto done;
            }
            n_pieces++;
            p += k;
            left -= k;
        } while (left > 0);
    }
    mv_error_clear(err);
    if ((rc = mv_registry_freeze(reg)) != MV_OK ||
        (rc = mv_scan_new(&scan, e, reg, err)) != MV_OK ||
        (rc = mv_scan_run(scan, 1, err)) != MV_OK)
        goto done;
    for (size_t i = 0; i < mv_scan_finding_count(scan); i++) {
        const mv_finding *f = mv_scan_finding(scan, i);
        size_t piece = f->tool != NULL ? f->tool->source_index : i;
        if (piece >= n_pieces)
            continue;
        for (uint32_t k = 0; k < f->n_signals; k++) {
            if (f->signals[k].tier != MV_TIER_HARD)
                continue;
            if (strcmp(f->signals[k].check_id, "unicode.hidden") == 0 && !hidden[owner[piece]]) {
                hidden[owner[piece]] = true;
                (*n_hidden)++;
            } else if (strcmp(f->signals[k].check_id, "payload.decoded") == 0 &&
                       !payload[owner[piece]]) {
                payload[owner[piece]] = true;
                (*n_payload)++;
            }
        }
    }
done:
    free(owner);
    mv_scan_free(scan);
    mv_registry_free(reg);
    return rc;
}

/* What a result's scan found, as the log line and the audit event say it. */
static void findings_words(mv_buf *what, size_t n_hidden, size_t n_payload) {
    if (n_hidden > 0)
        mv_buf_printf(what, "hidden characters (unicode.hidden) in %zu text item%s", n_hidden,
                      n_hidden == 1 ? "" : "s");
    if (n_payload > 0)
        mv_buf_printf(what, "%san encoded payload (payload.decoded) in %zu text item%s",
                      n_hidden > 0 ? " and " : "", n_payload, n_payload == 1 ? "" : "s");
}

/* Record a finished scan of a result: the log line, then the audit event
 * (actor proxy, naming the tool, prompt or resource), and the counter:
 * the same for a result scanned inline and one scanned by the worker. A
 * scan that could not run is logged (the result was passed on). Touches
 * the store, so it runs on the front's thread or under cfg.lock (see
 * "Results off the relay's thread"). */
static void record_result(px_guard *g, px_result_kind kind, const char *name, size_t name_len,
                          int scan_rc, const char *scan_why, size_t n_hidden, size_t n_payload) {
    const char *method = px_result_method(kind);
    bool request = request_kind(kind);
    qname q;
    /* What was scanned, as the log names it. */
    char subject[sizeof q.s + 64];
    if (request)
        snprintf(subject, sizeof subject, "the server's %s request", method);
    else
        snprintf(subject, sizeof subject, "the result of %s %s", method,
                 quoted(&q, name, name_len));
    if (scan_rc == MV_ENOMEM) {
        px_log(g, "out of memory: %s was passed on unscanned", subject);
        return;
    }
    if (scan_rc != MV_OK) {
        px_log(g, "cannot scan %s (%s); passed on", subject, scan_why);
        return;
    }
    if (n_hidden == 0 && n_payload == 0)
        return;
    g->result_findings++;
    mv_buf what, nt;
    mv_buf_init(&what, NULL);
    mv_buf_init(&nt, NULL);
    findings_words(&what, n_hidden, n_payload);
    mv_proxy_results mode = g->cfg.results;
    const char *action = mode == MV_PROXY_RESULTS_BLOCK
                             ? (request ? "refused (--results block): the server gets an error"
                                        : "withheld (--results block)")
                         : mode == MV_PROXY_RESULTS_STRIP && n_hidden > 0
                             ? "hidden characters removed (--results strip)"
                             : "passed on unchanged (--results warn)";
    px_log(g, "%s carries %s; %s", subject, what.failed ? "findings" : what.data, action);
    mv_buf_printf(&nt, "%s %s carries %s; %s", method, request ? "request of the server" : "result",
                  what.failed ? "findings" : what.data, action);
    px_list nl = kind == PX_RESULT_CALL     ? PX_TOOLS
                 : kind == PX_RESULT_PROMPT ? PX_PROMPTS
                                            : PX_RESOURCES;
    /* A request of the server belongs to no tool: a server-level event. */
    if (!nt.failed)
        note(g, nl, request ? NULL : name, request ? 0 : name_len, nt.data);
    mv_buf_release(&nt);
    mv_buf_release(&what);
}

/* ------------------------------------------- results off the relay's thread
 *
 * --results warn never alters a result, so nothing the relay does next
 * depends on its scan (~0.3 ms of CPU at 64 KB). The result is passed on
 * at once and its texts are copied into a job for one worker thread per
 * guard (started on the first such result, stopped by
 * px_guard_scans_finish). strip and block still scan before relaying:
 * they change or refuse the result.
 *
 * Ownership, which is what makes this correct without more locks:
 *   - A job is owned by the submitting thread until it is linked into the
 *     queue (under q->mu), then by the worker from the moment it takes it
 *     (q->next moves past it, under q->mu) until it marks it done, then by
 *     whoever records it, who unlinks and frees it.
 *   - The worker reads the job, the results engine (never written after
 *     creation; engines are shared by threads) and its own arena. It never
 *     touches the store, the guard's counters or any other guard field;
 *     the log is written only by record_result, never by the scan.
 *   - Recording (record_result: log line, audit event, counter) touches
 *     the store and the counters, so it runs where every other guard call
 *     runs: with cfg.lock NULL (stdio) on the relay's own thread, in
 *     px_guard_scans_collect, woken by a byte on q->wake; with cfg.lock set
 *     (HTTP: the handle's mutex, which the front holds around every guard
 *     call) on the worker while holding that mutex. Lock order: cfg.lock
 *     before q->mu; the worker never holds q->mu while it waits for
 *     cfg.lock.
 *   - The queue is a FIFO and there is one worker, so results are scanned
 *     and recorded in the order they came, each one's log line before its
 *     audit event. A result that finds the queue full (more than
 *     cfg.scan_queue jobs, or MV_PROXY_SCAN_QUEUE_BYTES of text besides
 *     one job) is scanned and recorded where it is handled, as before the
 *     worker existed (never skipped; it may then be logged before older
 *     queued ones); the first one of such a run is logged. Memory is thus
 *     bounded by the cap whatever the flood.
 *   - px_guard_scans_finish stops the worker only after it has taken and
 *     scanned every job (it exits when the queue is empty and stop is
 *     set), joins it, then records what is left: nothing pending is lost
 *     when a side closes or the proxy is told to stop.
 */

typedef struct scan_job {
    struct scan_job *next;
    px_result_kind kind;
    const char *name; /* inside the job's own allocation */
    size_t name_len;
    mv_str *texts; /* the text items, copied (the relay's tree is gone by then) */
    bool *raw;     /* texts[i] still has its JSON escapes: the worker decodes it */
    size_t n;
    size_t bytes;
    bool done;    /* scanned, waits to be recorded (cfg.lock NULL) */
    int rc;       /* of scan_texts */
    mv_error err; /* why the scan could not run */
    size_t n_hidden, n_payload;
} scan_job;

static void run_job(const mv_engine *e, mv_arena *arena, scan_job *j) {
    /* The relay copied a long escaped text as it came (validated, not
     * decoded: its decoding is the worker's share); it is decoded here,
     * into one buffer for the job's raw texts. */
    size_t raw_bytes = 0;
    for (size_t i = 0; i < j->n; i++)
        if (j->raw[i])
            raw_bytes += j->texts[i].len + MV_JSON_RAW_SLACK;
    mv_str *texts = j->texts;
    char *dec = raw_bytes > 0 ? malloc(raw_bytes) : NULL;
    mv_str *own = raw_bytes > 0 ? malloc(j->n * sizeof(*own)) : NULL;
    bool *hidden = calloc(j->n + 1, sizeof(*hidden));
    bool *payload = calloc(j->n + 1, sizeof(*payload));
    mv_error_clear(&j->err);
    if (raw_bytes > 0 && dec != NULL && own != NULL) {
        char *at = dec;
        for (size_t i = 0; i < j->n; i++) {
            own[i] = j->texts[i];
            if (!j->raw[i])
                continue;
            own[i] = (mv_str){at, mv_json_raw_decode(at, j->texts[i].ptr, j->texts[i].len)};
            at += j->texts[i].len + MV_JSON_RAW_SLACK;
        }
        texts = own;
    }
    if (arena == NULL || hidden == NULL || payload == NULL ||
        (raw_bytes > 0 && (dec == NULL || own == NULL)))
        j->rc = MV_ENOMEM;
    else
        j->rc = scan_texts(e, arena, texts, j->n, hidden, payload, &j->n_hidden, &j->n_payload,
                           &j->err);
    free(own);
    free(dec);
    free(hidden);
    free(payload);
}

static void record_job(px_guard *g, const scan_job *j) {
    record_result(g, j->kind, j->name, j->name_len, j->rc, j->err.message, j->n_hidden,
                  j->n_payload);
}

static void *scan_worker(void *arg) {
    px_guard *g = arg;
    scan_q *q = &g->sq;
    mv_arena *arena = mv_arena_new(NULL, 4096);
#ifdef __linux__
    /* Only --results warn queues scans here: they are off the relay's path,
     * so on a busy machine the relay, the agent and the server go first
     * (Linux gives each thread its own nice value). A worker that falls
     * behind fills its queue, and the relay then scans inline. */
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
#endif
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (q->next == NULL && !q->stop)
            pthread_cond_wait(&q->work, &q->mu);
        scan_job *j = q->next;
        if (j == NULL)
            break; /* stop, and everything taken */
        q->next = j->next;
        pthread_mutex_unlock(&q->mu);
        run_job(g->results_engine, arena, j);
        if (g->cfg.lock != NULL) {
            pthread_mutex_lock(g->cfg.lock);
            record_job(g, j);
            pthread_mutex_unlock(g->cfg.lock);
            pthread_mutex_lock(&q->mu);
            /* One worker records in FIFO order: j is the head. */
            q->head = j->next;
            if (q->head == NULL)
                q->tail = NULL;
            q->n--;
            q->bytes -= j->bytes;
            free(j);
        } else {
            pthread_mutex_lock(&q->mu);
            j->done = true;
            /* A clean result has nothing to record: it only gives its
             * place back at the next collect (the next result, or the
             * end), without waking the relay. */
            bool findings = j->rc != MV_OK || j->n_hidden > 0 || j->n_payload > 0;
            if (findings && !q->signalled) {
                char b = 1;
                q->signalled = write(q->wake[1], &b, 1) == 1;
            }
        }
    }
    pthread_mutex_unlock(&q->mu);
    mv_arena_free(arena);
    return NULL;
}

static bool scans_start(px_guard *g) {
    scan_q *q = &g->sq;
    if (q->started)
        return true;
    if (g->cfg.lock == NULL && q->wake[0] < 0) {
        if (pipe(q->wake) != 0) {
            q->wake[0] = q->wake[1] = -1;
            return false;
        }
        for (int i = 0; i < 2; i++) {
            int fl = fcntl(q->wake[i], F_GETFL);
            fcntl(q->wake[i], F_SETFL, fl | O_NONBLOCK);
            fcntl(q->wake[i], F_SETFD, FD_CLOEXEC);
        }
    }
    /* The worker takes no signal: a SIGTERM is the relay's to handle. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    q->stop = false;
    q->started = pthread_create(&q->thread, NULL, scan_worker, g) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return q->started;
}

/* Queue the texts of a result for the worker: true when queued (the
 * caller passes the result on and is done with it), false when the caller
 * must scan it itself (no worker, the queue full, out of memory). */
static bool scans_submit(px_guard *g, px_result_kind kind, const char *name, size_t name_len,
                         const text_slots *s) {
    scan_q *q = &g->sq;
    if (g->cfg.scan_queue <= 0)
        return false;
    if (!q->started && !scans_start(g)) {
        if (!q->start_failed)
            px_log(g, "cannot start the result scanner thread; results are scanned on the "
                      "relay's thread");
        q->start_failed = true;
        return false;
    }
    if (g->cfg.lock == NULL)
        px_guard_scans_collect(g); /* frees the places of finished scans */
    size_t bytes = name_len;
    for (size_t i = 0; i < s->n; i++)
        bytes += s->text[i]->n; /* a string's length, or a raw text's (not shorter) */
    pthread_mutex_lock(&q->mu);
    size_t waiting = q->n;
    bool full = q->n >= (size_t)g->cfg.scan_queue ||
                (q->n > 0 && q->bytes + bytes > MV_PROXY_SCAN_QUEUE_BYTES);
    pthread_mutex_unlock(&q->mu);
    /* Only the worker changes the queue meanwhile, and it only empties it:
     * a queue found with room still has room below. */
    if (full) {
        /* Logged at the 1st, 10th, 100th ... such result: a flood cannot
         * flood the log. */
        g->scans_inline++;
        if (g->scans_inline >= q->behind_next) {
            px_log(g,
                   "the result scanner is behind (%zu results waiting): this result and "
                   "%llu so far were scanned on the relay's thread after they were passed on",
                   waiting, (unsigned long long)g->scans_inline - 1);
            q->behind_next = g->scans_inline * 10;
        }
        return false;
    }
    scan_job *j = malloc(sizeof(*j) + s->n * (sizeof(mv_str) + sizeof(bool)) + bytes + 1);
    if (j == NULL)
        return false; /* scanned inline, which reports its own failure */
    memset(j, 0, sizeof(*j));
    j->kind = kind;
    j->texts = (mv_str *)(void *)(j + 1);
    j->raw = (bool *)(void *)(j->texts + s->n);
    char *at = (char *)(j->raw + s->n);
    memcpy(at, name, name_len);
    j->name = at;
    j->name_len = name_len;
    at += name_len;
    for (size_t i = 0; i < s->n; i++) {
        const mv_jv *text = s->text[i];
        size_t len = text->n;
        if (len > 0)
            memcpy(at, text->u.s, len);
        j->texts[i] = (mv_str){at, len};
        j->raw[i] = mv_jis_raw(text);
        at += len;
    }
    j->n = s->n;
    j->bytes = bytes;
    g->scans_queued++;
    pthread_mutex_lock(&q->mu);
    if (q->tail != NULL)
        q->tail->next = j;
    else
        q->head = j;
    q->tail = j;
    if (q->next == NULL)
        q->next = j;
    q->n++;
    q->bytes += bytes;
    if (q->n > q->peak_n)
        q->peak_n = q->n;
    if (q->bytes > q->peak_bytes)
        q->peak_bytes = q->bytes;
    pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->mu);
    return true;
}

int px_guard_scans_fd(const px_guard *g) {
    return g->sq.started && g->cfg.lock == NULL ? g->sq.wake[0] : -1;
}

void px_guard_scans_collect(px_guard *g) {
    scan_q *q = &g->sq;
    if (g->cfg.lock != NULL || q->wake[0] < 0)
        return;
    scan_job *first = NULL, *last = NULL;
    pthread_mutex_lock(&q->mu);
    while (q->head != NULL && q->head->done) {
        scan_job *j = q->head;
        q->head = j->next;
        q->n--;
        q->bytes -= j->bytes;
        j->next = NULL;
        if (last != NULL)
            last->next = j;
        else
            first = j;
        last = j;
    }
    if (q->head == NULL)
        q->tail = NULL;
    if (q->signalled) { /* the pipe holds the worker's one byte */
        char buf[64];
        while (read(q->wake[0], buf, sizeof buf) > 0) {
        }
        q->signalled = false;
    }
    pthread_mutex_unlock(&q->mu);
    while (first != NULL) {
        scan_job *j = first;
        first = j->next;
        record_job(g, j);
        free(j);
    }
}

void px_guard_scans_finish(px_guard *g) {
    scan_q *q = &g->sq;
    if (!q->started)
        return;
    pthread_mutex_lock(&q->mu);
    q->stop = true;
    pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->thread, NULL);
    q->started = false;
    q->stop = false;
    px_guard_scans_collect(g); /* cfg.lock set: the worker recorded them */
}

void px_guard_scan_stats(px_guard *g, px_scan_stats *out) {
    out->queued = g->scans_queued;
    out->inline_full = g->scans_inline;
    pthread_mutex_lock(&g->sq.mu);
    out->peak_jobs = g->sq.peak_n;
    out->peak_bytes = g->sq.peak_bytes;
    pthread_mutex_unlock(&g->sq.mu);
}

int px_guard_result(px_guard *g, px_result_kind kind, const char *name, size_t name_len,
                    const mv_jv *root, mv_buf *out) {
    const mv_jv *result = mv_jobject_get(root, request_kind(kind) ? "params" : "result");
    text_slots s;
    mv_str *texts = NULL;
    mv_error err;
    int rc = MV_OK;
    bool *hidden = NULL, *payload = NULL;
    char **own = NULL; /* decoded copies of raw texts */
    size_t n_hidden = 0, n_payload = 0;
    memset(&s, 0, sizeof(s));
    mv_error_clear(&err);
    if (!mv_jis_object(result))
        goto done;
    if ((rc = collect_slots(&s, kind, result)) != MV_OK)
        goto done;
    if (s.n == 0)
        goto done;
    if (g->cfg.results == MV_PROXY_RESULTS_WARN && scans_submit(g, kind, name, name_len, &s))
        goto done;
    texts = calloc(s.n, sizeof(*texts));
    hidden = calloc(s.n, sizeof(*hidden));
    payload = calloc(s.n, sizeof(*payload));
    own = calloc(s.n, sizeof(*own));
    if (texts == NULL || hidden == NULL || payload == NULL || own == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < s.n; i++) {
        texts[i] = text_of(s.text[i], &own[i]);
        if (texts[i].ptr == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    rc = scan_texts(g->results_engine, g->rarena, texts, s.n, hidden, payload, &n_hidden,
                    &n_payload, &err);
    if (rc == MV_ENOMEM)
        goto done;
    record_result(g, kind, name, name_len, rc, err.message, n_hidden, n_payload);
    if (rc != MV_OK || (n_hidden == 0 && n_payload == 0)) {
        rc = MV_OK;
        goto done;
    }
    mv_proxy_results mode = g->cfg.results;
    if (mode == MV_PROXY_RESULTS_BLOCK && request_kind(kind)) {
        /* The agent never sees it; the server gets an error for it. */
        mv_buf what, msgt;
        mv_buf_init(&what, NULL);
        mv_buf_init(&msgt, NULL);
        findings_words(&what, n_hidden, n_payload);
        mv_buf_printf(&msgt,
                      "mcpvet proxy withheld this %s request from the client: it carries %s, "
                      "which can smuggle instructions to the model.",
                      px_result_method(kind), what.failed ? "findings" : what.data);
        mv_buf_puts(out, "{\"jsonrpc\":\"2.0\",\"id\":");
        mv_json_write(out, mv_jobject_get(root, "id"));
        mv_buf_puts(out, ",\"error\":{\"code\":-32000,\"message\":");
        mv_buf_json_string(out, msgt.data != NULL ? msgt.data : "", msgt.len);
        mv_buf_puts(out, "}}");
        mv_buf_release(&msgt);
        mv_buf_release(&what);
        rc = out->failed ? MV_ENOMEM : 2;
    } else if (mode == MV_PROXY_RESULTS_BLOCK) {
        mv_buf what, msgt;
        mv_buf_init(&what, NULL);
        mv_buf_init(&msgt, NULL);
        findings_words(&what, n_hidden, n_payload);
        mv_buf_printf(&msgt, "mcpvet proxy withheld the result of %s ",
                      kind == PX_RESULT_CALL     ? "the tool"
                      : kind == PX_RESULT_PROMPT ? "the prompt"
                                                 : "the resource");
        mv_buf_json_string(&msgt, name, name_len);
        mv_buf_printf(&msgt, ": it carries %s, which can smuggle instructions to the model.",
                      what.failed ? "findings" : what.data);
        mv_buf_puts(out, "{\"jsonrpc\":\"2.0\",\"id\":");
        mv_json_write(out, mv_jobject_get(root, "id"));
        if (kind == PX_RESULT_CALL) {
            /* A tool's failure is a result the model reads. */
            mv_buf_puts(out, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
            mv_buf_json_string(out, msgt.data != NULL ? msgt.data : "", msgt.len);
            mv_buf_puts(out, "}],\"isError\":true}}");
        } else {
            mv_buf_puts(out, ",\"error\":{\"code\":-32000,\"message\":");
            mv_buf_json_string(out, msgt.data != NULL ? msgt.data : "", msgt.len);
            mv_buf_puts(out, "}}");
        }
        mv_buf_release(&msgt);
        mv_buf_release(&what);
        rc = out->failed ? MV_ENOMEM : 1;
    } else if (mode == MV_PROXY_RESULTS_STRIP && n_hidden > 0) {
        /* Count first (the marker says how many), then write. */
        size_t removed = 0;
        mv_buf scratch;
        mv_buf_init(&scratch, NULL);
        for (size_t i = 0; i < s.n; i++) {
            if (!hidden[i])
                continue;
            scratch.len = 0;
            removed += strip_hidden(&scratch, texts[i].ptr, texts[i].len);
        }
        mv_buf_release(&scratch);
        mv_buf marker;
        mv_buf_init(&marker, NULL);
        strip_marker(&marker, kind, removed, &s, hidden);
        strip_ctx c = {.s = &s, .flag = hidden, .marker = marker.data, .removed = 0};
        if (s.array == NULL)
            c.marker = NULL;
        write_stripped(out, root, &c);
        if (marker.failed)
            out->failed = 1;
        mv_buf_release(&marker);
        rc = out->failed ? MV_ENOMEM : 1;
    }
done:
    slots_free(&s);
    for (size_t i = 0; own != NULL && i < s.n; i++)
        free(own[i]);
    free(own);
    free(texts);
    free(hidden);
    free(payload);
    return rc;
}
