/*
 * Round 24 (pi24): an order whose reach outlasts the call (reply_reach.h).
 *
 * A sentence is read when it is not the field's job (its first sentence)
 * and names its reader: the model ("the assistant", "модель"), the user
 * as a third party ("tell the user", "ユーザー"), or a polite imperative
 * ("please", "bitte", "ください", "请", "करें"). It orders beyond the call
 * when it holds
 *   - a reach over turns: a quantifier ("every", "any later", "setiap",
 *     "すべての", "हर") within a few words of a noun of the model's turn (an
 *     answer, a reply, a conversation, a turn, a question), a possessive
 *     of the reader before its answers ("your answers"), or a span that
 *     starts now ("from now on", "отныне", "今後"); or
 *   - a reach over tools: "other" within a few words of a tool noun, with
 *     a priority word in the sentence (before, first, instead, only, over,
 *     never, prefer).
 * Quoted spans are blanked before reading: a scanner quoting an attack
 * does not order.
 *
 * Text is folded (ASCII, Latin-1, Greek, Cyrillic capitals) per sentence
 * into a small buffer; positions are decided by their first byte.
 */
#include "model_note.h"
#include "reply_reach.h"
#include "word_fold.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define SENT_MAX 480    /* bytes of a sentence read */
#define PAIR_SPACED 28  /* bytes between the words of a pair (spaced scripts) */
#define FRAME_AFTER 360 /* bytes after a fake boundary searched for the model */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ word lists */

/* The model as the reader. Stems. */
static const char *const model_stem[] = {
    "assistant",  "assistent", "asystent",  "asistent",     "asistan",  "asisten",
    "assistente", "asistente", "avustaja",  "the model",    "the ai ",  "the llm",
    "modello",    "modèle",    "модел",     "ассистент",    "асистент", "помощник",
    "помічник",   "βοηθ",      "μοντέλ",    "المساعد",      "النموذج",  "دستیار",
    "המודל",      "העוזר",     "pembantu",  "trợ lý",       "सहायक",    "সহকারী",
    "ผู้ช่วย",       "助手",      "模型",      "アシスタント", "モデル",   "어시스턴트",
    "모델",       "ai agent",  "the agent", "l'assistant",  "l'agent",  "der agent",
    "el agente",  "o agente",  "l'agente",  "агент",        "llm",      "โมเดล",
    "ии ",        "ші ",       "for ai",    "the bot "};
/* The user named as a third party: the sentence is read by someone else. */
static const char *const user_stem[] = {
    "user",        "utilisateur", "usuario",   "usuário",     "utente",     "nutzer",   "gebruiker",
    "utilizator",  "użytkownik",  "uživatel",  "пользовател", "користувач", "χρήστ",    "kullanıcı",
    "pengguna",    "người dùng",  "gumagamit", "användar",    "bruker",     "bruger",   "käyttäjä",
    "felhasználó", "משתמש",       "למשתמש",    "המשתמש",      "المستخدم",   "للمستخدم", "کاربر",
    "उपयोगकर्ता",   "ব্যবহারকারী",  "ユーザー",  "用户",        "用戶",       "使用者",   "사용자",
    "ผู้ใช้",         "mtumiaji"};
/* A polite imperative: the sentence is an order to its reader. */
static const char *const polite_stem[] = {
    "please",     "bitte",      "veuillez",   "por favor", "per favore", "vă rugăm", "va rugam",
    "te rog",     "пожалуйста", "будь ласка", "παρακαλ",   "lütfen",     "tolong",   "mohon",
    "אנא",        "يرجى",       "الرجاء",     "لطفا",      "لطفاً",       "proszę",   "alsjeblieft",
    "gelieve",    "vui lòng",   "hãy",        "vänligen",  "ole hyvä",   "kérjük",   "kérlek",
    "てください", "でください", "下さい",     "请",        "請",         "하세요",   "십시오",
    "주세요",     "กรุณา",       "โปรด",       "करें",        "रहें",         "दें",        "tafadhali",
    "te rugăm",   "te rugam",   "pakisuyo"};

/* A quantifier over the conversation. Stems (spaced scripts after a
 * non-letter; the others anywhere). */
static const char *const quant_stem[] = {
    /* en */ "every",
    "each ",
    "any ",
    "all ",
    "tout ",
    "whatever",
    "subsequent",
    "any later",
    "all later",
    "future",
    "rest of",
    "remainder of",
    "throughout",
    /* de nl */ "jede",
    "jeder",
    "jedes",
    "jeden",
    "alle ",
    "künftig",
    "zukünftig",
    "nachfolgend",
    "elk",
    "ieder",
    "toekomstig",
    "rest van",
    /* es pt fr it ro */ "cada",
    "cualquier",
    "todas las",
    "todos los",
    "posterior",
    "futur",
    "resto de",
    "resto d",
    "qualquer",
    "todas as",
    "todos os",
    "chaque",
    "toute ",
    "toutes les",
    "tous les",
    "n'importe",
    "quelle que soit",
    "ultérieur",
    "reste de",
    "ogni",
    "qualsiasi",
    "qualunque",
    "tutte le",
    "tutti i",
    "successiv",
    "fiecare",
    "oricare",
    "orice",
    "oricărui",
    "oricarui",
    "ulterioar",
    "restul",
    /* pl cs ru uk el */ "każd",
    "dowoln",
    "kolejn",
    "przyszł",
    "reszt",
    "každ",
    "jakékoli",
    "кажд",
    "любо",
    "последующ",
    "дальнейш",
    "будущ",
    "остаток",
    "оставш",
    "кожн",
    "будь-як",
    "подальш",
    "κάθε",
    "οποιοδήποτε",
    "οποιαδήποτε",
    "οποιονδήποτε",
    "μελλοντικ",
    "υπόλοιπ",
    /* tr id ms vi tl */ "her ",
    "herhangi",
    "tüm",
    "bütün",
    "sonraki",
    "setiap",
    "tiap ",
    "seterusnya",
    "berikutnya",
    "selanjutnya",
    "mana-mana",
    "apa pun",
    "sepanjang",
    "mọi",
    "mỗi",
    "bất kỳ",
    "tiếp theo",
    "bawat",
    "anumang",
    /* nordic fi hu */ "varje",
    "hver",
    "framtida",
    "fremtidig",
    "efterföljande",
    "jokai",
    "kaikki",
    "tulevi",
    "minden",
    "bármely",
    "további",
    /* he ar fa hi bn */ "כל ",
    "בכל",
    "לכל",
    "הבאות",
    "הבאים",
    "كل ",
    "بكل",
    "لكل",
    "أي ",
    "جميع",
    "اللاحقة",
    "القادمة",
    "هر ",
    "تمام",
    "بعدی",
    "हर ",
    "प्रत्येक",
    "किसी भी",
    "बाद के",
    "প্রতিটি",
    "প্রত্যেক",
    "যেকোনো",
    "পরবর্তী",
    /* ja zh ko th sw */ "すべての",
    "全ての",
    "あらゆる",
    "毎回",
    "以降",
    "每次",
    "每个",
    "每個",
    "每一",
    "所有",
    "任何",
    "后续",
    "後續",
    "모든",
    "매번",
    "어떤",
    "이후",
    "ทุก",
    "ใดๆ",
    "ใด ๆ",
    "ถัดไป",
    "kila",
    "yoyote"};
/* A span that starts now: a reach by itself. */
static const char *const span_stem[] = {"from now on",
                                        "henceforth",
                                        "from this point",
                                        "von nun an",
                                        "ab jetzt",
                                        "ab sofort",
                                        "fortan",
                                        "voortaan",
                                        "vanaf nu",
                                        "de ahora en adelante",
                                        "a partir de ahora",
                                        "en adelante",
                                        "daqui em diante",
                                        "a partir de agora",
                                        "désormais",
                                        "dorénavant",
                                        "à partir de maintenant",
                                        "d'ora in poi",
                                        "da ora in poi",
                                        "d'ora in avanti",
                                        "de acum înainte",
                                        "de acum inainte",
                                        "od teraz",
                                        "od teď",
                                        "отныне",
                                        "впредь",
                                        "с этого момента",
                                        "відтепер",
                                        "από εδώ και πέρα",
                                        "από τώρα και",
                                        "bundan sonra",
                                        "mulai sekarang",
                                        "mulai kini",
                                        "từ nay",
                                        "mula ngayon",
                                        "hädanefter",
                                        "från och med nu",
                                        "fremover",
                                        "herefter",
                                        "tästä lähtien",
                                        "mostantól",
                                        "מעכשיו",
                                        "מעתה",
                                        "من الآن",
                                        "از این به بعد",
                                        "अब से",
                                        "এখন থেকে",
                                        "今後",
                                        "これ以降",
                                        "从现在起",
                                        "從現在起",
                                        "今后",
                                        "此后",
                                        "앞으로",
                                        "지금부터",
                                        "ต่อจากนี้",
                                        "kuanzia sasa"};
/* The reader's own answers: a possessive of the second person. */
static const char *const poss_stem[] = {
    "your ", "tes ",   "vos ",     "votre ", "deine",       "dein ", "tus ", "tuas ",
    "teus ", "le tue", "i tuoi",   "tuoi ",  "je antwoord", "jouw",  "твои", "твой",
    "ваши",  "ваш ",   "あなたの", "你的",   "您的",        "당신의"};
/* A noun of the model's turn: its answer or the exchange it is in. */
static const char *const turn_stem[] = {
    "answer",       "reply",        "replies",
    "turn",         "conversation", "chat",
    "antwort",      "gespräch",     "unterhaltung",
    "konversation", "runde",        "antwoord",
    "gesprek",      "conversatie",  "beurt",
    "respuesta",    "resposta",     "conversación",
    "conversa",     "turno",        "diálogo",
    "réponse",      "échange",      "rispost",
    "conversazion", "răspuns",      "raspuns",
    "conversați",   "conversati",   "odpowied",
    "rozmow",       "odpověď",      "konverzac",
    "ответ",        "разговор",     "диалог",
    "бесед",        "відповід",     "розмов",
    "απάντησ",      "συνομιλ",      "συζήτησ",
    "yanıt",        "cevap",        "konuşma",
    "sohbet",       "jawapan",      "jawaban",
    "balasan",      "perbualan",    "percakapan",
    "câu trả lời",  "trả lời",      "cuộc trò chuyện",
    "hội thoại",    "sagot",        "usapan",
    "svar",         "samtal",       "samtale",
    "vastau",       "keskustelu",   "válasz",
    "beszélgetés",  "תשובה",        "תשובות",
    "שיחה",         "תגובה",        "إجابة",
    "الإجابة",      "ردود",         "محادثة",
    "المحادثة",     "إجابات",       "پاسخ",
    "جواب",         "گفتگو",        "उत्तर",
    "जवाब",         "बातचीत",       "উত্তর",
    "কথোপকথন",      "回答",         "返答",
    "応答",         "返信",         "会話",
    "回复",         "答复",         "对话",
    "對話",         "会话",         "會話",
    "답변",         "응답",         "대화",
    "คำตอบ",        "บทสนทนา",      "jibu",
    "majibu",       "mazungumzo",
};
/* The answer nouns alone (what a possessive of the reader may own). */
static const char *const answer_stem[] = {
    "answer",  "reply",   "replies", "respons",  "antwort", "antwoord", "respuesta", "resposta",
    "réponse", "rispost", "răspuns", "odpowied", "ответ",   "відповід", "απάντησ",   "yanıt",
    "cevap",   "jawapan", "jawaban", "svar",     "vastau",  "válasz",   "תשובה",     "إجابة",
    "پاسخ",    "उत्तर",    "回答",    "回复",     "답변",    "응답",     "คำตอบ"};
/* "Always": a quantifier over every later answer when it governs one of
 * the model's acts of answering (below). Stems. */
static const char *const always_stem[] = {
    "always",      "immer",     "stets",  "altijd", "siempre",  "sempre", "toujours",
    "întotdeauna", "mereu",     "zawsze", "vždy",   "всегда",   "завжди", "πάντα",
    "πάντοτε",     "her zaman", "daima",  "selalu", "sentiasa", "luôn",   "palagi",
    "alltid",      "aina",      "mindig", "תמיד",   "دائما",    "دائمًا",  "همیشه",
    "हमेशा",        "সবসময়",     "常に",   "必ず",   "いつも",   "总是",   "始终",
    "务必",        "務必",      "一律",   "항상",   "반드시",   "เสมอ",   "kila wakati"};
/* The model's acts of answering: answer, recommend, mention, present,
 * summarize, describe. Stems, in the languages above ("present" is left
 * out: "presented to the user", "essere presente" describe). */
static const char *const answer_act_stem[] = {
    "answer",     "respond",   "reply",      "recommend",  "suggest",    "mention",
    "summar",     "describe",  "highlight",  "promote",    "speak",      "antwort",
    "beantwort",  "empfiehl",  "empfehl",    "erwähn",     "antwoord",   "aanbevel",
    "beveel",     "responde",  "contesta",   "recomiend",  "recomend",   "menciona",
    "destac",     "descreva",  "describ",    "apresent",   "réponds",    "répondez",
    "recommand",  "mentionne", "présente",   "rispondi",   "consiglia",  "raccomand",
    "menziona",   "răspunde",  "recomand",   "menționea",  "prezint",    "odpowiadaj",
    "odpowiedz",  "poleca",    "wspominaj",  "odpovídej",  "doporuč",    "отвечай",
    "рекоменд",   "упомин",    "упомян",     "відповідай", "рекоменду",  "απάντα",
    "πρότειν",    "αναφέρ",    "yanıtla",    "cevap ver",  "öner",       "bahset",
    "jawab",      "sarank",    "sebut",      "cadangkan",  "trả lời",    "đề xuất",
    "giới thiệu", "sumagot",   "irekomenda", "banggitin",  "svara",      "rekommendera",
    "nämn",       "anbefal",   "nevn",       "vastaa",     "suosittele", "mainitse",
    "válaszolj",  "ajánl",     "említsd",    "עונה",       "ענה",        "תענה",
    "המלץ",       "ממליץ",     "הזכר",       "أجب",        "تجيب",       "اذكر",
    "توصیه",      "پیشنهاد",   "ذکر کن",     "उत्तर",       "जवाब",       "सुझा",
    "सिफारिश",    "उल्लेख",      "উত্তর",       "সুপারিশ",     "উল্লেখ",      "回答",
    "答え",       "勧め",      "すすめ",     "推奨",       "紹介",       "回复",
    "推荐",       "提及",      "提到",       "답변",       "대답",       "추천",
    "권장",       "언급",      "ตอบ",        "แนะนำ",      "กล่าวถึง",     "jibu",
    "pendekeza",  "taja"};

/* "Other" and a tool. */
static const char *const other_stem[] = {
    "other ", "another", "andere", "otra",  "otro",  "outra", "outro",    "autre", "altri", "altro",
    "altra",  "alt ",    "altor",  "inne",  "inny",  "jiné",  "jiný",     "друг",  "інш",   "άλλο",
    "άλλα",   "άλλων",   "diğer",  "başka", "lain ", "khác",  "iba pang", "andra", "annen", "andre",
    "muu",    "más ",    "másik",  "אחר",   "آخر",   "أخرى",  "دیگر",     "अन्य",   "दूसरे",   "অন্য",
    "他の",   "其他",    "别的",   "其它",  "다른",  "อื่น",    "nyingine"};
static const char *const tool_stem[] = {
    "tool",      "server",    "werkzeug",   "herramienta", "ferramenta",  "outil",
    "strumento", "strumenti", "instrument", "narzędz",     "nástroj",     "инструмент",
    "εργαλεί",   "araç",      "alat",       "công cụ",     "kasangkapan", "verktyg",
    "verktøj",   "verktøy",   "værktøj",    "työkalu",     "eszköz",      "כלי",
    "أداة",      "أدوات",     "ابزار",      "उपकरण",       "टूल",          "টুল",
    "ツール",    "工具",      "도구",       "เครื่องมือ",     "zana",        "mcp"};
/* Priority over the other tools. */
static const char *const priority_stem[] = {
    "before",   "first",          "instead",  "rather than", "only",      "exclusive", "never",
    "prefer",   "priorit",        "over any", "over all",    "vor ",      "zuerst",    "statt",
    "nur ",     "ausschließlich", "vorrang",  "antes",       "primero",   "primera",   "primeiro",
    "en lugar", "em vez",         "solo ",    "sólo",        "nunca",     "avant",     "d'abord",
    "au lieu",  "seulement",      "jamais",   "priorit",     "prima",     "invece",    "înainte",
    "inainte",  "mai întâi",      "în loc",   "doar",        "niciodată", "przed",     "zamiast",
    "tylko",    "nigdy",          "перед",    "сначала",     "вместо",    "только",    "никогда",
    "спочатку", "замість",        "лише",     "πριν",        "αντί",      "μόνο",      "ποτέ",
    "önce",     "yerine",         "sadece",   "asla",        "sebelum",   "dahulu",    "daripada",
    "hanya",    "jangan",         "trước",    "thay vì",     "chỉ",       "före",      "först",
    "istället", "bara ",          "aldrig",   "før ",        "først",     "i stedet",  "kun ",
    "aldri",    "ennen",          "ensin",    "sijaan",      "vain",      "előtt",     "először",
    "helyett",  "csak",           "soha",     "לפני",        "במקום",     "רק ",       "לעולם",
    "قبل",      "بدلا",           "بدلاً",     "فقط",         "أبدا",      "به جای",    "هرگز",
    "पहले",      "बजाय",           "केवल",      "कभी",         "আগে",       "বদলে",      "শুধু",
    "前に",     "先に",           "優先",     "代わり",      "のみ",      "だけ",      "之前",
    "首先",     "优先",           "而不是",   "只",          "不要",      "먼저",      "전에",
    "대신",     "우선",           "절대",     "ก่อน",         "แทน",       "เท่านั้น",     "ห้าม",
    "kwanza",   "badala",         "kamwe"};

/* An exclusion of the other tools or a priority kept against the user:
 * "never", "exclusively", "even if". Stems. ("Call this before any other
 * tool" and "use this instead of the other PDF tools" are honest
 * sequencing: real servers write them.) */
static const char *const strong_stem[] = {
    "never",       "exclusiv",  "ausschließlich", "nicht in betracht",
    "even if",     "even when", "auch wenn",      "selbst wenn",
    "aunque",      "même si",   "anche se",       "chiar dacă",
    "nawet jeśli", "даже если", "навіть якщо",    "ακόμη κι αν",
    "walaupun",    "meskipun",  "ngay cả khi",    "även om",
    "selv om",     "vaikka",    "akkor is",       "גם אם",
    "حتى لو",      "حتی اگر",   "भले ही",          "하더라도",
    "hata kama",   "ても",      "即使",           "即便",
    "nunca",       "jamais",    "niciodată",      "nigdy",
    "никогда",     "ніколи",    "ποτέ",           "asla",
    "jangan",      "aldrig",    "aldri",          "soha",
    "לעולם",       "أبدا",      "هرگز",           "कभी नहीं",
    "絶対に",      "决不",      "永远不",         "절대",
    "ห้าม",         "kamwe",     "niemals",        "nooit",
    "mai "};
/* A negation just before a quantifier: "not the rest of the conversation". */
static const char *const neg_before[] = {"not ", "no ", "nicht ", "pas ", "non ",  "nu ",  "nie ",
                                         "не ",  "ne ", "niet ",  "não ", "inte ", "ikke "};

/* Calling or using a tool: what a "never" about the other tools must
 * govern ("never call tools from other servers"; "never pass notes to
 * other tools" keeps data, "never suggest any other server" advises).
 * Stems. */
static const char *const use_stem[] = {
    "call",     "use ",       "using",   "invoke",  "verwend",  "nutze",   "benutz", "aufruf",
    "betracht", "gebruik",    "roep",    "utilise", "utilisez", "usa ",    "usar",   "llam",
    "chiam",    "apel",       "folos",   "użyj",    "używa",    "wywoł",   "použ",   "вызыв",
    "использ",  "χρησιμοποι", "καλ",     "kullan",  "çağır",    "gunakan", "guna",   "panggil",
    "sử dụng",  "gọi",        "gamitin", "använd",  "anropa",   "bruk",    "brug",   "käytä",
    "kutsu",    "használ",    "hívd",    "השתמש",   "תשתמש",    "استخدم",  "تستخدم", "استفاده",
    "उपयोग",    "इस्तेमाल",     "ব্যবহার",  "使用",    "使わ",     "呼び出",  "调用",   "調用",
    "사용",     "호출",       "ใช้",      "เรียก",    "tumia"};
/* "Even if": a priority kept against the user's own choice. */
static const char *const even_if_stem[] = {
    "even if",          "even when",  "auch wenn",  "selbst wenn", "aunque",    "même si",
    "anche se",         "chiar dacă", "chiar daca", "nawet jeśli", "даже если", "навіть якщо",
    "ακόμη κι αν",      "walaupun",   "meskipun",   "ngay cả khi", "även om",   "selv om",
    "vaikka",           "akkor is",   "גם אם",      "حتى لو",      "حتی اگر",   "भले ही",
    "하더라도",         "hata kama",  "ても",       "即使",        "即便",      "bile",
    "nicht in betracht"};

/* A fake end of the definition: an end word before a document noun. */
static const char *const end_stem[] = {
    "end of", "fin de", "fin du",    "fin des",   "ende der", "ende des", "einde van",
    "fine d", "fim d",  "sfârșitul", "sfarsitul", "koniec",   "konec",    "конец",
    "кінець", "τέλος",  "sonu",      "akhir",     "kết thúc", "slut på",  "slutt på",
    "loppu",  "vége",   "סוף",       "نهاية",     "پایان",    "समाप्त",    "終了",
    "结束",   "結束",   "끝",        "สิ้นสุด",      "mwisho"};
static const char *const doc_stem[] = {
    "tool",         "description",   "documentation", "docs",          "spec",       "definition",
    "instructions", "manifest",      "schema",        "herramienta",   "descripci",  "documentaci",
    "outil",        "documentation", "beschreibung",  "dokumentation", "werkzeug",   "beschrijving",
    "documentatie", "strumento",     "descrizion",    "documentazion", "ferramenta", "descrição",
    "documentação", "instrument",    "descrier",      "документац",    "описани",    "инструмент",
    "περιγραφ",     "εργαλεί",       "açıklama",      "belge",         "dokumen",    "deskripsi",
    "mô tả",        "tài liệu",      "beskrivning",   "dokumentation", "kuvaus",     "leírás",
    "תיאור",        "תיעוד",         "الوصف",         "التوثيق",       "توضیحات",    "مستندات",
    "विवरण",        "説明",          "ドキュメント",  "说明",          "文档",       "描述",
    "설명",         "문서",          "คำอธิบาย",       "เอกสาร"};
/* After a fake boundary: the model or its rules named. */
static const char *const after_stem[] = {
    "system", "sistem", "système", "систем",   "σύστημ", "سیستم", "النظام",      "מערכת",
    "सिस्टम",  "系统",   "系統",    "システム", "시스템", "ระบบ",  "instruction", "polic"};

/* The line form of a chat export; the JSON and template forms are what
 * translators, tokenizers and template tools document. */
static const char *const role_marks[] = {"role: system", "role: developer"};

/* ---------------------------------------------------------------- words */

/* Does a word of the list start at t[i] (spaced scripts after a
 * non-letter, the others anywhere)? Sets *len to the match's length. */
static bool word_at(const char *t, size_t n, size_t i, const char *const *ws, size_t count,
                    size_t *len) {
    unsigned char c0 = (unsigned char)t[i];
    if ((c0 >= 0x80 && c0 < 0xC0) || (c0 < 0xE0 && mv_letter_before(t, i))) {
        return false;
    }
    for (size_t k = 0; k < count; k++) {
        const char *w = ws[k];
        if (w[0] != t[i]) {
            continue;
        }
        size_t l = strlen(w);
        if (i + l <= n && memcmp(t + i, w, l) == 0) {
            *len = l;
            return true;
        }
    }
    return false;
}

/* pi25: the first bytes of each list's words, so that the walks below
 * pass a byte no word of their list starts with (word_at compares a
 * word's first byte first: the result is the same). */
typedef struct list_first {
    const char *const *ws;
    unsigned char first[256];
} list_first;

static list_first lfirst[24];
static size_t n_lfirst;
static pthread_once_t lf_once = PTHREAD_ONCE_INIT;

static void lf_add(const char *const *ws, size_t count) {
    list_first *f = &lfirst[n_lfirst++];
    f->ws = ws;
    for (size_t k = 0; k < count; k++) {
        f->first[(unsigned char)ws[k][0]] = 1;
    }
}

static void lf_build(void) {
    lf_add(model_stem, N(model_stem));
    lf_add(user_stem, N(user_stem));
    lf_add(polite_stem, N(polite_stem));
    lf_add(quant_stem, N(quant_stem));
    lf_add(span_stem, N(span_stem));
    lf_add(poss_stem, N(poss_stem));
    lf_add(turn_stem, N(turn_stem));
    lf_add(answer_stem, N(answer_stem));
    lf_add(always_stem, N(always_stem));
    lf_add(answer_act_stem, N(answer_act_stem));
    lf_add(other_stem, N(other_stem));
    lf_add(tool_stem, N(tool_stem));
    lf_add(priority_stem, N(priority_stem));
    lf_add(strong_stem, N(strong_stem));
    lf_add(use_stem, N(use_stem));
    lf_add(even_if_stem, N(even_if_stem));
    lf_add(after_stem, N(after_stem));
    lf_add(end_stem, N(end_stem));
    lf_add(role_marks, N(role_marks));
}

/* The first-byte map of list ws, or NULL (every byte may start one). */
static const unsigned char *first_of(const char *const *ws) {
    pthread_once(&lf_once, lf_build);
    for (size_t k = 0; k < n_lfirst; k++) {
        if (lfirst[k].ws == ws) {
            return lfirst[k].first;
        }
    }
    return NULL;
}

static bool any_in(const char *t, size_t n, const char *const *ws, size_t count) {
    size_t l;
    const unsigned char *f = first_of(ws);
    for (size_t i = 0; i < n; i++) {
        if ((f == NULL || f[(unsigned char)t[i]]) && word_at(t, n, i, ws, count, &l)) {
            return true;
        }
    }
    return false;
}

/* Is a word of list a within `reach` bytes (either side) of a word of b? */
static bool negated_at(const char *t, size_t i) {
    for (size_t k = 0; k < N(neg_before); k++) {
        size_t l = strlen(neg_before[k]);
        for (size_t back = l; back <= l + 4 && back <= i; back++) {
            if (memcmp(t + i - back, neg_before[k], l) == 0 && !mv_letter_before(t, i - back)) {
                return true; /* "not every", "not the rest" */
            }
        }
    }
    return false;
}

static bool pair_in(const char *t, size_t n, const char *const *a, size_t ac, const char *const *b,
                    size_t bc) {
    size_t l;
    const unsigned char *fa = first_of(a), *fb = first_of(b);
    for (size_t i = 0; i < n; i++) {
        if ((fa != NULL && !fa[(unsigned char)t[i]]) || !word_at(t, n, i, a, ac, &l) ||
            negated_at(t, i)) {
            continue;
        }
        size_t lo = i > PAIR_SPACED ? i - PAIR_SPACED : 0;
        size_t hi = i + l + PAIR_SPACED < n ? i + l + PAIR_SPACED : n;
        for (size_t j = lo; j < hi; j++) {
            size_t m;
            if ((j + 1 <= i || j >= i + l) && (fb == NULL || fb[(unsigned char)t[j]]) &&
                word_at(t, n, j, b, bc, &m)) {
                return true;
            }
        }
    }
    return false;
}

/* Is a word of list b within PAIR_SPACED bytes after a word of a ("your
 * answers"; "the answer to a colleague, use your mail tool" is not)? */
static bool pair_after(const char *t, size_t n, const char *const *a, size_t ac,
                       const char *const *b, size_t bc) {
    size_t l, m;
    const unsigned char *fa = first_of(a), *fb = first_of(b);
    for (size_t i = 0; i < n; i++) {
        if ((fa != NULL && !fa[(unsigned char)t[i]]) || !word_at(t, n, i, a, ac, &l)) {
            continue;
        }
        size_t hi = i + l + PAIR_SPACED < n ? i + l + PAIR_SPACED : n;
        for (size_t j = i + l; j < hi; j++) {
            if ((fb == NULL || fb[(unsigned char)t[j]]) && word_at(t, n, j, b, bc, &m)) {
                return true;
            }
        }
    }
    return false;
}

/* ------------------------------------------------------ presence (cost)
 *
 * Which lists have a word in a text, in one pass: every word of the lists
 * the decisions need is indexed once by its first byte. A sentence is
 * folded, blanked and read by the lists' positions only when the lists
 * present can make a reach (may_reach) - few sentences of honest tools
 * do. Reads raw ASCII text as folded (ASCII folding is lowercasing) and
 * is a superset of word_at on the folded, quote-blanked text: a space of
 * a word also matches the first byte of an opening quote, which blanking
 * turns into a space. */
enum {
    L_MODEL,
    L_USER,
    L_POLITE,
    L_SPAN,
    L_QUANT,
    L_POSS,
    L_ALWAYS,
    L_OTHER,
    L_TOOL,
    L_PRIO,
    L_EVEN,
    L_STRONG,
    L_USE,
    L_MARK,
    L_END,
    L_RANK, /* perf27: model_note.c's rank words (mv_model_note_rank's gate) */
    L_COUNT
};
#define BIT(l) (1u << (l))

typedef struct ix_word {
    const char *w;
    uint8_t len;
    uint8_t list;
} ix_word;

/* L_RANK's words are model_note.c's: set by ix_build */
static struct {
    const char *const *ws;
    size_t count;
} ix_lists[L_COUNT] = {
    [L_MODEL] = {model_stem, N(model_stem)},    [L_USER] = {user_stem, N(user_stem)},
    [L_POLITE] = {polite_stem, N(polite_stem)}, [L_SPAN] = {span_stem, N(span_stem)},
    [L_QUANT] = {quant_stem, N(quant_stem)},    [L_POSS] = {poss_stem, N(poss_stem)},
    [L_ALWAYS] = {always_stem, N(always_stem)}, [L_OTHER] = {other_stem, N(other_stem)},
    [L_TOOL] = {tool_stem, N(tool_stem)},       [L_PRIO] = {priority_stem, N(priority_stem)},
    [L_EVEN] = {even_if_stem, N(even_if_stem)}, [L_STRONG] = {strong_stem, N(strong_stem)},
    [L_USE] = {use_stem, N(use_stem)},          [L_MARK] = {role_marks, N(role_marks)},
    [L_END] = {end_stem, N(end_stem)},
};

#define IX_MAX 2048
#define IX_BUCKETS 16384

/* Words of some lists indexed by their first two (folded) bytes. */
typedef struct ix_index {
    ix_word words[IX_MAX];
    uint16_t start[IX_BUCKETS + 1];
    unsigned char first[256]; /* a raw byte some word starts with (either case) */
    unsigned char tri[8192];  /* a hash of the first three bytes of some word (tri_hash) */
    unsigned char pair[8192]; /* raw first two bytes (r0 << 8 | r1) of some word (pair_fill) */
    unsigned char quad[8192]; /* a hash of the first four bytes of some word (quad_fill) */
} ix_index;

/* A 16-bit hash of three folded bytes. */
static size_t tri_hash(unsigned char c0, unsigned char c1, unsigned char c2) {
    return ((size_t)c0 * 961u + (size_t)c1 * 31u + c2) & 0xFFFFu;
}

/* ix: every list; ax (pi25): the lists one of which every reach or frame
 * needs (a reader, an "other", a role marker, an end word). */
#define ANCHOR_LISTS                                                                               \
    (BIT(L_MODEL) | BIT(L_USER) | BIT(L_POLITE) | BIT(L_OTHER) | BIT(L_MARK) | BIT(L_END) |        \
     BIT(L_RANK))
static ix_index ix, ax;
/* The lists one of which may_reach needs. */
#define READER_LISTS (BIT(L_MODEL) | BIT(L_USER) | BIT(L_POLITE) | BIT(L_OTHER))
static pthread_once_t ix_once = PTHREAD_ONCE_INIT;

/* The bucket of a word by its first two (folded) bytes. Every word has
 * two bytes or more. */
static size_t ix_key(unsigned char c0, unsigned char c1) {
    return ((size_t)c0 << 6) | (c1 & 0x3Fu);
}

static void ix_fill(ix_index *x, uint32_t lists) {
    static uint16_t count[IX_BUCKETS];
    static uint16_t fill[IX_BUCKETS];
    memset(count, 0, sizeof(count));
    for (size_t l = 0; l < L_COUNT; l++) {
        for (size_t k = 0; k < ix_lists[l].count && (lists & BIT(l)); k++) {
            const char *w = ix_lists[l].ws[k];
            count[ix_key((unsigned char)w[0], (unsigned char)w[1])]++;
        }
    }
    uint16_t at = 0;
    for (size_t c = 0; c < IX_BUCKETS; c++) {
        x->start[c] = at;
        fill[c] = at;
        at = (uint16_t)(at + count[c]);
    }
    x->start[IX_BUCKETS] = at;
    for (size_t l = 0; l < L_COUNT; l++) {
        for (size_t k = 0; k < ix_lists[l].count && (lists & BIT(l)); k++) {
            const char *w = ix_lists[l].ws[k];
            ix_word *xw = &x->words[fill[ix_key((unsigned char)w[0], (unsigned char)w[1])]++];
            xw->w = w;
            xw->len = (uint8_t)strlen(w);
            xw->list = (uint8_t)l;
            unsigned char f = (unsigned char)w[0];
            x->first[f] = 1;
            if (f >= 'a' && f <= 'z') {
                x->first[f - 32] = 1;
            }
            /* the text's second and third bytes a word may meet: its own,
             * or where it has a space, a quote's first byte (bucket_at) */
            static const unsigned char quote_bytes[] = {' ', '"', 0xE2, 0xC2, 0xE3};
            unsigned char w1 = (unsigned char)w[1], w2 = (unsigned char)w[2];
            for (size_t b1 = 0; b1 < (w1 == ' ' ? sizeof(quote_bytes) : 1); b1++) {
                unsigned char c1 = w1 == ' ' ? quote_bytes[b1] : w1;
                for (size_t c2 = 0; c2 < 256; c2++) {
                    bool any = xw->len == 2;
                    bool own = c2 == w2 || (w2 == ' ' && memchr(quote_bytes, (int)c2,
                                                                sizeof(quote_bytes)) != NULL);
                    if (any || own) {
                        size_t h = tri_hash(f, c1, (unsigned char)c2);
                        x->tri[h >> 3] |= (unsigned char)(1u << (h & 7));
                    }
                    if (!any && w2 != ' ') {
                        /* only its own third byte */
                        size_t h = tri_hash(f, c1, w2);
                        x->tri[h >> 3] |= (unsigned char)(1u << (h & 7));
                        break;
                    }
                }
            }
        }
    }
}

/* Byte classes of the one pass (presence_sentences). */
enum { C_ALNUM = 1, C_END = 2, C_FOLD = 4, C_FIRST = 8 };
static unsigned char cls[256];

/* perf26: the raw byte pairs a word of x may start with (either case of
 * its first two bytes; for a space at byte 1, a quote's first byte too,
 * as bucket_at accepts): word_lists turns most words away by this one
 * lookup, before the three-byte hash. bucket_at compares both bytes, so
 * a pair not marked here meets no word. */
static unsigned char up(unsigned char c) {
    return (unsigned char)(c >= 'a' && c <= 'z' ? c - 32 : c);
}

static void pair_fill(ix_index *x) {
    static const unsigned char space_bytes[] = {' ', '"', 0xE2, 0xC2, 0xE3};
    for (size_t k = 0; k < x->start[IX_BUCKETS]; k++) {
        const unsigned char *w = (const unsigned char *)x->words[k].w;
        unsigned char r0s[2] = {w[0], up(w[0])};
        unsigned char r1s[5] = {w[1], up(w[1])};
        size_t n1 = 2;
        if (w[1] == ' ') {
            memcpy(r1s, space_bytes, sizeof(space_bytes));
            n1 = sizeof(space_bytes);
        }
        for (size_t a = 0; a < 2; a++) {
            for (size_t b = 0; b < n1; b++) {
                size_t h = ((size_t)r0s[a] << 8) | r1s[b];
                x->pair[h >> 3] |= (unsigned char)(1u << (h & 7));
            }
        }
    }
}

/* perf28: a 16-bit hash of four folded bytes. */
static size_t quad_hash(unsigned char c0, unsigned char c1, unsigned char c2, unsigned char c3) {
    return ((size_t)c0 * 29791u + (size_t)c1 * 961u + (size_t)c2 * 31u + c3) & 0xFFFFu;
}

/* perf28: the first four bytes a word of x may meet, as bucket_at compares
 * them (its own byte; at a space of the word, a quote's first byte too;
 * past its end, any byte): "for" or "in the" pass the three-byte hash of
 * "forrang" or "in place of" but not this one. */
static void quad_fill(ix_index *x) {
    static const unsigned char space_bytes[] = {' ', '"', 0xE2, 0xC2, 0xE3};
    for (size_t k = 0; k < x->start[IX_BUCKETS]; k++) {
        const ix_word *xw = &x->words[k];
        unsigned char set[3][256];
        size_t cnt[3];
        for (size_t j = 1; j < 4; j++) {
            unsigned char wj = j < xw->len ? (unsigned char)xw->w[j] : 0;
            if (j >= xw->len) {
                for (size_t c = 0; c < 256; c++) {
                    set[j - 1][c] = (unsigned char)c;
                }
                cnt[j - 1] = 256;
            } else if (wj == ' ') {
                memcpy(set[j - 1], space_bytes, sizeof(space_bytes));
                cnt[j - 1] = sizeof(space_bytes);
            } else {
                set[j - 1][0] = wj;
                cnt[j - 1] = 1;
            }
        }
        unsigned char c0 = (unsigned char)xw->w[0];
        for (size_t a = 0; a < cnt[0]; a++) {
            for (size_t b = 0; b < cnt[1]; b++) {
                for (size_t c = 0; c < cnt[2]; c++) {
                    size_t h = quad_hash(c0, set[0][a], set[1][b], set[2][c]);
                    x->quad[h >> 3] |= (unsigned char)(1u << (h & 7));
                }
            }
        }
    }
}

static void ix_build(void) {
    ix_lists[L_RANK].ws = mv_model_note_rank_words;
    ix_lists[L_RANK].count = mv_model_note_rank_count;
    ix_fill(&ix, UINT32_MAX);
    ix_fill(&ax, ANCHOR_LISTS);
    pair_fill(&ix);
    pair_fill(&ax);
    quad_fill(&ix);
    quad_fill(&ax);
    for (size_t c = 0; c < 256; c++) {
        bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        bool end = c == '\n' || c == '.' || c == '!' || c == '?' || c == 0xE3 || c == 0xEF;
        bool fold = c == 0xC3 || c == 0xCE || c == 0xD0 || c == 0xE2;
        cls[c] = (unsigned char)((alnum ? C_ALNUM : 0) | (end ? C_END : 0) | (fold ? C_FOLD : 0) |
                                 (ax.first[c] ? C_FIRST : 0));
    }
}

static inline unsigned char low(unsigned char c) {
    return (unsigned char)(c + (unsigned char)((unsigned char)(c - 'A') < 26u ? 32 : 0));
}

/* Does a byte stand where blanking a quotation may put a space? */
static bool quote_lead(unsigned char r) {
    return r == '"' || r == 0xE2 || r == 0xC2 || r == 0xE3;
}

/* The lists of the words of bucket `key` at t[i]. */
static uint32_t bucket_at(const ix_index *xi, const char *t, size_t n, size_t i, size_t key,
                          uint32_t bits) {
    for (size_t k = xi->start[key]; k < xi->start[key + 1]; k++) {
        const ix_word *x = &xi->words[k];
        if ((bits & BIT(x->list)) || i + x->len > n ||
            (unsigned char)x->w[0] != low((unsigned char)t[i])) {
            continue;
        }
        /* the last byte first: it tells most words of a bucket apart */
        unsigned char lr = low((unsigned char)t[i + x->len - 1]),
                      lw = (unsigned char)x->w[x->len - 1];
        if (lr != lw && !(lw == ' ' && quote_lead(lr))) {
            continue;
        }
        size_t j = 1;
        for (; j < x->len; j++) {
            unsigned char r = low((unsigned char)t[i + j]), w = (unsigned char)x->w[j];
            if (r != w && !(w == ' ' && quote_lead(r))) {
                break;
            }
        }
        if (j == x->len) {
            bits |= BIT(x->list);
        }
    }
    return bits;
}

/* ASCII letters and digits: no word of the lists starts after one. */
static const unsigned char ascii_alnum[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
    ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
    ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,
    ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
    ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1};

/* The lists of xi with a word at t[i] (i + 1 < n): what presence reads
 * at one byte. A byte no word starts with is passed first (the index's
 * first-byte map: both buckets a byte may try start with it). */
static inline uint32_t lists_at(const ix_index *xi, const char *t, size_t n, size_t i,
                                uint32_t bits) {
    unsigned char r0 = (unsigned char)t[i];
    if (!xi->first[r0]) {
        return bits;
    }
    unsigned char c0 = low(r0), c1 = low((unsigned char)t[i + 1]);
    size_t key = ix_key(c0, c1);
    bool q = quote_lead(c1);
    if ((xi->start[key] == xi->start[key + 1] && !q) || (c0 >= 0x80 && c0 < 0xC0)) {
        return bits;
    }
    if (c0 < 0xE0 && i > 0) {
        unsigned char p = low((unsigned char)t[i - 1]);
        if (p < 0x80 ? ((p >= 'a' && p <= 'z') || (p >= '0' && p <= '9'))
                     : mv_letter_before(t, i)) {
            return bits;
        }
    }
    if (i + 2 < n) {
        /* no word of either bucket starts with these three bytes */
        size_t h = tri_hash(c0, c1, low((unsigned char)t[i + 2]));
        if (!(xi->tri[h >> 3] & (1u << (h & 7)))) {
            return bits;
        }
    }
    if (i + 3 < n) {
        /* perf28: nor with these four (quad_fill) */
        size_t h = quad_hash(c0, c1, low((unsigned char)t[i + 2]), low((unsigned char)t[i + 3]));
        if (!(xi->quad[h >> 3] & (1u << (h & 7)))) {
            return bits;
        }
    }
    bits = bucket_at(xi, t, n, i, key, bits);
    if (q) {
        bits = bucket_at(xi, t, n, i, ix_key(c0, ' '), bits);
    }
    return bits;
}

/* lists_at at the first byte of an ASCII word: the bucket's emptiness
 * is tested here, the rest there. */
static inline uint32_t word_lists(const ix_index *xi, const char *t, size_t n, size_t i,
                                  uint32_t bits) {
    /* perf26: the raw first two bytes first (pair_fill) */
    size_t p = ((size_t)(unsigned char)t[i] << 8) | (unsigned char)t[i + 1];
    if (!(xi->pair[p >> 3] & (1u << (p & 7)))) {
        return bits;
    }
    unsigned char c0 = low((unsigned char)t[i]), c1 = low((unsigned char)t[i + 1]);
    if (i + 2 < n) {
        /* lists_at's last test first: it turns away most words */
        size_t h = tri_hash(c0, c1, low((unsigned char)t[i + 2]));
        if (!(xi->tri[h >> 3] & (1u << (h & 7)))) {
            return bits;
        }
    }
    size_t key = ix_key(c0, c1);
    if (xi->start[key] == xi->start[key + 1] && !quote_lead(c1)) {
        return bits;
    }
    return lists_at(xi, t, n, i, bits);
}

/* The lists with a word in t[0, n) (raw ASCII or folded text). The bytes
 * after the first of an ASCII word are passed (lists_at turns them away:
 * an ASCII letter or digit stands before them); the byte after the word
 * is read as any other. */
static uint32_t presence(const char *t, size_t n) {
    pthread_once(&ix_once, ix_build);
    uint32_t bits = 0;
    size_t i = 0;
    while (i + 1 < n) {
        unsigned char r0 = (unsigned char)t[i];
        if (ascii_alnum[r0]) {
            if (ix.first[r0]) {
                bits = word_lists(&ix, t, n, i, bits);
            }
            i++;
            while (i + 1 < n && ascii_alnum[(unsigned char)t[i]]) {
                i++;
            }
            continue;
        }
        if (ix.first[r0]) {
            bits = lists_at(&ix, t, n, i, bits);
        }
        i++;
    }
    return bits;
}

static bool is_ascii(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)s[i] >= 0x80) {
            return false;
        }
    }
    return true;
}

/* The lists present in raw s[0, n): read as is when ASCII, else folded
 * into buf (2 * n + 8 bytes). */
static uint32_t presence_raw(const char *s, size_t n, char *buf) {
    if (is_ascii(s, n)) {
        return presence(s, n);
    }
    return presence(buf, mv_word_fold(s, n, buf));
}

/* ------------------------------------------- one pass per string (pi25)
 *
 * Most strings are read once, here: the lists present in the whole string
 * and in each of its sentences (by the sentence of a word's first byte),
 * skipping the bytes inside an ASCII word (no word of the lists starts
 * there: presence passes them too). Only a fold-neutral string is read
 * this way: one that mv_word_fold() changes by ASCII case alone (no Latin-1,
 * Greek or Cyrillic lead byte, no typographic single quote), so that the
 * raw bytes read as the folded ones at the same offsets. A sentence's
 * lists here are a superset of presence_raw's on that sentence (its
 * words may run past SENT_MAX), and may_reach is a gate: a superset
 * never changes a result. */
#define SENT_CAP 1024 /* sentences kept (a registry's longest text has 955) */

typedef struct sent_bits {
    uint32_t a, e; /* the sentence t[a, e) */
    uint32_t bits;
} sent_bits;

typedef struct sentences {
    sent_bits s[SENT_CAP];
    size_t count;
    uint32_t all;
} sentences;

static void sent_push(sentences *ss, size_t a, size_t e, uint32_t bits) {
    ss->all |= bits;
    if (ss->count < SENT_CAP) {
        ss->s[ss->count].a = (uint32_t)a;
        ss->s[ss->count].e = (uint32_t)e;
        ss->s[ss->count].bits = bits;
        ss->count++;
    }
}

/* The end of a sentence at t[i] (as sentence_end finds it), or 0. */
static size_t end_at(const char *t, size_t n, size_t i) {
    unsigned char c = (unsigned char)t[i];
    if (c == '\n') {
        return i + 1;
    }
    if ((c == '.' || c == '!' || c == '?') && (i + 1 == n || t[i + 1] == ' ' || t[i + 1] == '\n')) {
        return i + 1;
    }
    if (c == 0xE3 && i + 2 < n && (unsigned char)t[i + 1] == 0x80 &&
        (unsigned char)t[i + 2] == 0x82) {
        return i + 3;
    }
    if (c == 0xEF && i + 2 < n && (unsigned char)t[i + 1] == 0xBC &&
        ((unsigned char)t[i + 2] == 0x81 || (unsigned char)t[i + 2] == 0x9F)) {
        return i + 3;
    }
    return 0;
}

/* The lists of t[0, n) and of its sentences; false when t is not
 * fold-neutral (ss is then not filled). */
static bool presence_sentences(const char *t, size_t n, sentences *ss) {
    pthread_once(&ix_once, ix_build);
    ss->count = 0;
    ss->all = 0;
    if (n > UINT32_MAX) {
        return false;
    }
    uint32_t cur = 0;
    size_t a = 0;
    size_t i = 0;
    while (i + 1 < n) {
        unsigned char r0 = (unsigned char)t[i];
        unsigned char c = cls[r0];
        if (c & C_ALNUM) {
            if (c & C_FIRST) {
                cur = word_lists(&ax, t, n, i, cur);
            }
            /* the rest of the word starts no word; the byte after it is
             * read as any other */
            i++;
            while (i + 1 < n && (cls[(unsigned char)t[i]] & C_ALNUM)) {
                i++;
            }
            continue;
        }
        if (c != 0) {
            if ((c & C_FOLD) && (r0 != 0xE2 || ((unsigned char)t[i + 1] == 0x80 && i + 2 < n &&
                                                ((unsigned char)t[i + 2] == 0x98 ||
                                                 (unsigned char)t[i + 2] == 0x99)))) {
                return false; /* not fold-neutral */
            }
            if (c & C_FIRST) {
                cur = lists_at(&ax, t, n, i, cur);
            }
            size_t e = (c & C_END) ? end_at(t, n, i) : 0;
            if (e != 0) {
                sent_push(ss, a, e, cur);
                cur = 0;
                a = e;
            }
        }
        i++;
    }
    if (a < n) {
        sent_push(ss, a, n, cur);
    }
    return true;
}

/* Can a sentence with the lists `b` present have a reach
 * (sentence_reach)? */
static bool may_reach(uint32_t b) {
    bool addr = (b & (BIT(L_MODEL) | BIT(L_USER) | BIT(L_POLITE))) != 0;
    bool turns = addr && (b & (BIT(L_SPAN) | BIT(L_QUANT) | BIT(L_POSS) | BIT(L_ALWAYS))) != 0;
    bool tools = (b & BIT(L_OTHER)) && (b & BIT(L_TOOL)) && (b & BIT(L_PRIO)) &&
                 ((b & BIT(L_EVEN)) || ((b & BIT(L_STRONG)) && (b & BIT(L_USE))));
    return turns || tools;
}

/* Blank quoted spans (straight and typographic double quotes, guillemets,
 * corner brackets) in t[0, n): a quotation does not order. */
static void blank_quotes(char *t, size_t n) {
    static const char *const open[] = {"\"",           "\xE2\x80\x9C", "\xC2\xAB",
                                       "\xE3\x80\x8C", "\xE3\x80\x8E", "\xE2\x80\x9E"};
    static const char *const close[] = {"\"",           "\xE2\x80\x9D", "\xC2\xBB",
                                        "\xE3\x80\x8D", "\xE3\x80\x8F", "\xE2\x80\x9C"};
    for (size_t i = 0; i < n; i++) {
        if (!quote_lead((unsigned char)t[i])) {
            continue; /* every opening starts with such a byte */
        }
        for (size_t k = 0; k < N(open); k++) {
            size_t ol = strlen(open[k]), cl = strlen(close[k]);
            if (i + ol > n || memcmp(t + i, open[k], ol) != 0) {
                continue;
            }
            for (size_t j = i + ol; j + cl <= n; j++) {
                if (memcmp(t + j, close[k], cl) == 0) {
                    memset(t + i, ' ', j + cl - i);
                    i = j + cl - 1;
                    break;
                }
            }
            break;
        }
    }
}

/* The end of the sentence starting at s[a]: a full stop, a question or
 * exclamation mark before a space or the end, a full-width stop, or a
 * line break. */
static size_t sentence_end(const char *s, size_t n, size_t a) {
    for (size_t i = a; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            return i + 1;
        }
        if ((c == '.' || c == '!' || c == '?') &&
            (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\n')) {
            return i + 1;
        }
        if (c == 0xE3 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
            (unsigned char)s[i + 2] == 0x82) {
            return i + 3; /* 。 */
        }
        if (c == 0xEF && i + 2 < n && (unsigned char)s[i + 1] == 0xBC &&
            ((unsigned char)s[i + 2] == 0x81 || (unsigned char)s[i + 2] == 0x9F)) {
            return i + 3; /* ！ ？ */
        }
    }
    return n;
}

/* Does the sentence t[0, n) (folded, quotes blanked) name its reader? */
static bool addressed(const char *t, size_t n) {
    return any_in(t, n, model_stem, N(model_stem)) || any_in(t, n, user_stem, N(user_stem)) ||
           any_in(t, n, polite_stem, N(polite_stem));
}

/* The reach of the sentence t[0, n), or MV_REACH_NONE. */
static mv_reach_kind sentence_reach(const char *t, size_t n) {
    size_t lead = 0, l;
    while (lead < n && (t[lead] == ' ' || t[lead] == '-' || t[lead] == '*')) {
        lead++;
    }
    /* "Other tools of this server write files; this one only reads":
     * the other tools as the sentence's subject are described */
    bool other_subject = lead < n && word_at(t, n, lead, other_stem, N(other_stem), &l);
    if (!other_subject && pair_in(t, n, other_stem, N(other_stem), tool_stem, N(tool_stem)) &&
        any_in(t, n, priority_stem, N(priority_stem)) &&
        (any_in(t, n, even_if_stem, N(even_if_stem)) ||
         (any_in(t, n, strong_stem, N(strong_stem)) && any_in(t, n, use_stem, N(use_stem))))) {
        return MV_REACH_TOOLS;
    }
    /* "Each answer includes its author": a sentence of a spaced script
     * opened by a quantifier describes its subject */
    if (lead < n && (unsigned char)t[lead] < 0xE0 &&
        word_at(t, n, lead, quant_stem, N(quant_stem), &l)) {
        return MV_REACH_NONE;
    }
    if (!addressed(t, n)) {
        return MV_REACH_NONE;
    }
    if (any_in(t, n, span_stem, N(span_stem)) ||
        pair_in(t, n, quant_stem, N(quant_stem), turn_stem, N(turn_stem)) ||
        pair_after(t, n, poss_stem, N(poss_stem), answer_stem, N(answer_stem)) ||
        (any_in(t, n, always_stem, N(always_stem)) &&
         any_in(t, n, answer_act_stem, N(answer_act_stem)))) {
        return MV_REACH_TURNS;
    }
    return MV_REACH_NONE;
}

/* The reach search; with `have`, fbits are the lists present in the
 * whole (ASCII) string. */
static bool reach_find(const char *s, size_t n, bool skip_job, mv_reach *out, bool have,
                       uint32_t fbits, const sentences *ss) {
    char buf[SENT_MAX * 2 + 8];
    size_t a = 0, si = 0;
    bool first = true;
    /* an ASCII field without the lists a reach needs has none; a string
     * read by presence_sentences, without a reader or an "other" */
    if (ss != NULL ? !(ss->all & READER_LISTS)
                   : (have ? !may_reach(fbits) : (is_ascii(s, n) && !may_reach(presence(s, n))))) {
        return false;
    }
    while (a < n) {
        /* a sentence the one pass kept: its end, and no lists when it
         * has no reader and no "other" (may_reach needs one) */
        bool kept = ss != NULL && si < ss->count && ss->s[si].a == a;
        size_t e = kept ? ss->s[si].e : sentence_end(s, n, a);
        size_t len = e - a;
        /* perf26: the job sentence is read on only when the model is
         * named in it (below), so a kept one without a model word is
         * passed without its lists */
        bool job = first && skip_job;
        uint32_t need = job ? BIT(L_MODEL) : READER_LISTS;
        uint32_t bits = kept && !(ss->s[si].bits & need)
                            ? 0
                            : presence_raw(s + a, len > SENT_MAX ? SENT_MAX : len, buf);
        si++;
        /* a sentence of a few bytes ("Notes:") is not a job sentence */
        if (job) {
            first = len < 4;
            if (!(bits & BIT(L_MODEL)) || !may_reach(bits)) {
                a = e;
                continue;
            }
            /* a job sentence that turns to the model ("Checks a reply's
             * tone. Assistant: end your answers ...") is read from there */
            size_t fl0 = mv_word_fold(s + a, len > SENT_MAX ? SENT_MAX : len, buf), l0;
            size_t from = 0;
            for (size_t i = 1; i < fl0 && from == 0; i++) {
                if (word_at(buf, fl0, i, model_stem, N(model_stem), &l0) && i + l0 < fl0 &&
                    buf[i + l0] == ':') {
                    from = i;
                }
            }
            if (from == 0) {
                a = e;
                continue;
            }
            memmove(buf, buf + from, fl0 - from);
            blank_quotes(buf, fl0 - from);
            mv_reach_kind k0 = sentence_reach(buf, fl0 - from);
            if (k0 != MV_REACH_NONE) {
                if (out) {
                    out->start = a;
                    out->end = e;
                    out->kind = k0;
                }
                return true;
            }
            a = e;
            continue;
        }
        if (!may_reach(bits)) {
            a = e;
            continue;
        }
        if (len > SENT_MAX) {
            len = SENT_MAX;
        }
        size_t fl = mv_word_fold(s + a, len, buf);
        blank_quotes(buf, fl);
        mv_reach_kind k = sentence_reach(buf, fl);
        if (k != MV_REACH_NONE) {
            if (out) {
                out->start = a;
                out->end = e;
                out->kind = k;
            }
            return true;
        }
        a = e;
    }
    return false;
}

/* ------------------------------------------------------- frames (shape) */

/* Is s[i] the start of a role marker of the system, the developer or the
 * assistant? Sets *after to the first byte of its body. */
static bool role_marker(const char *t, size_t n, size_t i, size_t *after) {
    /* the line form of a chat export; the JSON and template forms are
     * what translators, tokenizers and template tools document */
    size_t l;
    if (!word_at(t, n, i, role_marks, N(role_marks), &l)) {
        return false;
    }
    *after = i + l;
    return true;
}

/* Words (letters runs) in t[a, b), counted up to k. */
static size_t words_in(const char *t, size_t a, size_t b, size_t k) {
    size_t w = 0;
    bool in = false;
    for (size_t i = a; i < b && w < k; i++) {
        unsigned char c = (unsigned char)t[i];
        bool letter = (c >= 'a' && c <= 'z') || c >= 0x80;
        if (letter && !in) {
            w++;
        }
        in = letter;
    }
    return w;
}

/* Does a boundary open at t[i]: at the start, or after a line break, a
 * sentence's end or a mark of a separator ("---", "==", "]]", "#", "*")?
 * "at the end of the tool's run" is prose. */
static bool boundary_opens(const char *t, size_t i) {
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\r')) {
        i--;
    }
    if (i == 0) {
        return true;
    }
    char c = t[i - 1];
    return c == '\n' || c == '.' || c == '-' || c == '=' || c == ']' || c == '[' || c == '#' ||
           c == '*' || c == '<' || c == '(' || c == '/' || c == '>' || c == ':' || c == '|';
}

/* Does a role marker open at t[i]: at the start, after a line break, a
 * sentence's end or an opening brace? A marker after a quote or a word is
 * a quotation ("tags such as '<|im_start|>system'"). */
static bool role_opens(const char *t, size_t i) {
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\r')) {
        i--;
    }
    if (i == 0) {
        return true;
    }
    char c = t[i - 1];
    return c == '\n' || c == '-';
}

static bool frame_find(const char *s, size_t n, mv_reach *out, bool have, uint32_t fbits) {
    /* only a text that has one of the frames' first bytes pays the fold */
    bool maybe = false;
    for (size_t i = 0; i < n && !maybe; i++) {
        char c = s[i];
        maybe = c == '<' || c == '[' || c == 'r' || c == 'R' || c == 'e' || c == 'E' || c == 'f' ||
                c == 'F' || (unsigned char)c >= 0x80;
    }
    if (!maybe) {
        return false;
    }
    char buf[1024 * 2 + 8];
    size_t len = n < 1024 ? n : 1024;
    /* a frame needs a role marker or an end word */
    if (!((have ? fbits : presence_raw(s, len, buf)) & (BIT(L_MARK) | BIT(L_END)))) {
        return false;
    }
    size_t fl = mv_word_fold(s, len, buf);
    /* a byte that starts no role marker and no end word is passed */
    const unsigned char *f_role = first_of(role_marks), *f_end = first_of(end_stem);
    for (size_t i = 0; i < fl; i++) {
        size_t after, l;
        unsigned char b = (unsigned char)buf[i];
        if (!f_role[b] && !f_end[b]) {
            continue;
        }
        if (role_marker(buf, fl, i, &after) && role_opens(buf, i)) {
            if (words_in(buf, after, fl < after + 200 ? fl : after + 200, 5) >= 5) {
                if (out) {
                    out->start = i;
                    out->end = n;
                    out->kind = MV_REACH_ROLE;
                }
                return true;
            }
            continue;
        }
        if (!word_at(buf, fl, i, end_stem, N(end_stem), &l) || !boundary_opens(buf, i)) {
            continue;
        }
        /* a document noun within two words after the end word */
        size_t j = i + l, stop = i + l + 24 < fl ? i + l + 24 : fl, m;
        bool doc = false;
        for (; j < stop && !doc; j++) {
            doc = word_at(buf, fl, j, doc_stem, N(doc_stem), &m);
        }
        if (!doc) {
            continue;
        }
        /* the boundary is a frame when text follows it that names the
         * model or the system's rules */
        size_t lim = j + FRAME_AFTER < fl ? j + FRAME_AFTER : fl;
        if (words_in(buf, j, lim, 6) >= 6 &&
            (any_in(buf + j, lim - j, model_stem, N(model_stem)) ||
             any_in(buf + j, lim - j, after_stem, N(after_stem)))) {
            if (out) {
                out->start = i;
                out->end = n;
                out->kind = MV_REACH_BOUNDARY;
            }
            return true;
        }
    }
    return false;
}

bool mv_reply_reach_find(const char *s, size_t n, bool skip_job, mv_reach *out) {
    return reach_find(s, n, skip_job, out, false, 0, NULL);
}

bool mv_reply_frame_find(const char *s, size_t n, mv_reach *out) {
    return frame_find(s, n, out, false, 0);
}

bool mv_reply_find(const char *s, size_t n, bool skip_job, mv_reach *out) {
    mv_rank_spans rs;
    return mv_reply_find_rank(s, n, skip_job, out, &rs);
}

/* The sentences of ss with a rank word (perf27), adjacent ones joined; a
 * span past the last one that fits extends it to the end of the last
 * such sentence; all of t when a sentence past SENT_CAP may hold one. */
static void rank_spans(const sentences *ss, size_t n, mv_rank_spans *rs) {
    rs->count = 0;
    if (!(ss->all & BIT(L_RANK))) {
        return;
    }
    if (ss->count >= SENT_CAP) {
        rs->lo[0] = 0;
        rs->hi[0] = (uint32_t)n;
        rs->count = 1;
        return;
    }
    for (size_t k = 0; k < ss->count; k++) {
        if (!(ss->s[k].bits & BIT(L_RANK))) {
            continue;
        }
        if (rs->count > 0 && (rs->hi[rs->count - 1] == ss->s[k].a || rs->count == MV_RANK_SPANS)) {
            rs->hi[rs->count - 1] = ss->s[k].e;
            continue;
        }
        rs->lo[rs->count] = ss->s[k].a;
        rs->hi[rs->count] = ss->s[k].e;
        rs->count++;
    }
}

bool mv_reply_find_rank(const char *s, size_t n, bool skip_job, mv_reach *out, mv_rank_spans *rs) {
    /* a fold-neutral string is read once for both searches and for
     * each of its sentences */
    sentences ss;
    if (presence_sentences(s, n, &ss)) {
        rank_spans(&ss, n, rs);
        return frame_find(s, n, out, true, ss.all) ||
               reach_find(s, n, skip_job, out, true, ss.all, &ss);
    }
    /* not read by the one pass: mv_model_note_rank's own gate decides */
    rs->lo[0] = 0;
    rs->hi[0] = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    rs->count = 1;
    return frame_find(s, n, out, false, 0) || reach_find(s, n, skip_job, out, false, 0, NULL);
}
