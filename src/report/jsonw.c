/*
 * Streaming pretty-printing JSON writer (see jsonw.h). Deliberately tiny:
 * the reports know their shapes, so the writer only tracks indentation and
 * commas, never builds a tree.
 */
#include "report/jsonw.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "mcpvet/report.h"

void mv_jw_init(mv_jw *w, mv_buf *b) {
    memset(w, 0, sizeof *w);
    w->b = b;
}

static void indent(mv_jw *w) {
    mv_buf_putc(w->b, '\n');
    for (unsigned i = 0; i < w->depth; i++)
        mv_buf_append(w->b, "  ", 2);
}

/* Separator, indentation and key before any value. */
static void value_prefix(mv_jw *w, const char *key) {
    if (w->depth > 0) {
        if (w->has_items[w->depth])
            mv_buf_putc(w->b, ',');
        w->has_items[w->depth] = true;
        indent(w);
    }
    if (key != NULL) {
        mv_buf_json_string(w->b, key, strlen(key));
        mv_buf_append(w->b, ": ", 2);
    }
}

static void open_container(mv_jw *w, const char *key, char c) {
    value_prefix(w, key);
    mv_buf_putc(w->b, c);
    assert(w->depth < MV_JW_MAX_DEPTH); /* the reports never nest this deep */
    w->depth++;
    w->has_items[w->depth] = false;
}

static void close_container(mv_jw *w, char c) {
    bool items = w->has_items[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (items)
        indent(w);
    mv_buf_putc(w->b, c);
}

void mv_jw_obj_begin(mv_jw *w, const char *key) {
    open_container(w, key, '{');
}

void mv_jw_obj_end(mv_jw *w) {
    close_container(w, '}');
}

void mv_jw_arr_begin(mv_jw *w, const char *key) {
    open_container(w, key, '[');
}

void mv_jw_arr_end(mv_jw *w) {
    close_container(w, ']');
}

void mv_jw_str(mv_jw *w, const char *key, mv_str value) {
    value_prefix(w, key);
    mv_buf_json_string(w->b, value.ptr != NULL ? value.ptr : "", value.ptr != NULL ? value.len : 0);
}

void mv_jw_cstr(mv_jw *w, const char *key, const char *value) {
    value_prefix(w, key);
    if (value == NULL)
        mv_buf_puts(w->b, "null");
    else
        mv_buf_json_string(w->b, value, strlen(value));
}

void mv_jw_uint(mv_jw *w, const char *key, uint64_t value) {
    value_prefix(w, key);
    mv_buf_printf(w->b, "%" PRIu64, value);
}

void mv_jw_int(mv_jw *w, const char *key, int64_t value) {
    value_prefix(w, key);
    mv_buf_printf(w->b, "%" PRId64, value);
}

void mv_jw_bool(mv_jw *w, const char *key, bool value) {
    value_prefix(w, key);
    mv_buf_puts(w->b, value ? "true" : "false");
}

void mv_jw_null(mv_jw *w, const char *key) {
    value_prefix(w, key);
    mv_buf_puts(w->b, "null");
}

void mv_jw_fixed(mv_jw *w, const char *key, double value, unsigned decimals) {
    value_prefix(w, key);
    mv_report_put_fixed(w->b, value, decimals);
}

int mv_jw_finish(mv_jw *w) {
    mv_buf_putc(w->b, '\n');
    assert(w->depth == 0); /* every container was closed */
    return w->b->failed ? MV_ENOMEM : MV_OK;
}
