/*
 * Incremental Server-Sent Events parser (the WHATWG "event stream"
 * interpretation) shared by the streamable HTTP and legacy HTTP+SSE
 * transports. Bytes arrive in chunks split anywhere (inside a CRLF, inside
 * a field name, inside the BOM); complete events are handed to a callback.
 * Memory is bounded: one event's data may not exceed the cap given at
 * creation, and the event name and id are capped at MV_SSE_MAX_FIELD bytes,
 * so a hostile stream fails with MV_ELIMIT instead of growing a buffer.
 * Comments and unknown fields are skipped without being stored.
 *
 * Private to src/mcp (not part of the public include/ headers).
 */
#ifndef MCPVET_MCP_SSE_PARSER_H
#define MCPVET_MCP_SSE_PARSER_H

#include <stddef.h>

/* Longest event name or id kept (longer ones fail with MV_ELIMIT). */
#define MV_SSE_MAX_FIELD 256u

/* One dispatched event. Pointers are valid only during the callback. */
typedef struct mv_sse_event {
    const char *type; /* "message" when the stream named none */
    size_t type_len;
    const char *data; /* the data lines joined with "\n" */
    size_t data_len;
    const char *id; /* the last event id seen on the stream ("" when none) */
    size_t id_len;
} mv_sse_event;

/* Return 0 to go on, a positive value to stop reading (mv_sse_parser_feed
 * returns it), a negative MV_E* code to fail. */
typedef int (*mv_sse_on_event)(void *arg, const mv_sse_event *ev);

typedef struct mv_sse_parser mv_sse_parser;

/* A parser whose events may carry at most `max_event_bytes` of data.
 * Returns NULL when out of memory. */
mv_sse_parser *mv_sse_parser_new(size_t max_event_bytes, mv_sse_on_event cb, void *arg);

/* NULL is a no-op. */
void mv_sse_parser_free(mv_sse_parser *p);

/*
 * Consume `len` bytes. Returns 0 when all were consumed, a positive value
 * when the callback asked to stop (the rest of the chunk is not read), or a
 * negative code: MV_ELIMIT (an event's data, name or id over its cap),
 * MV_ENOMEM, or the callback's own negative code. After a non-zero return
 * the parser refuses further input with the same code.
 */
int mv_sse_parser_feed(mv_sse_parser *p, const char *data, size_t len);

/* Whether part of an event has been read but not yet dispatched (the
 * stream ended inside an event, which the standard says to discard). */
int mv_sse_parser_pending(const mv_sse_parser *p);

#endif
