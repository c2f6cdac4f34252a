/*
 * libFuzzer target for the stdio transport's line framing
 * (src/mcp/stdio.c: stdio_recv and take_line, reached through
 * mv_mcp_stdio_adopt over a pipe instead of a child's stdout): newline
 * splitting, "\r\n", blank lines, a last message without its newline, the
 * per-message cap checked both on a complete line and on a line still
 * being assembled, and the end of the stream.
 *
 * Input: the first byte sets the message cap (8 + 32 * (b & 0x3f) bytes)
 * and, with its high bit, feeds the stream in up to 8 chunks, each written
 * only once the messages already in the pipe have been received (reads
 * then end anywhere in a line); the rest is what the server writes.
 *
 * Invariant: the messages received, then the final failure, equal those
 * of a reference framing written here from the documented rules: lines
 * split at "\n", one trailing "\r" removed, lines of only spaces, tabs and
 * CRs skipped, a line longer than the cap ends the stream with
 * MV_MCP_CAP_HIT, and otherwise the stream ends with MV_MCP_CLOSED; and
 * the same whether the stream came whole or in chunks.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcp/transport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MSGS 4096u

static void broken(const char *what, size_t i) {
    fprintf(stderr, "fuzz_stdio: invariant broken: %s (message %zu)\n", what, i);
    abort();
}

typedef struct expect {
    size_t off[MAX_MSGS], len[MAX_MSGS];
    size_t end[MAX_MSGS]; /* just past the message's "\n", or the input's end */
    size_t n;
    bool cap; /* the stream ends with a cap hit */
} expect;

static void reference(const char *s, size_t n, uint64_t max, expect *e) {
    size_t i = 0;
    memset(e, 0, sizeof *e);
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t line = nl != NULL ? (size_t)(nl - (s + i)) : n - i;
        size_t next = nl != NULL ? i + line + 1 : n;
        if (line > 0 && s[i + line - 1] == '\r')
            line--;
        if (line > max) {
            e->cap = true;
            return;
        }
        bool blank = true;
        for (size_t k = 0; k < line && blank; k++)
            blank = s[i + k] == ' ' || s[i + k] == '\t' || s[i + k] == '\r';
        if (!blank && e->n < MAX_MSGS) {
            e->off[e->n] = i;
            e->len[e->n] = line;
            e->end[e->n] = next;
            e->n++;
        }
        i = next;
    }
}

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            abort();
        p += w;
        n -= (size_t)w;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static expect e;
    int fds[2];
    mv_mcp_transport *t = NULL;
    mv_mcp_failure fail;
    mv_buf msg;
    if (size < 1 || size - 1 > 60000)
        return 0;
    uint64_t max = 8 + 32u * (data[0] & 0x3f);
    bool chunked = (data[0] & 0x80) != 0;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    reference(s, n, max, &e);
    if (e.n >= MAX_MSGS)
        return 0;
    if (pipe(fds) != 0)
        abort();
    mv_mcp_limits lim = {.max_message_bytes = max, .max_total_bytes = UINT64_MAX,
                         .max_stderr_bytes = 0};
    if (mv_mcp_stdio_adopt(&t, -1, fds[0], -1, &lim) != MV_OK)
        abort();
    mv_buf_init(&msg, NULL);
    size_t got = 0, fed = 0;
    size_t chunk = chunked ? n / 8 + 1 : n;
    if (!chunked) {
        write_all(fds[1], s, n);
        close(fds[1]);
        fds[1] = -1;
        fed = n;
    }
    for (;;) {
        /* Feed chunks until the next expected message is wholly in the
         * pipe (or everything is), so recv never has to wait for data:
         * the target spends its time framing, not sleeping. Reads still
         * end anywhere in a line, since a chunk boundary falls wherever
         * the input puts it. */
        while (chunked && fed < n &&
               (got >= e.n || e.end[got] > fed)) {
            size_t c = n - fed < chunk ? n - fed : chunk;
            write_all(fds[1], s + fed, c);
            fed += c;
        }
        if (fed == n && fds[1] >= 0) {
            close(fds[1]);
            fds[1] = -1;
        }
        memset(&fail, 0, sizeof fail);
        /* A generous deadline: every message asked for is already in the
         * pipe, so a timeout here is a framing bug, not a slow writer. */
        int rc = t->ops->recv(t, &msg, mv_mcp_now_ms() + 10000, &fail);
        if (rc == 1) {
            if (got >= e.n)
                broken("more messages than the reference", got);
            if (msg.len != e.len[got] || memcmp(msg.data, s + e.off[got], msg.len) != 0)
                broken("a message differs from the reference", got);
            got++;
            continue;
        }
        if (rc == 0)
            broken("recv timed out with the next message already written", got);
        if (got != e.n)
            broken("the stream ended before every message", got);
        if (e.cap && fail.status != MV_MCP_CAP_HIT)
            broken("an over-cap line did not end with a cap hit", got);
        if (!e.cap && fail.status != MV_MCP_CLOSED)
            broken("the stream did not end as closed", got);
        memset(&fail, 0, sizeof fail);
        if (t->ops->recv(t, &msg, UINT64_MAX / 2, &fail) != -1)
            broken("a recv after the end did not fail again", got);
        break;
    }
    if (fds[1] >= 0)
        close(fds[1]);
    mv_buf_release(&msg);
    t->ops->close(t, NULL);
    return 0;
}
