/*
 * Per-tool aggregation of signals into a verdict, as DESIGN.md "Tiers and
 * aggregation" says: any hard signal quarantines (dangerous; critical or
 * high), otherwise soft signals raise for review with severity by the number
 * of distinct soft checks (1 low, 2 medium, 3+ high), otherwise clean.
 * Confidence and risk combine distinct checks so that agreement raises them.
 */
#ifndef MCPVET_AGGREGATE_H
#define MCPVET_AGGREGATE_H

#include "mcpvet/check.h"
#include "mcpvet/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mv_aggregate_result {
    mv_verdict verdict;
    mv_threat_level level;
    mv_severity severity;
    mv_threat threat;
    double confidence;
    int risk;
    uint32_t hard_checks; /* distinct checks with a hard signal */
    uint32_t soft_checks; /* distinct checks with a soft (and no hard) signal */
} mv_aggregate_result;

/* Aggregate `n` signals of one tool. Distinct checks are told apart by
 * check_index. Info signals are ignored. Deterministic and order-independent. */
void mv_aggregate(const mv_signal *signals, size_t n, mv_aggregate_result *out);

/* Noisy-OR of independent confidences: 1 - prod(1 - c_i), each clamped to
 * [0,1]. Exposed for tests and for checks that combine their own evidence. */
double mv_combine_confidence(const double *c, size_t n);

#ifdef __cplusplus
}
#endif
#endif
