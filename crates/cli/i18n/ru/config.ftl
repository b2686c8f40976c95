# config
# The config file: what its values must be, its errors and the starter file `ccmail init` writes.

## What a value must be (inside config-must-be*).
config-what-non-empty = непустая строка
config-what-host = имя сервера, например "mail.example.org"
config-what-email = адрес электронной почты, например "name@example.org"
config-what-zone = название часового пояса IANA, например "Europe/Moscow"
config-what-security = tls, starttls или plain
config-what-number = целое число от { $min } до { $max }
config-what-date = дата, например 2026-01-31
config-what-path = путь к файлу (непустая строка)
config-what-env-name = имя переменной окружения
config-what-bool = true или false
config-what-command = список строк, первая из них — программа, например ["notify-send", "ccmail", "a move arrived"]
config-what-url = URL, начинающийся с http:// или https://
config-what-section = раздел [{ $section }]
config-what-language = ru или en
config-what-notation = numeric, san или san-ru
config-what-control = ХОДЫ/ДНИ, оба числа не меньше 1, например "10/60"
config-what-rules = article51 или postal104

## Reading the file.
config-not-found = нет файла настроек { $file }: выполните `ccmail init`, чтобы создать начальный (или укажите другой файл через --config или CCMAIL_CONFIG)
config-not-utf8 = файл настроек { $file } не является текстом в UTF-8
config-unreadable = не удаётся прочитать файл настроек { $file }: { $error }
config-syntax-at = синтаксическая ошибка TOML в { $file }, строка { $line }, столбец { $column }: { $message }
config-syntax = синтаксическая ошибка TOML в { $file }: { $message }
config-unknown-section = неизвестный раздел [{ $section }] в { $file }
config-unknown-section-near = неизвестный раздел [{ $section }] в { $file } (может быть, вы имели в виду [{ $near }]?)
config-unknown-key = неизвестный ключ "{ $key }" в { $file }
config-unknown-key-near = неизвестный ключ "{ $key }" в { $file } (может быть, вы имели в виду "{ $near }"?)

## A wrong or missing value.
config-must-be = { $key }: ожидается { $what } (в файле { $file })
config-must-be-not = { $key }: ожидается { $what }, а не { $value } (в файле { $file })
config-must-be-not-list = { $key }: ожидается { $what }, а не список (в файле { $file })
config-must-be-not-table = { $key }: ожидается { $what }, а не таблица (в файле { $file })
config-missing-key = в { $file } нет ключа "{ $key }"
config-no-player = в { $file } нет раздела [player]: в нём нужны name, surname и email
config-plain-not-local = { $section }.security = "plain" передаёт пароль и почту без шифрования, поэтому допускается только для сервера на этом компьютере (localhost, 127.0.0.1, ::1), а не { $host }: укажите tls или starttls (с ca_file для сервера, чей сертификат подписан частным центром сертификации) (в файле { $file })
config-no-home = { $key } начинается с "~", но переменная HOME не задана (в файле { $file })
config-other-user = { $key } может начинаться с "~/", но не с "~user/": напишите полный путь вместо { $raw } (в файле { $file })
config-no-default-db = не задана ни XDG_DATA_HOME, ни HOME, поэтому файла базы данных по умолчанию нет: укажите store.path в { $file }
config-no-default-token-file = не задана ни XDG_DATA_HOME, ни HOME, поэтому файла токенов по умолчанию нет: укажите { $section }.token_file в { $file }
config-unknown-zone = неизвестный часовой пояс { $zone }

## Passwords and OAuth2.
config-two-passwords = в { $file } заданы и { $first }, и { $second }: оставьте только один из ключей password_cmd, password_env и password
config-password-not-private = { $key } задан в { $file }, но этот файл доступен не только вам (права { $mode }): выполните chmod 600 { $file } или используйте вместо него password_cmd или password_env
config-permissions-unreadable = не удаётся прочитать права доступа к { $file }: { $error }
config-imap-no-password = в [imap] в { $file } не указан пароль: нужен один из ключей password_cmd, password_env или password (или OAuth2: oauth2_token_cmd или [imap.oauth2])
config-smtp-oauth2-no-username = [smtp] в { $file } входит через OAuth2, но не указан username: добавьте smtp.username
config-smtp-no-password = в [smtp] в { $file } есть username, но нет пароля: добавьте один из ключей password_cmd, password_env или password
config-smtp-no-username = в [smtp] в { $file } есть пароль, но нет username: добавьте smtp.username
config-password-and-oauth2 = в [{ $section }] в { $file } заданы и пароль, и OAuth2: оставьте что-то одно
config-token-cmd-and-table = в { $file } заданы и { $section }.oauth2_token_cmd, и [{ $section }.oauth2]: оставьте что-то одно
config-cmd-not-run = не удалось запустить команду { $key }: { $error } (в файле { $file })
config-cmd-exit-status = команда { $key } завершилась с кодом { $code } (в файле { $file })
config-cmd-signal = команда { $key } прервана сигналом { $signal } (в файле { $file })
config-cmd-failed = команда { $key } завершилась с ошибкой ({ $status }) (в файле { $file })
config-cmd-not-utf8 = команда { $key } вывела что-то, что не является текстом в UTF-8 (в файле { $file })
config-cmd-printed-nothing = команда { $key } ничего не вывела (в файле { $file })
config-env-unset = { $key } указывает переменную { $name }, но она не задана (в файле { $file })
config-env-empty = { $key } указывает переменную { $name }, но она пуста (в файле { $file })
config-env-not-utf8 = { $key } указывает переменную { $name }, но её значение не в UTF-8 (в файле { $file })
config-smtp-no-login = в [smtp] нет username, поэтому нет и пароля для входа
config-oauth2-not-password = [{ $section }] входит через OAuth2, пароля у него нет
config-literal-secret = { $key } выводит секрет, записанный прямо в { $file }, а этот файл могут читать другие (права { $mode }): выполните chmod 600 { $file } или храните секрет в менеджере паролей (например, password_cmd = "pass show mail")

## Writing the starter file.
config-cannot-create-dir = не удаётся создать каталог { $dir }
config-cannot-create = не удаётся создать { $file }
config-cannot-write = не удаётся записать { $file }

## The starter file's explanations, each a run of comment lines in the order of the file
## (config/ccmail.example.toml); each line becomes a line "# …". The English is the
## example's own text.
config-starter-intro = Настройки ccmail (TOML). `ccmail init` создаёт этот файл, если его ещё нет.
config-starter-keys =
    Здесь есть все ключи, у каждого — пояснение в одну строку. Ключ, перед которым стоит "# ",
    закомментирован и показывает значение по умолчанию: чтобы задать его, уберите "# ".
    Незнакомый ccmail ключ — ошибка, так что ключ с опечаткой никогда не пропускается молча.
config-starter-paths =
    Пути: "~/" в начале означает ваш домашний каталог ($HOME); относительный путь считается
    от каталога, в котором лежит этот файл.
config-starter-name = Ваше имя для подписи под ходами, сначала фамилия (обязательно).
config-starter-surname = Ваша фамилия, как она пишется в заголовках партий (обязательно).
config-starter-email = Адрес, с которого вы играете (обязательно).
config-starter-timezone = Ваш часовой пояс (название IANA); по нему считаются ваши даты. По умолчанию: пояс системы.
config-starter-store-path = Файл базы данных. По умолчанию: $XDG_DATA_HOME/ccmail/ccmail.db, иначе этот:
config-starter-imap =
    Сервер входящей почты. Команды, которым он не нужен (game new, move, apply, show), работают
    без [imap] и [smtp]. Уберите "# " перед заголовком и нужными вам ключами.
config-starter-host = Имя сервера (обязательно).
config-starter-security =
    Защита соединения: tls, starttls или plain (без шифрования: только если указано здесь,
    и только для сервера на этом компьютере: localhost, 127.0.0.1, ::1). tls и starttls всегда
    проверяют сертификат; серверу, чей сертификат подписан частным центром сертификации,
    нужен ca_file.
config-starter-imap-port = Порт. По умолчанию: 993 для tls, 143 для starttls и plain.
config-starter-imap-username = Имя для входа (обязательно).
config-starter-imap-password = Пароль, ровно одним из трёх способов (обязательно). Команда, которая его выводит (sh -c):
config-starter-password-env = Или имя переменной окружения, в которой он хранится:
config-starter-password = Или сам пароль, только если этот файл закрыт от других (chmod 600 для этого файла):
config-starter-imap-oauth2-cmd =
    Или OAuth2 вместо пароля (Outlook.com, Microsoft 365, Gmail): команда, которая выводит
    токен доступа (она запускается при каждом входе), или таблица [imap.oauth2] ниже.
config-starter-mailbox = Папка, в которую приходят ходы ваших партнёров. По умолчанию:
config-starter-sent-mailbox = Папка для копий того, что отправляет ccmail. По умолчанию: нет (копии не сохраняются).
config-starter-first-sync =
    При первом запуске читается и почта, которая уже там лежит, начиная с этой даты.
    По умолчанию: самая ранняя дата начала ваших текущих партий (пока партий нет, читается
    только новая почта).
config-starter-ca-file = Сертификат центра сертификации (PEM), которому доверять наряду с обычными. По умолчанию: нет.
config-starter-oauth2 =
    Или OAuth2 с токенами, которые ccmail получает и обновляет сам: уберите "# " перед этим
    заголовком и нужными ключами, затем один раз выполните `ccmail oauth2 authorize`.
config-starter-token-url = Адрес выдачи токенов (token endpoint) у провайдера (обязательно).
config-starter-client-id = Идентификатор вашего клиента OAuth2 (обязательно).
config-starter-client-secret = Команда, которая выводит секрет клиента, если провайдер его требует. По умолчанию: нет.
config-starter-auth-url = Страница, где вы даёте согласие (для `ccmail oauth2 authorize`). По умолчанию: нет.
config-starter-scope = Области доступа (scopes), запрашиваемые при согласии, через пробел. По умолчанию: нет.
config-starter-refresh-token = Команда, которая выводит токен обновления, — вместо файла токенов. По умолчанию: нет.
config-starter-token-file =
    Где ccmail хранит токен обновления (права 0600). По умолчанию — этот файл, свой для
    каждого username:
config-starter-redirect-port =
    Порт на 127.0.0.1, на который возвращается перенаправление после согласия. По умолчанию:
    любой свободный.
config-starter-smtp = Сервер исходящей почты.
config-starter-smtp-port = Порт. По умолчанию: 465 для tls, 587 для starttls, 25 для plain.
config-starter-smtp-username = Имя для входа. По умолчанию: нет (без входа; тогда и без пароля).
config-starter-smtp-password = Пароль (вместе с username), ровно одним из трёх способов, как в [imap]. Команда (sh -c):
config-starter-smtp-oauth2-cmd =
    Или OAuth2 (SMTP входит через XOAUTH2), вместе с username: команда, которая выводит токен,
    или таблица [smtp.oauth2] ниже, как в [imap].
config-starter-hooks =
    Команды, которые демон (`ccmail run`) запускает, когда что-то происходит: каждая — список,
    программа первой; запускаются без оболочки и без стандартного ввода. Каждая получает
    CCMAIL_EVENT_KIND (move, held, deadline, sent, error) и, где это применимо, CCMAIL_GAME,
    CCMAIL_EVENT, CCMAIL_OPPONENT, CCMAIL_MOVE (SAN), CCMAIL_DEADLINE (дата),
    CCMAIL_DEADLINE_KIND, CCMAIL_MESSAGE (номер сохранённого сообщения) и CCMAIL_TEXT (одна
    строка словами). Сбой обработчика или слишком долгая его работа записываются в журнал;
    демон никогда их не ждёт. По умолчанию: нет.
    Применён ход партнёра:
config-starter-on-held = Сообщение задержано для вашего просмотра (`ccmail inbox`):
config-starter-on-deadline = До срока осталось не больше deadline_days дней: раз в день для каждого срока.
config-starter-on-sent = Ваше сообщение отправлено:
config-starter-on-error = Демон встретил ошибку и записал её в журнал с уровнем error:
config-starter-timeout = Сколько секунд обработчик может работать, прежде чем его остановят.
config-starter-authserv-id =
    Имя вашего почтового сервера, которым он подписывает заголовок Authentication-Results,
    добавляемый к каждому письму (`ccmail check` его подскажет и не пройдёт, пока он не задан):
    тогда письмо действует, только если этот сервер признал подпись DKIM отправителя (или
    DMARC) действительной или если письмо отвечает на сообщение, отправленное ccmail. Пока ключ
    не задан, за отправителя никто не ручается, даже если письмо отвечает на наше: письмо
    партнёра действует только законным ходом, а сдача, согласие на ничью, смена адреса,
    перерыв или ошибка в нём откладываются, пока вы их не примете. По умолчанию: нет.
config-starter-defaults =
    Для `ccmail game new`, когда флаг не указан.
    Язык сообщений: ru или en.
config-starter-notation = Нотация, в которой записываются ходы: numeric, san или san-ru.
config-starter-control = Контроль времени, ХОДЫ/ДНИ: столько-то дней на каждые столько-то ходов.
config-starter-rules = Правила: article51 (статья 51) или postal104 (правила игры по почте, 10.4).
config-starter-attach-pgn =
    Прикладывать запись партии в виде файла PGN к каждому сообщению с ходом (для партнёра,
    который играет в Scid, cmail или ChessBase); `ccmail game set GAME --attach-pgn on|off`
    меняет это для одной партии.
