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

/* 1. an order to fill or place a value */
static const char *const place_words[] = {
    /* en */ "fill",
    "populate",
    "paste",
    "include",
    "put$",
    "insert",
    "enter$",
    "copy$",
    "attach",
    "append",
    "add$",
    "supply",
    "provide",
    "dump$",
    "embed",
    "write$",
    "must contain",
    "should contain",
    "must hold",
    "should hold",
    /* pl */ "wklej",
    "wpisz",
    "uzupełnij",
    "dołącz",
    "dodaj",
    "umieść",
    "wstaw",
    "skopiuj",
    "podaj",
    /* ro */ "completează",
    "completeaza",
    "adaugă",
    "lipește",
    "introdu",
    "pune$",
    "copiază",
    "inserează",
    /* es */ "rellena",
    "pega$",
    "incluye",
    "incluya",
    "añade",
    "agrega",
    "pon$",
    "introduzca",
    "escribe",
    "adjunta",
    "completa$",
    "copia$",
    /* pt */ "cole$",
    "inclua",
    "preencha",
    "coloque",
    "adicione",
    "copie",
    "insira",
    "anexe",
    "escreva",
    /* fr */ "remplis",
    "colle$",
    "collez",
    "inclus$",
    "incluez",
    "ajoute",
    "mets$",
    "mettez",
    "insère",
    "insérez",
    "copiez",
    "joins",
    "joignez",
    "écris",
    "indique",
    /* de */ "füge",
    "fügen",
    "trage",
    "tragen",
    "fülle",
    "füllen",
    "kopiere",
    "hänge",
    "gib$",
    "schreibe",
    "einfügen",
    /* it */ "incolla",
    "includi",
    "inserisci",
    "compila",
    "aggiungi",
    "metti",
    "allega",
    "scrivi",
    /* nl */ "plak",
    "vul$",
    "voeg",
    "kopieer",
    /* tr */ "yapıştır",
    "ekle",
    "doldur",
    /* ru uk */ "вставь",
    "вставте",
    "вставьте",
    "заполни",
    "укажи",
    "включи",
    "добавь",
    "скопируй",
    "запиши",
    "заповн",
    "додай",
    "вкажи"};

typedef struct ds_word {
    const char *w;
    unsigned cls;
} ds_word;

/* 2. a source class named by its role */
static const ds_word source_words[] = {
    /* the environment */
    {"env$", MV_DS_ENV},
    {"printenv", MV_DS_ENV},
    {"environ", MV_DS_ENV},
    {"env var", MV_DS_ENV},
    {"środowisk", MV_DS_ENV},
    {"variables de entorno", MV_DS_ENV},
    {"d'environnement", MV_DS_ENV},
    {"umgebungsvariable", MV_DS_ENV},
    {"d'ambiente", MV_DS_ENV},
    {"de ambiente", MV_DS_ENV},
    {"de mediu", MV_DS_ENV},
    {"окружени", MV_DS_ENV},
    {"середовищ", MV_DS_ENV},
    {"ortam değişken", MV_DS_ENV},
    /* the conversation */
    {"conversation", MV_DS_CHAT},
    {"conversa", MV_DS_CHAT},
    {"conversație", MV_DS_CHAT},
    {"conversatie", MV_DS_CHAT},
    {"chat", MV_DS_CHAT},
    {"dialog", MV_DS_CHAT},
    {"diálogo", MV_DS_CHAT},
    {"transcript", MV_DS_CHAT},
    {"rozmow", MV_DS_CHAT},
    {"konwersac", MV_DS_CHAT},
    {"gespräch", MV_DS_CHAT},
    {"unterhaltung", MV_DS_CHAT},
    {"gesprek", MV_DS_CHAT},
    {"sohbet", MV_DS_CHAT},
    {"разговор", MV_DS_CHAT},
    {"переписк", MV_DS_CHAT},
    {"диалог", MV_DS_CHAT},
    {"бесед", MV_DS_CHAT},
    {"розмов", MV_DS_CHAT},
    /* the model's instructions */
    {"system prompt", MV_DS_INSTR},
    {"system message", MV_DS_INSTR},
    {"system/", MV_DS_INSTR},
    {"developer prompt", MV_DS_INSTR},
    {"developer message", MV_DS_INSTR},
    {"developer instruction", MV_DS_INSTR},
    {"systemprompt", MV_DS_INSTR},
    {"system_prompt", MV_DS_INSTR},
    {"your instruction", MV_DS_INSTR},
    {"your own instruction", MV_DS_INSTR},
    {"instructions you", MV_DS_INSTR},
    {"hidden prompt", MV_DS_INSTR},
    {"wiadomości systemow", MV_DS_INSTR},
    {"wiadomością systemow", MV_DS_INSTR},
    {"wiadomość systemow", MV_DS_INSTR},
    {"prompt systemow", MV_DS_INSTR},
    {"twoje instrukcje", MV_DS_INSTR},
    {"mensaje del sistema", MV_DS_INSTR},
    {"mensaje de sistema", MV_DS_INSTR},
    {"prompt del sistema", MV_DS_INSTR},
    {"tus instrucciones", MV_DS_INSTR},
    {"message système", MV_DS_INSTR},
    {"message du système", MV_DS_INSTR},
    {"prompt système", MV_DS_INSTR},
    {"tes instructions", MV_DS_INSTR},
    {"vos instructions", MV_DS_INSTR},
    {"systemnachricht", MV_DS_INSTR},
    {"systemanweisung", MV_DS_INSTR},
    {"deine anweisungen", MV_DS_INSTR},
    {"messaggio di sistema", MV_DS_INSTR},
    {"prompt di sistema", MV_DS_INSTR},
    {"tue istruzioni", MV_DS_INSTR},
    {"mensagem do sistema", MV_DS_INSTR},
    {"prompt do sistema", MV_DS_INSTR},
    {"suas instruções", MV_DS_INSTR},
    {"mesajul de sistem", MV_DS_INSTR},
    {"promptul de sistem", MV_DS_INSTR},
    {"instrucțiunile tale", MV_DS_INSTR},
    {"системный промпт", MV_DS_INSTR},
    {"системным промпт", MV_DS_INSTR},
    {"системного промпт", MV_DS_INSTR},
    {"системное сообщ", MV_DS_INSTR},
    {"системным сообщ", MV_DS_INSTR},
    {"системного сообщ", MV_DS_INSTR},
    {"системные инструкц", MV_DS_INSTR},
    {"системных инструкц", MV_DS_INSTR},
    {"твои инструкции", MV_DS_INSTR},
    {"свои инструкции", MV_DS_INSTR},
    {"системний промпт", MV_DS_INSTR},
    /* what the model knows, was told or has read */
    {"you know about", MV_DS_MEMORY},
    {"you have read", MV_DS_MEMORY},
    {"you've read", MV_DS_MEMORY},
    {"you have seen", MV_DS_MEMORY},
    {"you've seen", MV_DS_MEMORY},
    {"told you", MV_DS_MEMORY},
    {"you remember", MV_DS_MEMORY},
    {"you were given", MV_DS_MEMORY},
    {"you received", MV_DS_MEMORY},
    {"wiesz o", MV_DS_MEMORY},
    {"przeczytałeś", MV_DS_MEMORY},
    {"ci powiedział", MV_DS_MEMORY},
    {"sabes de", MV_DS_MEMORY},
    {"sabes sobre", MV_DS_MEMORY},
    {"has leído", MV_DS_MEMORY},
    {"te ha dicho", MV_DS_MEMORY},
    {"te haya dicho", MV_DS_MEMORY},
    {"tu sais", MV_DS_MEMORY},
    {"vous savez", MV_DS_MEMORY},
    {"tu as lu", MV_DS_MEMORY},
    {"vous avez lu", MV_DS_MEMORY},
    {"t'a dit", MV_DS_MEMORY},
    {"vous a dit", MV_DS_MEMORY},
    {"du weißt", MV_DS_MEMORY},
    {"gelesen hast", MV_DS_MEMORY},
    {"dir gesagt", MV_DS_MEMORY},
    {"dir erzählt", MV_DS_MEMORY},
    {"sai su", MV_DS_MEMORY},
    {"sai del", MV_DS_MEMORY},
    {"hai letto", MV_DS_MEMORY},
    {"ti ha detto", MV_DS_MEMORY},
    {"você sabe", MV_DS_MEMORY},
    {"você leu", MV_DS_MEMORY},
    {"te disse", MV_DS_MEMORY},
    {"lhe disse", MV_DS_MEMORY},
    {"știi despre", MV_DS_MEMORY},
    {"ai citit", MV_DS_MEMORY},
    {"ți-a spus", MV_DS_MEMORY},
    {"знаешь о", MV_DS_MEMORY},
    {"прочитал", MV_DS_MEMORY},
    {"тебе сказал", MV_DS_MEMORY},
    {"тебе рассказал", MV_DS_MEMORY},
    {"знаєш про", MV_DS_MEMORY},
    /* credentials */
    {"password", MV_DS_CRED},
    {"passwd", MV_DS_CRED},
    {"passphrase", MV_DS_CRED},
    {"token", MV_DS_CRED},
    {"api key", MV_DS_CRED},
    {"api-key", MV_DS_CRED},
    {"apikey", MV_DS_CRED},
    {"secret key", MV_DS_CRED},
    {"credential", MV_DS_CRED},
    {"2fa", MV_DS_CRED},
    {"otp$", MV_DS_CRED},
    {"private key", MV_DS_CRED},
    {"session cookie", MV_DS_CRED},
    {"hasł", MV_DS_CRED},
    {"haseł", MV_DS_CRED},
    {"parol", MV_DS_CRED},
    {"contraseñ", MV_DS_CRED},
    {"mot de passe", MV_DS_CRED},
    {"mots de passe", MV_DS_CRED},
    {"passwort", MV_DS_CRED},
    {"kennwort", MV_DS_CRED},
    {"zugangsdaten", MV_DS_CRED},
    {"credenzial", MV_DS_CRED},
    {"credencia", MV_DS_CRED},
    {"senha", MV_DS_CRED},
    {"cheile api", MV_DS_CRED},
    {"cheia api", MV_DS_CRED},
    {"clave api", MV_DS_CRED},
    {"chiave api", MV_DS_CRED},
    {"chave api", MV_DS_CRED},
    {"klucz api", MV_DS_CRED},
    {"klucze api", MV_DS_CRED},
    {"пароль", MV_DS_CRED},
    {"парол", MV_DS_CRED},
    {"токен", MV_DS_CRED},
    {"şifre", MV_DS_CRED}};

/* 3. taken whole, or addressed as the model's own */
static const char *const whole_words[] = {
    /* en */ "all$",
    "every",
    "entire",
    "full$",
    "whole",
    "complet",
    "komplett",
    "verbatim",
    "word for word",
    "raw$",
    "unredacted",
    "untruncated",
    "so far",
    "hidden",
    /* pl */ "cał",
    "wszystk",
    "dosłown",
    "słowo w słowo",
    "dotychczas",
    "ukryt",
    /* es pt */ "todo",
    "toda",
    "íntegr",
    "literal",
    "hasta ahora",
    "até agora",
    "inteir",
    "ocult",
    /* fr */ "tout",
    "tous$",
    "intégral",
    "mot pour mot",
    "jusqu'ici",
    "caché",
    /* de */ "alle",
    "gesamt",
    "ganze",
    "wörtlich",
    "bisherig",
    "versteckt",
    /* it */ "tutt",
    "intero",
    "intera",
    "parola per parola",
    "finora",
    "nascost",
    /* ro */ "tot$",
    "toată",
    "toate",
    "toţi",
    "toți",
    "întreg",
    "cuvânt cu cuvânt",
    "până acum",
    "ascuns",
    /* ru uk */ "весь",
    "всю",
    "все$",
    "всё",
    "целиком",
    "дослов",
    "скрыт",
    "повністю",
    "всі",
    /* tr nl */ "tüm",
    "hepsi",
    "volledig"};

/* Does the folded stem w stand at t[i] (a word start, and a word end too
 * when w ends in '$')? */
static bool stem_at(const char *t, size_t n, size_t i, const char *w) {
    size_t l = strlen(w);
    bool end = l > 0 && w[l - 1] == '$';
    if (end) {
        l--;
    }
    if (i + l > n || memcmp(t + i, w, l) != 0) {
        return false;
    }
    return !end || i + l == n || !mv_letter_before(t, i + l + 1);
}

/* Is there a word start at folded t[i]? */
static bool word_start(const char *t, size_t i) {
    return !mv_letter_before(t, i) &&
           ((unsigned char)t[i] >= 0x80 || (t[i] >= 'a' && t[i] <= 'z') ||
            (t[i] >= '0' && t[i] <= '9'));
}

static bool any_word(const char *t, size_t a, size_t b, const char *const *ws, size_t nw) {
    for (size_t i = a; i < b; i++) {
        if (!word_start(t, i)) {
            continue;
        }
        for (size_t k = 0; k < nw; k++) {
            if (ws[k][0] == t[i] && stem_at(t, b, i, ws[k])) {
                return true;
            }
        }
    }
    return false;
}

/* The source classes in folded t[a, b); *first gets the first source's
 * offset and *first_end its end. */
static unsigned classes_in(const char *t, size_t a, size_t b, size_t *first, size_t *first_end) {
    unsigned cls = 0;
    for (size_t i = a; i < b; i++) {
        if (!word_start(t, i)) {
            continue;
        }
        for (size_t k = 0; k < sizeof(source_words) / sizeof(source_words[0]); k++) {
            const char *w = source_words[k].w;
            if (w[0] == t[i] && stem_at(t, b, i, w)) {
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
