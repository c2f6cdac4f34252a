/*
 * libcurl, loaded on first use. Most runs of mcpvet never speak HTTP (a
 * scan of tools files, eval, security), yet linking libcurl made every
 * start map and relocate it and the ~28 libraries it needs (TLS, Kerberos,
 * LDAP, SSH, HTTP/2...), about a third of a small scan's instructions, and
 * run curl_global_init. This header includes <curl/curl.h> for the types
 * and routes every curl function the client uses through a table filled
 * by dlopen("libcurl.so.4") the first time one is called (thread-safe,
 * once). When the library cannot be loaded, the constructors return NULL
 * and the other calls fail with an error code, so a transport reports an
 * error instead of crashing. Include this instead of <curl/curl.h>.
 */
#ifndef MV_CURL_DL_H
#define MV_CURL_DL_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef struct mv_curl_fns {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_global_cleanup) *global_cleanup;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_free) *free;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_url) *url;
    __typeof__(curl_url_get) *url_get;
    __typeof__(curl_url_set) *url_set;
    __typeof__(curl_url_cleanup) *url_cleanup;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
} mv_curl_fns;

/* The table: libcurl's functions once loaded and globally initialised, or
 * failing stand-ins when that was impossible. Never NULL. */
const mv_curl_fns *mv_curl(void);
/* True once libcurl has been loaded and initialised (loads it if needed). */
int mv_curl_ready(void);
/* curl_global_cleanup, only when libcurl was loaded. */
void mv_curl_cleanup(void);

/* curl.h defines pass-through macros for some of these names. */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_share_setopt
#undef curl_multi_setopt

#define curl_easy_init() (mv_curl()->easy_init())
#define curl_easy_setopt(...) (mv_curl()->easy_setopt(__VA_ARGS__))
#define curl_easy_getinfo(...) (mv_curl()->easy_getinfo(__VA_ARGS__))
#define curl_easy_perform(h) (mv_curl()->easy_perform(h))
#define curl_easy_reset(h) (mv_curl()->easy_reset(h))
#define curl_easy_cleanup(h) (mv_curl()->easy_cleanup(h))
#define curl_easy_strerror(c) (mv_curl()->easy_strerror(c))
#define curl_free(p) (mv_curl()->free(p))
#define curl_slist_append(l, s) (mv_curl()->slist_append((l), (s)))
#define curl_slist_free_all(l) (mv_curl()->slist_free_all(l))
#define curl_url() (mv_curl()->url())
#define curl_url_get(h, w, p, f) (mv_curl()->url_get((h), (w), (p), (f)))
#define curl_url_set(h, w, p, f) (mv_curl()->url_set((h), (w), (p), (f)))
#define curl_url_cleanup(h) (mv_curl()->url_cleanup(h))
#define curl_multi_init() (mv_curl()->multi_init())
#define curl_multi_add_handle(m, h) (mv_curl()->multi_add_handle((m), (h)))
#define curl_multi_remove_handle(m, h) (mv_curl()->multi_remove_handle((m), (h)))
#define curl_multi_perform(m, r) (mv_curl()->multi_perform((m), (r)))
#define curl_multi_poll(m, f, n, t, r) (mv_curl()->multi_poll((m), (f), (n), (t), (r)))
#define curl_multi_info_read(m, q) (mv_curl()->multi_info_read((m), (q)))
#define curl_multi_cleanup(m) (mv_curl()->multi_cleanup(m))

#endif
