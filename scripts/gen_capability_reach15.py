#!/usr/bin/env python3
"""Writes src/engine/checks/capability_reach15.inc: the store terms of
capability.mismatch detector 8 (round 15, reach15), escaped UTF-8, grouped
by first byte with a two-byte filter (k_reach_pair) and the
terms of each pair (k_reach_rank, k_reach_pair_at, k_reach_by_pair), and
the denial words. Edit the lists here and run:

    python3 scripts/gen_capability_reach15.py > src/engine/checks/capability_reach15.inc

A term ending in '$' must end at a word end; ' ' and '-' in a term match
any of " _-". Terms are lower case; they name a store of the user (the
reach), never a job.
"""
KINDS = {
 'contacts': ["rehber erişim","מאנשי הקשר","אנשי קשר","مخاطبین","دفترچه تلفن","contactele","agenda de contacte","contacts","address book","addressbook","contactos","contatos","contatti","contactpersonen",
   "libreta de direcciones","carnet d'adresses","adressbuch","adresboek","rubrica$",
   "książka adresowa","książki adresowej","adresář","névjegy","címjegyzék","yhteystie","osoitekirja",
   "adressbok","adressebog","kişiler","adres defteri","kontak","danh bạ","danh ba","контакт","адресн",
   "連絡先","アドレス帳","通讯录","联系人","通訊錄","聯絡人","연락처","주소록","संपर्क"],
 'location': ["מיקום","موقعیت مکانی","locația","localizarea","gps$","location history","real-time location","live location","precise location","ubicación",
   "localização","localisation","géolocalisation","standort","locatie","lokalizacj","poloh$","helymeghatároz",
   "tartózkodási hely","sijainti","konum$","lokasi","vị trí","vi tri","mahali$","местоположен","геолокац",
   "位置情報","位置信息","위치","लोकेशन","स्थान"],
 'browser': ["เบราว์เซอร์","browser tabs","open tabs","דפדפן","עוגיות","مرورگر","کوکی","browserul","browserului","browser","browsing history","cookie","navegador","historial de navegación","historique de navigation",
   "navigateur","cronologia","przeglądar","prohlížeč","böngész","selaimen","selainhistori","tarayıcı","trình duyệt","lịch sử duyệt",
   "kivinjari","браузер","ブラウザ","浏览器","瀏覽器","브라우저","ब्राउज़र","कुकी"],
 'mail': ["e-mail fiók","email fiók","imap$","thunderbird","le email","tutte le email","gmail read","email mailbox","email account","e-mail account","תיבת הדואר","דואר אלקטרוני","ایمیل","صندوق نامه","e-mailuri","căsuța de e-mail","poșta electronică","gmail","mailbox","inbox","e-mails","emails","caixa de e-mail","caixas de e-mail","correo","correos",
   "bandeja de entrada","boîte mail","boîte de réception","courriel","postfach","posta elettronica",
   "casella di posta","skrzynk","poczt","postafiók","sähköpost","e-post","inkorg","e-posta","gelen kutusu",
   "surel$","hộp thư","barua pepe","почта","почту","почты","почтов","メール","邮件","郵件","邮箱","메일","이메일","ईमेल"],
 'calendar': ["יומן","تقویم","calend","kalend","kalent","agenda$","naptár","takvim","календар","カレンダー","日历","日曆","行事曆",
   "캘린더","कैलेंडर"],
 'messages': ["הודעות","پیام‌ها","پیامک","mesajele","sms$","text messages","whatsapp","telegram","imessage","chat messages","direct messages","mensajes",
   "mensagens","messaggi","berichten","wiadomości","mesajlar","pesan$","tin nhắn","tin nhan","ujumbe","сообщени",
   "メッセージ","短信","메시지","문자 메시지","संदेश"],
 'files': ["working directory","work directory","arbeitsverzeichnis","directorio de trabajo","diretório de trabalho","répertoire de travail","directory di lavoro","cartella di lavoro","werkmap","katalog roboczy","pracovní adresář","munkakönyvtár","työhakemisto","arbetskatalog","çalışma dizini","direktori kerja","thư mục làm việc","рабочий каталог","рабочей директор","рабочую директор","作業ディレクトリ","工作目录","工作目錄","작업 디렉터리","कार्य निर्देशिका","תיקיית העבודה",
   "tam disk","全部文件","所有文件","ổ đĩa","direktori home","ไฟล์ทั้งหมด","всіх файлів","всех файлов","home dir","disco$","saját mappá","כל הקבצים","همه فایل‌ها","تمام فایل‌ها","toate fișierele","sistemul de fișiere","every file","whole disk","home directories","dotfiles","workspace dump","filesystem","all files","entire disk","home directory","sistema de archivos",
   "todos los archivos","sistema de arquivos","todos os arquivos","système de fichiers","tous les fichiers",
   "dateisystem","alle dateien","tutti i file","bestandssysteem","alle bestanden","system plików","systemu plików","systemem plików","wszystkich plików",
   "souborový systém","fájlrendszer","összes fájl","tiedostojärjestelm","filsystem","dosya sistemi","tüm dosyalar",
   "sistem berkas","semua file","hệ thống tệp","mfumo wa faili","файловая систем","файловой систем",
   "файловую систем","ファイルシステム","文件系统","檔案系統","파일 시스템","파일시스템","फ़ाइल सिस्टम"],
 'clipboard': ["schránk","clipboard","portapapeles","área de transferência","presse-papiers","zwischenablage","appunti",
   "klembord","schowek","vágólap","leikepöy","urklipp","papan klip","bảng tạm","буфер обмена","クリップボード",
   "剪贴板","剪貼簿","클립보드","क्लिपबोर्ड"],
 'microphone': ["мікрофон","kipaza sauti","camera$","cameras","камер","cámara","câmera","caméra","kamera","מיקרופון","میکروفون","microphone","micrófono","microfone","microfono","microfoon","mikrofon","микрофон","webcam",
   "マイク","麦克风","麥克風","마이크","माइक्रोफ़ोन"],
 'commands': ["تنفيذ أوامر","تنفيذ الأوامر","أوامر root","أوامر النظام","任意命令","shell exec","shell execution","shell access","เชลล์","shell command","run commands","execute commands","arbitrary commands","comando","comandi","commande",
   "befehle","opdrachten uit","parancs","komento","komut","perintah","chạy lệnh","команд",
   "コマンド","执行命令","命令行","명령","कमांड"],
 'admin': ["גישת root","acesso root","accès root","acceso root","صلاحيات root","صلاحيات المدير","صلاحيات الجذر","مدير النظام","owner role","peran owner","ผู้ดูแลระบบ","הרשאות מנהל","מנהל מערכת","دسترسی مدیر","مدیر سیستم","administrator","admin rights","admin privileges","root access","superuser","sudo$","cluster-admin",
   "domain admin","administrador","administrateur","admin-rechte","root-rechte","amministratore","beheerder",
   "správce","rendszergazda","järjestelmänvalvoja","pääkäyttäjä","administratör","yönetici","quản trị",
   "msimamizi","администратор","管理者","管理员","管理員","관리자","एडमिन","व्यवस्थापक"],
 'secrets': ["秘密鍵","秘密キー","tan-liste","tan liste",".aws/credentials","api-ключі","api-ключи","קבצי ה-ssh","etc/shadow","~/.ssh","مفاتيح ssh","trousseau","session token","refresh token","banking password","p12$","pfx$",".pem","keychains","סיסמ","رمز عبور","گذرواژه","parolele","secretele","токени доступу","токены доступа","access tokens$","refresh tokens$","private key","ssh key","ssh_private","git-credentials","aws_secret","secret access key",
   "password hash","vault export","session cookie","keychain","password manager","saved passwords","wi-fi passwords","kubeconfig","root key","otp seed",
   "credenciales","contraseña","credenciais","senhas","identifiants","zugangsdaten","anmeldedaten","schlüsselbund",
   "passwörter","credenziali","inloggegevens","wachtwoord","hasł","hesla$","heslo$","jelszó","jelszav","salasan",
   "lösenord","şifre","kata sandi","mật khẩu","nenosiri","парол","パスワード","認証情報","密码","密碼","凭据",
   "비밀번호","루트 키","시드","पासवर्ड"],
 'health': ["patientjournal","journalen","patient records","health record","medical record","zdravotní dokumentac","historia clínica","prontuário","dossier médical",
   "krankenakte","patientenakte","cartella clinica","medisch dossier","dokumentacja medyczn","egészségügyi",
   "медицинск","病历","病歷","診療記録","의료 기록","건강 기록"],
 'host': ["ssh server","servidor ssh","serveur ssh","hostname","host name","host inventory","logged-in users","logged in users","running processes","process list",
   "open ports","listening ports","known hosts","ssh config","environment variables","env vars","process environment",
   "installed software","mounted volumes","nom d'hôte","variables de entorno","variables d'environnement",
   "umgebungsvariablen","variabili d'ambiente","omgevingsvariabelen","zmienne środowiskow","ortam değişken",
   "biến môi trường","переменные окружения","переменных окружения","змінні оточення","環境変数","环境变量",
   "환경 변수","호스트 이름","ホスト名","主机名","実行中のプロセス","运行中的进程","실행 중인 프로세스"],
 'session': ["conversación","conversazione","conversa$","conversação","gespräch","gesprek","konversation","konverzac","beszélgetés","keskustelu","sohbet","percakapan","cuộc trò chuyện","cuộc hội thoại","mazungumzo","разговор","συνομιλ","השיחה","المحادثة","बातचीत","对话","對話","대화","บทสนทนา",
   "системний промпт","системный промпт","长期记忆","長期記憶","prompt sistem","session transcript","transkrip sesi","sesi agen","agent transcript","sejarah perbualan","arahan sistem","sistem istem","önceki mesaj","rozmow","instrukcj systemow","system instructions","instrucciones del sistema","instructions système","会話","システムプロンプト","系统提示","시스템 프롬프트","usapan$","היסטוריית הצ","צ'אט","تاریخچه گفتگو","گفتگو","conversația","istoricul conversației","розмов","листуванн","conversation history","chat history","current conversation","entire conversation","whole conversation",
   "full conversation","prior messages","previous messages","earlier user messages","system prompt","agent memory",
   "everything you remember","historial de la conversación","historial del chat","historique de la conversation",
   "gesprächsverlauf","chatverlauf","cronologia della chat","gespreksgeschiedenis","historia czatu","historia rozmowy",
   "sohbet geçmişi","lịch sử trò chuyện","riwayat obrolan","riwayat percakapan","kasaysayan ng chat","historia ya mazungumzo",
   "переписк","история чата","историю чата","історію чату","історія чату","会话历史","聊天记录","对话历史","会話履歴",
   "チャット履歴","대화 기록","대화 내역","채팅 기록","चैट इतिहास","बातचीत का इतिहास"],
 'drive': ["облачным хранилищ","облачных хранилищ","облачное хранилищ","облачного хранилищ","облачном хранилищ","хмарних сховищ","хмарного сховищ","хмарне сховищ","хмарному сховищ","seluruh organisasi","entire organization","whole organisation","whole organization","cloud drive","google drive","onedrive","dropbox","icloud","sharepoint","drive access","drive full","drive read","drive.readwrite","user's drive","users' drive","google workspace","workspace domain","active directory","admin.directory","unità cloud","unidad de google","nube de","云盘","网盘","クラウドドライブ","클라우드 드라이브"],
 'screen': ["screen capture","screenshots","capture the screen","capturing the full screen","capturing the screen","records the screen","screen recording","open windows","keylogger","keystrokes","key presses","tasti premuti","snímat obrazovk","snímky obrazovky","captura de pantalla","capture d'écran","bildschirmaufnahme","ekran görüntüsü","截屏","屏幕截图","录屏","スクリーンショット","画面キャプチャ","화면 캡처","스크린샷","снимки экрана","скриншот","знімки екрана","ภาพหน้าจอ"],
 'bank': ["bank login","bank logins","online banking login","banking credentials","bank card","bank cards","bankkarte","carte bancaire","tarjeta bancaria","cartão bancário","τραπεζικής κάρτας","τραπεζική κάρτα","банковской карты","банковская карта","银行卡","銀行カード","은행 카드","payroll","nómina","bank account","bank accounts","bank app","bank session","banking","bank statement","bank_statement","money transfer","payouts","open banking","banka hesap","para transferi","cuenta bancaria","conta bancária","conta bancaria","permisos de transferencia","conto bancario","compte bancaire","bankkonto","konto bankow","rekening bank","tài khoản ngân hàng","банковск","банківськ","โอนเงิน","बैंक","銀行口座","银行账户","은행 계좌"],
 'priv': ["docker socket","docker.sock","privileged pod","privileged container","privileged daemonset","privileged mode","--privileged","hostpid","hostnetwork","hostipc","hostpath","mounted read-write","root privileges","root privilege","as root","run_as_root"],
 'egress': ["network egress","persistent network listener","network listener","outbound network","réseau sortant","访问网络","red saliente","rete in uscita"],
 # round 20: egress asked without a bound is whole by itself
 'egress_any': ["الشبكة بدون قيود","شبكة بدون قيود","red sin restricciones","rede sem restrições","réseau sans restriction","uneingeschränkte netzwerk","uneingeschränkten netzwerk","uneingeschränkter netzwerk","сеть без ограничений","сети без ограничений","мережі без обмежень","jaringan tanpa batas","不受限制的网络","无限制的网络","無制限のネットワーク","무제한 네트워크","egress to any","unrestricted network","unrestricted outbound","unrestricted egress","unrestricted internet","unrestricted web access"],
 'identity': ["ssn$","cvv$","card number","passport number","rodne cislo","rodné číslo","social security number","pesel$","personnummer","henkilötunnus",
   "tc kimlik","codice fiscale","burgerservicenummer","numéro de sécurité sociale","sozialversicherungsnummer",
   "número de seguridad social","nik ktp","căn cước","снилс","マイナンバー","身份证号","주민등록번호","आधार कार्ड","आधार नंबर","आधार संख्या",
   # round 27 (cap27): identity documents and their photos, in the languages
   "identity document","identity documents","identity card","id card","passport scan","passport photo",
   "driver's licence","driver's license","driving licence","personalausweis","ausweisdokument",
   "documento de identidad","documento d'identità","carta d'identità","carte d'identité","pièce d'identité",
   "documento de identificação","carteira de identidade","dowód osobisty","občanský průkaz","kimlik kartı",
   "kartu identitas","căn cước công dân","паспортные данные","удостоверение личности","δελτίο ταυτότητας",
   "ταυτότητας","身分証","身份证","신분증","運転免許証","驾驶证"],
}
NEG = ["not","ללא","אין","بدون","هرگز","fără","niciodată","never","no need","no access","no necesita","no requiere","no usa","no lee","no accede","no se","ni","without","don't","does not","nunca","sin","não","sem","pas","jamais","aucun","aucune","sans",
 "nicht","nie","kein","keine","keinen","ohne","non","mai","senza","niet","nooit","geen","zonder","bez","nem","soha",
 "nélkül","ei","eikä","ilman","inte","ikke","ingen","aldrig","aldri","utan","uden","uten","değil","asla","olmadan",
 "tidak","tanpa","bukan","jangan","không","hakuna","bila","не","без","никогда","ない","せず","不要","不会","不需要","不应","不能","不得","无关",
 "无需","無需","没有","않","없","नहीं","बिना"]

def esc(s):
    out='';prev_hex=False
    for ch in s:
        b=ch.encode()
        if len(b)>1:
            out+=''.join('\\x%02x'%x for x in b); prev_hex=True
        else:
            if prev_hex and ch in '0123456789abcdefABCDEF': out+='" "'
            out+=('\\'+ch) if ch in '"\\' else ch; prev_hex=False
    return '"'+out+'"'
print('/* Generated by scripts/gen_capability_reach15.py: edit the lists there. */')
ks=list(KINDS)
labels={'contacts':'contacts','location':'the location','browser':'browser data','mail':'the mailbox','calendar':'the calendar','messages':'messages','files':'the whole file system','clipboard':'the clipboard','microphone':'the microphone or camera','commands':'running commands','admin':'administrator rights','secrets':'stored passwords or keys','health':'health records','identity':'identity numbers','host':'facts of the host','session':'the conversation','drive':'cloud drives or the organisation directory','screen':'the screen or keystrokes','bank':'bank accounts','priv':'privileged host access','egress':'unrestricted network egress','egress_any':'unrestricted network egress'}
print('enum {', ', '.join('RK_'+k.upper() for k in ks)+', RK_COUNT };')
print('static const char *const k_reach_label[RK_COUNT] = {', ', '.join('"%s"'%labels[k] for k in ks), '};')
terms=[]
for k in ks:
    for t in KINDS[k]:
        whole = t.endswith('$'); t=t.rstrip('$')
        assert t==t.lower(), t
        terms.append((t.encode(), t, k, whole))
terms.sort(key=lambda x: x[0][0])  # grouped by first byte (stable)
print('/* grouped by first byte */')
print('static const reach_term k_reach_terms[] = {')
for bt,t,k,whole in terms:
    print('    {%s, RK_%s, %s},'%(esc(t), k.upper(), 'true' if whole else 'false'))
print('};')
# pairs of the first two bytes (a ' ' or '-' second byte stands for any of " _-")
bits=[0]*(65536//32)
def setb(p): bits[p>>5]|=1<<(p&31)
for bt,t,k,whole in terms:
    b1=bt[1]
    for c in ([ord(' '),ord('_'),ord('-')] if b1 in (ord(' '),ord('-')) else [b1] + ([b1-32] if 97<=b1<=122 else [])):
        setb(bt[0]<<8|c)
print('/* bit (b0 << 8 | b1) set when some term starts with bytes b0 b1 (b1 as written or upper case) */')
print('static const uint32_t k_reach_pair[2048] = {')
for i in range(0,2048,8): print('    '+', '.join('0x%08xu'%v for v in bits[i:i+8])+',')
print('};')
# The terms a text pair can start, so a word start tries only those: the
# pair's rank among the set bits of k_reach_pair (k_reach_rank[w] counts
# the bits of the words before w) picks a run of k_reach_by_pair, which
# lists term indices in k_reach_terms order (the first term of a kind
# that matches stays the one kept).
def text_pairs(bt):
    b1=bt[1]
    cs=[ord(' '),ord('_'),ord('-')] if b1 in (ord(' '),ord('-')) else [b1] + ([b1-32] if 97<=b1<=122 else [])
    return [bt[0]<<8|c for c in cs]
rank=[0]*2048
for w in range(1,2048): rank[w]=rank[w-1]+bin(bits[w-1]).count('1')
pairs=[p for p in range(65536) if bits[p>>5]>>(p&31)&1]
lists=[[q for q,x in enumerate(terms) if p in text_pairs(x[0])] for p in pairs]
print('/* k_reach_rank[w]: set bits of k_reach_pair before word w */')
print('static const uint16_t k_reach_rank[2048] = {')
for i in range(0,2048,16): print('    '+', '.join(str(v) for v in rank[i:i+16])+',')
print('};')
print('/* the terms of the n-th set pair: k_reach_by_pair[k_reach_pair_at[n] .. k_reach_pair_at[n + 1]) */')
at2=[0]
for l in lists: at2.append(at2[-1]+len(l))
print('static const uint16_t k_reach_pair_at[%d] = {'%len(at2))
for i in range(0,len(at2),16): print('    '+', '.join(str(v) for v in at2[i:i+16])+',')
print('};')
flat=[q for l in lists for q in l]
print('static const uint16_t k_reach_by_pair[%d] = {'%len(flat))
for i in range(0,len(flat),16): print('    '+', '.join(str(v) for v in flat[i:i+16])+',')
print('};')
print('static const char *const k_reach_neg[] = {')
print('   ', ', '.join(esc(t) for t in NEG))
print('};')
