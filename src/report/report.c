/*
 * Report entry point and the pieces every format shares: option defaults,
 * format and fail-on names, the exit-code rule, a locale-free fixed-point
 * number formatter and render-safe copies of tool-supplied strings. The
 * format-specific layouts live in text.c, json.c and sarif.c.
 */
#include "report_int.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "mcpvet/evidence.h"

/* Streaming: staged bytes go to the sink once they reach this size. */
#define MV_REPORT_FLUSH_BYTES (256u * 1024u)
/* Items rendered between flush checks on one thread. */
#define MV_REPORT_BATCH 64u
/* Items per thread per parallel batch; bounds the worker buffers. */
#define MV_REPORT_PAR_BATCH 2048u
/* Fewer items than this per thread are not worth a thread. */
#define MV_REPORT_MIN_PAR_ITEMS 256u
#define MV_REPORT_MAX_JOBS 64u

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

const char *mv_report_format_name(mv_report_format format) {
    switch (format) {
    case MV_REPORT_JSON:
        return "json";
    case MV_REPORT_SARIF:
        return "sarif";
    case MV_REPORT_TEXT:
    default:
        return "text";
    }
}

int mv_report_parse_format(mv_report_format *out, const char *name) {
    int rc = MV_EINVAL;
    if (out == NULL || name == NULL)
        goto done;
    if (strcmp(name, "text") == 0)
        *out = MV_REPORT_TEXT;
    else if (strcmp(name, "json") == 0)
        *out = MV_REPORT_JSON;
    else if (strcmp(name, "sarif") == 0)
        *out = MV_REPORT_SARIF;
    else
        goto done;
    rc = MV_OK;
done:
    return rc;
}

int mv_report_parse_fail_on(mv_verdict *out, const char *name) {
    int rc = MV_EINVAL;
    if (out == NULL || name == NULL)
        goto done;
    if (strcmp(name, "review") == 0)
        *out = MV_VERDICT_REVIEW;
    else if (strcmp(name, "quarantine") == 0)
        *out = MV_VERDICT_QUARANTINE;
    else
        goto done;
    rc = MV_OK;
done:
    return rc;
}

int mv_report_exit_code(const mv_scan *s, mv_verdict fail_on) {
    if (s == NULL)
        return MV_EXIT_USAGE;
    if (fail_on < MV_VERDICT_REVIEW)
        fail_on = MV_VERDICT_REVIEW;
    /* Some finding at or above fail_on: the worst verdict is (the summary
     * also covers a scan streamed range by range). */
    if (mv_scan_summarize(s).worst >= fail_on)
        return MV_EXIT_FINDINGS;
    const mv_coverage *cov = mv_scan_coverage(s);
    /* Without a coverage record nobody can vouch for the scan. */
    if (cov == NULL || cov->degraded)
        return MV_EXIT_DEGRADED;
    return MV_EXIT_OK;
}

const mv_report_tool_state *mv_report_tool_state_of(const mv_report_ctx *ctx, size_t i) {
    const mv_report_options *o = ctx->opts;
    if (o->states == NULL || i >= o->n_states || o->states[i].state == NULL)
        return NULL;
    return &o->states[i];
}

size_t mv_report_incomplete_servers(const mv_report_ctx *ctx) {
    size_t n = 0;
    for (size_t i = 0; i < ctx->opts->n_servers; i++)
        n += mv_report_server_incomplete(&ctx->opts->servers[i]);
    return n;
}

bool mv_report_degraded(const mv_report_ctx *ctx) {
    return ctx->coverage->degraded || mv_report_incomplete_servers(ctx) > 0;
}

mv_str mv_report_safe_cstr(mv_report_ctx *ctx, const char *s, size_t cap) {
    if (s == NULL)
        return MV_STR_LIT("");
    return mv_report_safe(ctx, s, strlen(s), cap);
}

bool mv_report_server_incomplete(const mv_report_server *s) {
    /* A disabled server is not started by its client either: the agent never
     * sees its tools, so not scanning it leaves nothing out. */
    return s == NULL || s->status == NULL ||
           (strcmp(s->status, "ok") != 0 && strcmp(s->status, "disabled") != 0);
}

bool mv_report_state_fails(const mv_report_tool_state *st, bool fail_on_pending) {
    if (st == NULL || st->state == NULL)
        return false;
    return strcmp(st->state, "changed") == 0 || strcmp(st->state, "quarantined") == 0 ||
           (fail_on_pending && strcmp(st->state, "pending") == 0);
}

int mv_report_exit_code_opts(const mv_scan *s, const mv_report_options *opts) {
    mv_verdict fail_on = opts != NULL && opts->fail_on != MV_VERDICT_CLEAN ? opts->fail_on
                                                                            : MV_VERDICT_QUARANTINE;
    int code = mv_report_exit_code(s, fail_on);
    if (code == MV_EXIT_USAGE || opts == NULL)
        return code;
    /* The store's memory: a rug pull (changed), a quarantine kept by a
     * person, or (asked for) a tool nobody approved fails the run. */
    for (size_t i = 0; opts->states != NULL && i < opts->n_states; i++)
        if (mv_report_state_fails(&opts->states[i], opts->fail_on_pending))
            return MV_EXIT_FINDINGS;
    if (opts->changed_servers != NULL && opts->changed_servers[0] != NULL)
        return MV_EXIT_FINDINGS;
    if (code != MV_EXIT_OK)
        return code;
    for (size_t i = 0; i < opts->n_servers; i++)
        if (mv_report_server_incomplete(&opts->servers[i]))
            return MV_EXIT_DEGRADED;
    return MV_EXIT_OK;
}

int mv_report_put_fixed(mv_buf *b, double value, unsigned decimals) {
    static const double scale[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (decimals > 9)
        decimals = 9;
    if (isnan(value))
        value = 0.0;
    if (value > 1e15)
        value = 1e15;
    if (value < -1e15)
        value = -1e15;
    /* Integer arithmetic from here on: printf's %llu is locale-independent,
     * %f is not (a German locale would print "0,930"). */
    long long scaled = llround(value * scale[decimals]);
    unsigned long long mag =
        scaled < 0 ? (unsigned long long)(-scaled) : (unsigned long long)scaled;
    unsigned long long unit = (unsigned long long)scale[decimals];
    /* perf26: sign, whole part and fraction built from the end, then one
     * append (the bytes the three appends wrote) */
    char tmp[32]; /* '-', 20 digits, '.', 9 decimals */
    size_t n = sizeof tmp;
    if (decimals > 0) {
        unsigned long long rest = mag % unit;
        for (unsigned d = decimals; d >= 1; d--) {
            tmp[--n] = (char)('0' + rest % 10);
            rest /= 10;
        }
        tmp[--n] = '.';
    }
    unsigned long long whole = mag / unit;
    do {
        tmp[--n] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole != 0);
    if (scaled < 0)
        tmp[--n] = '-';
    mv_buf_append(b, tmp + n, sizeof tmp - n);
    return b->failed ? MV_ENOMEM : MV_OK;
}

/* True when mv_evidence_render would give back the bytes unchanged:
 * printable ASCII without a backslash (the one visible character it
 * escapes). Names, paths and file names nearly always are. */
static bool render_plain(const char *ptr, size_t len) {
    /* perf26: eight bytes at a time first. A word is plain when no byte
     * has the top bit set, none is below 0x20 and none equals 0x7F or
     * '\\'; the test may flag a plain byte (a borrow from a neighbour),
     * never miss one, and a flagged word is decided by the byte loop. */
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const unsigned char *p = (const unsigned char *)ptr;
    size_t i = 0;
    for (; len - i >= 8; i += 8) {
        uint64_t x, bs, del;
        memcpy(&x, p + i, 8);
        bs = x ^ (ones * '\\');
        del = x ^ (ones * 0x7F);
        if ((x | ((x - ones * 0x20) & ~x) | ((bs - ones) & ~bs) | ((del - ones) & ~del)) & highs)
            break;
    }
    for (; i < len; i++) {
        if (p[i] < 0x20 || p[i] >= 0x7F || p[i] == '\\')
            return false;
    }
    return true;
}

mv_str mv_report_safe(mv_report_ctx *ctx, const char *ptr, size_t len, size_t cap) {
    mv_str out = MV_STR_LIT("?");
    /* Plain text that fits renders as itself (one output byte per input
     * byte, no truncation), so the input is returned without a copy. */
    if (len <= cap && (len == 0 || ptr != NULL) && render_plain(ptr, len)) {
        out.ptr = len > 0 ? ptr : "";
        out.len = len;
        return out;
    }
    /* The worst expansion is 6 output bytes per input byte (\u001B), so a
     * short string never needs a full-cap allocation. */
    size_t need = len <= (SIZE_MAX - 16) / 6 ? 6 * len + 16 : SIZE_MAX;
    if (need > cap)
        need = cap;
    if (need < 16)
        need = 16;
    if (mv_evidence_render(ctx->arena, ptr, len, need, &out, NULL) != MV_OK) {
        ctx->failed = true;
        out = MV_STR_LIT("?");
    }
    return out;
}

mv_str mv_report_tool_label(mv_report_ctx *ctx, const mv_tool *tool) {
    mv_str out = MV_STR_LIT("?");
    size_t len = tool->server.len + 1 + tool->name.len;
    /* Both halves plain and short: rendering the joined label changes
     * nothing, so it is just the concatenation. */
    if (len <= 2 * MV_REPORT_NAME_CAP && render_plain(tool->server.ptr, tool->server.len) &&
        render_plain(tool->name.ptr, tool->name.len)) {
        char *d = mv_arena_alloc(ctx->arena, len + 1);
        if (d == NULL) {
            ctx->failed = true;
            return out;
        }
        if (tool->server.len > 0)
            memcpy(d, tool->server.ptr, tool->server.len);
        d[tool->server.len] = '/';
        if (tool->name.len > 0)
            memcpy(d + tool->server.len + 1, tool->name.ptr, tool->name.len);
        d[len] = '\0';
        out.ptr = d;
        out.len = len;
        return out;
    }
    mv_buf tmp;
    mv_buf_init(&tmp, ctx->alloc);
    mv_buf_append(&tmp, tool->server.ptr, tool->server.len);
    mv_buf_putc(&tmp, '/');
    mv_buf_append(&tmp, tool->name.ptr, tool->name.len);
    if (tmp.failed)
        ctx->failed = true;
    else
        out = mv_report_safe(ctx, tmp.data, tmp.len, 2 * MV_REPORT_NAME_CAP);
    /* The rendering may be tmp itself (plain input): keep a copy. */
    if (!ctx->failed && out.ptr == tmp.data) {
        char *d = mv_arena_alloc(ctx->arena, out.len + 1);
        if (d == NULL) {
            ctx->failed = true;
            out = MV_STR_LIT("?");
        } else {
            memcpy(d, out.ptr, out.len);
            d[out.len] = '\0';
            out.ptr = d;
        }
    }
    mv_buf_release(&tmp);
    return out;
}

mv_str mv_report_tool_source(mv_report_ctx *ctx, size_t tool_index) {
    const mv_report_options *o = ctx->opts;
    mv_str out = MV_STR_LIT("");
    if (o->sources == NULL || tool_index >= o->n_sources)
        goto done;
    const char *src = o->sources[tool_index];
    if (src == NULL || src[0] == '\0' || (src[0] == '-' && src[1] == '\0'))
        goto done;
    /* Every tool of one input file shares the same source pointer: render
     * it once, not once per tool (a long path costs thousands of
     * instructions through the evidence renderer). */
    if (src == ctx->source_key) {
        out = ctx->source_val;
        goto done;
    }
    out = mv_report_safe(ctx, src, strlen(src), MV_REPORT_SOURCE_CAP);
    if (ctx->failed)
        goto done;
    char *copy = mv_alloc(ctx->alloc, out.len + 1);
    if (copy == NULL)
        goto done; /* no cache; the arena copy serves this tool */
    memcpy(copy, out.ptr, out.len);
    copy[out.len] = '\0';
    mv_free(ctx->alloc, ctx->source_mem, ctx->source_mem_size);
    ctx->source_mem = copy;
    ctx->source_mem_size = out.len + 1;
    ctx->source_key = src;
    ctx->source_val = (mv_str){copy, out.len};
    out = ctx->source_val;
done:
    return out;
}

mv_tier mv_report_check_tier(const mv_finding *f, const char *id) {
    mv_tier best = MV_TIER_INFO;
    for (uint32_t i = 0; i < f->n_signals; i++) {
        const mv_signal *sig = &f->signals[i];
        if (strcmp(sig->check_id, id) == 0 && sig->tier > best)
            best = sig->tier;
    }
    return best;
}

uint64_t mv_report_failed_tool_count(const mv_report_ctx *ctx, const char *id) {
    uint64_t count = 0;
    if (ctx->failed_count_ids != NULL) {
        for (size_t i = 0; i < ctx->n_failed_counts; i++)
            if (strcmp(ctx->failed_count_ids[i], id) == 0)
                return ctx->failed_counts[i];
        return 0;
    }
    size_t n = mv_scan_finding_count(ctx->scan);
    for (size_t i = 0; i < n; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        for (uint32_t k = 0; f != NULL && k < f->n_failed_checks; k++) {
            if (strcmp(f->failed_checks[k], id) == 0) {
                count++;
                break;
            }
        }
    }
    return count;
}

typedef struct known_check {
    const char *id;
    mv_tier tier;
    const char *description;
} known_check;

static const known_check known_checks[] = {
    {"unicode.hidden", MV_TIER_HARD,
     "Invisible or direction-changing Unicode characters (zero-width, tag, bidi) "
     "that can carry text a person reviewing the tool cannot see."},
    {"shadowing.cross_server", MV_TIER_HARD,
     "A tool that impersonates or redirects the tool of another server, so the "
     "agent calls the wrong one."},
    {"payload.decoded", MV_TIER_HARD,
     "An encoded blob (base64, hex, percent-encoding) in the tool definition that "
     "decodes to commands or instructions."},
    {"directive.imperative", MV_TIER_SOFT,
     "Text addressed to the model rather than the user: overriding instructions, "
     "demands for secrecy, orders to call other tools."},
    {"capability.mismatch", MV_TIER_SOFT,
     "Access the tool asks for (files, network, shell, credentials) that its stated "
     "purpose does not explain."},
    {"secret.embedded", MV_TIER_SOFT,
     "A credential, token or private key embedded in the tool definition."},
    {"wording.learned", MV_TIER_SOFT,
     "Wording that a model learned from labeled attacks and honest tools scores "
     "as an order to the model (raised for review, never quarantined on its own)."},
};

static const known_check *find_known(const char *id) {
    for (size_t i = 0; i < sizeof known_checks / sizeof known_checks[0]; i++) {
        if (strcmp(known_checks[i].id, id) == 0)
            return &known_checks[i];
    }
    return NULL;
}

const char *mv_report_check_description(const char *id) {
    const known_check *k = find_known(id);
    return k != NULL ? k->description : NULL;
}

mv_tier mv_report_check_default_tier(const char *id) {
    const known_check *k = find_known(id);
    return k != NULL ? k->tier : MV_TIER_SOFT;
}

void mv_report_json_cstr(mv_buf *b, const char *s) {
    if (s == NULL)
        mv_buf_puts(b, "null");
    else
        mv_buf_json_string(b, s, strlen(s));
}

void mv_report_json_str(mv_buf *b, mv_str s) {
    mv_buf_json_string(b, s.ptr != NULL ? s.ptr : "", s.ptr != NULL ? s.len : 0);
}

void mv_report_flush(mv_report_ctx *ctx, bool force) {
    mv_buf *b = ctx->out;
    if (ctx->write == NULL || b->len == 0 || (!force && b->len < MV_REPORT_FLUSH_BYTES))
        return;
    if (!ctx->write_failed && ctx->write(ctx->write_arg, b->data, b->len) != 0)
        ctx->write_failed = true;
    /* Emptied even after a failed write, so memory stays bounded. */
    b->len = 0;
    b->data[0] = '\0';
}

/* Append rendered bytes to the report: straight to the sink when
 * streaming (after what is staged), else to the output buffer. */
void mv_report_emit(mv_report_ctx *ctx, const char *data, size_t len) {
    if (len == 0)
        return;
    if (ctx->write == NULL) {
        mv_buf_append(ctx->out, data, len);
        return;
    }
    mv_report_flush(ctx, true);
    if (!ctx->write_failed && ctx->write(ctx->write_arg, data, len) != 0)
        ctx->write_failed = true;
}

typedef struct range_worker {
    mv_report_ctx c; /* private copy: own buffer, arena and source cache */
    mv_buf buf;
    mv_jw w;
    bool use_w;
    bool wrote;
    size_t begin, end;
    mv_report_range_fn fn;
    const void *arg;
    pthread_t thread;
    bool started;
} range_worker;

static void *range_worker_main(void *p) {
    range_worker *k = p;
    k->wrote = k->fn(&k->c, k->use_w ? &k->w : NULL, k->begin, k->end, k->arg);
    return NULL;
}

static int ranges_parallel(mv_report_ctx *ctx, mv_jw *w, size_t first, size_t n,
                           mv_report_range_fn fn, const void *arg, unsigned jobs) {
    int rc = MV_ENOMEM;
    range_worker *ks = mv_alloc(ctx->alloc, jobs * sizeof *ks);
    unsigned made = 0;
    if (ks == NULL)
        goto done;
    for (; made < jobs; made++) {
        range_worker *k = &ks[made];
        memset(k, 0, sizeof *k);
        k->c = *ctx;
        k->c.out = &k->buf;
        k->c.arena = mv_arena_new(ctx->alloc, 0);
        k->c.failed = false;
        k->c.write = NULL;
        k->c.write_arg = NULL;
        k->c.jobs = 1;
        k->c.source_key = NULL;
        k->c.source_mem = NULL;
        k->c.source_mem_size = 0;
        mv_buf_init(&k->buf, ctx->alloc);
        if (k->c.arena == NULL)
            goto done;
        k->fn = fn;
        k->arg = arg;
        k->use_w = w != NULL;
    }
    size_t batch = (size_t)MV_REPORT_PAR_BATCH * jobs;
    for (size_t start = first; start < n; start += batch) {
        size_t stop = n - start < batch ? n : start + batch;
        size_t span = stop - start;
        for (unsigned t = 0; t < jobs; t++) {
            range_worker *k = &ks[t];
            k->begin = start + span * t / jobs;
            k->end = start + span * (t + 1) / jobs;
            k->buf.len = 0;
            if (k->buf.data != NULL)
                k->buf.data[0] = '\0';
            k->wrote = false;
            k->started = false;
            if (w != NULL) {
                /* Every worker writes as if items came before it (a leading
                 * ','); the one that really comes first loses it below. */
                k->w = *w;
                k->w.b = &k->buf;
                k->w.has_items[w->depth] = true;
            }
            /* Worker 0 is the calling thread; a thread that cannot be
             * started runs inline (same bytes, just slower). */
            if (t > 0 && pthread_create(&k->thread, NULL, range_worker_main, k) == 0)
                k->started = true;
        }
        for (unsigned t = 0; t < jobs; t++) {
            range_worker *k = &ks[t];
            if (t == 0 || !k->started)
                range_worker_main(k);
        }
        for (unsigned t = 1; t < jobs; t++) {
            if (ks[t].started)
                pthread_join(ks[t].thread, NULL);
        }
        for (unsigned t = 0; t < jobs; t++) {
            range_worker *k = &ks[t];
            if (k->c.failed || k->buf.failed)
                ctx->failed = true;
            size_t skip = 0;
            if (w != NULL && k->wrote) {
                assert(k->buf.len > 0 && k->buf.data[0] == ',');
                if (!w->has_items[w->depth])
                    skip = 1;
                w->has_items[w->depth] = true;
            }
            if (k->buf.len > skip)
                mv_report_emit(ctx, k->buf.data + skip, k->buf.len - skip);
        }
        if (ctx->failed)
            break;
    }
    rc = MV_OK;
done:
    for (unsigned t = 0; t < made; t++) {
        mv_arena_free(ks[t].c.arena);
        mv_buf_release(&ks[t].buf);
        mv_free(ctx->alloc, ks[t].c.source_mem, ks[t].c.source_mem_size);
    }
    mv_free(ctx->alloc, ks, jobs * sizeof *ks);
    return rc;
}

int mv_report_ranges_span(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end,
                          mv_report_range_fn fn, const void *arg) {
    unsigned jobs = ctx->jobs > MV_REPORT_MAX_JOBS ? MV_REPORT_MAX_JOBS : ctx->jobs;
    size_t n = end > begin ? end - begin : 0;
    /* Threads pay off only with enough items to share. */
    if (jobs > 1 && n >= 2u * MV_REPORT_MIN_PAR_ITEMS) {
        if ((size_t)jobs > n / MV_REPORT_MIN_PAR_ITEMS)
            jobs = (unsigned)(n / MV_REPORT_MIN_PAR_ITEMS);
        int rc = ranges_parallel(ctx, w, begin, end, fn, arg, jobs);
        if (rc != MV_OK)
            ctx->failed = true;
        return rc;
    }
    for (size_t start = begin; start < end; start += MV_REPORT_BATCH) {
        size_t stop = end - start < MV_REPORT_BATCH ? end : start + MV_REPORT_BATCH;
        fn(ctx, w, start, stop, arg);
        mv_report_flush(ctx, false);
        if (ctx->failed || ctx->out->failed)
            break;
    }
    return ctx->failed || ctx->out->failed ? MV_ENOMEM : MV_OK;
}

int mv_report_ranges(mv_report_ctx *ctx, mv_jw *w, size_t n, mv_report_range_fn fn,
                     const void *arg) {
    return mv_report_ranges_span(ctx, w, 0, n, fn, arg);
}

static int render(mv_buf *out, mv_report_write_fn write, void *write_arg, const mv_scan *s,
                  const mv_report_options *opts, mv_error *err) {
    static const mv_report_options defaults = {0};
    int rc = MV_OK;
    mv_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (out == NULL || s == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "report: no scan or output buffer");
        goto done;
    }
    if (opts == NULL)
        opts = &defaults;
    ctx.scan = s;
    ctx.registry = mv_scan_registry(s);
    ctx.coverage = mv_scan_coverage(s);
    if (ctx.registry == NULL || ctx.coverage == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "report: the scan has not been run");
        goto done;
    }
    if (mv_scan_streamed(s)) {
        rc = mv_error_set(err, MV_EINVAL,
                          "report: a scan run by ranges is rendered by mv_report_stream");
        goto done;
    }
    ctx.summary = mv_scan_summarize(s);
    ctx.opts = opts;
    ctx.version = opts->version != NULL ? opts->version : MCPVET_VERSION;
    ctx.fail_on = opts->fail_on < MV_VERDICT_REVIEW ? MV_VERDICT_QUARANTINE : opts->fail_on;
    ctx.out = out;
    ctx.alloc = out->alloc;
    ctx.write = write;
    ctx.write_arg = write_arg;
    ctx.jobs = opts->jobs > 0 ? opts->jobs : 1;
    ctx.arena = mv_arena_new(ctx.alloc, 0);
    if (ctx.arena == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "report: out of memory");
        goto done;
    }
    switch (opts->format) {
    case MV_REPORT_TEXT:
        rc = mv_report_render_text(&ctx);
        break;
    case MV_REPORT_JSON:
        rc = mv_report_render_json(&ctx);
        break;
    case MV_REPORT_SARIF:
        rc = mv_report_render_sarif(&ctx);
        break;
    default:
        rc = mv_error_set(err, MV_EINVAL, "report: unknown format %d", (int)opts->format);
        goto done;
    }
    if (rc == MV_OK && (ctx.failed || out->failed))
        rc = MV_ENOMEM;
    if (rc == MV_OK)
        mv_report_flush(&ctx, true);
    if (rc == MV_OK && ctx.write_failed)
        rc = MV_EIO;
    if (rc != MV_OK)
        mv_error_set(err, rc, "report: %s", mv_strerror(rc));
done:
    mv_arena_free(ctx.arena);
    mv_free(ctx.alloc, ctx.source_mem, ctx.source_mem_size);
    return rc;
}

int mv_report_render(mv_buf *out, const mv_scan *s, const mv_report_options *opts, mv_error *err) {
    return render(out, NULL, NULL, s, opts, err);
}

int mv_report_render_to(mv_report_write_fn write, void *arg, const mv_scan *s,
                        const mv_report_options *opts, mv_error *err) {
    int rc;
    mv_buf staging;
    mv_buf_init(&staging, NULL);
    if (write == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "report: no output sink");
        goto done;
    }
    rc = render(&staging, write, arg, s, opts, err);
done:
    mv_buf_release(&staging);
    return rc;
}
