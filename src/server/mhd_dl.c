/*
 * Loads libmicrohttpd on first use (see mhd_dl.h): dlopen and one dlsym
 * per function under pthread_once. If any step fails the table holds
 * stand-ins that fail cleanly, and it stays that way.
 */
#include "server/mhd_dl.h"
#include "platform/dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static struct MHD_Daemon *st_start_daemon(unsigned int flags, uint16_t port,
                                          MHD_AcceptPolicyCallback apc, void *apc_cls,
                                          MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    (void)flags;
    (void)port;
    (void)apc;
    (void)apc_cls;
    (void)dh;
    (void)dh_cls;
    return NULL;
}
static void st_stop_daemon(struct MHD_Daemon *d) {
    (void)d;
}
static MHD_socket st_quiesce_daemon(struct MHD_Daemon *d) {
    (void)d;
    return MHD_INVALID_SOCKET;
}
static struct MHD_Response *st_create_response_from_buffer(size_t size, void *buffer,
                                                           enum MHD_ResponseMemoryMode mode) {
    (void)size;
    (void)buffer;
    (void)mode;
    return NULL;
}
static enum MHD_Result st_add_response_header(struct MHD_Response *r, const char *h,
                                              const char *c) {
    (void)r;
    (void)h;
    (void)c;
    return MHD_NO;
}
static void st_destroy_response(struct MHD_Response *r) {
    (void)r;
}
static enum MHD_Result st_queue_response(struct MHD_Connection *c, unsigned int s,
                                         struct MHD_Response *r) {
    (void)c;
    (void)s;
    (void)r;
    return MHD_NO;
}
static const char *st_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind k,
                                              const char *n) {
    (void)c;
    (void)k;
    (void)n;
    return NULL;
}

static const union MHD_ConnectionInfo *st_get_connection_info(struct MHD_Connection *c,
                                                              enum MHD_ConnectionInfoType t, ...) {
    (void)c;
    (void)t;
    return NULL;
}

static struct MHD_Response *st_create_response_from_callback(uint64_t size, size_t block,
                                                             MHD_ContentReaderCallback crc,
                                                             void *cls,
                                                             MHD_ContentReaderFreeCallback crfc) {
    (void)size;
    (void)block;
    (void)crc;
    (void)cls;
    (void)crfc;
    return NULL;
}

static const mv_mhd_fns stand_ins = {
    st_start_daemon,        st_stop_daemon,
    st_quiesce_daemon,      st_create_response_from_buffer,
    st_add_response_header, st_destroy_response,
    st_queue_response,      st_lookup_connection_value,
    st_get_connection_info, st_create_response_from_callback,
};

static mv_mhd_fns loaded;
static const mv_mhd_fns *active = &stand_ins;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define SYM(field, name) mv_dl_sym(lib, name, &loaded.field, sizeof(loaded.field))

static void load(void) {
    void *lib = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return;
    int bad = SYM(start_daemon, "MHD_start_daemon") | SYM(stop_daemon, "MHD_stop_daemon") |
              SYM(quiesce_daemon, "MHD_quiesce_daemon") |
              SYM(create_response_from_buffer, "MHD_create_response_from_buffer") |
              SYM(add_response_header, "MHD_add_response_header") |
              SYM(destroy_response, "MHD_destroy_response") |
              SYM(queue_response, "MHD_queue_response") |
              SYM(lookup_connection_value, "MHD_lookup_connection_value") |
              SYM(get_connection_info, "MHD_get_connection_info") |
              SYM(create_response_from_callback, "MHD_create_response_from_callback");
    if (bad == 0)
        active = &loaded;
}

const mv_mhd_fns *mv_mhd(void) {
    pthread_once(&load_once, load);
    return active;
}
