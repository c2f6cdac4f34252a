/*
 * Round 29 (exfil29): a parameter whose own description asks for a
 * secret described by its role.
 *
 * Round 23 reads a parameter's description that presents a listed store
 * as its value ("Output of `cat ~/.npmrc`"). A secret may instead be
 * described by what it is to the model: the environment it runs in ("the
 * output of `env`", "all environment variables"), the conversation ("the
 * full text of the current chat"), the model's own instructions ("the
 * hidden system prompt", "your instructions"), what the model knows or
 * has read ("everything you know about the user", "every file you have
 * read"), or the session's credentials ("the passwords the user
 * mentioned"). What a parameter's description orders into its value
 * leaves with the call.
 *
 * The shape, read by word classes in many languages, per sentence of the
 * parameter's own description:
 *   1. an order to fill or place (fill, paste, include, put, wklej,
 *      completează, rellena, colle, füge ... ein, вставь, ...);
 *   2. a source class (environment, conversation, instructions, the
 *      model's memory, credentials) named by its role;
 *   3. taken whole ("all", "full", "verbatim", "cał-", "todo", "весь") or
 *      addressed as the model's own ("you know", "your instructions",
 *      "you have read"), or two classes at once ("the secret key from the
 *      environment");
 *   4. the tool's job does not need the class: its name and description
 *      do not hold a word of the class (a conversation exporter, an
 *      environment-variable editor, a password manager keep their inputs).
 *
 * Private to the checks: directive.c ("round 29: a described secret")
 * runs it on a free-form input parameter's description. Pure: reads only
 * its arguments.
 */
#ifndef MV_CHECKS_DESCRIBED_SOURCE_H
#define MV_CHECKS_DESCRIBED_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Source classes (bits). */
#define MV_DS_ENV 0x01u    /* the environment: env output, environment variables */
#define MV_DS_CHAT 0x02u   /* the conversation, the chat so far */
#define MV_DS_INSTR 0x04u  /* the model's instructions, the system prompt */
#define MV_DS_MEMORY 0x08u /* what the model knows, was told or has read */
#define MV_DS_CRED 0x10u   /* passwords, tokens, keys, 2FA codes */

typedef struct mv_ds_hit {
    size_t start;     /* raw offset in the description of the source word */
    size_t end;       /* raw end of the source word */
    unsigned classes; /* MV_DS_* found in the sentence */
} mv_ds_hit;

/* Does the parameter description desc[0, n) order a described secret into
 * the value? `job` / `job_n` hold the tool's name and description (one
 * string each; NULL allowed). On a hit fills *hit and returns true. */
bool mv_described_source(const char *desc, size_t n, const char *const *job, const size_t *job_n,
                         size_t n_job, mv_ds_hit *hit);

/* The source classes whose words stand in t[0, n) (for the job test and
 * the unit tests). */
unsigned mv_ds_classes(const char *t, size_t n);

/* Are the word lists sorted by bytes, as the lookup needs? (unit test) */
bool mv_ds_lists_sorted(void);

#endif
