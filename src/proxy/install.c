/*
 * `mcpvet proxy --install` / `--uninstall`: put every stdio server of the
 * discovered client configs behind the proxy, and take it out again.
 *
 * The config module says which files exist and where each server's entry
 * starts (line and column of its key); the edits themselves are textual,
 * made by a small JSON-with-comments scanner on the file's own bytes, so
 * comments, key order, indentation and unknown keys stay as they are.
 * Only two values of an entry change:
 *
 *   "command": "npx", "args": [ARGS]
 *   -> "command": "/usr/bin/mcpvet",
 *      "args": ["proxy", "--name", "NAME", ..., "--", "npx", ARGS]
 *
 * where "npx" and ARGS are copied as written (the text between the original
 * brackets, comments and line breaks included), so uninstall can cut them
 * back out exactly. An entry without "args" gets one after "command".
 *
 * Before a file is first changed its bytes are kept next to it as
 * FILE.mcpvet-backup. Uninstall unwraps the entries in the current text;
 * when the result equals the backup (the file was not edited since) it is
 * that exact text and the backup is removed, else the unwrapped text is
 * written and the backup is kept for the person to compare. Files are
 * replaced atomically (a temporary file in the same folder, then rename),
 * keeping their mode.
 *
 * Codex's TOML files are edited the same way in their [mcp_servers.NAME]
 * tables (the command line's value, the args array, or an "args = [...]"
 * line added after the command's). Continue's YAML files likewise in
 * their "- name: NAME" items: a block args sequence gets the proxy's items
 * as lines of their own in front of the entry's, a flow one is rewritten
 * like a JSON array, a missing one becomes an "args: [...]" line.
 */
#define _GNU_SOURCE /* readlink */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json/json.h"
#include "mcpvet/config.h"
#include "mcpvet/proxy.h"

#define BACKUP_SUFFIX ".mcpvet-backup"
#define MAX_FILE (16u * 1024 * 1024)

/* -------------------------------------------------- JSON-with-comments */

static size_t skip_ws(const char *s, size_t n, size_t i) {
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if ((c == '/' && i + 1 < n && s[i + 1] == '/') || c == '#') {
            /* JSONC line comments; TOML comments (never valid JSON) */
            while (i < n && s[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < n && e == NULL; k++)
                if (s[k] == '*' && s[k + 1] == '/')
                    e = s + k;
            if (e == NULL)
                return n;
            i = (size_t)(e - s) + 2;
        } else {
            break;
        }
    }
    return i;
}

/* End of the value starting at s[i], or SIZE_MAX when it is not one. */
static size_t skip_value(const char *s, size_t n, size_t i) {
    if (i >= n)
        return SIZE_MAX;
    if (s[i] == '"') {
        for (i++; i < n; i++) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"' || s[i] == '\n')
                return s[i] == '"' ? i + 1 : SIZE_MAX;
        }
        return SIZE_MAX;
    }
    if (s[i] == '\'') { /* a TOML literal string: no escapes, one line */
        for (i++; i < n && s[i] != '\n'; i++)
            if (s[i] == '\'')
                return i + 1;
        return SIZE_MAX;
    }
    if (s[i] == '{' || s[i] == '[') {
        unsigned depth = 0;
        while (i < n) {
            i = skip_ws(s, n, i);
            if (i >= n)
                return SIZE_MAX;
            char c = s[i];
            if (c == '"' || c == '\'') {
                i = skip_value(s, n, i);
                if (i == SIZE_MAX)
                    return SIZE_MAX;
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if (c == '}' || c == ']') {
                if (depth == 0)
                    return SIZE_MAX;
                if (--depth == 0)
                    return i + 1;
            }
            i++;
        }
        return SIZE_MAX;
    }
    size_t st = i;
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\t' &&
           s[i] != '\n' && s[i] != '\r' &&
           !(s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*')))
        i++; /* a YAML plain scalar may hold '/' (a path); a comment may not start */
    return i > st ? i : SIZE_MAX;
}

/* A decoded JSON string token (NUL-terminated copy), or NULL. */
static char *decode_string(const char *tok, size_t len) {
    if (len >= 2 && tok[0] == '\'' && tok[len - 1] == '\'') { /* TOML literal */
        char *lit = malloc(len - 1);
        if (lit != NULL) {
            memcpy(lit, tok + 1, len - 2);
            lit[len - 2] = '\0';
        }
        return lit;
    }
    if (len < 2 || tok[0] != '"')
        return NULL;
    char *wrap = malloc(len + 2);
    mv_arena *a = mv_arena_new(NULL, 1024);
    char *out = NULL;
    if (wrap != NULL && a != NULL) {
        wrap[0] = '[';
        memcpy(wrap + 1, tok, len);
        wrap[len + 1] = ']';
        const mv_jv *v = NULL;
        mv_jerror je;
        if (mv_json_parse(&v, a, NULL, wrap, len + 2, &je) == MV_OK &&
            mv_jis_string(mv_jarray_get(v, 0))) {
            const mv_jv *s = mv_jarray_get(v, 0);
            if (memchr(mv_jstring(s), '\0', mv_jstring_len(s)) == NULL) {
                out = malloc(mv_jstring_len(s) + 1);
                if (out != NULL) {
                    memcpy(out, mv_jstring(s), mv_jstring_len(s));
                    out[mv_jstring_len(s)] = '\0';
                }
            }
        }
    }
    free(wrap);
    mv_arena_free(a);
    return out;
}

/* Where one server entry's pieces are in the text. */
typedef struct entry {
    size_t cmd_s, cmd_e;   /* the command value */
    size_t args_s, args_e; /* the args value, or args_s == SIZE_MAX */
    size_t args_key;       /* where the "args" key starts */
    bool toml;             /* a Codex TOML table (else JSON) */
    bool yaml;             /* a Continue YAML sequence item */
    size_t cmd_line_end;   /* TOML, YAML: the end of the command's line (its newline) */
    /* YAML: the indentation of the item's keys; args as a block sequence
     * (args_s then starts the first item's line, args_e ends the last's,
     * item_indent is the column of their "-"). */
    size_t key_indent, item_indent;
    bool block;
} entry;

/* Byte offset of a 1-based line and column (columns count code points,
 * like the config reader). SIZE_MAX when out of range. */
static size_t offset_of(const char *s, size_t n, uint32_t line, uint32_t col) {
    uint32_t l = 1, c = 1;
    for (size_t i = 0; i <= n; i++) {
        if (l == line && c == col)
            return i;
        if (i == n)
            break;
        unsigned char b = (unsigned char)s[i];
        if (b == '\n') {
            l++;
            c = 1;
        } else if ((b & 0xC0) != 0x80) {
            c++;
        }
    }
    return SIZE_MAX;
}

/* Find the entry whose key starts at `at`: its command and args. Returns
 * 0, or -1 (not the expected shape: the message says why). */
static int find_entry(const char *s, size_t n, size_t at, entry *e, const char **why) {
    size_t i = at;
    memset(e, 0, sizeof(*e));
    e->args_s = e->cmd_s = SIZE_MAX;
    if (i >= n || s[i] != '"') {
        *why = "the entry's position does not hold its name";
        return -1;
    }
    i = skip_value(s, n, i);
    if (i == SIZE_MAX)
        return *why = "unterminated name", -1;
    i = skip_ws(s, n, i);
    if (i >= n || s[i] != ':')
        return *why = "no ':' after the name", -1;
    i = skip_ws(s, n, i + 1);
    if (i >= n || s[i] != '{')
        return *why = "the entry is not an object", -1;
    i++;
    for (;;) {
        i = skip_ws(s, n, i);
        if (i >= n)
            return *why = "unterminated entry", -1;
        if (s[i] == '}')
            break;
        if (s[i] == ',') {
            i++;
            continue;
        }
        if (s[i] != '"')
            return *why = "unexpected text in the entry", -1;
        size_t ks = i, ke = skip_value(s, n, i);
        if (ke == SIZE_MAX)
            return *why = "unterminated key", -1;
        i = skip_ws(s, n, ke);
        if (i >= n || s[i] != ':')
            return *why = "no ':' after a key", -1;
        size_t vs = skip_ws(s, n, i + 1), ve = skip_value(s, n, vs);
        if (ve == SIZE_MAX)
            return *why = "a value of the entry cannot be read", -1;
        if (ke - ks == 9 && memcmp(s + ks, "\"command\"", 9) == 0) {
            e->cmd_s = vs;
            e->cmd_e = ve;
        } else if (ke - ks == 6 && memcmp(s + ks, "\"args\"", 6) == 0) {
            e->args_s = vs;
            e->args_e = ve;
            e->args_key = ks;
        }
        i = ve;
    }
    if (e->cmd_s == SIZE_MAX)
        return *why = "no \"command\" key as written (escaped key?)", -1;
    if (s[e->cmd_s] != '"')
        return *why = "\"command\" is not a string (an older form this install does not rewrite)",
               -1;
    if (e->args_s != SIZE_MAX && s[e->args_s] != '[')
        return *why = "\"args\" is not an array", -1;
    return 0;
}

/* ------------------------------------------------------------- TOML */

/* The parts of a TOML table header "[a.b]" starting at s[i] (after the
 * '['), decoded, at most `max`; *end after the ']'. 0 parts: not a plain
 * table header (an array of tables, garbage). */
static size_t toml_header(const char *s, size_t n, size_t i, char **parts, size_t max,
                          size_t *end) {
    size_t k = 0;
    for (;;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n || k == max)
            break;
        size_t st = i;
        if (s[i] == '"' || s[i] == '\'') {
            size_t e = skip_value(s, n, i);
            if (e == SIZE_MAX)
                break;
            parts[k] = decode_string(s + st, e - st);
            i = e;
        } else {
            while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                             (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
                i++;
            if (i == st)
                break;
            parts[k] = malloc(i - st + 1);
            if (parts[k] != NULL) {
                memcpy(parts[k], s + st, i - st);
                parts[k][i - st] = '\0';
            }
        }
        if (parts[k] == NULL)
            break;
        k++;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i < n && s[i] == '.') {
            i++;
            continue;
        }
        if (i < n && s[i] == ']') {
            *end = i + 1;
            return k;
        }
        break;
    }
    for (size_t j = 0; j < k; j++)
        free(parts[j]);
    return 0;
}

/* Whether the line at s[i] (after blanks) is key `key` followed by '=':
 * *vs is then where the value starts. Bare or quoted keys. */
static bool toml_key_is(const char *s, size_t n, size_t i, const char *key, size_t *vs) {
    size_t kl = strlen(key), e;
    if (i + kl <= n && memcmp(s + i, key, kl) == 0)
        e = i + kl;
    else if (i + kl + 2 <= n && (s[i] == '"' || s[i] == '\'') && s[i + kl + 1] == s[i] &&
             memcmp(s + i + 1, key, kl) == 0)
        e = i + kl + 2;
    else
        return false;
    while (e < n && (s[e] == ' ' || s[e] == '\t'))
        e++;
    if (e >= n || s[e] != '=')
        return false;
    e++;
    while (e < n && (s[e] == ' ' || s[e] == '\t'))
        e++;
    *vs = e;
    return true;
}

/* The Codex entry of server `name`: the table [mcp_servers.NAME] and its
 * command and args lines. 0, or -1 with *why. */
static int find_toml_entry(const char *s, size_t n, const char *name, entry *e, const char **why) {
    size_t i = 0, table = SIZE_MAX, table_end = n;
    memset(e, 0, sizeof(*e));
    e->toml = true;
    e->args_s = e->cmd_s = SIZE_MAX;
    /* Find the table, line by line. */
    while (i < n) {
        size_t ls = i;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i < n && s[i] == '[') {
            if (table != SIZE_MAX) {
                table_end = ls;
                break;
            }
            char *parts[3] = {NULL, NULL, NULL};
            size_t he = 0;
            size_t k = i + 1 < n && s[i + 1] != '[' ? toml_header(s, n, i + 1, parts, 3, &he) : 0;
            if (k == 2 && strcmp(parts[0], "mcp_servers") == 0 && strcmp(parts[1], name) == 0)
                table = he;
            for (size_t j = 0; j < k; j++)
                free(parts[j]);
        }
        const char *nl = memchr(s + i, '\n', n - i);
        i = nl != NULL ? (size_t)(nl - s) + 1 : n;
    }
    if (table == SIZE_MAX) {
        *why = "no [mcp_servers.NAME] table as written (an inline table or dotted keys "
               "are not rewritten)";
        return -1;
    }
    const char *nl = memchr(s + table, '\n', n - table);
    i = nl != NULL ? (size_t)(nl - s) + 1 : n;
    while (i < table_end) {
        size_t ks = i, vs;
        while (ks < table_end && (s[ks] == ' ' || s[ks] == '\t'))
            ks++;
        size_t next;
        if (toml_key_is(s, table_end, ks, "command", &vs)) {
            e->cmd_s = vs;
            e->cmd_e = skip_value(s, table_end, vs);
            if (e->cmd_e == SIZE_MAX)
                return *why = "the command value cannot be read", -1;
            const char *le = memchr(s + e->cmd_e, '\n', table_end - e->cmd_e);
            e->cmd_line_end = le != NULL ? (size_t)(le - s) : table_end;
            next = e->cmd_e;
        } else if (toml_key_is(s, table_end, ks, "args", &vs)) {
            e->args_key = ks;
            e->args_s = vs;
            e->args_e = skip_value(s, table_end, vs);
            if (e->args_e == SIZE_MAX)
                return *why = "the args value cannot be read", -1;
            next = e->args_e;
        } else {
            next = ks;
        }
        const char *ln = memchr(s + next, '\n', table_end - next);
        i = ln != NULL ? (size_t)(ln - s) + 1 : table_end;
    }
    if (e->cmd_s == SIZE_MAX)
        return *why = "no command = line in its table", -1;
    if (s[e->cmd_s] != '"' && s[e->cmd_s] != '\'')
        return *why = "the command is not a one-line string", -1;
    if (e->args_s != SIZE_MAX && s[e->args_s] != '[')
        return *why = "args is not an array", -1;
    if (e->cmd_line_end == table_end && (table_end == n || s[table_end] != '\n') &&
        e->args_s == SIZE_MAX && e->cmd_line_end < n && s[e->cmd_line_end] != '\n') {
        /* the command line runs into the next table: cannot happen in TOML */
        return *why = "unexpected layout", -1;
    }
    return 0;
}

/* ------------------------------------------------------------- YAML */

static size_t array_items(const char *s, size_t as, size_t ae, size_t *st, size_t *en, size_t max);
static bool token_is(const char *s, size_t st, size_t en, const char *lit);

static size_t line_end(const char *s, size_t n, size_t i) {
    const char *nl = memchr(s + i, '\n', n - i);
    return nl != NULL ? (size_t)(nl - s) : n;
}

/* The end of the scalar starting at s[i] on its line: a quoted one as
 * skip_value reads it, a plain one up to " #" or the line's end, trailing
 * blanks excluded. SIZE_MAX when there is none. */
static size_t yaml_scalar_end(const char *s, size_t n, size_t i) {
    size_t le = line_end(s, n, i);
    if (i >= le)
        return SIZE_MAX;
    if (s[i] == '"' || s[i] == '\'') {
        size_t e = skip_value(s, le, i);
        return e;
    }
    size_t e = i;
    while (e < le && !(s[e] == '#' && e > i && (s[e - 1] == ' ' || s[e - 1] == '\t')))
        e++;
    while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
        e--;
    return e > i ? e : SIZE_MAX;
}

/* A scalar's text as a value (quoted ones decoded; plain as written). */
static char *yaml_scalar(const char *s, size_t st, size_t en) {
    if (s[st] == '"' || s[st] == '\'')
        return decode_string(s + st, en - st);
    char *d = malloc(en - st + 1);
    if (d != NULL) {
        memcpy(d, s + st, en - st);
        d[en - st] = '\0';
    }
    return d;
}

/* Whether s[i..] is `key:` followed by a blank or the line's end; *vs is
 * the value's start (after blanks) then. */
static bool yaml_key_is(const char *s, size_t n, size_t i, const char *key, size_t *vs) {
    size_t kl = strlen(key);
    if (i + kl + 1 > n || memcmp(s + i, key, kl) != 0 || s[i + kl] != ':')
        return false;
    size_t e = i + kl + 1;
    if (e < n && s[e] != ' ' && s[e] != '\t' && s[e] != '\n' && s[e] != '\r')
        return false;
    while (e < n && (s[e] == ' ' || s[e] == '\t'))
        e++;
    *vs = e;
    return true;
}

/* A plain scalar that a flow sequence cannot hold as written. */
static bool flow_unsafe(const char *s, size_t st, size_t en) {
    if (s[st] == '"' || s[st] == '\'')
        return false;
    for (size_t i = st; i < en; i++)
        if (s[i] == ',' || s[i] == '[' || s[i] == ']' || s[i] == '{' || s[i] == '}')
            return true;
    return false;
}

/* The Continue entry of server `name`: a sequence item "- name: NAME" and
 * its command and args keys. 0, or -1 with *why. */
static int find_yaml_entry(const char *s, size_t n, const char *name, entry *e, const char **why) {
    size_t i = 0, item = SIZE_MAX;
    memset(e, 0, sizeof(*e));
    e->yaml = true;
    e->args_s = e->cmd_s = SIZE_MAX;
    while (i < n && item == SIZE_MAX) {
        size_t ls = i, le = line_end(s, n, i), k = i, vs;
        while (k < le && s[k] == ' ')
            k++;
        if (k + 1 < le && s[k] == '-' && s[k + 1] == ' ') {
            size_t ki = k + 1;
            while (ki < le && s[ki] == ' ')
                ki++;
            size_t ve;
            char *v = NULL;
            if (yaml_key_is(s, le, ki, "name", &vs) &&
                (ve = yaml_scalar_end(s, n, vs)) != SIZE_MAX &&
                (v = yaml_scalar(s, vs, ve)) != NULL && strcmp(v, name) == 0) {
                item = le;
                e->key_indent = ki - ls;
            }
            free(v);
        }
        i = le < n ? le + 1 : n;
    }
    if (item == SIZE_MAX)
        return *why = "no \"- name: NAME\" item as written", -1;
    /* The item's other keys: lines indented like its first key. */
    i = item < n ? item + 1 : n;
    while (i < n) {
        size_t ls = i, le = line_end(s, n, i), k = i;
        while (k < le && s[k] == ' ')
            k++;
        size_t ind = k - ls;
        if (k >= le || s[k] == '#') { /* blank or comment */
            i = le < n ? le + 1 : n;
            continue;
        }
        if (ind < e->key_indent)
            break;
        size_t vs;
        if (ind == e->key_indent && yaml_key_is(s, le, k, "command", &vs)) {
            e->cmd_s = vs;
            e->cmd_e = yaml_scalar_end(s, n, vs);
            if (e->cmd_e == SIZE_MAX || (s[vs] != '"' && s[vs] != '\'' &&
                                         (s[vs] == '[' || s[vs] == '{' || s[vs] == '|' ||
                                          s[vs] == '>' || s[vs] == '&' || s[vs] == '*')))
                return *why = "the command is not a one-line scalar", -1;
            e->cmd_line_end = le;
        } else if (ind == e->key_indent && yaml_key_is(s, le, k, "args", &vs)) {
            e->args_key = k;
            if (vs < le && s[vs] == '[') {
                e->args_s = vs;
                e->args_e = skip_value(s, n, vs);
                if (e->args_e == SIZE_MAX)
                    return *why = "the args value cannot be read", -1;
                le = line_end(s, n, e->args_e);
            } else if (vs < le && s[vs] != '#') {
                return *why = "args is neither a flow nor a block sequence", -1;
            } else {
                /* A block sequence: "- " lines at the key's indentation or
                 * deeper (deeper lines without "- " continue an item). */
                size_t j = le < n ? le + 1 : n;
                e->block = true;
                while (j < n) {
                    size_t jl = line_end(s, n, j), q = j;
                    while (q < jl && s[q] == ' ')
                        q++;
                    if (q >= jl || s[q] == '#') {
                        j = jl < n ? jl + 1 : n;
                        continue;
                    }
                    bool dash = q + 1 <= jl && s[q] == '-' && (q + 1 == jl || s[q + 1] == ' ');
                    if (q - j < e->key_indent || (q - j == e->key_indent && !dash))
                        break;
                    if (dash && e->args_s == SIZE_MAX) {
                        e->args_s = j;
                        e->item_indent = q - j;
                    }
                    if (e->args_s == SIZE_MAX)
                        return *why = "unexpected text in args", -1;
                    e->args_e = jl < n ? jl + 1 : n;
                    j = jl < n ? jl + 1 : n;
                }
                if (e->args_s == SIZE_MAX)
                    return *why = "args has no items", -1;
                le = e->args_e > 0 ? e->args_e - 1 : 0;
            }
        }
        i = le < n ? le + 1 : n;
    }
    if (e->cmd_s == SIZE_MAX)
        return *why = "no command key in the item", -1;
    return 0;
}

/* The block items of an entry: [start, end) of each "- " item's text
 * (without the "- "), at most `max`. */
static size_t yaml_block_items(const char *s, const entry *e, size_t *st, size_t *en, size_t *ls,
                               size_t max) {
    size_t k = 0, j = e->args_s;
    while (j < e->args_e && k < max) {
        size_t jl = line_end(s, e->args_e, j), q = j;
        while (q < jl && s[q] == ' ')
            q++;
        if (q - j == e->item_indent && q < jl && s[q] == '-') {
            size_t v = q + 1;
            while (v < jl && s[v] == ' ')
                v++;
            size_t ve = yaml_scalar_end(s, jl, v);
            ls[k] = j;
            st[k] = v;
            en[k] = ve == SIZE_MAX ? v : ve;
            k++;
        }
        j = jl + 1;
    }
    return k;
}

static bool yaml_is_wrapped(const char *s, const entry *e) {
    if (e->args_s == SIZE_MAX)
        return false;
    char *cmd = yaml_scalar(s, e->cmd_s, e->cmd_e);
    bool r = false;
    if (cmd != NULL) {
        const char *b = strrchr(cmd, '/');
        b = b != NULL ? b + 1 : cmd;
        size_t st[1], en[1], ls[1];
        if (strcmp(b, "mcpvet") == 0) {
            if (e->block) {
                char *first = NULL;
                r = yaml_block_items(s, e, st, en, ls, 1) == 1 &&
                    (first = yaml_scalar(s, st[0], en[0])) != NULL && strcmp(first, "proxy") == 0;
                free(first);
            } else {
                r = array_items(s, e->args_s, e->args_e, st, en, 1) == 1 &&
                    token_is(s, st[0], en[0], "proxy");
            }
        }
    }
    free(cmd);
    return r;
}

/* The elements of the array at [s, e): token spans, at most `max`. */
static size_t array_items(const char *s, size_t as, size_t ae, size_t *st, size_t *en, size_t max) {
    size_t k = 0, i = as + 1;
    while (k < max) {
        i = skip_ws(s, ae, i);
        if (i >= ae - 1)
            break;
        if (s[i] == ',') {
            i++;
            continue;
        }
        size_t v = skip_value(s, ae - 1, i);
        if (v == SIZE_MAX)
            break;
        st[k] = i;
        en[k] = v;
        k++;
        i = v;
    }
    return k;
}

static bool token_is(const char *s, size_t st, size_t en, const char *lit) {
    char *d = decode_string(s + st, en - st);
    bool r = d != NULL && strcmp(d, lit) == 0;
    free(d);
    return r;
}

/* Whether the entry already runs the proxy: the command's base name is
 * mcpvet and the first argument "proxy". */
static bool is_wrapped(const char *s, const entry *e) {
    if (e->args_s == SIZE_MAX)
        return false;
    char *cmd = decode_string(s + e->cmd_s, e->cmd_e - e->cmd_s);
    bool r = false;
    if (cmd != NULL) {
        const char *b = strrchr(cmd, '/');
        b = b != NULL ? b + 1 : cmd;
        size_t st[1], en[1];
        r = strcmp(b, "mcpvet") == 0 && array_items(s, e->args_s, e->args_e, st, en, 1) == 1 &&
            token_is(s, st[0], en[0], "proxy");
    }
    free(cmd);
    return r;
}

/* One replacement of [start, end) by text. */
typedef struct edit {
    size_t start, end;
    mv_buf text;
} edit;

typedef struct edits {
    edit *v;
    size_t n, cap;
} edits;

static mv_buf *add_edit(edits *E, size_t start, size_t end) {
    if (E->n == E->cap) {
        size_t cap = E->cap ? 2 * E->cap : 8;
        edit *g = realloc(E->v, cap * sizeof(*g));
        if (g == NULL)
            return NULL;
        E->v = g;
        E->cap = cap;
    }
    edit *x = &E->v[E->n++];
    x->start = start;
    x->end = end;
    mv_buf_init(&x->text, NULL);
    return &x->text;
}

static void edits_free(edits *E) {
    for (size_t i = 0; i < E->n; i++)
        mv_buf_release(&E->v[i].text);
    free(E->v);
    memset(E, 0, sizeof(*E));
}

static int cmp_edit(const void *a, const void *b) {
    const edit *x = a, *y = b;
    return x->start < y->start ? -1 : (x->start > y->start ? 1 : 0);
}

/* Apply non-overlapping edits to s into out. */
static void apply_edits(mv_buf *out, const char *s, size_t n, edits *E) {
    qsort(E->v, E->n, sizeof(*E->v), cmp_edit);
    size_t at = 0;
    for (size_t i = 0; i < E->n; i++) {
        mv_buf_append(out, s + at, E->v[i].start - at);
        mv_buf_append(out, E->v[i].text.data, E->v[i].text.len);
        at = E->v[i].end;
    }
    mv_buf_append(out, s + at, n - at);
}

/* ------------------------------------------------------------- files */

static int read_all(const char *path, mv_buf *out, mode_t *mode) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_FILE) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if (mode != NULL)
        *mode = st.st_mode & 07777;
    char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            close(fd);
            return r < 0 || out->failed ? -1 : 0;
        }
        mv_buf_append(out, buf, (size_t)r);
    }
}

/* Write atomically: PATH.mcpvet-tmp, fsync, rename. */
static int write_all(const char *path, const char *data, size_t len, mode_t mode) {
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    int rc = -1;
    if (tmp == NULL)
        return -1;
    snprintf(tmp, pl + 16, "%s.mcpvet-tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode & 0666);
    if (fd >= 0) {
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(fd, data + off, len - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        if (off == len && fchmod(fd, mode) == 0 && fsync(fd) == 0 && close(fd) == 0) {
            fd = -1;
            rc = rename(tmp, path);
        }
        if (fd >= 0)
            close(fd);
        if (rc != 0)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

/* ------------------------------------------------------------ rewrite */

static void put_str(mv_buf *b, const char *s) {
    mv_buf_json_string(b, s, strlen(s));
}

/* Wrap one entry. */
static int wrap_entry(edits *E, const char *s, const entry *e, const char *name,
                      const mv_proxy_install_options *o, const char *self) {
    mv_buf *c = add_edit(E, e->cmd_s, e->cmd_e);
    if (c == NULL)
        return MV_ENOMEM;
    put_str(c, self);
    mv_buf a;
    mv_buf_init(&a, NULL);
    /* An "args" that install adds is written without blanks after its
     * commas, one that replaces the entry's own with them: that is how
     * uninstall knows whether to take the member out again. */
    const char *sep = e->args_s == SIZE_MAX ? "," : ", ";
    mv_buf_printf(&a, "[\"proxy\"%s\"--name\"%s", sep, sep);
    put_str(&a, name);
    const char *opt[3] = {"--policy", "--results", "--store"};
    const char *val[3] = {o->policy, o->results, o->store};
    for (int k = 0; k < 3; k++)
        if (val[k] != NULL) {
            mv_buf_printf(&a, "%s\"%s\"%s", sep, opt[k], sep);
            put_str(&a, val[k]);
        }
    mv_buf_printf(&a, "%s\"--\"%s", sep, sep);
    mv_buf_append(&a, s + e->cmd_s, e->cmd_e - e->cmd_s);
    if (e->args_s != SIZE_MAX) {
        size_t in_s = e->args_s + 1, in_e = e->args_e - 1;
        if (skip_ws(s, in_e, in_s) < in_e) { /* something besides blanks and comments */
            mv_buf_putc(&a, ',');
            mv_buf_append(&a, s + in_s, in_e - in_s);
        } else {
            mv_buf_append(&a, s + in_s, in_e - in_s);
        }
        mv_buf_putc(&a, ']');
        mv_buf *t = add_edit(E, e->args_s, e->args_e);
        if (t == NULL) {
            mv_buf_release(&a);
            return MV_ENOMEM;
        }
        mv_buf_append(t, a.data, a.len);
    } else if (e->toml || e->yaml) {
        /* A line of its own after the command's line. */
        mv_buf_putc(&a, ']');
        mv_buf *t = add_edit(E, e->cmd_line_end, e->cmd_line_end);
        if (t == NULL) {
            mv_buf_release(&a);
            return MV_ENOMEM;
        }
        if (e->toml) {
            mv_buf_puts(t, "\nargs = ");
        } else {
            mv_buf_putc(t, '\n');
            for (size_t k = 0; k < e->key_indent; k++)
                mv_buf_putc(t, ' ');
            mv_buf_puts(t, "args: ");
        }
        mv_buf_append(t, a.data, a.len);
    } else {
        mv_buf_putc(&a, ']');
        mv_buf *t = add_edit(E, e->cmd_e, e->cmd_e);
        if (t == NULL) {
            mv_buf_release(&a);
            return MV_ENOMEM;
        }
        mv_buf_puts(t, ", \"args\": ");
        mv_buf_append(t, a.data, a.len);
    }
    int rc = a.failed ? MV_ENOMEM : MV_OK;
    mv_buf_release(&a);
    return rc;
}

/* Unwrap one entry made by wrap_entry. 0, MV_ENOMEM, or 1 when the
 * arguments do not hold "--" and a command after it. */
static int unwrap_entry(edits *E, const char *s, const entry *e) {
    size_t st[512], en[512];
    size_t k = array_items(s, e->args_s, e->args_e, st, en, 512);
    size_t dd = SIZE_MAX;
    for (size_t i = 1; i < k && dd == SIZE_MAX; i++)
        if (token_is(s, st[i], en[i], "--"))
            dd = i;
    if (dd == SIZE_MAX || dd + 1 >= k ||
        (s[st[dd + 1]] != '"' && !(e->toml && s[st[dd + 1]] == '\'') && !e->yaml))
        return 1;
    size_t cs = st[dd + 1], ce = en[dd + 1];
    size_t close_br = e->args_e - 1;
    size_t after = skip_ws(s, close_br, ce);
    mv_buf *c = add_edit(E, e->cmd_s, e->cmd_e);
    if (c == NULL)
        return MV_ENOMEM;
    mv_buf_append(c, s + cs, ce - cs);
    if (e->yaml) {
        /* install added an "args: [...]" line right after the command's */
        size_t le = e->cmd_line_end, k2 = le + 1;
        while (k2 < e->args_key && s[k2] == ' ')
            k2++;
        static const char yl[] = "args: [\"proxy\",\"";
        if (after >= close_br && s[le] == '\n' && k2 == e->args_key &&
            k2 - le - 1 == e->key_indent && e->args_key + sizeof yl - 1 <= e->args_e &&
            memcmp(s + e->args_key, yl, sizeof yl - 1) == 0) {
            if (add_edit(E, le, e->args_e) == NULL)
                return MV_ENOMEM;
            return MV_OK;
        }
    }
    if (e->toml) {
        /* install added an "args = [...]" line right after the command's */
        static const char line[] = "\nargs = [\"proxy\",\"";
        size_t le = e->cmd_line_end;
        if (after >= close_br && e->args_key == le + 1 && le + sizeof line - 1 <= e->args_e &&
            memcmp(s + le, line, sizeof line - 1) == 0) {
            if (add_edit(E, le, e->args_e) == NULL)
                return MV_ENOMEM;
            return MV_OK;
        }
    }
    static const char added[] = ", \"args\": ";
    bool inserted = after >= close_br && e->args_key == e->cmd_e + 2 &&
                    e->args_s == e->cmd_e + sizeof added - 1 &&
                    memcmp(s + e->cmd_e, added, sizeof added - 1) == 0 &&
                    e->args_e - e->args_s > 10 && memcmp(s + e->args_s, "[\"proxy\",\"", 10) == 0;
    if (inserted) {
        /* install added "args" after "command": take it out again */
        mv_buf *t = add_edit(E, e->cmd_e, e->args_e);
        if (t == NULL)
            return MV_ENOMEM;
        return MV_OK;
    }
    mv_buf *t = add_edit(E, e->args_s, e->args_e);
    if (t == NULL)
        return MV_ENOMEM;
    mv_buf_putc(t, '[');
    if (after < close_br && s[after] == ',')
        mv_buf_append(t, s + after + 1, close_br - after - 1);
    else
        mv_buf_append(t, s + ce, close_br - ce); /* blanks or comments only */
    mv_buf_putc(t, ']');
    return MV_OK;
}

/* YAML args as a block sequence: the proxy's items go in front of the
 * entry's own, one line each, at the items' indentation. */
static int yaml_wrap_block(edits *E, const char *s, const entry *e, const char *name,
                           const mv_proxy_install_options *o, const char *self) {
    mv_buf *c = add_edit(E, e->cmd_s, e->cmd_e);
    if (c == NULL)
        return MV_ENOMEM;
    put_str(c, self);
    mv_buf *t = add_edit(E, e->args_s, e->args_s);
    if (t == NULL)
        return MV_ENOMEM;
    const char *items[10];
    size_t n = 0;
    items[n++] = "proxy";
    items[n++] = "--name";
    items[n++] = name;
    const char *opt[3] = {"--policy", "--results", "--store"};
    const char *val[3] = {o->policy, o->results, o->store};
    for (int k = 0; k < 3; k++)
        if (val[k] != NULL) {
            items[n++] = opt[k];
            items[n++] = val[k];
        }
    items[n++] = "--";
    for (size_t i = 0; i <= n; i++) {
        for (size_t k = 0; k < e->item_indent; k++)
            mv_buf_putc(t, ' ');
        mv_buf_puts(t, "- ");
        if (i < n)
            put_str(t, items[i]);
        else
            mv_buf_append(t, s + e->cmd_s, e->cmd_e - e->cmd_s); /* the command as written */
        mv_buf_putc(t, '\n');
    }
    return t->failed ? MV_ENOMEM : MV_OK;
}

static int yaml_unwrap_block(edits *E, const char *s, size_t n, const entry *e) {
    size_t st[512], en[512], ls[512];
    size_t k = yaml_block_items(s, e, st, en, ls, 512), dd = SIZE_MAX;
    for (size_t i = 1; i < k && dd == SIZE_MAX; i++) {
        char *v = yaml_scalar(s, st[i], en[i]);
        if (v != NULL && strcmp(v, "--") == 0)
            dd = i;
        free(v);
    }
    if (dd == SIZE_MAX || dd + 1 >= k)
        return 1;
    mv_buf *c = add_edit(E, e->cmd_s, e->cmd_e);
    if (c == NULL)
        return MV_ENOMEM;
    mv_buf_append(c, s + st[dd + 1], en[dd + 1] - st[dd + 1]);
    size_t end = line_end(s, n, ls[dd + 1]);
    if (add_edit(E, ls[0], end < n ? end + 1 : n) == NULL)
        return MV_ENOMEM;
    return MV_OK;
}

static bool is_format(const char *path, const char *ext) {
    size_t n = strlen(path), e = strlen(ext);
    return n >= e && strcmp(path + n - e, ext) == 0;
}

static void self_path(char *out, size_t size) {
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) {
        snprintf(out, size, "mcpvet");
        return;
    }
    out[n] = '\0';
}

/* Handle one file. *changed counts entries changed; returns 0, 1 (refused
 * or unreadable: printed) or MV_ENOMEM. */
static int do_file(const mv_proxy_install_options *o, const char *path, const char *client,
                   const char *self, FILE *out, size_t *changed) {
    mv_config_set *set = NULL;
    mv_error err;
    mv_buf text, res, backup;
    edits E;
    mode_t mode = 0600;
    int rc = 0;
    size_t n_entries = 0;
    char bpath[4096];
    memset(&E, 0, sizeof(E));
    mv_buf_init(&text, NULL);
    mv_buf_init(&res, NULL);
    mv_buf_init(&backup, NULL);
    snprintf(bpath, sizeof bpath, "%s%s", path, BACKUP_SUFFIX);

    bool toml = is_format(path, ".toml") || (client != NULL && strcmp(client, "codex") == 0);
    bool yaml = is_format(path, ".yaml") || is_format(path, ".yml");
    mv_error_clear(&err);
    if (mv_config_load_file(&set, path, client, o->env, &err) != MV_OK) {
        fprintf(out, "%s: not changed: %s\n", path, err.message);
        rc = 1;
        goto done;
    }
    if (read_all(path, &text, &mode) != 0) {
        fprintf(out, "%s: not changed: cannot read it: %s\n", path, strerror(errno));
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < set->n_servers; i++) {
        const mv_server_config *sv = &set->servers[i];
        if (sv->transport != MV_TRANSPORT_STDIO || sv->readiness == MV_SERVER_INVALID)
            continue;
        entry e;
        const char *why = NULL;
        size_t at = toml || yaml ? 0 : offset_of(text.data, text.len, sv->line, sv->column);
        int found = toml             ? find_toml_entry(text.data, text.len, sv->name, &e, &why)
                    : yaml           ? find_yaml_entry(text.data, text.len, sv->name, &e, &why)
                    : at == SIZE_MAX ? -1
                                     : find_entry(text.data, text.len, at, &e, &why);
        if (found != 0) {
            fprintf(out, "%s: server %s left alone: %s\n", path, sv->name,
                    why != NULL ? why : "its entry was not found");
            continue;
        }
        bool wrapped = yaml ? yaml_is_wrapped(text.data, &e) : is_wrapped(text.data, &e);
        if (!o->uninstall && !wrapped) {
            if (yaml && !e.block && flow_unsafe(text.data, e.cmd_s, e.cmd_e)) {
                fprintf(out,
                        "%s: server %s left alone: its command cannot go in a flow list as "
                        "written (quote it)\n",
                        path, sv->name);
                continue;
            }
            rc = yaml && e.block ? yaml_wrap_block(&E, text.data, &e, sv->name, o, self)
                                 : wrap_entry(&E, text.data, &e, sv->name, o, self);
            if (rc != MV_OK)
                goto done;
            n_entries++;
            fprintf(out, "%s: %s %s\n", path, o->dry_run ? "would wrap" : "wrapped", sv->name);
        } else if (o->uninstall && wrapped) {
            int u = yaml && e.block ? yaml_unwrap_block(&E, text.data, text.len, &e)
                                    : unwrap_entry(&E, text.data, &e);
            if (u == MV_ENOMEM) {
                rc = u;
                goto done;
            }
            if (u != 0) {
                fprintf(out,
                        "%s: server %s left alone: its proxy arguments have no \"--\" "
                        "followed by the command\n",
                        path, sv->name);
                continue;
            }
            n_entries++;
            fprintf(out, "%s: %s %s\n", path, o->dry_run ? "would unwrap" : "unwrapped", sv->name);
        }
    }
    if (n_entries == 0) {
        fprintf(out, "%s: nothing to %s\n", path, o->uninstall ? "unwrap" : "wrap");
        goto done;
    }
    apply_edits(&res, text.data, text.len, &E);
    if (res.failed) {
        rc = MV_ENOMEM;
        goto done;
    }
    *changed += n_entries;
    if (o->dry_run)
        goto done;
    bool have_backup = read_all(bpath, &backup, NULL) == 0;
    if (!o->uninstall) {
        if (!have_backup && write_all(bpath, text.data, text.len, mode) != 0) {
            fprintf(out, "%s: not changed: cannot write the backup %s: %s\n", path, bpath,
                    strerror(errno));
            rc = 1;
            goto done;
        }
        if (write_all(path, res.data, res.len, mode) != 0) {
            fprintf(out, "%s: cannot write it: %s\n", path, strerror(errno));
            rc = 1;
            goto done;
        }
        fprintf(out, "%s: %s %s\n", path, have_backup ? "backup kept in" : "backup written to",
                bpath);
    } else {
        if (write_all(path, res.data, res.len, mode) != 0) {
            fprintf(out, "%s: cannot write it: %s\n", path, strerror(errno));
            rc = 1;
            goto done;
        }
        if (have_backup && backup.len == res.len &&
            (res.len == 0 || memcmp(backup.data, res.data, res.len) == 0)) {
            unlink(bpath);
            fprintf(out, "%s: restored exactly as before install (backup removed)\n", path);
        } else if (have_backup) {
            fprintf(out,
                    "%s: the file was edited since install: entries unwrapped in place; the "
                    "backup %s is kept for comparison\n",
                    path, bpath);
        }
    }
done:
    edits_free(&E);
    mv_buf_release(&text);
    mv_buf_release(&res);
    mv_buf_release(&backup);
    mv_config_set_free(set);
    return rc;
}

int mv_proxy_install(const mv_proxy_install_options *o, size_t *n_changed, mv_error *err) {
    char self[4096];
    size_t changed = 0;
    int rc = MV_OK;
    bool refused = false;
    mv_config_set *set = NULL;
    FILE *out = o->out != NULL ? o->out : stdout;
    if (o->self != NULL)
        snprintf(self, sizeof self, "%s", o->self);
    else
        self_path(self, sizeof self);
    if (o->n_paths > 0) {
        for (size_t i = 0; i < o->n_paths; i++) {
            int r = do_file(o, o->paths[i], o->client, self, out, &changed);
            if (r == MV_ENOMEM) {
                rc = mv_error_set(err, MV_ENOMEM, "out of memory");
                goto done;
            }
            refused = refused || r != 0;
        }
    } else {
        if (mv_config_discover(&set, o->env, err) != MV_OK) {
            rc = err != NULL && err->code != 0 ? err->code : MV_ENOMEM;
            goto done;
        }
        size_t seen = 0;
        for (size_t i = 0; i < set->n_files; i++) {
            const mv_config_file *f = &set->files[i];
            bool dup = false;
            for (size_t k = 0; k < i && !dup; k++)
                dup = strcmp(set->files[k].path, f->path) == 0;
            if (dup || (o->client != NULL && strcmp(o->client, f->client) != 0))
                continue;
            seen++;
            if (f->status != MV_OK) {
                fprintf(out, "%s: not changed: %s\n", f->path,
                        f->error != NULL ? f->error : "it cannot be read");
                refused = true;
                continue;
            }
            int r = do_file(o, f->path, f->client, self, out, &changed);
            if (r == MV_ENOMEM) {
                rc = mv_error_set(err, MV_ENOMEM, "out of memory");
                goto done;
            }
            refused = refused || r != 0;
        }
        if (seen == 0)
            fprintf(out, "no MCP client configuration found%s%s\n",
                    o->client != NULL ? " for " : "", o->client != NULL ? o->client : "");
    }
    if (refused)
        rc = mv_error_set(err, MV_EUNSUPPORTED, "some config files were not changed");
done:
    if (n_changed != NULL)
        *n_changed = changed;
    mv_config_set_free(set);
    return rc;
}
