/*
 * Corpus evaluation: scan labeled corpus entries with an engine and measure
 * how well the verdicts match the labels. Library-level so tests can call it
 * directly; `mcpvet eval` is a thin wrapper.
 *
 *   mv_eval_run     scan every entry, count per category and overall
 *   mv_eval_gate    apply the CI gate (recall, hard-negative FP, per-category
 *                   floors, the structural contract SC-003, variant parity)
 *   mv_eval_render  the scorecard as an aligned text table or JSON
 *                   ("mcpvet.eval/1", documented in docs/json-output.md)
 *
 * Labels: an entry is malicious when its label says so; a benign entry with
 * category "hard_negative" is a hard negative (grouped by `resembles`);
 * every other benign entry is "clean benign", reported separately. An entry
 * is caught at any tier when its verdict is review or quarantine. Entries of
 * tool sets whose source path contains "/holdout/" (or starts with
 * "holdout/") are also reported in a separate holdout section.
 */
#ifndef MCPVET_EVAL_H
#define MCPVET_EVAL_H

#include <stdbool.h>
#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/engine.h"
#include "mcpvet/model.h"
#include "mcpvet/report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mv_eval_mode {
    MV_EVAL_PER_ENTRY = 0, /* each entry in its own registry: its tool plus its peers */
    MV_EVAL_WHOLE_REGISTRY /* every entry's tool and peers in one registry */
} mv_eval_mode;

/* "per-entry" / "whole-registry". */
const char *mv_eval_mode_name(mv_eval_mode mode);

typedef struct mv_eval_options {
    mv_eval_mode mode;
    unsigned jobs; /* worker threads; 0 or 1 = the calling thread */
} mv_eval_options;

/*
 * Counts and rates of a set of entries. A rate whose denominator is zero is
 * 0 here and printed as null/"-" by the renderers: recall needs malicious
 * entries, FP rates need (hard-negative / clean-benign) entries, precision
 * needs at least one flagged entry.
 */
typedef struct mv_eval_metrics {
    uint64_t entries;
    uint64_t malicious;
    uint64_t caught_any;        /* malicious with verdict review or quarantine */
    uint64_t caught_quarantine; /* malicious with verdict quarantine */
    uint64_t hard_negatives;
    uint64_t hn_fp_any;
    uint64_t hn_fp_quarantine;
    uint64_t benign; /* clean benign: benign entries that are not hard negatives */
    uint64_t benign_fp_any;
    uint64_t benign_fp_quarantine;
    uint64_t degraded;                   /* entries whose scan coverage was degraded */
    uint64_t expected_quarantine;        /* malicious entries labeled expected=quarantine */
    uint64_t caught_expected_quarantine; /* ... of them quarantined */
    double recall_any;
    double recall_quarantine;
    double hn_fp_rate_any;
    double hn_fp_rate_quarantine;
    double benign_fp_rate_any;
    double benign_fp_rate_quarantine;
    double precision;                  /* caught_any / (caught_any + FP any tier over all benign) */
    double f1;                         /* of precision and recall_any */
    double recall_expected_quarantine; /* caught_expected_quarantine / expected_quarantine */
} mv_eval_metrics;

typedef enum mv_eval_row_kind {
    MV_EVAL_ROW_MALICIOUS = 0, /* one malicious category */
    MV_EVAL_ROW_HARD_NEGATIVE, /* one `resembles` class of hard negatives */
    MV_EVAL_ROW_BENIGN         /* one clean-benign category */
} mv_eval_row_kind;

typedef struct mv_eval_row {
    mv_eval_row_kind kind;
    mv_str name;           /* category or resembles class ("" when absent) */
    const char *check_id;  /* malicious rows: the check that detects the category, or NULL */
    bool check_registered; /* check_id is registered in the engine */
    bool enforced;         /* malicious rows: the per-category floor applies (its check is
                              registered or is a builtin of this build — a builtin disabled
                              for a run still counts — or the category maps to no check) */
    mv_eval_metrics m;
} mv_eval_row;

/* Rows are sorted by kind, then by name (bytewise). */
typedef struct mv_eval_section {
    mv_eval_metrics overall;
    mv_eval_row *rows;
    size_t n_rows;
} mv_eval_section;

/* Variant parity of one (family, variant) pair of phrase_injection entries. */
typedef struct mv_eval_parity {
    mv_str family;
    mv_str variant;
    uint64_t total;
    uint64_t caught_any;
    uint64_t caught_quarantine;
    double recall_any;
} mv_eval_parity;

/* Result of one corpus entry. Strings are borrowed from the tool sets. */
typedef struct mv_eval_entry {
    mv_str id;
    mv_str label;
    mv_str category;
    mv_str resembles;
    mv_str family;
    mv_str variant;
    mv_str expected; /* "quarantine", "review" or empty */
    mv_str server;
    mv_str tool;
    mv_str source; /* the tool set's source name */
    bool malicious;
    bool hard_negative;
    bool holdout;
    bool degraded;
    mv_verdict verdict;
    mv_severity severity;
    double confidence;
    int risk;
    const char *const *checks; /* contributing check ids (borrowed from the engine) */
    uint32_t n_checks;
} mv_eval_entry;

/* Options of the gate. Initialise with mv_eval_gate_options_init. */
typedef struct mv_eval_gate_options {
    double min_recall; /* recall at any tier over all malicious entries; default 0.90 */
    double max_fp;     /* hard-negative quarantine FP rate; default 0.05 */
    bool per_category; /* each enforced malicious category must reach min_recall; default on */
    bool structural;   /* SC-003; default on */
    double structural_min_recall_quarantine;    /* default 0.95 */
    uint64_t structural_max_benign_quarantines; /* over benign + hard negatives; default 0 */
    /* Recall at quarantine over malicious entries labeled expected=quarantine
     * (the dangerous classes and hard checks); negative = not enforced
     * (default), and not enforced either when no entry carries the label. */
    double min_expected_quarantine_recall;
    double max_variant_gap; /* SC-004: max recall gap between the variants of a phrase
                               family; negative = not enforced (default) */
    /* Limits over all benign entries (clean benign and hard negatives), for
     * corpora of real tools. Negative = not enforced (default). */
    double max_review_rate;  /* flagged at any tier / benign entries */
    int64_t max_quarantines; /* benign entries quarantined */
    /* Judge only the benign limits above: recall, hard-negative FP, category
     * floors and SC-003 are skipped, so a corpus without malicious entries or
     * hard negatives is fine (one without benign entries is not). */
    bool benign_only;
} mv_eval_gate_options;

#define MV_EVAL_DEFAULT_MIN_RECALL 0.90
#define MV_EVAL_DEFAULT_MAX_FP 0.05
#define MV_EVAL_DEFAULT_STRUCTURAL_MIN_RECALL 0.95

void mv_eval_gate_options_init(mv_eval_gate_options *o);

/* Outcome of the gate, stored in the eval. Lines are NUL-terminated and
 * render-safe; failures start with "GATE FAILED: ". */
typedef struct mv_eval_gate {
    bool ran;
    bool passed;
    mv_eval_gate_options options;
    const char **failures;
    size_t n_failures;
    const char **notes; /* e.g. "category x not enforced (check y not registered)" */
    size_t n_notes;
    const char *message; /* "GATE PASSED: ..." or the first failure */
} mv_eval_gate;

typedef struct mv_eval {
    mv_eval_mode mode;
    const char *const *check_ids; /* registered checks, engine order (borrowed) */
    size_t n_check_ids;
    size_t n_sources; /* tool sets evaluated */
    mv_eval_section all;
    bool has_holdout;
    mv_eval_section holdout;
    mv_eval_parity *parity; /* sorted by family, then variant */
    size_t n_parity;
    mv_eval_entry *entries; /* input order: set by set, entry by entry */
    size_t n_entries;
    uint64_t degraded_entries;
    bool degraded; /* some scan was degraded: the numbers are partial */
    mv_eval_gate gate;
    mv_arena *arena; /* owns the arrays above */
} mv_eval;

/*
 * Evaluate the entries of `n_sets` corpus tool sets (kind MV_INPUT_CORPUS;
 * other kinds are MV_EINVAL). The result borrows strings from the sets and
 * check ids from the engine: free it before either. NULL opts = per-entry,
 * one thread. Output is identical for any `jobs`.
 * Returns 0, MV_EINVAL (NULL arguments, not a corpus, no entries) or
 * MV_ENOMEM, with err filled.
 */
int mv_eval_run(mv_eval **out, const mv_engine *e, const mv_toolset *const *sets, size_t n_sets,
                const mv_eval_options *opts, mv_error *err);
void mv_eval_free(mv_eval *ev);

/*
 * Apply the gate and store the outcome in ev->gate. NULL opts = defaults.
 * Returns 0 whether the gate passed or failed (see ev->gate.passed), or
 * MV_EINVAL with err filled when the gate cannot be judged: the corpus has
 * no malicious entries or no hard negatives (unless benign_only), no benign
 * entries while a benign limit is set, or a threshold is out of range (a
 * configuration error, never a pass). MV_ENOMEM on allocation failure.
 */
int mv_eval_gate_apply(mv_eval *ev, const mv_eval_gate_options *opts, mv_error *err);

typedef struct mv_eval_render_options {
    mv_report_format format; /* MV_REPORT_TEXT or MV_REPORT_JSON */
    bool per_entry;          /* list every entry */
    const char *version;     /* NULL = MCPVET_VERSION */
} mv_eval_render_options;

/* Append the scorecard (and the gate outcome when the gate ran). Returns 0,
 * MV_EINVAL (unsupported format) or MV_ENOMEM. */
int mv_eval_render(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *opts,
                   mv_error *err);

/* The check that detects a malicious category ("unicode_smuggling" ->
 * "unicode.hidden" ...), or NULL for a category without a mapped check. */
const char *mv_eval_category_check(const char *category, size_t len);

/* True for the structural categories of SC-003 (unicode_smuggling,
 * shadowing, decoded_payload). */
bool mv_eval_category_structural(const char *category, size_t len);

#ifdef __cplusplus
}
#endif
#endif
