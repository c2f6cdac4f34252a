/*
 * Loads libcurl on first use (see curl_dl.h): dlopen, one dlsym per
 * function, curl_global_init, all under pthread_once so concurrent first
 * calls from the HTTP transports' threads are safe. If any step fails the
 * table holds stand-ins that fail cleanly, and it stays that way.
 */
#include "curl_dl.h"
#include "platform/dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* ---- stand-ins used when libcurl cannot be loaded */
static CURLcode st_global_init(long flags) {
    (void)flags;
    return CURLE_FAILED_INIT;
}
static void st_global_cleanup(void) {}
static CURL *st_easy_init(void) {
    return NULL;
}
static CURLcode st_easy_setopt(CURL *h, CURLoption o, ...) {
    (void)h;
    (void)o;
    return CURLE_FAILED_INIT;
}
static CURLcode st_easy_getinfo(CURL *h, CURLINFO i, ...) {
    (void)h;
    (void)i;
    return CURLE_FAILED_INIT;
}
static CURLcode st_easy_perform(CURL *h) {
    (void)h;
    return CURLE_FAILED_INIT;
}
static void st_easy_void(CURL *h) {
    (void)h;
}
static const char *st_easy_strerror(CURLcode c) {
    (void)c;
    return "libcurl could not be loaded";
}
static void st_free(void *p) {
    (void)p;
}
static struct curl_slist *st_slist_append(struct curl_slist *l, const char *s) {
    (void)l;
    (void)s;
    return NULL;
}
static void st_slist_free_all(struct curl_slist *l) {
    (void)l;
}
static CURLU *st_url(void) {
    return NULL;
}
static CURLUcode st_url_get(CURLU *h, CURLUPart w, char **p, unsigned int f) {
    (void)h;
    (void)w;
    (void)f;
    if (p != NULL)
        *p = NULL;
    return CURLUE_OUT_OF_MEMORY;
}
static CURLUcode st_url_set(CURLU *h, CURLUPart w, const char *p, unsigned int f) {
    (void)h;
    (void)w;
    (void)p;
    (void)f;
    return CURLUE_OUT_OF_MEMORY;
}
static void st_url_cleanup(CURLU *h) {
    (void)h;
}
static CURLM *st_multi_init(void) {
    return NULL;
}
static CURLMcode st_multi_handle(CURLM *m, CURL *h) {
    (void)m;
    (void)h;
    return CURLM_BAD_HANDLE;
}
static CURLMcode st_multi_perform(CURLM *m, int *r) {
    (void)m;
    if (r != NULL)
        *r = 0;
    return CURLM_BAD_HANDLE;
}
static CURLMcode st_multi_poll(CURLM *m, struct curl_waitfd f[], unsigned int n, int t, int *r) {
    (void)m;
    (void)f;
    (void)n;
    (void)t;
    if (r != NULL)
        *r = 0;
    return CURLM_BAD_HANDLE;
}
static CURLMsg *st_multi_info_read(CURLM *m, int *q) {
    (void)m;
    if (q != NULL)
        *q = 0;
    return NULL;
}
static CURLMcode st_multi_cleanup(CURLM *m) {
    (void)m;
    return CURLM_OK;
}

static const mv_curl_fns stand_ins = {
    st_global_init,  st_global_cleanup,  st_easy_init,     st_easy_setopt,   st_easy_getinfo,
    st_easy_perform, st_easy_void,       st_easy_void,     st_easy_strerror, st_free,
    st_slist_append, st_slist_free_all,  st_url,           st_url_get,       st_url_set,
    st_url_cleanup,  st_multi_init,      st_multi_handle,  st_multi_handle,  st_multi_perform,
    st_multi_poll,   st_multi_info_read, st_multi_cleanup,
};

static mv_curl_fns loaded;
static const mv_curl_fns *active = &stand_ins;
static int ready;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define SYM(field, name) mv_dl_sym(lib, name, &loaded.field, sizeof(loaded.field))

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return;
    int bad = SYM(global_init, "curl_global_init") | SYM(global_cleanup, "curl_global_cleanup") |
              SYM(easy_init, "curl_easy_init") | SYM(easy_setopt, "curl_easy_setopt") |
              SYM(easy_getinfo, "curl_easy_getinfo") | SYM(easy_perform, "curl_easy_perform") |
              SYM(easy_reset, "curl_easy_reset") | SYM(easy_cleanup, "curl_easy_cleanup") |
              SYM(easy_strerror, "curl_easy_strerror") | SYM(free, "curl_free") |
              SYM(slist_append, "curl_slist_append") | SYM(slist_free_all, "curl_slist_free_all") |
              SYM(url, "curl_url") | SYM(url_get, "curl_url_get") | SYM(url_set, "curl_url_set") |
              SYM(url_cleanup, "curl_url_cleanup") | SYM(multi_init, "curl_multi_init") |
              SYM(multi_add_handle, "curl_multi_add_handle") |
              SYM(multi_remove_handle, "curl_multi_remove_handle") |
              SYM(multi_perform, "curl_multi_perform") | SYM(multi_poll, "curl_multi_poll") |
              SYM(multi_info_read, "curl_multi_info_read") |
              SYM(multi_cleanup, "curl_multi_cleanup");
    /* The library stays loaded for the life of the process either way
     * (its global state may be referenced by handles). */
    if (bad != 0 || loaded.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return;
    active = &loaded;
    ready = 1;
}

const mv_curl_fns *mv_curl(void) {
    pthread_once(&load_once, load);
    return active;
}

int mv_curl_ready(void) {
    pthread_once(&load_once, load);
    return ready;
}

void mv_curl_cleanup(void) {
    /* Nothing to clean when nothing was loaded; never loads just to clean. */
    if (ready)
        loaded.global_cleanup();
}
