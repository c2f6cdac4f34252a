/*
 * A small streaming JSON writer shared by the scan and eval reports. It
 * pretty-prints with two-space indentation, writes empty containers as
 * "[]"/"{}", and formats numbers without locale-dependent printf
 * conversions, so the same calls always give the same bytes. Strings go
 * through mv_buf_json_string; callers make tool-supplied text render-safe
 * before handing it over.
 */
#ifndef MV_JSONW_H
#define MV_JSONW_H

#include <stdbool.h>
#include <stdint.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"

#define MV_JW_MAX_DEPTH 32

typedef struct mv_jw {
    mv_buf *b;
    unsigned depth;
    bool has_items[MV_JW_MAX_DEPTH + 1]; /* per open container */
} mv_jw;

void mv_jw_init(mv_jw *w, mv_buf *b);

/* `key` names the member inside an object and must be NULL inside an array
 * or at the top level. Keys are trusted ASCII literals. */
void mv_jw_obj_begin(mv_jw *w, const char *key);
void mv_jw_obj_end(mv_jw *w);
void mv_jw_arr_begin(mv_jw *w, const char *key);
void mv_jw_arr_end(mv_jw *w);

void mv_jw_str(mv_jw *w, const char *key, mv_str value);
void mv_jw_cstr(mv_jw *w, const char *key, const char *value); /* NULL -> null */
void mv_jw_uint(mv_jw *w, const char *key, uint64_t value);
void mv_jw_int(mv_jw *w, const char *key, int64_t value);
void mv_jw_bool(mv_jw *w, const char *key, bool value);
void mv_jw_null(mv_jw *w, const char *key);
/* A number with exactly `decimals` fraction digits ("0.930"). */
void mv_jw_fixed(mv_jw *w, const char *key, double value, unsigned decimals);

/* Finish the document with a newline. Returns 0 or MV_ENOMEM. */
int mv_jw_finish(mv_jw *w);

#endif
