/*
 * Incremental, bounded Server-Sent Events parser (see sse_parser.h). It is
 * a byte-level state machine rather than a line splitter so that it never
 * buffers a whole line: a data value streams straight into the event's
 * data buffer (the only thing that grows, up to the cap), and field names,
 * comments and unknown fields cost no memory at all however long they are.
 */
#include "mcp/sse_parser.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"

/* Where the parser is within a line. */
enum sse_state {
    ST_LINE_START,  /* nothing of the current line read yet */
    ST_FIELD,       /* reading a field name */
    ST_VALUE_START, /* just after "name:", a single space is skipped */
    ST_VALUE,       /* reading a field value */
    ST_SKIP         /* comment or a value nobody keeps: skip to the line end */
};

/* Which field the current line sets. */
enum sse_field { F_OTHER, F_DATA, F_EVENT, F_ID };

/* Field names longer than the longest known one ("event", "retry") are
 * unknown fields; a few bytes are enough to tell. */
#define NAME_MAX_KEPT 8u

struct mv_sse_parser {
    size_t max_event;
    mv_sse_on_event cb;
    void *arg;
    enum sse_state state;
    enum sse_field field;
    bool after_cr;     /* the last byte was CR: a following LF is the same line end */
    unsigned bom_seen; /* leading bytes matched against the UTF-8 BOM so far */
    bool bom_done;
    bool data_seen; /* a data field arrived in the current event */
    bool pending;   /* some field of an undispatched event was read */
    int sticky;     /* the code that stopped the parser, 0 while running */
    char name[NAME_MAX_KEPT];
    size_t name_len; /* may exceed NAME_MAX_KEPT: only the first bytes are kept */
    mv_buf data;
    char type[MV_SSE_MAX_FIELD];
    size_t type_len;
    char id[MV_SSE_MAX_FIELD];
    size_t id_len;
    char id_new[MV_SSE_MAX_FIELD]; /* the id line being read, committed at its end */
    size_t id_new_len;
};

static const unsigned char BOM[3] = {0xEF, 0xBB, 0xBF};

mv_sse_parser *mv_sse_parser_new(size_t max_event_bytes, mv_sse_on_event cb, void *arg) {
    mv_sse_parser *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->max_event = max_event_bytes;
    p->cb = cb;
    p->arg = arg;
    p->state = ST_LINE_START;
    mv_buf_init(&p->data, NULL);
    return p;
}

void mv_sse_parser_free(mv_sse_parser *p) {
    if (p == NULL)
        return;
    mv_buf_release(&p->data);
    free(p);
}

int mv_sse_parser_pending(const mv_sse_parser *p) {
    return p != NULL && (p->pending || p->state != ST_LINE_START);
}

static bool name_is(const mv_sse_parser *p, const char *s) {
    size_t n = strlen(s);
    return p->name_len == n && memcmp(p->name, s, n) == 0;
}

/* The field name is complete: decide where its value goes. */
static void begin_value(mv_sse_parser *p) {
    p->pending = true;
    if (name_is(p, "data")) {
        p->field = F_DATA;
        p->data_seen = true;
    } else if (name_is(p, "event")) {
        p->field = F_EVENT;
        p->type_len = 0;
    } else if (name_is(p, "id")) {
        p->field = F_ID;
        p->id_new_len = 0;
    } else {
        p->field = F_OTHER; /* "retry" and unknown fields are not used */
    }
}

static int append_value(mv_sse_parser *p, const char *s, size_t n) {
    switch (p->field) {
    case F_DATA:
        if (n > p->max_event || p->data.len > p->max_event - n)
            return MV_ELIMIT;
        return mv_buf_append(&p->data, s, n);
    case F_EVENT:
        if (n > MV_SSE_MAX_FIELD - p->type_len)
            return MV_ELIMIT;
        memcpy(p->type + p->type_len, s, n);
        p->type_len += n;
        return 0;
    case F_ID:
        if (n > MV_SSE_MAX_FIELD - p->id_new_len)
            return MV_ELIMIT;
        memcpy(p->id_new + p->id_new_len, s, n);
        p->id_new_len += n;
        return 0;
    case F_OTHER:
        break;
    }
    return 0;
}

/* The value of the current field is complete (its line ended). */
static int end_value(mv_sse_parser *p) {
    if (p->field == F_DATA)
        return append_value(p, "\n", 1);
    /* An id containing NUL is ignored, as the standard says. */
    if (p->field == F_ID && memchr(p->id_new, '\0', p->id_new_len) == NULL) {
        memcpy(p->id, p->id_new, p->id_new_len);
        p->id_len = p->id_new_len;
    }
    return 0;
}

/* A blank line: dispatch the event when it has data. */
static int dispatch(mv_sse_parser *p) {
    int rc = 0;
    if (p->data_seen && p->data.len > 0) {
        mv_sse_event ev;
        ev.type = p->type_len > 0 ? p->type : "message";
        ev.type_len = p->type_len > 0 ? p->type_len : 7;
        ev.data = p->data.data;
        ev.data_len = p->data.len - 1; /* drop the last data line's LF */
        ev.id = p->id;
        ev.id_len = p->id_len;
        rc = p->cb(p->arg, &ev);
    }
    p->data.len = 0;
    if (p->data.data != NULL)
        p->data.data[0] = '\0';
    p->data_seen = false;
    p->type_len = 0;
    p->pending = false;
    return rc;
}

/* A line ended (CR, LF or CRLF) in the current state. */
static int end_line(mv_sse_parser *p) {
    int rc = 0;
    switch (p->state) {
    case ST_LINE_START:
        rc = dispatch(p);
        break;
    case ST_FIELD: /* a name without a colon: the whole line is the name */
        begin_value(p);
        rc = end_value(p);
        break;
    case ST_VALUE_START:
    case ST_VALUE:
        rc = end_value(p);
        break;
    case ST_SKIP:
        break;
    }
    p->state = ST_LINE_START;
    return rc;
}

/* Feed bytes after the BOM has been dealt with. */
static int feed_body(mv_sse_parser *p, const char *s, size_t len) {
    size_t i = 0;
    int rc = 0;
    while (i < len && rc == 0) {
        char c = s[i];
        if (p->after_cr) {
            p->after_cr = false;
            if (c == '\n') { /* the LF of a CRLF already ended the line */
                i++;
                continue;
            }
        }
        if (c == '\r' || c == '\n') {
            p->after_cr = c == '\r';
            rc = end_line(p);
            i++;
            continue;
        }
        switch (p->state) {
        case ST_LINE_START:
            if (c == ':') {
                p->state = ST_SKIP;
                i++;
            } else {
                p->state = ST_FIELD;
                p->name_len = 0;
            }
            break;
        case ST_FIELD:
            if (c == ':') {
                begin_value(p);
                p->state = ST_VALUE_START;
            } else {
                if (p->name_len < NAME_MAX_KEPT)
                    p->name[p->name_len] = c;
                if (p->name_len <= NAME_MAX_KEPT)
                    p->name_len++;
            }
            i++;
            break;
        case ST_VALUE_START:
            p->state = p->field == F_OTHER ? ST_SKIP : ST_VALUE;
            if (c == ' ')
                i++;
            break;
        case ST_VALUE: {
            /* Take the whole run up to the line end in one append. */
            size_t j = i;
            while (j < len && s[j] != '\r' && s[j] != '\n')
                j++;
            rc = append_value(p, s + i, j - i);
            i = j;
            break;
        }
        case ST_SKIP:
            while (i < len && s[i] != '\r' && s[i] != '\n')
                i++;
            break;
        }
    }
    return rc;
}

int mv_sse_parser_feed(mv_sse_parser *p, const char *data, size_t len) {
    int rc = 0;
    if (p->sticky != 0)
        return p->sticky;
    /* A UTF-8 BOM may open the stream, possibly split across chunks. */
    while (!p->bom_done && len > 0) {
        if ((unsigned char)*data != BOM[p->bom_seen]) {
            /* Not a BOM after all: replay what was held back. */
            p->bom_done = true;
            rc = feed_body(p, (const char *)BOM, p->bom_seen);
            if (rc != 0)
                goto done;
            break;
        }
        p->bom_seen++;
        data++;
        len--;
        if (p->bom_seen == sizeof BOM)
            p->bom_done = true;
    }
    if (len > 0)
        rc = feed_body(p, data, len);
done:
    if (rc == 0 && p->data.failed)
        rc = MV_ENOMEM;
    if (rc != 0)
        p->sticky = rc;
    return rc;
}
