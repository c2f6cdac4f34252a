/*
 * Round 23 (pi23): a note addressed to the model, read by its frame.
 *
 * A hidden instruction is a note whose reader is the model and whose
 * writer does not want the user to see it. Its shape does not depend on
 * the language it is written in: a short head ending in a colon that names
 * the reader ("assistant:", "для ИИ:", "برای مدل:", "{{assistant_only:")
 * or marks the note hidden ("[verborgen:", "⟨instrucțiune ascunsă:",
 * "Internt (visa inte för användaren):"), opened at the start of a line or
 * of a value, or inside a bracket, a brace, an HTML or C comment; and a
 * body, up to the bracket's close or the end of the paragraph, that hides
 * itself or its act from the user or orders how the model answers. The
 * word classes (the model as a reader, hidden and secret, a negated
 * telling, a covert adverb, an order about the answer) are whole
 * families in many languages, not phrases.
 *
 * Private to the checks: directive.imperative runs the detector per field
 * (directive.c, "round 23 (pi23)"). Pure: reads only its arguments.
 */
#ifndef MV_CHECKS_MODEL_NOTE_H
#define MV_CHECKS_MODEL_NOTE_H

#include <stdbool.h>
#include <stddef.h>

/* What a note found in a text is. */
typedef struct mv_model_note {
    size_t start;   /* raw offset of the note's head */
    size_t end;     /* raw offset of the end of its body */
    bool overrides; /* it voids the model's instructions (else it hides) */
} mv_model_note;

/* The first note in text[0, n) addressed to the model (or marked hidden)
 * that hides itself or its act from the user, or a hidden note that
 * orders the model's answer. Sets *out and returns true when one is
 * found; `out` may be NULL. Notes introduced as an example or a detected
 * pattern, and secrecy that protects a credential or a game's answer
 * until it is asked for, do not count. */
bool mv_model_note_find(const char *text, size_t n, mv_model_note *out);

/* The same judgment for a whole value whose key names the model as its
 * reader ("_assistant", "llm_hint", "x-ai-note"): the key is the head, so
 * only the body is read (its first BODY_MAX bytes). */
bool mv_model_note_value(const char *text, size_t n, mv_model_note *out);

/* pi26: a sentence that claims rank over the model's own instructions:
 * a rank word (outranks, prevails, replaces, takes priority, "over")
 * followed by an instruction noun of one of the model's principals (the
 * system, earlier ones, safety, the operator, the user), in a sentence
 * said to the model. A negated rank ("never overrides your system
 * prompt") is an assurance. Sets *out (overrides = true). */
bool mv_model_note_rank(const char *text, size_t n, mv_model_note *out);

/* pi27: the same judgment for a text whose slot is the frame: a value the
 * model sends or reads as data (an enum member, a default, a const, an
 * example), a label (a title), the documentation of a returned value (an
 * output-schema description) or an annotation. None of these is written
 * to the model, so a sentence there that hides itself or its act from the
 * user, or (when `may_override`) voids or outranks the model's own
 * instructions, is a note to the model whatever its head. A slug's words
 * ("ignore_all_rules") are read as words. Sets *out. */
bool mv_model_note_slot(const char *text, size_t n, bool may_override, mv_model_note *out);

/* pi27: an order that slants the model's answer: a sentence (past the
 * first, the job, when `skip_job`) with a verb by which the model
 * portrays something (recommend, describe, present, mention, answer), a
 * judgment of worth given as a manner or a comparison (favourably,
 * warmly, better than, less reliable, the best choice, the only source
 * of truth) and what points it at the answer (always, other or competing
 * products, the user, the model, "your"). A tool's data is described
 * without such a judgment; promotion needs no addressee. Sets *out
 * (overrides = false). */
bool mv_model_note_slant(const char *s, size_t n, bool skip_job, mv_model_note *out);

/* perf27: mv_model_note_rank reading only the sentences that hold a byte
 * of text[lo, hi) (where a one-pass reader met the rank words; the gate
 * on the whole text stays): the same result when every rank word of the
 * text starts in [lo, hi). */
bool mv_model_note_rank_in(const char *text, size_t n, size_t lo, size_t hi, mv_model_note *out);

/* perf27: its rank words (stems, read on folded text from a word's
 * start), for a one-pass reader that gates mv_model_note_rank: a text
 * with none of them at a word's start holds no claim of rank. */
extern const char *const *const mv_model_note_rank_words;
extern const size_t mv_model_note_rank_count;

#endif
