/*
 * Newline-delimited JSON-RPC framing for the proxy's poll() loop, the same
 * for the agent's side and the server's: a reader that hands out whole
 * lines and refuses an over-cap line as soon as it passes the cap (keeping
 * only its first few KiB, to answer its id) instead of buffering it, and a
 * write queue drained as the descriptor takes it, so neither side can
 * block the proxy by not reading.
 *
 * The stdio transport's own reader (src/mcp/stdio.c) ends the stream at an
 * over-cap line, which is right for a scan and wrong for a session: here
 * one refused message must not end the relay.
 */
#include "proxy/proxy_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define CHUNK 65536u

/* --------------------------------------------------------------- reader */

void px_reader_init(px_reader *r, int fd, uint64_t max) {
    memset(r, 0, sizeof(*r));
    r->fd = fd;
    r->max = max;
}

void px_reader_free(px_reader *r) {
    free(r->buf);
    r->buf = NULL;
}

/* Room for CHUNK more bytes: move the unconsumed bytes to the front, grow
 * while the buffered line may still become a valid message. */
static int make_room(px_reader *r) {
    if (r->start > 0 && (r->len == 0 || r->start + r->len + CHUNK > r->cap)) {
        memmove(r->buf, r->buf + r->start, r->len);
        r->start = 0;
    }
    if (r->start + r->len + CHUNK <= r->cap)
        return 0;
    size_t want = r->len + CHUNK;
    size_t cap = r->cap != 0 ? r->cap : CHUNK;
    while (cap < want)
        cap *= 2;
    char *p = realloc(r->buf, cap);
    if (p == NULL)
        return -1;
    r->buf = p;
    r->cap = cap;
    return 0;
}

int px_reader_fill(px_reader *r) {
    if (r->eof)
        return 0;
    if (make_room(r) != 0) {
        errno = ENOMEM;
        return -1;
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->start + r->len, r->cap - r->start - r->len);
        if (n > 0) {
            r->total += (uint64_t)n;
            if (r->skipping) {
                /* Only what follows the newline is kept. */
                char *nl = memchr(r->buf + r->start + r->len, '\n', (size_t)n);
                if (nl == NULL)
                    return 1;
                size_t keep = (size_t)(r->buf + r->start + r->len + n - (nl + 1));
                memmove(r->buf + r->start + r->len, nl + 1, keep);
                r->skipping = false;
                r->len += keep;
                return 1;
            }
            r->len += (size_t)n;
            return 1;
        }
        if (n == 0) {
            r->eof = true;
            return 0;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 1;
        return -1;
    }
}

static void consume(px_reader *r, size_t n) {
    r->start += n;
    r->len -= n;
    r->scanned = 0;
    if (r->len == 0)
        r->start = 0;
}

static void keep_prefix(px_reader *r, const char *p, size_t n) {
    r->prefix_len = n < PX_PREFIX ? n : PX_PREFIX;
    memcpy(r->prefix, p, r->prefix_len);
}

int px_reader_next(px_reader *r, const char **line, size_t *len) {
    for (;;) {
        char *base = r->buf + r->start;
        char *nl =
            r->len > r->scanned ? memchr(base + r->scanned, '\n', r->len - r->scanned) : NULL;
        size_t n, eat;
        if (nl == NULL) {
            r->scanned = r->len;
            if (r->len > r->max + 1) {
                /* Past the cap with no end in sight: refuse it now and
                 * drop the rest as it arrives. */
                keep_prefix(r, base, r->len);
                consume(r, r->len);
                r->skipping = !r->eof;
                return PX_OVERSIZE;
            }
            if (!r->eof)
                return PX_NONE;
            if (r->len == 0)
                return PX_END;
            n = eat = r->len; /* a last message without its newline */
        } else {
            n = (size_t)(nl - base);
            eat = n + 1;
        }
        if (n > 0 && base[n - 1] == '\r')
            n--;
        if (n > r->max) {
            keep_prefix(r, base, n);
            consume(r, eat);
            return PX_OVERSIZE;
        }
        bool blank = true;
        for (size_t i = 0; i < n && blank; i++)
            blank = base[i] == ' ' || base[i] == '\t' || base[i] == '\r';
        if (blank) {
            consume(r, eat);
            continue;
        }
        *line = base;
        *len = n;
        consume(r, eat);
        return PX_LINE;
    }
}

/* ---------------------------------------------------------------- queue */

void px_queue_init(px_queue *q, int fd) {
    memset(q, 0, sizeof(*q));
    q->fd = fd;
}

void px_queue_free(px_queue *q) {
    free(q->buf);
    q->buf = NULL;
    q->len = q->start = q->cap = 0;
}

/* Append `len` bytes, and a newline when `nl`. */
static int append(px_queue *q, const char *msg, size_t len, bool nl) {
    size_t add = len + (nl ? 1 : 0);
    if (q->start > 0 && q->start + q->len + add > q->cap) {
        memmove(q->buf, q->buf + q->start, q->len);
        q->start = 0;
    }
    if (q->start + q->len + add > q->cap) {
        size_t cap = q->cap != 0 ? q->cap : CHUNK;
        while (cap < q->len + add)
            cap *= 2;
        char *p = realloc(q->buf, cap);
        if (p == NULL)
            return MV_ENOMEM;
        q->buf = p;
        q->cap = cap;
    }
    if (len > 0)
        memcpy(q->buf + q->start + q->len, msg, len);
    if (nl)
        q->buf[q->start + q->len + len] = '\n';
    q->len += add;
    return MV_OK;
}

int px_queue_push(px_queue *q, const char *msg, size_t len) {
    return append(q, msg, len, true);
}

int px_queue_send(px_queue *q, const char *msg, size_t len, bool now) {
    size_t done = 0;
    if (now && q->fd >= 0 && q->len == 0 && !q->broken) {
        /* The message and its newline from where they are: a 64 KB
         * result is not copied once more on its way out. */
        struct iovec v[2] = {{(void *)(uintptr_t)msg, len}, {(void *)(uintptr_t) "\n", 1}};
        ssize_t w;
        do
            w = writev(q->fd, v, 2);
        while (w < 0 && errno == EINTR);
        if (w > 0)
            done = (size_t)w;
        else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            q->broken = true;
    }
    if (done > len)
        return MV_OK; /* all of it, newline included */
    return append(q, msg + done, len - done, true);
}

int px_queue_flush(px_queue *q) {
    while (q->len > 0 && !q->broken) {
        ssize_t w = write(q->fd, q->buf + q->start, q->len);
        if (w > 0) {
            q->start += (size_t)w;
            q->len -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        q->broken = true;
    }
    if (q->len == 0)
        q->start = 0;
    return q->broken ? -1 : 0;
}

/* ------------------------------------------------------------ id finder */

/* End of the string token starting at s[i] == '"', or SIZE_MAX when cut. */
static size_t string_end(const char *s, size_t len, size_t i) {
    for (i++; i < len; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i + 1;
    }
    return SIZE_MAX;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool px_find_id(const char *s, size_t len, mv_buf *out) {
    size_t i = 0;
    unsigned depth = 0;
    bool key_next = false; /* at depth 1: the next string is a key */
    while (i < len && is_space(s[i]))
        i++;
    if (i >= len || s[i] != '{')
        return false;
    i++;
    depth = 1;
    key_next = true;
    while (i < len) {
        char c = s[i];
        if (c == '"') {
            size_t end = string_end(s, len, i);
            if (end == SIZE_MAX)
                return false;
            if (depth == 1 && key_next) {
                bool is_id = end - i == 4 && memcmp(s + i, "\"id\"", 4) == 0;
                i = end;
                while (i < len && is_space(s[i]))
                    i++;
                if (i >= len || s[i] != ':')
                    return false;
                i++;
                while (i < len && is_space(s[i]))
                    i++;
                if (is_id) {
                    size_t v = i, vend;
                    if (i < len && s[i] == '"')
                        vend = string_end(s, len, i);
                    else {
                        vend = i;
                        while (vend < len && (s[vend] == '-' || s[vend] == '+' || s[vend] == '.' ||
                                              s[vend] == 'e' || s[vend] == 'E' ||
                                              (s[vend] >= '0' && s[vend] <= '9')))
                            vend++;
                    }
                    /* a number running into the end may be cut short */
                    if (vend == SIZE_MAX || vend == v || vend - v > 256 ||
                        (s[v] != '"' && vend >= len))
                        return false;
                    /* Valid JSON on its own? (the strict parser decides) */
                    char wrap[262];
                    wrap[0] = '[';
                    memcpy(wrap + 1, s + v, vend - v);
                    wrap[vend - v + 1] = ']';
                    mv_arena *a = mv_arena_new(NULL, 1024);
                    const mv_jv *doc = NULL;
                    mv_jerror je;
                    bool ok =
                        a != NULL && mv_json_parse(&doc, a, NULL, wrap, vend - v + 2, &je) == MV_OK;
                    mv_arena_free(a);
                    if (!ok)
                        return false;
                    out->len = 0;
                    mv_buf_append(out, s + v, vend - v);
                    return !out->failed;
                }
                key_next = false;
                continue;
            }
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return false;
            depth--;
            if (depth == 0)
                return false;
        } else if (c == ',' && depth == 1) {
            key_next = true;
        }
        i++;
    }
    return false;
}
