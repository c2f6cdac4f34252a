/*
 * Per-tool aggregation of signals into a verdict, as DESIGN.md "Tiers and
 * aggregation" says: any hard signal quarantines (dangerous; critical or
 * high); soft evidence that corroborates itself (an instruction addressed
 * to the model together with a sensitive resource, a data sink or a second
 * independent instruction, read from the signals' facets) quarantines too,
 * naming its class; otherwise soft signals raise for review with severity
 * by the number of distinct soft checks (1 low, 2 medium, 3+ high),
 * otherwise clean.
 * Confidence and risk combine distinct checks so that agreement raises them.
 */
#ifndef MCPVET_AGGREGATE_H
#define MCPVET_AGGREGATE_H

#include "mcpvet/check.h"
#include "mcpvet/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The three dangerous classes of corroborated soft evidence (stable names,
 * shown in every report). */
#define MV_DANGER_HIDDEN "tpa_hidden_instructions"
#define MV_DANGER_INJECTION "prompt_injection_in_description"
#define MV_DANGER_EXFILTRATION "data_exfiltration_in_description"

/* What agreed when soft evidence made a tool dangerous (bit set). */
#define MV_DANGER_BASIS_INSTRUCTION 0x01u /* an instruction addressed to the model */
#define MV_DANGER_BASIS_SENSITIVE 0x02u   /* access to a sensitive resource */
#define MV_DANGER_BASIS_SINK 0x04u        /* a data-sink parameter or named destination */
#define MV_DANGER_BASIS_FAMILIES 0x08u    /* a second, independent instruction family */
#define MV_DANGER_BASIS_EXFIL 0x10u       /* source, transfer and sink in one passage */
#define MV_DANGER_BASIS_OUTSCOPE 0x20u    /* a destructive order outside the tool's job */
/* An order explicitly addressed to the model (an obligation, a condition,
 * an imperative at a clause start) whose action lies outside the tool's
 * job: mood, action and object agree in one passage. */
#define MV_DANGER_BASIS_ORDER 0x40u
/* The learned wording model and a soft signal of another check agree. */
#define MV_DANGER_BASIS_LEARNED 0x80u

typedef struct mv_aggregate_result {
    mv_verdict verdict;
    mv_threat_level level;
    mv_severity severity;
    mv_threat threat;
    double confidence;
    int risk;
    uint32_t hard_checks;     /* distinct checks with a hard signal */
    uint32_t soft_checks;     /* distinct checks with a soft (and no hard) signal */
    const char *danger_class; /* MV_DANGER_* class when soft evidence corroborated itself,
                                 else NULL (also NULL for a hard-only quarantine) */
    uint32_t danger_basis;    /* MV_DANGER_BASIS_* that agreed; 0 when danger_class is NULL */
} mv_aggregate_result;

/* Aggregate `n` signals of one tool. Distinct checks are told apart by
 * check_index. Info signals are ignored. Deterministic and order-independent. */
void mv_aggregate(const mv_signal *signals, size_t n, mv_aggregate_result *out);

/* The basis as words joined by " + " ("instruction to the model + sensitive
 * resource"), written NUL-terminated into buf (truncated to cap). Returns
 * buf. */
const char *mv_danger_basis_text(uint32_t basis, char *buf, size_t cap);

/* Noisy-OR of independent confidences: 1 - prod(1 - c_i), each clamped to
 * [0,1]. Exposed for tests and for checks that combine their own evidence. */
double mv_combine_confidence(const double *c, size_t n);

#ifdef __cplusplus
}
#endif
#endif
