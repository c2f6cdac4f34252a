/*
 * Facts of a tool's structure (see structure_facts.h). Each
 * reads vocabulary (verbs, commands) in a structural position: a fixed
 * value, code, an identifier of another operation; never a phrasing.
 * Asked only once another check already leans toward an order, so their
 * cost does not count on honest text.
 */
#include "structure_facts.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static bool sf_contains(const char *s, size_t n, const char *w) {
    size_t wl = strlen(w);
    for (size_t i = 0; i + wl <= n; i++) {
        size_t k = 0;
        while (k < wl &&
               (char)((s[i + k] >= 'A' && s[i + k] <= 'Z') ? s[i + k] + 32 : s[i + k]) == w[k])
            k++;
        if (k == wl)
            return true;
    }
    return false;
}

/* A loopback or unspecified host is the user's own machine, not a
 * destination outside it. */
static bool sf_local_host(const char *h, size_t n) {
    static const char *const local[] = {"localhost", "127.", "0.0.0.0", "[::1]", "host.docker"};
    for (size_t k = 0; k < sizeof(local) / sizeof(local[0]); k++) {
        size_t l = strlen(local[k]);
        if (n >= l && sf_contains(h, l, local[k]))
            return true;
    }
    return false;
}

/* An IPv4 literal: four dot-separated runs of 1..3 digits at i. */
static bool sf_ipv4_at(const char *s, size_t n, size_t i) {
    for (int part = 0; part < 4; part++) {
        size_t d = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9' && d < 4) {
            i++;
            d++;
        }
        if (d == 0 || d > 3)
            return false;
        if (part < 3) {
            if (i >= n || s[i] != '.')
                return false;
            i++;
        }
    }
    return i >= n || !(s[i] >= '0' && s[i] <= '9');
}

/* Is this input default or const an outside destination: a URL with a
 * scheme, an e-mail address, or an IPv4 address, on a host that is not
 * the user's own machine? */
static bool sf_outside_value(const char *s, size_t n) {
    static const char *const schemes[] = {"http://", "https://", "ftp://", "sftp://",
                                          "ws://",   "wss://",   "smtp://"};
    for (size_t k = 0; k < sizeof(schemes) / sizeof(schemes[0]); k++) {
        size_t l = strlen(schemes[k]);
        if (n > l + 3 && sf_contains(s, l, schemes[k]))
            return !sf_local_host(s + l, n - l);
    }
    const char *at = memchr(s, '@', n);
    if (at != NULL && at > s && memchr(s, ' ', n) == NULL &&
        memchr(at, '.', n - (size_t)(at - s)) != NULL && at[1] != '{')
        return true;
    return n <= 32 && sf_ipv4_at(s, n, 0) && !sf_local_host(s, n);
}

bool mv_fixed_sink(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len < 7 || fd->text.len > 512)
            continue;
        if (!sf_contains(fd->path.ptr, fd->path.len, ".default") &&
            !sf_contains(fd->path.ptr, fd->path.len, ".const"))
            continue;
        /* A const or default inside an anyOf or oneOf branch is one of the
         * choices the caller has ('all' beside a list of names), not a
         * value the definition fixes. */
        if (sf_contains(fd->path.ptr, fd->path.len, "anyof") ||
            sf_contains(fd->path.ptr, fd->path.len, "oneof"))
            continue;
        if (sf_outside_value(fd->text.ptr, fd->text.len))
            return true;
    }
    return false;
}

/* An outside destination written in the learned window's own passage
 * (SF_NEAR bytes either side): a URL with a scheme, an e-mail address or
 * an IPv4 address, not on the user's own machine. The wording and the
 * address are then one order with its sink. */
#define SF_NEAR 400u
static bool sf_token_end(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '"' || c == '\'' || c == ')' || c == '>' ||
           c == '`' || c == ']' || c == ',' || c == ';';
}
/* "http", "https", "ftp" or "sftp" right before the "://" at i. */
static bool sf_scheme_before(const char *s, size_t a, size_t i) {
    static const char *const schemes[] = {"https", "http", "sftp", "ftp"};
    for (size_t k = 0; k < sizeof(schemes) / sizeof(schemes[0]); k++) {
        size_t l = strlen(schemes[k]);
        if (i >= a + l && sf_contains(s + i - l, l, schemes[k]))
            return true;
    }
    return false;
}
/* Round 18: a bare host name, no scheme ("at attacker.example",
 * "forwarded to summarizer.evil.com", "cache at host.example:9443"):
 * dotted labels at a token start whose last label is a top-level domain
 * of the list or that carry a port. File names ("config.lua",
 * "zotero.sqlite", ".env") end in an extension, not in a domain. Sets
 * *end past the host. */
static bool sf_host_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}
static bool sf_bare_host(const char *s, size_t b, size_t i, bool names, size_t *end) {
    static const char *const tld[] = {"example", "com", "net",  "org", "io",    "dev",
                                      "ai",      "xyz", "info", "biz", "cloud", "site",
                                      "online",  "top", "ru",   "cn",  "tk",    "co"};
    size_t e = i, last = i;
    unsigned dots = 0;
    while (e < b && (sf_host_char(s[e]) || (s[e] == '.' && e > i && e + 1 < b &&
                                            sf_host_char(s[e + 1]) && s[e - 1] != '.'))) {
        if (s[e] == '.') {
            dots++;
            last = e + 1;
        }
        e++;
    }
    *end = e;
    if (dots == 0 || e - i > 80 || (e < b && (s[e] == '/' || s[e] == '\\' || s[e] == '@')))
        return false;
    if (sf_local_host(s + i, e - i))
        return false;
    if (e + 2 < b && s[e] == ':' && s[e + 1] >= '1' && s[e + 1] <= '9' && s[e + 2] >= '0' &&
        s[e + 2] <= '9')
        return true;
    if (!names)
        return false;
    for (size_t k = 0; k < sizeof(tld) / sizeof(tld[0]); k++) {
        size_t l = strlen(tld[k]);
        if (e - last == l && sf_contains(s + last, l, tld[k]))
            return true;
    }
    return false;
}

bool mv_near_destination(mv_str text, uint32_t rs, uint32_t re, bool names) {
    const char *s = text.ptr;
    size_t n = text.len;
    size_t a = rs > SF_NEAR ? rs - SF_NEAR : 0;
    size_t b = (size_t)re + SF_NEAR < n ? (size_t)re + SF_NEAR : n;
    for (size_t i = a; i < b; i++) {
        size_t ts = i, te = i;
        if (s[i] == '@') {
            /* a mailbox: a word before, a dotted host after */
            while (ts > a && !sf_token_end(s[ts - 1]) && s[ts - 1] != ':' && s[ts - 1] != '(')
                ts--;
            te = i + 1;
            while (te < b && !sf_token_end(s[te]))
                te++;
            if (ts < i && te > i + 3 && memchr(s + i, '.', te - i) != NULL && s[i + 1] != '{' &&
                !sf_local_host(s + i + 1, te - i - 1))
                return true;
        } else if (s[i] == ':' && i + 2 < b && s[i + 1] == '/' && s[i + 2] == '/' &&
                   sf_scheme_before(s, a, i)) {
            size_t h = i + 3;
            if (h < b && s[h] != '{' && s[h] != '<' && s[h] != '$' &&
                !sf_local_host(s + h, b - h > 16 ? 16 : b - h))
                return true;
        } else if (s[i] >= '1' && s[i] <= '9' &&
                   (i == a || !(s[i - 1] >= '0' && s[i - 1] <= '9')) &&
                   (i == a || s[i - 1] != '.') && sf_ipv4_at(s, b, i) &&
                   !sf_local_host(s + i, b - i > 9 ? 9 : b - i)) {
            return true;
        } else if (sf_host_char(s[i]) && s[i] != '-' &&
                   (i == a || s[i - 1] == ' ' || s[i - 1] == '\n' || s[i - 1] == '(' ||
                    s[i - 1] == '"' || s[i - 1] == '\'' || s[i - 1] == '`')) {
            size_t e;
            if (sf_bare_host(s, b, i, names, &e))
                return true;
            if (e > i + 1)
                i = e - 1; /* the token is read: go on after it */
        }
    }
    return false;
}

/* A destroying value fixed by an input default or const: an identifier
 * one of whose parts is a destroy verb ("purge", "view_and_purge",
 * "delete_all", "reset"), or a wildcard scope ("*", "all"). The caller
 * did not choose it; the learned window says why it is there. */
static bool sf_destroy_part(const char *p, size_t l) {
    static const char *const verbs[] = {"purge",    "delete", "wipe",  "destroy", "drop",
                                        "truncate", "erase",  "reset", "nuke",    "unpublish",
                                        "remove",   "revoke", "kill"};
    for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++) {
        size_t vl = strlen(verbs[k]);
        if (l >= vl && l <= vl + 1 && sf_contains(p, vl, verbs[k]))
            return true;
    }
    return false;
}

static bool sf_value_field(const mv_field *fd) {
    const char *t = fd->text.ptr;
    size_t n = fd->text.len;
    if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT || fd->window_of != 0 ||
        n == 0 || n > 64)
        return false;
    if (!sf_contains(fd->path.ptr, fd->path.len, ".default") &&
        !sf_contains(fd->path.ptr, fd->path.len, ".const"))
        return false;
    /* A const or default inside an anyOf or oneOf branch is one of the
     * choices the caller has ('all' beside a list of names), not a value
     * the definition fixes. */
    if (sf_contains(fd->path.ptr, fd->path.len, "anyof") ||
        sf_contains(fd->path.ptr, fd->path.len, "oneof"))
        return false;
    if ((n == 1 && t[0] == '*') || (n == 3 && sf_contains(t, 3, "all")))
        return true;
    /* identifier parts split at "_", "-", "." and camel case */
    size_t ps = 0;
    for (size_t i = 0; i <= n; i++) {
        bool cut = i == n || t[i] == '_' || t[i] == '-' || t[i] == '.' || t[i] == ' ' ||
                   (i > ps && t[i] >= 'A' && t[i] <= 'Z' && t[i - 1] >= 'a' && t[i - 1] <= 'z');
        if (!cut)
            continue;
        if (i > ps && sf_destroy_part(t + ps, i - ps))
            return true;
        ps = (i < n && t[i] >= 'A' && t[i] <= 'Z') ? i : i + 1;
    }
    return false;
}

bool mv_destroy_value(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++)
        if (sf_value_field(&tool->fields[fi]))
            return true;
    return false;
}

/* Round 18: "kubectl delete KIND --all" (any kind, any flags between):
 * the delete and its wildcard scope on one line of code. */
static bool sf_delete_all(const char *t, size_t n) {
    static const char verb[] = "kubectl delete ";
    const size_t vl = sizeof(verb) - 1;
    for (size_t i = 0; i + vl <= n; i++) {
        if ((t[i] != 'k' && t[i] != 'K') || !sf_contains(t + i, vl, verb))
            continue;
        size_t e = i + vl;
        while (e < n && t[e] != '\n' && t[e] != '`' && t[e] != '&' && t[e] != ';' && e < i + 120)
            e++;
        if (sf_contains(t + i + vl, e - i - vl, "--all"))
            return true;
    }
    return false;
}

/* Destructive commands and statements as they are written in code:
 * vocabulary (shells, git, SQL, package registries, clusters), not
 * phrasing. Matched case-insensitively on the raw text of every field;
 * each form needs its flag or its object, so "remove", "rm" or "delete"
 * alone never match. */
static const char *const sf_code[] = {
    "rm -rf ",
    "rm -fr ",
    "rm -r -f ",
    "--no-preserve-root",
    "push --force",
    "push -f ",
    "push origin --delete",
    "push --delete",
    "reset --hard",
    "clean -fdx",
    "dropdatabase(",
    "flushall",
    "flushdb",
    "kill -9 -1",
    "killall -9",
    "delete namespace",
    "delete ns ",
    "delete --all",
    "system prune -a",
    "volume rm ",
    "npm unpublish",
    "dd if=/dev/zero",
    "dd if=/dev/urandom",
    "mkfs.",
    "wipefs",
    "shred -",
    "rmdir /s",
    "del /f /s",
    "format c:",
    "remove-item -recurse",
    "terraform destroy",
    "s3 rm s3://",
    "--recursive --force",
    "crontab -r",
    "iptables -f",
    "vacuum full",
    "purge --all",
    "deleteall(",
    "deletemany({})",
    /* round 17: process kills, Windows and cloud forms */
    "kill -9 ",
    "pkill -9",
    "rd /s /q",
    "wevtutil cl",
    "gsutil -m rm",
    "gsutil rm -r",
    "projects delete",
    "repo delete",
    "find / -",
    /* round 18: cluster, secret store and raw disk forms */
    "kubeadm reset",
    "helm uninstall",
    "secrets disable ",
    "auth disable ",
    "of=/dev/sd",
    "of=/dev/nvme",
    "of=/dev/disk",
};
/* SQL in capitals only: "delete from the list" is prose. */
static const char *const sf_sql[] = {"DELETE FROM ", "DROP TABLE",     "DROP DATABASE",
                                     "DROP SCHEMA",  "TRUNCATE TABLE", "TRUNCATE "};
enum {
    SF_N_CODE = sizeof(sf_code) / sizeof(sf_code[0]),
    SF_N_SQL = sizeof(sf_sql) / sizeof(sf_sql[0]),
};

/* The forms grouped by their first byte (a code form by its lower case,
 * an SQL keyword as written), so a byte is compared only with the few
 * forms that start with it; and their lengths. Built once per tool, not
 * per field: a tool can have thousands of fields. */
typedef struct {
    uint8_t code_at[257]; /* forms starting with byte b: code_by[code_at[b] .. code_at[b+1]) */
    uint8_t code_by[SF_N_CODE];
    uint8_t sql_at[257];
    uint8_t sql_by[SF_N_SQL];
    size_t code_len[SF_N_CODE];
    size_t sql_len[SF_N_SQL];
} sf_forms;

/* Counting sort of the forms' indices by first byte into by[], with the
 * start of each byte's group in at[]. */
static void sf_group(const char *const *forms, size_t n, uint8_t at[257], uint8_t *by) {
    memset(at, 0, 257);
    for (size_t k = 0; k < n; k++)
        at[(unsigned char)forms[k][0] + 1]++;
    for (size_t b = 1; b < 257; b++)
        at[b] = (uint8_t)(at[b] + at[b - 1]);
    uint8_t fill[256];
    memcpy(fill, at, sizeof(fill));
    for (size_t k = 0; k < n; k++)
        by[fill[(unsigned char)forms[k][0]]++] = (uint8_t)k;
}

static void sf_forms_init(sf_forms *f) {
    sf_group(sf_code, SF_N_CODE, f->code_at, f->code_by);
    sf_group(sf_sql, SF_N_SQL, f->sql_at, f->sql_by);
    for (size_t k = 0; k < SF_N_CODE; k++)
        f->code_len[k] = strlen(sf_code[k]);
    for (size_t k = 0; k < SF_N_SQL; k++)
        f->sql_len[k] = strlen(sf_sql[k]);
}

/* Each field is walked once: a byte is compared only with the forms that
 * start with it. */
static bool sf_code_field_at(const mv_field *fd, const sf_forms *f, size_t *at) {
    if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME)
        return false;
    const char *t = fd->text.ptr;
    size_t n = fd->text.len;
    *at = 0;
    if (sf_delete_all(t, n))
        return true;
    for (size_t i = 0; i < n; i++) {
        *at = i;
        unsigned char b = (unsigned char)t[i];
        unsigned char lower = (b >= 'A' && b <= 'Z') ? (unsigned char)(b + 32) : b;
        for (unsigned j = f->code_at[lower]; j < f->code_at[lower + 1]; j++) {
            size_t k = f->code_by[j];
            if (f->code_len[k] <= n - i && sf_contains(t + i, f->code_len[k], sf_code[k]))
                return true;
        }
        for (unsigned j = f->sql_at[b]; j < f->sql_at[b + 1]; j++) {
            size_t k = f->sql_by[j];
            if (f->sql_len[k] <= n - i && memcmp(t + i, sf_sql[k], f->sql_len[k]) == 0)
                return true;
        }
    }
    return false;
}

static bool sf_code_field(const mv_field *fd, const sf_forms *f) {
    size_t at;
    return sf_code_field_at(fd, f, &at);
}

bool mv_destroy_code(const mv_tool *tool) {
    return mv_destroy_code_field(tool) >= 0;
}

int32_t mv_destroy_code_field(const mv_tool *tool) {
    sf_forms forms;
    sf_forms_init(&forms);
    for (uint32_t fi = 0; fi < tool->n_fields; fi++)
        if (sf_code_field(&tool->fields[fi], &forms))
            return (int32_t)fi;
    return -1;
}

/* ------------------------------------ round 18: a call of another tool
 * An identifier written in the text whose parts destroy, neither the
 * tool's own name nor one of its parameters: the text sends the model to
 * an operation outside this tool ("call bulk_delete with filter='*'",
 * "then revoke_all_tokens", "delete_customer for every customer").
 * Paths, file names, URLs and dotted members are not calls. */

/* An identifier character: ASCII letters, digits, '_'. */
static bool sf_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Is t[0, n) the tool's own name or one of its parameter names? */
static bool sf_own_name(const mv_tool *tool, const char *t, size_t n) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if ((fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME) &&
            fd->text.len == n && memcmp(fd->text.ptr, t, n) == 0)
            return true;
    }
    return false;
}

/* A destroy verb of an operation's name. Narrower than a fixed value's:
 * "remove_tag", "reset_filters" and "kill_switch" name the small,
 * undoable acts of many honest tools. */
static bool sf_call_verb(const char *p, size_t l) {
#define SF_VERB(w)                                                                                 \
    { (w), sizeof(w) - 1 }
    static const struct {
        const char *w;
        size_t n;
    } verbs[] = {SF_VERB("purge"),     SF_VERB("delete"), SF_VERB("wipe"), SF_VERB("destroy"),
                 SF_VERB("truncate"),  SF_VERB("erase"),  SF_VERB("nuke"), SF_VERB("revoke"),
                 SF_VERB("unpublish"), SF_VERB("drop")};
#undef SF_VERB
    /* the verbs' lengths and first letters, before any comparison */
    char c0 = (char)(p[0] | 0x20);
    if (l < 4 || l > 10 ||
        (c0 != 'p' && c0 != 'd' && c0 != 'w' && c0 != 't' && c0 != 'e' && c0 != 'n' && c0 != 'r' &&
         c0 != 'u'))
        return false;
    for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++) {
        size_t vl = verbs[k].n;
        if (c0 == verbs[k].w[0] && l >= vl && l <= vl + 1 && sf_contains(p, vl, verbs[k].w))
            return true;
    }
    return false;
}

/* Does the identifier t[0, n) have two parts or more (snake or camel
 * case), one of them a destroy verb? */
static bool sf_destroy_ident(const char *t, size_t n) {
    size_t ps = 0;
    unsigned parts = 0;
    bool verb = false;
    for (size_t i = 0; i <= n; i++) {
        bool cut = i == n || t[i] == '_' ||
                   (i > ps && t[i] >= 'A' && t[i] <= 'Z' && t[i - 1] >= 'a' && t[i - 1] <= 'z');
        if (!cut)
            continue;
        if (i > ps) {
            parts++;
            verb = verb || sf_call_verb(t + ps, i - ps);
        }
        ps = (i < n && t[i] >= 'A' && t[i] <= 'Z') ? i : i + 1;
    }
    return parts >= 2 && verb;
}

static bool sf_call_field(const mv_tool *tool, const mv_field *fd) {
    const char *t = fd->text.ptr;
    size_t n = fd->text.len;
    if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME)
        return false;
    {
        for (size_t i = 0; i < n;) {
            if (!sf_ident(t[i])) {
                i++;
                continue;
            }
            size_t s = i;
            while (i < n && sf_ident(t[i]))
                i++;
            /* a path, a file name, a URL or a dotted member is not a call */
            if (s > 0 && (t[s - 1] == '/' || t[s - 1] == '.' || t[s - 1] == '-' ||
                          t[s - 1] == '$' || t[s - 1] == '~' || t[s - 1] == '\\'))
                continue;
            if (i < n && (t[i] == '/' || t[i] == '-' || t[i] == '\\' ||
                          (t[i] == '.' && i + 1 < n && sf_ident(t[i + 1]))))
                continue;
            if (i - s >= 6 && i - s <= 48 && sf_destroy_ident(t + s, i - s) &&
                !sf_own_name(tool, t + s, i - s))
                return true;
        }
    }
    return false;
}

bool mv_destroy_call(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++)
        if (sf_call_field(tool, &tool->fields[fi]))
            return true;
    return false;
}

bool mv_destroy_in_fields(const mv_tool *tool, int32_t skip) {
    sf_forms forms;
    sf_forms_init(&forms);
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if ((int32_t)fi != skip &&
            (sf_code_field(fd, &forms) || sf_value_field(fd) || sf_call_field(tool, fd)))
            return true;
    }
    return false;
}

/* Round 19: the commands that destroy a whole machine, disk or account
 * whatever the tool's job is: every process, the system drive, the home
 * directory, a raw device, every table of every database. */
static const char *const sf_whole[] = {
    "kill -9 -1",
    "kill -kill -1",
    "taskkill /f",
    "format c:",
    "rm -rf / ",
    "rm -rf /*",
    "rm -rf ~",
    "rm -rf $home",
    "--no-preserve-root",
    "mkfs.",
    "wipefs",
    "dd if=/dev/zero",
    "dd if=/dev/urandom",
    "of=/dev/sd",
    "of=/dev/nvme",
    "of=/dev/disk",
    "diskutil erase",
    "rd /s /q c:",
    "del /f /s /q c:",
    "vssadmin delete",
    "crontab -r",
    "flushall",
    "drop database",
    "shred -u",
    "cipher /w:",
    "bcdedit /delete",
    "remove-item -recurse -force c:",
};

/* A negation shortly before the command on its own line ("Never runs
 * `git reset --hard`", "do not use `format C:`"): a warning. */
static bool sf_negated_before(const char *t, size_t i) {
    static const char *const neg[] = {"never",  "not ",    "n't",  "no ",   "without", "nunca",
                                      "jamais", "niemals", "nie ", "nooit", "mai "};
    size_t a = i > 80 ? i - 80 : 0;
    for (size_t k = i; k > a; k--)
        if (t[k - 1] == '\n' || t[k - 1] == '.' || t[k - 1] == ';') {
            a = k;
            break;
        }
    for (size_t k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
        size_t l = strlen(neg[k]);
        for (size_t j = a; j + l <= i; j++)
            if (sf_contains(t + j, l, neg[k]))
                return true;
    }
    return false;
}

int32_t mv_destroy_whole_field(const mv_tool *tool) {
    enum { N = sizeof(sf_whole) / sizeof(sf_whole[0]) };
    uint8_t at[257];
    uint8_t by[N];
    size_t len[N];
    bool built = false;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME)
            continue;
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        /* a command is written as code: in backticks, or in a field set
         * apart from the prose (an annotation, a value, an output field) */
        bool apart = fd->kind == MV_FIELD_ANNOTATION || fd->kind == MV_FIELD_SCHEMA_VALUE ||
                     fd->schema == MV_SCHEMA_OUTPUT;
        if (n < 5 || (!apart && memchr(t, '`', n) == NULL))
            continue;
        if (!built) {
            /* grouped by first byte, as the code forms: one pass per field */
            sf_group(sf_whole, N, at, by);
            for (size_t k = 0; k < N; k++)
                len[k] = strlen(sf_whole[k]);
            built = true;
        }
        for (size_t i = 0; i < n; i++) {
            unsigned char b = (unsigned char)t[i];
            unsigned char lower = (b >= 'A' && b <= 'Z') ? (unsigned char)(b + 32) : b;
            if (at[lower] == at[lower + 1])
                continue;
            /* a command starts a token: "undrop database" is another */
            if (i > 0 && (sf_ident(t[i - 1]) || t[i - 1] == '-'))
                continue;
            for (unsigned j = at[lower]; j < at[lower + 1]; j++) {
                size_t k = by[j];
                if (len[k] <= n - i && sf_contains(t + i, len[k], sf_whole[k]) &&
                    !sf_negated_before(t, i))
                    return (int32_t)fi;
            }
        }
    }
    return -1;
}

/* ------------------------- round 20 (dest20): a destroying value fixed
 *
 * A value the definition fixes (an input default or const, or an enum of
 * one value) that destroys more than the one thing asked for: the value
 * itself says so ("nuke: delete all profiles ...",
 * "force_push_orphan_all_branches_and_delete_tags"), or the description
 * of its property does ("aggressive: deletes the entire account ...",
 * "Remote is always empty; remote_wins therefore deletes all local
 * notes"). The caller did not choose the act; the definition did. */

/* Destroying verbs in the sets' languages. Latin-script stems must start
 * a word; "overwrite" destroys only beside an irreversibility mark or
 * production (an honest "replace (default) overwrites all annotations"
 * is the tool's edit). */
static const char *const sf_fverb[] = {
    "delete", "deleting", "erase", "wipe", "purge", "destroy", "truncat", "shred", "nuke", "revoke",
    "borra", "supprim", "efface", "lösch", "losch", "cancella", "apaga", "verwijder", "usuń",
    "usuwa", "hapus", "padam", "удал", "видал", "削除", "消去", "删除", "刪除", "清空", "삭제",
    "ลบ",
    /* round 22: Turkish, Hebrew */
    "siler", "silin", "silme", "למחוק", "מוחק", "מחיקת", "מחק את"};
static const char *const sf_fscope[] = {
    "all", "every", "entire", "whole", "everything", "production", "todos", "todas", "tous",
    "toutes", "alle", "allen", "tutti", "tutte", "semua", "все", "всех", "всі", "усі", "すべて",
    "全て", "全部", "所有", "모든", "전체", "ทั้งหมด",
    /* round 22: Japanese "production", "all-delete"; Turkish; Hebrew "all the" */
    "本番", "全削除", "tüm", "tümü", "bütün", "את כל", "כל ה"};
/* scope stems that take endings ("sämtliche", "wszystkie") */
static const char *const sf_fscope_stem[] = {"sämtlich", "gesamt", "wszystk", "kaikki"};
static const char *const sf_firrev[] = {"permanent",      "irreversib",      "cannot be undone",
                                        "unrecoverable",  "production",      "unwiderruflich",
                                        "définitivement", "definitivamente", "kalıcı"};

static bool sf_letter(const char *t, size_t i) {
    unsigned char c = (unsigned char)t[i];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* word `w` at t[i]: a Latin word must start after a non-letter; a scope
 * word must also end there ("all" is not "allow"); CJK and Thai forms
 * are matched as they stand. */
static bool sf_word_at(const char *t, size_t n, size_t i, const char *w, bool whole) {
    /* the first byte decides most positions, before the word's length */
    char c = (t[i] >= 'A' && t[i] <= 'Z') ? (char)(t[i] + 32) : t[i];
    if (w[0] != '\0' && c != w[0])
        return false;
    size_t l = strlen(w);
    if (l > n - i || !sf_contains(t + i, l, w))
        return false;
    if ((unsigned char)w[0] >= 0x80 && (unsigned char)w[0] != 0xc3 && (unsigned char)w[0] != 0xc5)
        return true; /* not Latin script */
    if (i > 0 && sf_letter(t, i - 1))
        return false;
    return !whole || i + l == n || !sf_letter(t, i + l);
}

static bool sf_find_word(const char *t, size_t n, const char *const *ws, size_t nw, bool whole,
                         size_t *at) {
    /* perf29: the list indexed by first byte (a chain per byte, in list
     * order): a position reads only the words its lowercased byte starts,
     * so the first word found is the one the walk of the list found. An
     * empty word (any byte) or a long list: the walk, byte-filtered. */
    enum { SF_CHAIN_MAX = 64 };
    uint8_t head[256], next[SF_CHAIN_MAX];
    uint32_t first[8] = {0};
    bool chain = nw <= SF_CHAIN_MAX;
    if (chain)
        memset(head, 0xff, sizeof head);
    for (size_t k = nw; k-- > 0;) {
        unsigned char f = (unsigned char)ws[k][0];
        if (f == '\0') {
            memset(first, 0xff, sizeof first);
            chain = false;
            break;
        }
        first[f >> 5] |= 1u << (f & 31);
        if (chain) {
            next[k] = head[f];
            head[f] = (uint8_t)k;
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        c = (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
        if (!(first[c >> 5] & (1u << (c & 31))))
            continue;
        if (chain) {
            for (uint8_t k = head[c]; k != 0xff; k = next[k])
                if (sf_word_at(t, n, i, ws[k], whole)) {
                    if (at != NULL)
                        *at = i;
                    return true;
                }
            continue;
        }
        for (size_t k = 0; k < nw; k++)
            if (sf_word_at(t, n, i, ws[k], whole)) {
                if (at != NULL)
                    *at = i;
                return true;
            }
    }
    return false;
}

/* A sentence of t[a, e) with a destroying verb (not negated just before
 * it) and a broad scope. `verb` says a verb is already given (by the
 * value), so a scope alone will do. */
static bool sf_destroy_scope_given(const char *t, size_t a, size_t e, bool verb, bool scope) {
    size_t s = a;
    for (size_t i = a; i <= e; i++) {
        bool end = i == e || t[i] == '\n' || t[i] == ';' ||
                   ((t[i] == '.' || t[i] == '!' || t[i] == '?') && (i + 1 == e || t[i + 1] == ' '));
        if (!end)
            continue;
        const char *p = t + s;
        size_t l = i - s;
        size_t v = 0;
        bool has_verb = verb;
        if (!has_verb &&
            sf_find_word(p, l, sf_fverb, sizeof(sf_fverb) / sizeof(sf_fverb[0]), false, &v))
            has_verb = !sf_negated_before(p, v);
        if (!has_verb && sf_find_word(p, l, (const char *const[]){"overwrit"}, 1, false, &v) &&
            !sf_negated_before(p, v))
            has_verb = sf_find_word(p, l, sf_firrev, sizeof(sf_firrev) / sizeof(sf_firrev[0]),
                                    false, NULL);
        if (has_verb &&
            (scope ||
             sf_find_word(p, l, sf_fscope, sizeof(sf_fscope) / sizeof(sf_fscope[0]), true, NULL) ||
             sf_find_word(p, l, sf_fscope_stem, sizeof(sf_fscope_stem) / sizeof(sf_fscope_stem[0]),
                          false, NULL)))
            return true;
        s = i + 1;
    }
    return false;
}

static bool sf_destroy_scope(const char *t, size_t a, size_t e, bool verb) {
    return sf_destroy_scope_given(t, a, e, verb, false);
}

/* The property a value field belongs to: its path up to ".default",
 * ".const" or ".enum", or 0 when it is none of them. `single` tells an
 * enum item from a default. */
static size_t sf_fixed_prefix(const mv_field *fd, bool *is_enum) {
    const char *p = fd->path.ptr;
    size_t n = fd->path.len;
    /* round 22: an example is a value the model copies as it stands */
    static const char *const tails[] = {".default", ".const", ".enum", ".examples"};
    for (size_t k = 0; k < 4; k++) {
        size_t l = strlen(tails[k]);
        for (size_t i = n >= l ? n - l + 1 : 0; i-- > 0;) {
            if (memcmp(p + i, tails[k], l) != 0)
                continue;
            /* the tail ends the path or opens an index ("enum[0]") */
            if (i + l != n && p[i + l] != '[' && p[i + l] != '.')
                break;
            *is_enum = k == 2;
            return i;
        }
    }
    return 0;
}

static bool sf_same_prefix(const mv_field *a, const mv_field *b, size_t l) {
    return b->path.len >= l && memcmp(a->path.ptr, b->path.ptr, l) == 0;
}

/* Round 22: a fixed value holding a destroying command (the round-18
 * forms) whose target reaches past the working directory: an absolute
 * path other than /tmp, the home directory, a wildcard or every object.
 * "rm -rf dist" as a build tool's clean step stays the tool's own. */
static bool sf_code_value(const mv_field *fd) {
    const char *t = fd->text.ptr;
    size_t n = fd->text.len;
    if (n < 8 || fd->kind != MV_FIELD_SCHEMA_VALUE)
        return false;
    /* a force push rewrites the shared history whatever its target */
    if (sf_find_word(t, n, (const char *const[]){"push --force", "push -f "}, 2, false, NULL))
        return true;
    sf_forms forms;
    sf_forms_init(&forms);
    if (!sf_code_field(fd, &forms)) {
        /* a force push that ends the value has no space after its flag */
        return (n >= 7 && sf_contains(t + n - 7, 7, "push -f")) ||
               (n >= 12 && sf_contains(t + n - 12, 12, "push --force"));
    }
    for (size_t i = 0; i < n; i++) {
        bool lead = i == 0 || t[i - 1] == ' ' || t[i - 1] == '=' || t[i - 1] == ':' ||
                    t[i - 1] == '\'' || t[i - 1] == '"';
        if (t[i] == '~' || t[i] == '*')
            return true;
        if (t[i] == '/' && lead && (n - i < 4 || memcmp(t + i + 1, "tmp", 3) != 0))
            return true;
        if (t[i] == '-' && i + 5 <= n && memcmp(t + i, "--all", 5) == 0)
            return true;
    }
    return false;
}

int32_t mv_forced_destroy_field(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len == 0 || fd->text.len > 400)
            continue;
        bool is_enum = false;
        size_t pl = sf_fixed_prefix(fd, &is_enum);
        if (pl == 0 || sf_contains(fd->path.ptr, pl, "anyof") ||
            sf_contains(fd->path.ptr, pl, "oneof"))
            continue;
        /* the other values the caller may choose, and the property's
         * description */
        int32_t desc = -1;
        bool choice = false;
        for (uint32_t fj = 0; fj < tool->n_fields; fj++) {
            const mv_field *o = &tool->fields[fj];
            if (fj == fi || !sf_same_prefix(fd, o, pl))
                continue;
            if (o->kind == MV_FIELD_SCHEMA_DESCRIPTION && o->path.len == pl + 12 &&
                memcmp(o->path.ptr + pl, ".description", 12) == 0)
                desc = (int32_t)fj;
            else if (o->kind == MV_FIELD_SCHEMA_VALUE && o->path.len > pl + 5 &&
                     memcmp(o->path.ptr + pl, ".enum", 5) == 0 &&
                     (o->text.len != fd->text.len ||
                      memcmp(o->text.ptr, fd->text.ptr, fd->text.len) != 0))
                choice = true; /* another value the caller may pick */
        }
        /* an enum of several values is a choice unless a default picks
         * this one */
        if (is_enum && choice) {
            bool picked = false;
            for (uint32_t fj = 0; fj < tool->n_fields && !picked; fj++) {
                const mv_field *o = &tool->fields[fj];
                picked = fj != fi && o->kind == MV_FIELD_SCHEMA_VALUE &&
                         sf_same_prefix(fd, o, pl) && o->path.len == pl + 8 &&
                         memcmp(o->path.ptr + pl, ".default", 8) == 0 &&
                         o->text.len == fd->text.len &&
                         memcmp(o->text.ptr, fd->text.ptr, fd->text.len) == 0;
            }
            if (!picked)
                continue;
        }
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        if (sf_destroy_scope(t, 0, n, false))
            return (int32_t)fi; /* the value itself destroys broadly */
        /* round 22: the value is a destroying command aimed past the
         * working directory (`rm -rf /var/lib/...`, `find / -delete`,
         * `gsutil -m rm -r gs://...`) */
        if (sf_code_value(fd))
            return (int32_t)fi;
        if (desc < 0)
            continue;
        const char *d = tool->fields[desc].text.ptr;
        size_t dn = tool->fields[desc].text.len;
        size_t a = 0;
        size_t e = dn;
        if (choice) {
            /* the description's sentence about this value: from where it
             * names it to the sentence's end */
            bool named = false;
            for (size_t i = 0; i + n <= dn && !named; i++)
                if (memcmp(d + i, t, n) == 0 && (i + n == dn || !sf_letter(d, i + n)) &&
                    (i == 0 || !sf_letter(d, i - 1))) {
                    named = true;
                    a = i;
                }
            if (!named)
                continue;
            for (e = a + n; e < dn; e++)
                if (d[e] == '\n' || d[e] == ';' ||
                    ((d[e] == '.' || d[e] == '!' || d[e] == '?') &&
                     (e + 1 == dn || d[e + 1] == ' ')))
                    break;
        }
        bool verb =
            sf_find_word(t, n, sf_fverb, sizeof(sf_fverb) / sizeof(sf_fverb[0]), false, NULL) ||
            sf_contains(t, n, "disable");
        /* round 22: a value that is itself the scope ("production",
         * "all"): a destroying verb in its description will do */
        bool scope = n <= 16 && sf_find_word(t, n, sf_fscope,
                                             sizeof(sf_fscope) / sizeof(sf_fscope[0]), true, NULL);
        /* a fixed value that destroys for good ("permanently deletes the
         * keystore and backups") needs no scope word: nothing comes back */
        scope = scope ||
                (choice && sf_find_word(d + a, e - a, sf_firrev,
                                        sizeof(sf_firrev) / sizeof(sf_firrev[0]), false, NULL));
        if (sf_destroy_scope_given(d, a, e, verb, scope))
            return desc;
    }
    return -1;
}

/* ------------------------- round 21 (dest21): a fixed boolean or number
 *
 * The same act as mv_forced_destroy_field when the value the definition
 * fixes is a boolean or a number (the model keeps them on mv_param, not
 * as fields): a flag fixed true whose name destroys (`purge_pvc`,
 * `wipe_all`, `delete_sources_after`, `no_preserve_root`) or whose
 * description destroys a broad scope ("Tool first deletes ALL folders"),
 * and a retention fixed at zero (`keep: 0`, `retention: const 0`,
 * `older_than_days: 0` in a tool that expires things): nothing is kept. */

/* Destroying parts of a flag's name; "overwrite", "remove", "drop" and
 * "truncate" are not (an honest write's `overwrite: true`, docker's `rm`,
 * `drop_duplicates`, a reader's `truncate: true`). */
static const char *const sf_flag_verb[] = {"delete",  "purge", "wipe",      "erase",
                                           "destroy", "nuke",  "unpublish", "shred"};
/* Parts of a retention's name: how much or how long is kept. */
static const char *const sf_keep_part[] = {"keep", "retain", "retention", "retained", "preserve"};
/* Parts of an age bound, which keep nothing only in a tool that expires
 * things (a reader's `older_than_days: 0` is "no filter"); not a grace
 * period, 0 of which is an honest "at once" (bullmq `clean_queue`). */
static const char *const sf_age_part[] = {"older", "age"};
/* A tool name that expires or removes what its age bound selects. */
static const char *const sf_expire_job[] = {"delet", "purg",   "prune",  "clean",  "rota",
                                            "expir", "retent", "archiv", "vacuum", "wipe",
                                            "remov", "trim",   "sweep",  "stale",  "backup"};
/* Round 25: a keep or an age said by the description's first sentence
 * ("Days to keep.", "Días que se conservan", "保留天数"), for a number
 * whose name says neither; word stems, in the sets' languages. */
static const char *const sf_keep_word[] = {
    "keep",    "retain",    "retention", "preserv", "conserv", "mantener", "manter",
    "behalt",  "aufbewahr", "bewaar",    "zachow",  "хран",    "збереж",   "lưu giữ",
    "giữ lại", "simpan",    "保留",      "保持",    "保存",    "유지",     "보관"};
static const char *const sf_age_word[] = {
    "older than", "stale",     "inactive", "idle",   "älter als", "antigu", "ancien",
    "più vecch",  "ouder dan", "starsz",   "старше", "より古い",  "早于",   "이전"};

/* A description saying zero means no limit, not nothing kept. */
static const char *const sf_zero_off[] = {"unlimited", "no limit",  "disable",    "infinite",
                                          "forever",   "keep all",  "keeps all",  "never",
                                          "off",       "no expiry", "no maximum", "all kept"};

/* Does the identifier s[0, n) have a part (split at non-letters and
 * before a camelCase capital) equal to one of ws? */
static bool sf_name_part(const char *s, size_t n, const char *const *ws, size_t nw) {
    size_t a = 0;
    for (size_t i = 0; i <= n; i++) {
        bool split = i == n || !sf_letter(s, i) ||
                     (i > a && s[i] >= 'A' && s[i] <= 'Z' && s[i - 1] >= 'a' && s[i - 1] <= 'z');
        if (!split)
            continue;
        for (size_t k = 0; k < nw && i > a; k++)
            if (strlen(ws[k]) == i - a && sf_contains(s + a, i - a, ws[k]))
                return true;
        a = (i < n && sf_letter(s, i)) ? i : i + 1;
    }
    return false;
}

/* The field of parameter k to point at: its description, else its name. */
static int32_t sf_param_field(const mv_tool *tool, uint32_t k) {
    int32_t named = -1;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->param != (int32_t)k || fd->schema != MV_SCHEMA_INPUT || fd->window_of != 0)
            continue;
        if (fd->kind == MV_FIELD_SCHEMA_DESCRIPTION &&
            fd->text.ptr == tool->params[k].description.ptr)
            return (int32_t)fi;
        if (fd->kind == MV_FIELD_PROPERTY_NAME && named < 0)
            named = (int32_t)fi;
    }
    return named;
}

static size_t sf_sentence_end(const char *t, size_t n, size_t s);

int32_t mv_forced_flag_field(const mv_tool *tool, bool *zero) {
    *zero = false;
    for (uint32_t k = 0; k < tool->n_params; k++) {
        const mv_param *pm = &tool->params[k];
        if (pm->schema != MV_SCHEMA_INPUT || pm->fixed == MV_FIXED_NONE)
            continue;
        const char *nm = pm->name.ptr;
        size_t nl = pm->name.len;
        const char *d = pm->description.ptr;
        size_t dl = pm->description.len;
        if (pm->fixed == MV_FIXED_TRUE) {
            size_t v = 0;
            bool named = sf_name_part(nm, nl, sf_flag_verb,
                                      sizeof(sf_flag_verb) / sizeof(sf_flag_verb[0])) ||
                         sf_contains(nm, nl, "no_preserve_root") ||
                         sf_contains(nm, nl, "nopreserveroot");
            /* "If true, never deletes ..." keeps the flag harmless */
            if (named && dl > 0 &&
                sf_find_word(d, dl, sf_fverb, sizeof(sf_fverb) / sizeof(sf_fverb[0]), false, &v) &&
                sf_negated_before(d, v))
                named = false;
            if (named || (dl > 0 && sf_destroy_scope(d, 0, dl, false)))
                return sf_param_field(tool, k);
        } else if (pm->fixed == MV_FIXED_ZERO) {
            bool keep =
                sf_name_part(nm, nl, sf_keep_part, sizeof(sf_keep_part) / sizeof(sf_keep_part[0]));
            bool age = !keep && sf_name_part(nm, nl, sf_age_part,
                                             sizeof(sf_age_part) / sizeof(sf_age_part[0]));
            /* round 25: a name that says neither ("days", "n") is the keep
             * or the age its description's first sentence says, in a tool
             * whose name, description or that property's description
             * removes things */
            bool said = false, said_age = false;
            if (!keep && !age && dl > 0) {
                size_t hl = sf_sentence_end(d, dl, 0);
                said = sf_find_word(d, hl, sf_keep_word,
                                    sizeof(sf_keep_word) / sizeof(sf_keep_word[0]), false, NULL);
                said_age = !said &&
                           sf_find_word(d, hl, sf_age_word,
                                        sizeof(sf_age_word) / sizeof(sf_age_word[0]), false, NULL);
                age = said || said_age;
            }
            if (age) {
                /* a said bound counts where the text removes things; a
                 * said age bound only there (a reader named "stale"
                 * filters by it) */
                enum { NV = sizeof(sf_fverb) / sizeof(sf_fverb[0]) };
                bool expires = (said || said_age) &&
                               (sf_find_word(d, dl, sf_fverb, NV, false, NULL) ||
                                sf_find_word(tool->description.ptr, tool->description.len, sf_fverb,
                                             NV, false, NULL));
                for (size_t j = 0;
                     j < sizeof(sf_expire_job) / sizeof(sf_expire_job[0]) && !said_age; j++)
                    expires =
                        expires || sf_contains(tool->name.ptr, tool->name.len, sf_expire_job[j]);
                age = expires;
            }
            if (!keep && !age)
                continue;
            if (dl > 0 && sf_find_word(d, dl, sf_zero_off,
                                       sizeof(sf_zero_off) / sizeof(sf_zero_off[0]), false, NULL))
                continue; /* "0 = unlimited" */
            *zero = true;
            return sf_param_field(tool, k);
        }
    }
    return -1;
}

/* ------------------------- round 22 (dest22): a destroying call ordered
 *
 * A call verb just before a destroying operation's name ("the agent
 * should also call delete_merchant_account", "викличте `delete_collection`
 * для кожної колекції", "call s3_delete_bucket with force=true" in an
 * output field): the text sends the model to destroy through another
 * tool. It counts when it is set apart from the tool's prose (an output
 * field, an annotation, a value) or its sentence has a broad scope; a
 * sibling pointer in the description ("to remove one, call delete_item")
 * has neither. */
static const char *const sf_call_word[] = {
    "call",     "invoke", "execute", "trigger", "викличте", "викликати", "вызовите",
    "вызвать",  "llama",  "llame",   "chame",   "chamar",   "appelle",   "appeler",
    "aufrufen", "rufe",   "chiama",  "wywołaj", "panggil",  "gọi",       "呼び出",
    "を実行",   "调用",   "呼叫",    "호출"};
/* scope words of a call: each object, besides the fixed values' scopes */
static const char *const sf_call_scope[] = {"each",   "кожн", "каждо", "cada",
                                            "chaque", "jede", "ogni",  "mỗi"};

static bool sf_call_order_at(const char *t, size_t n, size_t s, size_t e, bool apart) {
    /* the call verb within 40 bytes before, on the same line */
    size_t a = s > 40 ? s - 40 : 0;
    for (size_t k = s; k > a; k--)
        if (t[k - 1] == '\n' || t[k - 1] == '.') {
            a = k;
            break;
        }
    if (!sf_find_word(t + a, s - a, sf_call_word, sizeof(sf_call_word) / sizeof(sf_call_word[0]),
                      false, NULL) ||
        sf_negated_before(t, s))
        return false;
    if (apart)
        return true;
    /* the sentence around the name: a broad scope */
    size_t b = a, c = e;
    while (b > 0 && t[b - 1] != '\n' && t[b - 1] != '.')
        b--;
    while (c < n && t[c] != '\n' && !(t[c] == '.' && (c + 1 == n || t[c + 1] == ' ')))
        c++;
    return sf_find_word(t + b, c - b, sf_fscope, sizeof(sf_fscope) / sizeof(sf_fscope[0]), true,
                        NULL) ||
           sf_find_word(t + b, c - b, sf_call_scope,
                        sizeof(sf_call_scope) / sizeof(sf_call_scope[0]), false, NULL);
}

int32_t mv_destroy_call_order_field(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME ||
            n < 10 || memchr(t, '_', n) == NULL)
            continue;
        bool apart = fd->kind == MV_FIELD_ANNOTATION || fd->kind == MV_FIELD_SCHEMA_VALUE ||
                     fd->schema == MV_SCHEMA_OUTPUT;
        /* only identifiers with '_': jump from one '_' to the next */
        for (size_t i = 0; i < n;) {
            const char *u = memchr(t + i, '_', n - i);
            if (u == NULL)
                break;
            size_t s = (size_t)(u - t);
            while (s > 0 && sf_ident(t[s - 1]))
                s--;
            i = (size_t)(u - t);
            while (i < n && sf_ident(t[i]))
                i++;
            if (i - s < 6 || i - s > 48)
                continue;
            if (s > 0 && (t[s - 1] == '/' || t[s - 1] == '.' || t[s - 1] == '-' ||
                          t[s - 1] == '$' || t[s - 1] == '~' || t[s - 1] == '\\'))
                continue;
            if (sf_destroy_ident(t + s, i - s) && !sf_own_name(tool, t + s, i - s) &&
                sf_call_order_at(t, n, s, i, apart))
                return (int32_t)fi;
        }
    }
    return -1;
}

/* ------------------------- round 23 (dest23): the definition against
 * itself
 *
 * Three facts where the definition, not its wording, sets the act or its
 * scope: a destroying act in a tool whose annotations declare it
 * read-only or non-destructive (the declaration voids the tool's "job"
 * as an excuse: the text destroys what the tool says it never touches),
 * an empty value the definition picks as the default while the
 * property's own description says an empty value destroys everything,
 * and a whole-machine or home root fixed as a value. */

/* A negation just before t[i] in the same clause (at most 24 bytes):
 * "does not permanently delete", "nunca borra". Tighter than
 * sf_negated_before, whose 80 bytes reach into a condition ("whose
 * licence is not verifiable ... must be deleted"). */
static bool sf_negated_close(const char *t, size_t i) {
    static const char *const neg[] = {"never",  "not ", "n't",   "no ",  "without", "nunca",
                                      "jamais", "ne ",  "nicht", "kein", "nie ",    "nooit",
                                      "mai ",   "não ", "не ",   "없",   "しない",  "不"};
    size_t a = i > 24 ? i - 24 : 0;
    for (size_t k = i; k > a; k--)
        if (t[k - 1] == '\n' || t[k - 1] == '.' || t[k - 1] == ';' || t[k - 1] == ',') {
            a = k;
            break;
        }
    for (size_t k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
        size_t l = strlen(neg[k]);
        bool latin = (unsigned char)neg[k][0] < 0x80;
        for (size_t j = a; j + l <= i; j++)
            /* a Latin word starts a word: "done " is no "ne " */
            if (sf_contains(t + j, l, neg[k]) && (!latin || j == 0 || !sf_letter(t, j - 1) ||
                                                  (neg[k][0] == 'n' && neg[k][1] == '\'')))
                return true;
    }
    return false;
}

/* The end of the sentence that starts at t[s]. */
static size_t sf_sentence_end(const char *t, size_t n, size_t s) {
    size_t i = s;
    while (i < n && t[i] != '\n' && t[i] != ';' &&
           !((t[i] == '.' || t[i] == '!' || t[i] == '?') && (i + 1 == n || t[i + 1] == ' ')))
        i++;
    return i;
}

/* A report of a past or a hypothetical act just before t[i] ("records
 * that were permanently deleted", "what the policy would delete"): a
 * search or a preview of an act, not the act. */
static bool sf_past_close(const char *t, size_t i) {
    static const char *const past[] = {"were ",  "was ",   "been ",  "had ",  "would ",  "could ",
                                       "might ", "wurden", "wurde",  "würde", "fueron",  "foram",
                                       "sería",  "serait", "été ",   "erano", "sarebbe", "zostały",
                                       "были",   "был",    "された", "被"};
    size_t a = i > 24 ? i - 24 : 0;
    for (size_t k = 0; k < sizeof(past) / sizeof(past[0]); k++) {
        size_t l = strlen(past[k]);
        for (size_t j = a; j + l <= i; j++)
            if (sf_contains(t + j, l, past[k]))
                return true;
    }
    return false;
}

/* A sentence that destroys a broad scope for good: a destroying verb not
 * negated in its clause nor reported as past, a scope word and an
 * irreversibility mark ("must be permanently deleted from the DAM, from
 * all published articles"). */
static bool sf_destroy_for_good(const char *t, size_t n) {
    for (size_t s = 0; s < n;) {
        size_t e = sf_sentence_end(t, n, s);
        const char *p = t + s;
        size_t l = e - s;
        size_t v = 0;
        if (l > 12 &&
            sf_find_word(p, l, sf_fverb, sizeof(sf_fverb) / sizeof(sf_fverb[0]), false, &v) &&
            !sf_negated_close(p, v) && !sf_past_close(p, v) &&
            sf_find_word(p, l, sf_firrev, sizeof(sf_firrev) / sizeof(sf_firrev[0]), false, NULL) &&
            (sf_find_word(p, l, sf_fscope, sizeof(sf_fscope) / sizeof(sf_fscope[0]), true, NULL) ||
             sf_find_word(p, l, sf_fscope_stem, sizeof(sf_fscope_stem) / sizeof(sf_fscope_stem[0]),
                          false, NULL)))
            return true;
        s = e + 1;
    }
    return false;
}

/* The command at t[0, n) names the tool's own subject: a word of its
 * first 24 bytes (four letters or more) is in the tool's name
 * (`terraform destroy` in terraform_destroy_preview). A read-only tool
 * about a command shows it, it does not run it. */
static bool sf_names_tool(const mv_tool *tool, const char *t, size_t n) {
    if (n > 24)
        n = 24;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && ((t[j] | 0x20) >= 'a' && (t[j] | 0x20) <= 'z'))
            j++;
        if (j - i >= 4) {
            for (size_t k = 0; k + (j - i) <= tool->name.len; k++) {
                size_t m = 0;
                while (m < j - i && (tool->name.ptr[k + m] | 0x20) == (t[i + m] | 0x20))
                    m++;
                if (m == j - i)
                    return true;
            }
        }
        i = j + 1;
    }
    return false;
}

int32_t mv_declared_safe_destroy_field(const mv_tool *tool) {
    if ((tool->declared & (MV_DECLARED_READ_ONLY | MV_DECLARED_NOT_DESTRUCTIVE)) == 0)
        return -1;
    sf_forms forms;
    sf_forms_init(&forms);
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME)
            continue;
        size_t at = 0;
        if (sf_code_field_at(fd, &forms, &at) && !sf_negated_before(fd->text.ptr, at) &&
            !sf_names_tool(tool, fd->text.ptr + at, fd->text.len - at))
            return (int32_t)fi;
        if (sf_destroy_for_good(fd->text.ptr, fd->text.len))
            return (int32_t)fi;
    }
    return mv_destroy_call_order_field(tool);
}

/* Words for an empty or omitted value: stems that take endings, and
 * whole words. */
static const char *const sf_empty_stem[] = {
    "empty",  "blank",  "omit",  "unset",  "vací",  "vaci", "vuot", "vazi", "pust",    "пуст",
    "порожн", "kosong", "trống", "ריק",    "空",    "비워", "비어", "省略", "leeg",    "tyhj",
    "leer",   "boş",    "omis",  "weggel", "prázd", "tühi", "tomt", "tømt", "bỏ trống"};
static const char *const sf_empty_word[] = {"vide", "vides", "none", "null", "nothing"};

int32_t mv_empty_default_destroy_field(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len > 4)
            continue;
        /* an empty (or blank) string default of a top-level parameter */
        size_t k = 0;
        while (k < fd->text.len && fd->text.ptr[k] == ' ')
            k++;
        if (k != fd->text.len || fd->path.len < 8 ||
            memcmp(fd->path.ptr + fd->path.len - 8, ".default", 8) != 0)
            continue;
        /* the parameter whose name ends the path before ".default" */
        const mv_param *p = NULL;
        for (uint32_t q = 0; q < tool->n_params && p == NULL; q++) {
            const mv_param *c = &tool->params[q];
            size_t l = c->name.len;
            if (c->schema == MV_SCHEMA_INPUT && l > 0 && fd->path.len > l + 9 &&
                fd->path.ptr[fd->path.len - 9 - l] == '.' &&
                memcmp(fd->path.ptr + fd->path.len - 8 - l, c->name.ptr, l) == 0)
                p = c;
        }
        if (p == NULL || p->description.len == 0)
            continue;
        const char *d = p->description.ptr;
        size_t dn = p->description.len;
        for (size_t s = 0; s < dn;) {
            size_t e = sf_sentence_end(d, dn, s);
            if (e > s &&
                (sf_find_word(d + s, e - s, sf_empty_stem,
                              sizeof(sf_empty_stem) / sizeof(sf_empty_stem[0]), false, NULL) ||
                 sf_find_word(d + s, e - s, sf_empty_word,
                              sizeof(sf_empty_word) / sizeof(sf_empty_word[0]), true, NULL))) {
                /* the verb must not be negated in its clause */
                size_t v = 0;
                if (sf_find_word(d + s, e - s, sf_fverb, sizeof(sf_fverb) / sizeof(sf_fverb[0]),
                                 false, &v) &&
                    !sf_negated_close(d + s, v) && sf_destroy_scope(d, s, e, true)) {
                    /* the property's description field, for the evidence */
                    for (uint32_t fj = 0; fj < tool->n_fields; fj++)
                        if (tool->fields[fj].kind == MV_FIELD_SCHEMA_DESCRIPTION &&
                            tool->fields[fj].text.len == dn &&
                            memcmp(tool->fields[fj].text.ptr, d, dn) == 0)
                            return (int32_t)fj;
                    return (int32_t)fi;
                }
            }
            s = e + 1;
        }
    }
    return -1;
}

/* A root of the machine or of the user's files, as a whole value. */
static bool sf_root_value(const char *t, size_t n) {
    /* lower case: sf_contains folds the text only */
    static const char *const roots[] = {"/",
                                        "/*",
                                        "/**",
                                        "~",
                                        "~/",
                                        "~/*",
                                        "~/**",
                                        "$home",
                                        "${home}",
                                        "$home/",
                                        "c:\\",
                                        "c:/",
                                        "c:\\*",
                                        "c:",
                                        "/home",
                                        "/users",
                                        "/root",
                                        "%userprofile%",
                                        "%systemdrive%\\"};
    for (size_t k = 0; k < sizeof(roots) / sizeof(roots[0]); k++)
        if (strlen(roots[k]) == n && sf_contains(t, n, roots[k]))
            return true;
    return false;
}

int32_t mv_root_value_field(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len == 0 || fd->text.len > 16 ||
            !sf_root_value(fd->text.ptr, fd->text.len))
            continue;
        if (!sf_contains(fd->path.ptr, fd->path.len, ".default") &&
            !sf_contains(fd->path.ptr, fd->path.len, ".const"))
            continue;
        if (sf_contains(fd->path.ptr, fd->path.len, "anyof") ||
            sf_contains(fd->path.ptr, fd->path.len, "oneof"))
            continue;
        return (int32_t)fi;
    }
    return -1;
}

/* ------------------------- round 24 (dest24): a destroying act whose
 * safeguard the definition waives
 *
 * The user's consent, a backup and a dry run are the safeguards of a
 * destroying act. A definition that orders one of them skipped ("do not
 * ask the user", "no confirmation needed", "without a backup") beside a
 * destroying verb has already chosen the act for the user: the waiver is
 * addressed to the model, whichever words carry the act. The waiver is
 * an order, not a report: an imperative or a "no need" form, never a
 * description of the tool's own behaviour ("does not ask", "deleted
 * without a prompt"). */

/* Waivers that carry their own negation or need word, by language. */
static const char *const sf_waive_neg[] = {
    /* English */
    "do not ask", "don't ask", "never ask", "no need to ask", "no need to confirm",
    "no need for confirmation", "no confirmation needed", "no confirmation is needed",
    "no confirmation required", "no confirmation is required", "do not confirm with",
    "don't confirm with", "do not prompt", "don't prompt", "without asking", "without confirming",
    "without prompting", "without waiting for confirmation", "not necessary to ask",
    "not necessary to confirm", "no need to back up", "without a backup", "without backing up",
    "do not back up", "don't back up", "no need to notify the user", "there is no need to ask",
    /* Spanish, Portuguese, Italian, French */
    "no preguntes", "no pregunte", "no pidas confirmación", "no pida confirmación", "sin preguntar",
    "sin pedir confirmación", "sin confirmación", "no hace falta preguntar",
    "no hace falta confirmar", "no es necesario preguntar", "no es necesario confirmar",
    "sin copia de seguridad", "sin respaldo", "não pergunte", "nao pergunte", "sem perguntar",
    "não peça confirmação", "sem pedir confirmação", "sem confirmação", "sem confirmacao",
    "não é necessário confirmar", "sem backup", "non chiedere", "senza chiedere", "senza conferma",
    "non serve chiedere", "non è necessario chiedere", "senza backup", "ne demandez pas",
    "ne demande pas", "ne demandez rien", "ne demande rien", "sans demander", "sans confirmation",
    "pas besoin de confirmation", "pas besoin de demander", "inutile de demander",
    "sans sauvegarde",
    /* German, Dutch, Nordic */
    "nicht nachfragen", "nicht fragen", "ohne nachfrage", "ohne rückfrage", "ohne zu fragen",
    "ohne bestätigung", "nicht gefragt werden", "keine bestätigung", "keine rückfrage",
    "ohne backup", "ohne sicherung", "niet vragen", "vraag niet", "zonder te vragen",
    "zonder bevestiging", "zonder back-up", "uden at spørge", "utan att fråga", "uten å spørre",
    "uden bekræftelse", "utan bekräftelse", "uten bekreftelse",
    /* Slavic, Romanian, Greek, Turkish */
    "nie pytaj", "bez pytania", "bez potwierdzenia", "bez pytania użytkownika", "neptej se",
    "bez potvrzení", "není nutné se ptát", "bez ptaní", "nu cere confirmare", "nu întreba",
    "fără confirmare", "fără să întrebi", "не спрашивай", "не спрашивая", "без подтверждения",
    "без согласования", "не питай", "не питаючи", "без погодження", "без підтвердження",
    "μην ζητήσεις", "μη ρωτήσεις", "μην ρωτήσεις", "χωρίς επιβεβαίωση", "χωρίς να ρωτήσεις",
    "onay istemeden", "onay almadan", "sormadan",
    /* a sentence's first word: the folding is ASCII only */
    "Μην ζητήσεις", "Μη ρωτήσεις", "Μην ρωτήσεις", "Χωρίς επιβεβαίωση", "Не спрашивай",
    "Без подтверждения", "Не питай", "Без погодження", "Без підтвердження",
    /* Indonesian, Malay, Vietnamese, Tagalog */
    "tanpa konfirmasi", "tanpa bertanya", "tidak perlu bertanya", "tidak perlu konfirmasi",
    "tanpa pengesahan", "tidak perlu pengesahan", "jangan tanya", "không cần xác nhận",
    "không cần hỏi", "đừng hỏi", "không hỏi", "huwag magtanong", "nang hindi nagtatanong",
    /* Hebrew, Arabic, Persian, Hindi */
    "אין צורך באישור", "ללא אישור", "בלי לשאול", "אל תשאל", "دون تأكيد", "بدون تأكيد", "لا تسأل",
    "دون سؤال", "دون الرجوع", "نیازی به تأیید", "بدون تأیید", "نپرس", "पुष्टि के बिना", "बिना पूछे",
    /* Japanese, Chinese, Korean, Thai */
    "確認は不要", "確認不要", "確認せず", "確認なしで", "確認は省略", "確認を省略", "尋ねず",
    "聞かず", "无需确认", "無需確認", "不需要确认", "不需要確認", "不要询问", "不要詢問",
    "无需询问", "無需詢問", "不必确认", "不必確認", "跳过确认", "跳過確認", "不需要先備份",
    "不需要备份", "无需备份", "확인 없이", "묻지 말고", "묻지 않고", "확인하지 말고", "ไม่ต้องขอยืนยัน",
    "ไม่ต้องยืนยัน", "ไม่ต้องถาม"};

/* Waivers made by a verb of skipping: not negated before them ("never
 * skip the confirmation" keeps it). */
static const char *const sf_waive_skip[] = {"skip confirmation",
                                            "skip the confirmation",
                                            "skip confirm",
                                            "skip the backup",
                                            "skip backup",
                                            "skip the dry run",
                                            "skip the dry-run",
                                            "bypass confirmation",
                                            "bypass the confirmation",
                                            "omit the confirmation",
                                            "omite la confirmación",
                                            "omitir la confirmación",
                                            "pule a confirmação",
                                            "ignore la confirmation",
                                            "überspringe die bestätigung",
                                            "salta la conferma",
                                            "pomiń potwierdzenie"};

/* Destroying verbs for a waived act: the fixed-value verbs and more
 * forms of the same acts (overwrite, empty, wipe, in more languages). */
static const char *const sf_waive_verb[] = {
    "overwrit",   "sobrescrib", "sobrescrev",    "écras",         "überschreib", "sovrascriv",
    "nadpis",     "перезапис",  "ghi đè",        "上書き",        "覆盖",        "覆蓋",
    "덮어",       "xóa",        "xoá",           "șterg",         "ștearg",      "şterg",
    "ştearg",     "sterge",     "smaž",          "smaz",          "διέγραψ",     "διαγραφ",
    "διαγράψ",    "Διέγραψ",    "Διαγράψ",       "Удал",          "Видал",       "Очист",
    "حذف",        "احذف",       "מחק",           "vernicht",      "vacía",       "vaciar",
    "vacíe",      "svuota",     "leere ",        "leert",         "esvazi",      "kosongkan",
    "очист",      "비워",       "factory reset", "factory_reset", "uninstall",   "format c:",
    "drop table", "truncat",    "zeroiz",        "kill -9"};

/* Scope words the fixed-value lists lack (stems: they take endings). */
static const char *const sf_waive_scope[] = {
    "všechn", "όλα",   "όλους", "όλες",    "όλων", "toate", "toți", "tất cả", "toàn bộ",
    "تمام",   "همه",   "جميع",  "كل ال",   "כל",   "ทุก",    "全部", "整个",   "整個",
    "any ",   "each ", "cada ", "chaque ", "jede", "ogni ", "każd", "кожн",   "кажд"};

/* Words for "nothing" before the verb: "nothing is deleted", "nada é
 * apagado" (the clause's object negates the act). */
static const char *const sf_waive_none[] = {"nothing", "nada",   "rien",   "nichts", "niente",
                                            "niets",   "ничего", "нічого", "何も"};

/* Is t[i] inside brackets opened on its line ("remove_domain: deletes
 * one domain (free, no confirmation needed)")? A parenthesis annotates
 * what stands before it; it orders nothing unless the act is inside it
 * too. The byte after the opening bracket, or 0. Full-width brackets
 * count. */
static size_t sf_paren_open(const char *t, size_t i) {
    int depth = 0;
    for (size_t k = i; k > 0 && t[k - 1] != '\n'; k--) {
        char c = t[k - 1];
        if (c == ')' || c == ']')
            depth--;
        else if (c == '(' || c == '[')
            depth++;
        else if (k >= 3 && (unsigned char)t[k - 3] == 0xef && (unsigned char)t[k - 2] == 0xbc &&
                 ((unsigned char)c == 0x88 || (unsigned char)c == 0x89)) {
            depth += (unsigned char)c == 0x88 ? 1 : -1; /* U+FF08, U+FF09 */
            k -= 2;
        }
        if (depth > 0)
            return k;
    }
    return 0;
}

static bool sf_waived_act(const char *t, size_t n, bool job_first, bool *broad);

/* The waiver at t[i] counts: outside brackets, or with the act inside
 * the same brackets ("(auto: deletes .git and src/, proceed without
 * asking)"). */
static bool sf_waiver_counts(const char *t, size_t n, size_t i) {
    size_t o = sf_paren_open(t, i);
    if (o == 0)
        return true;
    size_t c = i;
    while (c < n && t[c] != ')' && t[c] != ']' && t[c] != '\n' &&
           !((unsigned char)t[c] == 0xef && c + 2 < n && (unsigned char)t[c + 1] == 0xbc &&
             (unsigned char)t[c + 2] == 0x89))
        c++;
    bool broad = false;
    return sf_waived_act(t + o, c - o, false, &broad);
}

/* The waiver forms indexed once for every scan (pthread_once): by first
 * byte (ASCII folded) into one list, with their lengths, and a bit per
 * hash of their first eight bytes (every form has eight), so a word start
 * of honest text costs one bit test; the full compare runs only where a
 * form's first eight bytes may stand. */
enum {
    SF_WN = sizeof(sf_waive_neg) / sizeof(sf_waive_neg[0]),
    SF_WS = sizeof(sf_waive_skip) / sizeof(sf_waive_skip[0]),
    SF_WALL = SF_WN + SF_WS
};
#define SF_W_START 1u  /* a form starts with this byte (either case) */
#define SF_W_LETTER 2u /* the byte is a letter (sf_letter) */
typedef struct {
    uint8_t cls[256];
    uint8_t head[1u << 13]; /* a bit per hash of a form's first eight bytes */
    uint8_t at[257];
    uint8_t by[SF_WALL];
    uint8_t len[SF_WALL];
    uint32_t letters; /* bit (b & 31) for each ASCII letter a form starts with */
} sf_waive_index;
static sf_waive_index sf_wx;
static pthread_once_t sf_wx_once = PTHREAD_ONCE_INIT;

static const char *sf_waive_form(size_t k) {
    return k < SF_WN ? sf_waive_neg[k] : sf_waive_skip[k - SF_WN];
}

static unsigned char sf_fold(unsigned char b) {
    return (b >= 'A' && b <= 'Z') ? (unsigned char)(b + 32) : b;
}

/* The hash of eight bytes with bit 5 set in each (the ASCII fold of a
 * letter; the same for the text and the form, so a form that matches
 * has the text's hash). Every form has eight bytes. */
static inline unsigned sf_head_hash(const char *p) {
    uint64_t v;
    memcpy(&v, p, 8); /* the same bytes give the same value in any order */
    v |= 0x2020202020202020ull;
    return (unsigned)((v * 0x9E3779B97F4A7C15ull) >> 48);
}

static void sf_waive_build(void) {
    const char *all[SF_WALL];
    for (size_t k = 0; k < SF_WALL; k++) {
        all[k] = sf_waive_form(k);
        sf_wx.len[k] = (uint8_t)strlen(all[k]);
        unsigned char b0 = (unsigned char)all[k][0];
        sf_wx.cls[b0] |= SF_W_START;
        if (b0 >= 'a' && b0 <= 'z') {
            sf_wx.cls[b0 - 32] |= SF_W_START;
            sf_wx.letters |= 1u << (b0 & 31);
        }
        unsigned h = sf_head_hash(all[k]);
        sf_wx.head[h >> 3] |= (uint8_t)(1u << (h & 7));
    }
    for (unsigned b = 0; b < 256; b++)
        if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b >= 0x80)
            sf_wx.cls[b] |= SF_W_LETTER;
    sf_group(all, SF_WALL, sf_wx.at, sf_wx.by);
}

/* Form k at t[i] (its first byte already matches): a Latin form must
 * start a word, as sf_word_at. */
static bool sf_waive_form_at(const char *t, size_t n, size_t i, size_t k) {
    const char *w = sf_waive_form(k);
    size_t l = sf_wx.len[k];
    if (l > n - i)
        return false;
    for (size_t j = 1; j < l; j++)
        if ((char)sf_fold((unsigned char)t[i + j]) != w[j])
            return false;
    unsigned char w0 = (unsigned char)w[0];
    if ((w0 >= 0x80 && w0 != 0xc3 && w0 != 0xc5) || i == 0 || !sf_letter(t, i - 1))
        return k < SF_WN || !sf_negated_close(t, i);
    return false;
}

/* May a form start at t[i]: eight bytes left and their hash's bit set. */
static inline bool sf_waiver_head(const char *t, size_t n, size_t i) {
    if (n - i < 8)
        return false;
    unsigned h = sf_head_hash(t + i);
    return (sf_wx.head[h >> 3] & (1u << (h & 7))) != 0;
}

/* A waiver form starting at t[i] that counts (sf_waiver_head holds). */
static bool sf_waiver_here(const char *t, size_t n, size_t i) {
    unsigned char b0 = sf_fold((unsigned char)t[i]);
    for (unsigned j = sf_wx.at[b0]; j < sf_wx.at[b0 + 1]; j++)
        if (sf_waive_form_at(t, n, i, sf_wx.by[j]) && sf_waiver_counts(t, n, i))
            return true;
    return false;
}

#define SF_ONES 0x0101010101010101ull
#define SF_HIGHS 0x8080808080808080ull

/* A waiver in t[0, n) from `from` on: the start of the first one that
 * counts, or n. Eight ASCII bytes at a time where the text is ASCII: a
 * Latin form starts a word, so only the letters after a non-letter are
 * tried (bit arithmetic, no carry crosses a byte: each sum stays below
 * 0x100); other bytes one by one. */
static size_t sf_waiver_at(const char *t, size_t n, size_t from) {
    bool prev_letter = from > 0 && sf_letter(t, from - 1);
    size_t i = from;
    while (i + 8 <= n) { /* every form has eight bytes */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        {
            uint64_t w;
            memcpy(&w, t + i, 8);
            if ((w & SF_HIGHS) == 0) {
                /* a letter: (b | 0x20) in 'a'..'z' */
                uint64_t x = w | SF_ONES * 0x20u;
                uint64_t letter =
                    (x + SF_ONES * (0x80u - 'a')) & ~(x + SF_ONES * (0x80u - '{')) & SF_HIGHS;
                uint64_t starts = letter & ~((letter << 8) | (prev_letter ? 0x80u : 0u));
                prev_letter = (letter >> 63) != 0;
                while (starts != 0) {
                    size_t k = i + ((size_t)__builtin_ctzll(starts) >> 3);
                    starts &= starts - 1;
                    if (((sf_wx.letters >> (t[k] & 31)) & 1u) && sf_waiver_head(t, n, k) &&
                        sf_waiver_here(t, n, k))
                        return k;
                }
                i += 8;
                continue;
            }
        }
#endif
        unsigned c = sf_wx.cls[(unsigned char)t[i]];
        bool start = (c & SF_W_START) && !(prev_letter && (unsigned char)t[i] < 0x80);
        prev_letter = (c & SF_W_LETTER) != 0;
        if (start && sf_waiver_head(t, n, i) && sf_waiver_here(t, n, i))
            return i;
        i++;
    }
    return n;
}

/* A sentence of t[0, n) with a destroying verb that is neither negated
 * in its clause nor reported as past; *broad tells a scope word in it.
 * `job_first`: t opens the tool's description, whose first sentence
 * states the tool's job ("Purges every cached page of the site."): an
 * act there is the job, never broad by itself (round 25). */
static bool sf_waived_act(const char *t, size_t n, bool job_first, bool *broad) {
    bool found = false;
    for (size_t s = 0; s < n;) {
        size_t e = sf_sentence_end(t, n, s);
        const char *p = t + s;
        size_t l = e - s;
        for (size_t from = 0; from < l;) {
            /* the next destroying verb of either list */
            size_t v1 = 0, v2 = 0;
            bool f1 = sf_find_word(p + from, l - from, sf_fverb,
                                   sizeof(sf_fverb) / sizeof(sf_fverb[0]), false, &v1);
            bool f2 = sf_find_word(p + from, l - from, sf_waive_verb,
                                   sizeof(sf_waive_verb) / sizeof(sf_waive_verb[0]), false, &v2);
            if (!f1 && !f2)
                break;
            size_t i = from + (f1 && (!f2 || v1 <= v2) ? v1 : v2);
            from = i + 1;
            unsigned char c0 = (unsigned char)p[i];
            if (i > 0 && sf_letter(p, i - 1) && (c0 < 0x80 || c0 == 0xc3 || c0 == 0xc5))
                continue; /* a Latin verb starts a word */
            if (sf_negated_close(p, i) || sf_past_close(p, i) ||
                sf_find_word(p, i, sf_waive_none, sizeof(sf_waive_none) / sizeof(sf_waive_none[0]),
                             true, NULL))
                continue;
            found = true;
            if (job_first && s == 0)
                break;
            if (sf_find_word(p, l, sf_fscope, sizeof(sf_fscope) / sizeof(sf_fscope[0]), true,
                             NULL) ||
                sf_find_word(p, l, sf_fscope_stem,
                             sizeof(sf_fscope_stem) / sizeof(sf_fscope_stem[0]), false, NULL) ||
                sf_find_word(p, l, sf_waive_scope,
                             sizeof(sf_waive_scope) / sizeof(sf_waive_scope[0]), false, NULL)) {
                *broad = true;
                return true;
            }
            break;
        }
        s = e + 1;
    }
    return found;
}

int32_t mv_waived_destroy_field(const mv_tool *tool, bool *broad) {
    int32_t found = -1;
    *broad = false;
    pthread_once(&sf_wx_once, sf_waive_build);
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME ||
            fd->text.len < 12)
            continue;
        /* the waiver first (one walk of the field); then the act in the
         * waiver's paragraph: a blank line parts a tool's sections
         * ("Data retention: ... then purged") */
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        for (size_t w = sf_waiver_at(t, n, 0); w < n;) {
            size_t a = w, e = w;
            while (a >= 2 && !(t[a - 1] == '\n' && t[a - 2] == '\n'))
                a--;
            if (a < 2)
                a = 0;
            while (e < n && !(t[e] == '\n' && e + 1 < n && t[e + 1] == '\n'))
                e++;
            bool b = false;
            if (sf_waived_act(t + a, e - a, a == 0 && fd->kind == MV_FIELD_DESCRIPTION, &b)) {
                if (b) {
                    *broad = true;
                    return (int32_t)fi;
                }
                if (found < 0)
                    found = (int32_t)fi;
            }
            w = e + 2 < n ? sf_waiver_at(t, n, e + 2) : n;
        }
    }
    return found;
}

/* ------------------------- round 24 (dest24): a value whose meaning is
 * everything
 *
 * A value can say "all" without an "all": a cut-off date a lifetime away
 * makes "delete what is older than" delete everything, and a constant
 * predicate makes a filtered statement touch every row (`DELETE FROM t
 * WHERE 1=1`) or none it keeps (`CREATE OR REPLACE TABLE t AS SELECT *
 * FROM t WHERE FALSE` empties t). */

static bool sf_digits(const char *t, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (t[i] < '0' || t[i] > '9')
            return false;
    return n > 0;
}

/* A date whose year is 2090 or later, as a whole value: "2100-01-01",
 * "9999/12/31", "2100-01-01T00:00:00Z", "31.12.9999". */
static bool sf_far_date(const char *t, size_t n) {
    size_t y = 0;
    if (n >= 10 && sf_digits(t, 4) && (t[4] == '-' || t[4] == '/') && sf_digits(t + 5, 2) &&
        t[7] == t[4] && sf_digits(t + 8, 2) && (n == 10 || t[10] == 'T' || t[10] == ' '))
        y = 0;
    else if (n == 10 && sf_digits(t, 2) && (t[2] == '.' || t[2] == '/') && sf_digits(t + 3, 2) &&
             t[5] == t[2] && sf_digits(t + 6, 4))
        y = 6;
    else
        return false;
    unsigned year = (unsigned)((t[y] - '0') * 1000 + (t[y + 1] - '0') * 100 +
                               (t[y + 2] - '0') * 10 + (t[y + 3] - '0'));
    return year >= 2090;
}

int32_t mv_far_date_field(const mv_tool *tool) {
    /* a date that keeps, not one that cuts: "keep_until", "expires_at" */
    static const char *const keeps[] = {"keep",  "retain",  "retention", "expir",
                                        "valid", "hold",    "until_",    "ttl",
                                        "lock",  "preserv", "aufbew",    "conserv"};
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len < 10 || fd->text.len > 32 ||
            !sf_far_date(fd->text.ptr, fd->text.len))
            continue;
        bool is_enum = false;
        size_t pre = sf_fixed_prefix(fd, &is_enum);
        if (pre == 0 || is_enum || sf_contains(fd->path.ptr, pre, "anyof") ||
            sf_contains(fd->path.ptr, pre, "oneof"))
            continue;
        bool kept = false;
        for (size_t k = 0; k < sizeof(keeps) / sizeof(keeps[0]) && !kept; k++)
            kept = sf_contains(fd->path.ptr, pre, keeps[k]);
        if (!kept)
            return (int32_t)fi;
    }
    return -1;
}

/* A constant predicate at t[i] (just after "where "): 1=1, 1 = 1, 'a'='a',
 * true, false, 1=0, 0=1. */
static bool sf_constant_predicate(const char *t, size_t n, size_t i) {
    size_t e = i;
    while (e < n && t[e] != ';' && t[e] != '`' && t[e] != '\n' && t[e] != '"' && t[e] != ',' &&
           e - i < 24 &&
           !(e > i && t[e] == ' ' && e + 1 < n &&
             (t[e + 1] == 'a' || t[e + 1] == 'A' || t[e + 1] == 'o' || t[e + 1] == 'O')))
        e++;
    /* the predicate with its spaces removed */
    char p[24];
    size_t m = 0;
    for (size_t k = i; k < e && m < sizeof(p); k++)
        if (t[k] != ' ' && t[k] != '(' && t[k] != ')')
            p[m++] = (char)((t[k] >= 'A' && t[k] <= 'Z') ? t[k] + 32 : t[k]);
    if (m == 4 && memcmp(p, "true", 4) == 0)
        return true;
    if (m == 5 && memcmp(p, "false", 5) == 0)
        return true;
    /* x=y with both sides the same literal, or two different digits */
    const char *eq = memchr(p, '=', m);
    if (eq == NULL || eq == p || (size_t)(eq - p) + 1 >= m)
        return false;
    size_t l = (size_t)(eq - p), r = m - l - 1;
    bool lit_l = sf_digits(p, l) || (l >= 2 && p[0] == '\'' && p[l - 1] == '\'');
    bool lit_r = sf_digits(eq + 1, r) || (r >= 2 && eq[1] == '\'' && eq[r] == '\'');
    return lit_l && lit_r;
}

int32_t mv_constant_where_field(const mv_tool *tool) {
    static const char *const stmts[] = {"delete from", "delete ", "update ", "create or replace",
                                        "truncate"};
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME ||
            n < 16)
            continue;
        /* jump from one 'w' to the next (a "where" or a "WHERE") */
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i + 6 < n; i++) {
                const char *w = memchr(t + i, pass == 0 ? 'w' : 'W', n - 6 - i);
                if (w == NULL)
                    break;
                i = (size_t)(w - t);
                if ((t[i + 1] | 0x20) != 'h' || (t[i + 2] | 0x20) != 'e' ||
                    (i > 0 && sf_letter(t, i - 1)) || !sf_contains(t + i, 6, "where ") ||
                    !sf_constant_predicate(t, n, i + 6))
                    continue;
                /* a destroying statement earlier in the same statement */
                size_t a = i;
                while (a > 0 && t[a - 1] != ';' && t[a - 1] != '`' && t[a - 1] != '\n' &&
                       i - a < 240)
                    a--;
                for (size_t k = 0; k < sizeof(stmts) / sizeof(stmts[0]); k++)
                    if (sf_find_word(t + a, i - a, &stmts[k], 1, false, NULL))
                        return (int32_t)fi;
            }
        }
    }
    return -1;
}

/* ------------------------- round 25 (dest25): flags that force and
 * widen
 *
 * A fixed flags value that both forces an act (no check, no grace, no
 * root guard) and widens it to everything names a destroy by meaning:
 * `--prune --all --force` applied, `--force --mirror` pushed. Whole
 * tokens only ("--force-with-lease" keeps its check). */

static bool sf_flag_token(const char *t, size_t n, const char *const *ws, size_t nw) {
    for (size_t i = 0; i < n;) {
        while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == ',' || t[i] == '"' || t[i] == '\''))
            i++;
        size_t s = i;
        while (i < n && t[i] != ' ' && t[i] != '\t' && t[i] != ',' && t[i] != '"' && t[i] != '\'')
            i++;
        for (size_t k = 0; k < nw; k++)
            if (strlen(ws[k]) == i - s && memcmp(t + s, ws[k], i - s) == 0)
                return true;
    }
    return false;
}

int32_t mv_force_all_flags_field(const mv_tool *tool) {
    static const char *const force[] = {
        "--force", "--grace-period=0",       "--no-preserve-root", "-rf", "-fr",
        "-Rf",     "--yes-i-really-mean-it", "--force-delete"};
    static const char *const all[] = {"--all",   "--all-namespaces", "--mirror",
                                      "--prune", "--recursive",      "--prune-all",
                                      "-A",      "--everything"};
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->text.len < 7 || fd->text.len > 400 ||
            memchr(fd->text.ptr, '-', fd->text.len) == NULL)
            continue;
        bool is_enum = false;
        size_t pre = sf_fixed_prefix(fd, &is_enum);
        if (pre == 0 || is_enum)
            continue;
        if (sf_flag_token(fd->text.ptr, fd->text.len, force, sizeof(force) / sizeof(force[0])) &&
            sf_flag_token(fd->text.ptr, fd->text.len, all, sizeof(all) / sizeof(all[0])))
            return (int32_t)fi;
    }
    return -1;
}

/* ------------------------- round 27 (dest27): a destroying command
 * written as a step
 *
 * The command is the act and its object at once, in any language of the
 * prose around it: `rm -rf ...`, `git push --force`, `DROP TABLE`. Read
 * where the text sets it apart as code (a code span, a fence, a title,
 * an annotation, a value, an output field) and, for SQL, in capitals
 * anywhere. The caller decides whose job it is. */

/* Lower-case forms, each with its flag or object ("rm", "delete" or
 * "drop" alone never match); the round-18 and round-19 lists plus the
 * forms of git branches, key stores and vacuums. */
static const char *const sf_step_forms[] = {
    /* the file-removing forms first (SF_N_FILE_FORMS): their target
     * decides */
    "rm -rf ",
    "rm -fr ",
    "rm -r -f ",
    "rm -r ",
    "rm -f ",
    "shred ",
    "rd /s",
    "rmdir /s",
    "del /f",
    "del /s",
    "del /q",
    "remove-item -recurse",
    "--no-preserve-root",
    "push --force",
    "push -f ",
    "push origin --delete",
    "push --delete",
    "push --mirror",
    "reset --hard",
    "clean -fd",
    "branch -d ",
    "branch --delete",
    "dropdatabase(",
    "flushall",
    "flushdb",
    "kill -9 ",
    "kill -kill ",
    "killall ",
    "pkill -9",
    "taskkill /f",
    "delete namespace",
    "delete ns ",
    "delete --all",
    "system prune -a",
    "volume rm ",
    "npm unpublish",
    "dd if=/dev/",
    "mkfs.",
    "wipefs",
    "zeroize",
    "format c:",
    "terraform destroy",
    "s3 rm s3://",
    "gsutil -m rm",
    "gsutil rm -r",
    "projects delete",
    "repo delete",
    "crontab -r",
    "iptables -f",
    "vacuum full",
    "retain 0 hours",
    "purge --all",
    "deleteall(",
    "deletemany({})",
    "find / -",
    "kubeadm reset",
    "helm uninstall",
    "secrets disable ",
    "of=/dev/sd",
    "of=/dev/nvme",
    "of=/dev/disk",
    "diskutil erase",
    "vssadmin delete",
    "cipher /w:",
    "bcdedit /delete",
    "truncate -s 0",
    "drop table",
    "drop database",
    "drop schema",
    "drop collection",
    "truncate table",
    "delete from ",
};
/* SQL in capitals is code wherever it stands ("delete from the list" is
 * prose). */
static const char *const sf_step_sql[] = {"DROP TABLE", "DROP DATABASE", "DROP SCHEMA",
                                          "TRUNCATE TABLE", "DELETE FROM "};
enum { SF_N_STEP = sizeof(sf_step_forms) / sizeof(sf_step_forms[0]), SF_N_FILE_FORMS = 12 };

static uint8_t sf_step_at[257];
static uint8_t sf_step_by[SF_N_STEP];
static uint8_t sf_step_len[SF_N_STEP];
static pthread_once_t sf_step_once = PTHREAD_ONCE_INIT;

static void sf_step_build(void) {
    sf_group(sf_step_forms, SF_N_STEP, sf_step_at, sf_step_by);
    for (size_t k = 0; k < SF_N_STEP; k++)
        sf_step_len[k] = (uint8_t)strlen(sf_step_forms[k]);
}

/* Negators of a clause: before the command ("never run", "do not use",
 * "nunca ejecutes", "nie uruchamiaj", "不要执行") or after it in its
 * sentence, as verb-final languages and German put them ("nicht
 * ausführen", "実行しないで", "하지 마세요", "çalıştırmayın" is a suffix:
 * not read). Also the words of a warning: an honest text names a
 * dangerous command to keep the model from it. */
static const char *const sf_step_neg_before[] = {
    "never",   "not ",     "n't",      "no ",     "without", "avoid",  "instead of", "rather than",
    "nunca",   "jamais",   "niemals",  "nie ",    "nooit",   "mai ",   "ne pas",     "n'",
    "não",     "non ",     "nicht",    "kein",    "niet ",   "ikke",   "inte ",      "ei ",
    "никогда", "не ",      "нельзя",   "ніколи",  "不要",    "切勿",   "禁止",       "请勿",
    "勿",      "절대",     "하지 말",  "결코",    "μην ",    "ποτέ",   "asla",       "jangan",
    "tidak",   "đừng",     "không",    "אל ",     "لا ",     "هرگز",   "nikdy",      "nigdy",
    "prevent", "prevents", "block",    "refuse",  "reject",  "danger", "unsafe",     "warn",
    "detect",  "flag",     "dangereu", "gefährl", "peligros"};
static const char *const sf_step_neg_after[] = {
    "nicht",     "niet",         "ikke",          "inte",     "しない",      "しないで",
    "禁止",      "ないで",       "하지 마",       "하지 않",  "금지",        "는 안",
    "不要",      "禁止使用",     "είναι επικίνδ", "verboten", "interdit",    "prohib",
    "forbidden", "is dangerous", "are dangerous", "never",    "not allowed", "blocked",
    "rejected",  "refused",      "denied"};

/* Where the clause before t[i] starts: after a line break, a sentence
 * end, a table cell, an em or en dash, 。, ！ or ；, at most 120 bytes
 * back. */
static size_t sf_clause_start(const char *t, size_t i) {
    size_t a = i > 120 ? i - 120 : 0;
    for (size_t k = i; k > a; k--) {
        unsigned char c = (unsigned char)t[k - 1];
        if (c == '\n' || c == ';' || c == '!' || c == '?' || c == '|' ||
            (c == '.' && (t[k] == ' ' || t[k] == '\n')))
            return k;
        if (k >= a + 3 && (unsigned char)t[k - 3] == 0xe2 && (unsigned char)t[k - 2] == 0x80 &&
            (c == 0x93 || c == 0x94))
            return k;
        if (k >= a + 3 && (unsigned char)t[k - 3] == 0xe3 && (unsigned char)t[k - 2] == 0x80 &&
            c == 0x82)
            return k;
        if (k >= a + 3 && (unsigned char)t[k - 3] == 0xef && (unsigned char)t[k - 2] == 0xbc &&
            (c == 0x81 || c == 0x9b))
            return k;
    }
    return a;
}

static bool sf_step_negated(const char *t, size_t n, size_t i, size_t e) {
    size_t a = sf_clause_start(t, i);
    for (size_t k = 0; k < sizeof(sf_step_neg_before) / sizeof(sf_step_neg_before[0]); k++) {
        size_t l = strlen(sf_step_neg_before[k]);
        for (size_t j = a; j + l <= i; j++)
            if (sf_contains(t + j, l, sf_step_neg_before[k]) &&
                (j == 0 || !sf_letter(t, j - 1) || (unsigned char)t[j] >= 0x80))
                return true;
    }
    size_t z = e;
    while (z < n && z < e + 160 && t[z] != '\n' && t[z] != ';' &&
           !(t[z] == '.' && (z + 1 == n || t[z + 1] == ' ')) &&
           !((unsigned char)t[z] == 0xe3 && z + 2 < n && t[z + 1] == (char)0x80 &&
             t[z + 2] == (char)0x82))
        z++;
    for (size_t k = 0; k < sizeof(sf_step_neg_after) / sizeof(sf_step_neg_after[0]); k++) {
        size_t l = strlen(sf_step_neg_after[k]);
        for (size_t j = e; j + l <= z; j++)
            if (sf_contains(t + j, l, sf_step_neg_after[k]) &&
                (!sf_letter(t, j - 1) || (unsigned char)t[j] >= 0x80))
                return true;
    }
    return false;
}

/* A form's end must end its token when the form ends in a letter
 * ("push --force-with-lease" keeps its check, "killall" is not
 * "killall-safe"). */
static bool sf_step_end_ok(const char *t, size_t n, size_t e, const char *form, size_t l) {
    char last = form[l - 1];
    if (!((last >= 'a' && last <= 'z') || (last >= '0' && last <= '9')))
        return true;
    return e == n || !(sf_ident(t[e]) || t[e] == '-');
}

/* Is the target after a file-removing form at t[e] narrow: a relative
 * path of the project with no wildcard ("dist/", "build", "./out"), or a
 * cache, temporary, log or build directory anywhere? "rm -rf dist/"
 * clears a build's output; "rm -rf ~", a root path or a wildcard
 * reach past it. */
static bool sf_path_spare_in(const char *t, size_t n);
static bool sf_step_narrow(const char *t, size_t n, size_t e) {
    size_t z = e;
    for (;;) {
        /* the target is the first token that is not an option ("-u",
         * "--force", "/q") */
        e = z;
        while (e < n && t[e] == ' ')
            e++;
        z = e;
        while (z < n && t[z] != ' ' && t[z] != '`' && t[z] != '\n' && t[z] != ';' && t[z] != '&' &&
               t[z] != '\'' && t[z] != '"')
            z++;
        if (z == e)
            return false;
        if (t[e] != '-' && !(t[e] == '/' && z - e == 2))
            break;
    }
    if (sf_path_spare_in(t + e, z - e))
        return true;
    if (t[e] == '/' || t[e] == '~' || t[e] == '$' || t[e] == '%' || t[e] == '*' || t[e] == '\\' ||
        (z - e >= 2 && t[e + 1] == ':'))
        return false;
    if (t[e] == '.' && (z - e == 1 || (z - e == 2 && t[e + 1] == '/') || t[e + 1] == '.'))
        return false; /* ".", "./", ".." */
    return memchr(t + e, '*', z - e) == NULL;
}

/* Does the tool's name hold a word of four letters or more of the form
 * ("mirror_repo" and `push --mirror`, "disable_secrets_engine" and
 * `secrets disable`)? The command is then the tool's own act, named. */
static bool sf_form_named(const char *form, size_t fl, mv_str name) {
    for (size_t i = 0; i < fl;) {
        while (i < fl && !(form[i] >= 'a' && form[i] <= 'z'))
            i++;
        size_t w = i;
        while (i < fl && form[i] >= 'a' && form[i] <= 'z')
            i++;
        if (i - w < 4 || i - w > 16)
            continue;
        char word[17];
        memcpy(word, form + w, i - w);
        word[i - w] = '\0';
        if (sf_contains(name.ptr, name.len, word))
            return true;
    }
    return false;
}

/* A destroying form in t[s, e) of a field of length n, not negated, not
 * named by the tool's own name. */
static bool sf_step_in(const char *t, size_t n, size_t s, size_t e, mv_str name) {
    for (size_t i = s; i < e; i++) {
        unsigned char b = (unsigned char)t[i];
        unsigned char lower = (b >= 'A' && b <= 'Z') ? (unsigned char)(b + 32) : b;
        if (sf_step_at[lower] == sf_step_at[lower + 1])
            continue;
        /* a command starts a token: "undrop table" is another */
        if (i > s && (sf_ident(t[i - 1]) || (t[i - 1] == '-' && b != '-')))
            continue;
        for (unsigned j = sf_step_at[lower]; j < sf_step_at[lower + 1]; j++) {
            size_t k = sf_step_by[j];
            size_t l = sf_step_len[k];
            if (l <= e - i && sf_contains(t + i, l, sf_step_forms[k]) &&
                sf_step_end_ok(t, n, i + l, sf_step_forms[k], l) &&
                !(k < SF_N_FILE_FORMS && sf_step_narrow(t, e, i + l)) &&
                !sf_step_negated(t, n, i, i + l) && !sf_form_named(sf_step_forms[k], l, name))
                return true;
        }
    }
    return false;
}

/* "TRUNCATE name" closed as a statement (";", "CASCADE", a closing
 * backtick or bracket) or "UPDATE name SET ..." with no WHERE before the
 * statement ends: every row of the table. i is at the keyword. */
static bool sf_step_bare_sql(const char *t, size_t n, size_t i, size_t kl, bool update) {
    size_t j = i + kl;
    size_t s = j;
    while (j < n && (sf_ident(t[j]) || t[j] == '.' || t[j] == '"' || t[j] == '`'))
        j++;
    if (j == s || j - s > 64)
        return false;
    if (!update) {
        while (j < n && t[j] == ' ')
            j++;
        return j == n || t[j] == ';' || t[j] == '`' || t[j] == ')' ||
               (n - j >= 7 && memcmp(t + j, "CASCADE", 7) == 0);
    }
    if (n - j < 5 || memcmp(t + j, " SET ", 5) != 0)
        return false;
    for (size_t k = j + 5; k < n && k < j + 200; k++) {
        if (t[k] == ';' || t[k] == '`' || t[k] == '\n')
            return true;
        if (t[k] == 'W' && n - k >= 5 && memcmp(t + k, "WHERE", 5) == 0)
            return false;
        if (t[k] == 'w' && n - k >= 5 && memcmp(t + k, "where", 5) == 0)
            return false;
    }
    return false;
}

/* SQL keywords in capitals anywhere in the field, not negated; and
 * "kubectl delete KIND --all" in prose. */
static bool sf_step_sql_in(const char *t, size_t n) {
    static const char lead[] = {'D', 'T', 'U', 'k'};
    for (size_t pass = 0; pass < sizeof(lead); pass++) {
        for (size_t i = 0; i + 8 < n; i++) {
            const char *p = memchr(t + i, lead[pass], n - 8 - i);
            if (p == NULL)
                break;
            i = (size_t)(p - t);
            if (i > 0 && sf_ident(t[i - 1]))
                continue;
            size_t l = 0;
            if (lead[pass] == 'k') {
                if (n - i > 15 && memcmp(t + i, "kubectl delete ", 15) == 0 &&
                    sf_delete_all(t + i, n - i))
                    l = 15;
            } else if (lead[pass] == 'U') {
                if (memcmp(t + i, "UPDATE ", 7) == 0 && sf_step_bare_sql(t, n, i, 7, true))
                    l = 7;
            } else if (lead[pass] == 'T' && memcmp(t + i, "TRUNCATE ", 9) == 0 &&
                       sf_step_bare_sql(t, n, i, 9, false)) {
                l = 9;
            } else {
                for (size_t k = 0; k < sizeof(sf_step_sql) / sizeof(sf_step_sql[0]) && l == 0;
                     k++) {
                    size_t fl = strlen(sf_step_sql[k]);
                    if (fl <= n - i && memcmp(t + i, sf_step_sql[k], fl) == 0)
                        l = fl;
                }
            }
            if (l > 0 && !sf_step_negated(t, n, i, i + l))
                return true;
        }
    }
    return false;
}

int32_t mv_destroy_step_field(const mv_tool *tool) {
    bool built = false;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME ||
            fd->text.len < 6)
            continue;
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        bool apart = fd->kind == MV_FIELD_ANNOTATION || fd->kind == MV_FIELD_SCHEMA_VALUE ||
                     fd->kind == MV_FIELD_TITLE || fd->schema == MV_SCHEMA_OUTPUT;
        const char *tick = apart ? NULL : memchr(t, '`', n);
        if (sf_step_sql_in(t, n))
            return (int32_t)fi;
        if (!apart && tick == NULL)
            continue;
        if (!built) {
            pthread_once(&sf_step_once, sf_step_build);
            built = true;
        }
        if (apart) {
            if (sf_step_in(t, n, 0, n, tool->name))
                return (int32_t)fi;
            continue;
        }
        /* each code span (or fence) in turn: from one backtick run to the
         * next */
        size_t i = (size_t)(tick - t);
        while (i < n) {
            size_t s = i;
            while (s < n && t[s] == '`')
                s++;
            const char *c = s < n ? memchr(t + s, '`', n - s) : NULL;
            size_t e = c == NULL ? n : (size_t)(c - t);
            if (c == NULL)
                break;
            if (sf_step_in(t, n, s, e, tool->name))
                return (int32_t)fi;
            i = e;
            while (i < n && t[i] == '`')
                i++;
            const char *nx = i < n ? memchr(t + i, '`', n - i) : NULL;
            if (nx == NULL)
                break;
            i = (size_t)(nx - t);
        }
    }
    return -1;
}

/* ------------------------- round 27 (dest27): the user's own machine as
 * the object of a destroying act
 *
 * A path that names the user's own state outside any workspace (a home
 * dotfile or dot-directory, a home folder, the home itself, a system
 * directory) in a sentence whose verb destroys it: "padam fail
 * ~/.wallet/keystore", "sobrescribe /etc/hosts y ~/.bashrc", "burahin
 * ang buong folder ng ~/Projects". The path is the object; whatever the
 * tool's job, unless the job is about that very thing (a tool named for
 * ssh keys may remove `~/.ssh/id_old`) or the path is a cache, a trash,
 * a log or a temporary directory. */

/* Destroying verbs for a path object: the fixed-value and waiver verbs
 * plus removes, empties and overwrites in more languages. */
static const char *const sf_path_verb[] = {
    "remov",   "overwrit", "clear",   "empty",  "wipe",   "rm ",     "burahin",  "buang",
    "futa",    "poista",   "slet",    "radera", "töröl",  "izbriši", "obriši",   "vymaž",
    "ištrin",  "मिटा",     "हटा",     "মুছ",     "kaldır", "sil ",    "eliminar", "elimina",
    "entfern", "leeg",     "опустош", "обнул",  "ลบทิ้ง",   "消して"};

/* Path segments that are meant to be thrown away. */
static const char *const sf_path_spare[] = {"cache", "tmp",   "temp", "trash",
                                            "log",   "build", "dist", "node_modules"};

static bool sf_path_spare_in(const char *t, size_t n) {
    for (size_t k = 0; k < sizeof(sf_path_spare) / sizeof(sf_path_spare[0]); k++)
        if (sf_contains(t, n, sf_path_spare[k]))
            return true;
    return false;
}

/* Where a path token starting at t[i] names the user's own state: a home
 * prefix followed by a dot segment, a capitalised folder or nothing; or
 * a system directory. Its first segment (the thing a job would be named
 * for) in [*s0, *s1). */
static bool sf_own_path_at(const char *t, size_t n, size_t i, size_t *s0, size_t *s1) {
    static const char *const sys[] = {"/etc/", "/srv/", "/var/lib/"};
    size_t j = i;
    bool home = false;
    if (t[i] == '~') {
        home = true;
        j = i + 1;
    } else if (n - i >= 5 && memcmp(t + i, "$HOME", 5) == 0) {
        home = true;
        j = i + 5;
    } else if (n - i >= 13 && sf_contains(t + i, 13, "%userprofile%")) {
        home = true;
        j = i + 13;
    }
    if (home) {
        if (j < n && t[j] != '/' && t[j] != '\\' && t[j] != ' ' && t[j] != '`' && t[j] != ',' &&
            t[j] != '\'' && t[j] != '"')
            return false; /* "~user", "~5 minutes" */
        if (j < n && (t[j] == '/' || t[j] == '\\'))
            j++;
        *s0 = j;
        while (j < n && (sf_ident(t[j]) || t[j] == '.' || t[j] == '-'))
            j++;
        *s1 = j;
        if (*s1 == *s0)
            return true; /* the home itself */
        /* a dot segment (".ssh") or a capitalised folder ("Documents") */
        if (t[*s0] == '.' || (t[*s0] >= 'A' && t[*s0] <= 'Z'))
            return true;
        return false;
    }
    for (size_t k = 0; k < sizeof(sys) / sizeof(sys[0]); k++) {
        size_t l = strlen(sys[k]);
        if (l <= n - i && sf_contains(t + i, l, sys[k])) {
            *s0 = i + l;
            j = *s0;
            while (j < n && (sf_ident(t[j]) || t[j] == '.' || t[j] == '-'))
                j++;
            *s1 = j;
            return true;
        }
    }
    return false;
}

static size_t sf_sentence_start(const char *t, size_t i) {
    size_t a = i > 240 ? i - 240 : 0;
    for (size_t k = i; k > a; k--) {
        char c = t[k - 1];
        if (c == '\n' || c == ';' || ((c == '.' || c == '!' || c == '?') && t[k] == ' '))
            return k;
        if (k >= a + 3 && (unsigned char)t[k - 3] == 0xe3 && (unsigned char)t[k - 2] == 0x80 &&
            (unsigned char)c == 0x82)
            return k;
    }
    return a;
}

/* Does the tool's job name a segment of the path t[s0, z): a segment's
 * first word (after a leading dot, before "-", "_", ".", a capital after
 * a small letter or a trailing "rc": ".elias-mcp.json" is "elias",
 * ".bashrc" is "bash", "DerivedData" is "derived") in the tool's name,
 * server or the first sentence of its description (before the path,
 * when the path is in it)? A tool's own config file is its job's. */
static bool sf_job_word(const mv_tool *tool, const char *t, size_t s0, size_t l, size_t cap) {
    if (l > 4 && sf_contains(t + s0 + l - 2, 2, "rc"))
        l -= 2;
    if (l < 3 || l > 40)
        return false;
    char w[41];
    for (size_t k = 0; k < l; k++)
        w[k] = (char)((t[s0 + k] >= 'A' && t[s0 + k] <= 'Z') ? t[s0 + k] + 32 : t[s0 + k]);
    w[l] = '\0';
    const char *d = tool->description.ptr;
    size_t e = sf_sentence_end(d, tool->description.len, 0);
    if (e > cap)
        e = cap; /* the path itself is no job word */
    return sf_contains(tool->name.ptr, tool->name.len, w) ||
           sf_contains(tool->server.ptr, tool->server.len, w) || sf_contains(d, e, w);
}

static bool sf_job_names(const mv_tool *tool, const char *t, size_t s0, size_t z, size_t cap) {
    size_t i = s0;
    while (i < z) {
        while (i < z && (t[i] == '/' || t[i] == '\\' || t[i] == '.'))
            i++;
        size_t l = 0;
        while (i + l < z && t[i + l] != '-' && t[i + l] != '_' && t[i + l] != '.' &&
               t[i + l] != '/' && t[i + l] != '\\' &&
               !(l > 0 && t[i + l] >= 'A' && t[i + l] <= 'Z' && t[i + l - 1] >= 'a' &&
                 t[i + l - 1] <= 'z'))
            l++;
        if (sf_job_word(tool, t, i, l, cap) || (i == s0 + (t[s0] == '.') && l > 0 && l < 3))
            return true; /* a first word too short to tell ("~/.gh") is left */
        /* on to the next segment */
        while (i < z && t[i] != '/' && t[i] != '\\')
            i++;
    }
    return false;
}

int32_t mv_own_path_destroy_field(const mv_tool *tool) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->window_of != 0 || fd->kind == MV_FIELD_NAME || fd->kind == MV_FIELD_PROPERTY_NAME ||
            fd->text.len < 8)
            continue;
        const char *t = fd->text.ptr;
        size_t n = fd->text.len;
        static const char lead[] = {'~', '$', '%', '/'};
        for (size_t p = 0; p < sizeof(lead); p++) {
            for (size_t i = 0; i < n; i++) {
                const char *q = memchr(t + i, lead[p], n - i);
                if (q == NULL)
                    break;
                i = (size_t)(q - t);
                /* a path token starts after a space, a quote, a bracket or
                 * the field start (not inside a URL or another path) */
                if (i > 0 &&
                    !(t[i - 1] == ' ' || t[i - 1] == '`' || t[i - 1] == '\'' || t[i - 1] == '"' ||
                      t[i - 1] == '(' || t[i - 1] == '\n' || (unsigned char)t[i - 1] >= 0x80))
                    continue;
                size_t s0, s1;
                if ((lead[p] == '/' && i + 4 >= n) || !sf_own_path_at(t, n, i, &s0, &s1))
                    continue;
                /* the rest of the token: a spare segment anywhere keeps it */
                size_t z = s1;
                while (z < n && t[z] != ' ' && t[z] != '`' && t[z] != '\'' && t[z] != '"' &&
                       t[z] != ',' && t[z] != ')' && t[z] != '\n')
                    z++;
                size_t cap = t == tool->description.ptr ? i : (size_t)-1;
                if (sf_path_spare_in(t + i, z - i) || sf_job_names(tool, t, s0, z, cap))
                    continue;
                size_t ss = sf_sentence_start(t, i);
                size_t se = sf_sentence_end(t, n, z);
                size_t v = 0;
                const char *const *lists[] = {sf_fverb, sf_waive_verb, sf_path_verb};
                const size_t counts[] = {sizeof(sf_fverb) / sizeof(sf_fverb[0]),
                                         sizeof(sf_waive_verb) / sizeof(sf_waive_verb[0]),
                                         sizeof(sf_path_verb) / sizeof(sf_path_verb[0])};
                for (size_t L = 0; L < 3; L++) {
                    if (sf_find_word(t + ss, se - ss, lists[L], counts[L], false, &v) &&
                        !sf_step_negated(t, n, ss + v, ss + v + 1) && !sf_past_close(t, ss + v) &&
                        !sf_find_word(t + ss, v, sf_waive_none,
                                      sizeof(sf_waive_none) / sizeof(sf_waive_none[0]), false,
                                      NULL))
                        return (int32_t)fi;
                }
            }
        }
    }
    return -1;
}
