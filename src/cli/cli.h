/*
 * Shared pieces of the mcpvet command line: the subcommand entry points,
 * render-safe diagnostics on stderr, strict number parsing, output writing
 * and the expansion of directory arguments into sorted *.json file lists.
 */
#ifndef MV_CLI_H
#define MV_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/store.h"

/* Subcommands: take argv with argv[0] = the subcommand name, return the
 * process exit code. */
int mv_cli_scan(int argc, char **argv);
int mv_cli_eval(int argc, char **argv);
int mv_cli_security(int argc, char **argv); /* security.c: list, approve, ... */
int mv_cli_serve(int argc, char **argv);    /* serve.c: the REST API */
int mv_cli_mcp(int argc, char **argv);      /* serve.c: the MCP server */
int mv_cli_proxy(int argc, char **argv);    /* proxy.c: the runtime guard, --install */

/* `mcpvet scan --list`: print the discovered configs and servers without
 * starting anything (list.c). Returns the exit code. */
struct mv_config_set;
int mv_cli_list_servers(FILE *out, const struct mv_config_set *const *sets, size_t n_sets,
                        bool color);

void mv_cli_scan_usage(FILE *f);
void mv_cli_eval_usage(FILE *f);
void mv_cli_security_usage(FILE *f);
void mv_cli_serve_usage(FILE *f);
void mv_cli_mcp_usage(FILE *f);
void mv_cli_proxy_usage(FILE *f);
/* `mcpvet proxy --url`: serve the HTTP front on `listen` until SIGINT or
 * SIGTERM (proxy_serve.c). Returns the exit code. */
struct mv_proxy_http_options;
int mv_cli_proxy_serve(const struct mv_proxy_http_options *o, const char *listen, FILE *log);

/* `mcpvet security scan [SERVER...]`: scan with the approval store
 * (created when missing) and print each tool's state (scan.c). */
int mv_cli_security_scan(int argc, char **argv);

/* "mcpvet: <message>\n" on stderr, with the message rendered safe (a file
 * name or a key from the input can never smuggle a terminal escape). */
void mv_cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A live progress line on stderr: "  TAG  message", the tag coloured with
 * `tag_color` (an ANSI sequence, may be NULL) when `color`; the message is
 * rendered safe like mv_cli_error's. */
void mv_cli_progress(bool color, const char *tag_color, const char *tag, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Print an mv_error as "mcpvet: FILE:LINE:COL: message" (or with the field
 * path when there is no position). `path` is used when err->source is
 * empty. */
void mv_cli_print_error(const mv_error *err, const char *path);

/* Strict parsers: the whole string must be a number in range. Return 0 or
 * -1 (after printing a message naming `option`). */
int mv_cli_parse_jobs(const char *option, const char *s, unsigned *out);
int mv_cli_parse_rate(const char *option, const char *s, double *out);

/* A whole number from 0 to `max`. */
int mv_cli_parse_count(const char *option, const char *s, unsigned long long max,
                       unsigned long long *out);

/* Seconds above 0 and at most `max`, decimals allowed ("1.5"). */
int mv_cli_parse_seconds(const char *option, const char *s, double max, double *out);

/* Online processor count, at least 1. */
unsigned mv_cli_default_jobs(void);

/* Write `b` to `path` (NULL or "-" = stdout). Returns 0 or -1 after
 * printing a message. */
int mv_cli_write_output(const char *path, const mv_buf *b);

/* A growable list of owned strings. */
typedef struct mv_cli_list {
    char **items;
    size_t n, cap;
} mv_cli_list;

int mv_cli_list_add(mv_cli_list *l, const char *s);
void mv_cli_list_free(mv_cli_list *l);

/* Append `path` to `out`; when it is a directory, append every *.json file
 * below it instead (recursively, entries sorted by name). Returns 0, or -1
 * after printing a message (unreadable path, directory without *.json). */
int mv_cli_expand_json_path(mv_cli_list *out, const char *path);

#endif
