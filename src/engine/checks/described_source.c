/*
 * Round 29 (exfil29): a parameter whose own description asks for a
 * secret described by its role. See described_source.h for the shape.
 *
 * Word lists are folded stems (word_fold.h) matched at a word start; a
 * stem ending in '$' must end the word too ("env", not "envelope"). The
 * lists are word classes, whole families in many languages, not phrases
 * of any one description.
 */
#include "described_source.h"

#include <string.h>

#include "word_fold.h"

#define DS_TEXT_MAX 2048u /* bytes of a parameter description read */

/* The lists are sorted by bytes (a word is compared only with the stems
 * of its first byte; mv_ds_lists_sorted checks it). Languages: English,
 * Polish, Romanian, Spanish, Portuguese, French, German, Italian, Dutch,
 * Turkish, Russian, Ukrainian. */

/* 1. an order to fill or place a value */
static const char *const place_words[] = {
    "adaugă",      "add$",         "adicione",  "adjunta",   "aggiungi",   "agrega",
    "ajoute",      "allega",       "anexe",     "append",    "attach",     "añade",
    "cole$",       "colle$",       "collez",    "coloque",   "compila",    "completa$",
    "completeaza", "completează",  "copia$",    "copiază",   "copie",      "copiez",
    "copy$",       "dodaj",        "doldur",    "dołącz",    "dump$",      "einfügen",
    "ekle",        "embed",        "enter$",    "escreva",   "escribe",    "fill",
    "füge",        "fügen",        "fülle",     "füllen",    "gib$",       "hänge",
    "inclua",      "include",      "includi",   "incluez",   "inclus$",    "incluya",
    "incluye",     "incolla",      "indique",   "inserează", "inserisci",  "insert",
    "insira",      "insère",       "insérez",   "introdu",   "introduzca", "joignez",
    "joins",       "kopieer",      "kopiere",   "lipește",   "mets$",      "mettez",
    "metti",       "must contain", "must hold", "paste",     "pega$",      "plak",
    "podaj",       "pon$",         "populate",  "preencha",  "provide",    "pune$",
    "put$",        "rellena",      "remplis",   "schreibe",  "scrivi",     "should contain",
    "should hold", "skopiuj",      "supply",    "trage",     "tragen",     "umieść",
    "uzupełnij",   "voeg",         "vul$",      "wklej",     "wpisz",      "write$",
    "wstaw",       "yapıştır",     "écris",     "вкажи",     "включи",     "вставте",
    "вставь",      "вставьте",     "добавь",    "додай",     "запиши",     "заповн",
    "заполни",     "скопируй",     "укажи",
};

typedef struct ds_word {
    const char *w;
    unsigned cls;
} ds_word;

/* 2. a source class named by its role */
static const ds_word source_words[] = {
    {"2fa", MV_DS_CRED},
    {"ai citit", MV_DS_MEMORY},
    {"api key", MV_DS_CRED},
    {"api-key", MV_DS_CRED},
    {"apikey", MV_DS_CRED},
    {"chat", MV_DS_CHAT},
    {"chave api", MV_DS_CRED},
    {"cheia api", MV_DS_CRED},
    {"cheile api", MV_DS_CRED},
    {"chiave api", MV_DS_CRED},
    {"ci powiedział", MV_DS_MEMORY},
    {"clave api", MV_DS_CRED},
    {"contraseñ", MV_DS_CRED},
    {"conversa", MV_DS_CHAT},
    {"conversatie", MV_DS_CHAT},
    {"conversation", MV_DS_CHAT},
    {"conversație", MV_DS_CHAT},
    {"credencia", MV_DS_CRED},
    {"credential", MV_DS_CRED},
    {"credenzial", MV_DS_CRED},
    {"d'ambiente", MV_DS_ENV},
    {"d'environnement", MV_DS_ENV},
    {"de ambiente", MV_DS_ENV},
    {"de mediu", MV_DS_ENV},
    {"deine anweisungen", MV_DS_INSTR},
    {"developer instruction", MV_DS_INSTR},
    {"developer message", MV_DS_INSTR},
    {"developer prompt", MV_DS_INSTR},
    {"dialog", MV_DS_CHAT},
    {"dir erzählt", MV_DS_MEMORY},
    {"dir gesagt", MV_DS_MEMORY},
    {"diálogo", MV_DS_CHAT},
    {"du weißt", MV_DS_MEMORY},
    {"env var", MV_DS_ENV},
    {"env$", MV_DS_ENV},
    {"environ", MV_DS_ENV},
    {"gelesen hast", MV_DS_MEMORY},
    {"gesprek", MV_DS_CHAT},
    {"gespräch", MV_DS_CHAT},
    {"hai letto", MV_DS_MEMORY},
    {"has leído", MV_DS_MEMORY},
    {"haseł", MV_DS_CRED},
    {"hasł", MV_DS_CRED},
    {"hidden prompt", MV_DS_INSTR},
    {"instructions you", MV_DS_INSTR},
    {"instrucțiunile tale", MV_DS_INSTR},
    {"kennwort", MV_DS_CRED},
    {"klucz api", MV_DS_CRED},
    {"klucze api", MV_DS_CRED},
    {"konwersac", MV_DS_CHAT},
    {"lhe disse", MV_DS_MEMORY},
    {"mensagem do sistema", MV_DS_INSTR},
    {"mensaje de sistema", MV_DS_INSTR},
    {"mensaje del sistema", MV_DS_INSTR},
    {"mesajul de sistem", MV_DS_INSTR},
    {"message du système", MV_DS_INSTR},
    {"message système", MV_DS_INSTR},
    {"messaggio di sistema", MV_DS_INSTR},
    {"mot de passe", MV_DS_CRED},
    {"mots de passe", MV_DS_CRED},
    {"ortam değişken", MV_DS_ENV},
    {"otp$", MV_DS_CRED},
    {"parol", MV_DS_CRED},
    {"passphrase", MV_DS_CRED},
    {"passwd", MV_DS_CRED},
    {"password", MV_DS_CRED},
    {"passwort", MV_DS_CRED},
    {"printenv", MV_DS_ENV},
    {"private key", MV_DS_CRED},
    {"prompt del sistema", MV_DS_INSTR},
    {"prompt di sistema", MV_DS_INSTR},
    {"prompt do sistema", MV_DS_INSTR},
    {"prompt systemow", MV_DS_INSTR},
    {"prompt système", MV_DS_INSTR},
    {"promptul de sistem", MV_DS_INSTR},
    {"przeczytałeś", MV_DS_MEMORY},
    {"rozmow", MV_DS_CHAT},
    {"sabes de", MV_DS_MEMORY},
    {"sabes sobre", MV_DS_MEMORY},
    {"sai del", MV_DS_MEMORY},
    {"sai su", MV_DS_MEMORY},
    {"secret key", MV_DS_CRED},
    {"senha", MV_DS_CRED},
    {"session cookie", MV_DS_CRED},
    {"sohbet", MV_DS_CHAT},
    {"suas instruções", MV_DS_INSTR},
    {"system message", MV_DS_INSTR},
    {"system prompt", MV_DS_INSTR},
    {"system/", MV_DS_INSTR},
    {"system_prompt", MV_DS_INSTR},
    {"systemanweisung", MV_DS_INSTR},
    {"systemnachricht", MV_DS_INSTR},
    {"systemprompt", MV_DS_INSTR},
    {"t'a dit", MV_DS_MEMORY},
    {"te disse", MV_DS_MEMORY},
    {"te ha dicho", MV_DS_MEMORY},
    {"te haya dicho", MV_DS_MEMORY},
    {"tes instructions", MV_DS_INSTR},
    {"ti ha detto", MV_DS_MEMORY},
    {"token", MV_DS_CRED},
    {"told you", MV_DS_MEMORY},
    {"transcript", MV_DS_CHAT},
    {"tu as lu", MV_DS_MEMORY},
    {"tu sais", MV_DS_MEMORY},
    {"tue istruzioni", MV_DS_INSTR},
    {"tus instrucciones", MV_DS_INSTR},
    {"twoje instrukcje", MV_DS_INSTR},
    {"umgebungsvariable", MV_DS_ENV},
    {"unterhaltung", MV_DS_CHAT},
    {"variables de entorno", MV_DS_ENV},
    {"você leu", MV_DS_MEMORY},
    {"você sabe", MV_DS_MEMORY},
    {"vos instructions", MV_DS_INSTR},
    {"vous a dit", MV_DS_MEMORY},
    {"vous avez lu", MV_DS_MEMORY},
    {"vous savez", MV_DS_MEMORY},
    {"wiadomości systemow", MV_DS_INSTR},
    {"wiadomością systemow", MV_DS_INSTR},
    {"wiadomość systemow", MV_DS_INSTR},
    {"wiesz o", MV_DS_MEMORY},
    {"you have read", MV_DS_MEMORY},
    {"you have seen", MV_DS_MEMORY},
    {"you know about", MV_DS_MEMORY},
    {"you received", MV_DS_MEMORY},
    {"you remember", MV_DS_MEMORY},
    {"you were given", MV_DS_MEMORY},
    {"you've read", MV_DS_MEMORY},
    {"you've seen", MV_DS_MEMORY},
    {"your instruction", MV_DS_INSTR},
    {"your own instruction", MV_DS_INSTR},
    {"zugangsdaten", MV_DS_CRED},
    {"środowisk", MV_DS_ENV},
    {"şifre", MV_DS_CRED},
    {"știi despre", MV_DS_MEMORY},
    {"ți-a spus", MV_DS_MEMORY},
    {"бесед", MV_DS_CHAT},
    {"диалог", MV_DS_CHAT},
    {"знаешь о", MV_DS_MEMORY},
    {"знаєш про", MV_DS_MEMORY},
    {"окружени", MV_DS_ENV},
    {"парол", MV_DS_CRED},
    {"пароль", MV_DS_CRED},
    {"переписк", MV_DS_CHAT},
    {"прочитал", MV_DS_MEMORY},
    {"разговор", MV_DS_CHAT},
    {"розмов", MV_DS_CHAT},
    {"свои инструкции", MV_DS_INSTR},
    {"середовищ", MV_DS_ENV},
    {"системний промпт", MV_DS_INSTR},
    {"системного промпт", MV_DS_INSTR},
    {"системного сообщ", MV_DS_INSTR},
    {"системное сообщ", MV_DS_INSTR},
    {"системные инструкц", MV_DS_INSTR},
    {"системный промпт", MV_DS_INSTR},
    {"системным промпт", MV_DS_INSTR},
    {"системным сообщ", MV_DS_INSTR},
    {"системных инструкц", MV_DS_INSTR},
    {"твои инструкции", MV_DS_INSTR},
    {"тебе рассказал", MV_DS_MEMORY},
    {"тебе сказал", MV_DS_MEMORY},
    {"токен", MV_DS_CRED},
};

/* 3. taken whole, or addressed as the model's own */
static const char *const whole_words[] = {
    "all$",
    "alle",
    "ascuns",
    "até agora",
    "bisherig",
    "caché",
    "cał",
    "complet",
    "cuvânt cu cuvânt",
    "dosłown",
    "dotychczas",
    "entire",
    "every",
    "finora",
    "full$",
    "ganze",
    "gesamt",
    "hasta ahora",
    "hepsi",
    "hidden",
    "inteir",
    "intera",
    "intero",
    "intégral",
    "jusqu'ici",
    "komplett",
    "literal",
    "mot pour mot",
    "nascost",
    "ocult",
    "parola per parola",
    "până acum",
    "raw$",
    "so far",
    "słowo w słowo",
    "toate",
    "toată",
    "toda",
    "todo",
    "tot$",
    "tous$",
    "tout",
    "toţi",
    "toți",
    "tutt",
    "tüm",
    "ukryt",
    "unredacted",
    "untruncated",
    "verbatim",
    "versteckt",
    "volledig",
    "whole",
    "word for word",
    "wszystk",
    "wörtlich",
    "íntegr",
    "întreg",
    "весь",
    "все$",
    "всю",
    "всё",
    "всі",
    "дослов",
    "повністю",
    "скрыт",
    "целиком",
};

/* Does the folded stem w stand at t[i] (a word start, and a word end too
 * when w ends in '$')? */
static bool stem_at(const char *t, size_t n, size_t i, const char *w) {
    size_t q = 0;
    /* one pass, no strlen: most stems differ at their second byte */
    while (w[q] != '\0' && w[q] != '$') {
        if (i + q >= n || t[i + q] != w[q]) {
            return false;
        }
        q++;
    }
    return w[q] != '$' || i + q == n || !mv_letter_before(t, i + q + 1);
}

/* Is there a word start at folded t[i]? */
static bool word_start(const char *t, size_t i) {
    return !mv_letter_before(t, i) &&
           ((unsigned char)t[i] >= 0x80 || (t[i] >= 'a' && t[i] <= 'z') ||
            (t[i] >= '0' && t[i] <= '9'));
}

/* The first index of the sorted list ws[0, nw) whose stem starts with
 * byte c (nw when none): the lists are sorted by bytes, so a word is
 * compared only with the stems of its first byte. */
static size_t first_of(const char *const *ws, size_t nw, unsigned char c) {
    size_t lo = 0;
    size_t hi = nw;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((unsigned char)ws[mid][0] < c) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool any_word(const char *t, size_t a, size_t b, const char *const *ws, size_t nw) {
    for (size_t i = a; i < b; i++) {
        if (!word_start(t, i)) {
            continue;
        }
        for (size_t k = first_of(ws, nw, (unsigned char)t[i]); k < nw && ws[k][0] == t[i]; k++) {
            if (stem_at(t, b, i, ws[k])) {
                return true;
            }
        }
        while (i + 1 < b &&
               ((unsigned char)t[i + 1] >= 0x80 || (t[i + 1] >= 'a' && t[i + 1] <= 'z'))) {
            i++; /* the rest of the word starts no stem */
        }
    }
    return false;
}

#define N_SOURCE (sizeof(source_words) / sizeof(source_words[0]))

/* first_of for the source list */
static size_t source_first(unsigned char c) {
    size_t lo = 0;
    size_t hi = N_SOURCE;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((unsigned char)source_words[mid].w[0] < c) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The source classes in folded t[a, b); *first gets the first source's
 * offset and *first_end its end. */
static unsigned classes_in(const char *t, size_t a, size_t b, size_t *first, size_t *first_end) {
    unsigned cls = 0;
    for (size_t i = a; i < b; i++) {
        if (!word_start(t, i)) {
            continue;
        }
        for (size_t k = source_first((unsigned char)t[i]);
             k < N_SOURCE && source_words[k].w[0] == t[i]; k++) {
            const char *w = source_words[k].w;
            if (stem_at(t, b, i, w)) {
                if (cls == 0 && first != NULL) {
                    size_t e = i;
                    while (e < b && t[e] != ' ' && t[e] != ',' && t[e] != ')') {
                        e++;
                    }
                    *first = i;
                    *first_end = e;
                }
                cls |= source_words[k].cls;
                break;
            }
        }
    }
    return cls;
}

bool mv_ds_lists_sorted(void) {
    for (size_t k = 1; k < N_SOURCE; k++) {
        if (strcmp(source_words[k - 1].w, source_words[k].w) > 0) {
            return false;
        }
    }
    for (size_t k = 1; k < sizeof(place_words) / sizeof(place_words[0]); k++) {
        if (strcmp(place_words[k - 1], place_words[k]) > 0) {
            return false;
        }
    }
    for (size_t k = 1; k < sizeof(whole_words) / sizeof(whole_words[0]); k++) {
        if (strcmp(whole_words[k - 1], whole_words[k]) > 0) {
            return false;
        }
    }
    return true;
}

unsigned mv_ds_classes(const char *t, size_t n) {
    char buf[DS_TEXT_MAX];
    size_t m;
    if (t == NULL) {
        return 0;
    }
    if (n > DS_TEXT_MAX) {
        n = DS_TEXT_MAX;
    }
    m = mv_word_fold(t, n, buf);
    for (size_t i = 0; i < m; i++) {
        if (buf[i] == '_' || buf[i] == '-') {
            buf[i] = ' '; /* a tool name's words ("export_chat_history") */
        }
    }
    return classes_in(buf, 0, m, NULL, NULL);
}

/* The raw offset of folded offset fo: the fold keeps lengths except for
 * the typographic apostrophe (three bytes to one), so walk the raw text. */
static size_t raw_offset(const char *raw, size_t n, size_t fo) {
    size_t o = 0;
    size_t i = 0;
    while (i < n && o < fo) {
        unsigned char c = (unsigned char)raw[i];
        if (c == 0xE2 && i + 2 < n && (unsigned char)raw[i + 1] == 0x80 &&
            ((unsigned char)raw[i + 2] == 0x98 || (unsigned char)raw[i + 2] == 0x99)) {
            i += 3;
        } else {
            i++;
        }
        o++;
    }
    return i;
}

bool mv_described_source(const char *desc, size_t n, const char *const *job, const size_t *job_n,
                         size_t n_job, mv_ds_hit *hit) {
    char buf[DS_TEXT_MAX];
    size_t m;
    size_t ss = 0;
    unsigned job_cls = 0;
    bool job_read = false;
    if (desc == NULL || n == 0) {
        return false;
    }
    if (n > DS_TEXT_MAX) {
        n = DS_TEXT_MAX;
    }
    m = mv_word_fold(desc, n, buf);
    if (!any_word(buf, 0, m, place_words, sizeof(place_words) / sizeof(place_words[0]))) {
        return false; /* no order to fill anywhere: the common case */
    }
    while (ss < m) {
        size_t se = ss;
        size_t fs = 0;
        size_t fe = 0;
        unsigned cls;
        unsigned nc;
        /* a sentence ends at ". ", "! ", "? ", ";" or a line break */
        while (se < m && !(((buf[se] == '.' || buf[se] == '!' || buf[se] == '?') &&
                            (se + 1 == m || buf[se + 1] == ' ' || buf[se + 1] == '\n')) ||
                           buf[se] == ';' || buf[se] == '\n')) {
            se++;
        }
        cls = classes_in(buf, ss, se, &fs, &fe);
        if (cls != 0 && !job_read) {
            for (size_t j = 0; j < n_job; j++) {
                job_cls |= mv_ds_classes(job[j], job_n[j]);
            }
            job_read = true;
        }
        cls &= ~job_cls; /* the tool's job needs that source */
        nc = 0;
        for (unsigned b = cls; b != 0; b &= b - 1) {
            nc++;
        }
        /* the conversation or a credential alone is an honest input of
         * many tools ("context from the chat", "your token"): it needs a
         * second class; the environment, the instructions and the model's
         * memory taken whole are never a tool's input */
        if (cls != 0 &&
            (nc >= 2 ||
             ((cls & (MV_DS_ENV | MV_DS_INSTR | MV_DS_MEMORY)) != 0 &&
              any_word(buf, ss, se, whole_words, sizeof(whole_words) / sizeof(whole_words[0])))) &&
            any_word(buf, ss, se, place_words, sizeof(place_words) / sizeof(place_words[0]))) {
            if (hit != NULL) {
                hit->start = raw_offset(desc, n, fs);
                hit->end = raw_offset(desc, n, fe);
                hit->classes = cls;
            }
            return true;
        }
        ss = se + 1;
    }
    return false;
}
