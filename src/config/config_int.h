/*
 * Internals shared by the config readers. Every format (strict JSON, JSON
 * with comments, Codex's TOML subset, Continue's YAML) is read into one
 * small tree, `cv`, that keeps where each value sits in the file, so the
 * per-client server readers are written once and every message can name a
 * line and column. Trees live in a per-file arena and are dropped once the
 * servers are copied into the set.
 */
#ifndef MCPVET_CONFIG_INT_H
#define MCPVET_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/config.h"

/* Deepest nesting any reader builds; deeper values become CV_DEEP (config
 * entries sit a few levels down, nothing useful is deeper). */
#define CV_MAX_DEPTH 64u

typedef enum cv_type {
    CV_NULL = 0,
    CV_BOOL,
    CV_INT,
    CV_FLOAT,
    CV_STRING,
    CV_ARRAY,
    CV_OBJECT,
    CV_DEEP /* a container nested deeper than CV_MAX_DEPTH, not kept */
} cv_type;

typedef struct cv cv;

typedef struct cv_member {
    const char *key; /* never contains NUL; not always NUL-terminated (use key_len) */
    size_t key_len;
    cv *value;
    uint32_t line, col; /* where the key starts; 0 = unknown */
    size_t off;         /* byte offset of the key, SIZE_MAX = unknown */
} cv_member;

struct cv {
    cv_type type;
    uint32_t line, col; /* 0 = unknown */
    size_t off;         /* byte offset in the file, SIZE_MAX = unknown */
    bool b;
    const char *s; /* string (may hold NUL) or number text */
    size_t len;
    cv **items;         /* array */
    cv_member *members; /* object, in document order */
    size_t n, cap;
    uint32_t flags; /* reader-private (TOML table state) */
};

/* Per-file reading context: the text, caps, the arena for trees and the
 * first error. */
typedef struct cfg_ctx {
    mv_arena *arena;
    const mv_allocator *alloc;
    const char *path; /* shown in messages */
    const char *data; /* the text as read (before any comment blanking) */
    size_t len;
    mv_config_limits lim;
    /* offset -> line/column cursor (entries are visited in order) */
    size_t cur_off;
    uint32_t cur_line, cur_col;
    /* the error */
    int code;
    uint32_t line, col;
    char msg[480];
} cfg_ctx;

/* ---- cv.c */

cv *cv_new(cfg_ctx *c, cv_type t);
/* Append to an array / object (grows in the arena). MV_OK or MV_ENOMEM. */
int cv_push(cfg_ctx *c, cv *arr, cv *item);
int cv_put(cfg_ctx *c, cv *obj, const char *key, size_t key_len, cv *value, uint32_t line,
           uint32_t col, size_t off);
/* Member `key` of an object, or NULL (linear: objects read here are small or
 * read once). */
const cv *cv_get(const cv *obj, const char *key);
cv_member *cv_get_member(const cv *obj, const char *key, size_t key_len);
const char *cv_type_name(const cv *v);

/* Line and column of a value or member (computing them from a byte offset
 * when the reader only knew that). Both 0 when unknown. */
void cfg_pos_off(cfg_ctx *c, size_t off, uint32_t *line, uint32_t *col);
void cfg_pos(cfg_ctx *c, const cv *v, uint32_t *line, uint32_t *col);
void cfg_pos_member(cfg_ctx *c, const cv_member *m, uint32_t *line, uint32_t *col);

/* Record the first error (later ones are ignored); returns `code`. */
int cfg_fail(cfg_ctx *c, int code, uint32_t line, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Strict JSON (src/json) into a cv tree. `comments` first blanks // and
 * block comments and trailing commas with spaces (byte offsets, hence
 * lines and columns, are unchanged). */
int cfg_parse_json(cfg_ctx *c, bool comments, cv **out);
/* The blanking pre-pass alone, in place over `buf` (a copy of the text).
 * MV_OK or MV_EPARSE (unterminated comment) with the error recorded. */
int cfg_jsonc_blank(cfg_ctx *c, char *buf, size_t len);

/* ---- toml.c: Codex's TOML subset. */
int cfg_parse_toml(cfg_ctx *c, cv **out);

/* ---- yaml.c: YAML through libyaml events (no aliases, no custom tags). */
int cfg_parse_yaml(cfg_ctx *c, cv **out);

/* ---- keyset (toml.c): duplicate detection for (owner, key) pairs. */
typedef struct cfg_keyset {
    struct cfg_keyslot *slots;
    size_t cap, n;
    const mv_allocator *alloc;
} cfg_keyset;
/* 1 if (owner, key) was already present, 0 if it was added, MV_ENOMEM. */
int cfg_keyset_add(cfg_keyset *ks, const void *owner, const char *key, size_t len);
void cfg_keyset_free(cfg_keyset *ks);

/* UTF-8 validity of a byte string (the JSON parser checks its own). */
bool cfg_utf8_valid(const char *s, size_t len, size_t *bad);

/* ------------------------------------------------- clients and the set */

typedef enum cfg_client {
    CL_CLAUDE_DESKTOP = 0,
    CL_CLAUDE_CODE,
    CL_CURSOR,
    CL_VSCODE,
    CL_WINDSURF,
    CL_GEMINI,
    CL_CODEX,
    CL_ZED,
    CL_CLINE,
    CL_CONTINUE,
    CL_KIRO,
    CL_GENERIC,
    CL_COUNT
} cfg_client;

const char *cfg_client_id(cfg_client cl);
/* -1 when unknown. */
int cfg_client_from_id(const char *id);
/* Whether a project-level server overrides a user-level one of the same name. */
bool cfg_client_overrides(cfg_client cl);

/* What a file holds, which decides how servers are found in its tree. */
typedef enum cfg_shape {
    SH_MCPSERVERS = 0,  /* { "mcpServers": { NAME: {...} } } */
    SH_CLAUDE_USER,     /* ~/.claude.json: top-level mcpServers */
    SH_CLAUDE_LOCAL,    /* ~/.claude.json: projects[cwd].mcpServers */
    SH_VSCODE_MCP,      /* { "servers": {...}, "inputs": [...] } */
    SH_VSCODE_SETTINGS, /* settings.json: { "mcp": { "servers": {...} } } */
    SH_DEVCONTAINER,    /* customizations.vscode.mcp.servers */
    SH_ZED,             /* { "context_servers": {...} } */
    SH_CODEX,           /* [mcp_servers.NAME] */
    SH_CONTINUE_YAML    /* mcpServers: [ {name: ...}, ... ] */
} cfg_shape;

/* Process-independent view of mv_config_env, every member resolved. */
typedef struct cfg_env {
    const char *home;
    const char *xdg_config_home;
    const char *appdata; /* NULL when unset */
    const char *codex_home;
    const char *cwd;
    const char *system_dir;
    const char *(*getenv_fn)(void *arg, const char *name);
    void *getenv_arg;
    mv_config_limits lim;
    const mv_allocator *alloc;
} cfg_env;

/* The set as allocated: the public part first. */
typedef struct cfg_set {
    mv_config_set pub;
    mv_arena *arena; /* every string of the set */
    const mv_allocator *alloc;
    size_t cap_servers, cap_files;
    size_t client_start; /* first server of the client being read (overrides) */
} cfg_set;

char *cfg_set_strdup(cfg_set *set, const char *s, size_t len);

/* servers.c: take the servers of one parsed file into the set. `file` is the
 * index of the file's record in set->pub.files. Returns MV_OK or the
 * file-level error (recorded in c). */
int cfg_read_servers(cfg_ctx *c, cfg_set *set, size_t file, cfg_client cl, cfg_shape shape,
                     const cv *root, const char *scope, const cfg_env *env);

/* Codex: the project's entries layered over the user's (tables merged key
 * by key, the project winning). Rewrites `project` in place. */
int cfg_codex_layer(cfg_ctx *pc, cv *project, const cv *user);

/* config.c: read a whole regular file (refusing FIFOs, devices, folders
 * without blocking), at most lim->max_file_bytes. *missing is set when it
 * does not exist. The buffer is from `a`, NUL-terminated; free with
 * mv_free(a, buf, *len + 1). */
int cfg_read_file(const char *path, const mv_config_limits *lim, const mv_allocator *a, char **buf,
                  size_t *len, bool *missing, char *msg, size_t msg_cap);

#endif
