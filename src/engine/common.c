/*
 * Error records, error names and the default allocator shared by every
 * module. Formatting uses vsnprintf into caller-owned memory only.
 */
#include "mcpvet/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mv_strerror(int code) {
    switch (code) {
    case MV_OK:
        return "success";
    case MV_ENOMEM:
        return "out of memory";
    case MV_EINVAL:
        return "invalid argument";
    case MV_EPARSE:
        return "invalid input";
    case MV_ELIMIT:
        return "input exceeds a limit";
    case MV_EIO:
        return "input/output error";
    case MV_ECHECK:
        return "check failed";
    case MV_EUNSUPPORTED:
        return "unsupported";
    case MV_ENOTFOUND:
        return "not found";
    case MV_EQUARANTINED:
        return "quarantined: approval needs force";
    case MV_ECORRUPT:
        return "corrupt or foreign file";
    default:
        return "unknown error";
    }
}

void mv_error_clear(mv_error *err) {
    if (err == NULL)
        return;
    memset(err, 0, sizeof(*err));
}

int mv_error_set(mv_error *err, int code, const char *fmt, ...) {
    if (err == NULL)
        return code;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return code;
}

static void *default_alloc(void *ctx, size_t size) {
    (void)ctx;
    return malloc(size);
}

static void *default_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void default_free(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    (void)size;
    free(ptr);
}

static const mv_allocator default_allocator = {default_alloc, default_realloc, default_free, NULL};

const mv_allocator *mv_allocator_default(void) {
    return &default_allocator;
}

void *mv_alloc(const mv_allocator *a, size_t size) {
    if (a == NULL)
        a = &default_allocator;
    return a->alloc(a->ctx, size == 0 ? 1 : size);
}

void *mv_calloc(const mv_allocator *a, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    void *p = mv_alloc(a, count * size);
    if (p != NULL)
        memset(p, 0, count * size == 0 ? 1 : count * size);
    return p;
}

void *mv_realloc(const mv_allocator *a, void *ptr, size_t old_size, size_t new_size) {
    if (a == NULL)
        a = &default_allocator;
    if (ptr == NULL)
        return mv_alloc(a, new_size);
    return a->realloc(a->ctx, ptr, old_size, new_size == 0 ? 1 : new_size);
}

void mv_free(const mv_allocator *a, void *ptr, size_t size) {
    if (ptr == NULL)
        return;
    if (a == NULL)
        a = &default_allocator;
    a->free(a->ctx, ptr, size);
}
