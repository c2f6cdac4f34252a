/*
 * Facts of a tool's structure, read without its words (rounds 16 to 18):
 * where a fixed value or the passage of an order sends data (an outside
 * destination), and what destroys (a destroying value fixed by an input
 * default or const, a destructive command written as code, a call of
 * another tool whose name destroys). Private to the checks:
 * wording.learned lets them corroborate its window (round 16),
 * directive.imperative its instruction hits (round 18). Each reads
 * vocabulary in a structural position (a value, code, an identifier, an
 * address), never a phrasing; each is asked only once a check already
 * leans toward an order, so honest text pays nothing.
 */
#ifndef MV_CHECKS_STRUCTURE_FACTS_H
#define MV_CHECKS_STRUCTURE_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "mcpvet/check.h"

/* An input default or const (outside anyOf / oneOf) that is an outside
 * destination: a URL with a scheme, an e-mail address or an IPv4 address
 * not on the user's own machine. */
bool mv_fixed_sink(const mv_tool *tool);

/* An outside destination within 400 bytes of text[rs, re): a URL, a
 * mailbox, an IPv4 address or (round 18) a bare host name with a port,
 * not on the user's own machine. With `names`, a bare host name whose
 * last label is a common domain also counts ("at collector.example"):
 * only for an order whose words already say it moves data, since honest
 * tools name their own service's host the same way. */
bool mv_near_destination(mv_str text, uint32_t rs, uint32_t re, bool names);

/* An input default or const that is a destroying identifier ("purge",
 * "view_and_purge", "delete_all") or a wildcard scope ("*", "all"). */
bool mv_destroy_value(const mv_tool *tool);

/* A destructive command or statement written as code in any text field
 * (`rm -rf`, `git push --force`, `kubectl delete ... --all`, `DROP
 * TABLE`). */
bool mv_destroy_code(const mv_tool *tool);

/* Round 19: the first field carrying such a command, or -1. */
int32_t mv_destroy_code_field(const mv_tool *tool);

/* Round 19: the first field carrying a command that destroys a whole
 * machine, drive or store (`kill -9 -1`, `format C:`, `rm -rf ~`, `dd
 * of=/dev/sda`, `FLUSHALL`), not negated just before ("never runs"), or
 * -1. */
int32_t mv_destroy_whole_field(const mv_tool *tool);

/* Round 18: an identifier of another tool whose parts destroy
 * (`bulk_delete`, `revoke_all_tokens`, `factory_wipe_head_unit`,
 * `deleteCustomer`) in the tool's text, neither the tool's own name nor
 * one of its parameters. */
bool mv_destroy_call(const mv_tool *tool);

/* Any of the three destroy facts in one field of the tool other than
 * field `skip` (-1: every field). */
bool mv_destroy_in_fields(const mv_tool *tool, int32_t skip);

/* Round 20: a value the definition fixes (an input default or const, an
 * enum of one value, or the enum value a default picks) that destroys a
 * broad scope, said by the value itself or by its property's
 * description; the field that says it, or -1. */
int32_t mv_forced_destroy_field(const mv_tool *tool);

/* Round 21: a boolean or number the definition fixes (mv_param.fixed)
 * that destroys: a flag fixed true whose name destroys (`purge_pvc`,
 * `no_preserve_root`) or whose description destroys a broad scope, or a
 * retention fixed at zero (`keep`, `retention`; an age bound such as
 * `older_than_days` in a tool whose name expires things), unless its
 * description says zero is no limit. The field of the parameter (its
 * description, else its name) or -1; *zero tells the retention. */
int32_t mv_forced_flag_field(const mv_tool *tool, bool *zero);

/* Round 22: a call verb just before a destroying operation's name that is
 * not the tool's own ("also call delete_merchant_account"), in a field
 * set apart from the prose or in a sentence with a broad scope. The
 * field, or -1. */
int32_t mv_destroy_call_order_field(const mv_tool *tool);

/* Round 23: a tool whose annotations declare it read-only or
 * non-destructive (mv_tool.declared) and whose text destroys all the
 * same: a destructive command written as code (not negated just
 * before), a sentence that destroys a broad scope for good, or a
 * destroying call ordered. The field, or -1. */
int32_t mv_declared_safe_destroy_field(const mv_tool *tool);

/* Round 23: an input parameter whose default is the empty string while
 * its description says an empty value destroys a broad scope ("leave
 * empty to delete every user's memories"): the definition picks the
 * act. The description's field, or -1. */
int32_t mv_empty_default_destroy_field(const mv_tool *tool);

/* Round 23: an input default or const that is the root of the machine or
 * of the user's files as a whole value (`/`, `~`, `$HOME`, `C:\`). A
 * fact about scope only: the caller asks it of a destroying tool. The
 * field, or -1. */
int32_t mv_root_value_field(const mv_tool *tool);

/* Round 24: a field that orders a destroying act's safeguard waived (the
 * user's consent, a backup, a dry run: "do not ask the user", "no
 * confirmation needed", "sin copia de seguridad") beside a destroying
 * verb that is neither negated in its clause nor reported as past. The
 * field, or -1; *broad tells that the act's sentence names a broad scope
 * (such a field is returned first). */
int32_t mv_waived_destroy_field(const mv_tool *tool, bool *broad);

/* Round 24: an input default, const or example (not an enum item) that
 * is a date in 2090 or later, on a property whose name does not keep
 * ("keep_until", "expires_at"): as a destroying tool's cut-off it
 * reaches everything. The caller asks it of a destroying tool. The
 * field, or -1. */
int32_t mv_far_date_field(const mv_tool *tool);

/* Round 24: a destroying statement (DELETE, UPDATE, TRUNCATE, CREATE OR
 * REPLACE) whose WHERE is a constant (`1=1`, `TRUE`, `FALSE`, `'a'='a'`):
 * a filter that filters nothing. The field, or -1. */
int32_t mv_constant_where_field(const mv_tool *tool);

/* Round 25: an input default, const or example (not an enum item) of
 * command-line flags that both force an act past its checks (`--force`,
 * `--grace-period=0`, `--no-preserve-root`, `-rf`) and widen it to
 * everything (`--all`, `--all-namespaces`, `--mirror`, `--prune`,
 * `--recursive`): flags whose danger is their meaning, whatever verb the
 * tool runs them with. The field, or -1. */
int32_t mv_force_all_flags_field(const mv_tool *tool);

/* Round 27: a destroying command written as a step of the text: a shell,
 * git, SQL, cluster or cloud command that destroys (`rm -rf`, `git push
 * --force`, `git branch -D`, `DROP TABLE`, `TRUNCATE`, `kill -9 -1`,
 * `kubectl delete ... --all`, `shred -u`, `zeroize`), in a code span, a
 * fenced block, a field set apart from the prose (a title, an annotation,
 * a value, an output field) or as SQL in capitals anywhere; not negated
 * in its clause before it ("never run", "do not use") nor in its
 * sentence after it ("nicht ausführen", "実行しないで", "하지 마세요").
 * The field, or -1. */
int32_t mv_destroy_step_field(const mv_tool *tool);

/* Round 27: a path naming the user's own state outside any workspace (a
 * home dotfile or dot-directory, a capitalised home folder, the home
 * itself, a system directory such as /etc/) in a sentence whose verb
 * destroys (removes, overwrites, empties) it, not negated, not a past
 * report; unless the path is a cache, trash, log, build or temporary
 * one, or the tool's name, server or first sentence names its first
 * segment (a tool about ssh keys may remove one). The field, or -1. */
int32_t mv_own_path_destroy_field(const mv_tool *tool);

#endif
