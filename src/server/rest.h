/*
 * `mcpvet serve`: the REST API over the shared operations (service.h),
 * served by libmicrohttpd. Loopback only unless told otherwise; every
 * request under /api/ carries the API key; Host and Origin must name the
 * address served (a web page reaching loopback through DNS rebinding is
 * refused). The OpenAPI 3.1 description is src/server/openapi.json,
 * embedded at build time and served at /api/v1/openapi.json.
 */
#ifndef MV_SERVER_REST_H
#define MV_SERVER_REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mcpvet/common.h"
#include "server/service.h"

typedef struct mv_rest_options {
    const char *listen; /* "HOST:PORT" (an IP literal, "[v6]" or localhost);
                           NULL = "127.0.0.1:0" (port 0 = any free port) */
    bool allow_remote;  /* needed to bind anything but loopback */
    /* Extra Host names accepted (a remote bind behind a name). */
    const char *const *allowed_hosts;
    size_t n_allowed_hosts;
    const char *api_key_file; /* NULL: MCPVET_API_KEY, else the default key file */
    unsigned max_connections; /* 0 = 64 */
    unsigned timeout_s;       /* idle time per connection, 0 = 30 */
    size_t max_body;          /* request body cap, 0 = 16 MiB */
    unsigned grace_s;         /* shutdown: wait for requests in flight, 0 = 120 */
    /* Whole request (headers, body, answer), from the connection's start
     * or the end of its previous request: past it the connection is cut,
     * however busy the client keeps it. 0 = MV_REST_DEFAULT_DEADLINE. */
    unsigned deadline_s;
    bool quiet; /* no per-request log lines */
    mv_service_options service;
    FILE *out; /* where the listening address and key path are printed (stdout) */
    FILE *log; /* request log and errors (stderr) */
} mv_rest_options;

#define MV_REST_DEFAULT_MAX_BODY (16u * 1024 * 1024)
#define MV_REST_DEFAULT_DEADLINE 300u

/*
 * Start the server and serve until SIGTERM or SIGINT, then stop accepting,
 * let requests in flight finish (up to grace_s), and close the store.
 * Blocks SIGTERM/SIGINT in the calling thread (and every thread it
 * starts). Returns 0 after a clean shutdown, or MV_EINVAL (bad listen
 * address, a remote bind without allow_remote or without a given key, a
 * bad key or key file), MV_EIO (bind, key file), the store's error, with
 * err saying why.
 */
int mv_rest_run(const mv_rest_options *o, mv_error *err);

/* ------------------------------------------------ without a socket */

/* How the request handling reads a request: libmicrohttpd's connection in
 * the server, a parsed buffer in fuzz/fuzz_rest.c. Both return the first
 * value of that name, raw (query values not yet percent-decoded), or
 * NULL. */
typedef struct mv_rest_view {
    const char *(*header)(void *ctx, const char *name);
    const char *(*query)(void *ctx, const char *name);
    void *ctx;
} mv_rest_view;

/* The request handling of mv_rest_run over a borrowed service, with the
 * given key, Host names 127.0.0.1:PORT and localhost:PORT, and the fixed
 * CSRF token mv_rest_handler_csrf returns. `o` (borrowed) needs max_body
 * and log. MV_EINVAL (an invalid key, no max_body or log), MV_ENOMEM. */
typedef struct mv_rest_handler mv_rest_handler;
int mv_rest_handler_new(mv_rest_handler **out, const mv_rest_options *o, mv_service *svc,
                        const char *key, unsigned port, mv_error *err);
void mv_rest_handler_free(mv_rest_handler *h);
const char *mv_rest_handler_csrf(const mv_rest_handler *h);

/* Answer one whole request (url: the path without its query, as
 * libmicrohttpd passes it) exactly as the server does, every check in the
 * same order: the reply in `r` (initialised by the caller), *allow the
 * Allow header of a 405; for a review-page file *asset and *asset_len
 * (static) with r->status 200. */
void mv_rest_handle(mv_rest_handler *h, const mv_rest_view *v, const char *method, const char *url,
                    const char *body, size_t body_len, mv_service_reply *r, const char **allow,
                    const char **asset, size_t *asset_len);

/* The embedded OpenAPI document (generated/openapi.c). */
extern const char mv_openapi_json[];
extern const size_t mv_openapi_json_len;

#endif
