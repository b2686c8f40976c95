# commands

## Общее для нескольких команд

cmd-no-game = нет партии { $id }
cmd-no-game-see-games = нет партии { $id } (см. `ccmail games`)
cmd-no-game-see-all = нет партии { $id } (см. `ccmail games --all`)
cmd-game-vanished = партия исчезла из базы
cmd-no-result = результата нет
cmd-game-finished-with = партия { $id } окончена ({ $result })
cmd-flag-not-email = { $flag } { $email }: это не адрес электронной почты
cmd-color-white-or-black = --color должен быть white или black, а не { $value }

## Вопрос перед отправкой, чтение входных данных (commands/mod.rs)

# После вопроса: принимаются ответы y, yes, да и д.
cmd-confirm-hint = [д/Н]
cmd-not-sent = Не отправлено; ничего не изменилось.
cmd-writing-stdout = запись в стандартный вывод
# $what: cmd-what-message-file или cmd-what-file.
cmd-read-stdin-failed = не удалось прочитать { $what } со стандартного ввода
cmd-open-failed = не удалось открыть { $what } { $path }
cmd-what-message-file = файл письма
cmd-what-file = файл
cmd-runtime-failed = не удалось запустить асинхронную среду выполнения

## Письмо, показанное перед отправкой

cmd-preview-to = Кому: { $to }
cmd-preview-cc = Копия: { $cc }
cmd-preview-subject = Тема: { $subject }

## Отправка исходящих; $what — тема письма или одно из *-notices ниже

cmd-flush-no-smtp = в очереди: { $what } (в конфигурации нет [smtp]: письмо остаётся в исходящих)
cmd-flush-sent = отправлено: { $what }
cmd-flush-queued = в очереди: { $what } (не отправлено: { $reason }; отправит демон: см. `ccmail outbox`)
cmd-flush-time-limit = истёк срок в { $seconds } с
cmd-notices = уведомления

## ccmail move, ccmail resign

cmd-move-ask = Отправить это письмо?
# $side: white или black, сторона соперника.
cmd-move-claim-given-up = Отправив это письмо, вы теряете право заявить о выигрыше по времени: { $side ->
    [white] белые
   *[black] чёрные
} превысили лимит времени ходом { $at }, а заявление подаётся не позднее вашего ответа (51.6.1); заявить о просрочке можно командой `ccmail claim { $id }`.
cmd-move-changed = партия { $id } изменилась, пока письмо было на экране (пришла почта?): в очередь ничего не поставлено; посмотрите партию ещё раз
cmd-move-game-over = Партия окончена: { $result }.

## ccmail address change

cmd-address-not-email = { $email }: это не адрес электронной почты
cmd-address-same = { $email } — уже ваш адрес
cmd-address-done = уведомления соперникам в { $count } { $count ->
    [one] партии
   *[many] партиях
}; теперь укажите [player] email = "{ $email }" в { $path }
cmd-address-notices = уведомления о новом адресе

## ccmail adjudicate

cmd-adjudicate-claim-invalid = --claim должен быть 1-0, 0-1 или 1/2-1/2, а не { $claim }
cmd-adjudicate-friendly = партия { $id } товарищеская: в ней нет арбитра, который присудил бы результат; договоритесь о результате с партнёром и запишите его командой `ccmail game decision { $id } --result RESULT`
cmd-adjudicate-your-move = в партии { $id } ваш ход: укажите ход для арбитра через --move (51.9.4)
cmd-adjudicate-not-your-move = в партии { $id } не ваш ход: сообщать арбитру ход не нужно
cmd-adjudicate-ask = Отправить это арбитру?

## ccmail apply

cmd-chore-queued = { $done } (в очереди)
cmd-no-such-local-time = такого местного времени нет

## ccmail break

cmd-break-in-advance = о перерыве сообщают заранее (51.7.2): --from { $from } раньше сегодняшнего дня ({ $today })
cmd-break-cannot = перерыв взять нельзя: { $why }
cmd-break-recorded = перерыв { $from } – { $to } ({ $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}) записан; уведомления соперникам в { $count } { $count ->
    [one] партии
   *[many] партиях
}
cmd-break-notices = уведомления о перерыве
cmd-break-none-to-end = на { $on } нет ни текущего, ни предстоящего перерыва, который можно закончить
cmd-break-reversed = даты перерыва перепутаны местами
cmd-break-ended = перерыв { $from } – { $to } заканчивается: игра снова с { $on }; { $count ->
    [one] в запас перерывов вернулся { $count } день
    [few] в запас перерывов вернулись { $count } дня
   *[many] в запас перерывов вернулось { $count } дней
}
cmd-break-none = Перерывов нет.
cmd-break-span = { $from } – { $to }
cmd-break-span-ended = { $from } – { $to } (окончен досрочно: игра снова с { $back })
cmd-break-used = { $year }: использовано { $used } из 30 дней
# $profile: название правил (article51, postal104).
cmd-break-left = { $profile }: { $count ->
    [one] остался { $count } день
    [few] осталось { $count } дня
   *[many] осталось { $count } дней
}

## ccmail claim

cmd-claim-not-overstepped = в партии { $id } соперник не превысил контроль времени: { $total } из { $limit } { $limit ->
    [one] дня
   *[many] дней
} к ходу { $at }
cmd-claim-ask = Отправить это заявление и приостановить партию?
cmd-claim-suspended = партия { $id } приостановлена до решения арбитра
cmd-claim-friendly = партия { $id } товарищеская: арбитра, которому подают заявление, в ней нет; договоритесь о результате с партнёром и запишите его командой `ccmail game decision { $id } --result RESULT`
# $status: suspended или finished.
cmd-claim-not-active = партия { $id } { $status ->
    [suspended] приостановлена
   *[finished] окончена
}: заявление в ней подать нельзя

## ccmail manpage (roff: $init — команда жирным шрифтом)

cmd-man-config = Конфигурация ({ $init } пишет её образец с комментариями).
cmd-man-database = Партии и все письма (SQLite).
cmd-man-see-also = Руководство пользователя, README.md и docs/cli.md.

## ccmail folders

cmd-folders-no-imap = в { $path } нет раздела [imap]: неизвестно, к какому серверу обращаться
cmd-folders-not-messages = (не папка писем)
cmd-folders-missing = { $key } = { $name } ({ $path }) среди них нет: укажите одно из имён выше

## ccmail game new, decision, set

cmd-new-notation = --notation должен быть numeric, san или san-ru
cmd-new-no-free-id = нет свободного номера партии
cmd-game-finished-already = партия { $id } уже окончена ({ $result })
cmd-decision-result-invalid = --result должен быть 1-0, 0-1 или 1/2-1/2, а не { $result }
cmd-decision-friendly = партия { $id } окончена: { $result } (товарищеская партия: арбитра нет, PGN не отправляется)
cmd-decision-done = партия { $id } окончена решением арбитра: { $result }; протест можно подать в течение 14 дней (до { $by })
cmd-decision-pgn = PGN партии
cmd-decision-not-suspended = партия { $id } не приостановлена
cmd-decision-resumed = партия { $id } продолжается
cmd-decision-give = укажите --result RESULT или --resume
cmd-set-pgn-on = партия { $id }: теперь к каждому письму с ходом прикладывается запись партии в PGN
cmd-set-pgn-off = партия { $id }: теперь письма с ходами идут без PGN
cmd-set-give = в партии { $id } нечего менять: укажите хотя бы один из флагов --opponent, --arbiter, --lang, --notation, --control, --rules, --event, --start, --last-sent, --attach-pgn
cmd-set-nothing = партия { $id }: менять нечего
cmd-set-none = (нет)
cmd-set-changed = партия { $id }: { $field } { $old } → { $new }
cmd-set-clock = часы были: { $before }; теперь: { $after }
cmd-set-clock-same = часы не меняются: { $now }
cmd-set-clock-both = белые { $white }, чёрные { $black }
cmd-set-clock-side = { $total } дн. из { $limit } к ходу { $at }, осталось { $left }
cmd-set-last-sent-not-ours = --last-sent — дата отправки нашего последнего хода, а в партии { $id } последний ход не наш
cmd-set-last-sent-early = --last-sent раньше начала партии ({ $start })
cmd-delete-confirm = Удалить партию { $id } ({ $event }: { $white } – { $black }) с её ходами ({ $moves }) и письмами ({ $messages })? Ничего не отправляется.
cmd-delete-give-yes = удаление партии { $id } навсегда удаляет её ходы и письма: добавьте --yes (чтобы их сохранить, сначала экспортируйте партию)
cmd-delete-kept = партия { $id } оставлена
cmd-delete-done = партия { $id } удалена вместе с письмами ({ $messages })
cmd-archive-done = партия { $id } в архиве: её нет в `ccmail games` и в заботах демона; `ccmail games --all` её показывает
cmd-archive-already = партия { $id } уже в архиве

## ccmail game import

cmd-import-no-game = { $name }: в этом PGN нет ни одной партии
cmd-import-label = { $name }, партия { $n }
cmd-import-failed = { $label }: импортировать не удалось
cmd-import-note = партия { $id }: { $note }
cmd-import-already = уже есть в базе: ничего не изменилось (её настройки меняет `ccmail game set { $id } …`)
cmd-import-illegal = ход { $n } невозможен по правилам
cmd-import-colour = ваш цвет: ни WhiteNA/BlackNA, ни ваше имя, ни отправитель писем не говорят, за какую сторону вы играете; укажите --color white|black
cmd-import-opponent = адрес соперника: в файле его нет; укажите --opponent EMAIL
cmd-import-event = турнир: в файле он не назван; укажите --event NAME
cmd-import-start = дата начала: в файле её нет; укажите --start ДД.ММ.ГГГГ
cmd-import-white = имя белых: в файле его нет
cmd-import-black = имя чёрных: в файле его нет
cmd-import-friendly = ни в файле, ни во флагах нет арбитра: партия товарищеская, копии арбитру не идут; если она турнирная: ccmail game set { $id } --arbiter АДРЕС
cmd-import-last-sent-unknown = в файле нет даты отправки вашего последнего хода ({ $move }): пока её нет, ни повтор (51.5.1), ни срок молчания (51.5.3) в этой партии не считаются: ccmail game set { $id } --last-sent ГГГГ-ММ-ДД
cmd-import-last-sent-ask = Когда вы отправили свой последний ход ({ $move })? ГГГГ-ММ-ДД (пусто: неизвестно):

## ccmail init

cmd-init-wrote = начальная конфигурация записана в { $path } (сначала заполните [player])
cmd-init-exists = конфигурация { $path } уже есть; оставлена как есть
cmd-init-db = база данных { $path } готова
cmd-init-authserv-id = ваш почтовый сервер пишет свой вердикт об отправителях от имени { $found }: добавьте [security] authserv_id = { $found } в { $file } (до тех пор письмо партнёра действует только законным ходом, а всё остальное в нём задерживается)
cmd-init-authserv-id-none = в последних письмах нет Authentication-Results с именем сервера, так что предложить [security] authserv_id пока нечего; `ccmail check` посмотрит снова
cmd-init-authserv-id-unread = не удалось заглянуть в почтовый ящик за [security] authserv_id: { $error }; `ccmail check` посмотрит снова

## ccmail plan

cmd-plan-none = Партия { $id }: плана нет.
cmd-plan-set = Партия { $id }: ваш план — { $line } (никому не отправляется; каждый ответ уходит, когда приходит ход перед ним, а любой другой ход отменяет план).

## ccmail run (строки журнала)

cmd-run-stopping = остановка после текущей работы (второй сигнал — немедленный выход)
cmd-run-second-signal = второй сигнал: немедленный выход
cmd-run-starting = демон ccmail запускается
cmd-run-dumpable = не удалось запретить дампы памяти демона (prctl PR_SET_DUMPABLE): { $error }

## ccmail service

cmd-service-no-home = HOME не задан
cmd-service-not-utf8 = { $path } не в UTF-8: systemd не сможет его запустить
cmd-service-bad-path = { $path }: путь с кавычками, обратными косыми чертами или % нельзя вписать в юнит как есть
cmd-service-no-exe = не удалось определить, где находится этот ccmail
cmd-service-cant-create = не удалось создать { $path }
cmd-service-cant-write = не удалось записать { $path }
cmd-service-wrote = записан { $path }
cmd-service-started = включён и запущен: состояние показывает `ccmail service status`, журнал — `journalctl --user -u ccmail`; `loginctl enable-linger $USER` оставляет его работать, когда вы вышли из системы
cmd-service-not-started = не запущен: { $why }.
cmd-service-not-started-help = Юнит записан; где есть пользовательский менеджер systemd, его запускает `systemctl --user enable --now ccmail`. Без systemd запускайте `ccmail run` при входе в систему (автозапуск рабочего стола, ~/.profile или @reboot в cron).
cmd-service-removed = удалён { $path }
cmd-service-nothing-to-remove = юнита { $path } нет: удалять нечего
cmd-service-cant-remove = не удалось удалить { $path }
cmd-service-not-installed = не установлен: юнита { $path } нет (его записывает `ccmail service install`)
cmd-service-unit = юнит: { $path }
cmd-service-state = состояние: { $state }
cmd-service-state-unknown = состояние неизвестно: { $why }
cmd-service-state-no-systemctl = состояние неизвестно: не удалось запустить systemctl ({ $error })
cmd-service-no-systemctl = не удалось запустить systemctl ({ $error }): есть ли в этой системе systemd?
cmd-service-systemctl-failed = `systemctl --user { $args }` завершилась с ошибкой: { $why }
cmd-service-no-reason = причина не указана

## ccmail oauth2 authorize и токены OAuth2

cmd-oauth2-imap-or-smtp = [imap.oauth2] или [smtp.oauth2]
# $which: [imap.oauth2], [smtp.oauth2] или cmd-oauth2-imap-or-smtp.
cmd-oauth2-no-table = в { $path } нет таблицы { $which } (с token_url, auth_url и client_id), поэтому авторизовать нечего
cmd-oauth2-note-refresh-cmd = примечание: задан { $section }.refresh_token_cmd, поэтому ccmail берёт токен обновления из этой команды, а не из файла токенов, записываемого сейчас
cmd-oauth2-open-url = Откройте этот адрес в браузере и разрешите доступ ({ $section }; ожидание до { $minutes } { $minutes ->
    [one] минуты
   *[many] минут
}):
cmd-oauth2-authorized = доступ разрешён: токен обновления в { $path } (права 0600)
cmd-oauth2-authorized-valid = доступ разрешён: токен обновления в { $path } (права 0600); первый токен доступа действует { $minutes } мин.
# Откуда `ccmail check` получил токен.
cmd-oauth2-from-token-cmd = из { $section }.oauth2_token_cmd
cmd-oauth2-from-refresh = от { $url } (клиент { $client })
cmd-oauth2-from-refresh-until = от { $url } (клиент { $client }), действителен до { $date } { $time } UTC
cmd-oauth2-no-refresh-token = у [{ $section }] ещё нет токена обновления (нет файла токенов { $path }): выполните один раз `ccmail oauth2 authorize --{ $flag }`
# Идёт после "; " в конце отказа.
cmd-oauth2-consent-again = чтобы дать согласие заново, выполните `ccmail oauth2 authorize --{ $flag }`
# $what в ошибках сервера токенов.
cmd-oauth2-refreshing = обновление токена доступа
cmd-oauth2-exchanging = обмен кода авторизации на токены
cmd-oauth2-new-refresh-token = сервер токенов прислал новый токен обновления, но при { $section }.refresh_token_cmd ccmail не может его сохранить; старый используется, пока не истечёт
cmd-oauth2-refreshed = токен доступа OAuth2 обновлён
cmd-oauth2-token-failed = не удалось получить токен OAuth2: { $error }
cmd-oauth2-no-auth-url = в { $path } не задан { $section }.auth_url: для согласия нужен адрес авторизации провайдера
cmd-oauth2-cannot-listen = не удалось открыть порт на 127.0.0.1 для перенаправления: { $error }
cmd-oauth2-no-refresh-granted = провайдер разрешил доступ, но не прислал токен обновления, и позже ccmail не смог бы войти снова: запросите офлайн-доступ в { $section }.scope (Microsoft: offline_access)
cmd-oauth2-no-answer = браузер не ответил в течение { $minutes } { $minutes ->
    [one] минуты
   *[many] минут
}: выполните команду ещё раз
cmd-oauth2-wrong-state = пропущен запрос на адрес перенаправления не с тем state, что был отправлен (это не ответ на это согласие); ждём браузер дальше
cmd-oauth2-page-wrong-state = это не ответ на запрос ccmail: пропущено
cmd-oauth2-consent-refused = провайдер отказал в согласии: { $error } { $why }
# Страница в браузере после перенаправления.
cmd-oauth2-page-ok = ccmail получил авторизацию. Эту страницу можно закрыть.
cmd-oauth2-page-failed = ccmail не получил авторизацию: см. терминал.
cmd-oauth2-page-not-here = здесь ничего нет
cmd-oauth2-no-randomness = нет источника случайных чисел: { $error }
# Сервер токенов: "{ $what }: { $url } " и после этого один из отказов.
cmd-oauth2-unreachable = { $what }: сервер токенов { $url } недоступен: { $error }
cmd-oauth2-unreadable-answer = { $what }: не удалось прочитать ответ { $url }: { $error }
cmd-oauth2-no-access-token = ответил без токена доступа
cmd-oauth2-http-status = ответил HTTP { $status }
cmd-oauth2-refused-grant = отклонил разрешение (оно отозвано или истекло)
cmd-oauth2-refused-client = отклонил клиента (client_id или его секрет)
cmd-oauth2-refused-scope = отклонил запрошенные права (scope)
cmd-oauth2-busy = занят
cmd-oauth2-refused = отказал
# Файл токенов
cmd-oauth2-file-unreadable = не удалось прочитать файл токенов { $path }: { $error }
cmd-oauth2-file-foreign = файл токенов { $path } не от ccmail: { $error }
cmd-oauth2-file-unwritable = не удалось записать файл токенов { $path }: { $error }
