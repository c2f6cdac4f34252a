/*
 * Growable byte buffer for building reports and canonical text. Pure (the
 * caller decides where the bytes go).
 */
#ifndef MCPVET_BUF_H
#define MCPVET_BUF_H

#include <stdarg.h>
#include <stdint.h>
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mv_buf {
    char *data; /* NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    const mv_allocator *alloc; /* NULL = default */
    int failed;                /* sticky: an append ran out of memory */
} mv_buf;

/* Zero-initialised buffer using `a` (NULL = default). */
void mv_buf_init(mv_buf *b, const mv_allocator *a);
void mv_buf_release(mv_buf *b);

/* Appends; on OOM they set b->failed and return MV_ENOMEM; later appends
 * are no-ops so callers may check once at the end. */
int mv_buf_append(mv_buf *b, const void *data, size_t len);
int mv_buf_puts(mv_buf *b, const char *s);
int mv_buf_putc(mv_buf *b, char c);
int mv_buf_printf(mv_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int mv_buf_vprintf(mv_buf *b, const char *fmt, va_list ap);

/* Make room for `extra` more bytes (plus the NUL) so that the next appends
 * of that size cannot fail; lets writers fill b->data + b->len directly and
 * then advance b->len (keeping the NUL terminator). Returns 0 or MV_ENOMEM
 * (sticky, like the appends). */
int mv_buf_reserve(mv_buf *b, size_t extra);

/* Decimal integers without printf (locale-free, no format parsing). */
int mv_buf_put_u64(mv_buf *b, uint64_t value);
int mv_buf_put_i64(mv_buf *b, int64_t value);

/* Append `len` bytes as the body of a JSON string (no quotes): escapes
 * quote, backslash and every control character; non-ASCII passes through
 * except U+2028/U+2029, which are escaped. Invalid UTF-8 becomes U+FFFD. */
int mv_buf_json_string_body(mv_buf *b, const char *s, size_t len);
/* The same wrapped in double quotes. */
int mv_buf_json_string(mv_buf *b, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
