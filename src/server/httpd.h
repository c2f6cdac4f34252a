/*
 * What the two HTTP servers (the REST API of `mcpvet serve`, rest.c, and
 * the MCP streamable-HTTP endpoint, mcp_endpoint.c) share, so their
 * security rules cannot drift apart:
 *
 * - the API key: found (file, environment, default file, else generated
 *   0600) and kept only as a SHA-256, compared in constant time;
 * - the listen address (IP literals and "localhost" only, no DNS) and the
 *   Host/Origin allow-list that refuses DNS-rebinding requests;
 * - a whole-request deadline: libmicrohttpd's own timeout only counts idle
 *   time, so a client trickling one byte a second, or never finishing its
 *   headers, would hold a worker thread for ever. A watchdog thread shuts
 *   down the socket of any connection whose current request has run past
 *   the deadline (the handler, if running, finishes; its reply is lost).
 */
#ifndef MV_SERVER_HTTPD_H
#define MV_SERVER_HTTPD_H

#include "server/mhd_dl.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>

#include "mcpvet/common.h"

#define MV_HTTPD_KEY_MIN 16u
#define MV_HTTPD_KEY_MAX 1024u
#define MV_HTTPD_MAX_HOSTS 8u
#define MV_HTTPD_HOST_LEN 300u

/* ------------------------------------------------------------ API key */

typedef struct mv_httpd_key {
    unsigned char hash[32];
    bool set;
} mv_httpd_key;

/* Keep the SHA-256 of `key` (len bytes). */
void mv_httpd_key_set(mv_httpd_key *k, const char *key, size_t len);

/* A usable key: 16 to 1024 printable ASCII characters without spaces. */
bool mv_httpd_key_valid(const char *key, size_t len);

/*
 * Find the key as `mcpvet serve` does: api_key_file (generated 0600 when
 * missing and !remote), else MCPVET_API_KEY, else (loopback only) the file
 * api-key beside the default store, generated when missing. Says where it
 * came from on `out` as "<prog>: API key from ..."; never the key itself.
 * 0, or MV_EINVAL (bad key, remote without a key of the user's), MV_EIO.
 */
int mv_httpd_key_load(mv_httpd_key *k, const char *prog, const char *api_key_file, bool remote,
                      FILE *out, mv_error *err);

/* Constant time in the content and length of `given` (both sides are
 * hashed). False when no key is set. */
bool mv_httpd_key_matches(const mv_httpd_key *k, const char *given, size_t len);

/* The request carries the key as X-API-Key or Authorization: Bearer. */
bool mv_httpd_key_in_request(const mv_httpd_key *k, struct MHD_Connection *c);

/* The same rule over any header lookup (`header` returns the first value
 * of that name or NULL): the REST seam without a socket (rest.h). */
bool mv_httpd_key_in_headers(const mv_httpd_key *k,
                             const char *(*header)(void *ctx, const char *name), void *ctx);

/* 32 random bytes as 64 hex digits in `out` (cap >= 65). False when no
 * randomness could be read. */
bool mv_httpd_random_hex(char *out, size_t cap);

/* ------------------------------------------------------ address, hosts */

typedef struct mv_httpd_addr {
    struct sockaddr_storage ss;
    socklen_t len;
    bool loopback;
    bool v6;
    char host[MV_HTTPD_HOST_LEN]; /* as it appears in Host: "127.0.0.1", "[::1]" */
} mv_httpd_addr;

/* Parse "HOST:PORT": an IPv4 literal, "[IPv6]" or "localhost". No DNS. */
int mv_httpd_parse_listen(mv_httpd_addr *la, const char *spec, mv_error *err);

/* Bind and listen; returns the socket (and the bound port in *port) or a
 * negative MV_EIO with err saying why. */
int mv_httpd_listen(const mv_httpd_addr *la, unsigned *port, mv_error *err);

/* The Host values a server accepts ("HOST:PORT", and "HOST" on port 80). */
typedef struct mv_httpd_hosts {
    char host[MV_HTTPD_MAX_HOSTS][MV_HTTPD_HOST_LEN];
    size_t n;
} mv_httpd_hosts;

void mv_httpd_hosts_add(mv_httpd_hosts *h, const char *host, unsigned port);
bool mv_httpd_host_allowed(const mv_httpd_hosts *h, const char *host);
/* An Origin is allowed when it is the server itself: http://HOST:PORT. */
bool mv_httpd_origin_allowed(const mv_httpd_hosts *h, const char *origin);

/* ---------------------------------------------------- request deadline */

typedef struct mv_httpd_watch mv_httpd_watch;

/* Start the watchdog thread. `log`/`prog` name the line written when a
 * connection is cut. 0 or MV_ENOMEM/MV_EIO. */
int mv_httpd_watch_new(mv_httpd_watch **out, unsigned deadline_s, FILE *log, const char *prog,
                       mv_error *err);
/* Stop the thread. Call after MHD_stop_daemon. NULL is a no-op. */
void mv_httpd_watch_free(mv_httpd_watch *w);

/* Pass as MHD_OPTION_NOTIFY_CONNECTION, mv_httpd_watch_notify, w: tracks
 * each connection from its start. */
void mv_httpd_watch_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                           enum MHD_ConnectionNotificationCode code);

/* A request on `c` has been answered: the next one on the same connection
 * gets its own deadline from now. */
void mv_httpd_watch_request_done(mv_httpd_watch *w, struct MHD_Connection *c);

/* The request on `c` became a long-lived event stream whose headers and
 * body were read in full: the deadline no longer applies to it (the
 * stream has its own queue cap and idle limit, and libmicrohttpd's idle
 * timeout still cuts a client that stops reading). */
void mv_httpd_watch_exempt(mv_httpd_watch *w, struct MHD_Connection *c);

#endif
