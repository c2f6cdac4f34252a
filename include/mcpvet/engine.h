/*
 * The detection engine: a set of checks compiled once, run over registry
 * snapshots as often as a long-running process likes. Pure: no I/O, clocks,
 * randomness, environment or locale (a test inspects the object files).
 *
 *   mv_engine_new      compile every check's rules (once per process)
 *   mv_scan_new        bind the engine to a frozen registry (prepare)
 *   mv_scan_run        inspect every tool; `jobs` threads, same output
 *   mv_scan_finding    per-tool verdicts, in registry order
 *   mv_scan_coverage   which checks ran or failed, which caps were hit
 *
 * Output is deterministic: findings follow registry order and signals are
 * sorted by (check order, field, offset, evidence), whatever `jobs` is.
 */
#ifndef MCPVET_ENGINE_H
#define MCPVET_ENGINE_H

#include <stdbool.h>
#include "mcpvet/check.h"
#include "mcpvet/common.h"
#include "mcpvet/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Caps the engine enforces. Zero members take the defaults below. */
typedef struct mv_engine_limits {
    uint32_t max_signals_per_tool; /* default 32 */
    uint32_t max_evidence_bytes;   /* rendered evidence, default 200 */
    uint32_t max_detail_bytes;     /* rendered detail, default 240 */
    uint32_t max_normalize_bytes;  /* per field; longer fields are normalized
                                      up to the cap and the cap is recorded;
                                      default 262144 */
} mv_engine_limits;

#define MV_DEFAULT_MAX_SIGNALS_PER_TOOL 32u
#define MV_DEFAULT_MAX_EVIDENCE_BYTES 200u
#define MV_DEFAULT_MAX_DETAIL_BYTES 240u
#define MV_DEFAULT_MAX_NORMALIZE_BYTES 262144u

typedef struct mv_engine_options {
    const mv_allocator *allocator; /* NULL = default */
    mv_engine_limits limits;
    bool no_builtin_checks;      /* start with no checks (tests) */
    const char *const *disabled; /* ids of builtin checks to leave out */
    size_t n_disabled;
    /* Scan without the checks' per-field result memo (mv_memo_find always
     * misses): the reference of the tests that prove the memo changes
     * nothing. */
    bool no_field_memo;
} mv_engine_options;

typedef struct mv_engine mv_engine;

/* Build an engine with the builtin checks (unless no_builtin_checks) in
 * their fixed order. NULL options = defaults. Returns 0, MV_ENOMEM, or
 * MV_EINVAL (unknown id in `disabled`). A builtin whose init fails does not
 * fail the engine: it is recorded and reported as failed by every scan. */
int mv_engine_new(mv_engine **out, const mv_engine_options *opts, mv_error *err);
void mv_engine_free(mv_engine *e);

/* Append a check (tests use this for a deliberately failing check). The
 * table is borrowed and must outlive the engine. Ids must be unique.
 * Returns 0, MV_ENOMEM, MV_EINVAL (duplicate id, missing inspect). */
int mv_engine_add_check(mv_engine *e, const mv_check *check, mv_error *err);

size_t mv_engine_check_count(const mv_engine *e);
const char *mv_engine_check_id(const mv_engine *e, size_t index);

/* Ids of all builtin checks, in engine order, NULL-terminated. */
const char *const *mv_builtin_check_ids(void);

/* Severity scale of a finding. */
typedef enum mv_severity {
    MV_SEVERITY_NONE = 0,
    MV_SEVERITY_LOW,
    MV_SEVERITY_MEDIUM,
    MV_SEVERITY_HIGH,
    MV_SEVERITY_CRITICAL
} mv_severity;

typedef enum mv_verdict {
    MV_VERDICT_CLEAN = 0,
    MV_VERDICT_REVIEW,
    MV_VERDICT_QUARANTINE
} mv_verdict;

/* Threat level in the spec's words: "none", "warning", "dangerous". */
typedef enum mv_threat_level {
    MV_LEVEL_NONE = 0,
    MV_LEVEL_WARNING,
    MV_LEVEL_DANGEROUS
} mv_threat_level;

const char *mv_severity_name(mv_severity s);
const char *mv_verdict_name(mv_verdict v);
const char *mv_threat_level_name(mv_threat_level l);

/* A cap hit during a scan, attributed to a tool (or -1 for the scan). */
typedef struct mv_cap_record {
    const char *cap;      /* static name */
    const char *check_id; /* NULL when the engine or model hit it */
    uint64_t limit;
    uint64_t observed;
    int64_t tool_index;
} mv_cap_record;

/* Per-tool aggregation of every signal. Owned by the scan. */
typedef struct mv_finding {
    const mv_tool *tool;
    uint32_t tool_index;
    mv_verdict verdict;
    mv_threat_level level;
    mv_severity severity;
    mv_threat threat;         /* threat of the strongest signal (uncategorized if none) */
    double confidence;        /* combined, in [0,1]; 0 when clean */
    int risk;                 /* 0..100 */
    const mv_signal *signals; /* sorted; info signals included */
    uint32_t n_signals;
    const char *const *checks; /* distinct ids of hard/soft contributing checks, engine order */
    uint32_t n_checks;
    const char *const *failed_checks; /* checks that failed on this tool */
    uint32_t n_failed_checks;
    uint32_t n_caps; /* caps hit for this tool (see coverage for details) */
    /* Dangerous by corroborated soft evidence (aggregate.h): the class
     * ("tpa_hidden_instructions", "prompt_injection_in_description",
     * "data_exfiltration_in_description") and what agreed
     * (MV_DANGER_BASIS_*). NULL and 0 otherwise. */
    const char *danger_class;
    uint32_t danger_basis;
} mv_finding;

typedef struct mv_coverage {
    uint32_t checks_total;         /* checks registered */
    uint32_t checks_run;           /* checks that ran on every tool without failing */
    uint32_t checks_failed;        /* distinct checks that failed at least once */
    const char *const *failed_ids; /* engine order */
    uint64_t check_failures;       /* (check, tool) pairs that failed */
    uint64_t tools_scanned;
    const mv_cap_record *caps;
    uint32_t n_caps;
    uint64_t caps_dropped; /* cap records beyond the record cap (counted only) */
    bool degraded;         /* a check failed or a cap was hit: never "clean" */
} mv_coverage;

/* Summary counts of a finished scan. */
typedef struct mv_scan_summary {
    uint64_t tools;
    uint64_t clean;
    uint64_t review;
    uint64_t quarantine;
    uint64_t partial; /* tools with a failed check or a hit cap: their verdict
                         rests on an incomplete scan (never "clean") */
    int risk; /* max tool risk, 0..100 */
    mv_verdict worst;
} mv_scan_summary;

typedef struct mv_scan mv_scan;

/* Bind a frozen registry: runs every check's prepare. A failing prepare is
 * recorded against that check, not returned. Returns 0, MV_ENOMEM, or
 * MV_EINVAL (registry not frozen). */
int mv_scan_new(mv_scan **out, const mv_engine *e, const mv_registry *r, mv_error *err);
void mv_scan_free(mv_scan *s);

/* Inspect every tool using `jobs` threads (0 or 1 = on the calling thread).
 * Results are identical for any `jobs`. Returns 0 or MV_ENOMEM. */
int mv_scan_run(mv_scan *s, unsigned jobs, mv_error *err);

/*
 * Streaming, for registries too large to keep every finding (mcpvet scan):
 * instead of mv_scan_run, call mv_scan_run_range for consecutive ranges
 * [begin, end) that cover the registry in order (the first begins at 0),
 * then mv_scan_finish. After a range only its own findings are readable
 * (mv_scan_finding(s, i) for begin <= i < end, NULL elsewhere);
 * mv_scan_release_range, or the next range, releases them.
 * mv_scan_summarize and, after finish, the coverage cover every range and
 * are those mv_scan_run gives, byte for byte in any report, for any ranges
 * and any `jobs`. Each returns 0, MV_EINVAL (out of order, or after
 * mv_scan_run) or MV_ENOMEM.
 */
int mv_scan_run_range(mv_scan *s, size_t begin, size_t end, unsigned jobs, mv_error *err);
void mv_scan_release_range(mv_scan *s);
int mv_scan_finish(mv_scan *s, mv_error *err);
/* True once a scan ran by ranges (its findings are no longer all kept). */
bool mv_scan_streamed(const mv_scan *s);

/* Results after run. Findings are in registry order, one per tool. */
size_t mv_scan_finding_count(const mv_scan *s);
const mv_finding *mv_scan_finding(const mv_scan *s, size_t index);
const mv_coverage *mv_scan_coverage(const mv_scan *s);
mv_scan_summary mv_scan_summarize(const mv_scan *s);
const mv_registry *mv_scan_registry(const mv_scan *s);

/* Approximate per-check cost is measured by the benchmark, not here: the
 * engine never reads a clock. */

#ifdef __cplusplus
}
#endif
#endif
