/*
 * Aggregation of one tool's signals into a finding, per DESIGN.md "Tiers and
 * aggregation". Distinct checks count, not signals: five hits of one rule
 * are one opinion, two different checks agreeing are two. Confidence and
 * risk use a noisy-OR over the checks, so agreement raises both.
 */
#include "mcpvet/aggregate.h"

#include <math.h>

/* Weight of a check's confidence in the risk score, by tier. */
#define RISK_WEIGHT_HARD 0.9
#define RISK_WEIGHT_SOFT 0.5
/* Risk bands keep the score consistent with the verdict. */
#define RISK_QUARANTINE_MIN 70
#define RISK_REVIEW_MIN 10
#define RISK_REVIEW_MAX 69
#define MAX_TRACKED_CHECKS 64

static double clamp01(double c) {
    if (!(c > 0.0)) /* also NaN */
        return 0.0;
    return c > 1.0 ? 1.0 : c;
}

double mv_combine_confidence(const double *c, size_t n) {
    double miss = 1.0;
    for (size_t i = 0; i < n; i++)
        miss *= 1.0 - clamp01(c[i]);
    return clamp01(1.0 - miss);
}

/* Insert v into the ascending array a[0..*n) (capacity MAX_TRACKED_CHECKS),
 * so the noisy-OR product does not depend on signal order. */
static void sorted_insert(double *a, size_t *n, double v) {
    if (*n >= MAX_TRACKED_CHECKS)
        return;
    size_t i = *n;
    while (i > 0 && a[i - 1] > v) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = v;
    (*n)++;
}

/* Does signal `s` rank above `best` as "the strongest signal"? */
static bool stronger(const mv_signal *s, const mv_signal *best) {
    if (best == NULL)
        return true;
    if (s->tier != best->tier)
        return s->tier > best->tier;
    if (s->confidence != best->confidence)
        return s->confidence > best->confidence;
    if (s->check_index != best->check_index)
        return s->check_index < best->check_index;
    return s->threat < best->threat;
}

void mv_aggregate(const mv_signal *signals, size_t n, mv_aggregate_result *out) {
    double conf[MAX_TRACKED_CHECKS], risk_terms[MAX_TRACKED_CHECKS];
    size_t n_conf = 0, n_risk = 0;
    bool critical = false;
    const mv_signal *best = NULL;

    out->hard_checks = 0;
    out->soft_checks = 0;
    for (size_t i = 0; i < n; i++) {
        const mv_signal *s = &signals[i];
        if (s->tier == MV_TIER_INFO)
            continue;
        if (stronger(s, best))
            best = s;
        if (s->tier == MV_TIER_HARD && s->critical)
            critical = true;
        /* Only the first non-info signal of a check summarises that check. */
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            if (signals[j].check_index == s->check_index && signals[j].tier != MV_TIER_INFO)
                first = false;
        if (!first)
            continue;
        double max_conf = 0.0;
        bool hard = false;
        for (size_t j = i; j < n; j++) {
            const mv_signal *t = &signals[j];
            if (t->check_index != s->check_index || t->tier == MV_TIER_INFO)
                continue;
            hard = hard || t->tier == MV_TIER_HARD;
            double c = clamp01(t->confidence);
            if (c > max_conf)
                max_conf = c;
        }
        if (hard)
            out->hard_checks++;
        else
            out->soft_checks++;
        sorted_insert(conf, &n_conf, max_conf);
        sorted_insert(risk_terms, &n_risk, max_conf * (hard ? RISK_WEIGHT_HARD : RISK_WEIGHT_SOFT));
    }

    out->threat = best != NULL ? best->threat : MV_THREAT_UNCATEGORIZED;
    out->confidence = mv_combine_confidence(conf, n_conf);
    int risk = (int)floor(mv_combine_confidence(risk_terms, n_risk) * 100.0 + 0.5);
    uint32_t agreeing = out->hard_checks + out->soft_checks;

    if (out->hard_checks > 0) {
        out->verdict = MV_VERDICT_QUARANTINE;
        out->level = MV_LEVEL_DANGEROUS;
        out->severity = (critical || agreeing >= 2) ? MV_SEVERITY_CRITICAL : MV_SEVERITY_HIGH;
        out->risk = risk < RISK_QUARANTINE_MIN ? RISK_QUARANTINE_MIN : risk;
    } else if (out->soft_checks > 0) {
        out->verdict = MV_VERDICT_REVIEW;
        out->level = MV_LEVEL_WARNING;
        out->severity = out->soft_checks == 1   ? MV_SEVERITY_LOW
                        : out->soft_checks == 2 ? MV_SEVERITY_MEDIUM
                                                : MV_SEVERITY_HIGH;
        out->risk = risk < RISK_REVIEW_MIN   ? RISK_REVIEW_MIN
                    : risk > RISK_REVIEW_MAX ? RISK_REVIEW_MAX
                                             : risk;
    } else {
        out->verdict = MV_VERDICT_CLEAN;
        out->level = MV_LEVEL_NONE;
        out->severity = MV_SEVERITY_NONE;
        out->risk = 0;
        out->confidence = 0.0;
    }
}
