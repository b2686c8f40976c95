# inbox

## ccmail inbox: задержанные письма, accept, fine, dismiss.

inbox-accept-question = Принять его?
inbox-not-accepted = Не принято; ничего не изменилось.
inbox-trusted = Письма от { $sender } в партии { $game } отныне принимаются без проверки.
# $cause: данное значение в кавычках; названия нарушений — значения флага.
inbox-not-a-fault = --cause { $cause } не нарушение: укажите illegible, ambiguous, impossible, no-move или wrong-repetition
inbox-no-message = письма { $id } нет
# $status: одно из inbox-status-*.
inbox-not-held = письмо { $id } не задержано (оно { $status })
inbox-status-applied = применено к партии
inbox-status-held = задержано
inbox-status-dismissed = отложено
inbox-status-info = принято к сведению
inbox-status-queued = в очереди на отправку
inbox-status-sent = отправлено
inbox-dismissed = письмо { $id } отложено (оно остаётся в базе)
inbox-none-held = Задержанных писем нет.
inbox-no-sender = (без отправителя)
inbox-no-subject = (без темы)
# $reason: причина, как она записана в базе.
inbox-held-because = задержано: { $reason }

## ccmail check: строка на шаг, в начале «ок»/«СБОЙ» (шесть колонок).

check-mark-ok = ок
check-mark-fail = СБОЙ
check-mark-hint = совет
# $key: ключ настроек; $value: его значение в кавычках; $file: файл настроек.
check-placeholder = { $key } = { $value } — пример из начальных настроек, по нему никого не найти: впишите своё в { $file }
# Советы после неудачного соединения: по тому, что прислал сервер, видно, что должно стоять в настройках.
check-hint-implicit-tls = { $port } — порт с TLS с первого байта (сервер сразу заговорил по TLS): security = "tls"
check-hint-silent = сервер молчал { $seconds } с: если { $port } — порт с TLS с первого байта (IMAP 993, SMTP 465), security = "tls"; если нет, проверьте адрес и порт
check-hint-plain-first = { $port } здоровается открытым текстом, а не по TLS: security = "starttls" (или порт с TLS с первого байта: IMAP 993, SMTP 465)
check-hint-smtp-port = { $port } — порт SMTP, а не IMAP: в [imap] нужен порт IMAP (993 с security = "tls", 143 со "starttls")
check-hint-imap-port = { $port } — порт IMAP, а не SMTP: в [smtp] нужен порт SMTP (465 с security = "tls", 587 со "starttls")
# $said: первая строка сервера в кавычках.
check-hint-not-mail = { $port } отвечает, но не как почтовый сервер ({ $said }): проверьте адрес и порт
check-hint-silent-after-tls = после TLS сервер молчал { $seconds } с: проверьте адрес и порт
check-hint-closed = { $server } сразу закрыл соединение: проверьте адрес, порт и security
check-hint-nothing-listens = на { $server } никто не слушает: проверьте адрес и порт и что сервер запущен
check-hint-unreachable = { $server } не принял соединение за { $seconds } с: проверьте адрес, порт и сеть
check-hint-no-tls-answer = { $server } принял соединение, но не ответил по TLS за { $seconds } с: проверьте адрес и порт
check-step-config = настройки
check-step-database = база
check-step-security = отправители
check-config-read = прочитаны из { $path } (игрок { $name } <{ $email }>, часовой пояс { $timezone })
check-config-unread = настройки не прочитаны, поэтому больше ничего не проверено
check-failed = { $count ->
    [one] не пройдена { $count } проверка
    [few] не пройдены { $count } проверки
   *[many] не пройдено { $count } проверок
}
check-database-opened = открыта { $path }: { $count ->
    [one] { $count } партия
    [few] { $count } партии
   *[many] { $count } партий
}, активных: { $active }
check-database-unreadable = { $path } открыта, но прочитать её не удалось: { $error }
# $how: TLS или STARTTLS.
check-connected = подключено к { $server } через { $how }
check-connected-plain = подключено к { $server } без шифрования (security = "plain")
check-logged-in = вход выполнен как { $user }
check-cannot-connect = не удаётся подключиться: { $error }
check-imap-none = не настроен: в { $file } нет [imap] (он нужен для `ccmail run`)
check-imap-mailbox-idle = в папке { $mailbox } { $count ->
    [one] { $count } письмо
    [few] { $count } письма
   *[many] { $count } писем
}; IDLE: есть
check-imap-mailbox-polled = в папке { $mailbox } { $count ->
    [one] { $count } письмо
    [few] { $count } письма
   *[many] { $count } писем
}; IDLE: нет (новая почта проверяется опросом)
check-imap-sent-copies = копии отправленных писем кладутся в { $mailbox }
check-imap-mailbox-failed = папка { $mailbox }: { $error }
check-security-heads-unread = не удалось прочитать заголовки последних писем: { $error }
check-security-verified = отправители проверяются: ход засчитывается, только если Authentication-Results сервера { $id } подтверждает DKIM-подпись или DMARC отправителя либо письмо отвечает на наше
# $quoted, $found: имя сервера в кавычках; $recent: сколько писем просмотрено.
check-security-absent = [security] authserv_id = { $quoted }, но ни в одном из последних { $recent ->
    [one] { $recent } письма
   *[other] { $recent } писем
} нет Authentication-Results от { $id }, поэтому каждый ход задерживался бы как непроверенный
check-security-absent-other = [security] authserv_id = { $quoted }, но ни в одном из последних { $recent ->
    [one] { $recent } письма
   *[other] { $recent } писем
} нет Authentication-Results от { $id }, поэтому каждый ход задерживался бы как непроверенный; в них есть заголовки от { $found }: укажите [security] authserv_id = { $found } в { $file }
check-security-unverified-proposed = отправители не проверяются: пока не задан [security] authserv_id, письмо с адреса партнёра действует только законным ходом, а сдача, согласие на ничью, смена адреса или ошибка в нём задерживаются; ваш сервер пишет свой вердикт от имени { $found }: добавьте [security] authserv_id = { $found } в { $file }
check-security-unverified-none = отправители проверяются только по адресу и конверту, а их можно подделать с любого сервера; вердикт DKIM вашего собственного сервера надёжнее, но в последних письмах нет Authentication-Results с именем сервера, так что предложить нечего
# $how: откуда взят токен (слова поставщика OAuth2).
check-token-got = получен токен доступа OAuth2 { $how }
check-token-none = нет токена доступа OAuth2: { $error }
check-smtp-none = не настроен: в { $file } нет [smtp] (письма остаются в очереди на отправку)
check-smtp-no-login = вход не настроен (сервер принимает почту без него)

## ccmail parse: что прочитано из письма. Подписи — не длиннее 15 знаков.

parse-kind = Вид:
parse-from = От:
parse-subject = Тема:
parse-date = Дата:
parse-event = Соревнование:
parse-start = Начало:
parse-white = Белые:
parse-black = Чёрные:
parse-moves = Ходы:
parse-new-move = Новый ход:
parse-not-read = { $text } (не прочитан)
parse-variation = Вариант:
parse-your-move-sent = Ваш ход послан:
parse-received = Получено:
parse-sent = Отправлено:
parse-move-days = Дней на ход:
parse-totals = Всего дней:
parse-totals-days = белые { $white }, чёрные { $black }
parse-signature = Подпись:
parse-offers-draw = предлагает ничью
parse-accepts-draw = принимает ничью
parse-resigns = сдаётся
parse-repeats = повторяет ход, оставшийся без ответа
parse-takes-break = берёт перерыв с { $from } по { $to }
parse-also = Также:
parse-note = Примечание:
parse-no-problems = Ошибок нет.
# $code: код ошибки (как в JSON); $detail: её описание.
parse-problem = Ошибка ({ $code }): { $detail }
parse-mail-note = Почта: { $note }

## ccmail export

export-no-game = партии { $id } нет
export-no-pgn = не удаётся записать партию { $id } в PGN
export-cannot-write = не удаётся записать { $path }
