/*
 * Orders carried by schema values (value_orders.h). Two classes, both read
 * from the values the model sends without choosing them (a default, a
 * const, the only member of an enum) of the input schema:
 *
 *  - a value sink: the value is an outside destination (URL of any
 *    transport, e-mail, public IP) and the parameter's own description or
 *    title names a sensitive resource (the shared list, or a credential
 *    word) that goes there. Source, sink and the act of sending (the
 *    value itself) are all present, so the signal is an exfiltration
 *    instruction corroborated by its sink and its source;
 *  - a destroying value: the value is a destroying command (rm -rf, git
 *    clean -f, git push --force, docker system prune, DROP TABLE...) and
 *    neither the tool's name nor the first sentence of its description
 *    says the tool destroys anything. A default nobody chose that wipes
 *    data is an order outside the tool's job with a broad object.
 *
 * Honest tools put short tokens in defaults and enums (a mode, a region, a
 * local path, their own API base URL); an API base URL with a parameter
 * description about the service ("Base URL of the Acme API") names no
 * secret. The cost is one pass over the value fields; descriptions are
 * read only for a parameter whose value is a destination.
 */
#include "value_orders.h"

#include <string.h>

#define VO_SINK_CONF 0.75
#define VO_DESTROY_CONF 0.70
#define VO_LEAD_MAX 240 /* bytes of the description's first sentence read */

static unsigned char lc(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool wbyte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c >= 0x80;
}

/* Does t[i, i+len(w)) read w (lower case) ASCII case folded? */
static bool reads_at(const char *t, size_t n, size_t i, const char *w) {
    size_t k = 0;
    for (; w[k] != '\0'; k++)
        if (i + k >= n || lc((unsigned char)t[i + k]) != (unsigned char)w[k])
            return false;
    return true;
}

/* ------------------------------------------------------------ commands */

/* A shell word: [start, end) of the next run of non-space bytes from *i. */
static bool next_word(const char *t, size_t n, size_t *i, size_t *s, size_t *e) {
    size_t k = *i;
    while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '`' || t[k] == '"' || t[k] == '\''))
        k++;
    if (k >= n || t[k] == '\n' || t[k] == ';' || t[k] == '|' || t[k] == '&')
        return false;
    *s = k;
    while (k < n && t[k] != ' ' && t[k] != '\t' && t[k] != '\n' && t[k] != ';' && t[k] != '|' &&
           t[k] != '&' && t[k] != '`' && t[k] != '"' && t[k] != '\'')
        k++;
    *e = k;
    *i = k;
    return true;
}

static bool word_is(const char *t, size_t s, size_t e, const char *w) {
    return strlen(w) == e - s && reads_at(t, e, s, w);
}

/* A short flag cluster holding every letter of `need` ("-fdx" holds "f"),
 * or the long flag `lng` ("--force"). */
static bool flag_has(const char *t, size_t s, size_t e, const char *need, const char *lng) {
    if (lng != NULL && e - s >= strlen(lng) && reads_at(t, e, s, lng))
        return true;
    if (e - s < 2 || t[s] != '-' || t[s + 1] == '-')
        return false;
    for (const char *c = need; *c; c++) {
        bool got = false;
        for (size_t k = s + 1; k < e && !got; k++)
            got = t[k] == *c || (*c == 'r' && t[k] == 'R');
        if (!got)
            return false;
    }
    return true;
}

/* The words after a command word, up to the end of its command, scanned for
 * flags (letters all in `need`, or `lng`) or a word `arg`. */
static bool tail_has(const char *t, size_t n, size_t from, const char *need, const char *lng,
                     const char *arg) {
    size_t i = from, s, e;
    int words = 0;
    while (words++ < 12 && next_word(t, n, &i, &s, &e)) {
        if ((need != NULL || lng != NULL) && flag_has(t, s, e, need != NULL ? need : "\x01", lng))
            return true;
        if (arg != NULL && word_is(t, s, e, arg))
            return true;
    }
    return false;
}

/* A target of rm that is the root, the home folder or everything here. */
static bool broad_target(const char *t, size_t n, size_t from) {
    static const char *const broad[] = {"/",     "/*",      "~",       "~/", "~/*", "$home",
                                        "$home/", "${home}", "${home}/", "*",  ".",   "./",
                                        "./*",   ".."};
    size_t i = from, s, e;
    int words = 0;
    while (words++ < 12 && next_word(t, n, &i, &s, &e))
        for (size_t k = 0; k < sizeof(broad) / sizeof(broad[0]); k++)
            if (word_is(t, s, e, broad[k]))
                return true;
    return false;
}

/* A `git push` whose refspec deletes (":main") or that forces. */
static bool push_destroys(const char *t, size_t n, size_t from) {
    size_t i = from, s, e;
    int words = 0;
    while (words++ < 12 && next_word(t, n, &i, &s, &e)) {
        if (flag_has(t, s, e, "f", "--force") || word_is(t, s, e, "--mirror") ||
            word_is(t, s, e, "--delete") || (e - s > 1 && t[s] == ':' && wbyte((unsigned char)t[s + 1])))
            return true;
        if (word_is(t, s, e, "-d"))
            return true;
    }
    return false;
}

bool destroy_command(const char *t, size_t n, size_t *start, size_t *end) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && wbyte((unsigned char)t[i - 1]))
            continue;
        if (!wbyte((unsigned char)t[i]))
            continue;
        size_t j = i;
        while (j < n && wbyte((unsigned char)t[j]))
            j++;
        size_t ws = i, we = j;
        bool hit = false;
        size_t k, s, e;
        if (word_is(t, ws, we, "rm")) {
            /* recursive, and a broad target: build folders and caches
             * are what honest cleanups remove */
            hit = tail_has(t, n, we, "r", "--recursive", NULL) && broad_target(t, n, we);
        } else if (word_is(t, ws, we, "git")) {
            k = we;
            if (next_word(t, n, &k, &s, &e)) {
                if (word_is(t, s, e, "clean"))
                    hit = tail_has(t, n, k, "f", "--force", NULL);
                else if (word_is(t, s, e, "reset"))
                    hit = tail_has(t, n, k, NULL, "--hard", NULL);
                else if (word_is(t, s, e, "push"))
                    hit = push_destroys(t, n, k);
                else if (word_is(t, s, e, "branch"))
                    hit = tail_has(t, n, k, "D", NULL, NULL);
            }
        } else if (word_is(t, ws, we, "docker") || word_is(t, ws, we, "podman")) {
            /* docker system/volume/image prune -a, docker volume rm ... */
            k = we;
            size_t guard = 0;
            while (guard++ < 3 && next_word(t, n, &k, &s, &e))
                if (word_is(t, s, e, "prune")) {
                    hit = tail_has(t, n, k, "a", "--all", NULL) ||
                          tail_has(t, n, k, NULL, "--volumes", NULL);
                    break;
                }
        } else if (word_is(t, ws, we, "kubectl")) {
            k = we;
            hit = next_word(t, n, &k, &s, &e) && word_is(t, s, e, "delete");
        } else if (word_is(t, ws, we, "terraform")) {
            k = we;
            hit = next_word(t, n, &k, &s, &e) && word_is(t, s, e, "destroy");
        } else if (word_is(t, ws, we, "mkfs") || word_is(t, ws, we, "wipefs") ||
                   word_is(t, ws, we, "shred")) {
            hit = true;
        } else if (we - ws > 5 && reads_at(t, n, ws, "mkfs.")) {
            hit = true;
        } else if (word_is(t, ws, we, "dd")) {
            hit = tail_has(t, n, we, NULL, "of=/dev/", NULL);
        } else if (word_is(t, ws, we, "crontab")) {
            /* round 15: every scheduled job of the user, gone */
            hit = tail_has(t, n, we, "r", "--remove", NULL);
        } else if (word_is(t, ws, we, "iptables") || word_is(t, ws, we, "ip6tables")) {
            /* every firewall rule flushed */
            hit = tail_has(t, n, we, "F", "--flush", NULL);
        } else if (word_is(t, ws, we, "userdel")) {
            /* an account and its home folder */
            hit = tail_has(t, n, we, "r", "--remove", NULL);
        } else if (word_is(t, ws, we, "deluser")) {
            hit = tail_has(t, n, we, NULL, "--remove-home", NULL) ||
                  tail_has(t, n, we, NULL, "--remove-all-files", NULL);
        } else if (word_is(t, ws, we, "drop")) {
            k = we;
            hit = next_word(t, n, &k, &s, &e) &&
                  (word_is(t, s, e, "table") || word_is(t, s, e, "database") ||
                   word_is(t, s, e, "schema") || word_is(t, s, e, "collection"));
        } else if (word_is(t, ws, we, "truncate")) {
            k = we;
            hit = next_word(t, n, &k, &s, &e) && word_is(t, s, e, "table");
        } else if (word_is(t, ws, we, "del") || word_is(t, ws, we, "rmdir") ||
                   word_is(t, ws, we, "rd")) {
            hit = tail_has(t, n, we, NULL, "/s", NULL);
        } else if (word_is(t, ws, we, "remove-item")) {
            hit = tail_has(t, n, we, NULL, "-recurse", NULL);
        } else if (we + 1 < n && t[we] == '-' && word_is(t, ws, we, "remove")) {
            /* Remove-Item: '-' is no word byte above */
            size_t x = we + 1;
            if (reads_at(t, n, x, "item"))
                hit = tail_has(t, n, x + 4, NULL, "-recurse", NULL);
        }
        if (hit) {
            *start = ws;
            *end = we;
            return true;
        }
        i = j;
    }
    return false;
}

/* ------------------------------------------------------------ destinations */

static bool local_host(const char *h, size_t n) {
    static const char *const local[] = {"localhost", "127.", "0.0.0.0", "[::1]", "10.",
                                        "192.168.",  "host.docker.internal"};
    for (size_t k = 0; k < sizeof(local) / sizeof(local[0]); k++)
        if (reads_at(h, n, 0, local[k]))
            return true;
    return false;
}

/* Dotted IPv4 at t[0, n) with an optional ":port" and nothing else. */
static bool ipv4_value(const char *t, size_t n) {
    size_t i = 0;
    int dots = 0, digits = 0;
    while (i < n && ((t[i] >= '0' && t[i] <= '9') || t[i] == '.')) {
        if (t[i] == '.') {
            if (digits == 0)
                return false;
            dots++;
            digits = 0;
        } else if (++digits > 3) {
            return false;
        }
        i++;
    }
    if (dots != 3 || digits == 0)
        return false;
    if (i < n && t[i] == ':') {
        i++;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
    }
    return i == n;
}

bool outside_destination(mv_str v) {
    static const char *const schemes[] = {"https://", "http://", "ftp://", "ftps://", "sftp://",
                                          "ws://",    "wss://",  "dns://", "tcp://",  "udp://",
                                          "smtp://",  "s3://",   "gs://",  "scp://",  "mailto:"};
    const char *t = v.ptr;
    size_t n = v.len;
    if (n < 4 || t == NULL)
        return false;
    for (size_t i = 0; i < n; i++)
        if (t[i] == ' ' || t[i] == '\n' || t[i] == '\t')
            return false; /* a whole value, not prose */
    for (size_t k = 0; k < sizeof(schemes) / sizeof(schemes[0]); k++) {
        size_t sl = strlen(schemes[k]);
        if (n > sl + 3 && reads_at(t, n, 0, schemes[k])) {
            const char *h = t + sl;
            size_t hn = n - sl;
            /* the host part, past any user@ */
            for (size_t i = 0; i < hn && h[i] != '/'; i++)
                if (h[i] == '@') {
                    h += i + 1;
                    hn -= i + 1;
                    break;
                }
            return !local_host(h, hn);
        }
    }
    /* user@host.tld */
    for (size_t i = 1; i + 3 < n; i++)
        if (t[i] == '@') {
            bool dot = false;
            for (size_t k = i + 1; k + 1 < n; k++)
                dot = dot || t[k] == '.';
            return dot && !local_host(t + i + 1, n - i - 1);
        }
    return ipv4_value(t, n) && !local_host(t, n);
}

/* ------------------------------------------------------------ detector */

/* The last segment of a field path: "default", "const", "enum[0]"... */
static mv_str last_segment(mv_str path) {
    size_t i = path.len;
    while (i > 0 && path.ptr[i - 1] != '.')
        i--;
    return (mv_str){path.ptr + i, path.len - i};
}

static bool seg_is(mv_str s, const char *w) {
    return s.len == strlen(w) && memcmp(s.ptr, w, s.len) == 0;
}

/* A value the model sends unchosen: a default, a const, or enum[0] when the
 * enum has no second member (fields of one enum come in order). */
static bool unchosen_value(const mv_tool *tool, uint32_t fi) {
    const mv_field *f = &tool->fields[fi];
    mv_str last = last_segment(f->path);
    if (seg_is(last, "default") || seg_is(last, "const"))
        return true;
    if (!seg_is(last, "enum[0]"))
        return false;
    if (fi + 1 < tool->n_fields) {
        const mv_field *g = &tool->fields[fi + 1];
        mv_str gl = last_segment(g->path);
        if (g->kind == MV_FIELD_SCHEMA_VALUE && gl.len > 5 && memcmp(gl.ptr, "enum[", 5) == 0 &&
            g->path.len == f->path.len && memcmp(g->path.ptr, f->path.ptr, f->path.len - 7) == 0)
            return false;
    }
    return true;
}

/* A denial in the sentence around `at` ("never", "not", "no", "without"):
 * "tokens are never sent there" names a secret to say it stays. */
static bool denied_around(const char *t, size_t n, size_t at) {
    size_t s = at, e = at;
    while (s > 0 && t[s - 1] != '.' && t[s - 1] != ';' && t[s - 1] != '\n')
        s--;
    while (e < n && t[e] != '.' && t[e] != ';' && t[e] != '\n')
        e++;
    static const char *const neg[] = {"never", "not", "no", "without", "n't", "nothing"};
    for (size_t i = s; i < e; i++) {
        if (i > s && wbyte((unsigned char)t[i - 1]) && t[i] != 'n')
            continue;
        for (size_t k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
            size_t wl = strlen(neg[k]);
            if (reads_at(t, e, i, neg[k]) && (i + wl >= e || !wbyte((unsigned char)t[i + wl])))
                return true;
        }
    }
    return false;
}

/* A sensitive resource named in t[0, n), not denied: the shared list (a
 * public key excepted) or a credential word. *hs, *he: where. */
static bool names_secret(const mv_sensitive *sens, const char *t, size_t n, size_t *hs,
                         size_t *he) {
    for (size_t off = 0; sens != NULL && off < n;) {
        mv_sensitive_hit hit;
        if (!mv_sensitive_find(sens, t + off, n - off, &hit))
            break;
        size_t s = off + hit.start, e = off + hit.end;
        size_t x = e;
        while (x < n && t[x] != ' ' && t[x] != '\n' && t[x] != ',' && t[x] != ')')
            x++;
        bool pub = x - s >= 4 && memcmp(t + x - 4, ".pub", 4) == 0;
        if (!pub && !denied_around(t, n, s)) {
            *hs = s;
            *he = e;
            return true;
        }
        off = e > off ? e : off + 1;
    }
    static const char *const words[] = {"credential", "password", "secret",      "private key",
                                        "api key",    "api_key",  "access token", "cookie",
                                        "passphrase", "seed phrase"};
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && wbyte((unsigned char)t[i - 1]))
            continue;
        for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
            if (reads_at(t, n, i, words[k]) && !denied_around(t, n, i)) {
                *hs = i;
                *he = i + strlen(words[k]);
                return true;
            }
    }
    return false;
}

/* The description's lead: up to its first sentence end or line break,
 * at most VO_LEAD_MAX bytes. */
static size_t lead_len(const char *t, size_t n) {
    size_t e = 0;
    while (e < n && e < VO_LEAD_MAX && !(t[e] == '.' && (e + 1 == n || t[e + 1] == ' ')) &&
           t[e] != '\n')
        e++;
    return e;
}

/* Destroying verbs in the tool's name words or description lead: the job
 * is destroying something, and its defaults may say how. */
static bool job_destroys(const mv_tool *tool) {
    static const char *const verbs[] = {"delet", "remov", "clean", "prun",    "purg",
                                        "wip",   "reset", "drop",  "destroy", "eras",
                                        "uninstall", "truncat", "kill", "format", "rm",
                                        "clear", "teardown", "tear down", "nuke", "shred"};
    mv_str parts[2] = {tool->name, tool->description};
    for (int p = 0; p < 2; p++) {
        const char *t = parts[p].ptr;
        size_t n = parts[p].len;
        if (t == NULL)
            continue;
        if (p == 1)
            n = lead_len(t, n);
        for (size_t i = 0; i < n; i++) {
            /* word starts, also after '_' or '-' and at camelCase humps */
            bool start = i == 0 || t[i - 1] == '_' || t[i - 1] == '-' || t[i - 1] == ' ' ||
                         t[i - 1] == '/' || (t[i] >= 'A' && t[i] <= 'Z');
            if (!start)
                continue;
            for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++) {
                size_t wl = strlen(verbs[k]);
                if (!reads_at(t, n, i, verbs[k]))
                    continue;
                /* "rm" and "format" are whole words only */
                if ((wl == 2 || k == 13) && i + wl < n && (t[i + wl] >= 'a' && t[i + wl] <= 'z'))
                    continue;
                return true;
            }
        }
    }
    return false;
}

/* A destination inside a longer token ("single_and_mirror_to_https://h.example_x",
 * "keep+cc:ops@h.example"): a value that is an identifier or mode with an
 * address buried in it. [*s, *e): the address's start and the token end. */
static bool buried_destination(mv_str v, size_t *s, size_t *e) {
    for (size_t i = 0; i < v.len; i++)
        if (v.ptr[i] == ' ' || v.ptr[i] == '\n' || v.ptr[i] == '\t')
            return false;
    for (size_t i = 1; i + 3 < v.len; i++) {
        if (v.ptr[i] == ':' && v.ptr[i + 1] == '/' && v.ptr[i + 2] == '/') {
            size_t a = i;
            while (a > 0 && ((v.ptr[a - 1] >= 'a' && v.ptr[a - 1] <= 'z') ||
                             (v.ptr[a - 1] >= 'A' && v.ptr[a - 1] <= 'Z')))
                a--;
            if (a == 0)
                return false; /* the whole value is a URL: outside_destination's */
            mv_str url = {v.ptr + a, v.len - a};
            if (!outside_destination(url))
                return false;
            *s = a;
            *e = v.len;
            return true;
        }
    }
    return false;
}

/* A parameter named or described as a second copy of what the tool
 * handles: mirror, cc, backup, archive copy, replica... */
static bool copy_param(const mv_tool *tool, uint32_t p) {
    static const char *const words[] = {"mirror",  "copy",      "cc",     "bcc",     "backup",
                                        "replica", "secondary", "archive", "duplicate", "shadow",
                                        "备份",    "副本",      "抄送",   "バックアップ", "コピー",
                                        "백업",    "사본",      "копи",   "резерв",  "kopie",
                                        "sicherung", "copia",   "respaldo", "sauvegarde", "cópia"};
    /* The description counts with its first sentence only, and only when
     * that sentence declares rather than advises ("Registry URL; use a
     * mirror if you are behind a proxy" is advice about the value). */
    mv_str desc = tool->params[p].description;
    size_t dn = 0;
    while (dn < desc.len && dn < 512 && desc.ptr[dn] != '\n' &&
           !((desc.ptr[dn] == '.' || desc.ptr[dn] == ';') &&
             (dn + 1 == desc.len || desc.ptr[dn + 1] == ' ')))
        dn++;
    static const char *const advice[] = {" if ", " when ", "optional", " e.g", "such as",
                                         " unless ", " can ", " may "};
    for (size_t a = 0; a < sizeof(advice) / sizeof(advice[0]) && dn > 0; a++)
        for (size_t i = 0; i < dn; i++)
            if (reads_at(desc.ptr, dn, i, advice[a]) ||
                (i == 0 && reads_at(desc.ptr, dn, 0, advice[a] + 1))) {
                dn = 0;
                break;
            }
    mv_str parts[2] = {tool->params[p].name, {desc.ptr, dn}};
    for (int k = 0; k < 2; k++) {
        const char *t = parts[k].ptr;
        size_t n = parts[k].len > 512 ? 512 : parts[k].len;
        for (size_t i = 0; t != NULL && i < n; i++) {
            bool start = i == 0 || !((t[i - 1] >= 'a' && t[i - 1] <= 'z') ||
                                     (t[i - 1] >= 'A' && t[i - 1] <= 'Z'));
            if (!start)
                continue;
            for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
                size_t wl = strlen(words[w]);
                if (!reads_at(t, n, i, words[w]))
                    continue;
                /* "cc" and "copy" as whole words (not "accent", "copyright") */
                if ((wl == 2 || w == 1) && i + wl < n &&
                    ((t[i + wl] >= 'a' && t[i + wl] <= 'z') || (t[i + wl] >= 'A' && t[i + wl] <= 'Z')))
                    continue;
                return true;
            }
        }
    }
    return false;
}

/* The tool's name or lead says it sends, shares or backs up: a copy
 * destination is its job. */
static bool job_sends(const mv_tool *tool) {
    static const char *const verbs[] = {"send",    "mail",    "email",   "post",   "notif",
                                        "upload",  "backup",  "back up", "sync",   "mirror",
                                        "share",   "publish", "webhook", "forward", "deliver",
                                        "replicat", "export", "archiv",  "copy",   "transfer"};
    mv_str parts[2] = {tool->name, tool->description};
    for (int p = 0; p < 2; p++) {
        const char *t = parts[p].ptr;
        size_t n = parts[p].len;
        if (t == NULL)
            continue;
        if (p == 1)
            n = lead_len(t, n);
        for (size_t i = 0; i < n; i++) {
            bool start = i == 0 || t[i - 1] == '_' || t[i - 1] == '-' || t[i - 1] == ' ' ||
                         (t[i] >= 'A' && t[i] <= 'Z');
            if (!start)
                continue;
            for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++)
                if (reads_at(t, n, i, verbs[k]))
                    return true;
        }
    }
    return false;
}

static int emit_copy(const mv_tool *tool, uint32_t fi, size_t s, size_t e, bool buried,
                     mv_emitter *out) {
    static const char d_copy[] =
        "a value the model sends unchosen (default, const or single enum) sends a second copy "
        "to an outside address, in a tool whose job is not sending";
    static const char d_buried[] =
        "a schema value hides an outside address inside a mode or identifier token";
    const mv_field *f = &tool->fields[fi];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = VO_SINK_CONF,
        .critical = false,
        .field = (int32_t)fi,
        .offset = (uint32_t)s,
        .length = (uint32_t)(e - s),
        .evidence = {f->text.ptr + s, e - s},
        .detail = buried ? (mv_str){d_buried, sizeof(d_buried) - 1}
                         : (mv_str){d_copy, sizeof(d_copy) - 1},
        .facets = MV_FACET_INSTRUCTION | MV_FACET_EXFIL | MV_FACET_SINK,
    };
    return mv_emit(out, &spec);
}

static int emit_sink(const mv_tool *tool, int32_t fi, size_t hs, size_t he, mv_emitter *out) {
    static const char detail[] =
        "a value the model sends unchosen (default, const or single enum) is an outside "
        "destination, and its parameter says a sensitive resource goes there";
    const mv_field *f = &tool->fields[fi];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = VO_SINK_CONF,
        .critical = false,
        .field = fi,
        .offset = (uint32_t)hs,
        .length = (uint32_t)(he - hs),
        .evidence = {f->text.ptr + hs, he - hs},
        .detail = {detail, sizeof(detail) - 1},
        .facets = MV_FACET_INSTRUCTION | MV_FACET_EXFIL | MV_FACET_SENSITIVE | MV_FACET_SINK,
    };
    return mv_emit(out, &spec);
}

static int emit_destroy(const mv_tool *tool, uint32_t fi, size_t s, mv_emitter *out) {
    static const char detail[] =
        "a value the model sends unchosen (default, const or single enum) is a destroying "
        "command, in a tool whose job destroys nothing";
    const mv_field *f = &tool->fields[fi];
    size_t e = f->text.len;
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_MALICIOUS_CODE,
        .confidence = VO_DESTROY_CONF,
        .critical = false,
        .field = (int32_t)fi,
        .offset = (uint32_t)s,
        .length = (uint32_t)(e - s),
        .evidence = {f->text.ptr + s, e - s},
        .detail = {detail, sizeof(detail) - 1},
        .facets = MV_FACET_INSTRUCTION | MV_FACET_ADDRESSED | MV_FACET_OUTSCOPE,
    };
    return mv_emit(out, &spec);
}

/* ------------------------------------------------------- broad grants */

/* Round 9: a default that widens a grant to everything. A parameter named
 * for what the tool may touch (paths it may write, hosts it may reach,
 * scopes, permissions, origins) whose unchosen value, or a member of its
 * default list, is "everything" ("*", "/", "~", "**", "0.0.0.0/0", "all")
 * hands the tool the whole machine or network without anyone choosing it.
 * It is a capability ask (review) when the tool's name, title and
 * description never use the grant's word: a sandbox or firewall tool
 * that documents its allow-list names it. */
static bool broad_value(mv_str v) {
    static const char *const all[] = {"*",    "/",   "~",   "~/",  "/*",        "**",
                                      "**/*", "*.*", "all", "any", "0.0.0.0/0", "::/0"};
    for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
        size_t n = strlen(all[k]);
        if (v.len == n) {
            size_t i = 0;
            while (i < n && lc((unsigned char)v.ptr[i]) == (unsigned char)all[k][i])
                i++;
            if (i == n)
                return true;
        }
    }
    return false;
}

/* The grant word of a parameter name ("write_paths" -> "path"), or NULL.
 * A single path or host is the object of the act ("path" defaulting to
 * "/" lists the root); a plural, an allow-list or a permission is what the
 * tool may touch. */
static const char *grant_word(mv_str name) {
    static const char *const words[][2] = {
        {"allow", "allow"},        {"egress", "egress"},  {"ingress", "ingress"},
        {"permission", "permiss"}, {"scope", "scope"},    {"access", "access"},
        {"origins", "origin"},     {"writable", "writ"},  {"paths", "path"},
        {"dirs", "dir"},           {"folders", "folder"}, {"hosts", "host"},
        {"domains", "domain"},     {"mounts", "mount"},   {"whitelist", "list"}};
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
        for (size_t i = 0; i < name.len; i++)
            if (reads_at(name.ptr, name.len, i, words[k][0]))
                return words[k][1];
    return NULL;
}

static bool text_has(mv_str t, const char *w) {
    for (size_t i = 0; i < t.len; i++)
        if (reads_at(t.ptr, t.len, i, w))
            return true;
    return false;
}

static bool default_member(const mv_field *f) {
    mv_str last = last_segment(f->path);
    return last.len > 8 && memcmp(last.ptr, "default[", 8) == 0;
}

static int emit_grant(const mv_tool *tool, uint32_t fi, mv_emitter *out) {
    static const char detail[] =
        "a parameter granting what the tool may touch (paths, hosts, scopes) defaults to "
        "everything, and the tool's own text never mentions that grant";
    const mv_field *f = &tool->fields[fi];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_TOOL_POISONING,
        .confidence = 0.6,
        .critical = false,
        .field = (int32_t)fi,
        .offset = 0,
        .length = (uint32_t)f->text.len,
        .evidence = {f->text.ptr, f->text.len},
        .detail = {detail, sizeof(detail) - 1},
        .facets = 0,
    };
    return mv_emit(out, &spec);
}

/* Round 15: does the tool's own text (name, title, description) hold a
 * word starting with v (ASCII case folded, a trailing plural 's' of v
 * dropped, three letters or more)? */
static bool spoken_stem(const mv_tool *tool, mv_str v) {
    size_t n = v.len;
    if (n > 3 && lc((unsigned char)v.ptr[n - 1]) == 's')
        n--;
    if (n < 3 || n > 32)
        return false;
    char w[33];
    for (size_t i = 0; i < n; i++) {
        unsigned char c = lc((unsigned char)v.ptr[i]);
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return false;
        w[i] = (char)c;
    }
    w[n] = '\0';
    mv_str texts[3] = {tool->name, tool->title, tool->description};
    for (int k = 0; k < 3; k++) {
        mv_str t = texts[k];
        for (size_t i = 0; i + n <= t.len; i++) {
            unsigned char b = i > 0 ? (unsigned char)t.ptr[i - 1] : ' ';
            bool start =
                !((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9'));
            if (start && reads_at(t.ptr, t.len, i, w))
                return true;
        }
    }
    return false;
}

/* Round 15: "all" as the default of an enum whose other members are the
 * parts of the tool's job its own text names ("scope": ["all",
 * "channels", "chats"] on a search "across Teams channels and chats";
 * ["all", "components", "guides", "api", "examples"] on a docs search of
 * "component, guide, section, API, and example text"): the default is the
 * union of what is listed, a filter of the results, and opens nothing the
 * tool does not already say it covers. Two listed members at least, every
 * one of them spoken of. */
static bool union_of_spoken(const mv_tool *tool, const mv_field *f) {
    size_t members = 0;
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *g = &tool->fields[i];
        if (g == f || g->kind != MV_FIELD_SCHEMA_VALUE || g->param != f->param ||
            g->schema != f->schema)
            continue;
        mv_str last = last_segment(g->path);
        size_t base = g->path.len - last.len; /* the same schema node as f */
        if (last.len <= 5 || memcmp(last.ptr, "enum[", 5) != 0 || broad_value(g->text) ||
            f->path.len < base || memcmp(f->path.ptr, g->path.ptr, base) != 0 ||
            memchr(f->path.ptr + base, '.', f->path.len - base) != NULL)
            continue;
        if (!spoken_stem(tool, g->text))
            return false;
        members++;
    }
    return members >= 2;
}

static bool broad_grant(const mv_tool *tool, const mv_field *f, mv_str v) {
    if (!broad_value(v) ||
        !(unchosen_value(tool, (uint32_t)(f - tool->fields)) || default_member(f)))
        return false;
    const mv_param *pm = &tool->params[f->param];
    const char *w = grant_word(pm->name);
    return w != NULL && !text_has(tool->name, w) && !text_has(tool->title, w) &&
           !text_has(tool->description, w) && !union_of_spoken(tool, f);
}

/* ------------------------------------------------- round 14: paired literals */

/* A hit of the shared list written as a file or variable name (a path, a
 * dotfile, an identifier: "~/.netrc", ".env", "id_rsa", "/etc/ssl/private",
 * "chat_history"), not as a word ("ssh key"): written the same way in
 * every language. */
static bool path_form(const char *t, size_t s, size_t e) {
    if (e > s && (t[s] == '.' || t[s] == '~' || t[s] == '/'))
        return true;
    for (size_t i = s; i < e; i++)
        if (t[i] == '/' || t[i] == '_')
            return true;
    return false;
}

/* denied_around for a hit that may itself start with a dot (".env"): the
 * sentence ends only at a '.' followed by a space or the end, ';' or a
 * line break. */
static bool denied_span(const char *t, size_t n, size_t s, size_t e) {
    size_t a = s, b = e;
    while (a > 0 && !(t[a - 1] == '.' && (a >= n || t[a] == ' ')) && t[a - 1] != ';' &&
           t[a - 1] != '\n')
        a--;
    while (b < n && !(t[b] == '.' && (b + 1 >= n || t[b + 1] == ' ')) && t[b] != ';' &&
           t[b] != '\n')
        b++;
    static const char *const neg[] = {"never", "not", "no", "without", "n't", "nothing"};
    for (size_t i = a; i < b; i++) {
        if (i > a && wbyte((unsigned char)t[i - 1]) && t[i] != 'n')
            continue;
        for (size_t k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
            size_t wl = strlen(neg[k]);
            if (reads_at(t, b, i, neg[k]) && (i + wl >= b || !wbyte((unsigned char)t[i + wl])))
                return true;
        }
    }
    return false;
}

/* Storage of the user's own cloud account ("s3://bucket/prefix", "gs://"):
 * where an honest backup or sync tool writes, not an outside reader. */
static bool own_storage(mv_str v) {
    return reads_at(v.ptr, v.len, 0, "s3://") || reads_at(v.ptr, v.len, 0, "gs://") ||
           reads_at(v.ptr, v.len, 0, "az://") || reads_at(v.ptr, v.len, 0, "abfs://");
}

/* The token of t[s, e) around byte `at` (whitespace-delimited), trimmed of
 * the punctuation and quotes around it, and cut at the first byte of
 * another script ("https://x.example/adresine"). True when it is an outside
 * destination other than the user's own storage. */
static bool destination_at(const char *t, size_t s, size_t e, size_t at, size_t *as, size_t *ae) {
    size_t a = at, b = at;
    while (a > s && t[a - 1] != ' ' && t[a - 1] != '\n' && t[a - 1] != '\t')
        a--;
    while (b < e && t[b] != ' ' && t[b] != '\n' && t[b] != '\t')
        b++;
    while (a < b && (t[a] == '(' || t[a] == '<' || t[a] == '"' || t[a] == '\'' || t[a] == '`' ||
                     t[a] == '['))
        a++;
    for (size_t k = a; k < b; k++)
        if ((unsigned char)t[k] >= 0x80) {
            if (k <= at)
                return false;
            b = k;
            break;
        }
    while (b > a && (t[b - 1] == '.' || t[b - 1] == ',' || t[b - 1] == ';' || t[b - 1] == ':' ||
                     t[b - 1] == ')' || t[b - 1] == '>' || t[b - 1] == '"' || t[b - 1] == '\'' ||
                     t[b - 1] == '`' || t[b - 1] == ']' || t[b - 1] == '!' || t[b - 1] == '?'))
        b--;
    mv_str v = {t + a, b - a};
    if (b > a && outside_destination(v) && !own_storage(v)) {
        *as = a;
        *ae = b;
        return true;
    }
    return false;
}

/* An outside destination written as a token of t[s, e): a URL, an e-mail
 * address or a public IP address. Found from its anchors with memchr (an
 * '@' after a word byte, "://", a '.' between digits), so a field without
 * any costs one vectorized pass per anchor byte. *as, *ae: where. */
static bool destination_token(const char *t, size_t s, size_t e, size_t *as, size_t *ae) {
    static const char anchors[] = {'@', ':', '.'};
    for (size_t k = 0; k < sizeof(anchors); k++) {
        const char *p = t + s;
        while (p < t + e && (p = memchr(p, anchors[k], (size_t)(t + e - p))) != NULL) {
            size_t i = (size_t)(p - t);
            p++;
            bool cand = false;
            if (k == 0)
                cand = i > s && wbyte((unsigned char)t[i - 1]) && i + 3 < e;
            else if (k == 1)
                cand = i > s && i + 2 < e && t[i + 1] == '/' && t[i + 2] == '/';
            else
                cand = i > s && i + 1 < e && t[i - 1] >= '0' && t[i - 1] <= '9' &&
                       t[i + 1] >= '0' && t[i + 1] <= '9';
            if (cand && destination_at(t, s, e, i, as, ae))
                return true;
        }
    }
    return false;
}

/* Round 23 (quiet23): "sent only to the configured registry (default
 * https://registry.npmjs.org)": an address right after a word for the
 * default (within 16 bytes before it) documents where the tool's own
 * endpoint points when the user sets nothing; it is not a destination
 * the text adds. Any other address in the paragraph still counts. */
static bool documented_default(const char *t, size_t p0, size_t as) {
    static const char *const words[] = {
        "default",       "Default",  "DEFAULT", "por defecto", "par défaut", "padrão", "predefinit",
        "standardmäßig", "Standard", "默认",    "既定",        "デフォルト", "기본"};
    size_t lo = as > p0 + 16 ? as - 16 : p0;
    for (size_t i = lo; i < as; i++)
        for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
            size_t l = strlen(words[k]);
            if (i + l <= as && memcmp(t + i, words[k], l) == 0)
                return true;
        }
    return false;
}

/* The first outside destination of t[s, e) that is not a documented
 * default. */
static bool added_destination(const char *t, size_t s, size_t e, size_t *as, size_t *ae) {
    size_t q = s;
    while (q < e && destination_token(t, q, e, as, ae)) {
        if (!documented_default(t, s, *as))
            return true;
        q = *ae > q ? *ae : q + 1;
    }
    return false;
}

/* Is t[a, b) inside one double-quoted span (a quoted example: a detector's
 * documentation citing an attack string)? */
static bool quoted_example(const char *t, size_t n, size_t a, size_t b) {
    size_t open = n;
    for (size_t i = 0; i < a; i++)
        if (t[i] == '"')
            open = open == n ? i : n;
    if (open == n)
        return false;
    for (size_t i = a; i < n; i++)
        if (t[i] == '"')
            return i >= b;
    return false;
}

/* Round 14: one paragraph of a description, a parameter's description, an
 * annotation or the title names a secret file or variable of the shared
 * list AND an outside destination (URL, e-mail, public IP). The verbs that
 * join them exist in every language ("envíe", "ارسال", "mengunggahnya",
 * "jest przesyłana", "க்கு அனுப்பு"); the two literals are written the
 * same way everywhere, and an honest text that names a key file has no
 * outside address beside it (the user's own bucket, a denial, or a quoted
 * example of what a detector flags do not count). */
static bool paired_literals(const mv_sensitive *sens, const mv_field *f, size_t *hs, size_t *he) {
    const char *t = f->text.ptr;
    size_t n = f->text.len;
    size_t as0, ae0;
    /* cheap first: most fields carry no outside address at all */
    if (n < 8 || !destination_token(t, 0, n, &as0, &ae0))
        return false;
    for (size_t off = 0; sens != NULL && off < n;) {
        mv_sensitive_hit hit;
        if (!mv_sensitive_find(sens, t + off, n - off, &hit))
            break;
        size_t s = off + hit.start, e = off + hit.end;
        off = e > off ? e : off + 1;
        size_t x = e;
        while (x < n && t[x] != ' ' && t[x] != '\n' && t[x] != ',' && t[x] != ')')
            x++;
        if ((x - s >= 4 && memcmp(t + x - 4, ".pub", 4) == 0) || !path_form(t, s, e) ||
            denied_span(t, n, s, e))
            continue;
        /* the paragraph around the hit: no blank line between */
        size_t p0 = s, p1 = e;
        while (p0 > 0 && !(t[p0 - 1] == '\n' && p0 >= 2 && t[p0 - 2] == '\n') && s - p0 < 400)
            p0--;
        while (p1 < n && !(t[p1] == '\n' && p1 + 1 < n && t[p1 + 1] == '\n') && p1 - e < 400)
            p1++;
        size_t as, ae;
        if (!added_destination(t, p0, p1, &as, &ae))
            continue;
        if (quoted_example(t, n, s, e) && quoted_example(t, n, as, ae))
            continue;
        *hs = s;
        *he = e;
        return true;
    }
    return false;
}

static int emit_paired(const mv_tool *tool, uint32_t fi, size_t hs, size_t he, bool values,
                       mv_emitter *out) {
    static const char d_prose[] =
        "one paragraph names a secret file or variable and an outside destination for it";
    static const char d_values[] =
        "schema values the model sends unchosen name a secret file or variable, and another "
        "unchosen value is an outside destination";
    const mv_field *f = &tool->fields[fi];
    mv_signal_spec spec = {
        .tier = MV_TIER_SOFT,
        .threat = MV_THREAT_EXFILTRATION,
        .confidence = VO_SINK_CONF,
        .critical = false,
        .field = (int32_t)fi,
        .offset = (uint32_t)hs,
        .length = (uint32_t)(he - hs),
        .evidence = {f->text.ptr + hs, he - hs},
        .detail = values ? (mv_str){d_values, sizeof(d_values) - 1}
                         : (mv_str){d_prose, sizeof(d_prose) - 1},
        .facets = MV_FACET_INSTRUCTION | MV_FACET_EXFIL | MV_FACET_SENSITIVE | MV_FACET_SINK,
    };
    return mv_emit(out, &spec);
}

bool held_back_path(mv_str path) {
    static const char *const held[] = {"exclu",  "ignor", "skip",  "omit",  "deny",   "block",
                                       "redact", "mask",  "strip", "never", "without"};
    for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++) {
        size_t l = strlen(held[k]);
        for (size_t i = 0; i + l <= path.len; i++) {
            size_t q = 0;
            while (q < l && (path.ptr[i + q] | 0x20) == held[k][q])
                q++;
            if (q == l)
                return true;
        }
    }
    return false;
}

/* Round 14: a schema value the model sends unchosen (a default, a const, a
 * member of a default list or of an enum) that names a secret file of the
 * shared list, in a tool where another unchosen value is an outside
 * destination: the defaults alone carry source and sink ("include":
 * ["~/.aws/credentials"], "upload_to": "https://..."). */
static bool secret_value(const mv_tool *tool, const mv_sensitive *sens, uint32_t *fi_out,
                         size_t *hs, size_t *he) {
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *f = &tool->fields[fi];
        mv_sensitive_hit hit;
        if (f->kind != MV_FIELD_SCHEMA_VALUE || f->schema != MV_SCHEMA_INPUT || sens == NULL ||
            f->text.len > 256 || /* round 23 */ held_back_path(f->path))
            continue;
        mv_str last = last_segment(f->path);
        if (!(seg_is(last, "const") || default_member(f) || unchosen_value(tool, fi) ||
              (last.len > 5 && memcmp(last.ptr, "enum[", 5) == 0)))
            continue;
        if (!mv_sensitive_find(sens, f->text.ptr, f->text.len, &hit) ||
            !path_form(f->text.ptr, hit.start, hit.end))
            continue;
        size_t x = hit.end;
        while (x < f->text.len && f->text.ptr[x] != ' ')
            x++;
        if (x - hit.start >= 4 && memcmp(f->text.ptr + x - 4, ".pub", 4) == 0)
            continue;
        *fi_out = fi;
        *hs = hit.start;
        *he = hit.end;
        return true;
    }
    return false;
}

int value_orders_inspect(const mv_tool *tool, const mv_sensitive *sens, mv_emitter *out) {
    int rc = 0;
    bool sink_done = false, destroy_done = false, grant_done = false;
    int destroys = -1, sends = -1;
    for (uint32_t fi = 0; fi < tool->n_fields && rc == 0; fi++) {
        const mv_field *f = &tool->fields[fi];
        if (f->kind != MV_FIELD_SCHEMA_VALUE || f->schema != MV_SCHEMA_INPUT || f->param < 0 ||
            (uint32_t)f->param >= tool->n_params)
            continue;
        mv_str v = f->text;
        while (v.len > 0 && (v.ptr[0] == ' ' || v.ptr[0] == '\t'))
            v.ptr++, v.len--;
        while (v.len > 0 && (v.ptr[v.len - 1] == ' ' || v.ptr[v.len - 1] == '\t'))
            v.len--;
        size_t bs, be;
        /* any enum member, default or const: a mode token carrying an
         * address is no honest mode */
        if (!sink_done && buried_destination(v, &bs, &be)) {
            rc = emit_copy(tool, fi, (size_t)(v.ptr - f->text.ptr) + bs,
                           (size_t)(v.ptr - f->text.ptr) + be, true, out);
            sink_done = true;
            continue;
        }
        if (!grant_done && broad_grant(tool, f, v)) {
            rc = emit_grant(tool, fi, out);
            grant_done = true;
            continue;
        }
        if (!unchosen_value(tool, fi)) {
            /* round 9: a member of a default list is sent unchosen too
             * ("replicate_to": ["https://cache.attacker.example/put"]) */
            if (!sink_done && default_member(f) && outside_destination(v) &&
                copy_param(tool, (uint32_t)f->param)) {
                if (sends < 0)
                    sends = job_sends(tool) ? 1 : 0;
                if (!sends) {
                    rc = emit_copy(tool, fi, (size_t)(v.ptr - f->text.ptr),
                                   (size_t)(v.ptr - f->text.ptr) + v.len, false, out);
                    sink_done = true;
                }
            }
            continue;
        }
        if (!sink_done && outside_destination(v)) {
            /* the parameter's own descriptions and titles, nested ones too */
            for (uint32_t di = 0; di < tool->n_fields && !sink_done; di++) {
                const mv_field *d = &tool->fields[di];
                size_t hs, he;
                if (d->kind != MV_FIELD_SCHEMA_DESCRIPTION || d->param != f->param ||
                    d->schema != MV_SCHEMA_INPUT)
                    continue;
                if (names_secret(sens, d->text.ptr, d->text.len, &hs, &he)) {
                    rc = emit_sink(tool, (int32_t)di, hs, he, out);
                    sink_done = true;
                }
            }
            /* round 14: the secret is another unchosen value of the tool */
            uint32_t sfi = 0;
            size_t ss = 0, se = 0;
            if (!sink_done && !own_storage(v) && secret_value(tool, sens, &sfi, &ss, &se)) {
                rc = emit_paired(tool, sfi, ss, se, true, out);
                sink_done = true;
            }
            /* a second copy by default, on a tool that does not send */
            if (!sink_done && copy_param(tool, (uint32_t)f->param)) {
                if (sends < 0)
                    sends = job_sends(tool) ? 1 : 0;
                if (!sends) {
                    rc = emit_copy(tool, fi, (size_t)(v.ptr - f->text.ptr),
                                   (size_t)(v.ptr - f->text.ptr) + v.len, false, out);
                    sink_done = true;
                }
            }
            continue;
        }
        size_t cs, ce;
        if (!destroy_done && destroy_command(v.ptr, v.len, &cs, &ce)) {
            if (destroys < 0)
                destroys = job_destroys(tool) ? 1 : 0;
            if (!destroys) {
                rc = emit_destroy(tool, fi, (size_t)(v.ptr - f->text.ptr) + cs, out);
                destroy_done = true;
            }
        }
    }
    /* round 14: a secret file and an outside destination in one paragraph
     * of prose (one signal per tool, and none when a value sink spoke) */
    for (uint32_t fi = 0; fi < tool->n_fields && rc == 0 && !sink_done; fi++) {
        const mv_field *f = &tool->fields[fi];
        size_t hs, he;
        if ((f->kind != MV_FIELD_DESCRIPTION && f->kind != MV_FIELD_SCHEMA_DESCRIPTION &&
             f->kind != MV_FIELD_ANNOTATION && f->kind != MV_FIELD_TITLE) ||
            f->window_of != 0)
            continue;
        if (paired_literals(sens, f, &hs, &he)) {
            rc = emit_paired(tool, fi, hs, he, false, out);
            sink_done = true;
        }
    }
    return rc;
}
