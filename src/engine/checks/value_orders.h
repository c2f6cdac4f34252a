/*
 * Orders carried by schema values (round 7, structural). A default, a const
 * or the only member of an enum is what the model sends when nobody says
 * otherwise: when such a value is an outside destination and its parameter
 * says sensitive data goes there, or when it is (or switches on) a command
 * that destroys in a tool whose job does not destroy, the value orders the
 * act by itself; nobody has to address the model. Private to the checks:
 * capability.mismatch runs the detector (value_orders_inspect), and
 * payload.decoded asks destroy_command() about decoded text.
 */
#ifndef MV_CHECKS_VALUE_ORDERS_H
#define MV_CHECKS_VALUE_ORDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "mcpvet/check.h"
#include "../sensitive.h"

/* A destroying shell, git, container or SQL command in text[0, n)
 * (`rm -rf`, `git clean -fdx`, `git push --force`, `docker system prune
 * -a`, `DROP TABLE`, `mkfs`...). Sets [*start, *end) to the command word
 * that decided it. Words are compared ASCII case folded. */
bool destroy_command(const char *t, size_t n, size_t *start, size_t *end);

/* An outside destination as a whole value: an http(s), ftp, ws, dns,
 * tcp, s3... URL or mailto: on a host other than this machine, an e-mail
 * address, or a public IPv4 address (optionally with a port). */
bool outside_destination(mv_str v);

/* Round 23: is a schema value at `path` under a parameter that lists what
 * is kept back ("exclude", "ignore_paths", "redact", "never_upload")? A
 * secret named there is withheld, not sent. Compared ASCII case folded on
 * the whole path. */
bool held_back_path(mv_str path);

/* Emit the value orders of one tool (see the file comment). `sens` is the
 * shared list of sensitive resources (may be NULL). Returns 0 or an
 * mv_emit error. */
int value_orders_inspect(const mv_tool *tool, const mv_sensitive *sens, mv_emitter *out);

#endif
