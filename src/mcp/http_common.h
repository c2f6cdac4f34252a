/*
 * Plumbing shared by the two HTTP transports (http.c: streamable HTTP,
 * sse.c: legacy HTTP+SSE): the message queue between curl callbacks and
 * recv, batch splitting, the JSON-RPC id match that ends a reply stream,
 * request headers (configured headers are secrets: validated once, sent
 * only to the configured origin, never printed), the libcurl options every
 * request gets (http/https only, deadlines, no automatic redirects), the
 * redirect policy, and the mapping of HTTP statuses and curl errors to
 * mv_mcp_failure. Private to src/mcp.
 */
#ifndef MCPVET_MCP_HTTP_COMMON_H
#define MCPVET_MCP_HTTP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curl_dl.h"

#include "mcp/transport.h"

/* ------------------------------------------------------------ failures */

/* Count `n` more reply bytes into *total against `cap` (the transport's
 * max_total_bytes). Over the cap: false, with *fail set to MV_MCP_CAP_HIT. */
bool mv_mcp_count_total(uint64_t *total, uint64_t cap, size_t n, mv_mcp_failure *fail);

/* Fill *fail (status, http_status, has_body = false, formatted reason).
 * Returns -1 so callers can `return mv_mcp_fail(...)`. NULL fail: no-op. */
int mv_mcp_fail(mv_mcp_failure *fail, mv_mcp_status status, int http_status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Copy server-controlled text for a reason: printable ASCII only (others
 * become '?'), at most `max` bytes, always NUL-terminated in dst[dst_size]. */
void mv_mcp_sanitize(char *dst, size_t dst_size, const char *src, size_t len, size_t max);

/* -------------------------------------------------------- message queue */

typedef struct mv_mcp_msgq_node mv_mcp_msgq_node;
typedef struct mv_mcp_msgq {
    mv_mcp_msgq_node *head, *tail;
    size_t count;
} mv_mcp_msgq;

/* Append a copy of one message. Returns 0 or MV_ENOMEM. */
int mv_mcp_msgq_push(mv_mcp_msgq *q, const char *data, size_t len);
/* Move the oldest message into *out (replacing its contents): 1 when there
 * was one, 0 when the queue is empty, MV_ENOMEM. */
int mv_mcp_msgq_pop(mv_mcp_msgq *q, mv_buf *out);
void mv_mcp_msgq_clear(mv_mcp_msgq *q);

/* A JSON-RPC id to wait for: a string (decoded bytes) or a number (text). */
typedef struct mv_mcp_rpc_id {
    int type; /* 0 none, MV_JSTRING or MV_JNUMBER */
    char *text;
    size_t len;
} mv_mcp_rpc_id;

/* The id of a request message; type 0 when it has none or is not a single
 * object. Returns 0 or MV_ENOMEM. */
int mv_mcp_rpc_id_of(mv_mcp_rpc_id *id, const char *msg, size_t len);
void mv_mcp_rpc_id_release(mv_mcp_rpc_id *id);

/*
 * Queue one received JSON-RPC payload: a batch (a valid JSON array) is
 * split into its elements, each queued as its own message with its exact
 * bytes; anything else (an object, or text that is not valid JSON, which
 * the caller reports) is queued as it is. Blank payloads are dropped.
 * *answered is set when a queued message is a response (result or error)
 * carrying `want` (NULL or type 0: never). Returns 0 or MV_ENOMEM.
 */
int mv_mcp_queue_payload(mv_mcp_msgq *q, const char *data, size_t len, const mv_mcp_rpc_id *want,
                         bool *answered);

/* ------------------------------------------------------ URLs and origin */

/* scheme://host:port of an absolute http(s) URL (the port made explicit),
 * without userinfo, path or query: safe to print. Returns 0, MV_EINVAL
 * (not an absolute http or https URL) or MV_ENOMEM. */
int mv_mcp_url_origin(char *dst, size_t dst_size, const char *url);

/* Resolve `ref` against the absolute `base` into a new malloc'd URL.
 * Returns NULL when it cannot be resolved or is not http(s). */
char *mv_mcp_url_resolve(const char *base, const char *ref, size_t ref_len);

/* Whether the host of `url` is a loopback name or address (the proxy from
 * the environment is then bypassed). */
bool mv_mcp_url_is_loopback(const char *url);

/* --------------------------------------------------------------- headers */

/* Configured headers, validated and copied (values stay secret). */
typedef struct mv_mcp_headers {
    char **lines; /* "Name: value" or "Name;" for an empty value */
    size_t n;
} mv_mcp_headers;

/* Validate and copy server->headers. A name that is not an HTTP token or a
 * value with CR, LF or NUL fails with MV_MCP_INVALID_CONFIG (the reason
 * names the header, never its value). Headers the transport sets itself
 * (Accept, Content-Type, Mcp-Session-Id...) are dropped. */
int mv_mcp_headers_copy(mv_mcp_headers *h, const mv_server_config *server, mv_mcp_failure *fail);
void mv_mcp_headers_release(mv_mcp_headers *h);

/* Append the configured headers to *list. NULL on out of memory (the list
 * is freed then). */
struct curl_slist *mv_mcp_headers_append(struct curl_slist *list, const mv_mcp_headers *h);

/* Append "Name: value" (value printable ASCII, checked by the caller). */
struct curl_slist *mv_mcp_slist_add(struct curl_slist *list, const char *name, const char *value);

/* Mcp-Name / Mcp-Method value: printable ASCII without surrounding spaces
 * as it is, anything else as =?base64?...?= (never a raw CR or LF). */
struct curl_slist *mv_mcp_slist_add_encoded(struct curl_slist *list, const char *name,
                                            const char *value);

/* --------------------------------------------------------------- libcurl */

/* Options every request gets: URL, http/https only, no automatic redirect,
 * no signals, no environment proxy for loopback, connect and total
 * timeouts from the deadline (0 total = no total timeout, for a long-lived
 * stream), a low-speed floor. Returns a CURLcode. */
CURLcode mv_mcp_curl_setup(CURL *h, const char *url, uint64_t deadline_ms, bool total_timeout,
                           char *errbuf);

/* Milliseconds left until the deadline, at least 1. */
long mv_mcp_ms_left(uint64_t deadline_ms);

/* A curl failure as a transport failure (connect -> CONNECT_FAILED,
 * timeout -> TIMEOUT, reset or early close -> CLOSED, else PROTOCOL_ERROR).
 * `what` names the exchange ("POST to http://127.0.0.1:1234"). */
int mv_mcp_fail_curl(mv_mcp_failure *fail, CURLcode rc, const char *what);

/* A non-2xx HTTP status: 401/403 AUTH_REQUIRED (naming the auth scheme
 * when given), other 4xx PROTOCOL_ERROR, 5xx SERVER_ERROR, else
 * PROTOCOL_ERROR. */
int mv_mcp_fail_status(mv_mcp_failure *fail, long status, const char *auth_scheme,
                       const char *what);

/* Header helpers for a header callback: whether `line` (`len` bytes, with
 * its CRLF) is header `name`, and its trimmed value. */
bool mv_mcp_header_is(const char *line, size_t len, const char *name, const char **value,
                      size_t *value_len);

/* Redirect bookkeeping for one exchange. */
#define MV_MCP_MAX_REDIRECTS 3
typedef struct mv_mcp_redirects {
    char *visited[MV_MCP_MAX_REDIRECTS + 1];
    size_t n;
} mv_mcp_redirects;

/*
 * Check a redirect from `from` to `to` (absolute, from CURLINFO_REDIRECT_URL)
 * and record it: http(s) only, never https to http, at most
 * MV_MCP_MAX_REDIRECTS, a URL already visited is a loop. Returns 0 or -1
 * with MV_MCP_PROTOCOL_ERROR in *fail ("redirect loop", "too many
 * redirects", "redirect to another scheme").
 */
int mv_mcp_redirect_check(mv_mcp_redirects *r, const char *from, const char *to,
                          mv_mcp_failure *fail);
void mv_mcp_redirects_release(mv_mcp_redirects *r);

/* Whether the Content-Type `ct` is `type` (parameters and case ignored). */
bool mv_mcp_content_type_is(const char *ct, const char *type);

#endif
