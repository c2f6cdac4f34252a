/*
 * libFuzzer target for the proxy's newline framing (src/proxy/frame.c):
 * px_reader over a real non-blocking pipe (whole lines, "\r\n", blank
 * lines, a last line without its newline, an over-cap line refused as
 * soon as it passes the cap and the rest of it skipped as it arrives),
 * px_queue (what is pushed comes out of another pipe byte for byte), and
 * px_find_id on every over-cap prefix.
 *
 * Input: the first byte sets the cap (1 + 16 * (b & 0x3f) bytes) and the
 * size of the writes into the pipe ((b >> 6) picks whole, 1 byte, 7 bytes
 * or 64 bytes); the rest is the stream.
 *
 * Invariants: the events equal those of a reference framing written from
 * the documented rules (split at "\n", one trailing "\r" removed, lines of
 * only spaces, tabs and CRs skipped, a line longer than the cap is one
 * PX_OVERSIZE whose prefix starts that line and holds at least
 * min(cap + 1, PX_PREFIX) bytes), whatever the write size; PX_END comes
 * once, at the end; the queued lines read back as pushed; a found id is a
 * JSON number or string of at most 256 bytes that the strict parser
 * accepts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json/json.h"
#include "proxy/proxy_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 8192u

static void broken(const char *what, size_t i) {
    fprintf(stderr, "fuzz_proxy_frame: invariant broken: %s (event %zu)\n", what, i);
    abort();
}

typedef struct event {
    bool oversize;
    size_t off, len; /* the line (oversize: the raw line, "\r" included) */
} event;

static event want[MAX_EVENTS];

static size_t reference(const char *s, size_t n, uint64_t max) {
    size_t i = 0, k = 0;
    while (i < n && k < MAX_EVENTS) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t raw = nl != NULL ? (size_t)(nl - (s + i)) : n - i;
        size_t line = raw;
        if (line > 0 && s[i + line - 1] == '\r')
            line--;
        if (line > max) {
            want[k++] = (event){true, i, raw};
        } else {
            bool blank = true;
            for (size_t j = 0; j < line && blank; j++)
                blank = s[i + j] == ' ' || s[i + j] == '\t' || s[i + j] == '\r';
            if (!blank)
                want[k++] = (event){false, i, line};
        }
        i = nl != NULL ? i + raw + 1 : n;
    }
    return k;
}

static void nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)
        abort();
}

static void check_id(const char *prefix, size_t len) {
    mv_buf id;
    mv_buf_init(&id, NULL);
    if (px_find_id(prefix, len, &id)) {
        char wrap[300];
        if (id.len == 0 || id.len > 256)
            broken("an id of a bad length", 0);
        if (id.data[0] != '"' && id.data[0] != '-' && (id.data[0] < '0' || id.data[0] > '9'))
            broken("an id that is neither a number nor a string", 0);
        wrap[0] = '[';
        memcpy(wrap + 1, id.data, id.len);
        wrap[id.len + 1] = ']';
        mv_arena *a = mv_arena_new(NULL, 0);
        const mv_jv *doc = NULL;
        mv_jerror je;
        if (a == NULL || mv_json_parse(&doc, a, NULL, wrap, id.len + 2, &je) != MV_OK ||
            doc->n != 1)
            broken("a found id the strict parser refuses", 0);
        mv_arena_free(a);
    }
    mv_buf_release(&id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const size_t steps[4] = {0, 1, 7, 64};
    int in[2], out[2];
    px_reader r;
    px_queue q;
    mv_buf echoed, pushed;
    if (size < 1 || size > 200000)
        return 0;
    uint64_t max = 1 + 16u * (data[0] & 0x3f);
    size_t step = steps[data[0] >> 6];
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    size_t n_want = reference(s, n, max);
    if (n_want >= MAX_EVENTS)
        return 0;
    if (step == 0)
        step = n > 0 ? n : 1;
    if (pipe(in) != 0 || pipe(out) != 0)
        abort();
    nonblock(in[0]);
    nonblock(in[1]);
    nonblock(out[0]);
    nonblock(out[1]);
    px_reader_init(&r, in[0], max);
    px_queue_init(&q, out[1]);
    mv_buf_init(&echoed, NULL);
    mv_buf_init(&pushed, NULL);
    size_t fed = 0, got = 0;
    bool ended = false;
    while (!ended) {
        if (fed < n) {
            size_t c = n - fed < step ? n - fed : step;
            ssize_t w = write(in[1], s + fed, c);
            if (w < 0 && errno != EAGAIN)
                abort();
            if (w > 0)
                fed += (size_t)w;
        }
        if (fed == n && in[1] >= 0) {
            close(in[1]);
            in[1] = -1;
        }
        if (px_reader_fill(&r) < 0)
            broken("fill failed", got);
        for (;;) {
            const char *line;
            size_t len;
            int k = px_reader_next(&r, &line, &len);
            if (k == PX_NONE)
                break;
            if (k == PX_END) {
                if (in[1] >= 0 || r.total != n)
                    broken("PX_END before the end of the stream", got);
                ended = true;
                break;
            }
            if (got >= n_want)
                broken("more events than the reference", got);
            const event *e = &want[got];
            if (k == PX_LINE) {
                if (e->oversize || len != e->len || memcmp(line, s + e->off, len) != 0)
                    broken("a line differs from the reference", got);
                if (px_queue_push(&q, line, len) != MV_OK)
                    abort();
                mv_buf_append(&pushed, line, len);
                mv_buf_putc(&pushed, '\n');
            } else if (k == PX_OVERSIZE) {
                size_t least = max + 1 < PX_PREFIX ? (size_t)max + 1 : PX_PREFIX;
                if (!e->oversize)
                    broken("an over-cap event for a line within the cap", got);
                if (r.prefix_len > PX_PREFIX || r.prefix_len < least ||
                    r.prefix_len > e->len || memcmp(r.prefix, s + e->off, r.prefix_len) != 0)
                    broken("an over-cap prefix that is not the start of its line", got);
                check_id(r.prefix, r.prefix_len);
            } else {
                broken("an unknown event", got);
            }
            got++;
        }
        if (px_queue_flush(&q) != 0)
            broken("the queue broke", got);
        char buf[4096];
        ssize_t rd;
        while ((rd = read(out[0], buf, sizeof buf)) > 0)
            mv_buf_append(&echoed, buf, (size_t)rd);
    }
    if (got != n_want)
        broken("fewer events than the reference", got);
    for (int i = 0; i < 1000 && q.len > 0; i++) {
        char buf[4096];
        ssize_t rd;
        px_queue_flush(&q);
        while ((rd = read(out[0], buf, sizeof buf)) > 0)
            mv_buf_append(&echoed, buf, (size_t)rd);
    }
    if (echoed.len != pushed.len ||
        (pushed.len > 0 && memcmp(echoed.data, pushed.data, pushed.len) != 0))
        broken("the queue's output differs from what was pushed", got);
    px_reader_free(&r);
    px_queue_free(&q);
    mv_buf_release(&echoed);
    mv_buf_release(&pushed);
    close(in[0]);
    close(out[0]);
    close(out[1]);
    return 0;
}
