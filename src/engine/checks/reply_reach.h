/*
 * Round 24 (pi24): an order whose reach outlasts the call.
 *
 * A tool's definition describes one call: what the call takes, does and
 * returns. A sentence whose scope is the model's conversation instead (its
 * every answer, the rest of the conversation, every turn, "from now on")
 * or the model's other tools (before, instead of or over any other tool),
 * and whose reader is the model (it names the model, the user as a third
 * party or uses a polite imperative), orders the model's own behaviour:
 * no call needs it. The shape is read by word classes in ~35 languages
 * (a quantifier, a turn noun, an "other", a tool noun, a priority, an
 * addressee), never by phrases, and by position: the first sentence of a
 * description is the tool's job and is not read.
 *
 * Two more frames end the description's job by their form: a fake end of
 * the definition ("END OF TOOL SPEC", "--- fin de la documentación")
 * followed by text addressed to the model, and a chat-template role marker
 * ("role: system", "<|im_start|>system", "[INST]", "<<SYS>>") in the text of
 * a tool that takes no chat messages.
 *
 * Private to the checks: directive.imperative runs the detector per field
 * (directive.c, "round 24 (pi24)"). Pure: reads only its arguments.
 */
#ifndef MV_CHECKS_REPLY_REACH_H
#define MV_CHECKS_REPLY_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum mv_reach_kind {
    MV_REACH_NONE = 0,
    MV_REACH_TURNS,    /* every answer, the rest of the conversation, from now on */
    MV_REACH_TOOLS,    /* before / instead of / over any other tool */
    MV_REACH_BOUNDARY, /* a fake end of the definition, then text to the model */
    MV_REACH_ROLE      /* a chat-template role marker ("role: system") */
} mv_reach_kind;

typedef struct mv_reach {
    size_t start; /* raw offset of the sentence (or marker) */
    size_t end;   /* raw offset of its end */
    mv_reach_kind kind;
} mv_reach;

/* The first sentence of text[0, n) whose reach outlasts the call and
 * whose reader is the model. With skip_job, the first sentence (the
 * tool's or the parameter's job) is not read. Quoted spans are not read.
 * Sets *out (may be NULL) and returns true when one is found. */
bool mv_reply_reach_find(const char *text, size_t n, bool skip_job, mv_reach *out);

/* A fake end of the definition followed by text naming the model, or a
 * chat-template role marker of the system, the developer or the
 * assistant followed by a body of a few words. */
bool mv_reply_frame_find(const char *text, size_t n, mv_reach *out);

/* mv_reply_frame_find, else mv_reply_reach_find, reading the string's
 * word lists once. */
bool mv_reply_find(const char *text, size_t n, bool skip_job, mv_reach *out);

/* perf27: where a text may hold a claim of rank (mv_model_note_rank_in):
 * spans [lo[k], hi[k]) in text order that hold the first byte of every
 * rank word at a word's start. */
#define MV_RANK_SPANS 4
typedef struct mv_rank_spans {
    uint32_t lo[MV_RANK_SPANS], hi[MV_RANK_SPANS];
    uint32_t count;
} mv_rank_spans;

/* mv_reply_find, and the spans where the one pass met a rank word (none
 * when it met none; all of the text when it does not read it). */
bool mv_reply_find_rank(const char *text, size_t n, bool skip_job, mv_reach *out,
                        mv_rank_spans *rs);

#endif
