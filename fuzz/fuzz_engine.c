/*
 * Whole-engine libFuzzer target: arbitrary bytes go the way of `mcpvet scan
 * --tools FILE`: mv_pipeline_add_document (strict parse, shapes, caps),
 * mv_pipeline_scan (every check) and mv_report_render in text, JSON and
 * SARIF. The invariants are what a user of a security tool relies on:
 *  - no crash, no sanitizer report, no leak;
 *  - the JSON and SARIF reports parse back with the project's strict
 *    parser (no duplicate key, valid UTF-8, one top-level object);
 *  - the text report is valid UTF-8 with no raw control character but
 *    '\n', no DEL, no C1 control (U+0080..U+009F, CSI among them) and no
 *    bidi or zero-width character: nothing taken from a tool can drive a
 *    terminal or reorder a line;
 *  - the same bytes scanned a second time, by a second pipeline scanning
 *    with two threads, give byte-identical reports, and the streamed
 *    render (mv_report_render_to) gives the same bytes as the whole one.
 * A pipeline builds its engine, which costs a few milliseconds: this
 * target runs slower than the parser targets by design.
 * Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "mcpvet/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static _Noreturn void broken(const char *what) {
    fprintf(stderr, "fuzz_engine: invariant broken: %s\n", what);
    abort();
}

typedef struct reports {
    mv_buf fmt[3]; /* text, json, sarif */
    int exit_code;
    int add_rc;
} reports;

static int sink(void *arg, const char *p, size_t n) {
    return mv_buf_append(arg, p, n);
}

/* Parse, scan and render. Returns false when memory ran out. */
static bool run(const uint8_t *data, size_t size, unsigned jobs, reports *out) {
    static const mv_report_format formats[3] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    mv_pipeline_options po;
    mv_pipeline *p = NULL;
    mv_error err;
    bool ok = false;
    memset(&po, 0, sizeof po);
    /* Small caps: each run stays short and every cap path is reachable. */
    po.model.limits.max_document_bytes = 1u << 20;
    po.model.limits.max_field_bytes = 4096;
    po.model.limits.max_tools_per_server = 64;
    po.model.limits.max_fields_per_tool = 256;
    po.model.keep_definitions = true;
    for (int i = 0; i < 3; i++)
        mv_buf_init(&out->fmt[i], NULL);
    mv_error_clear(&err);
    if (mv_pipeline_new(&p, &po, &err) != MV_OK)
        goto done;
    out->add_rc = mv_pipeline_add_document(p, (const char *)data, size, "fuzz.json", NULL, &err);
    if (out->add_rc == MV_ENOMEM)
        goto done;
    if (out->add_rc != MV_OK) {
        if (err.code != out->add_rc || err.message[0] == '\0')
            broken("a refused document without its error");
        ok = true;
        goto done;
    }
    if (mv_pipeline_scan(p, jobs, &err) != MV_OK)
        goto done;
    for (int i = 0; i < 3; i++) {
        mv_report_options ro;
        memset(&ro, 0, sizeof ro);
        ro.format = formats[i];
        ro.version = "fuzz";
        ro.show_clean = true;
        ro.jobs = jobs;
        mv_pipeline_report_options(p, &ro);
        if (mv_report_render(&out->fmt[i], mv_pipeline_result(p), &ro, &err) != MV_OK)
            goto done;
        if (i == 1) {
            mv_buf streamed;
            mv_buf_init(&streamed, NULL);
            if (mv_report_render_to(sink, &streamed, mv_pipeline_result(p), &ro, &err) == MV_OK &&
                (streamed.len != out->fmt[i].len ||
                 memcmp(streamed.data, out->fmt[i].data, streamed.len) != 0))
                broken("the streamed report differs from the whole one");
            mv_buf_release(&streamed);
        }
        out->exit_code = mv_pipeline_exit_code(p, &ro);
    }
    ok = true;
done:
    mv_pipeline_free(p);
    return ok;
}

static void release(reports *r) {
    for (int i = 0; i < 3; i++)
        mv_buf_release(&r->fmt[i]);
}

static void parses_back(const mv_buf *b, const char *what) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *v = NULL;
    mv_jerror je;
    if (a == NULL)
        return;
    if (mv_json_parse(&v, a, NULL, b->data, b->len, &je) != MV_OK && je.code != MV_ENOMEM) {
        fprintf(stderr, "fuzz_engine: %s report: %s at byte %zu\n", what, je.message, je.offset);
        broken("a report does not parse back");
    }
    if (v != NULL && !mv_jis_object(v))
        broken("a report is not an object");
    mv_arena_free(a);
}

/* Valid UTF-8 with no control but '\n' and no bidi, zero-width or C1
 * character. */
static void check_text(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t k;
        uint32_t cp;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n') || c == 0x7f) {
                fprintf(stderr, "fuzz_engine: byte 0x%02x at %zu of the text report\n", c, i);
                broken("a raw control character in the text report");
            }
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            k = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            k = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            k = 4, cp = c & 0x07;
        else
            broken("invalid UTF-8 in the text report");
        if (i + k > n)
            broken("a cut UTF-8 sequence in the text report");
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                broken("invalid UTF-8 in the text report");
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            broken("invalid UTF-8 in the text report");
        if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) ||
            (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 ||
            cp == 0x2029 || cp == 0xfeff || (cp >= 0xe0000 && cp <= 0xe007f)) {
            fprintf(stderr, "fuzz_engine: U+%04X at %zu of the text report\n", (unsigned)cp, i);
            broken("an invisible or bidi character in the text report");
        }
        i += k;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reports a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (size > 65536)
        return 0;
    if (!run(data, size, 1, &a))
        goto done;
    if (a.add_rc != MV_OK)
        goto done;
    check_text((const unsigned char *)a.fmt[0].data, a.fmt[0].len);
    parses_back(&a.fmt[1], "JSON");
    parses_back(&a.fmt[2], "SARIF");
    if (!run(data, size, 2, &b))
        goto done;
    if (b.add_rc != MV_OK || a.exit_code != b.exit_code)
        broken("a second scan of the same bytes ended differently");
    for (int i = 0; i < 3; i++)
        if (a.fmt[i].len != b.fmt[i].len || memcmp(a.fmt[i].data, b.fmt[i].data, a.fmt[i].len))
            broken("a second scan of the same bytes gave another report");
done:
    release(&a);
    release(&b);
    return 0;
}
