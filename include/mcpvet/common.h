/*
 * Shared vocabulary of every mcpvet module: error codes, the caller-owned
 * error record, the pointer+length string and the injectable allocator.
 * Nothing here does I/O; the engine may include it freely.
 */
#ifndef MCPVET_COMMON_H
#define MCPVET_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: 0 on success, a negative MV_E* code on failure. */
#define MV_OK 0
#define MV_ENOMEM (-1) /* an allocation failed */
#define MV_EINVAL (-2) /* a caller passed an invalid argument */
#define MV_EPARSE (-3) /* input is not valid JSON / not the expected shape */
#define MV_ELIMIT (-4) /* input exceeds a hard cap that makes it unusable */
#define MV_EIO (-5)    /* a file could not be read or written (never in the engine) */
#define MV_ECHECK (-6) /* a check failed internally */
#define MV_EUNSUPPORTED (-7)
/* The approval store (include/mcpvet/store.h); numbered apart so other
 * modules can add codes after -7 without a clash. */
#define MV_ENOTFOUND (-20)    /* a store, server or tool that does not exist */
#define MV_EQUARANTINED (-21) /* approval of a quarantined tool needs force */
#define MV_ECORRUPT (-22)     /* a file that is corrupt or not what it should be */

/* Human-readable name of an MV_E* code ("out of memory", ...). Never NULL. */
const char *mv_strerror(int code);

/*
 * Error details filled by a fallible function. Caller-owned; functions
 * write into it only on failure. line/column are 1-based and 0 when unknown;
 * `where` names a field path ("tools[3].inputSchema.properties.q") when known.
 */
typedef struct mv_error {
    int code;
    int line;
    int column;
    size_t offset;
    char source[256];  /* file name or "<stdin>", may be empty */
    char where[256];   /* JSON path of the offending field, may be empty */
    char message[512]; /* one sentence, NUL-terminated */
} mv_error;

/* Clear an error record (code 0, empty strings). NULL is a no-op. */
void mv_error_clear(mv_error *err);

/* printf-style setter; NULL err is a no-op. Returns `code` for tail calls. */
int mv_error_set(mv_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A borrowed byte string. Never relies on a NUL terminator (tool text may
 * contain U+0000). */
typedef struct mv_str {
    const char *ptr;
    size_t len;
} mv_str;

#define MV_STR_LIT(s) ((mv_str){(s), sizeof(s) - 1})
#define MV_STR_NULL ((mv_str){NULL, 0})

/*
 * Injectable allocator. Every module that allocates takes one, so tests can
 * fail the Nth allocation and prove out-of-memory paths. `free` receives the
 * size passed to alloc/realloc so arena-style allocators can account for it.
 */
typedef struct mv_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} mv_allocator;

/* The process allocator (malloc/realloc/free). Never NULL. */
const mv_allocator *mv_allocator_default(void);

/* Helpers that accept a NULL allocator meaning the default. */
void *mv_alloc(const mv_allocator *a, size_t size);
void *mv_calloc(const mv_allocator *a, size_t count, size_t size);
void *mv_realloc(const mv_allocator *a, void *ptr, size_t old_size, size_t new_size);
void mv_free(const mv_allocator *a, void *ptr, size_t size);

#ifdef __cplusplus
}
#endif
#endif
