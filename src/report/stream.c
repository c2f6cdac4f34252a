/*
 * Streamed reports (mv_report_stream in include/mcpvet/report.h): a scan
 * run range by range keeps only one range's findings, but every format
 * opens with what needs them all (JSON's summary and coverage, SARIF's
 * rules and notifications, text's header and its verdict order). So each
 * range's per-tool part is rendered at once into a spill (memory, then an
 * unlinked temporary file once it grows), with the same range functions
 * and writer state the whole-scan renderers use, and finish writes the
 * opening parts, the spills and the end. What the opening parts need from
 * the findings (SARIF's rules and failed-tool counts, text's trailing blank
 * line) is accumulated range by range.
 */
#define _GNU_SOURCE /* copy_file_range, loff_t on glibc with _POSIX_C_SOURCE */
#include "report_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

/* A spill stays in memory up to this size, then moves to a temporary file
 * (small scans never touch the file system). */
#define SPILL_MEM_MAX (1024u * 1024u)
/* Bytes read back from a temporary file at a time. */
#define SPILL_CHUNK (256u * 1024u)

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

/* One per-tool part of the report, in order. */
typedef struct spill {
    size_t mem_max; /* SPILL_MEM_MAX, or what a test set */
    mv_buf mem;
    FILE *f; /* once the part outgrew memory */
    bool failed;
    /* With jobs > 1 a range's bytes for the file are queued, and written
     * by the stream's writer thread while the next range is scanned. */
    bool async;
    mv_buf queued;     /* this range's bytes (main thread) */
    mv_buf writing;    /* the previous range's (writer thread) */
    bool write_failed; /* set by the writer thread; read after the join */
} spill;

struct mv_report_stream {
    mv_report_options opts;
    size_t n_parts;
    spill parts[MV_TEXT_MAX_PASSES];
    mv_jw w; /* JSON and SARIF: the writer inside the tools/results array */
    mv_buf w_buf;
    mv_text_pass passes[MV_TEXT_MAX_PASSES];
    bool pending[MV_TEXT_MAX_PASSES]; /* text: the pass's last tool had no block */
    mv_sarif_rules rules;
    const char *failed_ids[MV_SARIF_MAX_RULES]; /* tools each check failed on */
    uint64_t failed_counts[MV_SARIF_MAX_RULES];
    size_t n_failed;
    size_t next;      /* the next range starts here */
    bool broken;      /* an add failed: finish refuses */
    pthread_t writer; /* writes the spills' queued bytes (spill.async) */
    bool writer_running;
    int sink_fd; /* the descriptor finish's sink writes to unbuffered, or -1 */
};

/* An unlinked temporary file in $TMPDIR (absolute) or /tmp. */
static FILE *temp_file(void) {
    const char *dir = getenv("TMPDIR");
    char path[4096];
    if (dir == NULL || dir[0] != '/')
        dir = "/tmp";
    int n = snprintf(path, sizeof path, "%s/mcpvet-report-XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof path)
        return NULL;
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (f == NULL)
        close(fd);
    return f;
}

static int spill_write(void *arg, const char *data, size_t len) {
    spill *sp = arg;
    if (sp->failed)
        return -1;
    if (sp->f == NULL && sp->mem.len + len > sp->mem_max) {
        /* No temporary file to be had: stay in memory (same bytes). */
        sp->f = temp_file();
        if (sp->f != NULL) {
            if (sp->mem.len > 0 && fwrite(sp->mem.data, 1, sp->mem.len, sp->f) != sp->mem.len)
                sp->failed = true;
            mv_buf_release(&sp->mem);
            mv_buf_init(&sp->mem, NULL);
        }
    }
    if (sp->f != NULL && sp->async) {
        mv_buf_append(&sp->queued, data, len);
        sp->failed = sp->failed || sp->queued.failed;
    } else if (sp->f != NULL) {
        if (len > 0 && fwrite(data, 1, len, sp->f) != len)
            sp->failed = true;
    } else {
        mv_buf_append(&sp->mem, data, len);
        sp->failed = sp->failed || sp->mem.failed;
    }
    return sp->failed ? -1 : 0;
}

/* The writer thread: each spill's bytes of the previous range to its file,
 * in order (the files are the spills' own; nothing else touches them or
 * `writing` until the join). */
static void *writer_main(void *arg) {
    mv_report_stream *st = arg;
    for (size_t p = 0; p < st->n_parts; p++) {
        spill *sp = &st->parts[p];
        if (sp->writing.len > 0 &&
            fwrite(sp->writing.data, 1, sp->writing.len, sp->f) != sp->writing.len)
            sp->write_failed = true;
        sp->writing.len = 0;
    }
    return NULL;
}

/* Wait for the writer; MV_EIO when one of its writes failed. */
static int writer_join(mv_report_stream *st) {
    int rc = MV_OK;
    if (st->writer_running) {
        pthread_join(st->writer, NULL);
        st->writer_running = false;
    }
    for (size_t p = 0; p < st->n_parts; p++)
        if (st->parts[p].write_failed)
            rc = MV_EIO;
    return rc;
}

/* After a range: the previous range's writes done, this range's queued
 * bytes handed to a new writer (written here when no thread starts). */
static int writer_handoff(mv_report_stream *st) {
    int rc = writer_join(st);
    bool any = false;
    for (size_t p = 0; rc == MV_OK && p < st->n_parts; p++) {
        spill *sp = &st->parts[p];
        mv_buf t = sp->writing;
        sp->writing = sp->queued;
        sp->queued = t;
        sp->queued.len = 0;
        any = any || sp->writing.len > 0;
    }
    if (rc != MV_OK || !any)
        return rc;
    if (pthread_create(&st->writer, NULL, writer_main, st) == 0) {
        st->writer_running = true;
        return MV_OK;
    }
    writer_main(st);
    return writer_join(st);
}

/* Copy a spill file's bytes from `at` on to the sink's descriptor in the
 * kernel: copy_file_range (page cache to page cache), else sendfile (a pipe
 * or another file system). Returns the offset reached: the rest, if any, is
 * read back and written through the sink as before (an error there, such
 * as a full disk, is the sink's to report). */
static off_t spill_kernel_copy(int in, int out, off_t at, off_t size) {
    bool cfr = true;
    while (at < size) {
        size_t want = (size_t)(size - at);
        ssize_t got = -1;
        if (cfr) {
            loff_t off = at;
            got = copy_file_range(in, &off, out, NULL, want, 0);
            if (got < 0 && errno != EINTR) {
                cfr = false;
                continue;
            }
        } else {
            off_t off = at;
            got = sendfile(out, in, &off, want);
            if (got < 0 && errno != EINTR)
                break;
        }
        if (got == 0)
            break; /* the file is shorter than it was: read back below */
        if (got > 0)
            at += got;
    }
    return at;
}

/* Copy [at, end) of file `in` to `out` at `out_at` (explicit offsets, so
 * two of these can run at once): copy_file_range, else pread and pwrite.
 * Returns true when every byte was copied. */
static bool copy_at(int in, off_t at, off_t end, int out, off_t out_at) {
    bool cfr = true;
    char *chunk = NULL;
    while (at < end) {
        size_t want = (size_t)(end - at);
        ssize_t got;
        if (cfr) {
            loff_t i = at, o = out_at;
            got = copy_file_range(in, &i, out, &o, want, 0);
            if (got < 0 && errno != EINTR) {
                cfr = false;
                continue;
            }
        } else {
            if (chunk == NULL && (chunk = malloc(SPILL_CHUNK)) == NULL)
                break;
            got = pread(in, chunk, want < SPILL_CHUNK ? want : SPILL_CHUNK, at);
            for (ssize_t put = 0; got > 0 && put < got;) {
                ssize_t w = pwrite(out, chunk + put, (size_t)(got - put), out_at + put);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    got = -1;
                    errno = EIO;
                    break;
                }
                put += w;
            }
            if (got < 0 && errno != EINTR)
                break;
        }
        if (got == 0)
            break;
        if (got > 0) {
            at += got;
            out_at += got;
        }
    }
    free(chunk);
    return at >= end;
}

typedef struct half_copy {
    int in, out;
    off_t at, end, out_at;
    bool ok;
} half_copy;

static void *half_copy_main(void *arg) {
    half_copy *h = arg;
    h->ok = copy_at(h->in, h->at, h->end, h->out, h->out_at);
    return NULL;
}

/* With more than one job and a sink that is a regular file: the spill's
 * two halves copied to their places in it at once, the second on a thread
 * of its own (the scan is over; the other core is idle). Returns true when
 * every byte is there and the sink's offset is past them; false leaves the
 * offset where it was (the caller then copies as usual, overwriting). */
static bool spill_copy_split(int in, int out, off_t size) {
    struct stat os;
    off_t base = lseek(out, 0, SEEK_CUR);
    if (base < 0 || size < 2 * (off_t)SPILL_CHUNK || fstat(out, &os) != 0 || !S_ISREG(os.st_mode) ||
        (fcntl(out, F_GETFL) & O_APPEND) != 0)
        return false;
    off_t half = size / 2;
    half_copy h = {in, out, half, size, base + half, false};
    pthread_t t;
    bool started = pthread_create(&t, NULL, half_copy_main, &h) == 0;
    bool ok = copy_at(in, 0, half, out, base);
    if (started)
        pthread_join(t, NULL);
    else
        half_copy_main(&h);
    if (!ok || !h.ok || lseek(out, base + size, SEEK_SET) != base + size) {
        (void)lseek(out, base, SEEK_SET);
        return false;
    }
    return true;
}

/* Hand a spill's bytes to the report, in order. */
static int spill_copy(mv_report_ctx *ctx, spill *sp, int sink_fd, bool split) {
    if (sp->f == NULL) {
        mv_report_emit(ctx, sp->mem.data, sp->mem.len);
        return MV_OK;
    }
    int rc = MV_OK;
    off_t at = 0;
    char *chunk = NULL;
    if (fflush(sp->f) != 0) {
        rc = MV_EIO;
        goto done;
    }
    /* What is staged goes out first; then the spill straight from its
     * file to the sink's, with no copy through this process. */
    struct stat stt;
    if (sink_fd >= 0 && fstat(fileno(sp->f), &stt) == 0) {
        mv_report_flush(ctx, true);
        if (!ctx->write_failed && split && spill_copy_split(fileno(sp->f), sink_fd, stt.st_size))
            goto done;
        if (!ctx->write_failed)
            at = spill_kernel_copy(fileno(sp->f), sink_fd, 0, stt.st_size);
        if (at == stt.st_size)
            goto done;
    }
    chunk = malloc(SPILL_CHUNK);
    if (chunk == NULL)
        return MV_ENOMEM;
    if (fseeko(sp->f, at, SEEK_SET) != 0) {
        rc = MV_EIO;
        goto done;
    }
    for (;;) {
        size_t got = fread(chunk, 1, SPILL_CHUNK, sp->f);
        if (got > 0)
            mv_report_emit(ctx, chunk, got);
        if (got < SPILL_CHUNK) {
            if (ferror(sp->f))
                rc = MV_EIO;
            break;
        }
    }
done:
    free(chunk);
    return rc;
}

/* The context every range and the finish render with. */
static void ctx_init(mv_report_ctx *ctx, mv_report_stream *st, const mv_scan *s, mv_buf *out) {
    memset(ctx, 0, sizeof *ctx);
    ctx->scan = s;
    ctx->registry = mv_scan_registry(s);
    ctx->opts = &st->opts;
    ctx->version = st->opts.version != NULL ? st->opts.version : MCPVET_VERSION;
    ctx->fail_on = st->opts.fail_on < MV_VERDICT_REVIEW ? MV_VERDICT_QUARANTINE : st->opts.fail_on;
    ctx->out = out;
    ctx->alloc = out->alloc;
    ctx->jobs = st->opts.jobs > 0 ? st->opts.jobs : 1;
}

int mv_report_stream_new(mv_report_stream **out, const mv_report_options *opts, mv_error *err) {
    static const mv_report_options defaults = {0};
    mv_report_stream *st = NULL;
    if (out == NULL)
        return mv_error_set(err, MV_EINVAL, "report: no stream");
    *out = NULL;
    if (opts == NULL)
        opts = &defaults;
    if (opts->format != MV_REPORT_TEXT && opts->format != MV_REPORT_JSON &&
        opts->format != MV_REPORT_SARIF)
        return mv_error_set(err, MV_EINVAL, "report: unknown format %d", (int)opts->format);
    st = calloc(1, sizeof *st);
    if (st == NULL)
        return mv_error_set(err, MV_ENOMEM, "report: out of memory");
    st->opts = *opts;
    st->sink_fd = -1;
    for (size_t i = 0; i < MV_TEXT_MAX_PASSES; i++) {
        mv_buf_init(&st->parts[i].mem, NULL);
        mv_buf_init(&st->parts[i].queued, NULL);
        mv_buf_init(&st->parts[i].writing, NULL);
        st->parts[i].mem_max = SPILL_MEM_MAX;
        /* One job: one thread, as asked (the writes stay inline). */
        st->parts[i].async = opts->jobs > 1;
    }
    /* The writer as it stands inside the per-tool array: the structure
     * around it is replayed into a scratch buffer (only depth and
     * separators matter; the bytes are dropped). */
    mv_buf_init(&st->w_buf, NULL);
    mv_jw_init(&st->w, &st->w_buf);
    mv_report_ctx ctx;
    ctx_init(&ctx, st, NULL, &st->w_buf);
    switch (opts->format) {
    case MV_REPORT_JSON:
        mv_jw_obj_begin(&st->w, NULL);
        mv_jw_arr_begin(&st->w, "tools");
        st->n_parts = 1;
        break;
    case MV_REPORT_SARIF:
        mv_jw_obj_begin(&st->w, NULL);
        mv_jw_arr_begin(&st->w, "runs");
        mv_jw_obj_begin(&st->w, NULL);
        mv_jw_arr_begin(&st->w, "results");
        mv_report_sarif_rules_begin(&ctx, &st->rules);
        st->n_parts = 1;
        break;
    case MV_REPORT_TEXT:
    default:
        st->n_parts = mv_report_text_passes(&ctx, st->passes);
        break;
    }
    st->w_buf.len = 0;
    *out = st;
    return MV_OK;
}

void mv_report_stream_spill_limit(mv_report_stream *st, size_t bytes) {
    for (size_t i = 0; st != NULL && i < MV_TEXT_MAX_PASSES; i++)
        st->parts[i].mem_max = bytes;
}

void mv_report_stream_sink_fd(mv_report_stream *st, int fd) {
    if (st != NULL)
        st->sink_fd = fd >= 0 ? fd : -1;
}

void mv_report_stream_free(mv_report_stream *st) {
    if (st == NULL)
        return;
    writer_join(st);
    for (size_t i = 0; i < MV_TEXT_MAX_PASSES; i++) {
        mv_buf_release(&st->parts[i].mem);
        mv_buf_release(&st->parts[i].queued);
        mv_buf_release(&st->parts[i].writing);
        if (st->parts[i].f != NULL)
            fclose(st->parts[i].f);
    }
    mv_buf_release(&st->w_buf);
    free(st);
}

/* What the opening parts need from this range's findings. */
static void accumulate(mv_report_stream *st, const mv_report_ctx *ctx, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        if (f == NULL)
            continue;
        if (st->opts.format == MV_REPORT_SARIF)
            mv_report_sarif_rules_add(&st->rules, f);
        for (uint32_t k = 0; k < f->n_failed_checks; k++) {
            const char *id = f->failed_checks[k];
            bool again = false;
            for (uint32_t j = 0; j < k && !again; j++)
                again = strcmp(f->failed_checks[j], id) == 0;
            if (again)
                continue;
            size_t c = 0;
            while (c < st->n_failed && strcmp(st->failed_ids[c], id) != 0)
                c++;
            if (c == st->n_failed && st->n_failed < MV_SARIF_MAX_RULES)
                st->failed_ids[st->n_failed++] = id;
            if (c < st->n_failed)
                st->failed_counts[c]++;
        }
        if (st->opts.format == MV_REPORT_TEXT)
            for (size_t p = 0; p < st->n_parts; p++)
                if (mv_report_text_in_pass(ctx, f, &st->passes[p]))
                    st->pending[p] = !mv_report_text_has_block(ctx, f);
    }
}

int mv_report_stream_add(mv_report_stream *st, const mv_scan *s, size_t begin, size_t end,
                         mv_error *err) {
    int rc = MV_OK;
    mv_buf staging;
    mv_report_ctx ctx;
    mv_buf_init(&staging, NULL);
    memset(&ctx, 0, sizeof ctx);
    if (st == NULL || s == NULL || st->broken || begin != st->next || end < begin) {
        rc = mv_error_set(err, MV_EINVAL, "report: ranges must come in order, once");
        goto done;
    }
    ctx_init(&ctx, st, s, &staging);
    ctx.arena = mv_arena_new(ctx.alloc, 0);
    if (ctx.arena == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "report: out of memory");
        goto done;
    }
    accumulate(st, &ctx, begin, end);
    for (size_t p = 0; p < st->n_parts && rc == MV_OK; p++) {
        ctx.write = spill_write;
        ctx.write_arg = &st->parts[p];
        if (st->opts.format == MV_REPORT_JSON) {
            st->w.b = &staging;
            rc = mv_report_ranges_span(&ctx, &st->w, begin, end, mv_report_json_tools, NULL);
        } else if (st->opts.format == MV_REPORT_SARIF) {
            st->w.b = &staging;
            rc = mv_report_ranges_span(&ctx, &st->w, begin, end, mv_report_sarif_results,
                                       &st->rules);
        } else {
            rc =
                mv_report_ranges_span(&ctx, NULL, begin, end, mv_report_text_range, &st->passes[p]);
        }
        if (rc == MV_OK && (ctx.failed || staging.failed))
            rc = MV_ENOMEM;
        if (rc == MV_OK)
            mv_report_flush(&ctx, true);
        if (rc == MV_OK && ctx.write_failed)
            rc = st->parts[p].mem.failed || st->parts[p].queued.failed ? MV_ENOMEM : MV_EIO;
    }
    st->w.b = &st->w_buf;
    if (rc == MV_OK)
        rc = writer_handoff(st);
    if (rc != MV_OK) {
        mv_error_set(err, rc, "report: %s",
                     rc == MV_EIO ? "cannot write the report's temporary file" : mv_strerror(rc));
        goto done;
    }
    st->next = end;
done:
    if (rc != MV_OK && st != NULL)
        st->broken = true;
    mv_arena_free(ctx.arena);
    mv_free(ctx.alloc, ctx.source_mem, ctx.source_mem_size);
    mv_buf_release(&staging);
    return rc;
}

int mv_report_stream_finish(mv_report_stream *st, const mv_scan *s, mv_report_write_fn write,
                            void *arg, mv_error *err) {
    int rc = MV_OK;
    mv_buf staging;
    mv_report_ctx ctx;
    mv_jw w;
    mv_buf_init(&staging, NULL);
    memset(&ctx, 0, sizeof ctx);
    if (st == NULL || s == NULL || write == NULL || st->broken) {
        rc = mv_error_set(err, MV_EINVAL, "report: no stream, scan or sink");
        goto done;
    }
    /* The last range's bytes reach their files before they are read. */
    if ((rc = writer_join(st)) != MV_OK) {
        st->broken = true;
        mv_error_set(err, rc, "report: cannot write the report's temporary file");
        goto done;
    }
    ctx_init(&ctx, st, s, &staging);
    ctx.coverage = mv_scan_coverage(s);
    if (ctx.registry == NULL || ctx.coverage == NULL || st->next != mv_scan_finding_count(s)) {
        rc = mv_error_set(err, MV_EINVAL, "report: the scan has not been run");
        goto done;
    }
    ctx.summary = mv_scan_summarize(s);
    ctx.write = write;
    ctx.write_arg = arg;
    ctx.failed_count_ids = st->failed_ids;
    ctx.failed_counts = st->failed_counts;
    ctx.n_failed_counts = st->n_failed;
    ctx.arena = mv_arena_new(ctx.alloc, 0);
    if (ctx.arena == NULL) {
        rc = MV_ENOMEM;
        goto render_done;
    }
    mv_jw_init(&w, ctx.out);
    switch (st->opts.format) {
    case MV_REPORT_JSON:
    case MV_REPORT_SARIF:
        if (st->opts.format == MV_REPORT_JSON) {
            mv_report_json_head(&ctx, &w);
        } else {
            mv_report_sarif_rules_end(&ctx, &st->rules);
            mv_report_sarif_head(&ctx, &w, &st->rules);
        }
        if ((rc = spill_copy(&ctx, &st->parts[0], st->sink_fd, st->opts.jobs > 1)) != MV_OK)
            goto render_done;
        /* The array holds what the ranges wrote. */
        w.has_items[w.depth] = st->w.has_items[st->w.depth];
        rc = st->opts.format == MV_REPORT_JSON ? mv_report_json_tail(&ctx, &w)
                                               : mv_report_sarif_tail(&ctx, &w);
        break;
    case MV_REPORT_TEXT:
    default:
        mv_report_text_head(&ctx);
        for (size_t p = 0; p < st->n_parts && rc == MV_OK; p++) {
            rc = spill_copy(&ctx, &st->parts[p], st->sink_fd, st->opts.jobs > 1);
            if (st->pending[p])
                mv_buf_putc(ctx.out, '\n');
        }
        if (rc == MV_OK)
            rc = mv_report_text_tail(&ctx);
        break;
    }
render_done:
    if (rc == MV_OK && (ctx.failed || staging.failed))
        rc = MV_ENOMEM;
    if (rc == MV_OK)
        mv_report_flush(&ctx, true);
    if (rc == MV_OK && ctx.write_failed)
        rc = MV_EIO;
    if (rc != MV_OK)
        mv_error_set(err, rc, "report: %s",
                     rc == MV_EIO && !ctx.write_failed ? "cannot read the report's temporary file"
                                                       : mv_strerror(rc));
done:
    mv_arena_free(ctx.arena);
    mv_free(ctx.alloc, ctx.source_mem, ctx.source_mem_size);
    mv_buf_release(&staging);
    return rc;
}
