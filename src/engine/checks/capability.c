/*
 * capability.mismatch (soft): a tool that says it does one small thing but
 * whose text reaches for something it has no business with.
 *
 * Three detectors share one pass over the tool:
 *
 *  1. Declared versus implied capability. The tool's name (split into
 *     words) says what it is for: arithmetic, text formatting, dates,
 *     weather... (capability_declared.rules); when the name names no known
 *     job, the lead sentence of the description does. Every other field
 *     is searched for sensitive resources: SSH and cloud credential files,
 *     /etc/shadow, shell history, .env files, keychains, browser stores,
 *     private keys, shell execution, uploads to an outside host
 *     (capability_resources.rules). A resource that no
 *     declared class explains raises the tool. Denials ("never reads
 *     ~/.ssh", "without network calls") and example positions ("e.g.",
 *     detection lists, labels; see position.h) do not count.
 *
 *  2. Unexplained data-sink parameters. A free-form string parameter named
 *     like a side channel (sidenote, conversation_history, debug_info,
 *     notes...; capability_sinks.rules) that neither its own description
 *     nor the tool description explains. Requiredness, the strength of the
 *     name and a narrow declaration raise the weight; tools that record or
 *     send free text by nature lower it. An object parameter without
 *     declared properties is a bag as free as a string.
 *
 *  3. Parameters that carry a capability. A parameter named like a
 *     credential (github_token, apiKey, password), a shell command (cmd,
 *     shell, pre_command), the environment (env_vars) or a database
 *     connection string, or defaulting to the file-system root, is a
 *     reference to that resource class, counted only for a tool whose job
 *     is narrow; a tool that says it talks to a service explains a
 *     credential (capability_sinks.rules, "reach" lines).
 *
 * Everything is matched in one Aho-Corasick pass per field over the
 * normalized view: the normalizer leaves paths and code fragments as they
 * are apart from case and NFKC, and folding zero-width characters,
 * fullwidth forms and look-alike letters out of "id_rsa" or "~/.ssh" is
 * exactly what a matcher on raw text would miss. Where stemming conflates
 * words that matter ("conversation" and "conversion" share a stem) a rule
 * asks for the raw text to be checked too. Evidence offsets are raw.
 * All lists are compiled once in init; inspect() only reads them.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <utf8proc.h>

#include "mcpvet/ac.h"
#include "mcpvet/check.h"
#include "../position.h"
#include "../precomp.h"
#include "../rules_data.h"
#include "../sensitive.h"
#include "capability_saved.h"
#include "value_orders.h"

/* ------------------------------------------------------------ limits */

#define CAP_MAX_CLASSES 64      /* declared classes (bit mask width) */
#define CAP_MAX_RES 32          /* resource classes (bit mask width) */
#define CAP_MATCHES_INIT 256    /* term matches kept per field, grown on demand... */
#define CAP_MAX_MATCHES 65536   /* ...up to this many (a 256 KiB field of cue words) */
#define CAP_MAX_DECL 64         /* declaration matches kept */
#define CAP_NAME_MAX 160        /* bytes of a tool or parameter name used */
#define CAP_LEAD_MAX 240        /* bytes of the lead sentence used */
#define CAP_SENT_SCAN 600       /* bytes scanned either way for a sentence end */
#define CAP_NEG_WORDS 8         /* words between a denial cue and a mention */
#define CAP_CANON_MAX 48        /* canonical sink name length */
#define CAP_TOKEN_GROW 160      /* bytes a path evidence may grow either way */
#define CAP_MIN_EXPLAIN 2       /* content words that explain a parameter */
#define CAP_PARAM_DESC_MAX 2048 /* prefix of a parameter description read for them */

/* A word list and its length, for in_list and any_ci. */
#define GRANT_LIST(a) (a), (sizeof(a) / sizeof((a)[0]))

/* Thresholds and weights of the two detectors. */
#define CAP_EMIT 0.50          /* detector 1: emit at or above */
#define CAP_F_NAME_NARROW 1.0  /* the name declares a narrow job */
#define CAP_F_LEAD_NARROW 0.85 /* only the lead sentence does */
#define CAP_F_UNFIT 0.60       /* a sensitive class that does not explain it */
#define CAP_F_UNKNOWN 0.55     /* nothing declared: one resource alone stays quiet */
#define CAP_F_UNKNOWN_ASK 0.70 /* nothing declared, a parameter asks for the resource */
#define CAP_NO_VERB 0.60       /* a weak resource in prose without an access verb */
#define CAP_F_PROPERTY 0.80    /* a mention inside a property name */
#define CAP_MAX_CONF 0.90
#define CAP_F_SILENT 0.65 /* detector 5: a silent ask */
#define CAP_LEAK_MIN 0.30 /* a parameter description mention that leaks */

#define SINK_EMIT 0.55
#define SINK_STRONG 0.45
#define SINK_MEDIUM 0.30
#define SINK_WEAK 0.10
#define SINK_REQUIRED 0.15
#define SINK_NAME_NARROW 0.25
#define SINK_LEAD_NARROW 0.20
#define SINK_SENSITIVE (-0.10)
#define SINK_FREETEXT (-0.30)
#define SINK_LEAK 0.30
#define SINK_MAX_CONF 0.85

/* ------------------------------------------------------------ rule data */

enum { K_NARROW = 0, K_NETNARROW, K_FREETEXT, K_SENSITIVE };
enum { S_WEAK = 1, S_MEDIUM = 2, S_STRONG = 3 };

/* What a term of capability_resources.rules is. */
enum { T_RES = 1, T_TARGET, T_NEG, T_NEG_AFTER, T_VERB };
#define B_LEFT 1u
#define B_RIGHT 2u

/* One term of the resource automaton (its id indexes this table). */
typedef struct cap_term {
    uint8_t kind;
    uint8_t bounds;
    uint8_t res;
    bool path;     /* a path or code fragment: evidence grows to the whole token */
    mv_str verify; /* non-empty: the raw text must read like this */
} cap_term;

typedef struct cap_class {
    mv_str id;
    mv_str label;
    int kind;
    uint32_t justifies; /* resource bit mask */
} cap_class;

typedef struct cap_res {
    mv_str id;
    mv_str label;
    double weight;
    mv_threat threat;
    bool needs_target; /* an upload counts only with an outside target */
    bool needs_verb;   /* in prose, counts fully only next to an access verb */
    bool scope; /* a scope ("the whole home directory"): "scans" is its use, not a detection list */
    bool unknown_job; /* a parameter asking for it counts on a tool that declares no known job */
} cap_res;

typedef struct cap_sink {
    char canon[CAP_CANON_MAX];
    size_t len;
    int strength;
} cap_sink;

/* A parameter name (canonical) that is, or ends with, a capability. */
enum { R_WHOLE = 0, R_SUFFIX, R_WORD, R_CONTAINS, R_DEFAULT };
typedef struct cap_reach {
    char canon[CAP_CANON_MAX]; /* R_CONTAINS: the raw text, ASCII lower-cased */
    size_t len;
    uint8_t res;
    uint8_t how;
} cap_reach;

typedef struct cap_state {
    mv_arena *arena; /* every table below */
    cap_class classes[CAP_MAX_CLASSES];
    size_t n_classes;
    cap_res res[CAP_MAX_RES];
    size_t n_res;
    uint64_t narrow_mask; /* narrow + netnarrow */
    uint64_t freetext_mask;
    uint64_t sensitive_mask;
    mv_ac *decl;     /* declaration phrases -> class */
    mv_ac *terms;    /* resource, target and denial terms -> index into `term` */
    mv_ac *services; /* service words (id 0) and database words (id 1), detector 3 only */
    cap_term *term;
    size_t n_terms;
    cap_sink *sinks;
    size_t n_sinks;
    cap_sink *mods;
    size_t n_mods;
    mv_str *vague; /* normalized, sorted */
    size_t n_vague;
    cap_reach *reach; /* detector 3: parameter names that carry a capability */
    size_t n_reach;
    /* An index of `reach` made at init (reach_index), so a name is tried
     * only against the entries that can match it, in table order: whole
     * and suffix entries grouped by their last byte, word and contains
     * entries apart. NULL: walk the table. */
    uint16_t *reach_tail;
    uint16_t reach_at[257]; /* group of byte b: reach_tail[reach_at[b], reach_at[b + 1]) */
    uint16_t *reach_other;
    size_t n_reach_other;
    /* perf25: the word entries of reach_other alone, in table order: an
     * ASCII name skips every contains entry, so it walks only these */
    uint16_t *reach_other_word;
    size_t n_reach_other_word;
    /* perf17: word entries grouped by their first byte, so a name tries
     * only the words its own words start with; reach_other then holds the
     * contains entries (and empty words). */
    uint16_t *reach_word;
    uint16_t reach_word_at[257]; /* group of byte b: reach_word[reach_word_at[b], [b + 1]) */
    cap_sink *except; /* prefixes that make a credential suffix something else */
    size_t n_except;
    cap_sink *dest; /* words that make a parameter a destination (upload_to, webhook) */
    size_t n_dest;
    uint32_t restate_mask; /* resources a strong sink name already says (the conversation) */
    int credparam;         /* resource index of credential parameters, -1 if none */
    int upload;            /* resource index of uploads to an outside host, -1 if none */
    int dbconn;            /* resource index of connection-string parameters, -1 if none */
    mv_sensitive *sens;    /* the shared list, for the value orders (value_orders.c) */
} cap_state;

/* ------------------------------------------------------------ bytes */

static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Letters, digits, underscore and any non-ASCII byte (a letter of some
 * script): the inside of a word for boundary tests. */
static bool is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

static bool is_alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static unsigned char lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

static bool str_is(mv_str s, const char *lit) {
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

static bool bounded(const char *t, size_t len, size_t start, size_t end, unsigned bounds) {
    if ((bounds & B_LEFT) && start > 0 && is_word((unsigned char)t[start - 1]))
        return false;
    if ((bounds & B_RIGHT) && end < len && is_word((unsigned char)t[end]))
        return false;
    return true;
}

/* Name canonical form for sink lookup: lower-case letters and digits only,
 * so side_note, sideNote and side-note meet. Returns 0 when too long. */
static size_t canon(const char *s, size_t n, char *out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!is_alnum(c))
            continue;
        if (k + 1 >= CAP_CANON_MAX)
            return 0;
        out[k++] = (char)lower(c);
    }
    out[k] = '\0';
    return k;
}

/* Split an identifier into lower-case words: get_weather, isPrime,
 * url-slug, HTTPServer -> "http server". Non-ASCII bytes are kept. */
static size_t split_words(const char *s, size_t n, char *out, size_t cap) {
    size_t k = 0;
    if (n > CAP_NAME_MAX)
        n = CAP_NAME_MAX;
    for (size_t i = 0; i < n && k + 2 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned char prev = i > 0 ? (unsigned char)s[i - 1] : 0;
        unsigned char next = i + 1 < n ? (unsigned char)s[i + 1] : 0;
        bool up = c >= 'A' && c <= 'Z';
        if (!is_word(c) || c == '_') {
            if (k > 0 && out[k - 1] != ' ')
                out[k++] = ' ';
            continue;
        }
        bool boundary = up && ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9') ||
                               (prev >= 'A' && prev <= 'Z' && next >= 'a' && next <= 'z'));
        if (boundary && k > 0 && out[k - 1] != ' ')
            out[k++] = ' ';
        out[k++] = (char)lower(c);
    }
    while (k > 0 && out[k - 1] == ' ')
        k--;
    return k;
}

/* The [start, end) spans of the first 8 words of split_words' output. */
static size_t word_spans(const char *w, size_t wn, size_t ws[8][2]) {
    size_t nw = 0;
    for (size_t i = 0; i < wn && nw < 8;) {
        size_t j = i;
        while (j < wn && w[j] != ' ')
            j++;
        ws[nw][0] = i;
        ws[nw][1] = j;
        nw++;
        i = j + 1;
    }
    return nw;
}

/* ------------------------------------------------------------ rule parsing */

typedef struct line_reader {
    const char *p;
    const char *end;
} line_reader;

/* Next non-empty, non-comment line, trimmed. */
static bool next_line(line_reader *r, mv_str *line) {
    while (r->p < r->end) {
        const char *s = r->p;
        const char *e = memchr(s, '\n', (size_t)(r->end - s));
        if (e == NULL)
            e = r->end;
        r->p = e < r->end ? e + 1 : e;
        while (s < e && is_space((unsigned char)*s))
            s++;
        while (e > s && is_space((unsigned char)e[-1]))
            e--;
        if (s == e || *s == '#')
            continue;
        *line = (mv_str){s, (size_t)(e - s)};
        return true;
    }
    return false;
}

static size_t count_lines(const char *data, size_t len) {
    size_t n = 0;
    for (const char *p = data, *end = data + len; p < end; n++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (p == NULL)
            break;
        p++;
    }
    return n;
}

/* Split off the first whitespace-separated token; *rest is trimmed. */
static mv_str token(mv_str *rest) {
    size_t i = 0;
    while (i < rest->len && !is_space((unsigned char)rest->ptr[i]))
        i++;
    mv_str t = {rest->ptr, i};
    while (i < rest->len && is_space((unsigned char)rest->ptr[i]))
        i++;
    rest->ptr += i;
    rest->len -= i;
    return t;
}

/* "0.75" -> 0.75, without strtod (locale-dependent). -1 on bad input. */
static double parse_weight(mv_str s) {
    if (s.len < 3 || s.len > 6 || (s.ptr[0] != '0' && s.ptr[0] != '1') || s.ptr[1] != '.')
        return -1.0;
    double v = s.ptr[0] - '0';
    double scale = 0.1;
    for (size_t i = 2; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9')
            return -1.0;
        v += (s.ptr[i] - '0') * scale;
        scale /= 10.0;
    }
    return v <= 1.0 ? v : -1.0;
}

static int find_class(const cap_state *st, mv_str id) {
    for (size_t i = 0; i < st->n_classes; i++)
        if (st->classes[i].id.len == id.len && memcmp(st->classes[i].id.ptr, id.ptr, id.len) == 0)
            return (int)i;
    return -1;
}

static int find_res(const cap_state *st, mv_str id) {
    for (size_t i = 0; i < st->n_res; i++)
        if (st->res[i].id.len == id.len && memcmp(st->res[i].id.ptr, id.ptr, id.len) == 0)
            return (int)i;
    return -1;
}

/* Resource ids a "justify" line lists, as a bit mask. */
static int parse_justify(const cap_state *st, mv_str rest, uint32_t *mask) {
    while (rest.len > 0) {
        mv_str id = token(&rest);
        if (str_is(id, "all")) {
            *mask = UINT32_MAX;
            continue;
        }
        int r = find_res(st, id);
        if (r < 0)
            return MV_ECHECK;
        *mask |= 1u << r;
    }
    return MV_OK;
}

static int add_phrase(mv_ac_builder *b, mv_normalizer *n, mv_arena *arena, mv_str text,
                      uint32_t id) {
    mv_str p = MV_STR_NULL;
    int rc = mv_normalize_phrase(n, arena, text.ptr, text.len, &p);
    if (rc != MV_OK)
        return rc;
    if (p.len == 0)
        return MV_ECHECK;
    return mv_ac_builder_add(b, p.ptr, p.len, id);
}

static int parse_bounds(mv_str b, unsigned *bounds) {
    if (str_is(b, "b"))
        *bounds = B_LEFT | B_RIGHT;
    else if (str_is(b, "l"))
        *bounds = B_LEFT;
    else if (str_is(b, "r"))
        *bounds = B_RIGHT;
    else if (str_is(b, "-"))
        *bounds = 0;
    else
        return MV_ECHECK;
    return MV_OK;
}

/* Add one term: normalized like tool text, with its table entry. A leading
 * '=' asks for the raw text to be verified (see cap_term.verify). */
static int add_term(cap_state *st, mv_ac_builder *b, mv_normalizer *n, mv_arena *tmp, mv_str text,
                    int kind, unsigned bounds, size_t res, bool path) {
    cap_term t = {(uint8_t)kind, (uint8_t)bounds, (uint8_t)res, path, MV_STR_NULL};
    if (text.len > 1 && text.ptr[0] == '=') {
        text.ptr++;
        text.len--;
        t.verify = text;
    }
    if (text.len == 0 || st->n_terms >= UINT32_MAX)
        return MV_ECHECK;
    int rc = add_phrase(b, n, tmp, text, (uint32_t)st->n_terms);
    if (rc == MV_OK)
        st->term[st->n_terms++] = t;
    return rc;
}

/* The shared list of sensitive resources (sensitive_resources.rules) adds
 * its phrases to the resource class of the same name; a class the checks
 * name differently is mapped here. */
typedef struct shared_ctx {
    cap_state *st;
    mv_normalizer *n;
    mv_arena *tmp;
    mv_ac_builder *terms;
    size_t count;
    bool count_only;
} shared_ctx;

static bool word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (unsigned char)c >= 0x80;
}

static int add_shared(void *p, mv_str cls, mv_str phrase) {
    static const struct {
        const char *from, *to;
    } alias[] = {{"sysprompt", "convo"}, {"envvars", "credword"}};
    shared_ctx *c = p;
    if (c->count_only) {
        c->count++;
        return MV_OK;
    }
    char low[32];
    if (cls.len == 0 || cls.len >= sizeof(low))
        return MV_ECHECK;
    for (size_t i = 0; i < cls.len; i++)
        low[i] = (cls.ptr[i] >= 'A' && cls.ptr[i] <= 'Z') ? (char)(cls.ptr[i] + 32) : cls.ptr[i];
    cls = (mv_str){low, cls.len};
    int ri = find_res(c->st, cls);
    for (size_t k = 0; ri < 0 && k < sizeof(alias) / sizeof(alias[0]); k++)
        if (str_is(cls, alias[k].from))
            ri = find_res(c->st, (mv_str){alias[k].to, strlen(alias[k].to)});
    if (ri < 0)
        return MV_ECHECK; /* a class without a resource: a rule data error */
    unsigned bounds = (word_byte(phrase.ptr[0]) ? B_LEFT : 0u) |
                      (word_byte(phrase.ptr[phrase.len - 1]) ? B_RIGHT : 0u);
    bool path = false;
    for (size_t i = 0; i < phrase.len && !path; i++) {
        char ch = phrase.ptr[i];
        path = ch == '/' || ch == '\\' || ch == '.' || ch == '~' || ch == '_';
    }
    int rc = add_term(c->st, c->terms, c->n, c->tmp, phrase, T_RES, bounds, (size_t)ri, path);
    /* The stemmer folds "conversation" into "conversion": "Full
     * conversion" of a document is not the full conversation. The
     * conversation's phrases must read as written in the raw text. */
    if (rc == MV_OK && str_is(c->st->res[ri].id, "convo"))
        c->st->term[c->st->n_terms - 1].verify = phrase;
    return rc;
}

static int load_resources(cap_state *st, mv_normalizer *n, mv_arena *tmp, mv_ac_builder *terms,
                          mv_ac_builder *svc) {
    const char *data = NULL;
    size_t len = 0;
    shared_ctx sc = {st, n, tmp, terms, 0, true};
    if (mv_rules_find("capability_resources", &data, &len) != 0)
        return MV_ECHECK;
    if (mv_sensitive_each(add_shared, &sc) != MV_OK)
        return MV_ECHECK;
    size_t lines = 1 + sc.count + count_lines(data, len);
    st->term = mv_arena_calloc(st->arena, lines, sizeof(*st->term));
    if (st->term == NULL)
        return MV_ENOMEM;
    line_reader r = {data, data + len};
    mv_str line;
    int rc = MV_OK;
    while (rc == MV_OK && next_line(&r, &line)) {
        mv_str kw = token(&line);
        unsigned bounds = B_LEFT | B_RIGHT;
        if (str_is(kw, "resource")) {
            if (st->n_res >= CAP_MAX_RES)
                return MV_ECHECK;
            cap_res *res = &st->res[st->n_res];
            res->id = token(&line);
            res->weight = parse_weight(token(&line));
            mv_str threat = token(&line);
            res->label = line;
            if (res->weight < 0 || res->label.len == 0)
                return MV_ECHECK;
            if (str_is(threat, "exfiltration"))
                res->threat = MV_THREAT_EXFILTRATION;
            else if (str_is(threat, "poisoning"))
                res->threat = MV_THREAT_TOOL_POISONING;
            else
                return MV_ECHECK;
            res->needs_target = str_is(res->id, "upload");
            st->n_res++;
        } else if (str_is(kw, "path") || str_is(kw, "word")) {
            int ri = find_res(st, token(&line));
            if (ri < 0)
                return MV_ECHECK;
            if (str_is(kw, "path") && parse_bounds(token(&line), &bounds) != MV_OK)
                return MV_ECHECK;
            rc = add_term(st, terms, n, tmp, line, T_RES, bounds, (size_t)ri, str_is(kw, "path"));
        } else if (str_is(kw, "target")) {
            mv_str view = token(&line);
            if (str_is(view, "path")) {
                if (parse_bounds(token(&line), &bounds) != MV_OK)
                    return MV_ECHECK;
            } else if (!str_is(view, "word")) {
                return MV_ECHECK;
            }
            rc = add_term(st, terms, n, tmp, line, T_TARGET, bounds, 0, false);
        } else if (str_is(kw, "negate")) {
            rc = add_term(st, terms, n, tmp, line, T_NEG, bounds, 0, false);
        } else if (str_is(kw, "verb")) {
            rc = add_term(st, terms, n, tmp, line, T_VERB, bounds, 0, false);
        } else if (str_is(kw, "service")) {
            /* Their own automaton: common words ("api", "server") would
             * crowd the resource matches of every field. */
            bool db = line.len > 3 && memcmp(line.ptr, "db ", 3) == 0;
            if (db)
                (void)token(&line);
            rc = add_phrase(svc, n, tmp, line, db ? 1u : 0u);
        } else if (str_is(kw, "quiet_without_verb")) {
            while (line.len > 0) {
                int ri = find_res(st, token(&line));
                if (ri < 0)
                    return MV_ECHECK;
                st->res[ri].needs_verb = true;
            }
        } else if (str_is(kw, "judge_unknown")) {
            while (line.len > 0) {
                int ri = find_res(st, token(&line));
                if (ri < 0)
                    return MV_ECHECK;
                st->res[ri].unknown_job = true;
            }
        } else if (str_is(kw, "scope")) {
            while (line.len > 0) {
                int ri = find_res(st, token(&line));
                if (ri < 0)
                    return MV_ECHECK;
                st->res[ri].scope = true;
            }
        } else if (str_is(kw, "negate_after")) {
            rc = add_term(st, terms, n, tmp, line, T_NEG_AFTER, bounds, 0, false);
        } else {
            return MV_ECHECK;
        }
    }
    if (rc == MV_OK) {
        sc.count_only = false;
        rc = mv_sensitive_each(add_shared, &sc);
    }
    return rc;
}

static int load_declared(cap_state *st, mv_normalizer *n, mv_arena *tmp, mv_ac_builder *decl) {
    const char *data = NULL;
    size_t len = 0;
    if (mv_rules_find("capability_declared", &data, &len) != 0)
        return MV_ECHECK;
    line_reader r = {data, data + len};
    mv_str line;
    int rc = MV_OK;
    while (rc == MV_OK && next_line(&r, &line)) {
        mv_str kw = token(&line);
        if (str_is(kw, "class")) {
            if (st->n_classes >= CAP_MAX_CLASSES)
                return MV_ECHECK;
            cap_class *c = &st->classes[st->n_classes];
            c->id = token(&line);
            mv_str kind = token(&line);
            c->label = line;
            if (str_is(kind, "narrow"))
                c->kind = K_NARROW;
            else if (str_is(kind, "netnarrow"))
                c->kind = K_NETNARROW;
            else if (str_is(kind, "freetext"))
                c->kind = K_FREETEXT;
            else if (str_is(kind, "sensitive"))
                c->kind = K_SENSITIVE;
            else
                return MV_ECHECK;
            if (c->label.len == 0)
                return MV_ECHECK;
            uint64_t bit = (uint64_t)1 << st->n_classes;
            if (c->kind == K_NARROW || c->kind == K_NETNARROW)
                st->narrow_mask |= bit;
            if (c->kind == K_FREETEXT)
                st->freetext_mask |= bit;
            if (c->kind == K_SENSITIVE)
                st->sensitive_mask |= bit;
            st->n_classes++;
        } else if (str_is(kw, "justify")) {
            int ci = find_class(st, token(&line));
            if (ci < 0 || st->classes[ci].kind == K_NARROW)
                return MV_ECHECK;
            rc = parse_justify(st, line, &st->classes[ci].justifies);
        } else {
            int ci = find_class(st, kw);
            if (ci < 0 || line.len == 0)
                return MV_ECHECK;
            rc = add_phrase(decl, n, tmp, line, (uint32_t)ci);
        }
    }
    return rc;
}

static int cmp_sink(const void *a, const void *b) {
    const cap_sink *x = a, *y = b;
    return strcmp(x->canon, y->canon);
}

static int cmp_str(const void *a, const void *b) {
    const mv_str *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->ptr, y->ptr, n);
    if (c != 0)
        return c;
    return x->len < y->len ? -1 : (x->len > y->len ? 1 : 0);
}

static int strength_of(mv_str s) {
    if (str_is(s, "strong"))
        return S_STRONG;
    if (str_is(s, "medium"))
        return S_MEDIUM;
    if (str_is(s, "weak"))
        return S_WEAK;
    return 0;
}

/* Insertion sort: tables are small and parsed once. */
static void sort_sinks(cap_sink *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        cap_sink x = v[i];
        size_t j = i;
        while (j > 0 && cmp_sink(&v[j - 1], &x) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static void sort_strs(mv_str *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        mv_str x = v[i];
        size_t j = i;
        while (j > 0 && cmp_str(&v[j - 1], &x) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static int load_sinks(cap_state *st, mv_normalizer *n) {
    const char *data = NULL;
    size_t len = 0;
    if (mv_rules_find("capability_sinks", &data, &len) != 0)
        return MV_ECHECK;
    /* Table sizes from a first pass: one entry per sink, modifier or vague
     * line, one per word of a reach, except or destination line (the
     * tables used to be sized by the whole file's words, ~200 KB zeroed
     * on every start). */
    size_t n_line = 1, n_word = 1;
    line_reader pre = {data, data + len};
    mv_str line;
    while (next_line(&pre, &line)) {
        mv_str kw = token(&line);
        if (str_is(kw, "reach") || str_is(kw, "except") || str_is(kw, "destination")) {
            n_word++;
            for (size_t i = 0; i < line.len; i++)
                n_word += is_space((unsigned char)line.ptr[i]);
        } else {
            n_line++;
        }
    }
    st->sinks = mv_arena_calloc(st->arena, n_line, sizeof(*st->sinks));
    st->mods = mv_arena_calloc(st->arena, n_line, sizeof(*st->mods));
    st->vague = mv_arena_calloc(st->arena, n_line, sizeof(*st->vague));
    st->reach = mv_arena_calloc(st->arena, n_word, sizeof(*st->reach));
    st->except = mv_arena_calloc(st->arena, n_word, sizeof(*st->except));
    st->dest = mv_arena_calloc(st->arena, n_word, sizeof(*st->dest));
    if (st->sinks == NULL || st->mods == NULL || st->vague == NULL || st->reach == NULL ||
        st->except == NULL || st->dest == NULL)
        return MV_ENOMEM;
    line_reader r = {data, data + len};
    while (next_line(&r, &line)) {
        mv_str kw = token(&line);
        if (str_is(kw, "sink") || str_is(kw, "modifier")) {
            bool sink = str_is(kw, "sink");
            cap_sink *s = sink ? &st->sinks[st->n_sinks] : &st->mods[st->n_mods];
            s->strength = strength_of(token(&line));
            s->len = canon(line.ptr, line.len, s->canon);
            if (s->strength == 0 || s->len == 0)
                return MV_ECHECK;
            if (sink)
                st->n_sinks++;
            else
                st->n_mods++;
        } else if (str_is(kw, "reach")) {
            int ri = find_res(st, token(&line));
            mv_str how = token(&line);
            int h = str_is(how, "whole")      ? R_WHOLE
                    : str_is(how, "suffix")   ? R_SUFFIX
                    : str_is(how, "word")     ? R_WORD
                    : str_is(how, "contains") ? R_CONTAINS
                    : str_is(how, "default")  ? R_DEFAULT
                                              : -1;
            if (ri < 0 || h < 0 || line.len == 0)
                return MV_ECHECK;
            while (line.len > 0) {
                mv_str w = token(&line);
                cap_reach *rr = &st->reach[st->n_reach];
                if (h == R_CONTAINS || h == R_DEFAULT) {
                    if (w.len >= CAP_CANON_MAX)
                        return MV_ECHECK;
                    for (size_t k = 0; k < w.len; k++)
                        rr->canon[k] = (char)lower((unsigned char)w.ptr[k]);
                    rr->len = w.len;
                } else {
                    rr->len = canon(w.ptr, w.len, rr->canon);
                }
                if (rr->len == 0)
                    return MV_ECHECK;
                rr->res = (uint8_t)ri;
                rr->how = (uint8_t)h;
                st->n_reach++;
            }
        } else if (str_is(kw, "except") || str_is(kw, "destination")) {
            bool dest = str_is(kw, "destination");
            while (line.len > 0) {
                mv_str w = token(&line);
                cap_sink *e = dest ? &st->dest[st->n_dest] : &st->except[st->n_except];
                e->len = canon(w.ptr, w.len, e->canon);
                if (e->len == 0)
                    return MV_ECHECK;
                if (dest)
                    st->n_dest++;
                else
                    st->n_except++;
            }
        } else if (str_is(kw, "vague")) {
            mv_str p = MV_STR_NULL;
            int rc = mv_normalize_phrase(n, st->arena, line.ptr, line.len, &p);
            if (rc != MV_OK)
                return rc;
            if (p.len > 0)
                st->vague[st->n_vague++] = p;
        } else {
            return MV_ECHECK;
        }
    }
    sort_sinks(st->sinks, st->n_sinks);
    sort_strs(st->vague, st->n_vague);
    return MV_OK;
}

static void cap_fini(const mv_allocator *a, void *state) {
    cap_state *st = state;
    if (st == NULL)
        return;
    mv_ac_free(st->decl);
    mv_ac_free(st->terms);
    mv_ac_free(st->services);
    mv_sensitive_free(st->sens);
    mv_arena_free(st->arena);
    mv_free(a, st, sizeof(*st));
}

int mv_cap_init_runtime(const mv_allocator *a, void **state) {
    int rc = MV_OK;
    mv_normalizer *n = NULL;
    mv_arena *tmp = NULL;
    mv_ac_builder *decl = NULL, *terms = NULL, *svc = NULL;
    cap_state *st = mv_calloc(a, 1, sizeof(*st));
    if (st == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    st->arena = mv_arena_new(a, 0);
    n = mv_normalizer_new(a);
    tmp = mv_arena_new(a, 0);
    decl = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    terms = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    svc = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    if (st->arena == NULL || n == NULL || tmp == NULL || decl == NULL || terms == NULL ||
        svc == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    /* Resources first: "justify" lines of the declared file name them. */
    rc = load_resources(st, n, tmp, terms, svc);
    if (rc == MV_OK) {
        int cv = find_res(st, MV_STR_LIT("convo"));
        st->restate_mask = cv >= 0 ? 1u << cv : 0;
        st->credparam = find_res(st, MV_STR_LIT("credparam"));
        st->dbconn = find_res(st, MV_STR_LIT("dbconn"));
        st->upload = find_res(st, MV_STR_LIT("upload"));
        rc = load_declared(st, n, tmp, decl);
    }
    if (rc == MV_OK)
        rc = load_sinks(st, n);
    if (rc == MV_OK)
        rc = mv_ac_build(&st->decl, decl);
    if (rc == MV_OK)
        rc = mv_ac_build(&st->terms, terms);
    if (rc == MV_OK)
        rc = mv_ac_build(&st->services, svc);
    if (rc == MV_OK)
        rc = mv_sensitive_new(&st->sens, a);
done:
    mv_ac_builder_free(decl);
    mv_ac_builder_free(terms);
    mv_ac_builder_free(svc);
    mv_arena_free(tmp);
    mv_normalizer_free(n);
    if (rc != MV_OK) {
        cap_fini(a, st);
        st = NULL;
    }
    *state = st;
    return rc;
}

/* ------------------------------------------------------------ saved state
 *
 * Layout (32-bit words, see capability_saved.h): a header (SAVE_HEADER
 * words: magic, version, source hash (2), total words, struct sizes, the
 * table counts, the three masks (2 words each), restate_mask, credparam,
 * upload, dbconn, the recorded automata of decl, terms and services, text
 * words), then the text (every string, NUL-terminated, by byte offset),
 * classes (6 words), resources (8), terms (3), sinks and modifiers (the
 * struct's bytes), vague phrases (2), reach entries, except and
 * destination entries (the structs' bytes).
 */
#define CAP_SAVE_MAGIC 0x53504143u /* "CAPS" */
#define CAP_SAVE_VERSION 1u
#define CAP_SAVE_HEADER 30u
#define SINK_WORDS (sizeof(cap_sink) / 4)
#define REACH_WORDS (sizeof(cap_reach) / 4)
_Static_assert(sizeof(cap_sink) % 4 == 0 && sizeof(cap_reach) % 4 == 0, "saved as words");

/* Eight bytes per step: the rule files are ~53 KB, hashed at every start. */
static uint64_t cap_hash(uint64_t h, const char *p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001B3u;
    return (h ^ (uint64_t)n) * 0x9E3779B97F4A7C15u;
}

uint64_t mv_cap_sources_hash(void) {
    static const char *const files[] = {"capability_resources", "capability_declared",
                                        "capability_sinks", "sensitive_resources"};
    static const char format[] = "mcpvet capability state 1";
    uint64_t h = cap_hash(0xCBF29CE484222325u, format, sizeof(format) - 1);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        const char *data = NULL;
        size_t len = 0;
        if (mv_rules_find(files[i], &data, &len) != 0)
            return 0;
        h = cap_hash(h, data, len);
    }
    h = cap_hash(h, utf8proc_version(), strlen(utf8proc_version()));
    return cap_hash(h, utf8proc_unicode_version(), strlen(utf8proc_unicode_version()));
}

typedef struct text_pool {
    char *p;
    size_t len, cap;
    bool failed;
} text_pool;

static uint32_t pool_put(text_pool *t, mv_str s) {
    if (t->len + s.len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + s.len + 1)
            cap *= 2;
        char *np = mv_realloc(NULL, t->p, t->cap, cap);
        if (np == NULL) {
            t->failed = true;
            return 0;
        }
        t->p = np;
        t->cap = cap;
    }
    uint32_t at = (uint32_t)t->len;
    if (s.len > 0)
        memcpy(t->p + t->len, s.ptr, s.len);
    t->p[t->len + s.len] = '\0';
    t->len += s.len + 1;
    return at;
}

static void put_str(uint32_t *w, text_pool *t, mv_str s) {
    w[0] = pool_put(t, s);
    w[1] = (uint32_t)s.len;
}

/* A table's bytes (a whole number of words); returns the next word. */
static uint32_t *put_raw(uint32_t *w, const void *src, size_t bytes) {
    if (bytes > 0)
        memcpy(w, src, bytes);
    return w + bytes / 4;
}

/* A copy of a saved table in the arena (aligned for its members). */
static void *get_raw(mv_arena *arena, const uint32_t **p, size_t bytes) {
    void *d = mv_arena_alloc(arena, bytes > 0 ? bytes : 1);
    if (d != NULL && bytes > 0)
        memcpy(d, *p, bytes);
    *p += bytes / 4;
    return d;
}

static void put_u64(uint32_t *w, uint64_t v) {
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}

int mv_cap_save(const void *state, mv_cap_ac_ref ref, void *ctx, uint32_t **words,
                size_t *n_words) {
    const cap_state *st = state;
    text_pool t = {NULL, 0, 0, false};
    uint32_t *w = NULL;
    size_t n = 0;
    int rc = MV_OK;
    uint32_t refs[3] = {ref(ctx, st->decl), ref(ctx, st->terms), ref(ctx, st->services)};
    if (refs[0] == UINT32_MAX || refs[1] == UINT32_MAX || refs[2] == UINT32_MAX) {
        rc = MV_EINVAL;
        goto done;
    }
    /* Strings first, so the text size is known. */
    size_t body = st->n_classes * 6 + st->n_res * 8 + st->n_terms * 3 +
                  (st->n_sinks + st->n_mods + st->n_except + st->n_dest) * SINK_WORDS +
                  st->n_vague * 2 + st->n_reach * REACH_WORDS;
    uint32_t *b = mv_calloc(NULL, body + 1, sizeof(uint32_t));
    if (b == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    uint32_t *p = b;
    for (size_t i = 0; i < st->n_classes; i++, p += 6) {
        put_str(p, &t, st->classes[i].id);
        put_str(p + 2, &t, st->classes[i].label);
        p[4] = (uint32_t)st->classes[i].kind;
        p[5] = st->classes[i].justifies;
    }
    for (size_t i = 0; i < st->n_res; i++, p += 8) {
        const cap_res *r = &st->res[i];
        put_str(p, &t, r->id);
        put_str(p + 2, &t, r->label);
        memcpy(p + 4, &r->weight, sizeof(double));
        p[6] = (uint32_t)r->threat;
        p[7] = (uint32_t)r->needs_target | (uint32_t)r->needs_verb << 1 | (uint32_t)r->scope << 2 |
               (uint32_t)r->unknown_job << 3;
    }
    for (size_t i = 0; i < st->n_terms; i++, p += 3) {
        const cap_term *tm = &st->term[i];
        p[0] = (uint32_t)tm->kind | (uint32_t)tm->bounds << 8 | (uint32_t)tm->res << 16 |
               (uint32_t)tm->path << 24;
        put_str(p + 1, &t, tm->verify);
    }
    p = put_raw(p, st->sinks, st->n_sinks * sizeof(cap_sink));
    p = put_raw(p, st->mods, st->n_mods * sizeof(cap_sink));
    for (size_t i = 0; i < st->n_vague; i++, p += 2)
        put_str(p, &t, st->vague[i]);
    p = put_raw(p, st->reach, st->n_reach * sizeof(cap_reach));
    p = put_raw(p, st->except, st->n_except * sizeof(cap_sink));
    (void)put_raw(p, st->dest, st->n_dest * sizeof(cap_sink));
    if (t.failed) {
        mv_free(NULL, b, (body + 1) * sizeof(uint32_t));
        rc = MV_ENOMEM;
        goto done;
    }
    size_t text_words = (t.len + 4) / 4;
    n = CAP_SAVE_HEADER + text_words + body;
    w = mv_calloc(NULL, n, sizeof(uint32_t));
    if (w == NULL || n > UINT32_MAX) {
        mv_free(NULL, b, (body + 1) * sizeof(uint32_t));
        rc = MV_ENOMEM;
        goto done;
    }
    uint64_t h = mv_cap_sources_hash();
    w[0] = CAP_SAVE_MAGIC;
    w[1] = CAP_SAVE_VERSION;
    put_u64(w + 2, h);
    w[4] = (uint32_t)n;
    w[5] = (uint32_t)sizeof(cap_sink) | (uint32_t)sizeof(cap_reach) << 16;
    w[6] = (uint32_t)st->n_classes;
    w[7] = (uint32_t)st->n_res;
    w[8] = (uint32_t)st->n_terms;
    w[9] = (uint32_t)st->n_sinks;
    w[10] = (uint32_t)st->n_mods;
    w[11] = (uint32_t)st->n_vague;
    w[12] = (uint32_t)st->n_reach;
    w[13] = (uint32_t)st->n_except;
    w[14] = (uint32_t)st->n_dest;
    put_u64(w + 15, st->narrow_mask);
    put_u64(w + 17, st->freetext_mask);
    put_u64(w + 19, st->sensitive_mask);
    w[21] = st->restate_mask;
    w[22] = (uint32_t)st->credparam;
    w[23] = (uint32_t)st->upload;
    w[24] = (uint32_t)st->dbconn;
    w[25] = refs[0];
    w[26] = refs[1];
    w[27] = refs[2];
    w[28] = (uint32_t)text_words;
    w[29] = (uint32_t)sizeof(cap_term);
    if (t.len > 0)
        memcpy(w + CAP_SAVE_HEADER, t.p, t.len);
    memcpy(w + CAP_SAVE_HEADER + text_words, b, body * sizeof(uint32_t));
    mv_free(NULL, b, (body + 1) * sizeof(uint32_t));
done:
    mv_free(NULL, t.p, t.cap);
    *words = w;
    *n_words = w != NULL ? n : 0;
    return rc;
}

static mv_str get_str(const char *text, size_t text_len, const uint32_t *p, bool *bad) {
    if (p[1] == 0)
        return MV_STR_NULL;
    if ((size_t)p[0] + p[1] >= text_len) {
        *bad = true;
        return MV_STR_NULL;
    }
    return (mv_str){text + p[0], p[1]};
}

static bool ac_ref_ok(uint32_t i) {
    return i < mv_pc_n_ac;
}

int mv_cap_load(const mv_allocator *a, const uint32_t *w, size_t n, void **state) {
    int rc = MV_OK;
    cap_state *st = NULL;
    bool bad = false;
    *state = NULL;
    if (a == NULL)
        a = mv_allocator_default();
    /* The header must be this format, made from these rules with this
     * utf8proc, and add up to exactly n words. */
    if (w == NULL || n < CAP_SAVE_HEADER || w[0] != CAP_SAVE_MAGIC || w[1] != CAP_SAVE_VERSION ||
        w[4] != n || w[5] != ((uint32_t)sizeof(cap_sink) | (uint32_t)sizeof(cap_reach) << 16) ||
        w[29] != (uint32_t)sizeof(cap_term) || w[6] > CAP_MAX_CLASSES || w[7] > CAP_MAX_RES ||
        !ac_ref_ok(w[25]) || !ac_ref_ok(w[26]) || !ac_ref_ok(w[27]) ||
        (size_t)CAP_SAVE_HEADER + w[28] + (size_t)w[6] * 6 + (size_t)w[7] * 8 + (size_t)w[8] * 3 +
                ((size_t)w[9] + w[10] + w[13] + w[14]) * SINK_WORDS + (size_t)w[11] * 2 +
                (size_t)w[12] * REACH_WORDS !=
            n ||
        ((uint64_t)w[2] | (uint64_t)w[3] << 32) != mv_cap_sources_hash()) {
        rc = MV_EINVAL;
        goto done;
    }
    st = mv_calloc(a, 1, sizeof(*st));
    if (st == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    st->arena = mv_arena_new(a, 0);
    if (st->arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    const char *text = (const char *)(w + CAP_SAVE_HEADER);
    size_t text_len = (size_t)w[28] * 4;
    const uint32_t *p = w + CAP_SAVE_HEADER + w[28];
    st->n_classes = w[6];
    st->n_res = w[7];
    st->n_terms = w[8];
    st->n_sinks = w[9];
    st->n_mods = w[10];
    st->n_vague = w[11];
    st->n_reach = w[12];
    st->n_except = w[13];
    st->n_dest = w[14];
    st->narrow_mask = (uint64_t)w[15] | (uint64_t)w[16] << 32;
    st->freetext_mask = (uint64_t)w[17] | (uint64_t)w[18] << 32;
    st->sensitive_mask = (uint64_t)w[19] | (uint64_t)w[20] << 32;
    st->restate_mask = w[21];
    st->credparam = (int)w[22];
    st->upload = (int)w[23];
    st->dbconn = (int)w[24];
    for (size_t i = 0; i < st->n_classes; i++, p += 6) {
        cap_class *c = &st->classes[i];
        c->id = get_str(text, text_len, p, &bad);
        c->label = get_str(text, text_len, p + 2, &bad);
        c->kind = (int)p[4];
        c->justifies = p[5];
    }
    for (size_t i = 0; i < st->n_res; i++, p += 8) {
        cap_res *r = &st->res[i];
        r->id = get_str(text, text_len, p, &bad);
        r->label = get_str(text, text_len, p + 2, &bad);
        memcpy(&r->weight, p + 4, sizeof(double));
        r->threat = (mv_threat)p[6];
        r->needs_target = (p[7] & 1u) != 0;
        r->needs_verb = (p[7] & 2u) != 0;
        r->scope = (p[7] & 4u) != 0;
        r->unknown_job = (p[7] & 8u) != 0;
    }
    st->term = mv_arena_alloc(st->arena, (st->n_terms + 1) * sizeof(*st->term));
    st->vague = mv_arena_alloc(st->arena, (st->n_vague + 1) * sizeof(*st->vague));
    if (st->term == NULL || st->vague == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < st->n_terms; i++, p += 3) {
        cap_term *tm = &st->term[i];
        tm->kind = (uint8_t)p[0];
        tm->bounds = (uint8_t)(p[0] >> 8);
        tm->res = (uint8_t)(p[0] >> 16);
        tm->path = ((p[0] >> 24) & 1u) != 0;
        tm->verify = get_str(text, text_len, p + 1, &bad);
    }
    /* Plain tables are copied (a few KB): they hold size_t members, and
     * the words are only 4-byte aligned. */
    st->sinks = get_raw(st->arena, &p, st->n_sinks * sizeof(cap_sink));
    st->mods = get_raw(st->arena, &p, st->n_mods * sizeof(cap_sink));
    for (size_t i = 0; i < st->n_vague; i++, p += 2)
        st->vague[i] = get_str(text, text_len, p, &bad);
    st->reach = get_raw(st->arena, &p, st->n_reach * sizeof(cap_reach));
    st->except = get_raw(st->arena, &p, st->n_except * sizeof(cap_sink));
    st->dest = get_raw(st->arena, &p, st->n_dest * sizeof(cap_sink));
    if (st->sinks == NULL || st->mods == NULL || st->reach == NULL || st->except == NULL ||
        st->dest == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (bad) {
        rc = MV_EINVAL;
        goto done;
    }
    const uint32_t refs[3] = {w[25], w[26], w[27]};
    mv_ac **acs[3] = {&st->decl, &st->terms, &st->services};
    for (size_t k = 0; k < 3 && rc == MV_OK; k++) {
        const uint32_t *ix = mv_pc_ac_index + (size_t)refs[k] * MV_PC_AC_ENTRY;
        rc = mv_ac_load(acs[k], a, mv_pc_ac_words + ix[4], ix[5]);
    }
    /* The shared sensitive list is not part of the saved words: it is
     * built as in mv_cap_init_runtime (from its own recorded automata). */
    if (rc == MV_OK)
        rc = mv_sensitive_new(&st->sens, a);
done:
    if (rc != MV_OK) {
        cap_fini(a, st);
        st = NULL;
    }
    *state = st;
    return rc;
}

static bool mv_str_same(mv_str x, mv_str y) {
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}

static bool sinks_same(const cap_sink *x, const cap_sink *y, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (x[i].len != y[i].len || x[i].strength != y[i].strength ||
            strcmp(x[i].canon, y[i].canon) != 0)
            return false;
    return true;
}

bool mv_cap_state_equal(const void *px, const void *py) {
    const cap_state *x = px, *y = py;
    bool same = x->n_classes == y->n_classes && x->n_res == y->n_res && x->n_terms == y->n_terms &&
                x->n_sinks == y->n_sinks && x->n_mods == y->n_mods && x->n_vague == y->n_vague &&
                x->n_reach == y->n_reach && x->n_except == y->n_except && x->n_dest == y->n_dest &&
                x->narrow_mask == y->narrow_mask && x->freetext_mask == y->freetext_mask &&
                x->sensitive_mask == y->sensitive_mask && x->restate_mask == y->restate_mask &&
                x->credparam == y->credparam && x->upload == y->upload && x->dbconn == y->dbconn &&
                mv_ac_equal(x->decl, y->decl) && mv_ac_equal(x->terms, y->terms) &&
                mv_ac_equal(x->services, y->services);
    for (size_t i = 0; same && i < x->n_classes; i++)
        same = mv_str_same(x->classes[i].id, y->classes[i].id) &&
               mv_str_same(x->classes[i].label, y->classes[i].label) &&
               x->classes[i].kind == y->classes[i].kind &&
               x->classes[i].justifies == y->classes[i].justifies;
    for (size_t i = 0; same && i < x->n_res; i++) {
        const cap_res *a = &x->res[i], *b = &y->res[i];
        same = mv_str_same(a->id, b->id) && mv_str_same(a->label, b->label) &&
               memcmp(&a->weight, &b->weight, sizeof(double)) == 0 && a->threat == b->threat &&
               a->needs_target == b->needs_target && a->needs_verb == b->needs_verb &&
               a->scope == b->scope && a->unknown_job == b->unknown_job;
    }
    for (size_t i = 0; same && i < x->n_terms; i++) {
        const cap_term *a = &x->term[i], *b = &y->term[i];
        same = a->kind == b->kind && a->bounds == b->bounds && a->res == b->res &&
               a->path == b->path && mv_str_same(a->verify, b->verify);
    }
    for (size_t i = 0; same && i < x->n_vague; i++)
        same = mv_str_same(x->vague[i], y->vague[i]);
    for (size_t i = 0; same && i < x->n_reach; i++)
        same = x->reach[i].len == y->reach[i].len && x->reach[i].res == y->reach[i].res &&
               x->reach[i].how == y->reach[i].how &&
               memcmp(x->reach[i].canon, y->reach[i].canon, x->reach[i].len) == 0;
    return same && sinks_same(x->sinks, y->sinks, x->n_sinks) &&
           sinks_same(x->mods, y->mods, x->n_mods) &&
           sinks_same(x->except, y->except, x->n_except) && sinks_same(x->dest, y->dest, x->n_dest);
}

/* The reach index (cap_state.reach_tail): whole and suffix entries can
 * only match a name ending in their last byte. */
static int reach_index(cap_state *st) {
    size_t count[256], wcount[256];
    uint16_t fill[256], wfill[256];
    if (st->n_reach == 0 || st->n_reach >= UINT16_MAX)
        return MV_OK; /* walk the table */
    uint16_t *tail = mv_arena_alloc(st->arena, st->n_reach * sizeof(uint16_t));
    uint16_t *word = mv_arena_alloc(st->arena, st->n_reach * sizeof(uint16_t));
    uint16_t *other = mv_arena_alloc(st->arena, st->n_reach * sizeof(uint16_t));
    uint16_t *other_word = mv_arena_alloc(st->arena, st->n_reach * sizeof(uint16_t));
    if (tail == NULL || word == NULL || other == NULL || other_word == NULL)
        return MV_ENOMEM;
    memset(count, 0, sizeof(count));
    memset(wcount, 0, sizeof(wcount));
    for (size_t i = 0; i < st->n_reach; i++) {
        const cap_reach *r = &st->reach[i];
        if ((r->how == R_WHOLE || r->how == R_SUFFIX) && r->len > 0)
            count[(unsigned char)r->canon[r->len - 1]]++;
        else if (r->how == R_WORD && r->len > 0)
            wcount[(unsigned char)r->canon[0]]++;
    }
    st->reach_at[0] = 0;
    st->reach_word_at[0] = 0;
    for (size_t b = 0; b < 256; b++) {
        st->reach_at[b + 1] = (uint16_t)(st->reach_at[b] + count[b]);
        fill[b] = st->reach_at[b];
        st->reach_word_at[b + 1] = (uint16_t)(st->reach_word_at[b] + wcount[b]);
        wfill[b] = st->reach_word_at[b];
    }
    st->n_reach_other = 0;
    st->n_reach_other_word = 0;
    for (size_t i = 0; i < st->n_reach; i++) {
        const cap_reach *r = &st->reach[i];
        if ((r->how == R_WHOLE || r->how == R_SUFFIX) && r->len > 0)
            tail[fill[(unsigned char)r->canon[r->len - 1]]++] = (uint16_t)i;
        else if (r->how == R_WORD && r->len > 0)
            word[wfill[(unsigned char)r->canon[0]]++] = (uint16_t)i;
        else if (r->how == R_WORD || r->how == R_CONTAINS)
            other[st->n_reach_other++] = (uint16_t)i;
        if (r->how == R_WORD && r->len == 0)
            other_word[st->n_reach_other_word++] = (uint16_t)i;
    }
    st->reach_tail = tail;
    st->reach_word = word;
    st->reach_other = other;
    st->reach_other_word = other_word;
    return MV_OK;
}

static int cap_init(const mv_allocator *a, void **state) {
    /* The state the build saved from these very rule files (see
     * capability_saved.h); stale or missing words (MV_EINVAL) parse. */
    int rc = mv_cap_load(a, mv_cap_precompiled_words, mv_cap_precompiled_n_words, state);
    if (rc != MV_OK && rc != MV_ENOMEM)
        rc = mv_cap_init_runtime(a, state);
    if (rc == MV_OK && (rc = reach_index(*state)) != MV_OK) {
        cap_fini(a, *state);
        *state = NULL;
    }
    return rc;
}

/* ------------------------------------------------------------ matching */

typedef struct match {
    uint32_t id;
    size_t start;
    size_t end;
} match;

typedef struct collector {
    match *m;
    size_t n;
    size_t cap;
    uint64_t seen; /* every match, kept or not (for the cap record) */
    bool oom;
    const cap_state *st;
    mv_arena *arena; /* grows `m` */
    const char *text;
    size_t len;
} collector;

static int collect(void *ctx, const mv_ac_match *am) {
    collector *c = ctx;
    if (!bounded(c->text, c->len, am->start, am->end, c->st->term[am->id].bounds))
        return 0;
    c->seen++;
    if (c->n == c->cap && c->cap < CAP_MAX_MATCHES) {
        /* Long documentation is full of "no", "not" and "use": grow the
         * buffer (per-tool scratch) rather than drop context. */
        match *m = mv_arena_grow(c->arena, c->m, c->cap * sizeof(*m), 2 * c->cap * sizeof(*m));
        if (m == NULL) {
            c->oom = true;
            return 1;
        }
        c->m = m;
        c->cap *= 2;
    }
    if (c->n < c->cap)
        c->m[c->n++] = (match){am->id, am->start, am->end};
    return 0;
}

/* Raw text [s, s+n) reads like `want` (ASCII case and runs of white space
 * aside): the stem matched, and so do the words. */
static bool raw_reads(const char *s, size_t n, mv_str want) {
    size_t i = 0, j = 0;
    while (i < n && j < want.len) {
        unsigned char a = (unsigned char)s[i], b = (unsigned char)want.ptr[j];
        if (is_space(a) && is_space(b)) {
            while (i < n && is_space((unsigned char)s[i]))
                i++;
            while (j < want.len && is_space((unsigned char)want.ptr[j]))
                j++;
            continue;
        }
        if (lower(a) != lower(b))
            return false;
        i++;
        j++;
    }
    return i == n && j == want.len;
}

/* A '.' that ends a sentence: followed by space or the end, and not the
 * dot of "e.g." / "i.e." / "etc." / "vs.". */
static bool sentence_dot(const char *t, size_t len, size_t i) {
    if (i + 1 < len && !is_space((unsigned char)t[i + 1]))
        return false;
    if (i >= 2 && t[i - 2] == '.')
        return false; /* e.g. i.e. */
    if (i >= 3 && (memcmp(t + i - 3, "etc", 3) == 0 || memcmp(t + i - 3, " vs", 3) == 0))
        return false;
    return true;
}

static bool sentence_break(const char *t, size_t len, size_t i) {
    char c = t[i];
    return c == '\n' || c == ';' || c == '!' || c == '?' || (c == '.' && sentence_dot(t, len, i));
}

/* Bounds [*s, *e) of the sentence around normalized [start, end). */
static void sentence(const char *t, size_t len, size_t start, size_t end, size_t *s, size_t *e) {
    size_t i = start;
    size_t lim = start > CAP_SENT_SCAN ? start - CAP_SENT_SCAN : 0;
    while (i > lim && !sentence_break(t, len, i - 1))
        i--;
    *s = i;
    size_t j = end;
    size_t jl = len - end > CAP_SENT_SCAN ? end + CAP_SENT_SCAN : len;
    while (j < jl && !sentence_break(t, len, j))
        j++;
    *e = j;
}

/* Words (runs of word bytes) in t[from, to). */
static size_t words_between(const char *t, size_t from, size_t to) {
    size_t n = 0;
    bool in = false;
    for (size_t i = from; i < to; i++) {
        bool w = is_alnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80;
        if (w && !in)
            n++;
        in = w;
    }
    return n;
}

/* ------------------------------------------------------------ detector 1 */

/* Best mention of one resource class. */
typedef struct res_best {
    double w;
    bool path; /* the evidence is a path or code fragment */
    int32_t field;
    uint32_t raw_off;
    uint32_t raw_len;
} res_best;

/* A path mention inside the description, in normalized offsets: in the
 * lead sentence it is not a declaration (the "env" of "reads .env" does not
 * declare credential management). */
typedef struct span {
    size_t start;
    size_t end;
} span;

#define CAP_DESC_SPANS 32

typedef struct reach_hit {
    int32_t field;
    uint32_t off, len;
} reach_hit;

typedef struct tool_scan {
    const cap_state *st;
    const mv_inspect_ctx *ctx;
    const mv_tool *tool;
    mv_emitter *out;
    collector tc; /* term matches of the current field */
    res_best best[CAP_MAX_RES];
    res_best reach[CAP_MAX_RES]; /* detector 3: counted only for narrow tools */
    uint32_t *leak;              /* per param: resources its description mentions (bit mask) */
    int8_t *sink;                /* per param: sink strength of its name (0 = none) */
    span desc_spans[CAP_DESC_SPANS];
    size_t n_desc_spans;
    int32_t desc; /* field index of the description, -1 if none */
    bool capped;
    uint32_t prose_res; /* resources the tool's own description or title mentions (bit mask) */
    int8_t service;     /* the description or title says the tool talks to a service (-1: not
                           looked up yet) */
    int8_t db;          /* ... or works on a database (-1: not looked up yet) */
    bool db_job;        /* the database words are the description's or title's */
    bool reached;       /* detector 8 raised the tool (detector 12 would repeat it) */
    bool english;       /* detector 8 found the prose English and left it to detector 12 */
    /* Round 27 (detector 15): the first input slot asking for a credential
     * or a kind of personal data, by its name (cred_name: CK_*) or by its
     * description's store kinds (cred_kinds: RK_* bits), and where. */
    uint8_t cred_name;
    uint32_t cred_kinds;
    reach_hit cred_hit;
    uint32_t n_emitted; /* signals this check emitted for the tool (cap_emit) */
} tool_scan;

/* Every signal of the detectors goes through here, counted: detector 15
 * speaks only where no other detector did. */
static int cap_emit(tool_scan *ts, const mv_signal_spec *spec) {
    ts->n_emitted++;
    return mv_emit(ts->out, spec);
}

static double position_weight(const mv_field *f, const mv_norm_text *nt, size_t ns, size_t ne,
                              bool scope, bool *example) {
    mv_position pos;
    mv_position_text pt = {f->text, nt, f->kind, f->path, NULL};
    mv_position_classify(&pos, &pt, ns, ne);
    *example = pos.cue == MV_POS_EXAMPLE_INTRO;
    /* Nobody detects "the whole home directory": after "scans" a scope is
     * what the tool walks through. */
    if (scope && pos.cue == MV_POS_DETECTION_LIST)
        return 1.0;
    /* Quoting or code-formatting a path is how honest and hostile text
     * alike write file names; only example, detection and label positions
     * say the mention is not a use. */
    if (pos.cue == MV_POS_QUOTED || pos.cue == MV_POS_CODE_BLOCK)
        return 1.0;
    /* "including" introduces examples, but "includes" and "included" share
     * its stem and, before a resource, report an action ("it includes
     * /etc/shadow in each request"). */
    if (pos.cue == MV_POS_EXAMPLE_INTRO && pos.cue_offset < nt->len) {
        uint32_t r = nt->raw_offset[pos.cue_offset];
        size_t e = r;
        while (e < f->text.len && e - r < 16 && is_alnum((unsigned char)f->text.ptr[e]))
            e++;
        mv_str w = {f->text.ptr + r, e - r};
        if (raw_reads(w.ptr, w.len, MV_STR_LIT("includes")) ||
            raw_reads(w.ptr, w.len, MV_STR_LIT("include")) ||
            raw_reads(w.ptr, w.len, MV_STR_LIT("included")))
            return 1.0;
    }
    return pos.weight;
}

/* Does a denial govern normalized [ns, ne) inside sentence [ss, se)? */
static bool negated(const tool_scan *ts, const char *t, size_t ns, size_t ne, size_t ss,
                    size_t se) {
    for (size_t k = 0; k < ts->tc.n; k++) {
        const match *m = &ts->tc.m[k];
        int kind = ts->st->term[m->id].kind;
        if (kind == T_NEG && m->start >= ss && m->end <= ns &&
            words_between(t, m->end, ns) <= CAP_NEG_WORDS)
            return true;
        if (kind == T_NEG_AFTER && m->start >= ne && m->end <= se &&
            words_between(t, ne, m->start) <= CAP_NEG_WORDS)
            return true;
    }
    return false;
}

/* Is there a term of `kind` (an outside target, an access verb) in
 * [ss, se)? */
static bool has_term(const tool_scan *ts, int kind, size_t ss, size_t se) {
    for (size_t k = 0; k < ts->tc.n; k++)
        if (ts->st->term[ts->tc.m[k].id].kind == kind && ts->tc.m[k].start >= ss &&
            ts->tc.m[k].end <= se)
            return true;
    return false;
}

static bool is_prose(mv_field_kind k) {
    return k == MV_FIELD_DESCRIPTION || k == MV_FIELD_TITLE || k == MV_FIELD_SCHEMA_DESCRIPTION ||
           k == MV_FIELD_ANNOTATION;
}

/* Bytes that end a path token in running text. */
static bool token_stop(unsigned char c) {
    return is_space(c) || c == '"' || c == '\'' || c == '`' || c == '(' || c == ')' || c == '<' ||
           c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' || c == ';';
}

/* Grow raw [*ro, *re) to the whole path token around it ("~/.ssh" inside
 * "~/.ssh/id_rsa"), without a trailing sentence dot. */
static void whole_token(mv_str raw, uint32_t *ro, uint32_t *re) {
    uint32_t a = *ro, b = *re;
    while (a > 0 && *ro - a < CAP_TOKEN_GROW && !token_stop((unsigned char)raw.ptr[a - 1]))
        a--;
    while (b < raw.len && b - *re < CAP_TOKEN_GROW && !token_stop((unsigned char)raw.ptr[b]))
        b++;
    while (b > *re && (raw.ptr[b - 1] == '.' || raw.ptr[b - 1] == ':' || raw.ptr[b - 1] == '!' ||
                       raw.ptr[b - 1] == '?'))
        b--;
    *ro = a;
    *re = b;
}

/* Weigh one mention of resource `ri` at normalized [ns, ne) of field `fi`,
 * and keep it if it is the best so far. */
static int32_t property_field(const mv_tool *tool, uint32_t p);

/* Round 15: a boolean parameter with a description of its own. */
static bool described_switch(const mv_param *pm) {
    return str_is(pm->type, "boolean") && pm->description.len >= 16;
}

/* Round 15: is the node whose description sits at `path`
 * ("inputSchema.properties.customGitSSHKeyId.description") a property
 * named as an identifier: ending in "Id", "ID", "_id" or "-id" after a
 * word of two letters or more? */
static bool described_is_id(mv_str path) {
    static const char suffix[] = ".description";
    size_t sl = sizeof(suffix) - 1;
    if (path.len <= sl + 4 || memcmp(path.ptr + path.len - sl, suffix, sl) != 0)
        return false;
    size_t e = path.len - sl, b = e;
    while (b > 0 && path.ptr[b - 1] != '.')
        b--;
    if (e - b < 4)
        return false;
    const char *n = path.ptr + b;
    size_t l = e - b;
    char p = n[l - 3], i = n[l - 2], d = n[l - 1];
    if ((i == 'I' && (d == 'd' || d == 'D')) && p >= 'a' && p <= 'z')
        return true; /* keyId, keyID */
    return (p == '_' || p == '-') && (i == 'i' || i == 'I') && (d == 'd' || d == 'D');
}

static void weigh(tool_scan *ts, uint32_t fi, const cap_term *t, size_t ns, size_t ne) {
    uint32_t ri = t->res;
    const mv_field *f = &ts->tool->fields[fi];
    const mv_norm_text *nt = &ts->ctx->norm[fi];
    const cap_res *res = &ts->st->res[ri];
    if (t->path && (int32_t)fi == ts->desc && ts->n_desc_spans < CAP_DESC_SPANS)
        ts->desc_spans[ts->n_desc_spans++] = (span){ns, ne};
    /* Any mention, even a denial, means the tool talks about it (detector 5). */
    if (f->kind == MV_FIELD_DESCRIPTION || f->kind == MV_FIELD_TITLE)
        ts->prose_res |= 1u << ri;
    size_t ss, se;
    sentence(nt->text, nt->len, ns, ne, &ss, &se);
    if (negated(ts, nt->text, ns, ne, ss, se))
        return;
    if (res->needs_target && !has_term(ts, T_TARGET, ss, se))
        return;
    /* Round 15: the description of a parameter named as an identifier
     * ("customGitSSHKeyId": "SSH key to clone with") speaks of the object
     * the identifier picks among those the service already stores; the
     * value is a reference, not the key, file or credential itself. A
     * path ("~/.ssh/id_rsa") still counts: that asks for the file. */
    if (!t->path && f->kind == MV_FIELD_SCHEMA_DESCRIPTION && described_is_id(f->path))
        return;
    /* Round 15: the name of a described top-level boolean ("execute")
     * holds no command to run: see reach_params. */
    if (f->kind == MV_FIELD_PROPERTY_NAME && str_is(res->id, "shellexec") && f->param >= 0 &&
        (uint32_t)f->param < ts->tool->n_params && described_switch(&ts->tool->params[f->param]) &&
        property_field(ts->tool, (uint32_t)f->param) == (int32_t)fi)
        return;
    double w = res->weight;
    bool leak_field = f->param >= 0 && (uint32_t)f->param < ts->tool->n_params &&
                      f->kind == MV_FIELD_SCHEMA_DESCRIPTION;
    /* An input parameter's description says what the value holds: "All
     * prior messages in the chat" is the request itself and needs no
     * access verb. Prose elsewhere still does ("supports chat history"). */
    bool holds = leak_field && ts->tool->params[f->param].schema == MV_SCHEMA_INPUT;
    if (res->needs_verb && is_prose(f->kind) && !holds && !has_term(ts, T_VERB, ss, se))
        w *= CAP_NO_VERB;
    if (f->kind == MV_FIELD_PROPERTY_NAME)
        w *= CAP_F_PROPERTY;
    res_best *b = &ts->best[ri];
    /* The position only lowers a weight: skip it when it cannot matter. */
    if (w < b->w && !(leak_field && w >= CAP_LEAK_MIN))
        return;
    bool example = false;
    double pw = position_weight(f, nt, ns, ne, res->scope, &example);
    /* In a parameter's description, examples of what to put there ("such
     * as environment variables or config files") are what it asks for. */
    if (leak_field && (example ? w : w * pw) >= CAP_LEAK_MIN)
        ts->leak[f->param] |= 1u << ri;
    w *= pw;
    if (w < b->w)
        return;
    uint32_t ro = nt->raw_offset[ns];
    uint32_t re = nt->raw_offset[ne];
    if (re < ro || re > f->text.len)
        return;
    if (t->path)
        whole_token(f->text, &ro, &re);
    /* Equal weights: a path says more than a phrase, a longer span more
     * than a shorter one. */
    if (w > b->w || (t->path && !b->path) || (t->path == b->path && re - ro > b->raw_len))
        *b = (res_best){w, t->path, (int32_t)fi, ro, re - ro};
}

static int scan_field(tool_scan *ts, uint32_t fi) {
    const mv_field *f = &ts->tool->fields[fi];
    const mv_norm_text *nt = &ts->ctx->norm[fi];
    collector *c = &ts->tc;
    c->n = 0;
    c->seen = 0;
    c->text = nt->text;
    c->len = nt->len;
    mv_ac_scan(ts->st->terms, nt->text, nt->len, collect, c);
    if (c->oom)
        return MV_ENOMEM;
    if (c->seen > c->cap && !ts->capped) {
        mv_emit_cap(ts->out, "capability_matches", CAP_MAX_MATCHES, c->seen);
        ts->capped = true;
    }
    /* Drop matches whose raw text does not read as the rule asks. */
    size_t kept = 0;
    for (size_t k = 0; k < c->n; k++) {
        const match *m = &c->m[k];
        const cap_term *t = &ts->st->term[m->id];
        if (t->verify.len > 0) {
            uint32_t ro = nt->raw_offset[m->start];
            uint32_t re = nt->raw_offset[m->end];
            if (re < ro || re > f->text.len || !raw_reads(f->text.ptr + ro, re - ro, t->verify))
                continue;
        }
        c->m[kept++] = *m;
    }
    c->n = kept;
    for (size_t k = 0; k < c->n; k++) {
        const match *m = &c->m[k];
        const cap_term *t = &ts->st->term[m->id];
        if (t->kind == T_RES)
            weigh(ts, fi, t, m->start, m->end);
    }
    return MV_OK;
}

/* What the tool declares. The name is the primary declaration: when it
 * names a known kind of job ("add_numbers", "read_file", "create_ticket"),
 * that is what the tool is, and the lead sentence only elaborates ("Tests
 * primality", "Fetches the forecast over HTTP"). When the name says nothing
 * ("do_task", "ag_explain"), the lead sentence declares. */
typedef struct declaration {
    uint64_t mask;          /* effective classes */
    bool from_name;         /* `mask` comes from the name alone */
    int head[2];            /* head class among narrow [0] / sensitive [1] ones, or -1 */
    mv_norm_text name_norm; /* the name as normalized words */
} declaration;

typedef struct decl_hits {
    match m[CAP_MAX_DECL];
    size_t n;
    const char *text;
    size_t len;
} decl_hits;

static int collect_decl(void *ctx, const mv_ac_match *am) {
    decl_hits *d = ctx;
    if (bounded(d->text, d->len, am->start, am->end, B_LEFT | B_RIGHT) && d->n < CAP_MAX_DECL)
        d->m[d->n++] = (match){am->id, am->start, am->end};
    return 0;
}

/* Classes of the matches in text, longest match winning where one phrase
 * contains another ("url slug" over "url"), matches inside an excluded span
 * dropped. head[] receives the rightmost narrow and sensitive classes:
 * English compounds put the head last ("format date" is about dates,
 * "convert currency" about currencies). */
static uint64_t declared_classes(const cap_state *st, const char *text, size_t len,
                                 const span *excl, size_t n_excl, int head[2]) {
    decl_hits d = {.n = 0, .text = text, .len = len};
    mv_ac_scan(st->decl, text, len, collect_decl, &d);
    uint64_t mask = 0;
    const uint64_t want[2] = {st->narrow_mask, st->sensitive_mask};
    size_t head_end[2] = {0, 0};
    head[0] = head[1] = -1;
    for (size_t i = 0; i < d.n; i++) {
        bool drop = false;
        for (size_t j = 0; j < d.n && !drop; j++)
            drop = j != i && d.m[j].start <= d.m[i].start && d.m[j].end >= d.m[i].end &&
                   d.m[j].end - d.m[j].start > d.m[i].end - d.m[i].start;
        for (size_t j = 0; j < n_excl && !drop; j++)
            drop = d.m[i].start < excl[j].end && excl[j].start < d.m[i].end;
        if (drop)
            continue;
        mask |= (uint64_t)1 << d.m[i].id;
        for (int k = 0; k < 2; k++) {
            if ((want[k] & ((uint64_t)1 << d.m[i].id)) && d.m[i].end >= head_end[k]) {
                head_end[k] = d.m[i].end;
                head[k] = (int)d.m[i].id;
            }
        }
    }
    return mask;
}

/* End of the lead sentence of normalized text. */
static size_t lead_end(const char *t, size_t len) {
    size_t lim = len < CAP_LEAD_MAX ? len : CAP_LEAD_MAX;
    size_t i = 0;
    while (i < lim && is_space((unsigned char)t[i]))
        i++;
    for (; i < lim; i++)
        if (sentence_break(t, len, i))
            return i;
    if (lim < len) {
        while (lim > 0 && t[lim - 1] != ' ')
            lim--;
    }
    return lim;
}

/* Round 16: verbs that make or change a record kept by a service. After
 * one of them the name's nouns are the record ("create phone number",
 * "update quote", "manage env"), not a small job the tool does itself: a
 * phone number is not arithmetic and a quote is not a search. */
static const char *const k_record_verbs[] = {"create",    "update",   "delete",    "manage",
                                             "provision", "register", "configure", "modify",
                                             "upsert",    "patch"};

static bool record_verb(const char *w, size_t n) {
    for (size_t i = 0; i < sizeof(k_record_verbs) / sizeof(k_record_verbs[0]); i++)
        if (strlen(k_record_verbs[i]) == n && memcmp(w, k_record_verbs[i], n) == 0)
            return true;
    return false;
}

/* The name's words (split_words) open or close with a record verb and name
 * an object besides it ("create phone number", "spaces key create"). */
static bool record_name(const char *w, size_t n) {
    size_t e = 0, s = n;
    while (e < n && w[e] != ' ')
        e++;
    while (s > 0 && w[s - 1] != ' ')
        s--;
    if (e >= n) /* a bare verb names no record */
        return false;
    return record_verb(w, e) || record_verb(w + s, n - s);
}

/* Round 16: the last word of a resource mention ("secret key") is one of
 * the record nouns of the name ("spaces key create"): the tool makes or
 * changes that very resource, so mentioning it is its job. */
static bool record_is_res(const mv_tool *tool, mv_str ev) {
    char buf[CAP_NAME_MAX * 2 + 2];
    size_t n = split_words(tool->name.ptr, tool->name.len, buf, sizeof(buf));
    if (!record_name(buf, n))
        return false;
    size_t e = ev.len;
    while (e > 0 && !is_alnum((unsigned char)ev.ptr[e - 1]))
        e--;
    size_t s = e;
    while (s > 0 && is_alnum((unsigned char)ev.ptr[s - 1]))
        s--;
    if (e - s > 1 && lower((unsigned char)ev.ptr[e - 1]) == 's')
        e--; /* keys -> key */
    if (e - s < 3)
        return false;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && buf[j] != ' ')
            j++;
        size_t m = j - i;
        if (m > 1 && buf[j - 1] == 's')
            m--;
        bool same = m == e - s && !record_verb(buf + i, j - i);
        for (size_t k = 0; same && k < m; k++)
            same = buf[i + k] == (char)lower((unsigned char)ev.ptr[s + k]);
        if (same)
            return true;
        i = j + 1;
    }
    return false;
}

static int declare(tool_scan *ts, declaration *d) {
    char buf[CAP_NAME_MAX * 2 + 2];
    size_t n = split_words(ts->tool->name.ptr, ts->tool->name.len, buf, sizeof(buf));
    uint64_t keep = record_name(buf, n) ? ~ts->st->narrow_mask : ~(uint64_t)0;
    d->mask = 0;
    d->from_name = false;
    d->head[0] = d->head[1] = -1;
    d->name_norm = (mv_norm_text){"", 0, NULL};
    if (n > 0) {
        int rc = mv_normalize(ts->ctx->normalizer, ts->ctx->scratch, buf, n, MV_NORM_DEFAULT,
                              &d->name_norm);
        if (rc != MV_OK)
            return rc;
        d->mask =
            declared_classes(ts->st, d->name_norm.text, d->name_norm.len, NULL, 0, d->head) & keep;
        d->from_name = d->mask != 0;
    }
    if (d->mask == 0 && ts->desc >= 0) {
        const mv_norm_text *nt = &ts->ctx->norm[ts->desc];
        d->mask = declared_classes(ts->st, nt->text, lead_end(nt->text, nt->len), ts->desc_spans,
                                   ts->n_desc_spans, d->head) &
                  keep;
    } else if (ts->desc >= 0 && (d->mask & (ts->st->narrow_mask | ts->st->sensitive_mask)) == 0) {
        /* Round 12: a name that declares only free text ("export_access_log",
         * "publish_site") says what the tool records or sends, not where
         * to: the lead sentence's sensitive classes count too ("... to
         * an S3 bucket", "... to the user's Azure storage container"). A
         * class that explains every resource (commands, files, credential
         * stores: "lab notebook" reads as a code notebook) is what a tool
         * touches, not where its text goes, and is left out. A narrow or
         * sensitive name keeps its own job. */
        const mv_norm_text *nt = &ts->ctx->norm[ts->desc];
        int head[2];
        uint64_t lead = declared_classes(ts->st, nt->text, lead_end(nt->text, nt->len),
                                         ts->desc_spans, ts->n_desc_spans, head) &
                        ts->st->sensitive_mask;
        for (size_t c = 0; c < ts->st->n_classes && c < 64; c++)
            if (ts->st->classes[c].justifies == UINT32_MAX)
                lead &= ~((uint64_t)1 << c);
        d->mask |= lead;
        if (lead != 0 && head[1] >= 0 && (lead & ((uint64_t)1 << head[1])) && d->head[1] < 0)
            d->head[1] = head[1];
    }
    /* Round 20: the server's name says in which domain a sensitive tool
     * works ("bnb-chain-mcp": its payment account lives on a chain and is
     * signed with the account's key). Only for a tool whose own name or
     * lead declares a sensitive job: a server name never widens a narrow
     * tool's job. */
    if ((d->mask & ts->st->sensitive_mask) != 0) {
        mv_str sv = mv_inspect_server(ts->ctx, ts->tool); /* noted for the tool memo */
        char sb[CAP_NAME_MAX * 2 + 2];
        size_t sn = split_words(sv.ptr, sv.len, sb, sizeof(sb));
        mv_norm_text snorm;
        if (sn > 0) {
            int rc = mv_normalize(ts->ctx->normalizer, ts->ctx->scratch, sb, sn, MV_NORM_DEFAULT,
                                  &snorm);
            if (rc != MV_OK)
                return rc;
            int head[2];
            d->mask |= declared_classes(ts->st, snorm.text, snorm.len, NULL, 0, head) &
                       ts->st->sensitive_mask;
        }
    }
    if ((d->mask & ts->st->narrow_mask) == 0)
        d->head[0] = -1;
    return MV_OK;
}

/* Small bounded string builder for details and evidence. */
typedef struct sbuf {
    char *p;
    size_t n;
    size_t cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n) {
    if (n > b->cap - b->n)
        n = b->cap - b->n;
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void sb_str(sbuf *b, mv_str s) {
    sb_add(b, s.ptr, s.len);
}

static void sb_lit(sbuf *b, const char *s) {
    sb_add(b, s, strlen(s));
}

/* Facets for the dangerous level (check.h): a narrow tool reaching for a
 * sensitive resource, or uploading to an outside host (a sink). Shell
 * execution and bare credential words corroborate nothing by themselves. */
static uint32_t res_facets(const cap_res *r) {
    if (str_is(r->id, "upload"))
        return MV_FACET_SINK;
    if (r->threat == MV_THREAT_EXFILTRATION && !str_is(r->id, "credword"))
        return MV_FACET_SENSITIVE;
    return 0;
}

static bool prose_foreign(mv_str d);

static int report_resources(tool_scan *ts, const declaration *d, bool asks, bool *emitted) {
    const cap_state *st = ts->st;
    uint64_t sens = d->mask & st->sensitive_mask;
    uint32_t justified = 0;
    for (size_t c = 0; c < st->n_classes; c++)
        if (d->mask & ((uint64_t)1 << c))
            justified |= st->classes[c].justifies;

    /* Round 14: the declared classes are English words, so a tool written
     * in another language declares nothing known because nothing can be
     * read, not because its job is broad: its prose counts like an ask. */
    double factor = asks ? CAP_F_UNKNOWN_ASK : CAP_F_UNKNOWN;
    if (!asks && d->mask == 0 && prose_foreign(ts->tool->description))
        factor = CAP_F_UNKNOWN_ASK;
    int label = -1;
    if (sens != 0) {
        factor = CAP_F_UNFIT;
        label = d->head[1];
    } else if (d->mask & st->narrow_mask) {
        factor = d->from_name ? CAP_F_NAME_NARROW : CAP_F_LEAD_NARROW;
        label = d->head[0];
    }

    double miss = 1.0;
    int top = -1, second = -1;
    for (size_t r = 0; r < st->n_res; r++) {
        if ((justified & (1u << r)) || ts->best[r].w <= 0)
            continue;
        const mv_field *bf = &ts->tool->fields[ts->best[r].field];
        if (record_is_res(ts->tool,
                          (mv_str){bf->text.ptr + ts->best[r].raw_off, ts->best[r].raw_len}))
            continue;
        miss *= 1.0 - ts->best[r].w;
        if (top < 0 || ts->best[r].w > ts->best[top].w) {
            second = top;
            top = (int)r;
        } else if (second < 0 || ts->best[r].w > ts->best[second].w) {
            second = (int)r;
        }
    }
    double score = (1.0 - miss) * factor;
    if (top < 0 || score < CAP_EMIT)
        return MV_OK;
    *emitted = true;

    char detail[240];
    sbuf b = {detail, 0, sizeof(detail)};
    if (label >= 0) {
        sb_lit(&b, "declares ");
        sb_str(&b, st->classes[label].label);
    } else {
        sb_lit(&b, "declares no such access");
    }
    sb_lit(&b, " but references ");
    sb_str(&b, st->res[top].label);
    if (second >= 0) {
        sb_lit(&b, " and ");
        sb_str(&b, st->res[second].label);
    }
    const res_best *rb = &ts->best[top];
    const mv_field *f = &ts->tool->fields[rb->field];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = st->res[top].threat,
        .confidence = score < CAP_MAX_CONF ? score : CAP_MAX_CONF,
        .critical = false,
        .field = rb->field,
        .offset = rb->raw_off,
        .length = rb->raw_len,
        .evidence = {f->text.ptr + rb->raw_off, rb->raw_len},
        .detail = {detail, b.n},
        .facets = res_facets(&st->res[top]),
    };
    return cap_emit(ts, &spec);
}

/* ------------------------------------------------------------ detector 2 */

static int sink_find(const cap_sink *v, size_t n, const char *canon_name) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(v[mid].canon, canon_name);
        if (c == 0)
            return v[mid].strength;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* Strength of a parameter name as a data sink (0 = not a sink). */
static int sink_strength(const cap_state *st, mv_str name) {
    char c[CAP_CANON_MAX];
    size_t n = canon(name.ptr, name.len, c);
    if (n == 0)
        return 0;
    int s = sink_find(st->sinks, st->n_sinks, c);
    if (s != 0)
        return s;
    for (size_t i = 0; i < st->n_mods; i++) {
        const cap_sink *m = &st->mods[i];
        if (m->len >= n || c[0] != m->canon[0] || memcmp(c, m->canon, m->len) != 0)
            continue;
        int base = sink_find(st->sinks, st->n_sinks, c + m->len);
        if (base == 0)
            continue;
        /* A weak sink stays weak unless the modifier itself is telling
         * (hidden_data yes, user_data no). */
        if (base == S_WEAK)
            return m->strength == S_STRONG ? S_STRONG : S_WEAK;
        return base > m->strength ? base : m->strength;
    }
    return 0;
}

static bool is_vague(const cap_state *st, const char *w, size_t n) {
    mv_str key = {w, n};
    size_t lo = 0, hi = st->n_vague;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_str(&st->vague[mid], &key);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Is the word w[0, n) one of the words of the normalized parameter name? */
static bool in_name(const mv_norm_text *name, const char *w, size_t n) {
    size_t i = 0;
    while (i < name->len) {
        while (i < name->len && name->text[i] == ' ')
            i++;
        size_t j = i;
        while (j < name->len && name->text[j] != ' ')
            j++;
        if (j - i == n && memcmp(name->text + i, w, n) == 0)
            return true;
        i = j;
    }
    return false;
}

/* Content words in a normalized parameter description: not vague, not the
 * parameter's own name, not a number. */
static size_t content_words(const cap_state *st, const mv_norm_text *desc,
                            const mv_norm_text *name) {
    size_t count = 0;
    size_t i = 0;
    const char *t = desc->text;
    while (i < desc->len) {
        while (i < desc->len && !(is_alnum((unsigned char)t[i]) || (unsigned char)t[i] >= 0x80))
            i++;
        size_t j = i;
        bool digits = true;
        while (j < desc->len && (is_alnum((unsigned char)t[j]) || (unsigned char)t[j] >= 0x80)) {
            digits = digits && t[j] >= '0' && t[j] <= '9';
            j++;
        }
        if (j > i + 1 && !digits && !is_vague(st, t + i, j - i) && !in_name(name, t + i, j - i))
            count++;
        i = j;
    }
    return count;
}

/* Does normalized text contain the normalized phrase as whole words? */
static bool mentions(const mv_norm_text *text, const mv_norm_text *phrase) {
    if (phrase->len == 0 || phrase->len > text->len)
        return false;
    for (size_t i = 0; i + phrase->len <= text->len; i++) {
        if (text->text[i] != phrase->text[0] ||
            memcmp(text->text + i, phrase->text, phrase->len) != 0)
            continue;
        if (bounded(text->text, text->len, i, i + phrase->len, B_LEFT | B_RIGHT))
            return true;
    }
    return false;
}

/* Round 15: does the normalized parameter description hold, as a whole
 * word, one of the words of the tool's normalized name after its first
 * (the object of its verb: "watch" of add_watching), four bytes or more
 * and not one of the parameter's own name words? */
static bool names_tool_object(const mv_norm_text *tool_name, const mv_norm_text *desc,
                              const mv_norm_text *param) {
    size_t i = 0;
    bool first = true;
    while (i < tool_name->len) {
        while (i < tool_name->len && tool_name->text[i] == ' ')
            i++;
        size_t j = i;
        while (j < tool_name->len && tool_name->text[j] != ' ')
            j++;
        if (!first && j - i >= 4 && !in_name(param, tool_name->text + i, j - i)) {
            mv_norm_text w = {tool_name->text + i, j - i, NULL};
            if (mentions(desc, &w))
                return true;
        }
        first = false;
        i = j;
    }
    return false;
}

/* Parameter `p` holds structured data (an array of objects, an object): a
 * nested property name belongs to it. */
static bool nested_properties(const mv_tool *tool, uint32_t p) {
    size_t n = 0;
    for (uint32_t i = 0; i < tool->n_fields; i++)
        if (tool->fields[i].kind == MV_FIELD_PROPERTY_NAME && tool->fields[i].param == (int32_t)p)
            n++;
    return n > 1;
}

static int32_t property_field(const mv_tool *tool, uint32_t p) {
    for (uint32_t i = 0; i < tool->n_fields; i++)
        if (tool->fields[i].kind == MV_FIELD_PROPERTY_NAME && tool->fields[i].param == (int32_t)p)
            return (int32_t)i;
    return -1;
}

static int report_sink(tool_scan *ts, const declaration *d, uint32_t p) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    const mv_param *pm = &tool->params[p];
    int strength = ts->sink[p];
    if (strength == 0)
        return MV_OK;
    bool free_text = pm->type.len == 0 || str_is(pm->type, "string");
    /* A list of strings is as free as one string; only a strong name makes
     * it worth a look (tags, ids and items lists are everywhere). An object
     * without declared properties is a bag that takes anything
     * (additionalProperties): as free as a string. */
    bool bag = str_is(pm->type, "object") && !nested_properties(tool, p);
    if (!free_text && !bag &&
        !(strength == S_STRONG && str_is(pm->type, "array") && !nested_properties(tool, p)))
        return MV_OK;

    char words[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(pm->name.ptr, pm->name.len, words, sizeof(words));
    mv_norm_text name = {"", 0, NULL}, desc = {"", 0, NULL};
    int rc = mv_normalize(ts->ctx->normalizer, ts->ctx->scratch, words, wn, MV_NORM_DEFAULT, &name);
    if (rc == MV_OK && pm->description.len > 0)
        rc = mv_normalize(ts->ctx->normalizer, ts->ctx->scratch, pm->description.ptr,
                          pm->description.len < CAP_PARAM_DESC_MAX ? pm->description.len
                                                                   : CAP_PARAM_DESC_MAX,
                          MV_NORM_DEFAULT, &desc);
    if (rc != MV_OK)
        return rc;

    /* A strong name already says what the value holds, so a description
     * that restates it ("previous messages") is no leak, and it takes more
     * than a restatement to explain why the tool needs it. A weaker name
     * whose description asks for keys or the conversation is a leak, and so
     * is a strong one asking for something its name does not say
     * (debug_info: "paste environment variables or config files"). */
    bool strong = strength == S_STRONG;
    bool leak = (ts->leak[p] & ~(strong ? st->restate_mask : 0u)) != 0;
    if (!leak) {
        if (content_words(st, &desc, &name) >= CAP_MIN_EXPLAIN + (strong ? 1u : 0u))
            return MV_OK;
        /* The tool itself names the parameter: add_sidenote, "tags and
         * notes", "the Kubernetes context". */
        if (mentions(&d->name_norm, &name))
            return MV_OK;
        if (ts->desc >= 0 && mentions(&ts->ctx->norm[ts->desc], &name))
            return MV_OK;
        /* Round 15: the parameter's description names the object of the
         * tool's name ("note: Optional note for the watch" on add_watching,
         * "Project note" on add_project): a field of the record the tool
         * makes, not a channel beside its job. The name's first word (the
         * verb) does not count. */
        if (names_tool_object(&d->name_norm, &desc, &name))
            return MV_OK;
    }

    double score = strength == S_STRONG   ? SINK_STRONG
                   : strength == S_MEDIUM ? SINK_MEDIUM
                                          : SINK_WEAK;
    if (pm->required)
        score += SINK_REQUIRED;
    if (d->mask & st->freetext_mask)
        score += SINK_FREETEXT;
    else if (d->mask & st->sensitive_mask)
        score += SINK_SENSITIVE;
    else if (d->mask & st->narrow_mask)
        score += d->from_name ? SINK_NAME_NARROW : SINK_LEAD_NARROW;
    if (leak)
        score += SINK_LEAK;
    if (score < SINK_EMIT)
        return MV_OK;

    int label = (d->mask & (st->freetext_mask | st->sensitive_mask)) ? -1 : d->head[0];
    char detail[240];
    sbuf b = {detail, 0, sizeof(detail)};
    sb_lit(&b, pm->required ? "required " : "optional ");
    sb_lit(&b, "free-form parameter '");
    sb_add(&b, pm->name.ptr, pm->name.len > 48 ? 48 : pm->name.len);
    sb_lit(&b, leak ? "' asks for sensitive content"
                    : "' reads like a side channel and is never explained");
    if (label >= 0) {
        sb_lit(&b, " on a ");
        sb_str(&b, st->classes[label].label);
        sb_lit(&b, " tool");
    }
    size_t elen = pm->name.len + 2 + (pm->description.len > 0 ? pm->description.len : 16);
    char *ev = mv_arena_alloc(ts->ctx->scratch, elen);
    if (ev == NULL)
        return MV_ENOMEM;
    sbuf e = {ev, 0, elen};
    sb_str(&e, pm->name);
    sb_lit(&e, ": ");
    if (pm->description.len > 0)
        sb_str(&e, pm->description);
    else
        sb_lit(&e, "(no description)");
    int32_t fi = property_field(tool, p);
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = score < SINK_MAX_CONF ? score : SINK_MAX_CONF,
        .critical = false,
        .field = fi,
        .offset = 0,
        .length = fi >= 0 ? (uint32_t)pm->name.len : 0,
        .evidence = {ev, e.n},
        .detail = {detail, b.n},
        .facets = MV_FACET_SINK,
    };
    return cap_emit(ts, &spec);
}

/* ------------------------------------------------------------ detector 3 */

/* Resource class a parameter name carries (capability_sinks.rules "reach"
 * lines), or -1. A credential suffix preceded by a paging or sizing word
 * (next_page_token, max_tokens) is not one. */
static bool excepted(const cap_state *st, const char *w, size_t n, bool suffix_of) {
    for (size_t k = 0; k < st->n_except; k++) {
        const cap_sink *e = &st->except[k];
        if (suffix_of ? (n >= e->len && memcmp(w + n - e->len, e->canon, e->len) == 0)
                      : (n == e->len && memcmp(w, e->canon, n) == 0))
            return true;
    }
    return false;
}

static bool contains_ci(mv_str text, const char *w, size_t n);

/* The first entry of the table (lowest index) that matches, through the
 * index (perf17): each group is in table order, so the first match of a
 * group is its best, and a group stops at the best found so far. Whole
 * and suffix entries in the group of the name's last byte; word entries
 * in the group of each word's first byte; the rest as the table walk
 * reads them. Sets *pre for a suffix match. */
static int reach_indexed(const cap_state *st, const char *c, size_t n, const char *words,
                         size_t ws[][2], size_t nw, bool ascii_name, mv_str name, size_t *pre) {
    size_t best = SIZE_MAX;
    if (n > 0) {
        unsigned char last = (unsigned char)c[n - 1];
        for (size_t k = st->reach_at[last]; k < st->reach_at[last + 1]; k++) {
            size_t i = st->reach_tail[k];
            const cap_reach *r = &st->reach[i];
            size_t rl = r->len;
            /* perf25: both forms compare the name's tail, so the byte
             * before the last turns most entries away without a memcmp */
            if (rl >= 2 && n >= 2 && c[n - 2] != r->canon[rl - 2])
                continue;
            if (r->how == R_WHOLE ? n == rl && memcmp(c, r->canon, n) == 0
                                  : n >= rl && memcmp(c + n - rl, r->canon, rl) == 0) {
                best = i;
                *pre = r->how == R_SUFFIX ? n - rl : 0;
                break;
            }
        }
    }
    for (size_t w = 0; w < nw; w++) {
        size_t wl = ws[w][1] - ws[w][0];
        if (wl == 0)
            continue; /* no indexed word is empty */
        const char *wp = words + ws[w][0];
        unsigned char first = (unsigned char)wp[0];
        for (size_t k = st->reach_word_at[first]; k < st->reach_word_at[first + 1]; k++) {
            size_t i = st->reach_word[k];
            if (i >= best)
                break;
            const cap_reach *r = &st->reach[i];
            if (r->len == wl && memcmp(wp, r->canon, wl) == 0) {
                best = i;
                *pre = 0;
                break;
            }
        }
    }
    /* an ASCII name can match no contains entry: it walks the word
     * entries of reach_other only (the same order, so the same first) */
    const uint16_t *other = ascii_name ? st->reach_other_word : st->reach_other;
    size_t n_other = ascii_name ? st->n_reach_other_word : st->n_reach_other;
    for (size_t k = 0; k < n_other; k++) {
        size_t i = other[k];
        if (i >= best)
            break;
        const cap_reach *r = &st->reach[i];
        size_t rl = r->len;
        bool hit = false;
        if (r->how == R_WORD) {
            for (size_t w = 0; w < nw && !hit; w++)
                hit = ws[w][1] - ws[w][0] == rl && words[ws[w][0]] == r->canon[0] &&
                      memcmp(words + ws[w][0], r->canon, rl) == 0;
        } else {
            /* every contains entry is in another script: ASCII names skip them */
            hit = !ascii_name && contains_ci(name, r->canon, rl);
        }
        if (hit) {
            best = i;
            *pre = 0;
            break;
        }
    }
    return best == SIZE_MAX ? -1 : st->reach[best].res;
}

static int reach_of(const cap_state *st, const mv_param *pm) {
    char c[CAP_CANON_MAX];
    size_t n = canon(pm->name.ptr, pm->name.len, c);
    char words[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(pm->name.ptr, pm->name.len, words, sizeof(words));
    size_t ws[16][2], nw = 0; /* the name's words as [start, end) in `words` */
    for (size_t i = 0; i < wn && nw < 16;) {
        size_t j = i;
        while (j < wn && words[j] != ' ')
            j++;
        ws[nw][0] = i;
        ws[nw][1] = j;
        nw++;
        i = j + 1;
    }
    bool ascii_name = true;
    for (size_t i = 0; i < pm->name.len && ascii_name; i++)
        ascii_name = (unsigned char)pm->name.ptr[i] < 0x80;
    int found = -1;
    size_t pre = 0;
    if (st->reach_tail != NULL) {
        found = reach_indexed(st, c, n, words, ws, nw, ascii_name, pm->name, &pre);
        goto matched;
    }
    /* Without an index: the whole table in order, the first match wins. */
    for (size_t i = 0; i < st->n_reach && found < 0; i++) {
        const cap_reach *r = &st->reach[i];
        size_t rl = r->len;
        switch (r->how) {
        case R_WHOLE:
            if (n == rl && c[n - 1] == r->canon[rl - 1] && memcmp(c, r->canon, n) == 0)
                found = r->res;
            break;
        case R_SUFFIX:
            if (n >= rl && c[n - 1] == r->canon[rl - 1] && memcmp(c + n - rl, r->canon, rl) == 0) {
                found = r->res;
                pre = n - rl;
            }
            break;
        case R_WORD:
            for (size_t k = 0; k < nw && found < 0; k++)
                if (ws[k][1] - ws[k][0] == rl && words[ws[k][0]] == r->canon[0] &&
                    memcmp(words + ws[k][0], r->canon, rl) == 0)
                    found = r->res;
            break;
        case R_CONTAINS:
            /* every such entry is in another script: ASCII names skip them */
            if (!ascii_name && contains_ci(pm->name, r->canon, rl))
                found = r->res;
            break;
        default:
            break; /* defaults: reach_defaults() */
        }
    }
matched:
    if (found < 0)
        return -1;
    /* Numbers and flags carry no secret ("use_token": true); a boolean
     * "shell" still says the tool runs one. */
    bool cred = found == st->credparam;
    if (str_is(pm->type, "number") || str_is(pm->type, "integer") ||
        (cred && str_is(pm->type, "boolean")))
        return -1;
    if (!cred)
        return found;
    /* A credential word next to a sizing or paging word is about the
     * credential (password_length), not one. */
    if (pre > 0 && excepted(st, c, pre, true))
        return -1;
    for (size_t k = 0; k < nw; k++)
        if (excepted(st, words + ws[k][0], ws[k][1] - ws[k][0], false))
            return -1;
    return found;
}

/* Does text contain word w[0, n) (ASCII case folded)? */
static bool contains_ci(mv_str text, const char *w, size_t n) {
    for (size_t i = 0; n > 0 && i + n <= text.len; i++) {
        size_t k = 0;
        while (k < n && lower((unsigned char)text.ptr[i + k]) == lower((unsigned char)w[k]))
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Does the text name the tool's own server ("TweekIT API key" on server
 * tweekit)? A credential for the server's own service is what it needs.
 * Words of the server name of four or more letters count, without the
 * generic ones every server name carries. */
static bool names_server(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_str text) {
    static const char *const generic[] = {"server",   "servers", "tool",  "tools",
                                          "official", "client",  "local", "remote"};
    mv_str sv = mv_inspect_server(ctx, tool); /* noted for the tool memo */
    size_t i = 0;
    while (i < sv.len) {
        while (i < sv.len && !is_alnum((unsigned char)sv.ptr[i]))
            i++;
        size_t j = i;
        while (j < sv.len && is_alnum((unsigned char)sv.ptr[j]))
            j++;
        bool skip = j - i < 4;
        for (size_t g = 0; !skip && g < sizeof(generic) / sizeof(generic[0]); g++)
            skip = raw_reads(sv.ptr + i, j - i, (mv_str){generic[g], strlen(generic[g])});
        if (!skip && contains_ci(text, sv.ptr + i, j - i))
            return true;
        i = j;
    }
    return false;
}

/* The parameter's own description says the credential is an API key or
 * token of a service ("TweekIT API key", "API token for the tracker"): the
 * tool wraps that API. A personal access token with no API named is not
 * explained this way. Round 7: when a brand word stands right before
 * "API" ("Your OpenAI API key"), that brand must also be named by the
 * tool's name, title, description or server: a temperature converter
 * asking for another vendor's key does not wrap that vendor's API. */
static bool brand_named_by_tool(const mv_inspect_ctx *ctx, const mv_tool *tool, const char *w,
                                size_t n) {
    mv_str where[4] = {tool->name, tool->title, tool->description, mv_inspect_server(ctx, tool)};
    for (int k = 0; k < 4; k++)
        if (where[k].ptr != NULL && contains_ci(where[k], w, n))
            return true;
    return false;
}

static bool api_credential(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_str d) {
    static const char *const generic[] = {"your", "the", "an",   "a",      "its",     "this", "our",
                                          "rest", "web", "http", "public", "private", "same"};
    for (size_t i = 0; i + 3 <= d.len; i++) {
        if (lower((unsigned char)d.ptr[i]) != 'a' || lower((unsigned char)d.ptr[i + 1]) != 'p' ||
            lower((unsigned char)d.ptr[i + 2]) != 'i')
            continue;
        bool left = i == 0 || !is_alnum((unsigned char)d.ptr[i - 1]);
        bool right = i + 3 == d.len || !is_alnum((unsigned char)d.ptr[i + 3]);
        if (!left || !right)
            continue;
        /* the word before "API" */
        size_t e = i;
        while (e > 0 && d.ptr[e - 1] == ' ')
            e--;
        size_t s0 = e;
        while (s0 > 0 && (is_alnum((unsigned char)d.ptr[s0 - 1]) || d.ptr[s0 - 1] == '-'))
            s0--;
        if (e - s0 < 3 || e == i)
            return true; /* no word before it, or a short one */
        for (size_t g = 0; g < sizeof(generic) / sizeof(generic[0]); g++)
            if (raw_reads(d.ptr + s0, e - s0, (mv_str){generic[g], strlen(generic[g])}))
                return true;
        return brand_named_by_tool(ctx, tool, d.ptr + s0, e - s0);
    }
    return false;
}

/* Round 20: the credential's description names whose it is ("CRM access
 * token", "Jira API token", "token for the Zendesk account" is not read:
 * only the word right before the credential noun and its modifiers), and
 * that owner is a word of the tool's name: "crm_addTags" is a CRM
 * client's tool and the CRM's token is its job. A token of a system the
 * name does not name (a GitHub token on "crm_addTags") still counts, and
 * so do owners every name could carry ("user", "admin", "private"). */
static bool name_has_word(const mv_tool *tool, const char *w, size_t n) {
    char buf[CAP_NAME_MAX * 2 + 2];
    size_t bn = split_words(tool->name.ptr, tool->name.len, buf, sizeof(buf));
    for (size_t i = 0; i < bn;) {
        size_t j = i;
        while (j < bn && buf[j] != ' ')
            j++;
        if (j - i == n && !record_verb(buf + i, j - i)) {
            size_t k = 0;
            while (k < n && buf[i + k] == (char)lower((unsigned char)w[k]))
                k++;
            if (k == n)
                return true;
        }
        i = j + 1;
    }
    return false;
}

static bool in_list(const char *s, size_t n, const char *const *list, size_t count);

static bool owned_credential(const mv_tool *tool, mv_str d) {
    static const char *const head[] = {"token",    "tokens",     "key",        "secret",
                                       "password", "credential", "credentials"};
    static const char *const mod[] = {"access", "api",     "auth",    "bearer", "oauth",
                                      "app",    "session", "refresh", "secret", "personal"};
    static const char *const generic[] = {"your", "the",     "a",     "an",     "its",
                                          "this", "user",    "admin", "root",   "private",
                                          "same", "account", "valid", "master", "optional"};
    size_t lim = d.len < 160 ? d.len : 160;
    size_t ws[24][2], nw = 0; /* words of the opening, [start, end) */
    for (size_t i = 0; i < lim && nw < 24;) {
        while (i < lim && !is_alnum((unsigned char)d.ptr[i])) {
            if (d.ptr[i] == '.' || d.ptr[i] == ':' || d.ptr[i] == ';')
                lim = i; /* the first sentence only */
            i++;
        }
        size_t j = i;
        while (j < lim && is_alnum((unsigned char)d.ptr[j]))
            j++;
        if (j > i) {
            ws[nw][0] = i;
            ws[nw][1] = j;
            nw++;
        }
        i = j;
    }
    for (size_t k = 1; k < nw; k++) {
        mv_str w = {d.ptr + ws[k][0], ws[k][1] - ws[k][0]};
        if (!in_list(w.ptr, w.len, head, sizeof(head) / sizeof(head[0])))
            continue;
        size_t o = k;
        while (o > 0 && in_list(d.ptr + ws[o - 1][0], ws[o - 1][1] - ws[o - 1][0], mod,
                                sizeof(mod) / sizeof(mod[0])))
            o--;
        if (o == 0)
            continue;
        mv_str own = {d.ptr + ws[o - 1][0], ws[o - 1][1] - ws[o - 1][0]};
        if (own.len < 2 || in_list(own.ptr, own.len, generic, sizeof(generic) / sizeof(generic[0])))
            continue;
        if (name_has_word(tool, own.ptr, own.len))
            return true;
    }
    return false;
}

typedef struct svc_hits {
    bool service, db;
    const char *text;
    size_t len;
} svc_hits;

static int on_service(void *ctx, const mv_ac_match *m) {
    svc_hits *h = ctx;
    if (!bounded(h->text, h->len, m->start, m->end, B_LEFT | B_RIGHT))
        return 0;
    if (m->id == 0)
        h->service = true;
    else
        h->db = true;
    return 0;
}

/* Service and database words of the tool's description and title (and,
 * for database words, its property names; not the connection string's
 * own description), looked up once per tool and only for a tool with a
 * credential or connection-string parameter. */
static void find_services(tool_scan *ts) {
    if (ts->service >= 0)
        return;
    bool service = false, db = false;
    for (uint32_t i = 0; i < ts->tool->n_fields; i++) {
        mv_field_kind k = ts->tool->fields[i].kind;
        bool job = k == MV_FIELD_DESCRIPTION || k == MV_FIELD_TITLE;
        if (!job && k != MV_FIELD_PROPERTY_NAME)
            continue;
        const mv_norm_text *nt = &ts->ctx->norm[i];
        svc_hits h = {false, false, nt->text, nt->len};
        mv_ac_scan(ts->st->services, nt->text, nt->len, on_service, &h);
        service = service || (job && h.service);
        db = db || h.db;
        ts->db_job = ts->db_job || (job && h.db);
    }
    ts->service = service;
    ts->db = db;
}

/* Round 27: a service or database word of the job itself: the tool's
 * name, its title's head, its description's first sentence. A later
 * sentence claiming the tool needs a service's token ("requires a Vault
 * root token") names no job. */
typedef struct job_svc_hits {
    bool hit;
    const char *text;
    size_t len;
    const uint32_t *raw;
    uint32_t raw_end; /* raw offsets at or past this are after the job */
} job_svc_hits;

static int on_job_service(void *ctx, const mv_ac_match *m) {
    job_svc_hits *h = ctx;
    if (h->hit || !bounded(h->text, h->len, m->start, m->end, B_LEFT | B_RIGHT))
        return 0;
    /* a whole word, not a stem's prefix ("resting" is no REST API); a
     * plural's s is the word's */
    if (h->raw == NULL || (h->raw[m->start] < h->raw_end &&
                           h->raw[m->end] - h->raw[m->start] <= m->end - m->start + 1))
        h->hit = true;
    return 0;
}

static size_t title_job_end(mv_str t);
static size_t reach_lead_end(mv_str d);

static bool job_service(const tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *f = &tool->fields[i];
        if (f->window_of != 0)
            continue;
        uint32_t end;
        if (f->kind == MV_FIELD_NAME)
            end = UINT32_MAX;
        else if (f->kind == MV_FIELD_TITLE)
            end = (uint32_t)title_job_end(f->text);
        else if (f->kind == MV_FIELD_DESCRIPTION)
            end = (uint32_t)reach_lead_end(f->text);
        else
            continue;
        const mv_norm_text *nt = &ts->ctx->norm[i];
        job_svc_hits h = {false, nt->text, nt->len, nt->raw_offset, end};
        mv_ac_scan(ts->st->services, nt->text, nt->len, on_job_service, &h);
        if (h.hit)
            return true;
    }
    return false;
}

/* Round 23: the input's own secret (a PDF's or an archive's password, a
 * certificate's, a Wi-Fi network's a device joins): the job's, not a
 * reach (detectors 3 and 14). */
static const char *const k_login_own[] = {
    "certificate", "cert",       "keystore", "zip",  "archive", "pdf",    "document",
    "encryption",  "decryption", "wifi",     "wlan", "ssid",    "hotspot"};

/* Words that make the name a setting or a reference, not the secret: a
 * permission to manage resets, a credential's name, a password policy;
 * and the stage a key is for ("live_api_key"), which names no owner. */
static const char *const k_login_not[] = {
    "manage",  "reset",    "change", "update", "set",    "enable",     "disable", "allow",
    "require", "required", "can",    "has",    "is",     "use",        "show",    "hide",
    "forgot",  "confirm",  "verify", "expire", "expiry", "expires",    "min",     "max",
    "length",  "policy",   "rule",   "rules",  "hint",   "strength",   "name",    "names",
    "id",      "ids",      "type",   "types",  "path",   "url",        "ref",     "arn",
    "count",   "field",    "label",  "list",   "mode",   "format",     "prompt",  "page",
    "next",    "cursor",   "live",   "test",   "prod",   "production", "sandbox", "staging",
    "dev"};

/* A name that refers to credentials held elsewhere ("credentialNames",
 * "credential_id", "secret_ref"): a reference, not the secret. */
static const char *const k_login_ref[] = {"name", "names", "id", "ids", "ref", "refs", "arn"};

static bool own_secret(mv_str name) {
    char w[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(name.ptr, name.len, w, sizeof(w));
    for (size_t i = 0; i < wn;) {
        size_t j = i;
        while (j < wn && w[j] != ' ')
            j++;
        if (in_list(w + i, j - i, k_login_own, sizeof(k_login_own) / sizeof(k_login_own[0])) ||
            (in_list(w + i, j - i, k_login_ref, sizeof(k_login_ref) / sizeof(k_login_ref[0]))))
            return true;
        i = j + 1;
    }
    return false;
}

static size_t title_job_end(mv_str t);
static size_t reach_lead_end(mv_str d);
static bool has_word_ci(mv_str text, const char *w, size_t n);

/* Round 24 (quiet24): "add_guest_code": "Adds a temporary guest PIN."
 * with a `pin` parameter, "rotate_wifi_password": "Sets a new Wi-Fi
 * password." with `password`: every word of the credential parameter's
 * name is a whole word of the tool's job (its first sentence or its
 * title's head), so the secret is the object the tool makes or sets, not
 * a login it borrows. "bank_pin" on the same tool keeps "bank" outside
 * the job and still asks. */
static bool secret_is_job_object(const mv_tool *tool, mv_str name) {
    char w[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(name.ptr, name.len, w, sizeof(w));
    mv_str lead = {tool->description.ptr,
                   tool->description.ptr != NULL ? reach_lead_end(tool->description) : 0};
    mv_str head = {tool->title.ptr, tool->title.ptr != NULL ? title_job_end(tool->title) : 0};
    if (wn == 0)
        return false;
    for (size_t i = 0; i < wn;) {
        size_t j = i;
        while (j < wn && w[j] != ' ')
            j++;
        if (!has_word_ci(lead, w + i, j - i) && !has_word_ci(head, w + i, j - i))
            return false;
        i = j + 1;
    }
    return true;
}

/* Round 27 (detector 15): what kind of credential a parameter's name
 * asks for. A login secret of the user (a password, a PIN, a one-time
 * code, credentials, a bank session or cookie), a key or token with an
 * owner's rank (admin, root, owner, master), a key (a private key, a
 * wallet's recovery phrase, a cloud key file) or a card or identity
 * number. A provider's plain API key or token is the means of the tool's
 * own call (quiet23) and names none. 0: none. */
enum { CK_NONE = 0, CK_LOGIN, CK_KEY, CK_CARD };

static const char *const k_cred_user[] = {
    "password",   "passwd", "passphrase", "pwd",        "pin",      "pincode",
    "passcode",   "otp",    "totp",       "mfa",        "2fa",      "credentials",
    "credential", "creds",  "login",      "kredensial", "kredensi", "tan",
    "mnemonic",   "seed",   "cvv",        "cvc"};
static const char *const k_cred_rank[] = {"admin", "root",       "owner",    "master",
                                          "sudo",  "superadmin", "superuser"};
/* Words of a parameter's description saying whose secret it is: the
 * input's own (a PDF's, a certificate's, a bundle to decrypt) or a
 * reference to one (an id, a fingerprint). */
static const char *const k_cred_own_desc[] = {
    "decrypt",     "encrypt",     "decryption",   "encryption",  "unlock",     "pdf",
    "zip",         "archive",     "document",     "certificate", "zertifikat", "zertifikats",
    "certificado", "certificat",  "keystore",     "pfx",         "p12",        "bundle",
    "uuid",        "fingerprint", "fingerprints", "wifi"};
static const char *const k_cred_tokenish[] = {"token", "key", "secret", "apikey", "jwt", "bearer"};
static const char *const k_cred_session[] = {"session", "cookie", "cookies"};
static const char *const k_cred_session_own[] = {"bank",    "bankid", "auth", "login",  "user",
                                                 "browser", "sso",    "web",  "active", "banking"};

static bool ends_ci(mv_str s, const char *w);
static const char *const k_secret_name_words[] = {
    "jelszo",    "jelszava", "salasana", "sifre",   "sifresi",    "wachtwoord", "adgangskode",
    "passord",   "losenord", "haslo",    "heslo",   "geslo",      "lozinka",    "laluan",
    "katasandi", "sandi",    "nenosiri", "matkhau", "contrasena", "senha",      "motdepasse",
    "passwort",  "kennwort", "parol",    "sifra",   "salasanan"};

/* Does a short description say whose secret it is (k_cred_own_desc)? */
static bool cred_desc_own(mv_str desc) {
    if (desc.ptr == NULL || desc.len == 0 || desc.len > 200)
        return false;
    char d[CAP_NAME_MAX * 2 + 2];
    size_t dn = split_words(desc.ptr, desc.len, d, sizeof(d));
    for (size_t at = 0; at < dn;) {
        size_t e = at;
        while (e < dn && d[e] != ' ')
            e++;
        if (in_list(d + at, e - at, GRANT_LIST(k_cred_own_desc)))
            return true;
        at = e + 1;
    }
    return false;
}

static uint8_t cred_kind_of(const cap_state *st, int ri, mv_str name, mv_str desc) {
    char w[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(name.ptr, name.len, w, sizeof(w));
    size_t ws[8][2];
    size_t nw = word_spans(w, wn, ws);
    for (size_t k = 0; k < nw; k++)
        if (in_list(w + ws[k][0], ws[k][1] - ws[k][0], GRANT_LIST(k_login_not)) ||
            in_list(w + ws[k][0], ws[k][1] - ws[k][0], GRANT_LIST(k_cred_own_desc)))
            return CK_NONE; /* a setting or a reference: password_policy, key_uuid */
    if (cred_desc_own(desc))
        return CK_NONE; /* "Passphrase to decrypt", "PIN des Zertifikats" */
    if (ri >= 0) {
        mv_str id = st->res[ri].id;
        if (str_is(id, "seedphrase") || str_is(id, "privkey") || str_is(id, "cloudcred"))
            return CK_KEY;
        /* a card or identity word of the name, not a suffix inside a
         * word ("chiban", a land lot number, is no IBAN) */
        static const char *const k_card_words[] = {"card",
                                                   "cvv",
                                                   "cvc",
                                                   "cvv2",
                                                   "ssn",
                                                   "iban",
                                                   "passport",
                                                   "social",
                                                   "national",
                                                   "tax",
                                                   "bank",
                                                   "routing",
                                                   "sort",
                                                   "creditcard",
                                                   "cardnumber",
                                                   "cardno",
                                                   "kreditkarte",
                                                   "carte",
                                                   "tarjeta",
                                                   "cartao",
                                                   "numerocarte",
                                                   "kartennummer",
                                                   "socialsecuritynumber",
                                                   "bankaccount",
                                                   "passportnumber",
                                                   "nationalid",
                                                   "taxid",
                                                   "creditcardnumber"};
        bool card = false;
        for (size_t k = 0; k < nw && !card; k++)
            card = in_list(w + ws[k][0], ws[k][1] - ws[k][0], GRANT_LIST(k_card_words));
        if (str_is(id, "personal") && (card || (unsigned char)name.ptr[0] >= 0x80))
            return CK_CARD;
    }
    bool user = false, tokenish = false, rank = false, session = false, own = false;
    for (size_t k = 0; k < nw; k++) {
        const char *q = w + ws[k][0];
        size_t qn = ws[k][1] - ws[k][0];
        user = user || in_list(q, qn, k_cred_user, sizeof(k_cred_user) / sizeof(k_cred_user[0])) ||
               in_list(q, qn, k_secret_name_words,
                       sizeof(k_secret_name_words) / sizeof(k_secret_name_words[0]));
        rank = rank || in_list(q, qn, k_cred_rank, sizeof(k_cred_rank) / sizeof(k_cred_rank[0]));
        session = session || in_list(q, qn, k_cred_session,
                                     sizeof(k_cred_session) / sizeof(k_cred_session[0]));
        own = own || in_list(q, qn, k_cred_session_own,
                             sizeof(k_cred_session_own) / sizeof(k_cred_session_own[0]));
        if (k + 1 == nw)
            tokenish = in_list(q, qn, k_cred_tokenish,
                               sizeof(k_cred_tokenish) / sizeof(k_cred_tokenish[0]));
    }
    if (user || (session && own))
        return CK_LOGIN;
    if (tokenish && !rank && desc.len > 0 && desc.len <= 200) {
        /* "Vault root token", "Organisation-owner service account" */
        char d[CAP_NAME_MAX * 2 + 2];
        size_t dn = split_words(desc.ptr, desc.len, d, sizeof(d));
        size_t at = 0;
        while (at < dn && !rank) {
            size_t e = at;
            while (e < dn && d[e] != ' ')
                e++;
            rank =
                in_list(d + at, e - at, k_cred_rank, sizeof(k_cred_rank) / sizeof(k_cred_rank[0]));
            at = e + 1;
        }
    }
    return tokenish && rank ? CK_LOGIN : CK_NONE;
}

/* Could the name be a credential's? Its reach resource, or a last word a
 * credential ends with: a cheap gate before the words are read. */
static bool cred_name_gate(int ri, mv_str name) {
    static const char *const tails[] = {"key", "token", "secret", "session", "cookie", "cookies",
                                        "al",  "creds", "pin",    "otp",     "pwd",    "login"};
    if (ri >= 0)
        return true;
    if (name.len < 3)
        return false;
    for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++)
        if (ends_ci(name, tails[k]))
            return true;
    return false;
}

/* The first credential-named input slot, unless the name refers to one
 * held elsewhere or is the input's own (own_secret) or the job's object. */
static void note_cred_name(tool_scan *ts, int ri, mv_str name, mv_str desc, int32_t fi) {
    if (ts->cred_name != CK_NONE || fi < 0 || !cred_name_gate(ri, name))
        return;
    uint8_t k = cred_kind_of(ts->st, ri, name, desc);
    if (k == CK_NONE || own_secret(name) || secret_is_job_object(ts->tool, name))
        return;
    ts->cred_name = k;
    ts->cred_hit = (reach_hit){fi, 0, (uint32_t)ts->tool->fields[fi].text.len};
}

/* Parameters whose name carries a capability count as a mention of that
 * resource in the parameter's name field, at the resource's full weight:
 * "github_token" on an emoji finder says what "reads your GitHub token"
 * would. A credential is explained when the tool's own description or
 * title says it talks to a service (an API, an account, a remote host), or
 * when the parameter's description names the server's own service or an
 * API ("TweekIT API key"); the tool description naming its server ("dice-box" rolling
 * dice) says nothing about a credential. */
static void reach_params(tool_scan *ts) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema != MV_SCHEMA_INPUT || pm->has_enum)
            continue;
        int ri = reach_of(st, pm);
        if (!str_is(pm->type, "boolean") && !str_is(pm->type, "number") &&
            !str_is(pm->type, "integer"))
            note_cred_name(ts, ri, pm->name, pm->description, property_field(tool, p));
        /* Round 15: a boolean named for running ("execute": "When true:
         * run the full flow ...", described) carries no command: it
         * switches the act the tool's own text describes. A boolean that
         * opens data ("calendar_access": true) is a grant and counts. */
        if (ri >= 0 && str_is(st->res[ri].id, "shellexec") && described_switch(pm))
            continue;
        if (ri == st->credparam || ri == st->dbconn)
            find_services(ts);
        if (ri < 0 ||
            (ri == st->credparam &&
             (ts->service > 0 || names_server(ts->ctx, tool, pm->description) ||
              api_credential(ts->ctx, tool, pm->description) ||
              owned_credential(tool, pm->description) || own_secret(pm->name) ||
              /* round 24 */ secret_is_job_object(tool, pm->name))) ||
            (ri == st->dbconn && (ts->service > 0 || ts->db > 0)))
            continue;
        int32_t fi = property_field(tool, p);
        if (fi < 0)
            continue;
        const mv_field *f = &tool->fields[fi];
        res_best *b = &ts->reach[ri];
        double w = st->res[ri].weight;
        if (w > b->w)
            *b = (res_best){w, false, fi, 0, (uint32_t)f->text.len};
    }
    /* Nested properties (an "options" object, the items of an array) ask
     * as plainly as top-level ones: options.github_token. Their type is
     * not kept by the model, so they are read like free strings, and a
     * credential among them is explained the same way. */
    /* The first property-name field of a parameter is its own name
     * (property_field); later ones are nested. One pass, a bit per param. */
    uint8_t *seen = mv_arena_calloc(ts->ctx->scratch, tool->n_params + 1, 1);
    for (uint32_t fi = 0; seen != NULL && fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind != MV_FIELD_PROPERTY_NAME || f->param < 0 ||
            (uint32_t)f->param >= tool->n_params)
            continue;
        if (!seen[f->param]) {
            seen[f->param] = 1;
            continue;
        }
        if (f->schema != MV_SCHEMA_INPUT)
            continue;
        mv_param nested = {.name = f->text, .schema = MV_SCHEMA_INPUT};
        int ri = reach_of(st, &nested);
        /* one level down at most ("account.email_password"), not in an
         * array's items: deeper ones are API request bodies */
        if (cred_name_gate(ri, f->text) && !contains_ci(f->path, ".items", 6) &&
            !contains_ci(f->path, "of[", 3)) {
            size_t depth = 0;
            for (size_t i = 0; i + 12 <= f->path.len; i++)
                depth += memcmp(f->path.ptr + i, ".properties.", 12) == 0;
            if (depth <= 2)
                note_cred_name(ts, ri, f->text, (mv_str){NULL, 0}, (int32_t)fi);
        }
        if (ri < 0)
            continue;
        if (ri == st->credparam || ri == st->dbconn)
            find_services(ts);
        if ((ri == st->credparam && (ts->service > 0 || own_secret(f->text))) ||
            (ri == st->dbconn && (ts->service > 0 || ts->db > 0)))
            continue;
        res_best *b = &ts->reach[ri];
        double w = st->res[ri].weight;
        if (w > b->w)
            *b = (res_best){w, false, (int32_t)fi, 0, (uint32_t)f->text.len};
    }
}

/* A value the model sends or copies: a default, a const, an enum member
 * or an example ("...root.default", "...mode.enum[1]", "...examples[0]"). */
static bool value_path(mv_str path) {
    size_t i = path.len;
    while (i > 0 && path.ptr[i - 1] != '.')
        i--;
    mv_str last = {path.ptr + i, path.len - i};
    return str_is(last, "default") || str_is(last, "const") ||
           (last.len > 5 && memcmp(last.ptr, "enum[", 5) == 0) ||
           (last.len > 9 && memcmp(last.ptr, "examples[", 9) == 0) ||
           (last.len > 8 && memcmp(last.ptr, "default[", 8) == 0);
}

/* An http(s) URL on a host other than this machine. */
static bool outside_url(mv_str v) {
    size_t i;
    if (v.len > 8 && raw_reads(v.ptr, 8, MV_STR_LIT("https://")))
        i = 8;
    else if (v.len > 7 && raw_reads(v.ptr, 7, MV_STR_LIT("http://")))
        i = 7;
    else
        return false;
    static const char *const local[] = {"localhost", "127.", "0.0.0.0", "[::1]"};
    for (size_t k = 0; k < sizeof(local) / sizeof(local[0]); k++) {
        size_t n = strlen(local[k]);
        if (v.len - i >= n && raw_reads(v.ptr + i, n, (mv_str){local[k], n}))
            return false;
    }
    return v.len - i >= 4;
}

/* Does the lower-cased word w[0, n) appear as a whole word of text? */
static bool has_word_ci(mv_str text, const char *w, size_t n) {
    for (size_t i = 0; n > 0 && i + n <= text.len; i++) {
        if ((i > 0 && is_alnum((unsigned char)text.ptr[i - 1])) ||
            (i + n < text.len && is_alnum((unsigned char)text.ptr[i + n])))
            continue;
        size_t k = 0;
        while (k < n && lower((unsigned char)text.ptr[i + k]) == (unsigned char)w[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* A parameter named or described as a place data goes to (upload_to,
 * webhook, "documents are copied here"): capability_sinks.rules
 * "destination" words, in the name's words or the description. */
static bool destination_param(const cap_state *st, const mv_param *pm) {
    char words[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(pm->name.ptr, pm->name.len, words, sizeof(words));
    mv_str name = {words, wn};
    mv_str desc = pm->description;
    if (desc.len > CAP_PARAM_DESC_MAX)
        desc.len = CAP_PARAM_DESC_MAX;
    for (size_t k = 0; k < st->n_dest; k++)
        if (has_word_ci(name, st->dest[k].canon, st->dest[k].len) ||
            has_word_ci(desc, st->dest[k].canon, st->dest[k].len))
            return true;
    return false;
}

/* A parameter whose default is the root of the file system or the home
 * folder ("root_path": "/") gives a narrow tool the whole disk; one whose
 * default sends to an outside URL (upload_to: https://...) gives it an
 * upload nobody asked for. */
static void reach_defaults(tool_scan *ts) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind != MV_FIELD_SCHEMA_VALUE || f->param < 0 ||
            (uint32_t)f->param >= tool->n_params ||
            tool->params[f->param].schema != MV_SCHEMA_INPUT || !value_path(f->path))
            continue;
        mv_str v = f->text;
        while (v.len > 0 && is_space((unsigned char)v.ptr[0])) {
            v.ptr++;
            v.len--;
        }
        while (v.len > 0 && is_space((unsigned char)v.ptr[v.len - 1]))
            v.len--;
        if (st->upload >= 0 && (outside_url(v) || outside_destination(v)) &&
            destination_param(st, &tool->params[f->param])) {
            res_best *b = &ts->reach[st->upload];
            double w = st->res[st->upload].weight;
            if (w > b->w)
                *b = (res_best){w, true, (int32_t)fi, (uint32_t)(v.ptr - f->text.ptr),
                                (uint32_t)v.len};
            continue;
        }
        for (size_t i = 0; i < st->n_reach; i++) {
            const cap_reach *r = &st->reach[i];
            if (r->how != R_DEFAULT || !raw_reads(v.ptr, v.len, (mv_str){r->canon, r->len}))
                continue;
            res_best *b = &ts->reach[r->res];
            double w = st->res[r->res].weight;
            if (w > b->w)
                *b = (res_best){w, true, (int32_t)fi, (uint32_t)(v.ptr - f->text.ptr),
                                (uint32_t)v.len};
            break;
        }
    }
}

/* ------------------------------------------------------------ inspect */

/* ------------------------------------------------------------ detector 5 */

/* Silent asks. A parameter named for a whole secret store, the whole
 * environment, the whole home folder or a shell, on a tool whose own name,
 * title and description never speak of it. An honest tool that needs your
 * keychain or your environment says so where a person reads it ("reads an
 * item from the macOS keychain", "runs a command with extra environment
 * variables"); a colour tool or a priority suggester that quietly grows a
 * keychain_dump or an env object asks for something its job never
 * mentioned. This holds whatever the job is, so the declared classes,
 * which a stray word can mislead ("signature" reads as signing in
 * signature_font_preview), are not consulted. Credentials and connection
 * strings are left out: a tool names its service far more often than its
 * API key. */

/* The resource classes a silent ask is judged for: whole secret stores,
 * device data, the whole home folder, and a shell (further narrowed in
 * report_silent_ask). Identity numbers are everyday booking parameters. */
static bool silent_class(const cap_res *r) {
    static const char *const k_ids[] = {"cloudcred", "keychain", "browserstore",
                                        "device",    "broadfs",  "shellexec"};
    for (size_t i = 0; i < sizeof(k_ids) / sizeof(k_ids[0]); i++)
        if (str_is(r->id, k_ids[i]))
            return true;
    return false;
}

/* Words of a parameter name that say nothing about what it holds. */
static bool filler_word(const char *w, size_t n) {
    static const char *const k_fill[] = {"all",  "include", "dump", "export", "data", "dir",
                                         "path", "file",    "list", "raw",    "full", "the"};
    for (size_t i = 0; i < sizeof(k_fill) / sizeof(k_fill[0]); i++)
        if (strlen(k_fill[i]) == n && memcmp(k_fill[i], w, n) == 0)
            return true;
    return false;
}

/* Does some word of text (ASCII case folded) begin with w[0, n)? "env"
 * finds "environment", "command" finds "commands". */
static bool word_starting(mv_str text, const char *w, size_t n) {
    for (size_t i = 0; n > 0 && i + n <= text.len; i++) {
        if (i > 0 && is_alnum((unsigned char)text.ptr[i - 1]))
            continue;
        size_t k = 0;
        while (k < n && lower((unsigned char)text.ptr[i + k]) == (unsigned char)w[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Does the tool's name, title or description use a word of the parameter's
 * name (three letters or more, fillers aside)? */
static bool param_spoken_of(const mv_tool *tool, mv_str pname) {
    char words[CAP_NAME_MAX * 2 + 2];
    size_t wn = split_words(pname.ptr, pname.len, words, sizeof(words));
    for (size_t i = 0; i < wn;) {
        size_t j = i;
        while (j < wn && words[j] != ' ')
            j++;
        if (j - i >= 3 && !filler_word(words + i, j - i)) {
            if (word_starting(tool->name, words + i, j - i))
                return true;
            for (uint32_t f = 0; f < tool->n_fields; f++) {
                const mv_field *fl = &tool->fields[f];
                if ((fl->kind == MV_FIELD_DESCRIPTION || fl->kind == MV_FIELD_TITLE) &&
                    word_starting(fl->text, words + i, j - i))
                    return true;
            }
        }
        i = j + 1;
    }
    return false;
}

/* Does input parameter p default to an interpreter ("bash -c", "/bin/sh",
 * "powershell -Command")? The first token's last path segment names one;
 * a subcommand default ("show") does not. */
static bool interpreter_default(const mv_tool *tool, uint32_t p) {
    static const char *const k_interp[] = {"sh",   "bash",       "zsh",           "dash",
                                           "ksh",  "fish",       "cmd",           "cmd.exe",
                                           "pwsh", "powershell", "powershell.exe"};
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *f = &tool->fields[i];
        if (f->kind != MV_FIELD_SCHEMA_VALUE || f->param != (int32_t)p || f->path.len < 8 ||
            memcmp(f->path.ptr + f->path.len - 8, ".default", 8) != 0)
            continue;
        size_t a = 0, e = 0;
        while (a < f->text.len && is_space((unsigned char)f->text.ptr[a]))
            a++;
        e = a;
        while (e < f->text.len && !is_space((unsigned char)f->text.ptr[e]))
            e++;
        size_t b = e;
        while (b > a && f->text.ptr[b - 1] != '/' && f->text.ptr[b - 1] != '\\')
            b--;
        for (size_t k = 0; k < sizeof(k_interp) / sizeof(k_interp[0]); k++) {
            size_t n = strlen(k_interp[k]);
            if (e - b != n)
                continue;
            size_t j = 0;
            while (j < n &&
                   lower((unsigned char)f->text.ptr[b + j]) == (unsigned char)k_interp[k][j])
                j++;
            if (j == n)
                return true;
        }
    }
    return false;
}

/* Privilege words: a credential or command asked for beyond any one job
 * ("cluster-admin service account token", scopes "admin:org" and
 * "delete_repo", "exec in a privileged pod", sudo). A plain "admin" or
 * "root" password is what every database, VPS and CMS installer asks for,
 * and is left out. */
static const char *const k_privilege[] = {"cluster-admin", "admin:org",  "delete_repo",
                                          "sudo",          "superuser",  "privileged",
                                          "full access",   "all scopes", "root token"};

static bool privileged_text(mv_str t, size_t *which) {
    for (size_t k = 0; k < sizeof(k_privilege) / sizeof(k_privilege[0]); k++)
        if (word_starting(t, k_privilege[k], strlen(k_privilege[k]))) {
            *which = k;
            return true;
        }
    return false;
}

/* Privileged asks: a top-level credential or command parameter whose name or
 * own description asks for administrator rights, on a tool whose name,
 * title and description never speak of administration. A tool for admins
 * says so ("Ghost Admin API: creates a post" names it); a regex tester or
 * a manifest validator that wants a cluster-admin token does not need one.
 * Sets *emitted when it emitted. */
static int report_privileged_ask(tool_scan *ts, const declaration *d, bool *emitted) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    /* Round 20: a narrow job (a transliterator, a theme switch) whose
     * description asks for the rights ("needs a GitHub token with
     * admin:org and delete_repo") puts the ask in its own prose, which the
     * parameter's terse description ("Token.") does not repeat. There the
     * prose is the ask, not the job: only the name and title explain it. */
    bool narrow_job = (d->mask & st->narrow_mask) != 0 && (d->mask & st->sensitive_mask) == 0;
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema != MV_SCHEMA_INPUT || pm->has_enum)
            continue;
        int ri = reach_of(st, pm);
        if (ri < 0 || (ri != st->credparam && !str_is(st->res[ri].id, "shellexec")))
            continue;
        size_t k = 0;
        char w[CAP_NAME_MAX * 2 + 2];
        size_t wn = split_words(pm->name.ptr, pm->name.len, w, sizeof(w));
        bool in_prose = false;
        if (!privileged_text((mv_str){w, wn}, &k) && !privileged_text(pm->description, &k)) {
            if (!narrow_job || !privileged_text(tool->description, &k))
                continue;
            in_prose = true;
        }
        const char *pw = k_privilege[k];
        size_t pn = strlen(pw);
        bool spoken = word_starting(tool->name, pw, pn);
        for (uint32_t f = 0; f < tool->n_fields && !spoken; f++) {
            const mv_field *fl = &tool->fields[f];
            if (fl->kind == MV_FIELD_TITLE || (fl->kind == MV_FIELD_DESCRIPTION && !in_prose))
                spoken = word_starting(fl->text, pw, pn);
        }
        int32_t fi = property_field(tool, p);
        if (spoken || fi < 0)
            continue;
        const mv_field *f = &tool->fields[fi];
        char detail[200];
        sbuf b = {detail, 0, sizeof(detail)};
        sb_lit(&b, "a parameter asks for ");
        sb_str(&b, st->res[ri].label);
        sb_lit(&b, " with administrator rights, which the tool's name and description never "
                   "mention");
        mv_signal_spec spec = {
            .tier = MV_TIER_SOFT,
            .threat = st->res[ri].threat,
            .confidence = CAP_F_SILENT,
            .critical = false,
            .field = fi,
            .offset = 0,
            .length = (uint32_t)f->text.len,
            .evidence = f->text,
            .detail = {detail, b.n},
            .facets = res_facets(&st->res[ri]),
        };
        *emitted = true;
        return cap_emit(ts, &spec);
    }
    return MV_OK;
}

static int report_silent_ask(tool_scan *ts) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    int top = -1;
    for (size_t r = 0; r < st->n_res; r++) {
        const res_best *rb = &ts->reach[r];
        if (rb->w <= 0 || (ts->prose_res & (1u << r)) || !silent_class(&st->res[r]))
            continue;
        const mv_field *f = &tool->fields[rb->field];
        /* Top-level parameters only: nested specs of a deployment
         * (services[].build_command) describe a program, not a request. */
        if (f->kind != MV_FIELD_PROPERTY_NAME || f->param < 0 ||
            (uint32_t)f->param >= tool->n_params ||
            property_field(tool, (uint32_t)f->param) != rb->field)
            continue;
        const mv_param *pm = &tool->params[f->param];
        /* Real tools run commands and pass environments without saying so
         * in prose (a debugger's "command", a container's "env"): a shell
         * counts only when a one-word shell parameter already holds an
         * interpreter the model sends unchosen ("shell": "bash -c"); the
         * environment is left to the other detectors. */
        if (str_is(st->res[r].id, "shellexec")) {
            char w[CAP_NAME_MAX * 2 + 2];
            size_t wn = split_words(pm->name.ptr, pm->name.len, w, sizeof(w));
            if (memchr(w, ' ', wn) != NULL || !interpreter_default(tool, (uint32_t)f->param))
                continue;
        }
        if (param_spoken_of(tool, f->text))
            continue;
        if (top < 0 || rb->w > ts->reach[top].w)
            top = (int)r;
    }
    if (top < 0)
        return MV_OK;
    const res_best *rb = &ts->reach[top];
    const mv_field *f = &tool->fields[rb->field];
    char detail[200];
    sbuf b = {detail, 0, sizeof(detail)};
    sb_lit(&b, "a parameter asks for ");
    sb_str(&b, st->res[top].label);
    sb_lit(&b, ", which the tool's name and description never mention");
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = st->res[top].threat,
        .confidence = CAP_F_SILENT,
        .critical = false,
        .field = rb->field,
        .offset = 0,
        .length = (uint32_t)f->text.len,
        .evidence = f->text,
        .detail = {detail, b.n},
        .facets = res_facets(&st->res[top]),
    };
    return cap_emit(ts, &spec);
}

/* ------------------------------------------------------------ round 14 */

/* Detector 6: grants spelled as permission scopes. A tool that lists the
 * access it wants as scope tokens in its annotations or schema values
 * ("x-permissions": ["exec:root", "fs:write:/etc"], requiredScopes
 * "mail.send", a default "read-write:/", an enum of "admin:org" and
 * "delete_repo") asks the client for that access whatever language its
 * prose is in: the token's shape says what is asked, not its words. A
 * scope counts when the tool's name, title and description never speak of
 * what it opens (a mail tool asking "mail.read" is doing its job); two such
 * scopes, or one that opens everything (a root, "/", "~", "*", "any",
 * "all"), raise the tool. Review only (no facet): a grant is what the tool
 * could do, not an order to do it. */

/* The resources a scope's head opens, each with the words by which a
 * tool's own text speaks of it (ASCII prefixes, a word must start with
 * one). */
typedef struct grant_head {
    const char *head;
    bool dotted; /* also written "head.verb" (OAuth scopes); else only "head:verb" */
    const char *spoken[4];
} grant_head;

static const grant_head k_grant_heads[] = {
    {"fs", false, {"file", "folder", "director", "disk"}},
    {"file", false, {"file", "folder", "director", "disk"}},
    {"files", true, {"file", "folder", "director", "drive"}},
    {"filesystem", false, {"file", "folder", "director", "disk"}},
    {"exec", false, {"exec", "command", "shell", "script"}},
    {"shell", false, {"shell", "command", "exec", "script"}},
    {"process", false, {"process", "command", "exec", "spawn"}},
    {"proc", false, {"process", "command", "exec", "spawn"}},
    {"net", false, {"network", "http", "fetch", "url"}},
    {"network", false, {"network", "http", "fetch", "url"}},
    {"secrets", false, {"secret", "vault", "credential", "key"}},
    {"secret", false, {"secret", "vault", "credential", "key"}},
    {"env", false, {"environment", "env", "variable", NULL}},
    {"keychain", false, {"keychain", "password", "credential", NULL}},
    {"clipboard", false, {"clipboard", "copy", "paste", NULL}},
    {"contacts", true, {"contact", "address book", "people", NULL}},
    {"mail", true, {"mail", "email", "e-mail", "inbox"}},
    {"gmail", true, {"mail", "gmail", "email", "inbox"}},
    {"email", true, {"mail", "email", "e-mail", "inbox"}},
    {"calendars", true, {"calendar", "event", "meeting", "schedul"}},
    {"calendar", true, {"calendar", "event", "meeting", "schedul"}},
    {"drive", true, {"drive", "file", "document", "folder"}},
    {"sites", true, {"site", "sharepoint", "page", NULL}},
    {"directory", true, {"directory", "user", "group", "tenant"}},
    {"admin", false, {"admin", "organization", "organisation", "member"}},
    {"camera", false, {"camera", "photo", "video", "scan"}},
    {"microphone", false, {"microphone", "audio", "voice", "record"}},
    {"location", false, {"location", "gps", "geo", "map"}},
    {"sms", false, {"sms", "text message", "messag", NULL}},
    /* Google's scope URLs ("https://www.googleapis.com/auth/drive",
     * "https://mail.google.com/"), recognized whole in grant_token */
    {"googleapis", false, {"google", "gmail", "drive", "workspace"}},
};

#define GRANT_GOOGLE ((int)(sizeof(k_grant_heads) / sizeof(k_grant_heads[0])) - 1)
#define GRANT_UNKNOWN (-2) /* a scope of a resource the table does not name */

/* Verbs and spans of a scope ("fs:read", "mail.readwrite.all"). */
static const char *const k_grant_acts[] = {
    "read", "write", "readwrite", "rw", "exec", "execute", "any", "all", "*", "root", "egress",
    "ingress", "spawn", "full", "org", "send", "modify", "manage", "delete", "admin",
    /* the rights in the languages of the sets */
    "lecture", "ecriture", "suppression", "lesen", "schreiben", "loeschen", "lectura", "escritura",
    "leitura", "escrita", "lettura", "scrittura", "drop", "passrole"};

/* Scope parts that open everything. */
static const char *const k_grant_broad[] = {"*", "any", "all", "root", "/", "~", "/etc", "full"};

/* Whole tokens that are a grant by themselves (GitHub's organization
 * administration and repository deletion scopes). */
static const char *const k_grant_whole[] = {"admin:org", "admin:enterprise", "delete_repo",
                                            "site_admin", "cluster-admin"};

static bool lit_eq_ci(const char *s, size_t n, const char *lit) {
    if (n == 0 || lower((unsigned char)s[0]) != (unsigned char)lit[0])
        return false;
    size_t k = strlen(lit);
    if (n != k)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != (unsigned char)lit[i])
            return false;
    return true;
}

static bool in_list(const char *s, size_t n, const char *const *list, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (lit_eq_ci(s, n, list[i]))
            return true;
    return false;
}

/* Is tok[0, n) a scope token? Sets *head (index into k_grant_heads, or -1
 * for a whole token or a bare access path) and *broad. */
static bool grant_token(const char *tok, size_t n, int *head, bool *broad) {
    *head = -1;
    *broad = false;
    if (n < 4 || n > 64)
        return false;
    if (in_list(tok, n, GRANT_LIST(k_grant_whole))) {
        *broad = true;
        return true;
    }
    /* a Google scope URL: the whole mailbox and the whole cloud project
     * are broad by themselves */
    static const char g_auth[] = "googleapis.com/auth/", g_mail[] = "mail.google.com";
    for (size_t i = 0; i + sizeof(g_mail) - 1 <= n; i++) {
        if (i + sizeof(g_auth) - 1 <= n && memcmp(tok + i, g_auth, sizeof(g_auth) - 1) == 0) {
            const char *tail = tok + i + sizeof(g_auth) - 1;
            size_t tn = n - i - (sizeof(g_auth) - 1);
            *head = GRANT_GOOGLE;
            *broad = tn >= 14 && memcmp(tail, "cloud-platform", 14) == 0;
            return tn > 0;
        }
        if (memcmp(tok + i, g_mail, sizeof(g_mail) - 1) == 0 && (i == 0 || tok[i - 1] == '/')) {
            *head = GRANT_GOOGLE;
            *broad = true;
            return true;
        }
    }
    /* parts split at ':' or '.' (the OAuth form uses dots: Graph's
     * "Files.ReadWrite.All", Google's "gmail.modify") */
    size_t ps[4][2], np = 0, a = 0;
    bool colon = memchr(tok, ':', n) != NULL;
    if (!colon && memchr(tok, '.', n) == NULL)
        return false;
    char sep = colon ? ':' : '.';
    for (size_t i = 0; i <= n && np < 4; i++)
        if (i == n || tok[i] == sep) {
            ps[np][0] = a;
            ps[np][1] = i;
            np++;
            a = i + 1;
        }
    if (np < 2 || ps[0][1] == ps[0][0] || ps[1][1] == ps[1][0])
        return false;
    const char *p0 = tok + ps[0][0];
    size_t n0 = ps[0][1] - ps[0][0];
    bool acted = false, path = false;
    for (size_t k = 1; k < np; k++) {
        const char *pk = tok + ps[k][0];
        size_t nk = ps[k][1] - ps[k][0];
        if (nk == 0)
            return false;
        bool act = in_list(pk, nk, GRANT_LIST(k_grant_acts));
        bool pth = colon && (pk[0] == '/' || pk[0] == '~');
        if (k == 1 && !act && !pth)
            return false;
        acted = acted || act;
        path = path || pth;
        if (in_list(pk, nk, GRANT_LIST(k_grant_broad)))
            *broad = true;
    }
    /* "read-write:/", "rw:/home": an access mode on a path */
    if (colon && path &&
        (lit_eq_ci(p0, n0, "read-write") || in_list(p0, n0, GRANT_LIST(k_grant_acts))))
        return true;
    if (!acted && !path)
        return false;
    for (size_t h = 0; h < sizeof(k_grant_heads) / sizeof(k_grant_heads[0]); h++)
        if (lit_eq_ci(p0, n0, k_grant_heads[h].head)) {
            /* dotted tokens are file names and hosts as often as scopes:
             * only heads of the OAuth scope families keep the dot form */
            if (!colon && !k_grant_heads[h].dotted)
                return false;
            *head = (int)h;
            return true;
        }
    /* "ent:admin", "plc:write:*", "messagerie:lecture": a right on a
     * resource the table does not know, in the colon form only (a word,
     * then a right); the caller asks whether the tool names the resource */
    if (colon && acted && n0 >= 2 && n0 <= 24) {
        for (size_t i = 0; i < n0; i++)
            if (!is_alnum((unsigned char)p0[i]) && p0[i] != '_' && p0[i] != '-')
                return false;
        *head = GRANT_UNKNOWN;
        return true;
    }
    return false;
}

/* Does the tool's name, title or description name the unknown resource
 * tok[0, n) (the scope's head), or speak of scopes at all (an OAuth
 * client's tool lists its service's scopes)? */
static bool grant_head_spoken(const mv_tool *tool, const char *tok, size_t n) {
    static const char *const auth[] = {"scope", "oauth", "authoriz", "permission"};
    char w[25];
    if (n > 24)
        return false;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)lower((unsigned char)tok[i]);
    mv_str where[3] = {tool->name, tool->title, tool->description};
    for (int k = 0; k < 3; k++) {
        if (where[k].ptr == NULL)
            continue;
        if (word_starting(where[k], w, n))
            return true;
        for (size_t a = 0; a < sizeof(auth) / sizeof(auth[0]); a++)
            if (word_starting(where[k], auth[a], strlen(auth[a])))
                return true;
    }
    return false;
}

/* Is the field an enum member (a choice offered, not an ask)? */
static bool path_enum(mv_str path) {
    for (size_t i = 0; i + 5 <= path.len; i++)
        if (memcmp(path.ptr + i, ".enum", 5) == 0)
            return true;
    return false;
}

static bool grant_spoken(const mv_tool *tool, int head) {
    if (head < 0)
        return false;
    mv_str where[3] = {tool->name, tool->title, tool->description};
    for (int w = 0; w < 3; w++)
        for (int s = 0; s < 4 && k_grant_heads[head].spoken[s] != NULL; s++) {
            const char *sp = k_grant_heads[head].spoken[s];
            if (where[w].ptr != NULL && word_starting(where[w], sp, strlen(sp)))
                return true;
        }
    return false;
}

static bool grant_sep(unsigned char c) {
    return is_space(c) || c == ',' || c == ';' || c == '"' || c == '\'' || c == '[' || c == ']' ||
           c == '(' || c == ')' || c == '`' || c == '|';
}

static int report_prose_grants(tool_scan *ts);

static int report_grants(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    int32_t first = -1;
    uint32_t off = 0, len = 0;
    unsigned count = 0;
    bool broad_any = false;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *f = &tool->fields[i];
        if (f->window_of != 0)
            continue;
        /* an output field's default is what the tool says it was granted */
        if (f->kind != MV_FIELD_ANNOTATION &&
            !(f->kind == MV_FIELD_SCHEMA_VALUE && f->schema != MV_SCHEMA_NONE))
            continue;
        const char *t = f->text.ptr;
        size_t n = f->text.len;
        if (n < 4 || n > 2048 ||
            (memchr(t, ':', n) == NULL && memchr(t, '.', n) == NULL && memchr(t, '_', n) == NULL))
            continue;
        for (size_t s = 0; s < n;) {
            while (s < n && grant_sep((unsigned char)t[s]))
                s++;
            size_t e = s;
            while (e < n && !grant_sep((unsigned char)t[e]))
                e++;
            int head;
            bool broad;
            if (e > s && grant_token(t + s, e - s, &head, &broad) &&
                (head != GRANT_UNKNOWN || !path_enum(f->path)) &&
                (head == GRANT_UNKNOWN
                     ? !grant_head_spoken(
                           tool, t + s, (size_t)((const char *)memchr(t + s, ':', e - s) - (t + s)))
                     : !grant_spoken(tool, head))) {
                uint64_t bit = head < 0 ? 1 : (uint64_t)1 << (head + 1);
                if (head >= 0 && (seen & bit) == 0)
                    count++;
                else if (head < 0)
                    count++;
                seen |= bit;
                broad_any = broad_any || broad;
                if (first < 0) {
                    first = (int32_t)i;
                    off = (uint32_t)s;
                    len = (uint32_t)(e - s);
                }
            }
            s = e;
        }
    }
    if (first < 0 || (count < 2 && !broad_any))
        return ts->desc >= 0 ? report_prose_grants(ts) : MV_OK;
    const mv_field *f = &tool->fields[first];
    static const char detail[] = "the schema or annotations ask for access scopes (shell, files, "
                                 "network, mail or administration) that the tool's name and "
                                 "description never mention";
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_TOOL_POISONING,
        .confidence = CAP_F_SILENT,
        .critical = false,
        .field = first,
        .offset = off,
        .length = len,
        .evidence = {f->text.ptr + off, len},
        .detail = {detail, sizeof(detail) - 1},
        .facets = 0,
    };
    return cap_emit(ts, &spec);
}

/* Round 21: grants listed in the description's prose. A narrow tool whose
 * later sentences list scope tokens ("Scopes requested: `warehouse:admin`,
 * `iam:write`", "Permissions required: filesystem:read(/), network:any",
 * "Alcances OAuth solicitados: repo, admin:org, delete_repo") asks the
 * client for that access in any language, as a schema default would.
 * Only the job explains them: the name, the title and the lead sentence
 * (the prose that lists the scopes also says "scope" and "OAuth"), and a
 * job the declared classes read as sensitive (a GitHub or cloud tool
 * documents its own scopes). Tokens are found from their colon; an
 * unknown resource's right is never broad in prose (search syntax:
 * "state:all"). */
static size_t reach_lead_end(mv_str d);

static bool spoken_in(const mv_str *where, size_t nw, const char *w, size_t n) {
    for (size_t k = 0; k < nw; k++)
        if (where[k].ptr != NULL && word_starting(where[k], w, n))
            return true;
    return false;
}

#define PROSE_GRANT_READ 1200 /* bytes of the description read */

/* Do a[0, n) and b[0, n) hold the same ASCII letters, case aside? */
static bool same_ci(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return false;
    return true;
}

static int report_prose_grants(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    mv_str d = tool->fields[ts->desc].text;
    size_t lim = d.len < PROSE_GRANT_READ ? d.len : PROSE_GRANT_READ;
    if (lim < 8 || memchr(d.ptr, ':', lim) == NULL)
        return MV_OK;
    size_t lead = reach_lead_end(d);
    if (lead >= lim)
        return MV_OK;
    /* Round 22: the server's name is the service's own word too */
    const mv_str job[4] = {
        tool->name, tool->title, {d.ptr, lead}, mv_inspect_server(ts->ctx, tool)};
    unsigned count = 0;
    bool broad_any = false;
    uint64_t seen = 0;
    uint32_t off = 0, len = 0;
    bool found = false;
    size_t unk[8][2], n_unk = 0; /* the unknown heads counted */
    const char *c = memchr(d.ptr + lead, ':', lim - lead);
    while (c != NULL) {
        size_t s = (size_t)(c - d.ptr), e = s;
        while (s > lead && !grant_sep((unsigned char)d.ptr[s - 1]))
            s--;
        while (e < lim && !grant_sep((unsigned char)d.ptr[e]))
            e++;
        size_t next = e;
        while (e > s && (d.ptr[e - 1] == '.' || d.ptr[e - 1] == ':'))
            e--; /* a sentence's full stop, a label's colon */
        int head;
        bool broad;
        if (e > s && grant_token(d.ptr + s, e - s, &head, &broad)) {
            bool spoken;
            if (head == GRANT_UNKNOWN) {
                size_t hn = (size_t)((const char *)memchr(d.ptr + s, ':', e - s) - (d.ptr + s));
                char w[25];
                spoken = hn > 24;
                for (size_t i = 0; i < hn && !spoken; i++)
                    w[i] = (char)lower((unsigned char)d.ptr[s + i]);
                spoken = spoken || spoken_in(job, 4, w, hn);
                /* Round 22: a head compounded of the service's own words
                 * ("library_assets:read" on figma_get_library_component)
                 * is the service's own scope */
                for (size_t i = 0, a = 0; i <= hn && !spoken; i++)
                    if (i == hn || w[i] == '_' || w[i] == '-') {
                        spoken = i - a >= 4 && i - a < hn && spoken_in(job, 4, w + a, i - a);
                        a = i + 1;
                    }
                broad = false;
            } else if (head >= 0) {
                spoken = false;
                for (int k = 0; k < 4 && k_grant_heads[head].spoken[k] != NULL && !spoken; k++)
                    spoken = spoken_in(job, 4, k_grant_heads[head].spoken[k],
                                       strlen(k_grant_heads[head].spoken[k]));
            } else {
                spoken = false;
            }
            /* Round 22: one unknown resource read and written
             * ("tickets:read, tickets:write") is one ask */
            size_t un = head == GRANT_UNKNOWN
                            ? (size_t)((const char *)memchr(d.ptr + s, ':', e - s) - (d.ptr + s))
                            : 0;
            bool again = false;
            for (size_t k = 0; k < n_unk && !again; k++)
                again = unk[k][1] == un && same_ci(d.ptr + unk[k][0], d.ptr + s, un);
            if (!spoken && !again) {
                if (un > 0 && n_unk < 8) {
                    unk[n_unk][0] = s;
                    unk[n_unk++][1] = un;
                }
                uint64_t bit = head < 0 ? 1 : (uint64_t)1 << (head + 1);
                if (head < 0 || (seen & bit) == 0)
                    count++;
                seen |= bit;
                broad_any = broad_any || broad;
                if (!found) {
                    found = true;
                    off = (uint32_t)s;
                    len = (uint32_t)(e - s);
                }
            }
        }
        c = next < lim ? memchr(d.ptr + next, ':', lim - next) : NULL;
    }
    if (!found || (count < 2 && !broad_any))
        return MV_OK;
    declaration decl;
    int rc = declare(ts, &decl);
    if (rc != MV_OK || (decl.mask & ts->st->sensitive_mask) != 0)
        return rc;
    static const char detail[] = "the description lists access scopes (shell, files, network, "
                                 "mail or administration) that the tool's name and first "
                                 "sentence never mention";
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_TOOL_POISONING,
        .confidence = CAP_F_SILENT,
        .critical = false,
        .field = ts->desc,
        .offset = off,
        .length = len,
        .evidence = {d.ptr + off, len},
        .detail = {detail, sizeof(detail) - 1},
        .facets = 0,
    };
    return cap_emit(ts, &spec);
}

/* Detector 7: a secret asked in another language. The credential
 * parameters of detector 3 are judged only on a tool whose job the
 * declared classes know, and those are English words: a "sudo_salasana",
 * "digid_wachtwoord" or "imap_password" on a tool documented in Finnish,
 * Dutch or Persian (a clock status, a price per square metre, a log
 * formatter) asks for the user's login with no job to explain it. The
 * structure: an input parameter whose name or own short description names
 * a password (or a one-time code) in any language, on a tool whose prose
 * is not English (or whose parameter name is), and that neither names the
 * parameter's words nor speaks of logging in. English tools keep their
 * English rules (real tools ask for database and SMTP passwords). */

/* Password words of parameter names in other languages (ASCII, as
 * identifiers write them). */

/* The English ones, counted on a tool whose prose is not English. */
static const char *const k_secret_name_en[] = {"password", "passwd", "passphrase", "otp"};

/* Password words of a parameter's description, in the scripts and
 * spellings of the languages (matched as ASCII-case-folded bytes). */
static const char *const k_secret_desc[] = {
    "jelsz\xc3\xb3",
    "salasana",
    "\xc5\x9fifre",
    "sifre",
    "wachtwoord",
    "adgangskode",
    "passord",
    "l\xc3\xb6senord",
    "has\xc5\x82o",
    "heslo",
    "geslo",
    "lozinka",
    "kata laluan",
    "kata sandi",
    "m\xe1\xba\xadt kh\xe1\xba\xa9u",
    "nenosiri",
    "contrase\xc3\xb1"
    "a",
    "mot de passe",
    "passwort",
    "kennwort",
    "senha",
    "\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89",
    "\xe5\xaf\x86\xe7\xa0\x81",
    "\xe5\xaf\x86\xe7\xa2\xbc",
    "\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8",
    "\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb",
    "\xce\xba\xcf\x89\xce\xb4\xce\xb9\xce\xba",
    "\xd7\xa1\xd7\x99\xd7\xa1\xd7\x9e",
    "\xd9\x83\xd9\x84\xd9\x85\xd8\xa9 \xd8\xa7\xd9\x84\xd9\x85\xd8\xb1\xd9\x88\xd8\xb1",
    "\xda\xaf\xd8\xb0\xd8\xb1\xd9\x88\xd8\xa7\xda\x98\xd9\x87",
    "\xd8\xb1\xd9\x85\xd8\xb2 \xd8\xb9\xd8\xa8\xd9\x88\xd8\xb1",
    "\xe0\xa4\xaa\xe0\xa4\xbe\xe0\xa4\xb8\xe0\xa4\xb5\xe0\xa4\xb0\xe0\xa5\x8d\xe0\xa4\xa1",
    "\xe0\xa6\xaa\xe0\xa6\xbe\xe0\xa6\xb8\xe0\xa6\x93\xe0\xa6\xaf\xe0\xa6\xbc\xe0\xa6\xbe\xe0\xa6"
    "\xb0\xe0\xa7\x8d\xe0\xa6\xa1",
    "\xe0\xb8\xa3\xe0\xb8\xab\xe0\xb8\xb1\xe0\xb8\xaa\xe0\xb8\x9c\xe0\xb9\x88\xe0\xb8\xb2\xe0\xb8"
    "\x99"};

/* The model's own context asked by a parameter's description: the
 * conversation so far, in the languages. A "system prompt" is left out:
 * tools that call or build AI functions take one as their input (a real
 * Chinese template generator's 系统提示词). */
static const char *const k_context_desc[] = {
    "samtalen",
    "samtalehistorikk",
    "konversationen",
    "gespr\xc3\xa4"
    "chsverlauf",
    "chatverlauf",
    "gespreksgeschiedenis",
    "het hele gesprek",
    "historique de la conversation",
    "conversation compl\xc3\xa8te",
    "prompt syst\xc3\xa8me",
    "historial de la conversaci\xc3\xb3n",
    "historial del chat",
    "conversaci\xc3\xb3n completa",
    "hist\xc3\xb3rico da conversa",
    "conversa inteira",
    "cronologia della conversazione",
    "conversazione completa",
    "historia rozmowy",
    "ca\xc5\x82\xc4\x85 rozmow\xc4\x99",
    "historie konverzace",
    "celou konverzaci",
    "\xd0\xb8\xd1\x81\xd1\x82\xd0\xbe\xd1\x80\xd0\xb8\xd1\x8e "
    "\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb5\xd0\xbf\xd0\xb8\xd1\x81\xd0\xba\xd0\xb8",
    "\xd0\xb8\xd1\x81\xd1\x82\xd0\xbe\xd1\x80\xd0\xb8\xd1\x8e "
    "\xd0\xb4\xd0\xb8\xd0\xb0\xd0\xbb\xd0\xbe\xd0\xb3\xd0\xb0",
    "\xd0\xb8\xd1\x81\xd1\x82\xd0\xbe\xd1\x80\xd0\xb8\xd1\x8f "
    "\xd0\xb4\xd0\xb8\xd0\xb0\xd0\xbb\xd0\xbe\xd0\xb3\xd0\xb0",
    "\xd0\xb2\xd1\x81\xd1\x8e "
    "\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb5\xd0\xbf\xd0\xb8\xd1\x81\xd0\xba\xd1\x83",
    "\xd1\x96\xd1\x81\xd1\x82\xd0\xbe\xd1\x80\xd1\x96\xd1\x8e "
    "\xd1\x80\xd0\xbe\xd0\xb7\xd0\xbc\xd0\xbe\xd0\xb2\xd0\xb8",
    "sohbet ge\xc3\xa7mi\xc5\x9f",
    "t\xc3\xbcm konu\xc5\x9fma",
    "keskusteluhistoria",
    "koko keskustelu",
    "besz\xc3\xa9lget\xc3\xa9s el\xc5\x91zm\xc3\xa9ny",
    "teljes besz\xc3\xa9lget\xc3\xa9s",
    "istoricul conversa\xc8\x9bi",
    "riwayat percakapan",
    "sejarah perbualan",
    "seluruh percakapan",
    "l\xe1\xbb\x8b"
    "ch s\xe1\xbb\xad tr\xc3\xb2 chuy\xe1\xbb\x87n",
    "to\xc3\xa0n b\xe1\xbb\x99 cu\xe1\xbb\x99"
    "c tr\xc3\xb2 chuy\xe1\xbb\x87n",
    "h\xc6\xb0\xe1\xbb\x9bng d\xe1\xba\xabn h\xe1\xbb\x87 th\xe1\xbb\x91ng",
    "\xe4\xbc\x9a\xe8\xa9\xb1\xe5\xb1\xa5\xe6\xad\xb4",
    "\xe4\xbc\x9a\xe8\xa9\xb1\xe3\x81\xae\xe5\xb1\xa5\xe6\xad\xb4",
    "\xe5\xaf\xb9\xe8\xaf\x9d\xe5\x8e\x86\xe5\x8f\xb2",
    "\xe5\xb0\x8d\xe8\xa9\xb1\xe6\xad\xb7\xe5\x8f\xb2",
    "\xe8\x81\x8a\xe5\xa4\xa9\xe8\xae\xb0\xe5\xbd\x95",
    "\xe5\xae\x8c\xe6\x95\xb4\xe5\xaf\xb9\xe8\xaf\x9d",
    "\xeb\x8c\x80\xed\x99\x94 \xea\xb8\xb0\xeb\xa1\x9d",
    "\xeb\x8c\x80\xed\x99\x94 \xeb\x82\xb4\xec\x97\xad",
    "\xd8\xb3\xd8\xac\xd9\x84 \xd8\xa7\xd9\x84\xd9\x85\xd8\xad\xd8\xa7\xd8\xaf\xd8\xab\xd8\xa9",
    "\xd8\xa7\xd9\x84\xd9\x85\xd8\xad\xd8\xa7\xd8\xaf\xd8\xab\xd8\xa9 "
    "\xd9\x83\xd8\xa7\xd9\x85\xd9\x84\xd8\xa9",
    "\xd7\x94\xd7\x99\xd7\xa1\xd7\x98\xd7\x95\xd7\xa8\xd7\x99\xd7\x99\xd7\xaa "
    "\xd7\x94\xd7\xa9\xd7\x99\xd7\x97\xd7\x94",
    "\xd8\xaa\xd8\xa7\xd8\xb1\xdb\x8c\xd8\xae\xda\x86\xd9\x87 "
    "\xda\xaf\xd9\x81\xd8\xaa\xda\xaf\xd9\x88",
    "\xe0\xa4\xac\xe0\xa4\xbe\xe0\xa4\xa4\xe0\xa4\x9a\xe0\xa5\x80\xe0\xa4\xa4 "
    "\xe0\xa4\x95\xe0\xa4\xbe "
    "\xe0\xa4\x87\xe0\xa4\xa4\xe0\xa4\xbf\xe0\xa4\xb9\xe0\xa4\xbe\xe0\xa4\xb8",
    "\xe0\xa4\xaa\xe0\xa5\x82\xe0\xa4\xb0\xe0\xa5\x80 "
    "\xe0\xa4\xac\xe0\xa4\xbe\xe0\xa4\xa4\xe0\xa4\x9a\xe0\xa5\x80\xe0\xa4\xa4",
    "\xe0\xa6\x95\xe0\xa6\xa5\xe0\xa7\x8b\xe0\xa6\xaa\xe0\xa6\x95\xe0\xa6\xa5\xe0\xa6\xa8\xe0\xa7"
    "\x87\xe0\xa6\xb0 \xe0\xa6\x87\xe0\xa6\xa4\xe0\xa6\xbf\xe0\xa6\xb9\xe0\xa6\xbe\xe0\xa6\xb8",
    "\xe0\xae\x89\xe0\xae\xb0\xe0\xaf\x88\xe0\xae\xaf\xe0\xae\xbe\xe0\xae\x9f\xe0\xae\xb2\xe0\xaf"
    "\x8d \xe0\xae\xb5\xe0\xae\xb0\xe0\xae\xb2\xe0\xae\xbe\xe0\xae\xb1\xe0\xaf\x81",
    "\xe0\xb8\x9b\xe0\xb8\xa3\xe0\xb8\xb0\xe0\xb8\xa7\xe0\xb8\xb1\xe0\xb8\x95\xe0\xb8\xb4\xe0\xb8"
    "\x81\xe0\xb8\xb2\xe0\xb8\xa3\xe0\xb8\xaa\xe0\xb8\x99\xe0\xb8\x97\xe0\xb8\x99\xe0\xb8\xb2",
    "historia ya mazungumzo",
    "mazungumzo yote",
    "\xce\xb9\xcf\x83\xcf\x84\xce\xbf\xcf\x81\xce\xb9\xce\xba\xcf\x8c "
    "\xcf\x83\xcf\x85\xce\xbd\xce\xbf\xce\xbc\xce\xb9\xce\xbb",
};

/* A tool whose prose speaks of chats, conversations or prompts has a use
 * for them (an exporter, a summarizer). */
static const char *const k_context_topic[] = {
    "chat",
    "conversation",
    "prompt",
    "transcript",
    "gespr\xc3\xa4"
    "ch",
    "samtal",
    "konversation",
    "gesprek",
    "conversa",
    "rozmow",
    "\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb5\xd0\xbf\xd0\xb8\xd1\x81\xd0\xba",
    "\xd0\xb4\xd0\xb8\xd0\xb0\xd0\xbb\xd0\xbe\xd0\xb3",
    "\xd1\x80\xd0\xbe\xd0\xb7\xd0\xbc\xd0\xbe\xd0\xb2",
    "sohbet",
    "konu\xc5\x9fma",
    "keskustel",
    "besz\xc3\xa9lget",
    "percakapan",
    "perbualan",
    "tr\xc3\xb2 chuy\xe1\xbb\x87n",
    "\xe4\xbc\x9a\xe8\xa9\xb1",
    "\xe5\xaf\xb9\xe8\xaf\x9d",
    "\xe5\xb0\x8d\xe8\xa9\xb1",
    "\xe8\x81\x8a\xe5\xa4\xa9",
    "\xeb\x8c\x80\xed\x99\x94",
    "\xd9\x85\xd8\xad\xd8\xa7\xd8\xaf\xd8\xab\xd8\xa9",
    "\xd7\xa9\xd7\x99\xd7\x97\xd7\x94",
    "\xda\xaf\xd9\x81\xd8\xaa\xda\xaf\xd9\x88",
    "\xe0\xa4\xac\xe0\xa4\xbe\xe0\xa4\xa4\xe0\xa4\x9a\xe0\xa5\x80\xe0\xa4\xa4",
    "\xe0\xa6\x95\xe0\xa6\xa5\xe0\xa7\x8b\xe0\xa6\xaa\xe0\xa6\x95\xe0\xa6\xa5\xe0\xa6\xa8",
    "\xe0\xae\x89\xe0\xae\xb0\xe0\xaf\x88\xe0\xae\xaf\xe0\xae\xbe\xe0\xae\x9f\xe0\xae\xb2\xe0\xaf"
    "\x8d",
    "\xe0\xb8\xaa\xe0\xb8\x99\xe0\xb8\x97\xe0\xb8\x99\xe0\xb8\xb2",
    "mazungumzo",
    "\xcf\x83\xcf\x85\xce\xbd\xce\xbf\xce\xbc\xce\xb9\xce\xbb"};

/* Logging in, said by a tool whose job it is (en and the languages). */
static const char *const k_login_words[] = {"login",
                                            "log in",
                                            "sign in",
                                            "signin",
                                            "auth",
                                            "anmeld",
                                            "inlog",
                                            "logga in",
                                            "kirjaudu",
                                            "bejelentkez",
                                            "zaloguj",
                                            "p\xc5\x99ihl\xc3\xa1s",
                                            "giri\xc5\x9f",
                                            "connexion",
                                            "iniciar sesi",
                                            "accedi",
                                            "entrar",
                                            "masuk",
                                            "\xc4\x91\xc4\x83ng nh\xe1\xba\xadp",
                                            "\xd0\xb2\xd0\xbe\xd0\xb9\xd1\x82\xd0\xb8",
                                            "\xe3\x83\xad\xe3\x82\xb0\xe3\x82\xa4\xe3\x83\xb3",
                                            "\xe7\x99\xbb\xe5\xbd\x95",
                                            "\xeb\xa1\x9c\xea\xb7\xb8\xec\x9d\xb8"};

/* Does the tool's prose read as other than English? More function words
 * of the other languages (de, het, und, og, ja, yang ...) than English
 * ones, or letters outside ASCII and no English function word. Short
 * English ("Get current kubeconfig context.") has neither kind and is
 * English. Stops once English clearly wins, so English descriptions cost
 * a few words. */
static bool prose_foreign(mv_str d) {
    static const char *const k_fn[] = {"the",  "a",    "an", "of", "to",   "and",  "for",
                                       "from", "with", "by", "on", "your", "this", "is",
                                       "are",  "or",   "as", "it", "into", "its"};
    static const char *const k_fn_other[] = {
        "de",     "la",     "le",  "les",  "des",   "du",  "et",  "est", "une", "el",   "los",
        "las",    "y",      "del", "que",  "para",  "por", "en",  "und", "das", "ist",  "nicht",
        "mit",    "von",    "zu",  "auf",  "eine",  "ein", "der", "den", "dem", "het",  "een",
        "voor",   "naar",   "il",  "di",   "della", "che", "um",  "uma", "em",  "ao",   "og",
        "af",     "av",     "til", "med",  "som",   "att", "och", "er",  "ja",  "ei",   "tai",
        "jest",   "nie",    "egy", "az",   "hogy",  "ve",  "bir", "ile", "dan", "yang", "untuk",
        "dengan", "ini",    "itu", "dari", "kwa",   "ya",  "na",  "cho", "si",  "pe",   "cu",
        "sau",    "pentru", "je",  "se",   "na",    "ze",  "pro"};
    /* first letters of either list: most words are tried against neither */
    bool fe[256] = {false}, fo[256] = {false};
    for (size_t k = 0; k < sizeof(k_fn) / sizeof(k_fn[0]); k++)
        fe[(unsigned char)k_fn[k][0]] = true;
    for (size_t k = 0; k < sizeof(k_fn_other) / sizeof(k_fn_other[0]); k++)
        fo[(unsigned char)k_fn_other[k][0]] = true;
    size_t eng = 0, other = 0;
    bool high = false;
    /* the opening 320 bytes tell the language; the rest is not read */
    size_t lim = d.len < 320 ? d.len : 320;
    for (size_t i = 0; i < lim;) {
        while (i < lim && !is_alnum((unsigned char)d.ptr[i])) {
            high = high || (unsigned char)d.ptr[i] >= 0x80;
            i++;
        }
        size_t j = i;
        while (j < lim && is_alnum((unsigned char)d.ptr[j]) && (unsigned char)d.ptr[j] < 0x80)
            j++;
        if (j < lim && (unsigned char)d.ptr[j] >= 0x80) {
            /* a word with letters outside ASCII is no function word of
             * either list */
            high = true;
            while (j < lim &&
                   ((unsigned char)d.ptr[j] >= 0x80 || is_alnum((unsigned char)d.ptr[j])))
                j++;
        } else if (j > i && j - i <= 6) {
            unsigned char c0 = lower((unsigned char)d.ptr[i]);
            if (fe[c0] && in_list(d.ptr + i, j - i, GRANT_LIST(k_fn)))
                eng++;
            else if (fo[c0] && in_list(d.ptr + i, j - i, GRANT_LIST(k_fn_other)))
                other++;
            if (eng >= 2 && eng > other + 1)
                return false;
        }
        i = j;
    }
    return other > eng || (eng == 0 && high);
}

/* Does t contain any word of the list (ASCII case folded)? One pass over
 * t: only a byte that starts some word of the list is tried, so a long
 * description in a script of its own costs a few instructions a byte. */
static bool any_ci(mv_str t, const char *const *list, size_t count) {
    if (t.ptr == NULL || t.len == 0)
        return false;
    bool first[256] = {false};
    for (size_t k = 0; k < count; k++)
        first[(unsigned char)list[k][0]] = true;
    for (size_t i = 0; i < t.len; i++) {
        unsigned char c = lower((unsigned char)t.ptr[i]);
        if (!first[c])
            continue;
        for (size_t k = 0; k < count; k++) {
            const char *w = list[k];
            if ((unsigned char)w[0] != c)
                continue;
            size_t n = strlen(w), m = 1;
            while (m < n && i + m < t.len &&
                   lower((unsigned char)t.ptr[i + m]) == (unsigned char)w[m])
                m++;
            if (m == n)
                return true;
        }
    }
    return false;
}

/* A review signal on a whole field (a parameter's property name, a
 * default): what it asks for is nowhere in the tool's job (round 14,
 * reach14; round 15's defaults naming secret stores). */
static int emit_unexplained_param(tool_scan *ts, int32_t fi, const char *detail, size_t len) {
    const mv_field *f = &ts->tool->fields[fi];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = CAP_F_SILENT,
        .critical = false,
        .field = fi,
        .offset = 0,
        .length = (uint32_t)f->text.len,
        .evidence = f->text,
        .detail = {detail, len},
        .facets = 0,
    };
    return cap_emit(ts, &spec);
}

static bool job_words(const char *t, size_t len, const char *const *w, size_t nw);

/* Jobs that need a login secret (a password, a token, a session). */
static const char *const k_need_login[] = {
    "login", "log in", "logon", "log on", "sign in", "signin", "sign-in", "sign up", "signup",
    "auth", "oauth", "sso", "saml", "ldap", "account", "password", "passwd", "credential", "secret",
    "token", "api$", "apis$", "key$", "keys$", "vault", "keychain", "keyring", "connect", "session",
    "cookie", "user", "admin", "member", "profile", "mail", "e-mail", "smtp", "imap", "pop3",
    "inbox", "database", "db", "sql", "postgres", "mysql", "mongo", "redis", "server", "host",
    "remote", "ssh", "sftp", "ftp", "vpn", "wifi", "wi-fi", "router", "cloud", "aws", "gcp",
    "azure", "kube", "cluster", "deploy", "git", "repo", "otp", "2fa", "mfa", "totp", "unlock",
    "proxy", "client", "service", "portal", "webhook", "endpoint", "integration", "tenant",
    "workspace", "subscri", "publish", "push", "upload", "registry", "sync", "backup", "import",
    "export", "k8s", "pod", "helm", "docker", "container", "alarm", "secur", "lock", "door",
    "guard", "customer", "employee", "staff", "tenant", "onboard", "provision", "pdf", "zip", "rar",
    "archive", "document", "filing", "e-filing", "gateway", "alarma", "alarme", "seguridad",
    "sicherheit", "home", "house", "smart", "casa", "maison", "haus", "huis",
    "\xd0\xb4\xd0\xbe\xd0\xbc",                 /* дом */
    "\xd0\xbe\xd1\x85\xd1\x80\xd0\xb0\xd0\xbd", /* охран */
    /* the languages */
    "anmeld", "inlog", "logga in", "kirjaudu", "bejelentkez", "zaloguj", "p\xc5\x99ihl\xc3\xa1s",
    "giri\xc5\x9f", "connexion", "iniciar sesi", "inicia sesi", "accedi", "entrar", "masuk",
    "\xc4\x91\xc4\x83ng nh\xe1\xba\xadp", "\xd0\xb2\xd0\xbe\xd0\xb9\xd1\x82\xd0\xb8", /* войти */
    "\xe3\x83\xad\xe3\x82\xb0\xe3\x82\xa4\xe3\x83\xb3",     /* ログイン */
    "\xe7\x99\xbb\xe5\xbd\x95", "\xe7\x99\xbb\xe5\x85\xa5", /* 登录 登入 */
    "\xeb\xa1\x9c\xea\xb7\xb8\xec\x9d\xb8",                 /* 로그인 */
    "cuenta$", "cuentas$", "conta$", "contas$", "compte$", "comptes$", "konto", "akun$", "hesap$",
    "hesab", "t\xc3\xa0i kho\xe1\xba\xa3n",
    "\xe3\x82\xa2\xe3\x82\xab\xe3\x82\xa6\xe3\x83\xb3\xe3\x83\x88", /* アカウント */
    "\xe8\xb4\xa6\xe6\x88\xb7", "\xe8\xb4\xa6\xe5\x8f\xb7", "\xe5\xb8\xb3\xe6\x88\xb6",
    "\xe5\xb8\xb3\xe8\x99\x9f",                                 /* 账户 账号 帳戶 帳號 */
    "\xea\xb3\x84\xec\xa0\x95",                                 /* 계정 */
    "\xd0\xb0\xd0\xba\xd0\xba\xd0\xb0\xd1\x83\xd0\xbd\xd1\x82", /* аккаунт */
    "\xd1\x83\xd1\x87\xd0\xb5\xd1\x82\xd0\xbd",
    "\xd1\x83\xd1\x87\xd1\x91\xd1\x82\xd0\xbd", /* учетн */
    "sesi\xc3\xb3n", "sess\xc3\xa3o", "sitzung", "conect", "verbind",
    "po\xc5\x82\xc4\x85"
    "cz",
    "ba\xc4\x9flan", "k\xe1\xba\xbft n\xe1\xbb\x91i", "\xe6\x8e\xa5\xe7\xb6\x9a",
    "\xe8\xbf\x9e\xe6\x8e\xa5", "\xe9\x80\xa3\xe7\xb7\x9a", "\xec\x97\xb0\xea\xb2\xb0",
    "\xd0\xbf\xd0\xbe\xd0\xb4\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87", /* подключ */
    "contrase\xc3\xb1"
    "a",
    "senha", "mot de passe", "passwort", "kennwort", "wachtwoord", "has\xc5\x82o", "\xc5\x9fifre",
    "m\xe1\xba\xadt kh\xe1\xba\xa9u", "salasana", "jelsz",
    "\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89", "\xe5\xaf\x86\xe7\xa0\x81",
    "\xe5\xaf\x86\xe7\xa2\xbc", "\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8",
    "\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb", /* пароль */
    "correo", "courriel", "e-post", "posta", "\xd0\xbf\xd0\xbe\xd1\x87\xd1\x82",
    "\xe3\x83\xa1\xe3\x83\xbc\xe3\x83\xab", "\xe9\x82\xae", "\xe9\x83\xb5",
    "\xeb\xa9\x94\xec\x9d\xbc", "servidor", "serveur", "\xe3\x82\xb5\xe3\x83\xbc\xe3\x83\x90",
    "\xe6\x9c\x8d\xe5\x8a\xa1", "\xe6\x9c\x8d\xe5\x8b\x99", "\xec\x84\x9c\xeb\xb2\x84",
    "\xec\x84\x9c\xeb\xb9\x84\xec\x8a\xa4", "\xd1\x81\xd0\xb5\xd1\x80\xd0\xb2\xd0\xb5\xd1\x80",
    "\xd1\x81\xd0\xb5\xd1\x80\xd0\xb2\xd0\xb8\xd1\x81", "\xe8\xaa\x8d\xe8\xa8\xbc",
    "\xe8\xae\xa4\xe8\xaf\x81", "\xec\x9d\xb8\xec\xa6\x9d",      /* 認証 认证 인증 */
    "\xd0\xb0\xd0\xb2\xd1\x82\xd0\xbe\xd1\x80\xd0\xb8\xd0\xb7"}; /* авториз */

/* Jobs that need a key: a wallet, a signature, encryption, a host. */
static const char *const k_need_key[] = {
    "wallet",
    "sign",
    "encrypt",
    "decrypt",
    "crypt",
    "cipher",
    "cert",
    "tls",
    "ssl",
    "pgp",
    "gpg",
    "jwt",
    "transaction",
    "tx$",
    "transfer",
    "send",
    "withdraw",
    "stake",
    "swap",
    "mint",
    "bridge",
    "contract",
    "chain",
    "keystore",
    "zertifikat",
    "certificado",
    "certificat",
    "certyfikat",
    "sertifika",
    "ch\xe1\xbb\xa9ng ch\xe1\xbb\x89",
    "\xe8\xa8\xbc\xe6\x98\x8e\xe6\x9b\xb8",
    "\xe8\xaf\x81\xe4\xb9\xa6",
    "\xec\x9d\xb8\xec\xa6\x9d\xec\x84\x9c",
    "\xd1\x81\xd0\xb5\xd1\x80\xd1\x82\xd0\xb8\xd1\x84",
    /* сертиф */ "cartera",
    "billetera",
    "carteira",
    "portefeuille",
    "portafoglio",
    "portfel",
    "c\xc3\xbczdan",
    "v\xc3\xad ",
    "firma",
    "assina",
    "signat",
    "unterschr",
    "podpis",
    "imza",
    "cifr",
    "chiffr",
    "verschl",
    "szyfr",
    "transacc",
    "transa\xc3\xa7",
    "transfer",
    "envia",
    "envoy",
    "\xe3\x82\xa6\xe3\x82\xa9\xe3\x83\xac\xe3\x83\x83\xe3\x83\x88", /* ウォレット */
    "\xe9\x92\xb1\xe5\x8c\x85",
    "\xe9\x8c\xa2\xe5\x8c\x85",
    "\xec\xa7\x80\xea\xb0\x91",                 /* 钱包 錢包 지갑 */
    "\xd0\xba\xd0\xbe\xd1\x88\xd0\xb5\xd0\xbb", /* кошел */
    "\xe7\xbd\xb2\xe5\x90\x8d",
    "\xe7\xad\xbe\xe5\x90\x8d",
    "\xec\x84\x9c\xeb\xaa\x85", /* 署名 签名 서명 */
    "\xe6\x9a\x97\xe5\x8f\xb7",
    "\xe5\x8a\xa0\xe5\xaf\x86",
    "\xec\x95\x94\xed\x98\xb8", /* 暗号 加密 암호 */
    "\xe9\x80\x81\xe9\x87\x91",
    "\xe8\xbd\xac\xe8\xb4\xa6",
    "\xec\x86\xa1\xea\xb8\x88"}; /* 送金 转账 송금 */

/* Jobs that need a card, a bank login or an identity number. */
static const char *const k_need_pay[] = {
    "bank",
    "banc",
    "banq",
    "pay",
    "checkout",
    "invoice",
    "billing",
    "bill",
    "card",
    "purchase",
    "order",
    "buy",
    "shop",
    "merchant",
    "refund",
    "subscri",
    "donat",
    "loan",
    "credit",
    "financ",
    "tax",
    "payroll",
    "salary",
    "kyc",
    "aml",
    "identity",
    "verif",
    "onboard",
    "employee",
    "hire",
    "recruit",
    "hr",
    "passport",
    "visa",
    "travel",
    "flight",
    "booking",
    "reserv",
    "check-in",
    "checkin",
    "hotel",
    "insurance",
    "claim",
    "patient",
    "tenant",
    "lease",
    "rent",
    "gov",
    "citizen",
    "registr",
    "notar",
    "contract",
    "wallet",
    "money",
    "transfer",
    "iban",
    "sepa",
    "giro",
    "swift",
    "\xc3\xbc"
    "berweis",
    "virement",
    "bonifico",
    "przelew",
    "havale",
    "pii",
    "privacy",
    "redact",
    "anonymi",
    "pseudonym",
    "gdpr",
    "dlp",
    "sensitive",
    "mask",
    "patient",
    "pacjent",
    "paziente",
    "pati\xc3\xabnt",
    "hasta",
    "b\xe1\xbb\x87nh nh\xc3\xa2n",
    "\xe6\x82\xa3\xe8\x80\x85",
    "\xed\x99\x98\xec\x9e\x90",
    "consent",
    "zgod",
    "einwillig",
    "consentimiento",
    "consentement",
    "pago",
    "pagamento",
    "paiement",
    "zahl",
    "p\xc5\x82"
    "at",
    "\xc3\xb6"
    "deme",
    "thanh to\xc3\xa1n",
    "tarjeta",
    "cart\xc3\xa3o",
    "carte",
    "karte",
    "kart",
    "th\xe1\xba\xbb",
    "factura",
    "fatura",
    "facture",
    "rechnung",
    "faktur",
    "impuesto",
    "imposto",
    "imp\xc3\xb4t",
    "steuer",
    "podat",
    "vergi",
    "n\xc3\xb3mina",
    "empleado",
    "funcion\xc3\xa1rio",
    "salari",
    "mitarbeiter",
    "pracownik",
    "\xc3\xa7"
    "al\xc4\xb1\xc5\x9f"
    "an",
    "nh\xc3\xa2n vi\xc3\xaan",
    "pasaporte",
    "passaporte",
    "passeport",
    "reisepass",
    "paszport",
    "pasaport",
    "h\xe1\xbb\x99 chi\xe1\xba\xbfu",
    "viaje",
    "viagem",
    "voyage",
    "reise",
    "vuelo",
    "voo",
    "flug",
    "reserva",
    "seguro",
    "assur",
    "versicher",
    "sigorta",
    "b\xe1\xba\xa3o hi\xe1\xbb\x83m",
    "\xe6\x94\xaf\xe6\x89\x95",
    "\xe6\xb1\xba\xe6\xb8\x88",
    "\xe6\x94\xaf\xe4\xbb\x98",
    "\xe4\xbb\x98\xe6\xac\xbe",
    "\xea\xb2\xb0\xec\xa0\x9c", /* 支払 決済 支付 付款 결제 */
    "\xe9\x8a\x80\xe8\xa1\x8c",
    "\xe9\x93\xb6\xe8\xa1\x8c",
    "\xec\x9d\x80\xed\x96\x89", /* 銀行 银行 은행 */
    "\xe3\x82\xab\xe3\x83\xbc\xe3\x83\x89",
    "\xe5\x8d\xa1",
    "\xec\xb9\xb4\xeb\x93\x9c", /* カード 卡 카드 */
    "\xe6\x9c\xac\xe4\xba\xba\xe7\xa2\xba\xe8\xaa\x8d",
    "\xe5\xae\x9e\xe5\x90\x8d", /* 本人確認 实名 */
    "\xe3\x83\x91\xe3\x82\xb9\xe3\x83\x9d\xe3\x83\xbc\xe3\x83\x88",
    "\xe6\x8a\xa4\xe7\x85\xa7",
    "\xe8\xad\xb7\xe7\x85\xa7",
    "\xec\x97\xac\xea\xb6\x8c", /* パスポート 护照 護照 여권 */
    "\xe5\xbe\x93\xe6\xa5\xad\xe5\x93\xa1",
    "\xe5\x91\x98\xe5\xb7\xa5",
    "\xec\xa7\x81\xec\x9b\x90",
    "\xd0\xb1\xd0\xb0\xd0\xbd\xd0\xba",
    "\xd0\xbf\xd0\xbb\xd0\xb0\xd1\x82",
    "\xd0\xbe\xd0\xbf\xd0\xbb\xd0\xb0\xd1\x82",
    "\xd0\xba\xd0\xb0\xd1\x80\xd1\x82",
    "\xd0\xbf\xd0\xb0\xd1\x81\xd0\xbf\xd0\xbe\xd1\x80\xd1\x82",
    "\xd1\x81\xd0\xbe\xd1\x82\xd1\x80\xd1\x83\xd0\xb4\xd0\xbd\xd0\xb8\xd0\xba"}; /* банк плат оплат
                                                                                    карт паспорт
                                                                                    сотрудник */

/* Jobs that need health records. */
static const char *const k_need_health[] = {
    "patient",
    "paciente",
    "pacjent",
    "paziente",
    "hasta",
    "\xe6\x82\xa3\xe8\x80\x85",
    "\xed\x99\x98\xec\x9e\x90",
    "health",
    "salud",
    "sa\xc3\xba"
    "de",
    "sant\xc3\xa9",
    "gesundheit",
    "zdrow",
    "sa\xc4\x9fl\xc4\xb1k",
    "s\xe1\xbb\xa9"
    "c kh\xe1\xbb\x8f"
    "e",
    "medic",
    "m\xc3\xa9"
    "dic",
    "clinic",
    "cl\xc3\xadnic",
    "klinik",
    "doctor",
    "arzt",
    "lekarz",
    "doktor",
    "b\xc3\xa1"
    "c s\xc4\xa9",
    "hospital",
    "krankenh",
    "szpital",
    "hastane",
    "fhir",
    "ehr",
    "emr",
    "hl7",
    "pharma",
    "farmac",
    "apothek",
    "prescri",
    "receta",
    "symptom",
    "diagnos",
    "therap",
    "terapi",
    "care",
    "nurse",
    "dental",
    "vaccin",
    "lab",
    "fitness",
    "wellness",
    "insur",
    "seguro",
    "versicher",
    "\xe5\x81\xa5\xe5\xba\xb7",
    "\xe5\x8c\xbb",
    "\xe9\x86\xab",
    "\xe7\x97\x85", /* 健康 医 醫 病 */
    "\xea\xb1\xb4\xea\xb0\x95",
    "\xec\x9d\x98\xeb\xa3\x8c",
    "\xeb\xb3\x91\xec\x9b\x90", /* 건강 의료 병원 */
    "\xd0\xb7\xd0\xb4\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb2",
    "\xd0\xbc\xd0\xb5\xd0\xb4", /* здоров мед */
    "\xd0\xb1\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xbd",
    "\xd0\xbf\xd0\xb0\xd1\x86\xd0\xb8\xd0\xb5\xd0\xbd\xd1\x82"};

#define CRED_PROPS_MAX 12 /* input properties of a tool judged by detector 15 */

/* Does the job (the four job texts) hold a word of the list? A word
 * opening a job word, or, for one ending in '$', the whole job word (the
 * French "compte", an account, is not "compter", to count). */
static bool job_needs(const mv_str *jt, const char *const *w, size_t nw) {
    for (int j = 0; j < 4; j++) {
        const char *t = jt[j].ptr;
        size_t len = jt[j].len;
        for (size_t i = 0; t != NULL && i < len; i++) {
            if (i > 0 && is_alnum((unsigned char)t[i - 1]))
                continue;
            for (size_t k = 0; k < nw; k++) {
                size_t n = strlen(w[k]);
                bool whole = n > 0 && w[k][n - 1] == '$';
                n -= whole;
                if (i + n <= len && same_ci(t + i, w[k], n) &&
                    (!whole || i + n == len || !is_alnum((unsigned char)t[i + n])))
                    return true;
            }
        }
    }
    return false;
}

static int report_foreign_secret(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    int foreign = -1; /* the tool's language, worked out for a candidate only */
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->has_enum || str_is(pm->type, "number") || str_is(pm->type, "integer") ||
            str_is(pm->type, "boolean"))
            continue;
        /* the conversation or the system instructions asked by the
         * parameter's own description (either schema side: an output field
         * the model fills is as much an ask) */
        /* descriptions in other languages carry letters outside ASCII
         * (a cheap gate: English parameter descriptions are not searched) */
        bool high = false;
        for (size_t i = 0; i < pm->description.len && i < 400 && !high; i++)
            high = (unsigned char)pm->description.ptr[i] >= 0x80;
        if (high && pm->description.len <= 400 &&
            any_ci(pm->description, GRANT_LIST(k_context_desc))) {
            if (foreign < 0)
                foreign = prose_foreign(tool->description);
            if (foreign && !any_ci(tool->name, GRANT_LIST(k_context_topic)) &&
                !any_ci(tool->description, GRANT_LIST(k_context_topic)) &&
                !any_ci(tool->description, GRANT_LIST(k_context_desc))) {
                int32_t ci = property_field(tool, p);
                if (ci >= 0) {
                    static const char cdetail[] =
                        "a parameter asks for the conversation so far, which the tool's name "
                        "and description never mention";
                    return emit_unexplained_param(ts, ci, cdetail, sizeof(cdetail) - 1);
                }
            }
        }
        if (pm->schema != MV_SCHEMA_INPUT)
            continue;
        char w[CAP_NAME_MAX * 2 + 2];
        size_t wn = split_words(pm->name.ptr, pm->name.len, w, sizeof(w));
        bool other = false, english = false;
        for (size_t i = 0; i < wn;) {
            size_t j = i;
            while (j < wn && w[j] != ' ')
                j++;
            other = other || in_list(w + i, j - i, GRANT_LIST(k_secret_name_words));
            english = english || in_list(w + i, j - i, GRANT_LIST(k_secret_name_en));
            i = j + 1;
        }
        if (!other) {
            if (!english && (!high || pm->description.len > 160 ||
                             !any_ci(pm->description, GRANT_LIST(k_secret_desc))))
                continue;
            if (foreign < 0)
                foreign = prose_foreign(tool->description);
            if (!foreign)
                continue;
        }
        /* a login tool, a tool that says it needs a password (an IMAP
         * reader: "an app password is required"), or a parameter its tool
         * speaks of, is explained */
        if (param_spoken_of(tool, pm->name) || any_ci(tool->name, GRANT_LIST(k_login_words)) ||
            any_ci(tool->title, GRANT_LIST(k_login_words)) ||
            any_ci(tool->description, GRANT_LIST(k_login_words)) ||
            any_ci(tool->description, GRANT_LIST(k_secret_desc)) ||
            any_ci(tool->description, GRANT_LIST(k_secret_name_en)))
            continue;
        int32_t fi = property_field(tool, p);
        if (fi < 0)
            continue;
        static const char detail[] = "a parameter asks for a password or one-time code, which "
                                     "the tool's name and description never mention";
        return emit_unexplained_param(ts, fi, detail, sizeof(detail) - 1);
    }
    return MV_OK;
}

/* ------------------------------------------------------------ round 15 */

/* Detector 8 (round 15, reach15): a reach into the user's stores that the
 * job never speaks of, in any language. The declared classes, the
 * resource terms and the parameter-name lists are English words and
 * identifiers, so a tool written in Dutch, Finnish, Hindi or Vietnamese
 * that asks "full access to the file system, the address books and the
 * browser history" to look up a postcode was read as declaring nothing
 * and mentioning nothing. What makes those texts attacks is a relation,
 * not a word: the tool's job (its name, title, server and first sentence)
 * is one small thing, and the rest of its text (later sentences, parameter
 * names, parameter descriptions, defaults, consts, enums, annotations,
 * output fields) reaches for two or more different stores of the user -
 * contacts, location, browser data, mailbox, calendar, messages, the whole
 * file system, clipboard, microphone, running commands, administrator
 * rights, stored passwords and keys, health records, identity numbers -
 * none of which the job itself names. One store is what many honest tools
 * need and say late (a weather tool's location); two unrelated to the job
 * is a reach. A store counts only where its sentence is not denied ("no
 * access to contacts is needed"). The words are the stores' names in the
 * languages of the sets (the reach), never words of a job: the job side is
 * only "does the job text name the same store".
 *
 * Only tools whose prose is not English are read (prose_foreign, or no
 * English function word at all, as in "Đếm từ." or "Pengingat minum
 * air."): English stores are the resource rules' work, and reading every
 * English tool would cost the docker eval several percent. Review only,
 * no facet. */

typedef struct reach_term {
    const char *w; /* lower case; ' ' and '-' match any of " _-" */
    uint8_t kind;
    bool whole; /* must end at a word end ("pesan", not "pesanan") */
} reach_term;

#include "capability_reach15.inc"

#define REACH_FIELD_MAX 2048 /* bytes of one field read */
#define REACH_SHORT 300      /* a field this short is read whole */

static bool reach_sep(unsigned char c) {
    return c == ' ' || c == '_' || c == '-';
}

/* A Cyrillic capital (D0 80..AF) folded to its small letter in place:
 * "Вся переписка" opens a sentence as often as "вся" follows a word. */
static void cyr_fold(unsigned char *b0, unsigned char *b1) {
    if (*b0 != 0xD0 || *b1 < 0x80 || *b1 > 0xAF)
        return;
    if (*b1 >= 0x90 && *b1 <= 0x9F) {
        *b1 = (unsigned char)(*b1 + 0x20); /* А..П */
    } else if (*b1 >= 0xA0) {
        *b0 = 0xD1; /* Р..Я */
        *b1 = (unsigned char)(*b1 - 0x20);
    } else {
        *b0 = 0xD1; /* Ѐ..Џ: Є, І, Ї of Ukrainian */
        *b1 = (unsigned char)(*b1 + 0x10);
    }
}

/* Length of t[i..] equal to w, ASCII and Cyrillic case folded; when
 * seps, ' ' and '-' in w match any of " _-". 0: no match. */
static size_t fold_match(const char *t, size_t len, size_t i, const char *w, bool seps) {
    size_t j = i;
    for (size_t k = 0; w[k] != '\0'; k++, j++) {
        if (j >= len)
            return 0;
        unsigned char c = (unsigned char)t[j], m = (unsigned char)w[k];
        if (c == 0xD0 && j + 1 < len && w[k + 1] != '\0') {
            unsigned char c1 = (unsigned char)t[j + 1];
            cyr_fold(&c, &c1);
            if (c != m || c1 != (unsigned char)w[k + 1])
                return 0;
            k++;
            j++;
        } else if (seps && (m == ' ' || m == '-')) {
            if (!reach_sep(c))
                return 0;
        } else if (lower(c) != m) {
            return 0;
        }
    }
    return j - i;
}

/* Length of text[i..] matched by term w (0 when it does not match). */
static size_t reach_match(const char *t, size_t len, size_t i, const reach_term *term) {
    const char *w = term->w;
    size_t j = i;
    /* the plain walk; a Cyrillic capital hands over to the folding one */
    for (size_t k = 0; w[k] != '\0'; k++, j++) {
        if (j >= len)
            return 0;
        unsigned char c = (unsigned char)t[j], m = (unsigned char)w[k];
        if (c == 0xD0 && m == 0xD1) {
            size_t n = fold_match(t, len, i, w, true);
            if (n == 0)
                return 0;
            j = i + n;
            break;
        }
        if (m == ' ' || m == '-') {
            if (!reach_sep(c))
                return 0;
        } else if (lower(c) != m && !(c == 0xD0 && j + 1 < len && (unsigned char)t[j + 1] < 0xB0 &&
                                      (unsigned char)t[j + 1] >= 0x80)) {
            return 0;
        } else if (c == 0xD0 && (unsigned char)t[j + 1] < 0xB0) {
            size_t n = fold_match(t, len, i, w, true);
            if (n == 0)
                return 0;
            j = i + n;
            break;
        }
    }
    if (term->whole && j < len && (is_alnum((unsigned char)t[j]) || (unsigned char)t[j] >= 0x80))
        return 0;
    return j - i;
}

/* A script written without spaces (kana, Han, Hangul: lead bytes E3..ED)
 * has no word starts to wait for. */
static bool reach_cjk(unsigned char b) {
    return b >= 0xE3 && b <= 0xED;
}

/* Hebrew and Arabic script (lead bytes D7..DB) glue articles and
 * conjunctions to the word ("הסיסמאות", "والتقويم"): a term may start
 * inside a word. */
static bool reach_free(unsigned char b) {
    return reach_cjk(b) || (b >= 0xD7 && b <= 0xDB);
}

/* perf25: 1 for a byte that may break a sentence (reach_break's first
 * byte), 2 for one that may open an emoji (reach_lead_end): most bytes of
 * a text are neither and are passed over with one load. */
static const uint8_t k_reach_stop[256] = {
    ['\n'] = 1, ['!'] = 1,  [';'] = 1,  ['?'] = 1,  ['.'] = 1,
    [0xE0] = 1, [0xE3] = 1, [0xEF] = 1, [0xE2] = 2, [0xF0] = 2};

static bool reach_break(const char *t, size_t len, size_t i) {
    unsigned char c = (unsigned char)t[i];
    if ((k_reach_stop[c] & 1) == 0)
        return false;
    if (c == '\n' || c == '!' || c == '?' || c == ';' || (c == '.' && sentence_dot(t, len, i)))
        return true;
    /* 。！？ (E3 80 82, EF BC 81, EF BC 9F) and the danda । (E0 A5 A4) */
    if (i + 2 < len &&
        ((c == 0xE3 && (unsigned char)t[i + 1] == 0x80 && (unsigned char)t[i + 2] == 0x82) ||
         (c == 0xE0 && (unsigned char)t[i + 1] == 0xA5 && (unsigned char)t[i + 2] == 0xA4) ||
         (c == 0xEF && (unsigned char)t[i + 1] == 0xBC &&
          ((unsigned char)t[i + 2] == 0x81 || (unsigned char)t[i + 2] == 0x9F))))
        return true;
    return false;
}

/* Round 21: restriction words; a negation right before one ("without
 * limits", "sin restricciones", "بدون قيود", "不受限制") widens the ask. */
static const char *const k_unbound[] = {
    "restric",
    "limit",
    "límite",
    "bound",
    "einschränk",
    "beschränk",
    "grenze",
    "restriç",
    "batas",
    "ograni",
    "\xd0\xbe\xd0\xb3\xd1\x80\xd0\xb0\xd0\xbd\xd0\xb8\xd1\x87", /* огранич */
    "\xd0\xbe\xd0\xb1\xd0\xbc\xd0\xb5\xd0\xb6",                 /* обмеж */
    "\xd9\x82\xd9\x8a\xd9\x88\xd8\xaf",                         /* قيود */
    "\xd9\x82\xd9\x8a\xd8\xaf",                                 /* قيد */
    "\xe5\x8f\x97\xe9\x99\x90",                                 /* 受限 */
    "\xe9\x99\x90\xe5\x88\xb6",                                 /* 限制 */
};

static bool unbounded_after(const char *t, size_t e, size_t j) {
    while (j < e && t[j] == ' ')
        j++;
    for (size_t k = 0; k < sizeof(k_unbound) / sizeof(k_unbound[0]); k++) {
        size_t n = strlen(k_unbound[k]);
        if (j + n <= e && same_ci(t + j, k_unbound[k], n))
            return true;
    }
    return false;
}

/* Is the sentence around t[at] denied (a negation word of the languages
 * anywhere in it)? */
static bool reach_denied(const char *t, size_t len, size_t at) {
    size_t s = at, lim = at > 400 ? at - 400 : 0;
    while (s > lim && !reach_break(t, len, s - 1))
        s--;
    size_t e = at, elim = len - at > 400 ? at + 400 : len;
    while (e < elim && !reach_break(t, len, e))
        e++;
    for (size_t i = s; i < e; i++) {
        unsigned char c = (unsigned char)t[i];
        bool start =
            i == s || (!is_alnum((unsigned char)t[i - 1]) && (unsigned char)t[i - 1] < 0x80);
        if (!start && !reach_cjk(c))
            continue;
        for (size_t k = 0; k < sizeof(k_reach_neg) / sizeof(k_reach_neg[0]); k++) {
            const char *w = k_reach_neg[k];
            if ((unsigned char)w[0] != lower(c))
                continue;
            size_t n = strlen(w);
            if (i + n > e)
                continue;
            size_t m = 0;
            while (m < n && lower((unsigned char)t[i + m]) == (unsigned char)w[m])
                m++;
            if (m < n)
                continue;
            /* Round 21: "without restrictions" bounds nothing: it is the
             * scope of the ask ("الشبكة بدون قيود", "сеть без ограничений") */
            if (unbounded_after(t, e, i + n))
                continue;
            if (reach_cjk((unsigned char)w[0]))
                return true;
            if (i + n == e ||
                (!is_alnum((unsigned char)t[i + n]) && (unsigned char)t[i + n] < 0x80))
                return true;
            /* a multi-byte letter may continue the word ("nieuw"): only a
             * word end counts */
        }
    }
    return false;
}

static unsigned popcount32(uint32_t v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* Per pair slot of the term tables: the ASCII third bytes of its terms
 * (bit b of k_reach_third[slot][b >> 6]), and whether one of its terms
 * has another third byte (a separator, a multi-byte character); with
 * k_reach_alnum, a table of is_alnum. Built once from the generated
 * tables (pthread_once), so a regenerated .inc needs nothing more. */
#define REACH_SLOTS (sizeof(k_reach_pair_at) / sizeof(k_reach_pair_at[0]) - 1)
static uint64_t k_reach_third[REACH_SLOTS][2];
static bool k_reach_third_other[REACH_SLOTS];
static bool k_reach_alnum[256];
/* perf28: per entry q of k_reach_by_pair, its term's kind bit and its
 * third byte when that byte turns other third bytes away (else 0), so the
 * walk of a pair's terms reads two small arrays before a term */
#define REACH_QS (sizeof(k_reach_by_pair) / sizeof(k_reach_by_pair[0]))
static uint32_t k_reach_q_bit[REACH_QS];
static unsigned char k_reach_q_m2[REACH_QS];
static pthread_once_t k_reach_once = PTHREAD_ONCE_INIT;

static void reach_third_build(void) {
    for (size_t slot = 0; slot < REACH_SLOTS; slot++) {
        for (uint16_t q = k_reach_pair_at[slot]; q < k_reach_pair_at[slot + 1]; q++) {
            const char *w = k_reach_terms[k_reach_by_pair[q]].w;
            unsigned char m2 = w[0] != '\0' && w[1] != '\0' ? (unsigned char)w[2] : 0;
            if (m2 > ' ' && m2 < 0x80 && m2 != '-')
                k_reach_third[slot][m2 >> 6] |= (uint64_t)1 << (m2 & 63);
            else
                k_reach_third_other[slot] = true;
        }
    }
    for (unsigned c = 0; c < 256; c++)
        k_reach_alnum[c] = is_alnum((unsigned char)c);
    for (size_t q = 0; q < REACH_QS; q++) {
        const reach_term *term = &k_reach_terms[k_reach_by_pair[q]];
        unsigned char m2 = (unsigned char)term->w[2];
        k_reach_q_bit[q] = 1u << term->kind;
        k_reach_q_m2[q] = m2 > ' ' && m2 < 0x80 && m2 != '-' ? m2 : 0;
    }
}

/* Kinds of store named in t[from, len) (bit mask); the first hit of each
 * kind not in `skip` is kept in hits when hits is not NULL, and a denied
 * hit does not count. */
static uint32_t reach_scan(const char *t, size_t len, size_t from, uint32_t skip, bool deny,
                           int32_t field, reach_hit *hits) {
    uint32_t mask = 0;
    pthread_once(&k_reach_once, reach_third_build);
    if (len > REACH_FIELD_MAX)
        len = REACH_FIELD_MAX;
    unsigned char prev = from > 0 ? (unsigned char)t[from - 1] : ' ';
    for (size_t i = from; i + 1 < len; i++) {
        unsigned char r = (unsigned char)t[i], p0 = prev;
        prev = r;
        /* inside an ASCII word no term starts (CJK terms start at bytes
         * E3..ED): the common case leaves here, and a run of ASCII word
         * bytes is skipped in one tight loop */
        if (r < 0x80 && (is_alnum(p0) || p0 >= 0x80)) {
            if (is_alnum(r)) {
                while (i + 2 < len && k_reach_alnum[(unsigned char)t[i + 1]])
                    i++;
                prev = (unsigned char)t[i];
            }
            continue;
        }
        unsigned char c = lower(r), c1 = (unsigned char)t[i + 1];
        cyr_fold(&c, &c1);
        /* the first two bytes of some term (a table made with the terms) */
        unsigned pr = (unsigned)c << 8 | c1;
        uint32_t word = k_reach_pair[pr >> 5], pbit = 1u << (pr & 31);
        if ((word & pbit) == 0)
            continue;
        if (!reach_free(c) && (is_alnum(p0) || p0 >= 0x80) &&
            !(c == 0xE0 && (c1 == 0xB8 || c1 == 0xB9)))
            continue; /* not a word start (Thai writes no spaces between words) */
        /* only the terms that start with this pair, in table order: a
         * word start tries two or three terms, not the fifty of its
         * first letter */
        size_t slot = k_reach_rank[pr >> 5] + popcount32(word & (pbit - 1));
        /* the third byte, when it is ASCII, turns most of a pair's terms
         * away before reach_match walks them (an ASCII letter of a term
         * matches only itself, case folded; no term is shorter than its
         * pair) */
        int c2 = i + 2 < len ? (unsigned char)t[i + 2] : -1;
        if (c2 >= 0 && c2 < 0x80)
            c2 = lower((unsigned char)c2);
        if (!k_reach_third_other[slot] && c2 < 0x80 &&
            (c2 < 0 || (k_reach_third[slot][c2 >> 6] >> (c2 & 63) & 1) == 0))
            continue; /* no term of the pair goes on with this byte */
        for (uint16_t q = k_reach_pair_at[slot]; q < k_reach_pair_at[slot + 1]; q++) {
            uint32_t bit = k_reach_q_bit[q];
            if ((mask | skip) & bit)
                continue;
            unsigned char m2 = k_reach_q_m2[q];
            if (m2 != 0 && c2 < 0x80 && c2 != m2)
                continue;
            const reach_term *term = &k_reach_terms[k_reach_by_pair[q]];
            size_t n = reach_match(t, len, i, term);
            if (n == 0)
                continue;
            if (deny && reach_denied(t, len, i))
                continue;
            mask |= bit;
            if (hits != NULL)
                hits[term->kind] = (reach_hit){field, (uint32_t)i, (uint32_t)n};
        }
    }
    return mask;
}

/* "管理者パスワード", "관리자 비밀번호", "contraseña de administrador": the
 * administrator's password is one credential, not administrator rights
 * and a password store; a secret term within 12 bytes of an
 * administrator term in the same field counts as the latter only. */
static uint32_t reach_merge(uint32_t m, const reach_hit *h) {
    /* "unrestricted outbound network egress" is one ask, not two */
    if (m & 1u << RK_EGRESS_ANY)
        m &= ~(1u << RK_EGRESS);
    const uint32_t a = 1u << RK_ADMIN, k = 1u << RK_SECRETS;
    if ((m & a) == 0 || (m & k) == 0 || h[RK_ADMIN].field != h[RK_SECRETS].field)
        return m;
    const reach_hit *x = &h[RK_ADMIN], *y = &h[RK_SECRETS];
    if (y->off < x->off) {
        const reach_hit *t = x;
        x = y;
        y = t;
    }
    if (y->off >= x->off + x->len && y->off - (x->off + x->len) <= 12)
        m &= ~k;
    return m;
}

/* The review signal of a reach detector (8 and 12): soft, located at the
 * first kind's hit, with the detail the detector wrote. */
static int emit_reach(tool_scan *ts, const reach_hit *h, const char *detail, size_t n) {
    const mv_field *f = &ts->tool->fields[h->field];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = CAP_F_SILENT,
        .critical = false,
        .field = h->field,
        .offset = h->off,
        .length = h->len,
        .evidence = {f->text.ptr + h->off, h->len},
        .detail = {detail, n},
        .facets = 0,
    };
    return cap_emit(ts, &spec);
}

/* Raw end of the description's first sentence. */
static size_t reach_lead_end(mv_str d) {
    size_t lim = d.len < 400 ? d.len : 400;
    size_t i = 0;
    while (i < lim && is_space((unsigned char)d.ptr[i]))
        i++;
    for (; i < lim; i++) {
        unsigned char c = (unsigned char)d.ptr[i];
        if (k_reach_stop[c] == 0)
            continue; /* neither a break nor an emoji */
        if (reach_break(d.ptr, d.len, i))
            return i;
        /* an emoji before a capital ends the sentence too: "Converts raid
         * time 🕒 Installs a background service ..." */
        if ((c == 0xF0 || (c == 0xE2 && (unsigned char)d.ptr[i + 1] >= 0x98 &&
                           (unsigned char)d.ptr[i + 1] <= 0x9F)) &&
            i + 4 < lim) {
            size_t j = i + (c == 0xF0 ? 4 : 3);
            if (j + 3 < lim && (unsigned char)d.ptr[j] == 0xEF &&
                (unsigned char)d.ptr[j + 1] == 0xB8)
                j += 3; /* a variation selector */
            if (j + 1 < lim && d.ptr[j] == ' ' && d.ptr[j + 1] >= 'A' && d.ptr[j + 1] <= 'Z')
                return i;
        }
    }
    return lim;
}

/* Round 23: an ask in the title. A title names the job ("Word cloud",
 * "Ekonomik takvim"); a tail after a bracket, a colon or a dash that asks
 * ("(requires admin rights on the device ...)", "(tam disk erişimi ...
 * gerektirir)") is no job: the stores it names are asked like a schema
 * slot's. A tail that does not ask ("Sync: mail, calendar") stays the
 * job. Words of asking: require, need, access, permission, rights, scope,
 * grant, in the languages (matched anywhere, ASCII case folded). */
static const char *const k_title_ask[] = {
    "requir",
    "need",
    "access",
    "permission",
    "rights",
    "privilege",
    "scope",
    "grant",
    "erforder",
    "benötig",
    "zugriff",
    "berechtigung",
    "rechte",
    "nécessit",
    "requiert",
    "accès",
    "droits",
    "requier",
    "necesit",
    "acceso",
    "permiso",
    "requer",
    "precisa",
    "acesso",
    "permiss",
    "richied",
    "accesso",
    "permess",
    "vereist",
    "toegang",
    "wymaga",
    "dostęp",
    "uprawnie",
    "vyžaduj",
    "přístup",
    "oprávněn",
    "igényel",
    "hozzáfér",
    "jogosultság",
    "vaatii",
    "pääsy",
    "käyttöoikeu",
    "kräver",
    "åtkomst",
    "behörighet",
    "kræver",
    "adgang",
    "krever",
    "tilgang",
    "gerektir",
    "erişim",
    "izni",
    "yetki",
    "memerlukan",
    "perlu",
    "butuh",
    "akses",
    "izin",
    "kailangan",
    "pahintulot",
    "cần",
    "quyền",
    "truy cập",
    "inahitaji",
    "ruhusa",
    "\xd1\x82\xd1\x80\xd0\xb5\xd0\xb1\xd1\x83",                                 /* требу */
    "\xd0\xb4\xd0\xbe\xd1\x81\xd1\x82\xd1\x83\xd0\xbf",                         /* доступ */
    "\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2",                                         /* прав */
    "\xd0\xbf\xd0\xbe\xd1\x82\xd1\x80\xd0\xb5\xd0\xb1",                         /* потреб */
    "\xd7\x93\xd7\x95\xd7\xa8\xd7\xa9",                                         /* דורש */
    "\xd7\x92\xd7\x99\xd7\xa9\xd7\x94",                                         /* גישה */
    "\xd7\x94\xd7\xa8\xd7\xa9\xd7\x90",                                         /* הרשא */
    "\xd9\x8a\xd8\xaa\xd8\xb7\xd9\x84\xd8\xa8",                                 /* يتطلب */
    "\xd9\x8a\xd8\xad\xd8\xaa\xd8\xa7\xd8\xac",                                 /* يحتاج */
    "\xd8\xb5\xd9\x84\xd8\xa7\xd8\xad\xd9\x8a",                                 /* صلاحي */
    "\xd9\x88\xd8\xb5\xd9\x88\xd9\x84",                                         /* وصول */
    "\xd9\x86\xdb\x8c\xd8\xa7\xd8\xb2",                                         /* نیاز */
    "\xd8\xaf\xd8\xb3\xd8\xaa\xd8\xb1\xd8\xb3\xdb\x8c",                         /* دسترسی */
    "\xe9\x9c\x80\xe8\xa6\x81",                                                 /* 需要 */
    "\xe6\x9d\x83\xe9\x99\x90",                                                 /* 权限 */
    "\xe6\xac\x8a\xe9\x99\x90",                                                 /* 權限 */
    "\xe8\xae\xbf\xe9\x97\xae",                                                 /* 访问 */
    "\xe5\xbf\x85\xe8\xa6\x81",                                                 /* 必要 */
    "\xe6\xa8\xa9\xe9\x99\x90",                                                 /* 権限 */
    "\xe3\x82\xa2\xe3\x82\xaf\xe3\x82\xbb\xe3\x82\xb9",                         /* アクセス */
    "\xed\x95\x84\xec\x9a\x94",                                                 /* 필요 */
    "\xea\xb6\x8c\xed\x95\x9c",                                                 /* 권한 */
    "\xec\xa0\x91\xea\xb7\xbc",                                                 /* 접근 */
    "\xe0\xa4\x86\xe0\xa4\xb5\xe0\xa4\xb6\xe0\xa5\x8d\xe0\xa4\xaf\xe0\xa4\x95", /* आवश्यक */
    "\xe0\xa4\x85\xe0\xa4\xa8\xe0\xa5\x81\xe0\xa4\xae\xe0\xa4\xa4\xe0\xa4\xbf", /* अनुमति */
    "\xe0\xa4\x9a\xe0\xa4\xbe\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\x8f", /* चाहिए */
    "\xe0\xb8\x95\xe0\xb9\x89\xe0\xb8\xad\xe0\xb8\x87\xe0\xb9\x83\xe0\xb8\x8a\xe0\xb9\x89", /* ต้องใช้
                                                                                             */
    "\xe0\xb8\xaa\xe0\xb8\xb4\xe0\xb8\x97\xe0\xb8\x98\xe0\xb8\xb4\xe0\xb9\x8c", /* สิทธิ์ */
};

/* Where the title's tail opens (a bracket, a colon, a dash, a bar), or
 * its length when there is none. */
static size_t title_tail(mv_str t) {
    for (size_t i = 0; i < t.len; i++) {
        unsigned char c = (unsigned char)t.ptr[i];
        if (c == '(' || c == '[' || c == ':' || c == '|')
            return i;
        /* （ and ： (EF BC 88, EF BC 9A) */
        if (c == 0xEF && i + 2 < t.len && (unsigned char)t.ptr[i + 1] == 0xBC &&
            ((unsigned char)t.ptr[i + 2] == 0x88 || (unsigned char)t.ptr[i + 2] == 0x9A))
            return i;
        /* " - ", " – ", " — " */
        if (c == ' ' && i + 2 < t.len &&
            ((t.ptr[i + 1] == '-' && t.ptr[i + 2] == ' ') ||
             ((unsigned char)t.ptr[i + 1] == 0xE2 && (unsigned char)t.ptr[i + 2] == 0x80 &&
              i + 3 < t.len &&
              ((unsigned char)t.ptr[i + 3] == 0x93 || (unsigned char)t.ptr[i + 3] == 0x94))))
            return i;
    }
    return t.len;
}

/* The end of the title's job: the whole title, or only its head when the
 * tail asks. */
static size_t title_job_end(mv_str t) {
    size_t at = title_tail(t);
    if (at < t.len && any_ci((mv_str){t.ptr + at, t.len - at}, GRANT_LIST(k_title_ask)))
        return at;
    return t.len;
}

/* Is w[0, n) (ASCII) an English function word? Compared by length and
 * bytes, no table walk: it runs on every tool's opening. */
static bool english_fn(const char *w, size_t n) {
    char c[4];
    for (size_t k = 0; k < n; k++)
        c[k] = (char)lower((unsigned char)w[k]);
    switch (n) {
    case 2:
        return (c[0] == 'a' && (c[1] == 'n' || c[1] == 's' || c[1] == 'r')) ||
               (c[0] == 'o' && (c[1] == 'f' || c[1] == 'n' || c[1] == 'r')) ||
               (c[0] == 't' && c[1] == 'o') || (c[0] == 'b' && c[1] == 'y') ||
               (c[0] == 'i' && (c[1] == 's' || c[1] == 't' || c[1] == 'n'));
    case 3:
        return memcmp(c, "the", 3) == 0 || memcmp(c, "and", 3) == 0 || memcmp(c, "for", 3) == 0 ||
               memcmp(c, "are", 3) == 0 || memcmp(c, "its", 3) == 0;
    case 4:
        return memcmp(c, "from", 4) == 0 || memcmp(c, "with", 4) == 0 ||
               memcmp(c, "your", 4) == 0 || memcmp(c, "this", 4) == 0 || memcmp(c, "into", 4) == 0;
    default:
        return false;
    }
}

/* English function words in the opening of d (at most 3 counted): the,
 * an, of, to, and, for, from, with, by, on, your, this, is, are, or, as,
 * it, into, its, in; not "a", which Czech, Portuguese and Italian write
 * too. */
static size_t english_words(mv_str d) {
    size_t lim = d.len < 320 ? d.len : 320, n = 0;
    for (size_t i = 0; i < lim && n < 3;) {
        while (i < lim && !is_alnum((unsigned char)d.ptr[i]))
            i++;
        size_t j = i;
        while (j < lim && is_alnum((unsigned char)d.ptr[j]))
            j++;
        if (j - i >= 2 && j - i <= 4 && (j == lim || (unsigned char)d.ptr[j] < 0x80) &&
            english_fn(d.ptr + i, j - i))
            n++;
        while (j < lim && !is_space((unsigned char)d.ptr[j]))
            j++;
        i = j;
    }
    return n;
}

/* Stores a field may ask for alone when it asks for them whole: not the
 * file system, commands or rights (a file tool searches "all files"),
 * not the calendar (a scheduler lists "all events"). */
#define SLOT_WHOLE_KINDS                                                                           \
    (1u << RK_SESSION | 1u << RK_BROWSER | 1u << RK_CONTACTS | 1u << RK_MAIL | 1u << RK_SECRETS |  \
     1u << RK_LOCATION | 1u << RK_HEALTH | 1u << RK_IDENTITY | 1u << RK_DRIVE | 1u << RK_SCREEN |  \
     1u << RK_BANK | 1u << RK_MICROPHONE | 1u << RK_CLIPBOARD)

/* A kind that is whole by itself: a privileged pod, hostPID, root
 * privileges reach the whole host whatever the scope word. */
/* Round 20: in another language's prose the file system asked whole
 * ("całego systemu plików hosta") is a reach too; the job's own files are
 * the job's (the scan skips the kinds the job names). */
#define FOREIGN_WHOLE_KINDS (SLOT_WHOLE_KINDS | 1u << RK_FILES)
#define SELF_WHOLE_KINDS (1u << RK_PRIV | 1u << RK_EGRESS_ANY)
/* Round 27: stores a slot asks for that detector 15 judges alone. */
#define CRED_SLOT_KINDS (1u << RK_SECRETS | 1u << RK_BANK | 1u << RK_IDENTITY | 1u << RK_HEALTH)

static bool slot_whole(const char *t, size_t len);

/* The lowest two reach kinds set in mask, -1 where there is none. */
static void first_two_kinds(uint32_t mask, int *first, int *second) {
    *first = -1;
    *second = -1;
    for (int k = 0; k < RK_COUNT; k++)
        if (mask & (1u << k)) {
            if (*first < 0)
                *first = k;
            else if (*second < 0)
                *second = k;
        }
}

/* Round 21: the resources (capability_resources.rules ids) whose
 * justification by a declared class explains a reach kind: a database job
 * explains credentials, not the mailbox; a version control job explains
 * keys, not browser cookies. NULL: no declared class explains the kind
 * (the conversation: only a chat job, by job_kinds, explains it). */
static const char *const k_kind_res[RK_COUNT][2] = {
    [RK_CONTACTS] = {"device", NULL},      [RK_LOCATION] = {"device", NULL},
    [RK_BROWSER] = {"browserstore", NULL}, [RK_MAIL] = {"device", NULL},
    [RK_CALENDAR] = {"device", NULL},      [RK_MESSAGES] = {"device", NULL},
    [RK_FILES] = {"broadfs", NULL},        [RK_CLIPBOARD] = {"device", NULL},
    [RK_MICROPHONE] = {"device", NULL},    [RK_COMMANDS] = {"shellexec", NULL},
    [RK_ADMIN] = {"shellexec", "dbconn"},  [RK_SECRETS] = {"credword", NULL},
    [RK_HEALTH] = {"personal", NULL},      [RK_HOST] = {"envdump", NULL},
    [RK_SESSION] = {NULL, NULL},           [RK_DRIVE] = {"broadfs", NULL},
    [RK_SCREEN] = {"device", NULL},        [RK_BANK] = {"personal", NULL},
    [RK_PRIV] = {"shellexec", NULL},       [RK_EGRESS] = {"upload", NULL},
    [RK_IDENTITY] = {"personal", NULL},    [RK_EGRESS_ANY] = {"upload", NULL},
};

/* The reach kinds the job the declared classes read explains (a router's
 * reboot, a package installer: "the administrator password"). Before
 * round 21 any sensitive class explained every kind, so a SQL formatter
 * ("formatar_sql": database) could ask for the mailbox and the cloud
 * drive. Now a kind is explained only by a class that justifies its
 * resource. Worked out only for the few tools about to be raised. */
static int job_explains(tool_scan *ts, uint32_t *explained) {
    const cap_state *st = ts->st;
    declaration decl;
    int rc = declare(ts, &decl);
    *explained = 0;
    if (rc != MV_OK || (decl.mask & st->sensitive_mask) == 0)
        return rc;
    uint32_t justified = 0;
    for (size_t c = 0; c < st->n_classes && c < 64; c++)
        if (decl.mask & st->sensitive_mask & ((uint64_t)1 << c))
            justified |= st->classes[c].justifies;
    for (int k = 0; k < RK_COUNT; k++)
        for (int j = 0; j < 2 && k_kind_res[k][j] != NULL; j++) {
            int r = find_res(st, (mv_str){k_kind_res[k][j], strlen(k_kind_res[k][j])});
            if (r >= 0 && (justified & (1u << r)) != 0)
                *explained |= 1u << k;
        }
    return MV_OK;
}

static int report_foreign_reach(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    /* Three English function words settle it; one or two in an all-ASCII
     * opening too; only an opening with other letters takes the language
     * test. A terse description ("List pods.") with English parameter
     * descriptions is English. */
    mv_str d = tool->description;
    size_t en = english_words(d);
    bool english = en >= 3;
    bool high = false;
    for (size_t i = 0; i < d.len && i < 320 && !high; i++)
        high = (unsigned char)d.ptr[i] >= 0x80;
    if (english) {
    } else if (en > 0) {
        english = !high || !prose_foreign(d);
    } else if (!high && d.len > 32 && !prose_foreign(d)) {
        /* all ASCII, no function word of either list ("List pods,
         * deployments and services" style): English, unless it is as
         * terse as "Pengingat minum air." */
        english = true;
    } else {
        for (uint32_t fi = 0; fi < tool->n_fields && !english; fi++)
            english = tool->fields[fi].kind == MV_FIELD_SCHEMA_DESCRIPTION &&
                      english_words(tool->fields[fi].text) >= 2;
    }
    if (english) {
        ts->english = true;
        return MV_OK;
    }
    /* the job: name, title, server and the description's first sentence */
    size_t lead = reach_lead_end(tool->description);
    uint32_t job = reach_scan(tool->name.ptr, tool->name.len, 0, 0, false, -1, NULL);
    size_t tj = title_job_end(tool->title);
    job |= reach_scan(tool->title.ptr, tj, 0, job, false, -1, NULL);
    mv_str server = mv_inspect_server(ts->ctx, tool); /* noted for the tool memo */
    job |= reach_scan(server.ptr, server.len, 0, job, false, -1, NULL);
    job |= reach_scan(tool->description.ptr, lead, 0, job, false, -1, NULL);
    if (job & 1u << RK_BROWSER)
        job |= 1u << RK_SCREEN; /* a browser automation job takes screenshots */
    /* Short fields (a parameter name, a value, a one-line description, a
     * short tool description) are read whole and pooled: attacks spread
     * the stores over a parameter name and a default. In a long field
     * (a manual of a real tool) a store word is as often an aside ("the
     * browser's CORS list"), so two stores must share a sentence. */
    reach_hit hits[RK_COUNT];
    uint32_t reach = 0, pair = 0;
    for (uint32_t fi = 0; fi < tool->n_fields && pair == 0; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind == MV_FIELD_NAME || f->kind == MV_FIELD_TITLE || f->window_of != 0)
            continue;
        size_t from = f->kind == MV_FIELD_DESCRIPTION ? lead : 0;
        size_t len = f->text.len < REACH_FIELD_MAX ? f->text.len : REACH_FIELD_MAX;
        if (len <= REACH_SHORT) {
            uint32_t m = reach_scan(f->text.ptr, len, from, job | reach, true, (int32_t)fi, hits);
            reach |= m;
            /* one store asked whole in the description's later sentences
             * ("legge tutti i file ... e l'agenda dei contatti", "teljes
             * ... jelszókezelő") is a reach, as in a schema slot */
            if (f->kind == MV_FIELD_DESCRIPTION &&
                (((m & FOREIGN_WHOLE_KINDS) != 0 && slot_whole(f->text.ptr + from, len - from)) ||
                 (m & SELF_WHOLE_KINDS) != 0))
                reach |= 1u << RK_COUNT;
            continue;
        }
        for (size_t a = from; a < len && pair == 0;) {
            size_t e = a;
            while (e < len && !reach_break(f->text.ptr, len, e))
                e++;
            reach_hit sh[RK_COUNT];
            uint32_t m = reach_merge(reach_scan(f->text.ptr, e, a, job, true, (int32_t)fi, sh), sh);
            if (f->kind == MV_FIELD_DESCRIPTION && (m & FOREIGN_WHOLE_KINDS) != 0 &&
                slot_whole(f->text.ptr + a, e - a))
                m |= 1u << RK_COUNT;
            if ((m & (m - 1)) != 0) {
                pair = m;
                memcpy(hits, sh, sizeof(sh));
            }
            a = e + 1;
        }
    }
    if (pair != 0)
        reach = pair;
    else
        reach = reach_merge(reach, hits);
    int first, second;
    first_two_kinds(reach, &first, &second);
    bool whole = first >= 0 && second < 0 && (reach & 1u << RK_COUNT) != 0 &&
                 ((SLOT_WHOLE_KINDS | SELF_WHOLE_KINDS) & 1u << first) != 0;
    if (second < 0 && !whole)
        return MV_OK;
    /* A job the declared classes read as touching sensitive resources (a
     * router's reboot, a package installer: "the administrator password")
     * explains an administrator's secret; the English name says so even
     * when the prose is Japanese or Spanish. Worked out only here, for
     * the few tools about to be raised. */
    uint32_t explained = 0;
    int rc = job_explains(ts, &explained);
    if (rc != MV_OK)
        return rc;
    if (reach & explained) {
        reach &= ~explained;
        first_two_kinds(reach, &first, &second);
        whole = first >= 0 && second < 0 && (reach & 1u << RK_COUNT) != 0 &&
                ((SLOT_WHOLE_KINDS | SELF_WHOLE_KINDS) & 1u << first) != 0;
        if (first < 0 || (second < 0 && !whole))
            return MV_OK;
    }
    const reach_hit *h = &hits[first];
    char detail[200];
    sbuf b = {detail, 0, sizeof(detail)};
    sb_lit(&b, whole ? "reaches for all of " : "reaches for ");
    sb_lit(&b, k_reach_label[first]);
    if (!whole) {
        sb_lit(&b, " and ");
        sb_lit(&b, k_reach_label[second]);
    }
    sb_lit(&b, ", which the tool's name and first sentence never mention");
    ts->reached = true;
    return emit_reach(ts, h, detail, b.n);
}

/* Detector 12 (round 17): what the schema asks for outside the job, in
 * every language. Detector 8 reads the prose of tools not written in
 * English; attacks of every language put the ask in the schema instead:
 * a parameter or output field whose name, description, default or
 * nested properties name stores of the user or facts of the host the
 * job never names (an `include_env` flag beside `include_ssh_dir`, a
 * `host_inventory` output of "hostname, running processes, open ports",
 * a `context` that wants "the current conversation" and "documents").
 * One top-level parameter (its nested properties pooled in) or the
 * annotations is one slot; a slot naming two kinds of store raises the
 * tool, and so does an output field naming one: a tool returns what it
 * computes, not the host's or the user's data. Only short fields are
 * read (a name, a value, a one-line description): a real tool's manual
 * is detector 8's and the resource rules' business, and the cost stays
 * with the few bytes of a schema. The job (name, title, server, first
 * sentence) explains the kinds it names, as in detector 8; a host,
 * server or system tool explains the facts of the host. Review only,
 * no facet. */
#define SLOT_SHORT 200 /* bytes of a schema field read */

/* Job words that explain a kind the store terms do not name as a job: a
 * host, server or system tool reports the host; a chat summariser reads
 * the conversation. Matched at a word start. */
static const char *const k_host_job[] = {"host",      "server",   "system",   "machine", "node",
                                         "device",    "process",  "env",      "port",    "network",
                                         "diagnos",   "inventor", "monitor",  "ssh",     "docker",
                                         "container", "cluster",  "instance", "vm",      "debug"};
static const char *const k_session_job[] = {"chat",    "conversation", "transcript", "message",
                                            "session", "memory",       "prompt",     "history",
                                            "context", "assistant",    "agent"};

/* Words of a sentence that asks for something (round 19, English prose). */
static const char *const k_ask_words[] = {
    "access", "require", "need", "permission", "scope", "want", "request", "read", "record",
    "captur", "upload", "export", "send", "connect", "grant", "runs as", "runs with", "install",
    "monitor", "collect", "use",
    /* round 20: standing asks ("keeps the microphone open", "listens") */
    "keep", "open", "listen", "track", "stream", "watch"};

/* Round 20: the model that calls the tool, as the owner of what a slot
 * asks for. */
static const char *const k_caller_own[] = {"the assistant's", "the assistant\xe2\x80\x99s",
                                           "your own",        "your current",
                                           "your system",     "the model's",
                                           "the agent's",     "the ai's"};

/* The screen, the microphone or camera, the clipboard, the location:
 * a job sensing one explains a scope word ("continuously") beside another. */
#define SENSOR_KINDS                                                                               \
    (1u << RK_SCREEN | 1u << RK_MICROPHONE | 1u << RK_CLIPBOARD | 1u << RK_LOCATION)

static bool job_words(const char *t, size_t len, const char *const *w, size_t nw) {
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && is_alnum((unsigned char)t[i - 1]))
            continue;
        for (size_t k = 0; k < nw; k++) {
            size_t n = strlen(w[k]);
            if (i + n <= len && same_ci(t + i, w[k], n))
                return true;
        }
    }
    return false;
}

/* Kinds the job names by the job words above. */
static uint32_t job_kinds(const char *t, size_t len) {
    uint32_t m = 0;
    if (job_words(t, len, k_host_job, sizeof(k_host_job) / sizeof(k_host_job[0])))
        m |= 1u << RK_HOST | 1u << RK_PRIV | 1u << RK_EGRESS | 1u << RK_EGRESS_ANY | 1u << RK_COUNT;
    if (job_words(t, len, k_session_job, sizeof(k_session_job) / sizeof(k_session_job[0])))
        m |= 1u << RK_SESSION;
    return m;
}

/* Length of the path of the property a schema field belongs to:
 * "a.properties.x.description", "a.properties.x.default[1]" and
 * "a.properties.x" are all "a.properties.x". 0: none. */
static size_t slot_key(mv_str path) {
    size_t at = 0;
    for (size_t i = 0; i + 12 <= path.len; i++)
        if (path.ptr[i] == '.' && memcmp(path.ptr + i, ".properties.", 12) == 0)
            at = i + 12;
    if (at == 0)
        return 0;
    while (at < path.len && path.ptr[at] != '.' && path.ptr[at] != '[')
        at++;
    return at;
}

#define SLOT_MAX 16
#define SENT_MAX 8    /* sentences of an English description read */
#define DESC_READ 600 /* bytes of an English description read */

/* Words that ask for a store whole: "all cookies", "the entire
 * conversation", "toàn bộ", "전체 연락처", "historia yote". */
static const char *const k_slot_whole[] = {
    "all ", "every", "entire", "whole", "everything", "todos ", "todas ", "toda ", "todo ", "tous ",
    "toutes ", "tout ", "alle ", "gesamte", "tutti ", "tutte ", "intera", "intero", "wszystk",
    "cał", "všech", "celou ", "összes", "teljes", "kaikki", "koko ", "hela ", "tüm ", "bütün",
    "seluruh", "semua ", "toàn bộ", "tất cả", "buong ", "lahat ", "yote", "zote", "все", "всю",
    "вся", "всё", "весь", "усі", "всі", "toate", "همه", "تمام", "全文", "これまで", "повн", "цілк",
    "כל ", "全部", "所有", "すべて", "全て", "전체", "모든", "सभी", "पूरा", "ทั้งหมด", "ทุก",
    /* round 19: full, standing and org-wide scopes */
    "full ", "continuous", "in the background", "indefinitely", "org-wide", "organization-wide",
    "organisation-wide", "alla ", "tam ", "completo", "complet", "keseluruhan", "każd", "každých",
    "kila ", "muda wote", "เต็ม", "toute ", "ganze", "intero",
    /* round 21: "complete" in Indonesian and Malay */
    "lengkap"};

/* Does t[0, len) hold one of the words w (an ASCII one at a word start,
 * another anywhere)? */
static bool slot_words(const char *t, size_t len, const char *const *w, size_t nw) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i], c1 = i + 1 < len ? (unsigned char)t[i + 1] : 0;
        if (c < 0x80 && (i > 0 && is_alnum((unsigned char)t[i - 1])))
            continue;
        c = lower(c);
        cyr_fold(&c, &c1);
        for (size_t k = 0; k < nw; k++) {
            if ((unsigned char)w[k][0] != c)
                continue;
            if (fold_match(t, len, i, w[k], false) != 0)
                return true;
        }
    }
    return false;
}

/* Does t[0, len) hold a word that asks for the whole store? */
static bool slot_whole(const char *t, size_t len) {
    return slot_words(t, len, k_slot_whole, sizeof(k_slot_whole) / sizeof(k_slot_whole[0]));
}

/* Round 24 (cap24): a store taken as it stands, whatever its size - a
 * dump, a snapshot or a copy of it, the store verbatim, the store "so
 * far" - is the store asked whole. Read only across a schema slot (a
 * parameter's name, description and values), never in prose. */
static const char *const k_slot_dump[] = {"dump",
                                          "snapshot",
                                          "verbatim",
                                          "copy of",
                                          "so far",
                                          "up to now",
                                          "until now",
                                          "volcado",
                                          "instantánea",
                                          "copia de",
                                          "copia di",
                                          "copie de",
                                          "cópia de",
                                          "hasta ahora",
                                          "até agora",
                                          "jusqu'ici",
                                          "jusqu'à présent",
                                          "finora",
                                          "fino ad ora",
                                          "bisher",
                                          "wörtlich",
                                          "kopie",
                                          "speicherauszug",
                                          "momentopname",
                                          "tot nu toe",
                                          "zrzut",
                                          "kopia",
                                          "dotychczas",
                                          "do tej pory",
                                          "dosud",
                                          "másolat",
                                          "eddig",
                                          "tähän asti",
                                          "hittills",
                                          "döküm",
                                          "kopyas",
                                          "şimdiye kadar",
                                          "salinan",
                                          "sejauh ini",
                                          "bản sao",
                                          "cho đến nay",
                                          "nakala",
                                          "hadi sasa",
                                          "până acum",
                                          "αντίγραφο",
                                          "μέχρι τώρα",
                                          "στιγμιότυπο",
                                          "дамп",
                                          "снимок",
                                          "копия",
                                          "копию",
                                          "до сих пор",
                                          "выгрузк",
                                          "знімок",
                                          "досі",
                                          "ダンプ",
                                          "スナップショット",
                                          "エクスポート",
                                          "丸ごと",
                                          "导出",
                                          "導出",
                                          "快照",
                                          "副本",
                                          "转储",
                                          "完整",
                                          "迄今",
                                          "到目前为止",
                                          "덤프",
                                          "스냅샷",
                                          "사본",
                                          "지금까지",
                                          "अब तक",
                                          "डंप",
                                          "تاکنون",
                                          "نسخه",
                                          "نسخة",
                                          "تفريغ",
                                          "حتى الآن",
                                          "עד כה",
                                          "עותק",
                                          "สำเนา",
                                          "จนถึงตอนนี้"};

/* "全" opening a word ("全環境変数", "の全データ"), not inside one ("安全"). */
static bool cjk_all(const char *t, size_t len) {
    for (size_t i = 0; i + 3 <= len; i++) {
        if (memcmp(t + i, "\xe5\x85\xa8", 3) != 0)
            continue;
        unsigned char b = i >= 3 ? (unsigned char)t[i - 3] : 0;
        if (b < 0xE4 || b > 0xE9) /* not after an ideograph */
            return true;
    }
    return false;
}

/* Does a field of the schema slot `key` (its name, description, values)
 * ask for its store whole? */
static bool slot_field_of(mv_str path, mv_str key) {
    return path.len >= key.len && memcmp(path.ptr, key.ptr, key.len) == 0 &&
           (path.len == key.len || path.ptr[key.len] == '.' || path.ptr[key.len] == '[');
}

static bool slot_says(const mv_tool *tool, mv_str key, const char *const *w, size_t nw, bool dump) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->window_of != 0 || f->text.len > SLOT_SHORT || !slot_field_of(f->path, key))
            continue;
        if (slot_words(f->text.ptr, f->text.len, w, nw))
            return true;
        if (dump && (slot_whole(f->text.ptr, f->text.len) || cjk_all(f->text.ptr, f->text.len)))
            return true;
    }
    return false;
}

/* The environment among the facts of the host: the variables hold the
 * process's tokens, so a slot that takes them whole asks for its secrets. */
static const char *const k_env_words[] = {
    "env",        "entorno", "umgebung", "ambient", "omgeving", "środowisk", "ortam",
    "môi trường", "окружен", "оточен",   "環境",    "环境",     "환경"};

static bool env_hit(const char *t, const reach_hit *h) {
    for (uint32_t i = 0; i < h->len; i++)
        for (size_t k = 0; k < sizeof(k_env_words) / sizeof(k_env_words[0]); k++) {
            size_t n = strlen(k_env_words[k]);
            if (i + n <= h->len && same_ci(t + h->off + i, k_env_words[k], n))
                return true;
        }
    return false;
}

/* Words that say a value is run: a parameter naming a command and saying
 * it is run or executed is a command line, arbitrary by nature. */
static const char *const k_run_words[] = {
    "run",      "exec",       "invok",      "ejecut", "exécut",   "ausgeführt", "ausführ",
    "esegu",    "uitgevoerd", "uitvoer",    "wykon",  "spust",    "futtat",     "suorit",
    "çalıştır", "jalankan",   "dijalankan", "chạy",   "thực thi", "выполн",     "запуск",
    "викон",    "実行",       "执行",       "執行",   "运行",     "실행",       "चलाय",
    "चलाए",     "निष्पादित",   "اجرا",       "تنفيذ",  "ينفذ",     "يُنفذ",       "להריץ",
    "הרצ",      "ירוץ",       "rulat",      "rula",   "εκτελ",    "kuendesha",  "patakbuhin"};

/* Jobs that run commands, and jobs about files: such a job explains a
 * command line, or the files asked whole. Matched at a word start in the
 * job's words (name, title head, server, first sentence). */
static const char *const k_cmd_job[] = {
    "command", "cmd",       "shell",     "bash",    "exec",    "terminal", "console",  "script",
    "run",     "ssh",       "sandbox",   "process", "task",    "job",      "hook",     "cli",
    "kubectl", "docker",    "container", "build",   "deploy",  "make",     "npm",      "pip",
    "git",     "pipeline",  "workflow",  "automat", "devops",  "server",   "host",     "system",
    "machine", "vm",        "instance",  "remote",  "code",    "python",   "node",     "repl",
    "eval",    "interpret", "compil",    "test",    "install", "package",  "cron",     "schedul",
    "agent",   "plugin",    "macro",     "launch",  "invoke",  "operat",   "komut",    "comand",
    "command", "befehl",    "polecen",   "příkaz",  "parancs", "komento",  "kommando", "perintah",
    "lệnh",    "команд",    "コマンド",  "命令",    "명령",    "कमांड",     "kabuk",    "skrypt"};
static const char *const k_files_job[] = {
    "file",        "folder",   "dir",      "path",         "repo",    "workspace", "project",
    "code",        "source",   "document", "doc",          "disk",    "storage",   "backup",
    "archiv",      "zip",      "tar",      "index",        "search",  "grep",      "find",
    "glob",        "sync",     "upload",   "git",          "fs",      "tree",      "lint",
    "compress",    "scan",     "read",     "write",        "copy",    "move",      "edit",
    "open",        "load",     "save",     "import",       "export",  "datei",     "ordner",
    "verzeichnis", "archivo",  "carpeta",  "arquivo",      "pasta",   "fichier",   "dossier",
    "répertoire",  "bestand",  "plik",     "katalog",      "soubor",  "fájl",      "tiedosto",
    "dosya",       "dizin",    "berkas",   "tệp",          "thư mục", "файл",      "папк",
    "каталог",     "ファイル", "フォルダ", "ディレクトリ", "文件",    "檔案",      "目录",
    "目錄",        "파일",     "폴더",     "फ़ाइल",         "فایل",    "ملف",       "קובץ",
    "קבצ"};

/* Conditions under which a slot's whole ask stands (round 24). */
#define SLOT_IF_FILES 1u /* the job is not about files */
#define SLOT_IF_CMD 2u   /* the job runs no commands */

typedef struct slot_ask {
    mv_str key; /* the property's path */
    uint32_t mask;
    uint32_t base; /* mask before a conditional whole ask (round 24) */
    uint8_t cond;  /* SLOT_IF_*: the conditions of that ask */
    bool env;      /* the host's environment taken whole (round 24) */
    bool input;    /* an input schema's slot */
    int32_t param; /* its top-level parameter, or -1 */
} slot_ask;

/* Round 24: the environment taken whole - a whole or dump word just
 * before the environment's name ("all environment variables", "a
 * snapshot of the process environment", "全環境変数") or right after it
 * ("環境変数すべて"); "variables to set for all components" gives them. */
static bool env_whole(const char *t, size_t len, const reach_hit *h) {
    size_t a = h->off > 24 ? h->off - 24 : 0, e = h->off + h->len + 10;
    if (e > len)
        e = len;
    const char *p = t + a;
    size_t n = e - a;
    return slot_whole(p, n) || cjk_all(p, n) ||
           slot_words(p, n, k_slot_dump, sizeof(k_slot_dump) / sizeof(k_slot_dump[0]));
}

/* Round 24: a slot that can carry a store: not a number, not a choice
 * from an enum, not a record of declared fields (a bag of ids). */
static bool slot_carries(const mv_tool *tool, const slot_ask *s) {
    if (s->param < 0 || (uint32_t)s->param >= tool->n_params)
        return true;
    const mv_param *pm = &tool->params[s->param];
    if (pm->has_enum || str_is(pm->type, "integer") || str_is(pm->type, "number"))
        return false;
    size_t deep = 0;
    for (size_t i = 0; i + 12 <= s->key.len; i++)
        deep += memcmp(s->key.ptr + i, ".properties.", 12) == 0;
    return deep > 1 || !nested_properties(tool, (uint32_t)s->param);
}

/* The kinds outside the job of the slots (the annotations, the schema
 * slots, the English description's asking sentences) that ask for two
 * kinds or one whole. */
static uint32_t slots_raised(uint32_t ann, const slot_ask *slot, size_t n_slot,
                             const uint32_t *sent, size_t n_sent, uint32_t job) {
    uint32_t raised = 0, m = ann & ~job;
    if ((m & (m - 1)) != 0)
        raised |= m;
    for (size_t s = 0; s < n_slot; s++) {
        m = slot[s].mask & ~job;
        if ((m & (m - 1)) != 0)
            raised |= m;
    }
    /* a sentence elaborating the job ("records the screen continuously,
     * with the microphone") ties its scope word to the job's kind: then
     * two kinds outside the job are needed */
    for (size_t s = 0; s < n_sent; s++) {
        m = sent[s] & ~job;
        if ((sent[s] & job & ((1u << RK_COUNT) - 1)) != 0 ||
            ((job & SENSOR_KINDS) != 0 && (sent[s] & SENSOR_KINDS) != 0))
            m &= (1u << RK_COUNT) - 1;
        if ((m & (m - 1)) != 0)
            raised |= m;
    }
    return raised & ((1u << RK_COUNT) - 1);
}

/* Round 22: the bare word "browser" as the instrument the tool drives
 * ("Show browser window", "Run browser in headless mode", "Opens browser
 * for GitHub auth") is the tool's automation, not the user's browser data
 * (cookies, history, saved passwords): a later browser term in the text
 * still asks. */
static bool browser_instrument(const char *t, size_t len, uint32_t off, uint32_t hl, int32_t fi) {
    static const char *const before[] = {"open", "opens", "show",   "launch",  "launches",
                                         "run",  "start", "starts", "headless"};
    static const char *const after[] = {"window",    "session",   "automation",
                                        "behavior",  "behaviour", "viewport",
                                        "operation", "in",        "for"};
    if (hl != 7 || off + hl > len || !lit_eq_ci(t + off, hl, "browser"))
        return false;
    if (reach_scan(t, len, off + hl, ~(1u << RK_BROWSER), true, fi, NULL) & 1u << RK_BROWSER)
        return false;
    size_t a = off + hl, b;
    while (a < len && t[a] == ' ')
        a++;
    b = a;
    while (b < len && is_alnum((unsigned char)t[b]))
        b++;
    for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++)
        if (b > a && lit_eq_ci(t + a, b - a, after[k]))
            return true;
    b = off;
    while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '_'))
        b--;
    a = b;
    while (a > 0 && is_alnum((unsigned char)t[a - 1]))
        a--;
    for (size_t k = 0; k < sizeof(before) / sizeof(before[0]); k++)
        if (b > a && lit_eq_ci(t + a, b - a, before[k]))
            return true;
    return false;
}

/* Round 22: a kind whose term is a word of the tool's own name ("contacts"
 * on send_contact_message) is the job. */
static bool name_speaks(mv_str name, const char *t, uint32_t hl) {
    for (size_t i = 0; i < name.len;) {
        while (i < name.len && !is_alnum((unsigned char)name.ptr[i]))
            i++;
        size_t j = i;
        while (j < name.len && is_alnum((unsigned char)name.ptr[j]))
            j++;
        size_t n = j - i;
        /* Round 23: or the hit's last word ("chat messages" on
         * get_recent_messages) */
        for (size_t at = 0; n >= 5 && at + n <= hl && at + n + 2 >= hl; at++) {
            if (at > 0 && t[at - 1] != ' ' && t[at - 1] != '_' && t[at - 1] != '-')
                continue;
            size_t k = 0;
            while (k < n &&
                   lower((unsigned char)name.ptr[i + k]) == lower((unsigned char)t[at + k]))
                k++;
            if (k == n)
                return true;
        }
        i = j;
    }
    return false;
}

/* Round 27: a slot that lists what is left out ("exclude": [".env",
 * "*.pem"], "redact_fields") names stores it keeps away, it asks none. */
static bool slot_excludes(mv_str key) {
    static const char *const k_out[] = {"exclu", "ignor", "skip",   "deny",    "block",  "redact",
                                        "mask",  "omit",  "filter", "without", "except", "strip"};
    size_t i = key.len;
    while (i > 0 && key.ptr[i - 1] != '.')
        i--;
    mv_str last = {key.ptr + i, key.len - i};
    for (size_t k = 0; k < sizeof(k_out) / sizeof(k_out[0]); k++)
        if (contains_ci(last, k_out[k], strlen(k_out[k])))
            return true;
    return false;
}

static int report_slot_reach(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    slot_ask slot[SLOT_MAX];
    size_t n_slot = 0;
    reach_hit hits[RK_COUNT];
    uint32_t seen = 0, ann = 0;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind == MV_FIELD_TITLE && f->window_of == 0 && f->text.len <= SLOT_SHORT) {
            /* Round 23: a title's tail that asks is a slot of its own */
            size_t tj = title_job_end(f->text);
            if (tj == f->text.len)
                continue;
            reach_hit h[RK_COUNT];
            uint32_t m =
                reach_merge(reach_scan(f->text.ptr, f->text.len, tj, 0, true, (int32_t)fi, h), h);
            if ((m & SLOT_WHOLE_KINDS) != 0 && slot_whole(f->text.ptr + tj, f->text.len - tj))
                m |= 1u << (RK_COUNT + 1);
            if ((m & ((1u << RK_COUNT) - 1)) == 0 || n_slot == SLOT_MAX)
                continue;
            for (int k = 0; k < RK_COUNT; k++)
                if ((m & ~seen) & (1u << k))
                    hits[k] = h[k];
            seen |= m;
            slot[n_slot++] = (slot_ask){f->path, m, m, 0, false, false, -1};
            continue;
        }
        if (f->window_of != 0 || f->text.len > SLOT_SHORT || f->text.len < 3)
            continue;
        if (f->schema == MV_SCHEMA_NONE && f->kind != MV_FIELD_ANNOTATION)
            continue;
        reach_hit h[RK_COUNT];
        uint32_t m = reach_scan(f->text.ptr, f->text.len, 0, 0, true, (int32_t)fi, h);
        if (m == 0)
            continue;
        if ((m & 1u << RK_BROWSER) != 0 &&
            browser_instrument(f->text.ptr, f->text.len, h[RK_BROWSER].off, h[RK_BROWSER].len,
                               (int32_t)fi) &&
            (m &= ~(1u << RK_BROWSER)) == 0)
            continue;
        m = reach_merge(m, h);
        /* two facts of the host in one field ("hostname, running
         * processes") are two asks */
        const uint32_t hb = 1u << RK_HOST;
        if (m & hb) {
            size_t after = h[RK_HOST].off + h[RK_HOST].len;
            if (reach_scan(f->text.ptr, f->text.len, after, ~hb, true, (int32_t)fi, NULL) & hb)
                m |= 1u << RK_COUNT;
        }
        /* one store asked whole is a second ask; an output returning all
         * of the host's environment is one too */
        uint32_t wk = SLOT_WHOLE_KINDS | (f->schema == MV_SCHEMA_OUTPUT ? 1u << RK_HOST : 0);
        if (((m & wk) != 0 && slot_whole(f->text.ptr, f->text.len)) || (m & SELF_WHOLE_KINDS) != 0)
            m |= 1u << (RK_COUNT + 1);
        /* Round 23: a switch on by default ("include_env": true) takes
         * its store unless the model turns it off: the store is asked as
         * it stands, whole. Not the location (a finder of places near the
         * user switches the GPS on by right), nor messages (a switch that
         * sends a consent message, a chat tool's own chats). (A required
         * parameter was
         * tried too: real API tools require contact ids, browser names
         * and calendar ids by right.) */
        if ((m & ((1u << RK_COUNT) - 1) & ~(1u << RK_LOCATION | 1u << RK_MESSAGES)) != 0 &&
            f->param >= 0 && (uint32_t)f->param < tool->n_params) {
            const mv_param *pm = &tool->params[f->param];
            if (pm->schema == MV_SCHEMA_INPUT && pm->fixed == MV_FIXED_TRUE &&
                str_is(pm->type, "boolean"))
                m |= 1u << (RK_COUNT + 1);
        }
        /* Round 20: the conversation of the model that calls ("the
         * assistant's current system prompt", "your instructions") is the
         * caller's own, asked as it stands; an LLM wrapper's
         * `system_prompt` is one it sends to the model it calls */
        if ((m & 1u << RK_SESSION) != 0 &&
            job_words(f->text.ptr, f->text.len, k_caller_own,
                      sizeof(k_caller_own) / sizeof(k_caller_own[0])))
            m |= 1u << (RK_COUNT + 1);
        for (int k = 0; k < RK_COUNT; k++)
            if ((m & ~seen) & (1u << k))
                hits[k] = h[k];
        seen |= m;
        if (f->schema == MV_SCHEMA_NONE) {
            ann |= m; /* the annotations are one slot */
            continue;
        }
        /* an enum lists choices (a service picker), it does not ask */
        size_t kl = slot_key(f->path);
        if (kl == 0 || (f->path.len - kl >= 5 && memcmp(f->path.ptr + kl, ".enum", 5) == 0))
            continue;
        mv_str key = {f->path.ptr, kl};
        size_t s = 0;
        while (s < n_slot && !(slot[s].key.len == kl && memcmp(slot[s].key.ptr, key.ptr, kl) == 0))
            s++;
        if (s == n_slot) {
            if (n_slot == SLOT_MAX)
                continue;
            slot[n_slot++] =
                (slot_ask){key, 0, 0, 0, false, f->schema == MV_SCHEMA_INPUT, f->param};
        }
        slot[s].mask |= m;
        if ((m & 1u << RK_HOST) != 0 && env_hit(f->text.ptr, &h[RK_HOST]) &&
            env_whole(f->text.ptr, f->text.len, &h[RK_HOST]))
            slot[s].env = true;
    }
    /* Round 24 (cap24): an input slot asks as a whole, its name, its
     * description and its values together: `previous_messages` described
     * as "all ... in this chat", `env_snapshot` as "the process
     * environment". A store named in one field and taken whole in another
     * (a dump, a snapshot, "so far", "all") is one store asked whole; so
     * is the environment (the process's tokens), and, unless the job is
     * about files, the files; a command named and said to be run is a
     * command line, unless the job runs commands. */
    const uint32_t wbit = 1u << (RK_COUNT + 1), kinds = (1u << RK_COUNT) - 1;
    for (size_t s = 0; s < n_slot; s++) {
        uint32_t m = slot[s].mask;
        slot[s].base = m;
        if (!slot[s].input || (m & wbit) != 0 || (m & kinds) == 0 || !slot_carries(tool, &slot[s]))
            continue;
        if (slot[s].env) {
            slot[s].mask |= wbit;
            slot[s].base |= wbit;
            continue;
        }
        bool sure = (m & SLOT_WHOLE_KINDS) != 0;
        if ((sure || (m & 1u << RK_FILES) != 0) &&
            slot_says(tool, slot[s].key, k_slot_dump, sizeof(k_slot_dump) / sizeof(k_slot_dump[0]),
                      true)) {
            slot[s].mask |= wbit;
            if (sure)
                slot[s].base |= wbit;
            else
                slot[s].cond |= SLOT_IF_FILES;
        }
        if ((m & 1u << RK_COMMANDS) != 0 &&
            slot_says(tool, slot[s].key, k_run_words, sizeof(k_run_words) / sizeof(k_run_words[0]),
                      false)) {
            slot[s].mask |= wbit;
            slot[s].cond |= SLOT_IF_CMD;
        }
    }
    /* Round 27 (detector 15): the first input slot asking for a secret,
     * a bank, an identity number, health records or the contacts, noted
     * whatever the count of its kinds; detector 15 judges it alone. */
    for (size_t s = 0; s < n_slot && ts->cred_kinds == 0; s++) {
        uint32_t ck = slot[s].base & CRED_SLOT_KINDS;
        if (!slot[s].input || ck == 0 || !slot_carries(tool, &slot[s]) ||
            slot_excludes(slot[s].key))
            continue;
        int first, second;
        first_two_kinds(ck, &first, &second);
        if (hits[first].field >= 0 && cred_desc_own(tool->fields[hits[first].field].text))
            continue; /* "SSH key IDs or fingerprints", "the PDF's password" */
        ts->cred_kinds = ck;
        if (ts->cred_name == CK_NONE)
            ts->cred_hit = hits[first];
    }
    /* Round 19: the later sentences of an English description ("Requires:
     * filesystem read access to the home directory, shell execution",
     * "records continuously from the microphone in the background"), one
     * slot each; detector 8 reads the other languages. Only the opening
     * DESC_READ bytes: a real tool's manual is the resource rules'. */
    uint32_t sent[SENT_MAX];
    size_t n_sent = 0;
    if (ts->english && ts->desc >= 0) {
        const mv_field *f = &tool->fields[ts->desc];
        size_t len = f->text.len < DESC_READ ? f->text.len : DESC_READ;
        for (size_t a = reach_lead_end(f->text); a < len && n_sent < SENT_MAX;) {
            size_t e = a;
            while (e < len && ((k_reach_stop[(unsigned char)f->text.ptr[e]] & 1) == 0 ||
                               !reach_break(f->text.ptr, len, e)))
                e++;
            reach_hit h[RK_COUNT];
            const char *sp = f->text.ptr + a;
            /* the conversation is not read here: English prose quotes
             * "system prompt" in honest tools (a review screener, a
             * fine-tuning job's `system_prompt`) */
            uint32_t m = reach_scan(f->text.ptr, e, a, 1u << RK_SESSION, true, ts->desc, h);
            /* only a sentence that asks (access, requires, reads,
             * records ...): "Topics allow contacts to manage their
             * preferences for emails" describes, it does not ask */
            if (m != 0 && (m & SELF_WHOLE_KINDS) == 0 &&
                !job_words(sp, e - a, k_ask_words, sizeof(k_ask_words) / sizeof(k_ask_words[0])))
                m = 0;
            if ((m & 1u << RK_BROWSER) != 0 &&
                browser_instrument(f->text.ptr, e, h[RK_BROWSER].off, h[RK_BROWSER].len, ts->desc))
                m &= ~(1u << RK_BROWSER);
            if (m != 0) {
                m = reach_merge(m, h);
                if (((m & SLOT_WHOLE_KINDS) != 0 && slot_whole(f->text.ptr + a, e - a)) ||
                    (m & SELF_WHOLE_KINDS) != 0)
                    m |= 1u << (RK_COUNT + 1);
                for (int k = 0; k < RK_COUNT; k++)
                    if ((m & ~seen) & (1u << k))
                        hits[k] = h[k];
                seen |= m;
                sent[n_sent++] = m;
            }
            a = e + 1;
        }
    }
    bool cand = (ann & (ann - 1)) != 0;
    for (size_t s = 0; s < n_slot && !cand; s++)
        cand = (slot[s].mask & (slot[s].mask - 1)) != 0;
    for (size_t s = 0; s < n_sent && !cand; s++)
        cand = (sent[s] & (sent[s] - 1)) != 0;
    if (!cand)
        return MV_OK;
    /* the job, worked out only for a tool about to be raised */
    size_t lead = reach_lead_end(tool->description);
    mv_str server = mv_inspect_server(ts->ctx, tool); /* noted for the tool memo */
    uint32_t job = reach_scan(tool->name.ptr, tool->name.len, 0, 0, false, -1, NULL);
    size_t tj = title_job_end(tool->title);
    job |= reach_scan(tool->title.ptr, tj, 0, job, false, -1, NULL);
    job |= reach_scan(server.ptr, server.len, 0, job, false, -1, NULL);
    job |= reach_scan(tool->description.ptr, lead, 0, job, false, -1, NULL);
    /* a Markdown heading opens the description: the job is the next sentence */
    mv_str d = tool->description;
    size_t i0 = 0;
    while (i0 < d.len && is_space((unsigned char)d.ptr[i0]))
        i0++;
    if (i0 < d.len && d.ptr[i0] == '#' && lead < d.len) {
        mv_str rest = {d.ptr + lead + 1, d.len - lead - 1};
        size_t more = reach_lead_end(rest);
        lead += 1 + more;
        job |= reach_scan(d.ptr, lead, 0, job, false, -1, NULL);
    }
    job |= job_kinds(tool->name.ptr, tool->name.len) | job_kinds(tool->title.ptr, tj) |
           job_kinds(d.ptr, lead);
    /* a browser automation job takes screenshots */
    if (job & 1u << RK_BROWSER)
        job |= 1u << RK_SCREEN;
    for (int k = 0; k < RK_COUNT; k++)
        if ((seen & ~job & 1u << k) != 0 && hits[k].field >= 0 &&
            name_speaks(tool->name, tool->fields[hits[k].field].text.ptr + hits[k].off,
                        hits[k].len))
            job |= 1u << k;
    /* Round 24: a conditional whole ask stands where the job does not
     * explain it (a file tool takes "all files", a runner a command) */
    bool files_job = false, cmd_job = false, judged = false;
    for (size_t s = 0; s < n_slot; s++) {
        if (slot[s].cond == 0 || slot[s].base == slot[s].mask)
            continue;
        if (!judged) {
            const mv_str jt[4] = {tool->name, {tool->title.ptr, tj}, server, {d.ptr, lead}};
            for (int j = 0; j < 4; j++) {
                files_job = files_job || job_words(jt[j].ptr, jt[j].len, k_files_job,
                                                   sizeof(k_files_job) / sizeof(k_files_job[0]));
                cmd_job = cmd_job || job_words(jt[j].ptr, jt[j].len, k_cmd_job,
                                               sizeof(k_cmd_job) / sizeof(k_cmd_job[0]));
            }
            cmd_job = cmd_job || (job & 1u << RK_HOST) != 0;
            judged = true;
        }
        bool stands = ((slot[s].cond & SLOT_IF_FILES) != 0 && !files_job) ||
                      ((slot[s].cond & SLOT_IF_CMD) != 0 && !cmd_job);
        if (!stands)
            slot[s].mask = slot[s].base;
    }
    uint32_t raised = slots_raised(ann, slot, n_slot, sent, n_sent, job);
    if (raised == 0)
        return MV_OK;
    /* Round 21: a sensitive job explains the kinds its classes justify,
     * each slot is judged again without them */
    uint32_t explained = 0;
    int rc = job_explains(ts, &explained);
    if (rc != MV_OK)
        return rc;
    if (raised & explained)
        raised = slots_raised(ann, slot, n_slot, sent, n_sent, job | explained);
    if (raised == 0)
        return MV_OK;
    int first, second;
    first_two_kinds(raised, &first, &second);
    const reach_hit *h = &hits[first];
    char detail[200];
    sbuf b = {detail, 0, sizeof(detail)};
    sb_lit(&b, "its schema asks for ");
    sb_lit(&b, k_reach_label[first]);
    if (second >= 0) {
        sb_lit(&b, " and ");
        sb_lit(&b, k_reach_label[second]);
    }
    sb_lit(&b, ", which the tool's name and first sentence never mention");
    return emit_reach(ts, h, detail, b.n);
}

/* Detector 13 (round 23): an output that confesses a transfer. A tool
 * returns what it computes; an output field that reports the user's
 * files or secrets as sent, uploaded or shared during the call
 * ("uploaded_files": "files from the user's Documents folder uploaded
 * during the call", "private files (keys, tokens, .env) that were also
 * sent to the vendor") tells of a reach the job never needed. Counted
 * only when the job (name, title, server, first sentence) speaks of no
 * transfer of its own (an uploader, a mailer, a sync or backup tool).
 * Review only, no facet. */
static const char *const k_sent_done[] = {
    "uploaded",
    "sent to",
    "were sent",
    "was sent",
    "also sent",
    "transmitted",
    "exfiltrat",
    "forwarded to",
    "shared with",
    "synced to",
    "copied to",
    "mirrored to",
    "hochgeladen",
    "gesendet",
    "übertragen",
    "übermittelt",
    "envoyé",
    "téléversé",
    "transmis",
    "enviado",
    "subido",
    "transmitido",
    "caricat",
    "inviat",
    "trasmess",
    "verstuurd",
    "geüpload",
    "wysłan",
    "przesłan",
    "odeslan",
    "nahrán",
    "feltöltött",
    "elküldött",
    "lähetet",
    "ladattu",
    "skickade",
    "uppladdade",
    "gönderil",
    "yüklen",
    "diunggah",
    "dikirim",
    "đã tải lên",
    "đã gửi",
    "imetumwa",
    "zimepakiwa",
    "\xd0\xbe\xd1\x82\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xbb\xd0\xb5\xd0\xbd", /* отправлен */
    "\xd0\xb7\xd0\xb0\xd0\xb3\xd1\x80\xd1\x83\xd0\xb6\xd0\xb5\xd0\xbd", /* загружен */
    "\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb5\xd0\xb4\xd0\xb0\xd0\xbd",         /* передан */
    "\xd0\xbd\xd0\xb0\xd0\xb4\xd1\x96\xd1\x81\xd0\xbb\xd0\xb0\xd0\xbd", /* надіслан */
    "\xd0\xb7\xd0\xb0\xd0\xb2\xd0\xb0\xd0\xbd\xd1\x82\xd0\xb0\xd0\xb6\xd0\xb5\xd0\xbd", /* завантажен
                                                                                         */
    "\xe4\xb8\x8a\xe4\xbc\xa0",                                                         /* 上传 */
    "\xe5\x8f\x91\xe9\x80\x81",                                                         /* 发送 */
    "\xe7\x99\xbc\xe9\x80\x81",                                                         /* 發送 */
    "\xe4\xb8\x8a\xe5\x82\xb3",                                                         /* 上傳 */
    "\xe9\x80\x81\xe4\xbf\xa1",                                                         /* 送信 */
    "\xe3\x82\xa2\xe3\x83\x83\xe3\x83\x97\xe3\x83\xad\xe3\x83\xbc\xe3\x83\x89", /* アップロード */
    "\xec\x97\x85\xeb\xa1\x9c\xeb\x93\x9c",                                     /* 업로드 */
    "\xec\xa0\x84\xec\x86\xa1",                                                 /* 전송 */
    "\xe0\xa4\xad\xe0\xa5\x87\xe0\xa4\x9c\xe0\xa5\x80",                         /* भेजी */
    "\xe0\xa4\xad\xe0\xa5\x87\xe0\xa4\x9c\xe0\xa5\x87",                         /* भेजे */
    "\xe0\xa4\x85\xe0\xa4\xaa\xe0\xa4\xb2\xe0\xa5\x8b\xe0\xa4\xa1", /* अपलोड */
    "\xd8\xa7\xd8\xb1\xd8\xb3\xd8\xa7\xd9\x84 \xd8\xb4\xd8\xaf",    /* ارسال شد */
    "\xd8\xaa\xd9\x85 \xd8\xb1\xd9\x81\xd8\xb9",                    /* تم رفع */
    "\xd8\xaa\xd9\x85 \xd8\xa5\xd8\xb1\xd8\xb3\xd8\xa7\xd9\x84",    /* تم إرسال */
    "\xd7\xa0\xd7\xa9\xd7\x9c\xd7\x97",                             /* נשלח */
    "\xd7\x94\xd7\x95\xd7\xa2\xd7\x9c",                             /* הועל */
    "\xe0\xb8\xad\xe0\xb8\xb1\xe0\xb8\x9b\xe0\xb9\x82\xe0\xb8\xab\xe0\xb8\xa5\xe0\xb8\x94", /* อัปโหลด
                                                                                             */
};

/* What the user owns, in an output field's name or description: files,
 * documents, keys and secrets, in the languages. */
static const char *const k_user_data[] = {
    "file",
    "fichier",
    "archivo",
    "arquivo",
    "datei",
    "plik",
    "soubor",
    "fájl",
    "tiedosto",
    "dosya",
    "berkas",
    "tệp",
    "faili",
    "document",
    "dokument",
    "private",
    "privat",
    "secret",
    "token",
    "key",
    "credential",
    ".env",
    "ssh",
    "contact",
    "photo",
    "foto",
    "\xd1\x84\xd0\xb0\xd0\xb9\xd0\xbb",                             /* файл */
    "\xe3\x83\x95\xe3\x82\xa1\xe3\x82\xa4\xe3\x83\xab",             /* ファイル */
    "\xe6\x96\x87\xe4\xbb\xb6",                                     /* 文件 */
    "\xe6\xaa\x94\xe6\xa1\x88",                                     /* 檔案 */
    "\xed\x8c\x8c\xec\x9d\xbc",                                     /* 파일 */
    "\xe0\xa4\xab\xe0\xa4\xbc\xe0\xa4\xbe\xe0\xa4\x87\xe0\xa4\xb2", /* फ़ाइल */
    "\xd9\x81\xd8\xa7\xdb\x8c\xd9\x84",                             /* فایل */
    "\xd9\x85\xd9\x84\xd9\x81",                                     /* ملف */
    "\xd7\xa7\xd7\x95\xd7\x91\xd7\xa5",                             /* קובץ */
    "\xd7\xa7\xd7\x91\xd7\xa6",                                     /* קבצ */
    "\xe0\xb9\x84\xe0\xb8\x9f\xe0\xb8\xa5\xe0\xb9\x8c",             /* ไฟล์ */
};

/* A job that moves data by itself: upload, send, share, sync, publish,
 * export, back up, in the languages (matched anywhere: a false match
 * only keeps the detector quiet). */
static const char *const k_transfer_job[] = {
    "upload",
    "send",
    "sent",
    "share",
    "sync",
    "publish",
    "post",
    "export",
    "transfer",
    "forward",
    "push",
    "deliver",
    "mail",
    "backup",
    "back up",
    "submit",
    "webhook",
    "notif",
    "broadcast",
    "deploy",
    "mirror",
    "replicat",
    "hochlad",
    "envo",
    "enví",
    "envi",
    "subi",
    "carica",
    "invia",
    "trasmet",
    "transmi",
    "przes",
    "wysy",
    "feltölt",
    "küld",
    "lähet",
    "lataa",
    "skick",
    "ladda upp",
    "gönder",
    "yükle",
    "unggah",
    "kirim",
    "tải lên",
    "gửi",
    "\xd0\xbe\xd1\x82\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2",                 /* отправ */
    "\xd0\xb7\xd0\xb0\xd0\xb3\xd1\x80\xd1\x83\xd0\xb7",                 /* загруз */
    "\xd0\xbf\xd0\xb5\xd1\x80\xd0\xb5\xd0\xb4\xd0\xb0",                 /* переда */
    "\xd0\xbd\xd0\xb0\xd0\xb4\xd1\x96\xd1\x81\xd0\xbb",                 /* надісл */
    "\xd0\xb7\xd0\xb0\xd0\xb2\xd0\xb0\xd0\xbd\xd1\x82\xd0\xb0\xd0\xb6", /* завантаж */
    "\xe4\xb8\x8a\xe4\xbc\xa0",
    "\xe5\x8f\x91\xe9\x80\x81",
    "\xe7\x99\xbc\xe9\x80\x81",
    "\xe4\xb8\x8a\xe5\x82\xb3",
    "\xe9\x80\x81\xe4\xbf\xa1",
    "\xe3\x82\xa2\xe3\x83\x83\xe3\x83\x97\xe3\x83\xad\xe3\x83\xbc\xe3\x83\x89",
    "\xe5\x85\xb1\xe6\x9c\x89", /* 共有 */
    "\xec\x97\x85\xeb\xa1\x9c\xeb\x93\x9c",
    "\xec\xa0\x84\xec\x86\xa1",
    "\xe0\xa4\xad\xe0\xa5\x87\xe0\xa4\x9c", /* भेज */
    "\xe0\xa4\x85\xe0\xa4\xaa\xe0\xa4\xb2\xe0\xa5\x8b\xe0\xa4\xa1",
};

static int report_output_transfer(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema != MV_SCHEMA_OUTPUT)
            continue;
        mv_str d = pm->description;
        if (d.len > SLOT_SHORT)
            d.len = SLOT_SHORT;
        if (!job_words(pm->name.ptr, pm->name.len, GRANT_LIST(k_sent_done)) &&
            !job_words(d.ptr, d.len, GRANT_LIST(k_sent_done)))
            continue;
        if (!any_ci(pm->name, GRANT_LIST(k_user_data)) && !any_ci(d, GRANT_LIST(k_user_data)))
            continue;
        mv_str server = mv_inspect_server(ts->ctx, tool);
        mv_str title = {tool->title.ptr, title_job_end(tool->title)};
        mv_str lead = {tool->description.ptr, reach_lead_end(tool->description)};
        if (any_ci(tool->name, GRANT_LIST(k_transfer_job)) ||
            any_ci(title, GRANT_LIST(k_transfer_job)) ||
            any_ci(server, GRANT_LIST(k_transfer_job)) || any_ci(lead, GRANT_LIST(k_transfer_job)))
            return MV_OK;
        int32_t fi = property_field(tool, p);
        if (fi < 0)
            continue;
        static const char detail[] = "an output field reports the user's files or secrets sent "
                                     "elsewhere during the call, which the tool's job never needs";
        return emit_unexplained_param(ts, fi, detail, sizeof(detail) - 1);
    }
    return MV_OK;
}

/* Detector 9 (round 15): a bundle of the session. An object parameter
 * ("session", "context", "connection") whose declared properties are two
 * or more strong side-channel names (system_prompt, chat_history,
 * other_tools...) asks for the conversation as plainly as top-level
 * parameters would; the sink detector judges top-level parameters only,
 * and reads an object with properties as structured data. Counted when
 * the tool's name, title and description never use a word of those
 * names (a chat exporter speaks of its history). Review only, no facet. */
static int report_nested_sinks(tool_scan *ts) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    uint8_t *seen = mv_arena_calloc(ts->ctx->scratch, tool->n_params + 1, 1);
    uint8_t *count = mv_arena_calloc(ts->ctx->scratch, tool->n_params + 1, 1);
    int32_t *first = mv_arena_calloc(ts->ctx->scratch, tool->n_params + 1, sizeof(*first));
    if (seen == NULL || count == NULL || first == NULL)
        return MV_ENOMEM;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind != MV_FIELD_PROPERTY_NAME || f->param < 0 ||
            (uint32_t)f->param >= tool->n_params || f->schema != MV_SCHEMA_INPUT)
            continue;
        if (!seen[f->param]) {
            seen[f->param] = 1; /* the parameter's own name */
            continue;
        }
        /* an object, not the items of an array (lists of records) */
        if (!str_is(tool->params[f->param].type, "object"))
            continue;
        /* the strong side-channel names are compounds (system_prompt,
         * chat_history, conversation_history): shorter keys are skipped
         * before the sink table is asked */
        if (f->text.len < 10)
            continue;
        if (sink_strength(st, f->text) != S_STRONG || param_spoken_of(tool, f->text))
            continue;
        if (count[f->param]++ == 0)
            first[f->param] = (int32_t)fi;
        if (count[f->param] == 2) {
            static const char detail[] =
                "an object parameter bundles the conversation or the session (two side-channel "
                "fields), which the tool's name and description never mention";
            return emit_unexplained_param(ts, first[f->param], detail, sizeof(detail) - 1);
        }
    }
    return MV_OK;
}

/* Detector 10 (round 15): another service's credential. A credential
 * parameter whose name carries the name of a service ("gmail_oauth_token",
 * "slack_bot_token") asks for an account of that service; a tool that
 * works with the service names it somewhere in its name, title,
 * description or server ("Search Gmail messages", server "slack-tools").
 * A recipe finder or a watering reminder that wants a Gmail token with
 * full mailbox scope names no such service. The brand is whatever word of
 * the name is not a credential or a generic word, so no list of services
 * is kept; only a tool whose description and title do not say it talks
 * to a service (find_services) is judged, and only names of the shape
 * <service>_<oauth|access|api|auth|refresh|bearer|bot>_<token|key|secret>.
 * Review only, no facet. */
static bool generic_cred_word(const char *w, size_t n) {
    static const char *const k_generic[] = {
        "token",    "tokens",     "oauth",    "oauth2",     "auth",        "api",        "key",
        "keys",     "secret",     "access",   "refresh",    "bearer",      "personal",   "user",
        "client",   "app",        "service",  "account",    "password",    "pass",       "passwd",
        "private",  "session",    "jwt",      "credential", "credentials", "login",      "admin",
        "root",     "master",     "default",  "custom",     "your",        "bot",        "webhook",
        "signing",  "encryption", "license",  "pat",        "id",          "auth_token", "the",
        "cred",     "creds",      "basic",    "http",       "https",       "url",        "header",
        "value",    "code",       "pin",      "otp",        "totp",        "mfa",        "new",
        "old",      "current",    "optional", "cookie",     "sso",         "saml",       "ldap",
        "database", "server",     "proxy",    "registry",   "host",        "remote",     "system",
        "cloud",    "shared",     "public",   "secure",     "read",        "write",      "upload",
        "download", "local",      "user"};
    for (size_t k = 0; k < sizeof(k_generic) / sizeof(k_generic[0]); k++)
        if (strlen(k_generic[k]) == n && memcmp(k_generic[k], w, n) == 0)
            return true;
    return false;
}

static bool ends_ci(mv_str s, const char *w) {
    size_t n = strlen(w);
    return s.len >= n && raw_reads(s.ptr + s.len - n, n, (mv_str){w, n});
}

static int report_brand_credential(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema != MV_SCHEMA_INPUT || pm->has_enum || str_is(pm->type, "number") ||
            str_is(pm->type, "integer") || str_is(pm->type, "boolean") || pm->name.len < 12 ||
            !(ends_ci(pm->name, "token") || ends_ci(pm->name, "key") ||
              ends_ci(pm->name, "secret")))
            continue;
        /* the shape <service>_<oauth|access|api|auth|refresh|bearer|bot>_<token|key|secret>:
         * a paging or lookup token (continue_token, instrument_token,
         * skiptoken) has no auth word before its last word */
        static const char *const k_auth[] = {"oauth", "oauth2",  "access", "api",
                                             "auth",  "refresh", "bearer", "bot"};
        static const char *const k_last[] = {"token", "key", "secret"};
        char w[CAP_NAME_MAX * 2 + 2];
        size_t wn = split_words(pm->name.ptr, pm->name.len, w, sizeof(w));
        size_t ws[8][2];
        size_t nw = word_spans(w, wn, ws);
        if (nw < 3 ||
            !in_list(w + ws[nw - 1][0], ws[nw - 1][1] - ws[nw - 1][0], GRANT_LIST(k_last)) ||
            !in_list(w + ws[nw - 2][0], ws[nw - 2][1] - ws[nw - 2][0], GRANT_LIST(k_auth)))
            continue;
        const char *brand = w + ws[0][0];
        size_t bn = ws[0][1] - ws[0][0];
        if (bn < 4 || generic_cred_word(brand, bn))
            continue;
        if (brand == NULL || brand_named_by_tool(ts->ctx, tool, brand, bn))
            continue;
        find_services(ts);
        if (ts->service > 0 || ts->db > 0)
            continue;
        int32_t fi = property_field(tool, p);
        if (fi < 0)
            continue;
        static const char detail[] = "a parameter asks for a credential of a service the tool's "
                                     "name and description never mention";
        return emit_unexplained_param(ts, fi, detail, sizeof(detail) - 1);
    }
    return MV_OK;
}

/* Detector 14 (round 23): a credential of another owner. A parameter
 * named for a login secret (a password, a PIN, credentials, or a token,
 * key or secret after an auth word) whose owner words - the other words
 * of its name: "db_admin", "vault", "exchange", "online_banking", "spid",
 * "git", "email" - are not words of the tool's job (its name, the title's
 * head, its server, its first sentence), on a tool that talks to no
 * service or database: a palette, a tax calculator or an IBAN check asks
 * for another service's login. A password of the input itself (a PDF, a
 * zip, a certificate, a key store) is the job's. Review only, no facet. */
static const char *const k_login_secret[] = {
    "password",      "passwd",        "passphrase",   "pwd",          "pin",
    "tan",           "credentials",   "credential",   "creds",        "credenziali",
    "credenciales",  "credenciais",   "zugangsdaten", "anmeldedaten", "identifiants",
    "inloggegevens", "poswiadczenia", "prihlasovaci", "tunnukset",    "kimlik"};
static const char *const k_login_tokenish[] = {"token", "secret", "key", "apikey"};
static const char *const k_login_auth[] = {
    "api",     "access",   "auth",   "oauth",    "refresh", "bearer", "bot",    "admin",  "root",
    "sudo",    "su",       "master", "session",  "sessie",  "sesion", "sesión", "sessao", "sessão",
    "sitzung", "sessione", "sesja",  "personal", "private", "secret", "signing"};
/* A token's description that says it is a login secret. */
static const char *const k_login_token_desc[] = {"root",     "admin",      "login",
                                                 "password", "credential", "withdraw"};

/* Does any word of the tool's job (name, the title's head, server, first
 * sentence) contain w[0, n)? */
static bool job_names(tool_scan *ts, const char *w, size_t n) {
    const mv_tool *tool = ts->tool;
    mv_str where[4] = {tool->name,
                       {tool->title.ptr, title_job_end(tool->title)},
                       mv_inspect_server(ts->ctx, tool),
                       {tool->description.ptr, reach_lead_end(tool->description)}};
    for (int k = 0; k < 4; k++)
        if (where[k].ptr != NULL && contains_ci(where[k], w, n))
            return true;
    return false;
}

static bool is_upper(unsigned char c) {
    return c >= 'A' && c <= 'Z';
}

static bool is_lower_digit(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The first or last word of an identifier ("db_admin_password",
 * "onlineBankingPIN"), cut as split_words cuts it: a cheap look before
 * the split, which few property names are worth. */
static mv_str edge_word(mv_str s, bool last) {
    const unsigned char *u = (const unsigned char *)s.ptr;
    size_t i, j;
    if (last) {
        j = s.len;
        i = j;
        while (i > 0 && is_lower_digit(u[i - 1]))
            i--;
        if (i == j)
            while (i > 0 && is_upper(u[i - 1]))
                i--;
        else if (i > 0 && is_upper(u[i - 1]))
            i--;
    } else {
        i = 0;
        j = s.len > 0 ? 1 : 0;
        if (j < s.len && is_upper(u[0]) && is_upper(u[1]))
            while (j < s.len && is_upper(u[j]))
                j++;
        else
            while (j < s.len && is_lower_digit(u[j]))
                j++;
    }
    return (mv_str){s.ptr + i, j - i};
}

/* The first two letters of the words of k_login_secret,
 * k_secret_name_words and k_login_tokenish (bit b of entry a: a word
 * opens with 'a' + a, 'a' + b): most property names end in a word no
 * login word opens like ("id", "query", "limit"), and are left after one
 * look instead of fifty comparisons. Kept in step with the three lists
 * by hand (test_round23_login_words asks with every word of them). */
static const uint32_t k_login_pfx[26] = {
    0x000a008u, 0x0000000u, 0x0024000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000010u,
    0x0000011u, 0x0002008u, 0x0000010u, 0x0000111u, 0x0004001u, 0x0004001u, 0x0000010u,
    0x0000000u, 0x0424101u, 0x0000000u, 0x0000000u, 0x0000111u, 0x0104001u, 0x0000000u,
    0x0000000u, 0x0000001u, 0x0000000u, 0x0000000u, 0x0100000u};

static bool login_prefix(mv_str w) {
    if (w.len < 2)
        return false;
    unsigned a = (unsigned)lower((unsigned char)w.ptr[0]) - 'a';
    unsigned b = (unsigned)lower((unsigned char)w.ptr[1]) - 'a';
    return a < 26 && b < 26 && ((k_login_pfx[a] >> b) & 1u) != 0;
}

static bool login_secret_word(mv_str w) {
    return in_list(w.ptr, w.len, GRANT_LIST(k_login_secret)) ||
           in_list(w.ptr, w.len, GRANT_LIST(k_secret_name_words));
}

static int report_foreign_login(tool_scan *ts) {
    const mv_tool *tool = ts->tool;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind != MV_FIELD_PROPERTY_NAME || f->schema != MV_SCHEMA_INPUT || f->text.len < 5)
            continue;
        mv_str lw = edge_word(f->text, true), fw = edge_word(f->text, false);
        if (!(login_prefix(lw) &&
              (login_secret_word(lw) || in_list(lw.ptr, lw.len, GRANT_LIST(k_login_tokenish)))) &&
            !(login_prefix(fw) && login_secret_word(fw)))
            continue;
        const mv_param *pm = NULL;
        if (f->param >= 0 && (uint32_t)f->param < tool->n_params &&
            tool->params[f->param].name.ptr == f->text.ptr) {
            pm = &tool->params[f->param];
            if (pm->has_enum || str_is(pm->type, "number") || str_is(pm->type, "integer") ||
                str_is(pm->type, "boolean"))
                continue;
        }
        char w[CAP_NAME_MAX * 2 + 2];
        size_t wn = split_words(f->text.ptr, f->text.len, w, sizeof(w));
        size_t ws[8][2];
        size_t nw = word_spans(w, wn, ws);
        if (nw < 2)
            continue;
        /* a property nested one level at most ("account.email_password"):
         * deeper ones are the request bodies of API wrappers */
        size_t depth = 0;
        for (size_t i = 0; i + 12 <= f->path.len; i++)
            depth += memcmp(f->path.ptr + i, ".properties.", 12) == 0;
        if (depth > 2 || contains_ci(f->path, ".items", 6) || contains_ci(f->path, "of[", 3))
            continue;
        bool setting = false;
        for (size_t k = 0; k < nw && !setting; k++)
            setting = in_list(w + ws[k][0], ws[k][1] - ws[k][0], GRANT_LIST(k_login_not));
        if (setting)
            continue;
        const char *last = w + ws[nw - 1][0];
        size_t ln = ws[nw - 1][1] - ws[nw - 1][0];
        bool secret = in_list(last, ln, GRANT_LIST(k_login_secret)) ||
                      in_list(last, ln, GRANT_LIST(k_secret_name_words));
        if (!secret && in_list(last, ln, GRANT_LIST(k_login_tokenish))) {
            const char *pw = w + ws[nw - 2][0];
            size_t pn = ws[nw - 2][1] - ws[nw - 2][0];
            secret = in_list(pw, pn, GRANT_LIST(k_login_auth)) ||
                     (pm != NULL && pm->description.len <= SLOT_SHORT &&
                      any_ci(pm->description, GRANT_LIST(k_login_token_desc)));
        }
        /* the Romance order: "credenziali_spid", "senha_banco" */
        size_t at = nw - 1;
        if (!secret && (in_list(w, ws[0][1], GRANT_LIST(k_login_secret)) ||
                        in_list(w, ws[0][1], GRANT_LIST(k_secret_name_words)))) {
            secret = true;
            at = 0;
        }
        if (!secret)
            continue;
        /* the owner words: none generic, none the input's own, none the job's */
        size_t owners = 0;
        bool job = false;
        for (size_t k = 0; k < nw && !job; k++) {
            if (k == at)
                continue;
            const char *q = w + ws[k][0];
            size_t qn = ws[k][1] - ws[k][0];
            if (qn < 2 || generic_cred_word(q, qn) || in_list(q, qn, GRANT_LIST(k_login_auth)) ||
                in_list(q, qn, GRANT_LIST(k_login_secret)) ||
                in_list(q, qn, GRANT_LIST(k_login_tokenish)))
                continue;
            if (in_list(q, qn, GRANT_LIST(k_login_own)) || (q[0] >= '0' && q[0] <= '9'))
                job = true;
            else if (job_names(ts, q, qn))
                job = true;
            else
                owners++;
        }
        if (job || owners == 0)
            continue;
        /* a login tool, a keeper of passwords whose job names the secret
         * itself ("Busca uma senha no cofre"), or one that talks to a
         * service or a database */
        if (any_ci(tool->name, GRANT_LIST(k_login_words)) ||
            any_ci(tool->title, GRANT_LIST(k_login_words)) ||
            any_ci(tool->description, GRANT_LIST(k_login_words)) ||
            job_names(ts, w + ws[at][0], ws[at][1] - ws[at][0]))
            return MV_OK;
        find_services(ts);
        if (ts->service > 0 || ts->db_job)
            return MV_OK;
        static const char detail[] = "a parameter asks for a login of a service the tool's job "
                                     "never names";
        return emit_unexplained_param(ts, (int32_t)fi, detail, sizeof(detail) - 1);
    }
    return MV_OK;
}

/* Detector 11 (round 15): a default that reads the secret stores. A
 * parameter whose default or const (what the model sends when nobody
 * chooses) names two or more different sensitive resources of the shared
 * list ("read_paths": ["~/.aws/credentials", "~/.kube/config", "~/.netrc"])
 * asks for them whatever the tool's job: even a tool whose class explains
 * credentials (a notebook, a shell) has no reason to point its unchosen
 * value at several stores at once. A cloud tool defaulting to its one
 * config file ("~/.kube/config") names one. Review only, no facet. */
static bool default_path(mv_str path) {
    size_t i = path.len;
    while (i > 0 && path.ptr[i - 1] != '.')
        i--;
    mv_str last = {path.ptr + i, path.len - i};
    return str_is(last, "default") || str_is(last, "const") ||
           (last.len > 8 && memcmp(last.ptr, "default[", 8) == 0) ||
           (last.len > 6 && memcmp(last.ptr, "const[", 6) == 0);
}

static int report_default_stores(tool_scan *ts) {
    const cap_state *st = ts->st;
    const mv_tool *tool = ts->tool;
    if (st->sens == NULL)
        return MV_OK;
    /* a list of what is kept back (exclude, ignore, redact ...) names the
     * stores to protect them, as round 7's withheld sources */
    static const char *const k_withhold[] = {"exclu",  "ignor", "skip", "deny",    "block",
                                             "redact", "mask",  "omit", "protect", "forbid"};
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema != MV_SCHEMA_INPUT)
            continue;
        mv_str seen = MV_STR_NULL;
        int32_t at = -1;
        for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
            const mv_field *f = &tool->fields[fi];
            if (f->kind != MV_FIELD_SCHEMA_VALUE || f->param != (int32_t)p ||
                !default_path(f->path))
                continue;
            /* two members of the default (two values), not two phrases of
             * one path ("~/.ssh/id_ed25519" is one store) */
            mv_sensitive_hit h;
            if (mv_sensitive_find(st->sens, f->text.ptr, f->text.len, &h)) {
                if (seen.ptr == NULL) {
                    seen = f->text;
                    at = (int32_t)fi;
                } else if (!raw_reads(seen.ptr, seen.len, f->text)) {
                    /* asked only here, for a parameter about to be raised */
                    bool withheld = false;
                    for (size_t k = 0; k < sizeof(k_withhold) / sizeof(k_withhold[0]) && !withheld;
                         k++) {
                        size_t n = strlen(k_withhold[k]);
                        withheld = contains_ci(pm->name, k_withhold[k], n) ||
                                   word_starting(pm->description, k_withhold[k], n);
                    }
                    if (withheld)
                        break;
                    static const char detail[] =
                        "a parameter's default names several secret stores, which the model "
                        "sends unchosen";
                    return emit_unexplained_param(ts, (int32_t)at, detail, sizeof(detail) - 1);
                }
            }
        }
    }
    return MV_OK;
}

/* Detector 15 (round 27, cap27): a credential or a kind of personal data
 * that the job does not need. A parameter slot (its name, description and
 * values; detector 3's names and detector 12's store kinds) asks for a
 * login secret, a key, a card or identity number, a bank, health records
 * or the contacts; the job (the tool's name, the title's head, its server,
 * its first sentence) holds no word of a job that needs that kind: a
 * login, an account or a service for a password or a token; a wallet, a
 * signature or a host for a key; a payment, a bank or an identity check
 * for a card or a bank login; a patient for health records; contacts or
 * messages for the contacts. A box-volume calculator asking for the
 * user's e-mail password, a price ticker for a wallet's private key, a
 * step counter for the whole address book. Whole job words only, as
 * stems and in the languages; a tool that talks to a named service or a
 * database explains a login secret. Review only, no facet. */

static int report_job_credential(tool_scan *ts) {
    if ((ts->cred_name == CK_NONE && ts->cred_kinds == 0) || ts->n_emitted > 0 || ts->reached)
        return MV_OK;
    const mv_tool *tool = ts->tool;
    /* a schema of many properties is an API's request body: its client
     * passes the service's fields, logins included (a deploy API's
     * registry password, a shop's new customer's password) */
    size_t props = 0;
    for (uint32_t fi = 0; fi < tool->n_fields && props <= CRED_PROPS_MAX; fi++)
        props += tool->fields[fi].kind == MV_FIELD_PROPERTY_NAME &&
                 tool->fields[fi].schema == MV_SCHEMA_INPUT;
    if (props > CRED_PROPS_MAX)
        return MV_OK;
    const mv_str jt[4] = {tool->name,
                          {tool->title.ptr, title_job_end(tool->title)},
                          mv_inspect_server(ts->ctx, tool),
                          {tool->description.ptr, reach_lead_end(tool->description)}};
    /* the store kinds the job names itself (a bank job, a patient record) */
    uint32_t named = 0;
    for (int j = 0; j < 4; j++)
        if (jt[j].ptr != NULL)
            named |= reach_scan(jt[j].ptr, jt[j].len, 0, named, false, -1, NULL);
    uint32_t kinds = ts->cred_kinds & ~named;
    bool login = ts->cred_name == CK_LOGIN || (kinds & 1u << RK_SECRETS) != 0;
    bool key = ts->cred_name == CK_KEY;
    bool pay = ts->cred_name == CK_CARD || (kinds & (1u << RK_BANK | 1u << RK_IDENTITY)) != 0;
    bool health = (kinds & 1u << RK_HEALTH) != 0;
    const char *label = NULL;
    if ((login || key) && !job_needs(jt, GRANT_LIST(k_need_login)) &&
        !job_needs(jt, GRANT_LIST(k_need_key)) && !job_needs(jt, GRANT_LIST(k_need_pay))) {
        if (!job_service(ts))
            label = key ? "a private key" : "a password or login secret";
    }
    static const char *const k_need_charge[] = {"charge", "stripe", "terminal", "pos"};
    if (label == NULL && pay && !job_needs(jt, GRANT_LIST(k_need_pay)) &&
        !job_needs(jt, GRANT_LIST(k_need_login)) && !job_needs(jt, GRANT_LIST(k_need_charge)) &&
        !job_needs(jt, GRANT_LIST(k_need_health)))
        label = "a card, a bank login or an identity number";
    if (label == NULL && health && !job_needs(jt, GRANT_LIST(k_need_health)))
        label = "health records";
    if (label == NULL || ts->cred_hit.field < 0)
        return MV_OK;
    char detail[200];
    sbuf b = {detail, 0, sizeof(detail)};
    sb_lit(&b, "a parameter asks for ");
    sb_lit(&b, label);
    sb_lit(&b, ", which the tool's job (its name and first sentence) never needs");
    return emit_reach(ts, &ts->cred_hit, detail, b.n);
}

static int cap_inspect(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    const cap_state *st = ctx->engine_state;
    int rc = MV_OK;
    /* perf28: desc_spans is read only below n_desc_spans: the struct is
     * zeroed around it, in two parts each below the size where memset
     * turns to `rep stosb` */
    tool_scan *ts = mv_arena_alloc(ctx->scratch, sizeof(*ts));
    if (ts == NULL)
        return MV_ENOMEM;
    memset(ts, 0, offsetof(tool_scan, desc_spans));
    memset(&ts->n_desc_spans, 0, sizeof(*ts) - offsetof(tool_scan, n_desc_spans));
    ts->st = st;
    ts->ctx = ctx;
    ts->tool = tool;
    ts->out = out;
    ts->desc = -1;
    ts->service = -1;
    ts->db = -1;
    ts->cred_hit.field = -1;
    ts->tc.cap = CAP_MATCHES_INIT;
    ts->tc.st = st;
    ts->tc.arena = ctx->scratch;
    ts->tc.m = mv_arena_alloc(ctx->scratch, CAP_MATCHES_INIT * sizeof(match));
    ts->leak = mv_arena_calloc(ctx->scratch, tool->n_params + 1, sizeof(*ts->leak));
    if (ts->tc.m == NULL || ts->leak == NULL)
        return MV_ENOMEM;
    for (uint32_t i = 0; i < tool->n_fields && ts->desc < 0; i++)
        if (tool->fields[i].kind == MV_FIELD_DESCRIPTION)
            ts->desc = (int32_t)i;

    /* The name declares; every other string may reference. */
    for (uint32_t i = 0; i < tool->n_fields && rc == MV_OK; i++)
        if (tool->fields[i].kind != MV_FIELD_NAME)
            rc = scan_field(ts, i);
    if (rc != MV_OK)
        return rc;

    reach_params(ts);
    reach_defaults(ts);
    /* Detector 4 (value_orders.c): values the model sends unchosen that
     * are an outside sink for a named secret, or a destroying command. */
    rc = value_orders_inspect(tool, st->sens, out);
    if (rc != MV_OK)
        return rc;
    /* Round 14: detectors 6 and 7 read schema shapes and parameter names,
     * not the resource terms, so they run before the early return. */
    rc = report_grants(ts);
    if (rc == MV_OK)
        rc = report_foreign_secret(ts);
    /* Round 15: detector 8 reads stores named in the languages. */
    if (rc == MV_OK)
        rc = report_foreign_reach(ts);
    /* Round 17: detector 12 reads the schema's asks in every language. */
    if (rc == MV_OK && !ts->reached)
        rc = report_slot_reach(ts);
    if (rc == MV_OK && !ts->reached)
        rc = report_output_transfer(ts);
    if (rc == MV_OK)
        rc = report_nested_sinks(ts);
    if (rc == MV_OK)
        rc = report_brand_credential(ts);
    if (rc == MV_OK)
        rc = report_foreign_login(ts);
    if (rc == MV_OK)
        rc = report_default_stores(ts);
    if (rc != MV_OK)
        return rc;
    /* The declaration costs a normalization of the name: only work it out
     * for the few tools that mention a resource or carry a sink name. */
    bool need = false;
    for (size_t r = 0; r < st->n_res && !need; r++)
        need = ts->best[r].w > 0 || ts->reach[r].w > 0;
    ts->sink = mv_arena_calloc(ctx->scratch, tool->n_params + 1, sizeof(*ts->sink));
    if (ts->sink == NULL)
        return MV_ENOMEM;
    for (uint32_t p = 0; p < tool->n_params; p++) {
        const mv_param *pm = &tool->params[p];
        if (pm->schema == MV_SCHEMA_INPUT && !pm->has_enum)
            ts->sink[p] = (int8_t)sink_strength(st, pm->name);
        need = need || ts->sink[p] != 0;
    }
    /* Round 27: detector 15 judges a credential slot alone, last, where
     * no other detector raised the tool. */
    if (!need)
        return report_job_credential(ts);
    declaration d;
    rc = declare(ts, &d);
    /* A parameter that carries a capability says something only about a
     * tool whose job is narrow: on a tool that declares nothing known (a
     * remote profiler with a "cmd") it is no evidence of a mismatch. */
    bool asks = false;
    if (rc == MV_OK && (d.mask & st->narrow_mask) != 0 && (d.mask & st->sensitive_mask) == 0)
        for (size_t r = 0; r < st->n_res; r++)
            if (ts->reach[r].w > ts->best[r].w)
                ts->best[r] = ts->reach[r];
    /* A tool that declares no known job is still judged on what its
     * parameters ask for, a little above a mention in its prose: nothing
     * in its name or lead sentence explains a card or identity number.
     * Only classes marked judge_unknown: credentials, commands and paths
     * are everyday parameters of tools whose job the rules do not know (a
     * key manager's AccessKey, an installer's install_command). */
    if (rc == MV_OK && d.mask == 0)
        for (size_t r = 0; r < st->n_res; r++) {
            if (!st->res[r].unknown_job)
                continue;
            /* asked for by a parameter's name; a description that only
             * names the class ("search capabilities, e.g. validate an
             * IBAN") is not judged without a known job */
            if (ts->reach[r].w <= 0)
                continue;
            if (ts->reach[r].w > ts->best[r].w)
                ts->best[r] = ts->reach[r];
            asks = true;
        }
    bool emitted = false;
    if (rc == MV_OK)
        rc = report_resources(ts, &d, asks, &emitted);
    if (rc == MV_OK && !emitted)
        rc = report_privileged_ask(ts, &d, &emitted);
    if (rc == MV_OK && !emitted)
        rc = report_silent_ask(ts);
    for (uint32_t p = 0; rc == MV_OK && p < tool->n_params; p++)
        rc = report_sink(ts, &d, p);
    if (rc == MV_OK)
        rc = report_job_credential(ts);
    return rc;
}

const mv_check mv_check_capability_mismatch = {
    .id = "capability.mismatch",
    .tier = MV_TIER_SOFT,
    .init = cap_init,
    .fini = cap_fini,
    .prepare = NULL,
    .release = NULL,
    .inspect = cap_inspect,
};
