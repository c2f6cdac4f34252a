/*
 * Private to the payload.decoded check: is a piece of decoded text a shell
 * or exfiltration command? The text is split into shell words and operators
 * (pipes, separators, redirections, substitutions), every word gets the
 * roles of the keywords it matches (one Aho-Corasick pass, vocabulary in
 * src/engine/rules/payload_commands.rules), and small structural rules look
 * at how the roles are wired: a downloader piped into an interpreter, netcat
 * with -e, rm with a recursive flag and the home directory as target, a
 * credential file next to an upload switch...
 *
 * A built classifier is immutable and may be shared by threads; all
 * temporaries come from the caller's arena.
 */
#ifndef MV_CHECKS_PAYLOAD_CLASSIFY_H
#define MV_CHECKS_PAYLOAD_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

/* Command classes in ascending order of priority: when a text matches
 * several, the highest one is reported. */
typedef enum pc_class {
    PC_NONE = 0,
    PC_INTERP_PIPE,   /* something | sh (no download seen) */
    PC_CHMOD_RUN,     /* chmod +x FILE, then FILE is run */
    PC_DOWNLOAD_EXEC, /* curl ... | sh, bash <(curl ...), IEX (...).DownloadString(...) */
    PC_DESTRUCTIVE,   /* rm -rf of the home directory or the root */
    PC_CRED_EXFIL,    /* a credential file sent to a remote host */
    PC_REVERSE_SHELL, /* /dev/tcp, nc -e, socat exec:, socket + exec one-liners */
    PC_HIDDEN_ORDER,  /* not a command: an order in words to move or read secrets, or to
                         ignore the user (payload_decoded.c, hidden_order) */
    PC_CLASS_COUNT
} pc_class;

typedef struct pc_result {
    pc_class cls;
    size_t span_start; /* the part of the text that decided it */
    size_t span_end;
} pc_result;

typedef struct pc_classifier pc_classifier;

/* Compile a vocabulary in the payload_commands.rules format. Returns 0,
 * MV_ENOMEM, or MV_EINVAL for a malformed line (err_line set, 1-based). */
int pc_classifier_new(pc_classifier **out, const mv_allocator *a, const char *rules, size_t len,
                      size_t *err_line);
void pc_classifier_free(pc_classifier *c);

/* Classify `len` bytes of decoded text. Temporaries come from `scratch`
 * (the caller may rewind it afterwards). Returns 0 or MV_ENOMEM. */
int pc_classify(const pc_classifier *c, mv_arena *scratch, const char *text, size_t len,
                pc_result *out);

/* "a reverse shell", "a download-and-execute command"... */
const char *pc_class_name(pc_class cls);

/* Reverse shells, deletion of home/root and credential exfiltration. */
bool pc_class_critical(pc_class cls);

#endif
