/*
 * The project's one JSON writer, shared by the reports, the MCP client's
 * requests and the snapshots. It pretty-prints with two-space indentation
 * (or writes compact JSON with no newline inside, as newline-delimited
 * JSON-RPC needs), writes empty containers as "[]"/"{}", and formats
 * numbers without locale-dependent printf conversions, so the same calls
 * always give the same bytes. Strings go through mv_buf_json_string;
 * report code makes tool-supplied text render-safe before handing it over.
 */
#ifndef MV_JSONW_H
#define MV_JSONW_H

#include <stdbool.h>
#include <stdint.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "json/json.h"

#define MV_JW_MAX_DEPTH 32

typedef struct mv_jw {
    mv_buf *b;
    unsigned depth;
    bool compact; /* no newlines or indentation */
    bool has_items[MV_JW_MAX_DEPTH + 1]; /* per open container */
} mv_jw;

void mv_jw_init(mv_jw *w, mv_buf *b);
/* Compact output: no whitespace at all, so a document is one line. */
void mv_jw_init_compact(mv_jw *w, mv_buf *b);

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

/* An already serialized JSON value, written as it is (caller vouches it is
 * valid JSON; in compact mode it must not contain a newline). */
void mv_jw_raw(mv_jw *w, const char *key, const char *json, size_t len);
/* A parsed tree, written compactly (see mv_json_write). */
void mv_jw_value(mv_jw *w, const char *key, const mv_jv *v);

/* Append the literal `true`, `false` or `null` a value of those types is
 * (anything else writes null); the one spelling every writer shares. */
void mv_json_write_literal(mv_buf *b, const mv_jv *v);

/* Append `v` as compact JSON: members in document order, numbers as their
 * source text, strings re-escaped by mv_buf_json_string. Parsing the result
 * gives an equal tree. Allocation failure sets b->failed. */
void mv_json_write(mv_buf *b, const mv_jv *v);

/* Finish the document with a newline. Returns 0 or MV_ENOMEM. */
int mv_jw_finish(mv_jw *w);

#endif
