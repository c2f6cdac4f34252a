/*
 * The check interface and the signal a check emits. A check is a table of
 * function pointers with a stable id; the engine runs every registered check
 * over every tool in a fixed order, isolates failures and enforces caps, so a
 * check only has to look at one tool and say what it saw.
 *
 * Life cycle of a check's state:
 *   init     once per engine (compile rules, patterns)     -> engine_state
 *   prepare  once per scanned registry (build name index)  -> registry_state
 *   inspect  once per tool, possibly on several threads at once
 *   release  frees registry_state;  fini frees engine_state
 * inspect must treat both states as read-only: it may run concurrently.
 */
#ifndef MCPVET_CHECK_H
#define MCPVET_CHECK_H

#include <stdbool.h>
#include "mcpvet/arena.h"
#include "mcpvet/common.h"
#include "mcpvet/normalize.h"
#include "mcpvet/registry.h"
#include "mcpvet/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* INFO signals are shown in reports but never change a verdict (e.g. an
 * honest name collision between two servers). */
typedef enum mv_tier { MV_TIER_INFO = 0, MV_TIER_SOFT = 1, MV_TIER_HARD = 2 } mv_tier;

typedef enum mv_threat {
    MV_THREAT_TOOL_POISONING = 0,
    MV_THREAT_PROMPT_INJECTION,
    MV_THREAT_RUG_PULL,
    MV_THREAT_EXFILTRATION,
    MV_THREAT_MALICIOUS_CODE,
    MV_THREAT_UNCATEGORIZED,
    MV_THREAT_COUNT
} mv_threat;

/* Stable names used in reports: "hard"/"soft"/"info", "tool_poisoning"... */
const char *mv_tier_name(mv_tier tier);
const char *mv_threat_name(mv_threat threat);

/*
 * Facets: what a soft signal establishes about the tool, beyond its
 * confidence. The aggregation reads them to decide the dangerous level
 * (DESIGN.md "Tiers and aggregation"): an instruction addressed to the
 * model that is corroborated by a sensitive resource, a data sink or a
 * second independent instruction. A check that sets none (the default,
 * zero) never takes part in that decision.
 */
/* An instruction addressed to the model, in instruction position (not
 * quoted, listed or described). */
#define MV_FACET_INSTRUCTION 0x01u
/* ...hidden from the user: a tag, a comment, secrecy, an override, a deceit. */
#define MV_FACET_HIDDEN 0x02u
/* ...moving data out: source, transfer and sink together. */
#define MV_FACET_EXFIL 0x04u
/* The tool is told to move, or reaches for, a sensitive resource (keys,
 * credentials, client configs, the conversation). */
#define MV_FACET_SENSITIVE 0x08u
/* A data sink: an unexplained side-channel parameter, an upload target. */
#define MV_FACET_SINK 0x10u
/* Another instruction family of the same check agrees in instruction
 * position (it may not be emitted itself). */
#define MV_FACET_AGREE 0x20u
/* The instruction orders destruction outside the tool's own job (a
 * destructive order in a tool that neither is named for nor describes
 * destroying anything). */
#define MV_FACET_OUTSCOPE 0x40u
/* The instruction is an order addressed to the model (obligation,
 * condition or imperative) whose action lies outside the tool's job and
 * whose object is broad or sensitive: the order detector's three parts
 * agree, which corroborates it on its own. */
#define MV_FACET_ADDRESSED 0x80u
/* The text reads like attack wording to the learned model (wording.learned).
 * Never enough alone, however high the score: it corroborates a soft
 * signal of another check, which is then two independent opinions on the
 * same tool, one of which says it reads as an order to the model. */
#define MV_FACET_LEARNED 0x100u
/* Set only on the learned signal, by wording.learned itself: the tool's
 * structure (not its wording) carries the other half of an attack the
 * wording reads as. FIXED_SINK: an input default or const is an outside
 * destination (a URL, an e-mail or an IP address), so data has somewhere
 * to go that nobody chose. DESTROY_CODE: the tool's text carries a
 * destructive command or statement written as code (rm -rf, push --force,
 * DROP TABLE, kill -9 -1, delete namespace). Either is a fact of the
 * definition independent of the model's words, so the pair is two
 * opinions (aggregate.c). */
#define MV_FACET_FIXED_SINK 0x200u
#define MV_FACET_DESTROY_CODE 0x400u

/* What a check hands to mv_emit(). Strings are copied by the engine, so they
 * may point at stack buffers or scratch memory. Evidence is raw text: the
 * engine makes it render-safe and caps its length. */
typedef struct mv_signal_spec {
    mv_tier tier;
    mv_threat threat;
    double confidence; /* clamped to [0,1] by the engine (NaN becomes 0) */
    bool critical;     /* ask for severity "critical" when this decides the verdict */
    int32_t field;     /* index into tool->fields, or -1 for the whole tool */
    uint32_t offset;   /* raw byte offset of the evidence inside the field */
    uint32_t length;   /* raw byte length of the evidence (0 if not located) */
    mv_str evidence;   /* raw text to show (decoded payload, matched phrase...) */
    mv_str detail;     /* one short sentence: what was seen and why it matters */
    uint32_t facets;   /* MV_FACET_* (0 = none) */
} mv_signal_spec;

/* A signal as stored in results. Strings are owned by the scan. */
typedef struct mv_signal {
    const char *check_id; /* static id of the emitting check */
    uint16_t check_index; /* position of the check in the engine */
    mv_tier tier;
    mv_threat threat;
    double confidence;
    bool critical;
    int32_t field;
    uint32_t offset;
    uint32_t length;
    mv_str field_path;         /* copied from the tool field, empty when field == -1 */
    mv_str evidence;           /* render-safe: printable ASCII/UTF-8 only, escapes shown */
    mv_str detail;             /* render-safe */
    bool hard_if_corroborated; /* emitted with mv_emit_corroborable (already applied) */
    uint32_t facets;           /* MV_FACET_*, copied from the spec */
} mv_signal;

/* Opaque sink the engine passes to inspect(). */
typedef struct mv_emitter mv_emitter;

/* Record a signal. Returns 0, MV_ENOMEM, or MV_ELIMIT when the per-tool
 * signal cap is reached (the cap is recorded; the check should stop). */
int mv_emit(mv_emitter *out, const mv_signal_spec *spec);

/* Record a soft signal that becomes hard when any other check reports a
 * soft or hard signal for the same tool (a stray invisible character is
 * debris on its own, smuggling next to an injected order). The engine
 * applies it once every check has run, before aggregation. Same return
 * values as mv_emit; a spec whose tier is not soft is emitted as is. */
int mv_emit_corroborable(mv_emitter *out, const mv_signal_spec *spec);

/* Record that the check hit one of its own caps (e.g. "payload_candidates").
 * The scan becomes degraded. `cap` must be a static string. */
void mv_emit_cap(mv_emitter *out, const char *cap, uint64_t limit, uint64_t observed);

/*
 * Per-field result memo. Tool text repeats (a server's shared parameter
 * descriptions, the same server in several clients, variants, forks):
 * a check whose work on one field depends only on that field's text, its
 * kind and a few bytes the check names (`salt`: flags, a property name...)
 * wraps that work so a repeat replays it instead:
 *
 *     mv_memo m;
 *     rc = mv_memo_find(out, i, SLOT, salt, &m);
 *     if (rc == 1) { use m.data, m.len }            // replayed
 *     else if (rc == 0) { work, mv_emit...; mv_memo_keep(out, &m, data, len); }
 *     else goto done;                               // as mv_emit's error
 *
 * Between find and keep the check may emit signals for field i only and
 * caps; keep stores them with `data` (the check's own summary of the work:
 * counters, a match list) and a replay emits them again, in the same order,
 * with field i's index and path, and hands the data back. The key is (the
 * check, `slot`, field i's kind, its text compared in full, `salt`); the
 * memo belongs to the scan worker, is bounded and only ever misses, so
 * using it never changes a result. A field that is a tail window or was cut
 * at the field cap, a section that hit the signal cap, or emitted for
 * another field, is not kept. find returns 1 (replayed; m.data valid until
 * the check's next memo call), 0 (do the work; keep is optional) or what
 * mv_emit returned while replaying (MV_ELIMIT, MV_ENOMEM: m.data is still
 * set).
 */
typedef struct mv_memo {
    const void *data; /* on a replay: the bytes given to mv_memo_keep */
    size_t len;
    /* The engine's bookkeeping between find and keep. */
    const void *rec;
    uint64_t gen;
    mv_str salt;
    uint32_t text, tag, field, n_signals, n_caps;
    bool active;
} mv_memo;

int mv_memo_find(mv_emitter *out, uint32_t field, uint32_t slot, mv_str salt, mv_memo *m);
void mv_memo_keep(mv_emitter *out, mv_memo *m, const void *data, size_t len);

/* mv_memo_find in two steps, for a check whose kept result holds only in
 * some states of its tool-wide work (a budget that must not run out):
 * peek returns 1 with m->data set and nothing emitted yet, or 0 as find
 * does; after a 1 the check either calls mv_memo_replay (which emits and
 * returns what find would have: 1 or an mv_emit error) or does the work
 * itself without keeping it. */
int mv_memo_peek(mv_emitter *out, uint32_t field, uint32_t slot, mv_str salt, mv_memo *m);
int mv_memo_replay(mv_emitter *out, mv_memo *m);

/* What inspect() sees besides the tool. All members are read-only. */
typedef struct mv_inspect_ctx {
    const mv_registry *registry;
    uint32_t tool_index;       /* the tool's id in the registry */
    const mv_norm_text *norm;  /* normalized view per field (tool->n_fields entries) */
    void *engine_state;        /* from init */
    void *registry_state;      /* from prepare */
    mv_arena *scratch;         /* per-tool scratch, reset after the tool */
    mv_normalizer *normalizer; /* this thread's normalizer */
    /* MV_READ_* bits of what the check read beyond the tool's own content
     * (set through mv_inspect_server / mv_inspect_registry; may be NULL):
     * the tool memo below keeps no result that read them. */
    uint32_t *reads;
} mv_inspect_ctx;

/*
 * Tool memo. Real registries repeat whole tools (the same server configured
 * in several clients, forks, gateways, variants under another server name).
 * A check listed in mv_tool_memo_checks (src/engine/checks/builtin.c)
 * promises that its
 * result for a tool depends only on the tool's own content (every field:
 * kind, path, text...; its parameters, name, title, description and item
 * kind), its engine state and the normalized views, except for what it
 * reads through the two accessors below. The engine then replays the
 * signals and caps a check emitted for an identical tool seen earlier by
 * the same worker instead of calling inspect, and keeps no result whose
 * inspect read the server name or the registry. Such a check must not read
 * tool->server or ctx->registry (nor ctx->tool_index, ctx->registry_state)
 * directly; tests/unit/test_tool_memo.c checks directive.c for it.
 */
#define MV_READ_SERVER 0x1u   /* the configured server name */
#define MV_READ_REGISTRY 0x2u /* the registry: other tools, this tool's id */

/* The tool's server name, noted as read. */
static inline mv_str mv_inspect_server(const mv_inspect_ctx *ctx, const mv_tool *tool) {
    if (ctx != NULL && ctx->reads != NULL)
        *ctx->reads |= MV_READ_SERVER;
    return tool->server;
}

/* The registry (and ctx->tool_index with it), noted as read. */
static inline const mv_registry *mv_inspect_registry(const mv_inspect_ctx *ctx) {
    if (ctx->reads != NULL)
        *ctx->reads |= MV_READ_REGISTRY;
    return ctx->registry;
}

typedef struct mv_check {
    const char *id; /* stable, e.g. "unicode.hidden" */
    mv_tier tier;   /* the tier this check usually emits at */
    /* Optional. Once per engine. Return 0 or a negative MV_E* code; a
     * failure makes the engine record the check as failed for every scan. */
    int (*init)(const mv_allocator *a, void **engine_state);
    void (*fini)(const mv_allocator *a, void *engine_state);
    /* Optional. Once per registry scan, before any inspect. */
    int (*prepare)(void *engine_state, const mv_registry *r, const mv_allocator *a,
                   void **registry_state);
    void (*release)(const mv_allocator *a, void *registry_state);
    /* Required. Return 0, or a negative code: the engine then discards this
     * check's signals for the tool and records the failure. */
    int (*inspect)(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out);
} mv_check;

#ifdef __cplusplus
}
#endif
#endif
