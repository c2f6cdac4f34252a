/*
 * Aggregation of one tool's signals into a finding, per DESIGN.md "Tiers and
 * aggregation". Distinct checks count, not signals: five hits of one rule
 * are one opinion, two different checks agreeing are two. Confidence and
 * risk use a noisy-OR over the checks, so agreement raises both.
 *
 * The dangerous level: soft signals carry facets (check.h). An instruction
 * addressed to the model (MV_FACET_INSTRUCTION) is only an opinion; the
 * same instruction next to an order to touch a sensitive resource, a data
 * sink, or a second instruction of another family (every instruction
 * family emits at most one signal per tool) is evidence that corroborates
 * itself, and the tool is quarantined with the class of what it does.
 * Keyword rules alone (an LLM tool that sets a system prompt, a dotenv
 * loader) never get there: they carry no instruction facet. The learned
 * wording model (MV_FACET_LEARNED) never gets there alone either; it
 * corroborates a soft signal of another check.
 */
#include "mcpvet/aggregate.h"

#include <math.h>
#include <string.h>

/* Weight of a check's confidence in the risk score, by tier. */
#define RISK_WEIGHT_HARD 0.9
#define RISK_WEIGHT_SOFT 0.5
/* Risk bands keep the score consistent with the verdict. */
#define RISK_QUARANTINE_MIN 70
#define RISK_REVIEW_MIN 10
#define RISK_REVIEW_MAX 69
#define MAX_TRACKED_CHECKS 64
/* An instruction takes part in the dangerous level from this confidence. */
#define DANGER_MIN_CONF 0.5
/* In one field, the learned model's window and another check's evidence
 * corroborate each other only this close (bytes between the two spans). */
#define LEARNED_NEAR_BYTES 400

const char *mv_danger_basis_text(uint32_t basis, char *buf, size_t cap) {
    static const struct {
        uint32_t bit;
        const char *text;
    } parts[] = {
        {MV_DANGER_BASIS_INSTRUCTION, "instruction to the model"},
        {MV_DANGER_BASIS_SENSITIVE, "sensitive resource"},
        {MV_DANGER_BASIS_SINK, "data sink"},
        {MV_DANGER_BASIS_EXFIL, "source, transfer and sink together"},
        {MV_DANGER_BASIS_FAMILIES, "second instruction family"},
        {MV_DANGER_BASIS_OUTSCOPE, "destructive order outside the tool's job"},
        {MV_DANGER_BASIS_ORDER, "addressed order outside the tool's job"},
        {MV_DANGER_BASIS_LEARNED, "learned attack wording agreeing with another check"},
    };
    size_t o = 0;
    if (buf == NULL || cap == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        if (!(basis & parts[i].bit))
            continue;
        const char *sep = o > 0 ? " + " : "";
        for (const char *p = sep; *p && o + 1 < cap; p++)
            buf[o++] = *p;
        for (const char *p = parts[i].text; *p && o + 1 < cap; p++)
            buf[o++] = *p;
    }
    buf[o] = '\0';
    return buf;
}

/* Whether another check's signal reads the same passage as the learned
 * model's window: corroboration means two views of one text agreeing. In
 * a long field (API documentation, an enum's list of options) a window
 * that scores high and an unrelated phrase thousands of bytes away are two
 * separate weak opinions, not one piece of evidence. Signals in different
 * fields, or of the whole tool, keep counting: attacks split one order
 * between a description and a property. */
static bool learned_near(const mv_signal *learned, const mv_signal *s) {
    if (s->field < 0 || s->field != learned->field)
        return true;
    uint64_t a0 = learned->offset, a1 = a0 + learned->length;
    uint64_t b0 = s->offset, b1 = b0 + s->length;
    uint64_t gap = b0 > a1 ? b0 - a1 : (a0 > b1 ? a0 - b1 : 0);
    return gap <= LEARNED_NEAR_BYTES;
}

/* Corroborated soft evidence: sets the class and basis, or leaves them
 * NULL and 0. */
static void danger(const mv_signal *signals, size_t n, mv_aggregate_result *out) {
    uint32_t any = 0;   /* facets of every soft signal */
    uint32_t instr = 0; /* facets of the instruction signals */
    unsigned n_instr = 0;
    bool exfil_threat = false;
    /* The learned model's check, and whether a soft signal of another
     * check stands beside it (signals come grouped in check order, but
     * nothing here depends on it). */
    uint32_t learned_check = UINT32_MAX;
    const mv_signal *learned = NULL;
    bool other_check = false, other_exfil = false;
    for (size_t i = 0; i < n; i++) {
        const mv_signal *s = &signals[i];
        if (s->tier != MV_TIER_SOFT || s->confidence < DANGER_MIN_CONF)
            continue;
        any |= s->facets;
        if (s->facets & MV_FACET_LEARNED) {
            learned_check = s->check_index;
            learned = s;
        }
        if (s->facets & MV_FACET_INSTRUCTION) {
            instr |= s->facets;
            n_instr++;
            exfil_threat = exfil_threat || s->threat == MV_THREAT_EXFILTRATION;
        }
    }
    if (learned_check != UINT32_MAX) {
        for (size_t i = 0; i < n; i++) {
            const mv_signal *s = &signals[i];
            if (s->tier != MV_TIER_SOFT || s->confidence < DANGER_MIN_CONF ||
                s->check_index == learned_check || !learned_near(learned, s))
                continue;
            other_check = true;
            other_exfil = other_exfil || s->threat == MV_THREAT_EXFILTRATION;
        }
    }
    uint32_t basis = 0;
    /* The learned window and a structural fact of the same definition
     * (an outside destination nobody chose, a destructive command written
     * as code): the wording says what the structure is for. */
    if (learned != NULL && (learned->facets & (MV_FACET_FIXED_SINK | MV_FACET_DESTROY_CODE))) {
        basis |= MV_DANGER_BASIS_LEARNED;
        if (learned->facets & MV_FACET_FIXED_SINK) {
            basis |= MV_DANGER_BASIS_SINK;
            exfil_threat = true;
        }
        if (learned->facets & MV_FACET_DESTROY_CODE)
            basis |= MV_DANGER_BASIS_OUTSCOPE;
    }
    if (other_check) {
        basis |= MV_DANGER_BASIS_LEARNED;
        exfil_threat = exfil_threat || other_exfil;
    }
    if (n_instr > 0) {
        if (any & MV_FACET_SENSITIVE)
            basis |= MV_DANGER_BASIS_SENSITIVE;
        if (any & MV_FACET_SINK)
            basis |= MV_DANGER_BASIS_SINK;
        if (instr & MV_FACET_EXFIL)
            basis |= MV_DANGER_BASIS_EXFIL;
        if (n_instr >= 2 || (instr & MV_FACET_AGREE))
            basis |= MV_DANGER_BASIS_FAMILIES;
        /* Mood, an out-of-job action and a broad or sensitive object in one
         * passage: three independent parts of one order agree. */
        if (instr & MV_FACET_ADDRESSED)
            basis |= MV_DANGER_BASIS_ORDER;
        /* A destructive order outside the tool's job strengthens other
         * evidence but never stands alone: one uncorroborated soft signal
         * stays review (DESIGN.md), and honest API documentation ("send []
         * to remove all keys") reads like such an order. */
        if ((instr & MV_FACET_OUTSCOPE) && basis != 0)
            basis |= MV_DANGER_BASIS_OUTSCOPE;
        /* Round 18: a destructive or consent-bypass instruction in a tool
         * whose structure destroys (a command as code, a fixed destroying
         * value, a call of a destroying tool): mood and object agree. */
        if (instr & MV_FACET_DESTROY_CODE)
            basis |= MV_DANGER_BASIS_OUTSCOPE;
    }
    if (basis == 0) {
        out->danger_class = NULL;
        out->danger_basis = 0;
        return;
    }
    out->danger_basis = basis | MV_DANGER_BASIS_INSTRUCTION;
    if (instr & MV_FACET_HIDDEN)
        out->danger_class = MV_DANGER_HIDDEN;
    else if ((instr & MV_FACET_EXFIL) || exfil_threat)
        out->danger_class = MV_DANGER_EXFILTRATION;
    else
        out->danger_class = MV_DANGER_INJECTION;
}

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

    danger(signals, n, out);
    if (out->hard_checks > 0 || out->danger_class != NULL) {
        /* Hidden instructions are the legacy rules' critical class. */
        bool hidden = out->danger_class != NULL && strcmp(out->danger_class, MV_DANGER_HIDDEN) == 0;
        out->verdict = MV_VERDICT_QUARANTINE;
        out->level = MV_LEVEL_DANGEROUS;
        out->severity = (critical || hidden || (out->hard_checks > 0 && agreeing >= 2))
                            ? MV_SEVERITY_CRITICAL
                            : MV_SEVERITY_HIGH;
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
