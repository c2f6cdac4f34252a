/*
 * libFuzzer target for the reply handling of the HTTP transports: the SSE
 * event parser (src/mcp/sse_parser.c) and what the transports do with each
 * event's data (src/mcp/http_common.c: batch splitting into exact bytes and
 * the JSON-RPC id match that ends a reply stream).
 *
 * The first input byte picks a chunk size; the rest is the stream. It is
 * parsed twice, whole and in chunks of that size, and both runs must give
 * the same events and the same result: chunk boundaries may fall anywhere
 * in real traffic. Every event's data goes through mv_mcp_queue_payload,
 * whose split messages must each be a non-empty part of that data.
 *
 * Build and run: see fuzz/README.md.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/http_common.h"
#include "mcp/sse_parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 4096u

static void broken(const char *what) {
    fprintf(stderr, "fuzz_sse: invariant broken: %s\n", what);
    abort();
}

/* Events of one run, rendered so two runs can be compared. */
typedef struct run {
    mv_buf log;
    mv_mcp_msgq q;
    mv_mcp_rpc_id want;
} run;

static bool contains(const char *hay, size_t n, const char *needle, size_t m) {
    for (size_t i = 0; m <= n && i <= n - m; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return true;
    return false;
}

static int on_event(void *arg, const mv_sse_event *ev) {
    run *r = arg;
    bool answered = false;
    if (ev->data_len > CAP)
        broken("event data over the cap");
    if (ev->type_len == 0 || ev->type_len > MV_SSE_MAX_FIELD || ev->id_len > MV_SSE_MAX_FIELD)
        broken("event name or id out of bounds");
    mv_buf_put_u64(&r->log, ev->type_len);
    mv_buf_append(&r->log, ev->type, ev->type_len);
    mv_buf_put_u64(&r->log, ev->data_len);
    mv_buf_append(&r->log, ev->data, ev->data_len);
    mv_buf_put_u64(&r->log, ev->id_len);
    mv_buf_append(&r->log, ev->id, ev->id_len);
    if (mv_mcp_queue_payload(&r->q, ev->data, ev->data_len, &r->want, &answered) != 0)
        return MV_ENOMEM;
    /* Every queued message is a non-empty slice of the event's data. */
    mv_buf m;
    mv_buf_init(&m, NULL);
    while (r->q.count > 0) { /* the queue is drained after every event */
        if (mv_mcp_msgq_pop(&r->q, &m) != 1)
            broken("queued message missing");
        if (m.len == 0 || m.len > ev->data_len)
            broken("queued message is not a part of the data");
        if (!contains(ev->data, ev->data_len, m.data, m.len))
            broken("queued message bytes are not in the data");
    }
    mv_buf_release(&m);
    mv_buf_putc(&r->log, answered ? 'A' : '-');
    return 0;
}

static int parse(run *r, const char *s, size_t len, size_t step) {
    mv_sse_parser *p = mv_sse_parser_new(CAP, on_event, r);
    int rc = 0;
    if (p == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < len && rc == 0; i += step)
        rc = mv_sse_parser_feed(p, s + i, len - i < step ? len - i : step);
    mv_buf_put_i64(&r->log, rc);
    mv_sse_parser_free(p);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run a, b;
    if (size < 1)
        return 0;
    size_t step = (size_t)data[0] % 17 + 1;
    const char *s = (const char *)data + 1;
    size_t len = size - 1;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    mv_buf_init(&a.log, NULL);
    mv_buf_init(&b.log, NULL);
    /* Answers to id 1 end a reply stream in http.c. */
    if (mv_mcp_rpc_id_of(&a.want, "{\"id\":1}", 8) != 0 ||
        mv_mcp_rpc_id_of(&b.want, "{\"id\":1}", 8) != 0)
        goto done;
    int rc_a = parse(&a, s, len, len > 0 ? len : 1);
    int rc_b = parse(&b, s, len, step);
    if (rc_a == MV_ENOMEM || rc_b == MV_ENOMEM)
        goto done;
    if (rc_a != rc_b)
        broken("whole and chunked parses returned different codes");
    if (a.log.len != b.log.len || memcmp(a.log.data, b.log.data, a.log.len) != 0)
        broken("whole and chunked parses gave different events");
done:
    mv_buf_release(&a.log);
    mv_buf_release(&b.log);
    mv_mcp_msgq_clear(&a.q);
    mv_mcp_msgq_clear(&b.q);
    mv_mcp_rpc_id_release(&a.want);
    mv_mcp_rpc_id_release(&b.want);
    return 0;
}
