/*
 * The position classifier (see position.h): decides whether a phrase found
 * by a phrase check is addressed to the model or only quoted, exemplified,
 * listed or labelled. It works on the normalized view for words (stems make
 * "detects" and "detection" one cue) and on the raw text for quotes and
 * lines (the normalized view unifies quotes with apostrophes and collapses
 * line breaks, both of which matter here).
 *
 * Everything is bounded: the sentence scan looks at most SENT_MAX bytes
 * back, the quote scan at most QUOTE_WINDOW bytes either side, and only the
 * code-fence count walks the text before the phrase.
 */
#include "position.h"

#include <string.h>
#include <utf8proc.h>

#define SENT_MAX 600     /* bytes of normalized text searched back for a cue */
#define TOK_MAX 64       /* words of the sentence kept before the phrase */
#define QUOTE_WINDOW 600 /* raw bytes searched either side for quotes */
#define QUOTE_STACK 32
#define QUOTE_SHORT 240  /* longer quoted passages are not "an example" */
#define LABEL_WORDS 3    /* a label is at most this many words before ':' */
#define FENCE_BACK 16384 /* raw bytes searched back for code fences */

/* ------------------------------------------------------------ vocabulary */

typedef enum voc_kind {
    V_INTRO,    /* example introducer */
    V_DETECT,   /* security-tool verb */
    V_ATTACKER, /* subject that attacks */
    V_SAYING,   /* verb of writing/saying (needed by V_ATTACKER) */
    V_SECNOUN,  /* noun that makes a detection verb's object attack text */
    V_BREAK,    /* starts a new clause between cue and phrase */
    V_LABEL,    /* label word before ':' */
    V_ABBREV    /* "e.g." is not a sentence end */
} voc_kind;

typedef struct voc {
    const char *plain; /* what a person writes */
    const char *norm;  /* its normalized form (checked by a unit test) */
    voc_kind kind;
    unsigned reach;      /* cue: max words between cue and phrase */
    const char *raw_end; /* the raw word must end so ("including", not "include") */
    unsigned char nlen;  /* strlen(norm), so that lookups never measure */
} voc;

#define V(plain, norm, kind, reach, raw_end)                                                       \
    { plain, norm, kind, reach, raw_end, sizeof(norm) - 1 }

/* Normalized forms are Snowball stems: "detects" -> "detect". */
/* One table per kind (in voc_kind order), so a lookup of one kind reads
 * only its own entries. */
static const voc voc_intro[] = {
    /* example introducers */
    V("such as", "such as", V_INTRO, 12, NULL),
    V("e.g", "e.g", V_INTRO, 12, NULL),
    V("eg", "eg", V_INTRO, 12, NULL),
    V("for example", "for exampl", V_INTRO, 12, NULL),
    V("for instance", "for instanc", V_INTRO, 12, NULL),
    V("examples of", "exampl of", V_INTRO, 10, NULL),
    V("including", "includ", V_INTRO, 8, "ing"),
    V("like", "like", V_INTRO, 3, NULL),
    V("phrases like", "phrase like", V_INTRO, 12, NULL),
    V("known as", "known as", V_INTRO, 4, NULL),
};
static const voc voc_detect[] = {
    /* detection-list verbs (a verb that is also a common noun must be
     * written as a verb: "after each report, delete ..." is no detection
     * list) */
    V("detects", "detect", V_DETECT, 25, NULL),
    V("flags", "flag", V_DETECT, 25, "s"),
    V("scans for", "scan for", V_DETECT, 25, NULL),
    V("scans", "scan", V_DETECT, 25, "s"),
    V("blocks", "block", V_DETECT, 25, "s"),
    V("identifies", "identifi", V_DETECT, 25, NULL),
    V("reports", "report", V_DETECT, 25, "s"),
    V("looks for", "look for", V_DETECT, 25, NULL),
    V("catches", "catch", V_DETECT, 25, NULL),
    V("filters", "filter", V_DETECT, 25, "s"),
    V("rejects", "reject", V_DETECT, 25, NULL),
    V("recognizes", "recogn", V_DETECT, 25, NULL),
    V("classifies", "classifi", V_DETECT, 25, NULL),
    V("checks for", "check for", V_DETECT, 25, NULL),
    V("warns about", "warn about", V_DETECT, 25, NULL),
    V("guards against", "guard against", V_DETECT, 25, NULL),
    V("protects against", "protect against", V_DETECT, 25, NULL),
    V("defends against", "defend against", V_DETECT, 25, NULL),
    V("sanitizes", "sanit", V_DETECT, 25, NULL),
    V("redacts", "redact", V_DETECT, 25, NULL),
    V("strips", "strip", V_DETECT, 25, NULL),
    V("quarantines", "quarantin", V_DETECT, 25, NULL),
    V("blocklist", "blocklist", V_DETECT, 25, NULL),
    V("denylist", "denylist", V_DETECT, 25, NULL),
};
static const voc voc_attacker[] = {
    /* attacker subjects */
    V("attackers", "attack", V_ATTACKER, 20, NULL),
    V("adversaries", "adversari", V_ATTACKER, 20, NULL),
    V("malicious", "malici", V_ATTACKER, 20, NULL),
    V("hackers", "hacker", V_ATTACKER, 20, NULL),
    V("jailbreak", "jailbreak", V_ATTACKER, 20, NULL),
    V("injections", "inject", V_ATTACKER, 20, NULL),
};
static const voc voc_saying[] = {
    /* verbs of saying (an attacker cue needs one before the phrase) */
    V("write", "write", V_SAYING, 0, NULL),    V("writes", "write", V_SAYING, 0, NULL),
    V("say", "say", V_SAYING, 0, NULL),        V("use", "use", V_SAYING, 0, NULL),
    V("insert", "insert", V_SAYING, 0, NULL),  V("embed", "emb", V_SAYING, 0, NULL),
    V("include", "includ", V_SAYING, 0, NULL), V("contain", "contain", V_SAYING, 0, NULL),
    V("try", "tri", V_SAYING, 0, NULL),        V("hide", "hide", V_SAYING, 0, NULL),
    V("hidden", "hidden", V_SAYING, 0, NULL),  V("put", "put", V_SAYING, 0, NULL),
    V("add", "add", V_SAYING, 0, NULL),        V("slip", "slip", V_SAYING, 0, NULL),
    V("sneak", "sneak", V_SAYING, 0, NULL),    V("smuggle", "smuggl", V_SAYING, 0, NULL),
    V("craft", "craft", V_SAYING, 0, NULL),    V("type", "type", V_SAYING, 0, NULL),
    V("ask", "ask", V_SAYING, 0, NULL),        V("like", "like", V_SAYING, 0, NULL),
    V("such", "such", V_SAYING, 0, NULL),
};
static const voc voc_secnoun[] = {
    /* nouns that make a detection verb's object attack text */
    V("injection", "inject", V_SECNOUN, 0, NULL),
    V("jailbreak", "jailbreak", V_SECNOUN, 0, NULL),
    V("attack", "attack", V_SECNOUN, 0, NULL),
    V("malicious", "malici", V_SECNOUN, 0, NULL),
    V("suspicious", "suspici", V_SECNOUN, 0, NULL),
    V("pattern", "pattern", V_SECNOUN, 0, NULL),
    V("phrase", "phrase", V_SECNOUN, 0, NULL),
    V("attempt", "attempt", V_SECNOUN, 0, NULL),
    V("manipulation", "manipul", V_SECNOUN, 0, NULL),
    V("poisoning", "poison", V_SECNOUN, 0, NULL),
    V("threat", "threat", V_SECNOUN, 0, NULL),
    V("unsafe", "unsaf", V_SECNOUN, 0, NULL),
    V("harmful", "harm", V_SECNOUN, 0, NULL),
    V("instructions", "instruct", V_SECNOUN, 0, NULL),
    V("prompt", "prompt", V_SECNOUN, 0, NULL),
    V("string", "string", V_SECNOUN, 0, NULL),
    V("text", "text", V_SECNOUN, 0, NULL),
    V("content", "content", V_SECNOUN, 0, NULL),
    V("keyword", "keyword", V_SECNOUN, 0, NULL),
    V("payload", "payload", V_SECNOUN, 0, NULL),
    V("exploit", "exploit", V_SECNOUN, 0, NULL),
    V("trick", "trick", V_SECNOUN, 0, NULL),
    V("tag", "tag", V_SECNOUN, 0, NULL),
    V("marker", "marker", V_SECNOUN, 0, NULL),
    V("signature", "signatur", V_SECNOUN, 0, NULL),
    V("indicator", "indic", V_SECNOUN, 0, NULL),
    V("word", "word", V_SECNOUN, 0, NULL),
    V("term", "term", V_SECNOUN, 0, NULL),
    V("sentence", "sentenc", V_SECNOUN, 0, NULL),
    V("language", "languag", V_SECNOUN, 0, NULL),
    V("description", "descript", V_SECNOUN, 0, NULL),
    V("input", "input", V_SECNOUN, 0, NULL),
};
static const voc voc_break[] = {
    /* clause breakers */
    V("then", "then", V_BREAK, 0, NULL),
    V("but", "but", V_BREAK, 0, NULL),
    V("however", "howev", V_BREAK, 0, NULL),
    V("instead", "instead", V_BREAK, 0, NULL),
    V("also", "also", V_BREAK, 0, NULL),
    V("now", "now", V_BREAK, 0, NULL),
    V("so", "so", V_BREAK, 0, NULL),
    V("therefore", "therefor", V_BREAK, 0, NULL),
    V("please", "pleas", V_BREAK, 0, NULL),
    V("must", "must", V_BREAK, 0, NULL),
    V("should", "should", V_BREAK, 0, NULL),
    V("shall", "shall", V_BREAK, 0, NULL),
    V("need", "need", V_BREAK, 0, NULL),
    V("always", "alway", V_BREAK, 0, NULL),
    V("important", "import", V_BREAK, 0, NULL),
    V("note", "note", V_BREAK, 0, NULL),
    V("afterwards", "afterward", V_BREAK, 0, NULL),
    V("next", "next", V_BREAK, 0, NULL),
    V("finally", "final", V_BREAK, 0, NULL),
    V("additionally", "addit", V_BREAK, 0, NULL),
    V("furthermore", "furthermor", V_BREAK, 0, NULL),
    V("moreover", "moreov", V_BREAK, 0, NULL),
    V("meanwhile", "meanwhil", V_BREAK, 0, NULL),
};
static const voc voc_label[] = {
    /* label words (before a ':') */
    V("example", "exampl", V_LABEL, 0, NULL),   V("sample", "sampl", V_LABEL, 0, NULL),
    V("demo", "demo", V_LABEL, 0, NULL),        V("illustration", "illustr", V_LABEL, 0, NULL),
    V("instance", "instanc", V_LABEL, 0, NULL), V("e.g", "e.g", V_LABEL, 0, NULL),
};
static const voc voc_abbrev[] = {
    /* abbreviations whose '.' does not end a sentence */
    V("e.g", "e.g", V_ABBREV, 0, NULL),   V("i.e", "i.e", V_ABBREV, 0, NULL),
    V("etc", "etc", V_ABBREV, 0, NULL),   V("vs", "vs", V_ABBREV, 0, NULL),
    V("cf", "cf", V_ABBREV, 0, NULL),     V("approx", "approx", V_ABBREV, 0, NULL),
    V("incl", "incl", V_ABBREV, 0, NULL), V("e.x", "e.x", V_ABBREV, 0, NULL),
    V("ex", "ex", V_ABBREV, 0, NULL),     V("fig", "fig", V_ABBREV, 0, NULL),
    V("no", "no", V_ABBREV, 0, NULL),
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
    const voc *v;
    size_t n;
} by_kind[] = {
    {voc_intro, N_OF(voc_intro)},       {voc_detect, N_OF(voc_detect)},
    {voc_attacker, N_OF(voc_attacker)}, {voc_saying, N_OF(voc_saying)},
    {voc_secnoun, N_OF(voc_secnoun)},   {voc_break, N_OF(voc_break)},
    {voc_label, N_OF(voc_label)},       {voc_abbrev, N_OF(voc_abbrev)},
};

bool mv_position_vocabulary(size_t i, mv_str *plain, mv_str *normalized) {
    const voc *e = NULL;
    for (size_t k = 0; k < N_OF(by_kind) && e == NULL; k++) {
        if (i < by_kind[k].n) {
            e = &by_kind[k].v[i];
        } else {
            i -= by_kind[k].n;
        }
    }
    if (e != NULL) {
        plain->ptr = e->plain;
        plain->len = strlen(e->plain);
        normalized->ptr = e->norm;
        normalized->len = e->nlen;
    }
    return e != NULL;
}

const char *mv_position_cue_name(mv_position_cue cue) {
    static const char *const names[MV_POS_CUE_COUNT] = {
        "instruction",    "quoted", "code_block",     "example_intro",
        "detection_list", "label",  "schema_example", "attacker",
    };
    return (unsigned)cue < MV_POS_CUE_COUNT ? names[cue] : "unknown";
}

/* ----------------------------------------------------------- words */

typedef struct tok {
    size_t start; /* core (without wrapping punctuation), normalized offsets */
    size_t len;
    bool colon; /* the chunk ends with ':' */
} tok;

static bool wrap_char(char c) {
    /* ( ) [ ] { } < > " ' * , . ; : ! ? ` as one bit test per byte */
    static const unsigned char wrap[256] = {
        ['('] = 1, [')'] = 1, ['['] = 1, [']'] = 1,  ['{'] = 1, ['}'] = 1,
        ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 1, ['*'] = 1, [','] = 1,
        ['.'] = 1, [';'] = 1, [':'] = 1, ['!'] = 1,  ['?'] = 1, ['`'] = 1};
    return wrap[(unsigned char)c] != 0;
}

static bool tok_is(const char *text, const tok *t, const char *w, size_t wl) {
    return t->len == wl && memcmp(text + t->start, w, wl) == 0;
}

/* Tokens never hold a space, so only one-word entries can equal one; the
 * length and first byte reject almost every entry before a memcmp. */
static bool is_kind(const char *text, const tok *t, voc_kind kind) {
    bool found = false;
    const char *w = text + t->start;
    const voc *v = by_kind[kind].v;
    for (size_t i = 0; i < by_kind[kind].n && !found; i++) {
        const voc *e = &v[i];
        if (e->nlen == t->len && e->norm[0] == w[0]) {
            found = memcmp(w, e->norm, t->len) == 0;
        }
    }
    return found;
}

/* Does the multi-word normalized phrase `w` (nlen bytes) match
 * tokens[k...]? Returns the number of tokens it spans, 0 when it does not
 * match. The first word is tested before anything is measured: it rejects
 * almost every cue. */
static size_t match_words(const char *text, const tok *toks, size_t n, size_t k, const char *w,
                          size_t nlen) {
    size_t used = 0;
    bool ok = true;
    const tok *t0 = &toks[k];
    if (t0->len > nlen || text[t0->start] != w[0] || (w[t0->len] != ' ' && w[t0->len] != '\0')) {
        return 0;
    }
    while (ok && *w != '\0') {
        const char *sp = strchr(w, ' ');
        size_t wl = sp ? (size_t)(sp - w) : strlen(w);
        ok = k + used < n && tok_is(text, &toks[k + used], w, wl);
        used++;
        w += wl + (sp ? 1 : 0);
    }
    return ok ? used : 0;
}

/* ------------------------------------------------------- sentences */

/* Number of line breaks in the raw gap behind the space at normalized i. */
static unsigned raw_gap_newlines(const mv_position_text *t, size_t i) {
    const mv_norm_text *n = t->norm;
    size_t r0 = n->raw_offset[i];
    size_t r1 = n->raw_offset[i + 1 <= n->len ? i + 1 : n->len];
    unsigned count = 0;
    if (r1 > t->raw.len) {
        r1 = t->raw.len;
    }
    for (size_t r = r0; r < r1; r++) {
        char c = t->raw.ptr[r];
        /* "\r\n" is one break */
        count += c == '\n' || (c == '\r' && (r + 1 >= r1 || t->raw.ptr[r + 1] != '\n'));
    }
    return count;
}

/* Does the raw gap behind the space at normalized i hold a line break?
 * The same as raw_gap_newlines(t, i) > 0 ("\r\n" counts at its '\n'), without
 * the count: the sentence walks ask this of every space they pass. */
static inline bool raw_gap_breaks(const mv_position_text *t, size_t i) {
    const mv_norm_text *n = t->norm;
    size_t r0 = n->raw_offset[i];
    size_t r1 = n->raw_offset[i + 1 <= n->len ? i + 1 : n->len];
    if (r1 > t->raw.len) {
        r1 = t->raw.len;
    }
    for (size_t r = r0; r < r1; r++) {
        if (t->raw.ptr[r] == '\n' || t->raw.ptr[r] == '\r') {
            return true;
        }
    }
    return false;
}

/* Is the space at normalized i (i < len) certainly no boundary with every
 * line break counted? Most spaces of prose follow an ASCII letter, digit or
 * ',' and stand for one raw space: no wrapper to skip, no stop, abbreviation
 * or pictograph (F0 four bytes back) before it, and no line break in the
 * gap, so mv_position_is_boundary(t, i, MV_POS_LINES_ANY) is false. A false
 * answer here decides nothing; the caller then asks the full test. */
static inline bool plain_space(const mv_position_text *t, size_t i) {
    const unsigned char *u = (const unsigned char *)t->norm->text;
    unsigned char c;
    if (i == 0) {
        return false;
    }
    c = u[i - 1];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || c == ',') ||
        (i >= 4 && u[i - 4] == 0xF0)) {
        return false;
    }
    return t->raw.ptr == NULL || !raw_gap_breaks(t, i);
}

/* Is the chunk ending just before the space at i an abbreviation ("e.g.")? */
static bool ends_with_abbrev(const char *text, size_t i) {
    size_t e = i; /* text[e-1] is the '.' */
    size_t s = e - 1;
    bool result = false;
    while (s > 0 && text[s - 1] != ' ') {
        s--;
    }
    /* core = text[s, e-1) without leading wrappers */
    while (s < e - 1 && wrap_char(text[s])) {
        s++;
    }
    if (e - 1 > s) {
        tok t = {s, e - 1 - s, false};
        result = (t.len == 1) || is_kind(text, &t, V_ABBREV);
    }
    return result;
}

/* Round 18 (quiet18): a pictograph between two sentences of a chat-style
 * description ("Add a note to a ticket \U0001F4DD Internal notes are ...")
 * ends the first one when a capital letter follows it: the emoji stands
 * where the full stop would. A pictograph inside a sentence is followed by
 * a lower-case word. Only the four-byte pictographs (U+1F300 on). */
static bool pictograph_stop(const mv_position_text *t, size_t i, size_t k) {
    const unsigned char *u = (const unsigned char *)t->norm->text;
    size_t r;
    if (k >= 7 && u[k - 3] == 0xEF && u[k - 2] == 0xB8 && u[k - 1] == 0x8F) {
        k -= 3; /* the emoji presentation selector U+FE0F */
    }
    if (k < 4 || u[k - 4] != 0xF0 || u[k - 3] != 0x9F || u[k - 2] < 0x8C || t->raw.ptr == NULL ||
        i + 1 >= t->norm->len) {
        return false;
    }
    r = t->norm->raw_offset[i + 1];
    return r < t->raw.len && t->raw.ptr[r] >= 'A' && t->raw.ptr[r] <= 'Z';
}

bool mv_position_is_boundary(const mv_position_text *t, size_t i, mv_position_lines lines) {
    const char *text = t->norm->text;
    bool result = false;
    size_t k = i;
    if (i >= t->norm->len || text[i] != ' ') {
        goto done;
    }
    if (lines != MV_POS_LINES_IGNORE && t->raw.ptr != NULL) {
        unsigned nl = raw_gap_newlines(t, i);
        if (nl >= (lines == MV_POS_LINES_ANY ? 1u : 2u)) {
            result = true;
            goto done;
        }
    }
    /* skip closing wrappers: instructions." or done.) */
    while (k > 0 && i - k < 3 &&
           (text[k - 1] == '"' || text[k - 1] == '\'' || text[k - 1] == ')' || text[k - 1] == ']' ||
            text[k - 1] == '*')) {
        k--;
    }
    if (k == 0) {
        goto done;
    }
    switch (text[k - 1]) {
    case '!':
    case '?':
    case ';':
        result = true;
        break;
    case '.':
        result = !ends_with_abbrev(text, k);
        break;
    default:
        result = pictograph_stop(t, i, k);
        break;
    }
done:
    return result;
}

static bool ideographic_stop_before(const char *text, size_t i) {
    /* U+3002 IDEOGRAPHIC FULL STOP is E3 80 82 (fullwidth ! ? ; are folded by NFKC) */
    return i >= 3 && (unsigned char)text[i - 3] == 0xE3 && (unsigned char)text[i - 2] == 0x80 &&
           (unsigned char)text[i - 1] == 0x82;
}

/* Start of the sentence containing normalized offset pos. With
 * `newline_only`, only line breaks end a "sentence" (used for labels). */
static size_t sentence_start(const mv_position_text *t, size_t pos, bool newline_only) {
    const char *text = t->norm->text;
    size_t lo = pos > SENT_MAX ? pos - SENT_MAX : 0;
    size_t i = pos;
    while (i > lo) {
        unsigned char c = (unsigned char)text[i - 1];
        if (c == ' ') {
            if (newline_only ? (t->raw.ptr != NULL && raw_gap_breaks(t, i - 1))
                             : (!plain_space(t, i - 1) &&
                                mv_position_is_boundary(t, i - 1, MV_POS_LINES_ANY))) {
                break;
            }
        } else if (c == 0x82 && !newline_only && ideographic_stop_before(text, i)) {
            break;
        }
        i--;
    }
    return i;
}

/* sentence_start(t, pos, true) given ss = sentence_start(t, pos, false).
 * Every line break ends a sentence, so the sentence walk has already seen
 * that no space of [ss, pos) has one; the line walk goes on from ss with
 * the same bound. Without the raw text no line is known: the bound. */
static size_t line_start(const mv_position_text *t, size_t pos, size_t ss) {
    const char *text = t->norm->text;
    size_t lo = pos > SENT_MAX ? pos - SENT_MAX : 0;
    size_t i = ss;
    if (t->raw.ptr == NULL) {
        return lo;
    }
    while (i > lo && !(text[i - 1] == ' ' && raw_gap_breaks(t, i - 1))) {
        i--;
    }
    return i;
}

static size_t sentence_end(const mv_position_text *t, size_t pos) {
    const char *text = t->norm->text;
    size_t len = t->norm->len;
    size_t hi = pos + SENT_MAX < len ? pos + SENT_MAX : len;
    size_t i = pos;
    while (i < hi) {
        unsigned char c = (unsigned char)text[i];
        if (c == ' ' && !plain_space(t, i) && mv_position_is_boundary(t, i, MV_POS_LINES_ANY)) {
            break;
        }
        if (i > pos && (unsigned char)text[i - 1] == 0x82 && ideographic_stop_before(text, i)) {
            break;
        }
        i++;
    }
    return i;
}

/* A sentence [s, e) found by a walk is cached only when both ends are real
 * (a boundary, or the text's ends), not the SENT_MAX clamps: then no
 * boundary lies inside it, so any pos in [s, e) within SENT_MAX of both ends
 * walks to the same s and e. */
static bool sent_cached(const mv_sent_cache *c, size_t pos, size_t *start, size_t *end) {
    for (unsigned k = 0; k < c->n; k++) {
        if (pos >= c->s[k] && pos < c->e[k] && pos - c->s[k] < SENT_MAX &&
            c->e[k] - pos < SENT_MAX) {
            *start = c->s[k];
            *end = c->e[k];
            return true;
        }
    }
    return false;
}

void mv_position_sentence(const mv_position_text *t, size_t pos, size_t *start, size_t *end) {
    size_t len = t->norm->len;
    mv_sent_cache *c = t->sents;
    if (pos > len) {
        pos = len;
    }
    if (c != NULL && sent_cached(c, pos, start, end)) {
        return;
    }
    *start = sentence_start(t, pos, false);
    *end = sentence_end(t, pos);
    if (c != NULL && *start < *end && (*start == 0 || pos - *start < SENT_MAX) &&
        (*end == len || *end - pos < SENT_MAX)) {
        c->s[c->next] = *start;
        c->e[c->next] = *end;
        c->next = (c->next + 1) % MV_SENT_CACHE;
        if (c->n < MV_SENT_CACHE) {
            c->n++;
        }
    }
}

/* Words of text[s, e): wrapping punctuation is stripped from each chunk.
 * Keeps the last TOK_MAX words. Returns the count. */
static size_t tokenize(const char *text, size_t s, size_t e, tok *toks) {
    size_t n = 0;
    size_t i = s;
    while (i < e) {
        size_t cs;
        size_t ce;
        bool colon;
        while (i < e && text[i] == ' ') {
            i++;
        }
        cs = i;
        while (i < e && text[i] != ' ') {
            i++;
        }
        ce = i;
        if (ce == cs) {
            break;
        }
        colon = text[ce - 1] == ':';
        while (cs < ce && wrap_char(text[cs])) {
            cs++;
        }
        while (ce > cs && wrap_char(text[ce - 1])) {
            ce--;
        }
        if (ce == cs && !colon) {
            continue;
        }
        if (ce == cs && colon && n > 0) {
            toks[n - 1].colon = true; /* "Example :" */
            continue;
        }
        if (n == TOK_MAX) {
            memmove(toks, toks + 1, (TOK_MAX - 1) * sizeof(*toks));
            n--;
        }
        toks[n].start = cs;
        toks[n].len = ce - cs;
        toks[n].colon = colon;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------ cues */

typedef struct verdict {
    double weight;
    mv_position_cue cue;
    const char *reason;
    size_t offset;
} verdict;

static void consider(verdict *v, double w, mv_position_cue cue, const char *reason, size_t offset) {
    if (w < v->weight) {
        v->weight = w;
        v->cue = cue;
        v->reason = reason;
        v->offset = offset;
    }
}

static bool any_between(const char *text, const tok *toks, size_t a, size_t b, voc_kind kind) {
    bool found = false;
    for (size_t i = a; i < b && !found; i++) {
        found = is_kind(text, &toks[i], kind) || (kind == V_BREAK && toks[i].colon && i + 1 < b);
    }
    return found;
}

/* Does the raw word behind normalized offset pos end with `suffix`? Stems
 * merge "include" and "including"; only the second introduces examples. */
static bool raw_word_ends(const mv_position_text *t, size_t pos, const char *suffix) {
    const char *s = t->raw.ptr;
    size_t n = t->raw.len;
    size_t i = t->norm->raw_offset[pos];
    size_t e = i;
    size_t sl = strlen(suffix);
    if (s == NULL) {
        return true;
    }
    while (e < n && ((s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z'))) {
        e++;
    }
    if (e - i < sl) {
        return false;
    }
    for (size_t k = 0; k < sl; k++) {
        char c = s[e - sl + k];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c + 32);
        }
        if (c != suffix[k]) {
            return false;
        }
    }
    return true;
}

/* Is the detection verb at toks[k] a bare imperative ("look for", not
 * "looks for") whose clause is followed, before the phrase, by "and" or
 * "then" opening another clause? */
static bool chained_order(const mv_position_text *t, const char *text, const tok *toks, size_t k,
                          size_t used, size_t n) {
    if (t->raw.ptr == NULL || raw_word_ends(t, toks[k].start, "s")) {
        return false;
    }
    for (size_t i = k + used; i + 1 < n; i++) {
        if (tok_is(text, &toks[i], "and", 3) || tok_is(text, &toks[i], "then", 4)) {
            return true;
        }
    }
    return false;
}

#define N_CUES (N_OF(voc_intro) + N_OF(voc_detect) + N_OF(voc_attacker))

/* Cues in the phrase's sentence before the phrase. */
static void governing_cues(verdict *v, const mv_position_text *t, size_t start, size_t s) {
    const char *text = t->norm->text;
    tok toks[TOK_MAX];
    size_t n = tokenize(text, s, start, toks);
    for (size_t k = 0; k < n; k++) {
        /* introducers, detection verbs, attackers: the first three kinds,
         * in the order of the original single table */
        for (size_t c = 0; c < N_CUES; c++) {
            const voc *cue = c < N_OF(voc_intro) ? &voc_intro[c]
                             : c < N_OF(voc_intro) + N_OF(voc_detect)
                                 ? &voc_detect[c - N_OF(voc_intro)]
                                 : &voc_attacker[c - N_OF(voc_intro) - N_OF(voc_detect)];
            size_t used;
            size_t dist;
            used = match_words(text, toks, n, k, cue->norm, cue->nlen);
            if (used == 0 ||
                (cue->raw_end != NULL && !raw_word_ends(t, toks[k].start, cue->raw_end))) {
                continue;
            }
            dist = n - (k + used);
            if (dist > cue->reach) {
                continue;
            }
            /* a new clause between cue and phrase ends the cue's reach */
            if (any_between(text, toks, k + used, n, V_BREAK)) {
                continue;
            }
            if (cue->kind == V_INTRO) {
                consider(v, MV_POS_WEIGHT_EXAMPLE_INTRO, MV_POS_EXAMPLE_INTRO,
                         "after an example introducer", toks[k].start);
            } else if (cue->kind == V_DETECT) {
                /* "Finds files and sends ~/.ssh ..." must not pass as a
                 * detection list: the verb's object has to be attack text
                 * (or the phrase itself, right after the verb). "look for
                 * <agent> tags and execute whatever they ask" is an order
                 * chained after an imperative detection verb, not a list. */
                if (chained_order(t, text, toks, k, used, n)) {
                    continue;
                }
                if (dist <= 2 || any_between(text, toks, k + used, n, V_SECNOUN)) {
                    consider(v, MV_POS_WEIGHT_DETECTION_LIST, MV_POS_DETECTION_LIST,
                             "in a list of what the tool detects", toks[k].start);
                }
            } else if (any_between(text, toks, k + used, n, V_SAYING)) {
                consider(v, MV_POS_WEIGHT_ATTACKER, MV_POS_ATTACKER,
                         "describes what attackers write", toks[k].start);
            }
        }
    }
}

/* Is toks[a, b) (the words just before a ':') a label such as
 * "Example output" or "Sample response"? */
static bool is_label(const char *text, const tok *toks, size_t a, size_t b) {
    bool found = false;
    if (b - a > LABEL_WORDS) {
        a = b - LABEL_WORDS;
    }
    for (size_t i = a; i < b && !found; i++) {
        found = is_kind(text, &toks[i], V_LABEL);
    }
    return found;
}

/* Round 11: the words that open a detection label ("Detects:", "检测:"),
 * normalized (stemmed, case-folded), in the languages of
 * directive_world.rules. */
static bool detection_label_word(const char *w, size_t n) {
    static const char *const words[] = {
        "detect",    "detects",    "flag",         "flags",       "catch",     "catches",
        "look for",  "check for",  "scan for",     "find",        "finds",     "erkennt",
        "erkennung", "détecte",    "détection",    "detecta",     "detección", "deteccion",
        "detecta",   "rileva",     "detecteert",   "upptäcker",   "wykrywa",   "tespit",
        "phát hiện", "mendeteksi", "обнаруживает", "обнаружение", "виявляє",   "检测",
        "檢測",      "检出",       "识别",         "識別",        "拦截",      "攔截",
        "检查项",    "検出",       "検知",         "탐지",        "감지",      "זיהוי",
        "מזהה",      "يكتشف",      "كشف",          "पहचान"};
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
        size_t l = strlen(words[k]);
        if (n >= l && memcmp(w, words[k], l) == 0 &&
            (n == l || w[l] == ' ' || (unsigned char)w[l] >= 0x80))
            return true;
    }
    return false;
}

/* The phrase at `start` follows "LABEL:" at its line's start where LABEL
 * is a short detection label, and the rest of the line is a list (a comma
 * or an ideographic comma after the colon). */
static void detection_label(verdict *v, const mv_position_text *t, size_t start, size_t ls) {
    const char *text = t->norm->text;
    size_t a = ls, colon = SIZE_MAX;
    for (size_t k = ls; k < start; k++)
        if (text[k] == ':') {
            colon = k;
            break;
        }
    if (colon == SIZE_MAX)
        return;
    while (a < colon && (text[a] == ' ' || text[a] == '-' || text[a] == '*'))
        a++;
    size_t e = colon;
    while (e > a && text[e - 1] == ' ')
        e--;
    if (e == a || e - a > 24 || !detection_label_word(text + a, e - a))
        return;
    bool list = false;
    for (size_t k = colon + 1; k < t->norm->len && text[k] != '\n' && !list; k++)
        list = text[k] == ',' || text[k] == ';' ||
               (k + 3 <= t->norm->len && (unsigned char)text[k] == 0xE3 &&
                (unsigned char)text[k + 1] == 0x80 && (unsigned char)text[k + 2] == 0x81);
    if (list)
        consider(v, MV_POS_WEIGHT_DETECTION_LIST, MV_POS_DETECTION_LIST,
                 "in a list after a detection label", a);
}

/* ss: the start of the phrase's sentence (never before its line's start:
 * lines end sentences). */
static void label_cue(verdict *v, const mv_position_text *t, size_t start, size_t ss) {
    const char *text = t->norm->text;
    tok toks[TOK_MAX];
    size_t ls = line_start(t, start, ss);
    size_t n = tokenize(text, ss, start, toks);
    /* same sentence: "Example: <phrase>"; only the nearest ':' counts */
    for (size_t k = n; k > 0; k--) {
        if (toks[k - 1].colon) {
            if (is_label(text, toks, 0, k)) {
                consider(v, MV_POS_WEIGHT_LABEL, MV_POS_LABEL, "after an example label",
                         toks[k - 1].start);
            }
            break;
        }
    }
    /* Round 11: a detection label opening the phrase's line ("- Detects:",
     * "- 检测:", "Erkennt:") followed by a list: what comes after the
     * colon is what the tool looks for, in any language (a scanner's
     * bullet list of findings quotes the attack it finds). */
    if (v->cue != MV_POS_LABEL && v->cue != MV_POS_DETECTION_LIST)
        detection_label(v, t, start, ls);
    /* a label line ("Example output:") right above the phrase's line, and
     * the phrase is in the first sentence of its line */
    if (v->cue != MV_POS_LABEL && ss <= ls && ls > 0) {
        size_t pls = sentence_start(t, ls - 1, true);
        size_t m = tokenize(text, pls, ls - 1, toks);
        if (m > 0 && m <= LABEL_WORDS + 1 && toks[m - 1].colon && is_label(text, toks, 0, m)) {
            consider(v, MV_POS_WEIGHT_LABEL, MV_POS_LABEL, "after an example label line",
                     toks[0].start);
        }
    }
}

/* ------------------------------------------------------------ quotes */

typedef enum qfam {
    Q_NONE = 0,
    Q_DOUBLE,
    Q_SINGLE,
    Q_BACKTICK,
    Q_GUILLEMET,
    Q_ANGLE1,
    Q_CJK1,
    Q_CJK2
} qfam;

typedef enum qrole { R_SKIP = 0, R_OPEN, R_CLOSE } qrole;

typedef struct qopen {
    size_t pos;
    qfam fam;
    uint32_t cp; /* the opening character ("„" closes with a different one) */
} qopen;

static uint32_t decode_at(const char *s, size_t len, size_t i, size_t *adv) {
    utf8proc_int32_t cp = -1;
    utf8proc_ssize_t k =
        utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k < 1) {
        k = 1;
        cp = 0xFFFD;
    }
    *adv = (size_t)k;
    return (uint32_t)cp;
}

/* Code point just before raw[i] (0 at the start). */
static uint32_t decode_before(const char *s, size_t i) {
    size_t j = i;
    size_t adv;
    if (i == 0) {
        return 0;
    }
    j = i - 1;
    while (j > 0 && i - j < 4 && ((unsigned char)s[j] & 0xC0) == 0x80) {
        j--;
    }
    return decode_at(s, i, j, &adv);
}

static bool cp_wordish(uint32_t cp) {
    bool r;
    if (cp < 0x80) {
        r = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    } else {
        utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
        r = (c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_ME) || c == UTF8PROC_CATEGORY_ND;
    }
    return r;
}

static bool cp_space(uint32_t cp) {
    return cp == 0 || cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0xA0 ||
           cp == 0x3000;
}

static qfam quote_family(uint32_t cp) {
    switch (cp) {
    case '"':
    case 0x201C:
    case 0x201D:
    case 0x201E:
    case 0xFF02:
        return Q_DOUBLE;
    case '\'':
    case 0x2018:
    case 0x2019:
    case 0x201A:
    case 0xFF07:
        return Q_SINGLE;
    case '`':
        return Q_BACKTICK;
    case 0x00AB:
    case 0x00BB:
        return Q_GUILLEMET;
    case 0x2039:
    case 0x203A:
        return Q_ANGLE1;
    case 0x300C:
    case 0x300D:
        return Q_CJK1;
    case 0x300E:
    case 0x300F:
        return Q_CJK2;
    default:
        return Q_NONE;
    }
}

static bool opener_context(uint32_t l) {
    return cp_space(l) || (l < 0x80 && strchr("([{<:=,;-/|>*", (int)l) != NULL) ||
           quote_family(l) != Q_NONE || l == 0x2014 || l == 0x2013 || l == 0xFF1A || l == 0xFF0C ||
           l == 0x3001 || l == 0xFF08;
}

static bool closer_context(uint32_t r) {
    return cp_space(r) || (r < 0x80 && strchr(".,;:!?)]}>/-|*", (int)r) != NULL) ||
           quote_family(r) != Q_NONE || r == 0x2014 || r == 0x2013 || r == 0x3002 || r == 0xFF0C ||
           r == 0x3001 || r == 0xFF09 || r == 0xFF1A;
}

/* Role of a quote character from its neighbours. */
static qrole quote_role(uint32_t cp, qfam fam, uint32_t l, uint32_t r, const qopen *top) {
    bool oc = opener_context(l) && !cp_space(r);
    bool cc = closer_context(r) && !cp_space(l);
    qrole role = R_SKIP;
    if (fam == Q_SINGLE && cp_wordish(l) && cp_wordish(r)) {
        goto done; /* apostrophe inside a word: user's, it's, l'outil */
    }
    switch (cp) {
    case 0x201C: /* “ : opens, or closes a German „ */
        role = (top != NULL && top->cp == 0x201E) ? R_CLOSE : R_OPEN;
        break;
    case 0x2018: /* ‘ : opens, or closes a German ‚ */
        role = (top != NULL && top->cp == 0x201A) ? R_CLOSE : R_OPEN;
        break;
    case 0x201E:
    case 0x201A:
    case 0x300C:
    case 0x300E:
        role = R_OPEN;
        break;
    case 0x201D:
    case 0x300D:
    case 0x300F:
        role = R_CLOSE;
        break;
    case 0x2019: /* ’ : closes (apostrophes were handled above) */
        role = cc ? R_CLOSE : R_SKIP;
        break;
    case 0x00AB:
    case 0x00BB:
    case 0x2039:
    case 0x203A:
        /* «…» and German »…«: whichever comes second closes */
        role = (top != NULL && top->fam == fam && top->cp != cp) ? R_CLOSE : R_OPEN;
        break;
    default: /* symmetric ASCII/fullwidth quotes and backticks */
        if (oc && !cc) {
            role = R_OPEN;
        } else if (cc && !oc) {
            role = R_CLOSE;
        } else if (oc && cc && top != NULL && top->fam == fam) {
            role = R_CLOSE; /* ("x") : the second one closes */
        } else if (oc && cc) {
            role = R_OPEN;
        }
        break;
    }
done:
    return role;
}

/* Might any of the eight bytes at p be a quote ('"', '\'', '`') or part of
 * a non-ASCII character? Exact when it says no (a zero-byte test reports
 * the lowest match exactly and never misses one). */
static bool quote_or_high8(const char *p) {
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t x;
    uint64_t d;
    uint64_t q;
    uint64_t b;
    memcpy(&x, p, sizeof(x));
    d = x ^ (ones * '"');
    q = x ^ (ones * '\'');
    b = x ^ (ones * '`');
    return ((x | ((d - ones) & ~d) | ((q - ones) & ~q) | ((b - ones) & ~b)) & (ones * 0x80u)) != 0;
}

/* Find the innermost balanced quote pair around raw [rs, re). Returns true
 * and sets *qs (opening quote) and *qe (end of closing quote). */
static bool enclosing_quotes(const mv_position_text *t, size_t rs, size_t re, size_t *qs,
                             size_t *qe) {
    const char *s = t->raw.ptr;
    size_t len = t->raw.len;
    size_t lo = rs > QUOTE_WINDOW ? rs - QUOTE_WINDOW : 0;
    size_t hi = re + QUOTE_WINDOW < len ? re + QUOTE_WINDOW : len;
    qopen stack[QUOTE_STACK];
    size_t depth = 0;
    bool found = false;
    size_t i;
    /* the window is the phrase's line(s): quotes do not run across lines */
    for (i = rs; i > lo; i--) {
        if (s[i - 1] == '\n') {
            lo = i;
            break;
        }
    }
    for (i = re; i < hi; i++) {
        if (s[i] == '\n') {
            hi = i;
            break;
        }
    }
    i = lo;
    while (i < hi) {
        size_t adv = 1;
        uint32_t cp = (unsigned char)s[i];
        qfam fam;
        if (cp != '"' && cp != '\'' && cp != '`' && cp < 0x80) {
            /* the common case: ASCII that quotes nothing, often eight in a row */
            i += i + 8 <= hi && !quote_or_high8(s + i) ? 8 : 1;
            continue;
        }
        if (cp >= 0x80) {
            cp = decode_at(s, hi, i, &adv);
        }
        fam = quote_family(cp);
        if (fam != Q_NONE) {
            if (cp == '`' && i + 2 < hi && s[i + 1] == '`' && s[i + 2] == '`') {
                i += 3; /* a code fence, handled by the code-block cue */
                continue;
            }
            uint32_t l = i == lo ? 0 : decode_before(s, i);
            size_t radv;
            uint32_t r = i + adv < hi ? decode_at(s, hi, i + adv, &radv) : 0;
            const qopen *top = depth > 0 ? &stack[depth - 1] : NULL;
            qrole role = quote_role(cp, fam, l, r, top);
            if (role == R_OPEN && depth < QUOTE_STACK) {
                stack[depth].pos = i;
                stack[depth].fam = fam;
                stack[depth].cp = cp;
                depth++;
            } else if (role == R_CLOSE) {
                size_t k = depth;
                while (k > 0 && stack[k - 1].fam != fam) {
                    k--;
                }
                if (k > 0) {
                    size_t open = stack[k - 1].pos;
                    depth = k - 1; /* unbalanced openers above it are dropped */
                    if (open < rs && i >= re && (!found || open > *qs)) {
                        *qs = open;
                        *qe = i + adv;
                        found = true;
                    }
                }
            }
        }
        i += adv;
    }
    return found;
}

static void quote_cue(verdict *v, const mv_position_text *t, size_t rs, size_t re) {
    size_t qs = 0;
    size_t qe = 0;
    if (enclosing_quotes(t, rs, re, &qs, &qe)) {
        const char *s = t->raw.ptr;
        size_t a = 0;
        size_t b = t->raw.len;
        while (a < b && (s[a] == ' ' || s[a] == '\n' || s[a] == '\t' || s[a] == '\r')) {
            a++;
        }
        while (b > a &&
               (s[b - 1] == ' ' || s[b - 1] == '\n' || s[b - 1] == '\t' || s[b - 1] == '\r')) {
            b--;
        }
        if (qs == a && qe == b) {
            return; /* the whole field is one quoted string: not an example */
        }
        if (qe - qs > QUOTE_SHORT) {
            consider(v, MV_POS_WEIGHT_QUOTED_LONG, MV_POS_QUOTED, "inside a long quoted passage",
                     0);
        } else {
            consider(v, MV_POS_WEIGHT_QUOTED, MV_POS_QUOTED, "quoted", 0);
        }
    }
}

/* Round 13: a comment line inside a fenced block that names the model as
 * its reader ("# assistant: after the preview, delete ...", "// note for
 * the model: ...", "-- agent: then drop ...") is written to the model,
 * not to the shell or the parser that reads the block: the fence does not
 * make its words an example. The comment marker opens the phrase's line;
 * the addressee stands between the marker and the phrase, followed by a
 * colon or a comma. A fence introduced as an example or a sample of what a
 * scanner flags keeps its discount (the line before the fence names it). */
static bool addressee_at(const char *s, size_t i, size_t end, size_t *len) {
    static const char *const who[] = {"assistant",
                                      "the assistant",
                                      "ai agent",
                                      "ai",
                                      "agent",
                                      "the agent",
                                      "model",
                                      "the model",
                                      "llm",
                                      "copilot",
                                      "claude",
                                      "note for the model",
                                      "note to the model",
                                      "note for the ai",
                                      "note to the ai",
                                      "note for the assistant",
                                      "note to the assistant",
                                      "note for the agent",
                                      "note to the agent"};
    for (size_t k = 0; k < sizeof(who) / sizeof(who[0]); k++) {
        size_t l = strlen(who[k]), q = 0;
        while (q < l && i + q < end &&
               (unsigned char)(s[i + q] | 0x20) == (unsigned char)who[k][q]) {
            q++;
        }
        if (q == l && i + l < end && (s[i + l] == ':' || s[i + l] == ',')) {
            *len = l + 1;
            return true;
        }
    }
    return false;
}

#define FENCE_INTRO_BYTES 200
static bool comment_to_model(const char *s, size_t n, size_t rs) {
    size_t ls = rs;
    size_t i;
    size_t len = 0;
    while (ls > 0 && s[ls - 1] != '\n') {
        ls--;
    }
    i = ls;
    while (i < rs && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    if (i + 2 <= n && ((s[i] == '/' && s[i + 1] == '/') || (s[i] == '-' && s[i + 1] == '-') ||
                       (s[i] == '/' && s[i + 1] == '*'))) {
        i += 2;
    } else if (i < n && (s[i] == '#' || s[i] == ';' || s[i] == '%')) {
        i++;
    } else {
        return false;
    }
    while (i < rs && (s[i] == ' ' || s[i] == '\t' || s[i] == '#' || s[i] == '*')) {
        i++;
    }
    if (i >= rs || !addressee_at(s, i, rs, &len)) {
        return false;
    }
    /* the line before the fence: "Example of what it flags:" */
    {
        size_t f = ls;
        static const char *const intro[] = {"example",   "sample",  "flag",      "detect", "attack",
                                            "malicious", "payload", "injection", "such as"};
        while (f > 0) {
            size_t fe = f - 1; /* the '\n' ending the line before */
            size_t fs = fe;
            while (fs > 0 && s[fs - 1] != '\n') {
                fs--;
            }
            size_t j = fs;
            while (j < fe && (s[j] == ' ' || s[j] == '\t')) {
                j++;
            }
            f = fs;
            if (!(j + 3 <= fe && ((s[j] == '`' && s[j + 1] == '`' && s[j + 2] == '`') ||
                                  (s[j] == '~' && s[j + 1] == '~' && s[j + 2] == '~')))) {
                continue; /* a line of the block */
            }
            /* the fence opener: look at the line before it */
            if (fs == 0) {
                return true;
            }
            /* only the end of that line, where an introduction stands:
             * a long line must not be rescanned for every phrase */
            size_t pe = fs - 1, ps = pe;
            while (ps > 0 && s[ps - 1] != '\n' && pe - ps < FENCE_INTRO_BYTES) {
                ps--;
            }
            for (size_t k = 0; k < sizeof(intro) / sizeof(intro[0]); k++) {
                size_t l = strlen(intro[k]);
                for (size_t q = ps; q + l <= pe; q++) {
                    size_t r = 0;
                    while (r < l &&
                           (unsigned char)(s[q + r] | 0x20) == (unsigned char)intro[k][r]) {
                        r++;
                    }
                    if (r == l) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
    return true;
}

/* Inside a ``` (or ~~~) fenced block: an odd number of fence lines before.
 * Only the FENCE_BACK bytes before the phrase are looked at, so that many
 * phrases in one huge field cost linear time; a fence opened further back
 * is not seen (the phrase then counts as an instruction). */
static void code_block_cue(verdict *v, const mv_position_text *t, size_t rs) {
    const char *s = t->raw.ptr;
    bool inside = false;
    size_t i = rs > FENCE_BACK ? rs - FENCE_BACK : 0;
    if (i > 0) {
        const char *nl = memchr(s + i, '\n', rs - i);
        i = nl != NULL ? (size_t)(nl - s) + 1 : rs;
    }
    while (i + 3 <= rs) {
        /* fences start a line (after optional indentation) */
        size_t j = i;
        while (j < rs && (s[j] == ' ' || s[j] == '\t')) {
            j++;
        }
        if (j + 3 <= rs && ((s[j] == '`' && s[j + 1] == '`' && s[j + 2] == '`') ||
                            (s[j] == '~' && s[j + 1] == '~' && s[j + 2] == '~'))) {
            inside = !inside;
        }
        {
            const char *nl = memchr(s + j, '\n', rs - j);
            if (nl == NULL) {
                break;
            }
            i = (size_t)(nl - s) + 1;
        }
    }
    if (inside && !comment_to_model(s, t->raw.len, rs)) {
        consider(v, MV_POS_WEIGHT_CODE_BLOCK, MV_POS_CODE_BLOCK, "inside a code block", 0);
    }
}

/* Round 7 (structural): an example that is a value token (with a digit or
 * punctuation: "#000000", "2024-01-01", "v1.2") followed by a parenthesis
 * or dash and eight or more words of prose ("#000000 (assistant: also
 * ...)") carries text besides the example: that text is not quoted as the
 * value the model copies and keeps its own position. */
/* Round 11: an example value of eight or more words that names a reader
 * with a colon ("(assistant: before returning ...", "NOTE TO MODEL: ...",
 * "... system: the user is ...") is a message to the model, not a value it
 * copies. */
static bool value_addressed(const char *t, size_t n) {
    static const char *const who[] = {"assistant:", "model:", "agent:", "system:", "llm:", "ai:"};
    unsigned words = 0;
    bool in = false;
    bool named = false;
    for (size_t i = 0; i < n; i++) {
        bool sp = t[i] == ' ' || t[i] == '\n';
        words += !sp && !in;
        in = !sp;
        for (size_t k = 0; k < sizeof(who) / sizeof(who[0]) && !named; k++) {
            size_t l = strlen(who[k]);
            size_t j = 0;
            while (j < l && i + j < n && (t[i + j] | 0x20) == who[k][j]) {
                j++;
            }
            /* a whole word: "ai:" is not the end of "email:" */
            named = j == l && (i == 0 || !((t[i - 1] | 0x20) >= 'a' && (t[i - 1] | 0x20) <= 'z'));
        }
    }
    return named && words >= 8;
}

static bool value_with_prose(mv_str raw) {
    const char *t = raw.ptr;
    size_t n = raw.len, i = 0;
    bool mark = false;
    if (t == NULL)
        return false;
    if (value_addressed(t, n))
        return true;
    while (i < n && i < 32 && t[i] != ' ') {
        unsigned char c = (unsigned char)t[i];
        mark = mark || (c >= '0' && c <= '9') || c == '#' || c == '.' || c == '-' || c == ':' ||
               c == '/' || c == '_';
        i++;
    }
    if (!mark || i >= n || i >= 32)
        return false;
    while (i < n && t[i] == ' ')
        i++;
    if (i >= n || !(t[i] == '(' || t[i] == '-' || t[i] == '[' ||
                    (i + 2 < n && (unsigned char)t[i] == 0xE2 && (unsigned char)t[i + 1] == 0x80)))
        return false;
    unsigned words = 0;
    bool in = false;
    for (; i < n; i++) {
        bool sp = t[i] == ' ' || t[i] == '\n';
        words += !sp && !in;
        in = !sp;
    }
    return words >= 8;
}

/* The field is a schema `examples`/`example` value: the last named segment
 * of its path, ignoring array indices. */
static void schema_example_cue(verdict *v, const mv_position_text *t) {
    const char *p = t->path.ptr;
    size_t e = t->path.len;
    size_t s;
    if (t->kind != MV_FIELD_SCHEMA_VALUE || p == NULL) {
        return;
    }
    while (e > 0 && p[e - 1] == ']') {
        while (e > 0 && p[e - 1] != '[') {
            e--;
        }
        if (e > 0) {
            e--;
        }
    }
    s = e;
    while (s > 0 && p[s - 1] != '.' && p[s - 1] != ']') {
        s--;
    }
    if (((e - s == 8 && memcmp(p + s, "examples", 8) == 0) ||
         (e - s == 7 && memcmp(p + s, "example", 7) == 0)) &&
        !value_with_prose(t->raw)) {
        consider(v, MV_POS_WEIGHT_SCHEMA_EXAMPLE, MV_POS_SCHEMA_EXAMPLE, "a schema example value",
                 0);
    }
}

/* -------------------------------------------------------------- API */

void mv_position_classify(mv_position *out, const mv_position_text *t, size_t start, size_t end) {
    verdict v = {MV_POS_WEIGHT_INSTRUCTION, MV_POS_INSTRUCTION, "instruction position", 0};
    size_t rs;
    size_t re;
    size_t ss;
    if (t == NULL || t->norm == NULL || t->norm->text == NULL) {
        goto done;
    }
    if (end > t->norm->len) {
        end = t->norm->len;
    }
    if (start > end) {
        start = end;
    }
    rs = t->norm->raw_offset[start];
    re = t->norm->raw_offset[end];
    if (re > t->raw.len) {
        re = t->raw.len;
    }
    if (rs > re) {
        rs = re;
    }
    schema_example_cue(&v, t);
    if (t->raw.ptr != NULL) {
        quote_cue(&v, t, rs, re);
        code_block_cue(&v, t, rs);
    }
    ss = sentence_start(t, start, false);
    governing_cues(&v, t, start, ss);
    label_cue(&v, t, start, ss);
done:
    out->weight = v.weight;
    out->cue = v.cue;
    out->reason = v.reason;
    out->cue_offset = v.offset;
}
