/*
 * libmicrohttpd, loaded on first use, for the same reason as libcurl
 * (src/mcp/curl_dl.h): only `mcpvet serve` needs it, but linking it made
 * every start map and relocate it and GnuTLS with its eight dependencies.
 * This header includes <microhttpd.h> for the types and routes the calls
 * the REST server makes through a table filled by
 * dlopen("libmicrohttpd.so.12") once (thread-safe). When loading fails,
 * MHD_start_daemon and MHD_create_response_from_buffer return NULL and
 * the rest fail or do nothing. Include this instead of <microhttpd.h>.
 */
#ifndef MV_MHD_DL_H
#define MV_MHD_DL_H

#include <microhttpd.h>

typedef struct mv_mhd_fns {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_quiesce_daemon) *quiesce_daemon;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
} mv_mhd_fns;

/* The table: libmicrohttpd's functions, or failing stand-ins. Never NULL. */
const mv_mhd_fns *mv_mhd(void);

#define MHD_start_daemon(...) (mv_mhd()->start_daemon(__VA_ARGS__))
#define MHD_stop_daemon(d) (mv_mhd()->stop_daemon(d))
#define MHD_quiesce_daemon(d) (mv_mhd()->quiesce_daemon(d))
#define MHD_create_response_from_buffer(s, b, m)                                                   \
    (mv_mhd()->create_response_from_buffer((s), (b), (m)))
#define MHD_add_response_header(r, h, c) (mv_mhd()->add_response_header((r), (h), (c)))
#define MHD_destroy_response(r) (mv_mhd()->destroy_response(r))
#define MHD_queue_response(c, s, r) (mv_mhd()->queue_response((c), (s), (r)))
#define MHD_lookup_connection_value(c, k, n) (mv_mhd()->lookup_connection_value((c), (k), (n)))
#define MHD_get_connection_info(...) (mv_mhd()->get_connection_info(__VA_ARGS__))
#define MHD_create_response_from_callback(s, b, c, cls, f)                                         \
    (mv_mhd()->create_response_from_callback((s), (b), (c), (cls), (f)))

#endif
