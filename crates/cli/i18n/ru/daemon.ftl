# daemon

## Демон (`ccmail run`): его журнал и ошибки.

daemon-no-imap = в конфигурации нет раздела [imap]: почта не читается
daemon-no-smtp = в конфигурации нет раздела [smtp]: сообщения остаются в очереди на отправку
daemon-chores-failed = не удалось выполнить действия по правилам (повтор при следующем проходе): { $errors }
daemon-run-needs-imap = для `ccmail run` нужен раздел [imap] в конфигурации (сервер, имя пользователя и пароль): см. `ccmail init` и config/ccmail.example.toml
daemon-nudge-unavailable = не удаётся слушать { $path }: { $error }; очередь на отправку проверяется каждые { $secs } с
daemon-stopped = остановлен
daemon-reconnecting = { $error }; новое подключение через { $secs } с
# Сбой длиной в 15 минут: один раз в журнал как ошибка (запускается on_error).
daemon-imap-outage = почтовый сервер (IMAP) недоступен уже { $minutes } мин: { $error }; попытки продолжаются, следующая через { $secs } с
daemon-imap-recovered = почтовый сервер (IMAP) снова работает после { $minutes } мин сбоев
daemon-smtp-outage = письма не уходят уже { $minutes } мин: ждут отправки — { $count }, последняя ошибка: { $error }; попытки продолжаются (список — `ccmail outbox`)
daemon-smtp-recovered = письма снова уходят после { $minutes } мин сбоев
# Ошибка, на которой демон останавливается (перед выходом запускается on_error).
daemon-fatal = демон останавливается: { $error }
daemon-imap-connected = подключение к IMAP установлено, пользователь { $user }
daemon-copies-failed = копии отправленных писем: { $error }; повторная попытка позже
daemon-reader-failed = сбой при разборе письма; оно оставлено без изменений
daemon-heads-failed = не удалось просмотреть большие письма по их началу ({ $error }); новое подключение, чтобы загрузить их целиком
daemon-search-failed = сервер не может искать в тексте писем ({ $error }); загружается вся почта
daemon-uidvalidity-changed-while-read = UIDVALIDITY почтового ящика изменился во время чтения
daemon-filter-thread-failed = сбой потока фильтра почты
daemon-uidvalidity-changed = UIDVALIDITY изменился: почтовый ящик читается заново
daemon-reading-since = чтение почты, полученной с { $day }
daemon-reading-new-only = нет даты начала (first_sync_since) и нет партий: будет читаться только новая почта
daemon-applying-uid = применение письма с UID { $uid }
daemon-progress-reading = чтение { $mailbox }
daemon-pass-died = прошлый проход прервался при чтении почты после UID { $uid } (сбой или предел памяти): письма читаются по одному, каждое не более двух раз
daemon-tries-not-recorded = не удалось записать попытки прочесть письмо: { $error }
daemon-held-died = демон прервался при его чтении (сбой или предел памяти)
daemon-held-failed = не прочитано: { $tries } попытки не удались ({ $error }); письмо целиком остаётся в почтовом ящике
daemon-panicked = чтение письма с UID { $uid } прервалось паникой: { $why }
daemon-hook-cant-start = хук { $name }: не удаётся запустить { $program }: { $error }
daemon-hook-failed = хук { $name } ({ $program }) завершился с ошибкой: { $status }
daemon-hook-error = хук { $name } ({ $program }): { $error }
daemon-hook-timeout = хук { $name } ({ $program }) работал дольше { $secs } с: остановлен
daemon-hook-game-failed = хук on_{ $kind }: партия { $game }: { $error }
daemon-no-such-game = такой партии нет
daemon-hook-sent-failed = хук on_sent: сообщение { $message }: { $error }
# CCMAIL_TEXT события `sent`: тема отправленного сообщения.
daemon-hook-sent-text = отправлено: { $subject }
# CCMAIL_TEXT события `deadline`; $kind — код срока (repeat, arbiter_cc, silence_40, claim, correction).
daemon-hook-deadline-text = партия { $game }: { $kind ->
        [repeat] срок повтора хода
        [arbiter_cc] срок копий арбитру
        [silence_40] срок 40 дней без хода
        [claim] срок заявления о просрочке
        [correction] срок запроса на исправление
       *[other] срок { $kind }
    } { $days ->
        [0] сегодня
        [1] завтра
       *[other] через { $days ->
            [one] { $days } день
            [few] { $days } дня
           *[many] { $days } дней
        }
    }, { $date }
daemon-outbox-error = очередь на отправку: { $error }
daemon-smtp-answers-again = SMTP-сервер снова отвечает: { $count ->
        [one] отправляется { $count } ожидающее сообщение
        [few] отправляются { $count } ожидающих сообщения
       *[many] отправляются { $count } ожидающих сообщений
    }
daemon-hook-deadline-failed = хук on_deadline: { $error }
# Поставлено в очередь письмо по правилам: $what — одна из строк app-chore-….
daemon-chore-queued = { $what } (в очереди)
daemon-chores-error = действия по правилам: { $error }

## Слой приложения: применение почты, действия по правилам, планы, отправка.

app-outbox-sent = отправлено
app-outbox-retry = отправить не удалось; будет повторная попытка
app-outbox-failed = отправить не удалось окончательно
app-send-lock-trouble = не удаётся открыть блокировку отправки { $path }: { $trouble } ({ $error })
app-send-lock-cant-open = не удаётся открыть блокировку отправки { $path }
app-send-lock-held = другой ccmail отправляет почту уже { $minutes ->
        [one] { $minutes } минуту
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    } (блокировка отправки { $path } занята): попробуйте позже
app-cant-lock = не удаётся заблокировать { $path }
app-outbox-orphan = отправитель остановился посреди отправки: сообщение отправляется снова (с тем же Message-ID)
# Строка об одной партии: $what — что о ней сказано (ошибка или что сделало письмо).
app-game-said = партия { $game }: { $what }
app-chores-of-game-failed = не удалось выполнить действия по правилам в партии { $game }: { $error }; ничего из них не сохранено, действия в остальных партиях продолжаются
app-chore-pgn = партия { $game }: запись оконченной партии в формате PGN — арбитру (51.9.1)
app-chore-correction = партия { $game }: запрос на исправление хода (51.3.4)
app-chore-repeat-cc = партия { $game }: повтор нашего хода, копия арбитру (51.5.1)
app-chore-repeat-friendly = партия { $game }: повтор нашего хода только партнёру: в товарищеской партии нет арбитра (51.5.1)
# Предпросмотр сообщения перед отправкой: строки заголовка.
app-preview-to = Кому: { $to }
app-preview-cc = Копия: { $cc }
app-preview-subject = Тема: { $subject }
app-preview-attached = Вложение: { $file } ({ $mime })
# $status — состояние партии, как оно записано: active, suspended или finished.
app-plan-game-not-active = партия { $game } { $status ->
        [finished] окончена
        [suspended] приостановлена
        [active] идёт
       *[other] в состоянии «{ $status }»
    }: планировать нечего
app-plan-your-move = в партии { $game } ваш ход: план начинается со следующего хода партнёра, поэтому задайте его после отправки своего хода (в приглашении `e5 plan Nf3 Nc6` отправляет e5 и задаёт план)
app-in-the-plan = в плане
app-planned-reply = запланированный ответ { $reply }
app-plan-played-done = партия { $game }: ваш запланированный ответ { $reply } на { $theirs }; план выполнен
app-plan-played-goes-on = партия { $game }: ваш запланированный ответ { $reply } на { $theirs }; план продолжается: { $rest }
app-plan-ended-no-fit = партия { $game }: ваш план завершён: он больше не соответствует ходам партии
app-plan-ended-deviated = партия { $game }: ваш план завершён: сыграно { $played }, а не запланированное { $planned }; ход за вами
app-plan-ended-draw-offered = партия { $game }: ваш план завершён: партнёр с ожидаемым ходом предлагает ничью; ответ за вами
app-plan-ended-not-going-on = партия { $game }: ваш план завершён: партия { $status ->
        [finished] окончена
        [suspended] приостановлена
        [active] идёт
       *[other] в состоянии «{ $status }»
    }
app-plan-ended-done = партия { $game }: ваш план завершён: все запланированные ответы сыграны
# Что стало с входящим сообщением, одной строкой.
app-outcome-duplicate = сообщение { $message } уже сохранено; ничего не изменилось
app-outcome-held = задержано как сообщение { $message } (см. `ccmail inbox`): { $reason }
app-no-game = нет партии { $game }
app-game-vanished = партия { $game } исчезла
app-no-message = нет сообщения { $message }
# $status — состояние сообщения, как оно записано: applied, held, dismissed, info, queued или sent.
app-message-not-held = сообщение { $message } не задержано (оно { $status ->
        [applied] применено
        [dismissed] отклонено
        [info] принято к сведению
        [queued] в очереди на отправку
        [sent] отправлено
       *[other] в состоянии «{ $status }»
    })
app-message-from-us = сообщение { $message } отправлено с нашего собственного адреса: оно не может быть от партнёра
# Что связывает задержанное сообщение с партией (`inbox accept`), через "; ".
app-tie-thread = оно отвечает на письмо из переписки этой партии
app-tie-header = его заголовок партии называет турнир и игроков этой партии
app-tie-other-header = его заголовок партии называет другой турнир или других игроков
app-tie-record = его запись партии из { $count ->
        [one] { $count } полухода
       *[many] { $count } полуходов
    } совпадает с этой партией
# $ties: пусто или ": " и перечень связей.
app-match-not-on-file = Сообщение { $message } пришло с адреса { $from }, а не с { $address } — адреса, записанного для партии { $game }.
app-match-weak = Совпадение с партией слабое{ $ties }; проверьте, действительно ли это ваш партнёр.
app-match-none = С партией ничего не совпадает: ничто в сообщении не указывает на эту партию.
app-match-in-part = Совпадение с партией частичное{ $ties }.
app-match-strong = Совпадение с партией полное{ $ties }.
app-match-accepting = Если его принять, адресом соперника в партии станет { $from } (51.1.2).
app-by-eye-your-move = в партии { $game } ваш ход: хода партнёра, который можно применить, нет
app-by-eye-not-a-move = { $text } — не ход в партии { $game }: { $reason }
app-fine-no-game = сообщение { $message } не сопоставлено с партией: укажите её через --game
app-fine-nothing-awaited = в партии { $game } ход партнёра не ожидается: штрафовать не за что
# Почему сообщение задержано (хранится с ним, показывается в `ccmail inbox`).
app-fined-by-player = штраф назначен игроком: { $reason }
app-held-not-processed = ещё не обработано
app-held-unreadable = не удалось прочитать: { $why }
app-held-no-from = у сообщения нет адреса From
app-held-from-us = сообщение отправлено с нашего собственного адреса
app-held-envelope-sender = отправитель конверта { $sender } не совпадает с адресом From { $from }
app-held-not-on-file = похоже на партию { $game }, но пришло с { $from }, а не с записанного адреса { $address } (51.1.2: чтобы принять, введите `ccmail inbox accept { $message } --game { $game }`)
app-held-several-games = подходит к нескольким партиям с { $from }: { $games }
app-held-no-game = ни одна партия с { $from } не подходит
app-held-delivery-report = уведомление о недоставке от { $from }: наше письмо, возможно, не дошло до адресата. Прочитайте его и проверьте адрес партнёра
app-held-auto-reply = автоматический ответ от { $from } (сообщение об отсутствии или подобное), не письмо партии
app-held-list = письмо рассылки или массовая рассылка от { $from }, не письмо партии
app-held-game-finished = партия окончена
app-held-unverified = отправитель не подтверждён: { $why }. Чтобы применить сообщение один раз, введите `ccmail inbox accept { $message } --game { $game }`, или добавьте --trust, чтобы доверять { $from } в этой партии без проверки
app-held-forged = поддельный отправитель: { $why }. Применяйте его командой `ccmail inbox accept { $message } --game { $game }`, только если знаете, что его отправил { $from }
app-held-fault = { $what }; начислено штрафных дней: { $days } (51.4.7)
# Что ещё сделало сообщение без хода (хранится с ним, для `show`).
app-no-break-to-end = перерыва партнёра, который можно завершить, нет в записях
app-new-address-ours = новый адрес { $address } не принят: это собственный адрес игрока
app-new-address-arbiter = новый адрес { $address } не принят: это адрес арбитра партии
app-repeat-queued = наш последний ход снова поставлен в очередь с пометкой о повторе
# Составление нашего сообщения: что нельзя отправить.
app-no-offer-to-accept = в партии { $game } нет варианта, предложенного партнёром, который можно принять
app-variation-needs-move = вариант указывается вместе с ходом
app-no-move-given = ход не указан
app-in-the-variation = в варианте
app-move-goes-to-partner = ход всегда отправляется партнёру
app-cant-build-message = не удаётся составить сообщение
app-send-game-not-active = партия { $game } { $status ->
        [finished] окончена
        [suspended] приостановлена
        [active] идёт
       *[other] в состоянии «{ $status }»
    }: в ней ничего нельзя отправить
app-no-draw-offer-but-variation = в партии { $game } соперник не предлагал ничью; его вариант принимается ответным ходом: `accept ХОД` в приглашении, `ccmail move { $game } --accept-variation ХОД`
app-no-draw-offer = в партии { $game } соперник не предлагал ничью
# $color: white или black — сторона, которой ходить.
app-not-your-move = в партии { $game } сейчас не ваш ход: ход { $color ->
        [white] белых
       *[black] чёрных
    }
app-plan-needs-move = план указывается вместе с ходом
app-now-before-received = --now { $sent } раньше { $received }, когда пришёл ход, на который мы отвечаем
app-now-not-a-date = --now { $text } — не дата (ГГГГ-ММ-ДД или ДД.ММ.ГГГГ) и не время в формате RFC 3339 (2026-03-08T21:00:00+03:00)
app-no-noon = полдень { $date } не существует в часовом поясе { $tz }
