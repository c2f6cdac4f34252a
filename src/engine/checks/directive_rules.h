/*
 * Compiled phrase rules of the directive.imperative check (private to the
 * check). The rule text lives in src/engine/rules/directive_*.rules (the
 * format is documented at the top of each file); this module parses it once
 * per engine, normalizes every phrase with the same normalizer tool text goes
 * through, and builds one Aho-Corasick automaton over all of them.
 *
 * Vocabulary:
 *  - a term is one normalized phrase, one automaton pattern;
 *  - a rule is an ordered list of slots, each slot a set of terms; a rule
 *    matches when one term of each slot occurs in order, each within `gap`
 *    words of the previous one and in the same sentence;
 *  - a family groups rules that mean the same thing ("instruction
 *    override") and carries the threat, base confidence and requirements;
 *  - context roles mark terms that are not findings but matter around them
 *    (sensitive objects, destinations, addressees...);
 *  - word lists are compared token by token, never put in the automaton.
 */
#ifndef MV_DIRECTIVE_RULES_H
#define MV_DIRECTIVE_RULES_H

#include <stdbool.h>
#include "mcpvet/ac.h"
#include "mcpvet/arena.h"
#include "mcpvet/check.h"
#include "mcpvet/common.h"

#define MV_DR_MAX_SLOTS 16

/* What a family needs around a hit before it counts. */
typedef enum mv_dr_needs {
    MV_DR_NEEDS_NONE = 0,
    MV_DR_NEEDS_OBJECT,     /* a sensitive object near the hit */
    MV_DR_NEEDS_DESTINATION /* a URL, e-mail address, parameter or tool to send to */
} mv_dr_needs;

/* Families whose hits are checked by code, not only by the phrases. */
typedef enum mv_dr_detector {
    MV_DR_DET_NONE = 0,
    MV_DR_DET_TAG,           /* pseudo-XML tags: must wrap an instruction, not a placeholder */
    MV_DR_DET_TURN,          /* chat tokens: full weight only where a turn can start */
    MV_DR_DET_HTML_COMMENT,  /* "<!--": the comment must address the model */
    MV_DR_DET_MARKDOWN_IMAGE /* "](http": an image whose URL carries data */
} mv_dr_detector;

/* Guards that can drop a hit. */
#define MV_DR_GUARD_NEGATION 1u   /* "do not send the key to ..." is protective */
#define MV_DR_GUARD_PROTECTIVE 2u /* secrecy about a secret value is protective */
#define MV_DR_GUARD_WORKFLOW 4u   /* ordering a same-server sibling first is guidance */

/* Context roles of a term (bit set). */
#define MV_DR_ROLE_OBJECT_STRONG 1u
#define MV_DR_ROLE_OBJECT_WEAK 2u
#define MV_DR_ROLE_DESTINATION 4u
#define MV_DR_ROLE_ADDRESSEE 8u
#define MV_DR_ROLE_WORKFLOW 16u
#define MV_DR_ROLE_PROTECTIVE 32u
#define MV_DR_ROLE_COMMENT_CLOSE 64u
#define MV_DR_ROLE_CAUTION 128u    /* "irreversible, confirm with the user" */
#define MV_DR_ROLE_SPACED 256u     /* letter-spaced punctuation: try the squeezed view */
#define MV_DR_ROLE_IMPERATIVE 512u /* an order inside an HTML comment ("include", "silently") */
#define MV_DR_ROLE_VOCATIVE 1024u  /* "assistant," - addresses only at the comment's start */
/* Roles of the exfiltration flow detector (source + transfer + sink). */
#define MV_DR_ROLE_SOURCE 2048u      /* a sensitive resource (sensitive_resources.rules) */
#define MV_DR_ROLE_TRANSFER 4096u    /* a verb that moves data, any voice or language */
#define MV_DR_ROLE_SINK 8192u        /* a named sink: a parameter, another tool, "here" */
#define MV_DR_ROLE_PATHREF 16384u    /* "the path of": a reference, not the content */
#define MV_DR_ROLE_INSTRUMENT 32768u /* "using ~/.ssh/id_rsa": a means, not an object */
#define MV_DR_ROLE_NEGATOR 65536u    /* a true negation ("never", "ne ... jamais") */
#define MV_DR_ROLE_TARGET 131072u    /* "to", "into": what follows is a destination */
/* Roles of the order detector (find_orders, directive_order.rules). */
#define MV_DR_ROLE_MOOD 0x40000u      /* an obligation or condition addressed to the model */
#define MV_DR_ROLE_GATHER 0x80000u    /* a verb that looks for, reads or collects data */
#define MV_DR_ROLE_DESTROY 0x100000u  /* a verb that destroys */
#define MV_DR_ROLE_SCOPE 0x200000u    /* a broad scope: every, entire, the whole bucket */
#define MV_DR_ROLE_BEHAVE 0x400000u   /* a change of the model's later behaviour */
#define MV_DR_ROLE_HIDE 0x800000u     /* hiding something from the user */
#define MV_DR_ROLE_GENERIC 0x1000000u /* sensitive data described generically */
#define MV_DR_ROLE_HARVEST 0x2000000u /* "any ... you can find": a harvest, not one value */
#define MV_DR_ROLE_HIDE_OK 0x4000000u /* honest withholding: quiz answers, surprises, "until" */
#define MV_DR_ROLE_DATA 0x8000000u    /* the user's files or documents (needs an outside sink) */
#define MV_DR_ROLE_SELF 0x10000000u   /* only the model can be meant: needs no mood */
#define MV_DR_ROLE_TELL 0x20000000u   /* a verb of telling the user: hiding by structure */
#define MV_DR_ROLE_WAIVER 0x40000000u /* consent waived: addresses the acts of its paragraph */
/* Round 10: a mood that addresses a destroy act only weakly (a consequence
 * of the call stated as fact, a definition, a condition of correctness).
 * The role bits are full, so it is written as a mood that is also a
 * vocative: no vocative term is a mood, and the comment detector reads a
 * vocative only when it is not one. */
#define MV_DR_ROLE_WEAK_MOOD (MV_DR_ROLE_MOOD | MV_DR_ROLE_VOCATIVE)
#define MV_DR_ROLE_WITHHOLD                                                                        \
    0x80000000u /* remove, redact, an ignore file: the object is kept back */

typedef struct mv_dr_family {
    const char *id;    /* "override" */
    const char *label; /* "instruction override" */
    mv_threat threat;
    double base;
    unsigned gap; /* default gap of its rules, in words */
    mv_dr_needs needs;
    unsigned guards;
    mv_dr_detector detector;
    bool imperative; /* @mood imperative: a third-person/-ing first verb is descriptive */
} mv_dr_family;

typedef struct mv_dr_rule {
    uint32_t family;
    uint32_t n_slots;
    double conf;                   /* base confidence of this rule */
    unsigned gap;                  /* words allowed between the rule's " ... " parts */
    uint8_t gaps[MV_DR_MAX_SLOTS]; /* words allowed before slot s (s >= 1) */
    bool line_start;               /* must start a raw line */
    bool free;                     /* the family's `needs` does not apply */
    bool nominal;                  /* starts with a noun: the family's @mood does not apply */
    uint32_t line;                 /* source line, for messages */
    const char *file;
} mv_dr_rule;

typedef struct mv_dr_use {
    uint32_t rule;
    uint32_t slot;
} mv_dr_use;

/* Term flags. PLAIN: the term is only words, so '_' '/' '\\' '@' next to
 * it glue it into an identifier. */
#define MV_DR_TERM_LEFT 1u  /* first character is a word character: needs a boundary */
#define MV_DR_TERM_RIGHT 2u /* last character is a word character: needs a boundary */
#define MV_DR_TERM_PLAIN 4u

/* Six 32-bit words, exactly as saved (mv_dr_save), so loaded rules read
 * their term table in place instead of converting 47,000 entries. */
typedef struct mv_dr_term {
    uint32_t text; /* byte offset of the normalized, NUL-terminated text in term_text */
    uint32_t len;
    uint32_t roles;     /* MV_DR_ROLE_* */
    uint32_t use_start; /* into uses[] */
    uint32_t n_uses;
    uint32_t flags; /* MV_DR_TERM_* */
} mv_dr_term;

typedef struct mv_dr_words {
    const char **w;
    uint32_t *len;
    size_t n;
} mv_dr_words;

typedef struct mv_dr_rules {
    mv_arena *arena;
    mv_dr_family *families;
    size_t n_families;
    mv_dr_rule *rules;
    size_t n_rules;
    mv_dr_term *terms;
    size_t n_terms;
    const char *term_text; /* the terms' texts (mv_dr_term.text) */
    mv_dr_use *uses;       /* grouped by term */
    size_t n_uses;
    size_t max_term_len;
    mv_dr_words negation; /* [words negation] */
    mv_dr_words stops;    /* [words protective-stop] */
    mv_dr_words setup;    /* [words setup-name] */
    mv_ac *ac;
} mv_dr_rules;

/* Source texts to compile, in order (sets must be defined before use). */
typedef struct mv_dr_source {
    const char *name; /* for messages: "directive_en" */
    const char *text;
    size_t len;
} mv_dr_source;

/*
 * Parse and compile rule sources. On failure returns MV_EPARSE (with
 * err->message naming the file and line), MV_ENOMEM or MV_EINVAL; err may be
 * NULL. The result owns all its memory.
 */
int mv_dr_compile(mv_dr_rules **out, const mv_allocator *a, const mv_dr_source *src, size_t n_src,
                  mv_error *err);

/* The builtin files directive_context, directive_en, directive_intl: loaded
 * from the tables precompiled at build time when this build has them and
 * they match the sources (see below), compiled otherwise. The result is the
 * same either way (tests/unit/test_startup.c). */
int mv_dr_compile_builtin(mv_dr_rules **out, const mv_allocator *a, mv_error *err);

void mv_dr_free(mv_dr_rules *r);

/* Compile options. */
#define MV_DR_UNCACHED                                                                             \
    1u /* normalize every phrase from scratch with mv_normalize,                                   \
          bypassing mv_normalize_phrase's unit cache: the                                          \
          reference the fast path must equal (tests) */

/* mv_dr_compile with options (MV_DR_*). */
int mv_dr_compile_ex(mv_dr_rules **out, const mv_allocator *a, const mv_dr_source *src,
                     size_t n_src, unsigned opts, mv_error *err);

/* The builtin files compiled now, never taken from precompiled tables
 * (the table generator and tests). */
int mv_dr_compile_builtin_runtime(mv_dr_rules **out, const mv_allocator *a, unsigned opts,
                                  mv_error *err);

/*
 * Precompiled tables. The build compiles the builtin rules once
 * (tools/gen_precompiled.c), saves them with mv_dr_save and links the words
 * into the engine as mv_dr_precompiled_words when MCPVET_PRECOMPILED is
 * defined; mv_dr_compile_builtin then loads them instead of compiling.
 *
 * mv_dr_builtin_hash identifies the builtin rule sources and the Unicode
 * data of the normalizer; tables saved under another hash are stale.
 *
 * mv_dr_save writes `r` as words into *words (allocated with `a`, NULL =
 * default; release with mv_free(a, *words, *n_words * 4)). Returns 0,
 * MV_ENOMEM or MV_EINVAL.
 *
 * mv_dr_load makes rules that read their large tables (uses, automaton) in
 * place from `words`, which must outlive them. Returns 0, MV_ENOMEM, or
 * MV_EINVAL when the words are not saved tables of this format or were
 * saved under another hash.
 */
uint64_t mv_dr_builtin_hash(void);
int mv_dr_save(uint32_t **words, size_t *n_words, const mv_dr_rules *r, uint64_t hash,
               const mv_allocator *a);
int mv_dr_load(mv_dr_rules **out, const mv_allocator *a, const uint32_t *words, size_t n_words,
               uint64_t hash, mv_error *err);

/* Whether this build carries precompiled tables that match its sources. */
bool mv_dr_builtin_precompiled(void);

/* Whether two compiled rule sets are identical (every table, the strings
 * they point to, and the automaton). */
bool mv_dr_equal(const mv_dr_rules *x, const mv_dr_rules *y);

#ifdef MCPVET_PRECOMPILED
/* Generated at build time (or the empty stub of the generator itself). */
extern const uint32_t mv_dr_precompiled_words[];
extern const size_t mv_dr_precompiled_n_words;
#endif

/* Word character for boundary checks: letters, digits and marks, except
 * scripts written without spaces (CJK, kana, Hangul), which match anywhere. */
bool mv_dr_is_word_cp(uint32_t cp);

/* Round 10: would the directive check report an order if `text`, decoded
 * from an encoded blob in field `fi` of `tool`, were written there in plain
 * words (instruction position)? The same phrase families, order detector
 * and flow detector as plain text, every language of the rules; only a hit
 * in instruction position at the emit threshold, a flow or an order counts.
 * Returns the kinds found (MV_DR_JUDGE_*), 0 for none. Temporaries come
 * from ctx->scratch; needs ctx->normalizer (0 without). Defined in
 * directive.c. */
#define MV_DR_JUDGE_EXFIL 0x01u   /* an order (or a flow) moving sensitive data to a sink */
#define MV_DR_JUDGE_DESTROY 0x02u /* an order to destroy beyond the tool's job */
#define MV_DR_JUDGE_BEHAVE 0x04u  /* an order changing the model's later behaviour */
#define MV_DR_JUDGE_HIDE 0x08u    /* an order to hide something from the user */
#define MV_DR_JUDGE_FAMILY 0x10u  /* a phrase family (override, secrecy, tags...) */
unsigned mv_dr_judge(const mv_dr_rules *R, const mv_inspect_ctx *ctx, const mv_tool *tool,
                     uint32_t fi, const char *text, size_t len);

/* Index of the family named `id`, or -1. */
int mv_dr_family_index(const mv_dr_rules *r, const char *id);

#endif
