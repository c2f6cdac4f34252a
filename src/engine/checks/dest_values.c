/*
 * Round 28 (dest28): a destroying scope hidden in a value the definition
 * fixes (see dest_values.h). Reads words only in structural positions:
 * the job's own words (name, title, server, first sentence), a fixed
 * value, the fixed parameter's name and description.
 */
#include "dest_values.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DV_MAX_TOKENS 96
#define DV_JOB_CAP 240

typedef struct dv_tok {
    uint32_t s, l;
} dv_tok;

static char dv_low(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

static bool dv_tok_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* Tokens of t[0, n): runs of letters and digits (any non-ASCII byte is a
 * letter); '_' and '-' split, so `mask_test_data` is three tokens. */
static size_t dv_tokens(const char *t, size_t n, dv_tok *out, size_t cap) {
    size_t k = 0;
    size_t i = 0;
    while (i < n && k < cap) {
        while (i < n && !dv_tok_char((unsigned char)t[i]))
            i++;
        size_t s = i;
        while (i < n && dv_tok_char((unsigned char)t[i]))
            i++;
        if (i > s) {
            out[k].s = (uint32_t)s;
            out[k].l = (uint32_t)(i - s);
            k++;
        }
    }
    return k;
}

/* Token equal to w (lowercase ASCII or UTF-8), case-insensitive. */
static bool dv_tok_is(const char *t, dv_tok tk, const char *w) {
    size_t wl = strlen(w);
    if (tk.l != wl)
        return false;
    for (size_t i = 0; i < wl; i++)
        if (dv_low(t[tk.s + i]) != w[i])
            return false;
    return true;
}

static bool dv_tok_starts(const char *t, dv_tok tk, const char *w) {
    size_t wl = strlen(w);
    if (tk.l < wl)
        return false;
    for (size_t i = 0; i < wl; i++)
        if (dv_low(t[tk.s + i]) != w[i])
            return false;
    return true;
}

static bool dv_tok_in(const char *t, dv_tok tk, const char *const *ws, size_t nw, bool prefix) {
    for (size_t i = 0; i < nw; i++)
        if (prefix ? dv_tok_starts(t, tk, ws[i]) : dv_tok_is(t, tk, ws[i]))
            return true;
    return false;
}

static bool dv_has(const char *t, size_t n, const char *w) {
    size_t wl = strlen(w);
    for (size_t i = 0; i + wl <= n; i++) {
        size_t k = 0;
        while (k < wl && dv_low(t[i + k]) == w[k])
            k++;
        if (k == wl)
            return true;
    }
    return false;
}

static bool dv_has_any(const char *t, size_t n, const char *const *ws, size_t nw) {
    for (size_t i = 0; i < nw; i++)
        if (dv_has(t, n, ws[i]))
            return true;
    return false;
}

#define DV_N(a) (sizeof(a) / sizeof((a)[0]))

/* Environments that are not production on their own word. */
static const char *const dv_scope_strong[] = {
    "sandbox",      "sandboxes",     "backtest",     "backtests",   "backtesting", "staging",
    "nonprod",      "preprod",       "uat",          "homologacao", "homologação", "homologacion",
    "homologación", "sandkasten",    "песочница",    "песочнице",   "песочницы",   "sandboks",
    "testdaten",    "testdatenbank", "testumgebung", "testdb",      "testenv"};
/* Substrings that say it in scripts without spaces or across tokens. */
static const char *const dv_scope_sub[] = {
    "non-prod",      "non_prod",       "non prod",     "bac à sable", "bac a sable",
    "샌드박스",      "サンドボックス", "バックテスト", "沙箱",        "沙盒",
    "回测",          "开发环境",       "測試環境",     "测试环境",    "テスト環境",
    "検証環境",      "開発環境",       "테스트 환경",  "개발 환경",   "môi trường thử",
    "بيئة الاختبار", "بيئة تجريبية"};
/* Words that are an environment only beside an environment or data word
 * ("test data", "entorno de pruebas", "dev env"). */
static const char *const dv_scope_weak[] = {
    "test",   "tests", "testing",  "teste",    "testes",  "prueba",  "pruebas", "prova",
    "prove",  "essai", "essais",   "dev",      "qa",      "demo",    "uji",     "ujicoba",
    "deneme", "тест",  "тестовая", "тестовой", "testowe", "testowa", "testowy", "scratch"};
static const char *const dv_env_word[] = {
    "data",          "db",         "database", "databases", "env",     "environment",
    "environments",  "instance",   "account",  "tenant",    "cluster", "project",
    "server",        "store",      "site",     "datos",     "dados",   "entorno",
    "ambiente",      "umgebung",   "daten",    "datenbank", "données", "donnees",
    "environnement", "lingkungan", "basis",    "base",      "bases",   "ortam",
    "ortamı",        "среда",      "среде",    "данные",    "baza",    "dane",
    "środowisko",    "copy",       "copia",    "cópia",     "kopie"};

static bool dv_prod_word_tok(const char *t, dv_tok tk) {
    static const char *const w[] = {"production", "prod",       "prd",        "producao",
                                    "produção",   "produccion", "producción", "produzione",
                                    "produktion", "productie",  "produkcja",  "produksi",
                                    "üretim",     "uretim",     "продакшн",   "прод",
                                    "продакшен",  "prodution",  "produktiv",  "productivo"};
    return dv_tok_in(t, tk, w, DV_N(w), false);
}

static bool dv_prod_sub(const char *t, size_t n) {
    static const char *const w[] = {"本番",     "生产",      "生產",    "正式环境",
                                    "프로덕션", "운영 환경", "운영환경"};
    return dv_has_any(t, n, w, DV_N(w));
}

bool mv_dv_test_scope(const char *t, size_t n) {
    if (dv_has_any(t, n, dv_scope_sub, DV_N(dv_scope_sub)))
        return true;
    static const char *const cjk_test[] = {"テスト", "検証", "测试", "測試", "테스트", "开发"};
    static const char *const cjk_env[] = {"環境",   "环境", "データ", "数据",
                                          "데이터", "환경", "DB",     "db"};
    if (dv_has_any(t, n, cjk_test, DV_N(cjk_test)) && dv_has_any(t, n, cjk_env, DV_N(cjk_env)))
        return true;
    dv_tok tk[DV_MAX_TOKENS];
    size_t k = dv_tokens(t, n, tk, DV_MAX_TOKENS);
    for (size_t i = 0; i < k; i++) {
        if (dv_tok_in(t, tk[i], dv_scope_strong, DV_N(dv_scope_strong), false))
            return true;
        if (!dv_tok_in(t, tk[i], dv_scope_weak, DV_N(dv_scope_weak), false))
            continue;
        /* an environment or data word within two tokens either side */
        size_t a = i >= 2 ? i - 2 : 0;
        size_t b = i + 3 < k ? i + 3 : k;
        for (size_t j = a; j < b; j++)
            if (j != i && dv_tok_in(t, tk[j], dv_env_word, DV_N(dv_env_word), false))
                return true;
    }
    return false;
}

/* The job's own words name production (not "non-production"). */
static bool dv_names_prod(const char *t, size_t n) {
    static const char *const neg[] = {"non",   "no",  "nao", "não", "not",
                                      "nicht", "sin", "sem", "pas", "hors"};
    if (dv_prod_sub(t, n))
        return true;
    dv_tok tk[DV_MAX_TOKENS];
    size_t k = dv_tokens(t, n, tk, DV_MAX_TOKENS);
    for (size_t i = 0; i < k; i++)
        if (dv_prod_word_tok(t, tk[i]) &&
            !(i > 0 && dv_tok_in(t, tk[i - 1], neg, DV_N(neg), false)))
            return true;
    return false;
}

bool mv_dv_prod_value(const char *t, size_t n) {
    if (n == 0 || n > 40)
        return false;
    if (dv_prod_sub(t, n))
        return true;
    dv_tok tk[4];
    size_t k = dv_tokens(t, n, tk, 4);
    return k > 0 && dv_prod_word_tok(t, tk[0]);
}

/* Destroying words, by token prefix (lowercase) and by substring. */
static const char *const dv_destroy_pre[] = {
    "delet",  "remov",   "purg",    "wipe",    "wiping",     "eras",       "clean",       "clear",
    "empt",   "truncat", "drop",    "reset",   "overwrit",   "mask",       "destroy",     "nuke",
    "flush",  "limp",    "apag",    "borra",   "borre",      "vaci",       "vacía",       "elimin",
    "lösch",  "losch",   "geleert", "leeren",  "zurücksetz", "zurucksetz", "zuruecksetz", "supprim",
    "effac",  "vider",   "purger",  "cancell", "svuot",      "azzer",      "hapus",       "kosong",
    "bersih", "xóa",     "xoa",     "temizle", "usuń",       "usun",       "wyczy",       "удал",
    "очист",  "сброс",   "sterge",  "șterge",  "verwijder",  "tøm",        "töm",         "radera",
    "slet"};
static const char *const dv_destroy_sub[] = {"削除", "初期化", "リセット", "消去", "删除",
                                             "清空", "清除",   "重置",     "삭제", "초기화",
                                             "비우", "حذف",    "مسح"};

static bool dv_destroys(const char *t, size_t n) {
    if (dv_has_any(t, n, dv_destroy_sub, DV_N(dv_destroy_sub)))
        return true;
    dv_tok tk[DV_MAX_TOKENS];
    size_t k = dv_tokens(t, n, tk, DV_MAX_TOKENS);
    for (size_t i = 0; i < k; i++)
        if (dv_tok_in(t, tk[i], dv_destroy_pre, DV_N(dv_destroy_pre), true))
            return true;
    return false;
}

/* A parameter that reads from its value rather than acting on it. */
static bool dv_source_param(mv_str name) {
    static const char *const w[] = {"source",   "src",       "from",     "origin",  "template",
                                    "upstream", "reference", "baseline", "compare", "copy",
                                    "clone",    "seed",      "origem",   "origen",  "quelle",
                                    "mirror",   "snapshot",  "backup"};
    return dv_has_any(name.ptr, name.len, w, DV_N(w));
}

/* The job's own words: name, title, server and the description's first
 * sentence (capped). */
static size_t dv_first_sentence(mv_str d) {
    size_t n = d.len < DV_JOB_CAP ? d.len : DV_JOB_CAP;
    for (size_t i = 0; i < n; i++) {
        if (d.ptr[i] == '\n' || ((d.ptr[i] == '.' || d.ptr[i] == '!' || d.ptr[i] == '?') &&
                                 (i + 1 == d.len || d.ptr[i + 1] == ' ' || d.ptr[i + 1] == '\n')))
            return i;
        if (i + 3 <= d.len && memcmp(d.ptr + i, "\xe3\x80\x82", 3) == 0)
            return i;
    }
    return n;
}

static bool dv_value_path(const mv_field *fd) {
    const char *p = fd->path.ptr;
    size_t l = fd->path.len;
    if (dv_has(p, l, "anyof") || dv_has(p, l, "oneof") || dv_has(p, l, "allof"))
        return false;
    return dv_has(p, l, ".default") || dv_has(p, l, ".const");
}

int32_t mv_test_job_prod_value_field(const mv_tool *tool) {
    int32_t hit = -1;
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->schema != MV_SCHEMA_INPUT ||
            fd->window_of != 0 || fd->param < 0 || (uint32_t)fd->param >= tool->n_params ||
            !mv_dv_prod_value(fd->text.ptr, fd->text.len) || !dv_value_path(fd))
            continue;
        if (dv_source_param(tool->params[fd->param].name))
            continue;
        hit = (int32_t)fi;
        break;
    }
    if (hit < 0)
        return -1;
    /* the job's words: scoped away from production, not naming it */
    size_t fs = dv_first_sentence(tool->description);
    const mv_str job[] = {tool->name, tool->title, tool->server, {tool->description.ptr, fs}};
    bool scoped = false;
    bool destroys = false;
    for (size_t j = 0; j < DV_N(job); j++) {
        if (job[j].len == 0)
            continue;
        if (dv_names_prod(job[j].ptr, job[j].len))
            return -1;
        scoped = scoped || mv_dv_test_scope(job[j].ptr, job[j].len);
        destroys = destroys || dv_destroys(job[j].ptr, job[j].len);
    }
    if (!scoped)
        return -1;
    const mv_param *pm = &tool->params[tool->fields[hit].param];
    if (!destroys)
        destroys = dv_destroys(pm->description.ptr, pm->description.len);
    return destroys ? hit : -1;
}

/* ------------------------------------------------ a fixed value written
 * as a destroying order */

static bool dv_universal(const char *t, size_t n) {
    static const char *const w[] = {
        "all",       "every",    "entire", "whole",   "everything", "todos",  "todas", "todo",
        "toda",      "tutti",    "tutte",  "tutto",   "tous",       "toutes", "tout",  "alle",
        "allen",     "alles",    "semua",  "seluruh", "tất",        "mọi",    "hepsi", "tüm",
        "wszystkie", "wszystko", "все",    "всех",    "всё",        "kaikki", "alla",  "allt"};
    static const char *const sub[] = {"全部", "所有", "すべて", "全て",
                                      "모든", "전체", "كل ",    "सभी"};
    if (dv_has_any(t, n, sub, DV_N(sub)))
        return true;
    dv_tok tk[DV_MAX_TOKENS];
    size_t k = dv_tokens(t, n, tk, DV_MAX_TOKENS);
    for (size_t i = 0; i < k; i++)
        if (dv_tok_in(t, tk[i], w, DV_N(w), false))
            return true;
    return false;
}

bool mv_dv_destroy_order_value(const char *t, size_t n) {
    static const char *const neg[] = {"not",   "never",  "no",  "don",    "nicht", "nie",
                                      "nunca", "jamais", "mai", "jangan", "không", "asla"};
    static const char *const soft[] = {"mask", "masks", "masking", "masked"};
    if (n < 12 || n > 400)
        return false;
    /* a label before a colon ("nuke: ...", "agent: ...") */
    size_t s = 0;
    for (size_t i = 0; i + 1 < n && i < 24; i++)
        if (t[i] == ':' && t[i + 1] == ' ') {
            s = i + 2;
            break;
        }
    dv_tok tk[DV_MAX_TOKENS];
    size_t k = dv_tokens(t + s, n - s, tk, DV_MAX_TOKENS);
    if (k < 4)
        return false;
    /* written as words: spaces, not an identifier */
    size_t spaces = 0;
    for (size_t i = s; i < n; i++)
        spaces += t[i] == ' ';
    if (spaces < 3)
        return false;
    bool verb = false;
    for (size_t i = 0; i < 3 && i < k; i++) {
        if (dv_tok_in(t + s, tk[i], neg, DV_N(neg), false))
            return false;
        if (dv_tok_in(t + s, tk[i], dv_destroy_pre, DV_N(dv_destroy_pre), true) &&
            !dv_tok_in(t + s, tk[i], soft, DV_N(soft), false)) {
            verb = true;
            break;
        }
    }
    /* verb-final languages put it last ("... sil ve temizle") */
    for (size_t i = k > 2 ? k - 2 : 0; !verb && i < k; i++)
        verb = dv_tok_in(t + s, tk[i], dv_destroy_pre, DV_N(dv_destroy_pre), true) &&
               !dv_tok_in(t + s, tk[i], soft, DV_N(soft), false) &&
               !(i > 0 && dv_tok_in(t + s, tk[i - 1], neg, DV_N(neg), false));
    if (!verb)
        return false;
    size_t commas = 0;
    for (size_t i = s; i < n; i++)
        commas += t[i] == ',';
    return commas >= 2 || dv_universal(t + s, n - s);
}

int32_t mv_fixed_destroy_order_field(const mv_tool *tool) {
    static const char *const confirm[] = {"confirm", "acknowledg",   "phrase",   "consent",
                                          "type_to", "verification", "bestätig", "confirma"};
    for (uint32_t fi = 0; fi < tool->n_fields; fi++) {
        const mv_field *fd = &tool->fields[fi];
        if (fd->kind != MV_FIELD_SCHEMA_VALUE || fd->window_of != 0 || fd->text.len < 12 ||
            !dv_value_path(fd))
            continue;
        if (dv_has_any(fd->path.ptr, fd->path.len, confirm, DV_N(confirm)))
            continue;
        if (mv_dv_destroy_order_value(fd->text.ptr, fd->text.len))
            return (int32_t)fi;
    }
    return -1;
}
