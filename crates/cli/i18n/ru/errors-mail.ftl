# errors-mail: ошибки почты (ImapError, SmtpError, TlsError из ccmail-mail). Ответ сервера,
# слова сети и библиотек подставляются как есть; причины, которые называет почтовый модуль,
# переведены.

## IMAP
err-mail-imap-config = настройка IMAP: { $reason }
err-mail-imap-connect = не удаётся подключиться к IMAP-серверу { $server }: { $error }
err-mail-imap-tls = TLS с IMAP-сервером { $server }: { $reason }
err-mail-imap-login = IMAP-сервер не принял вход пользователя { $user }: { $reply }
err-mail-imap-token = вход на IMAP-сервер: { $error }
err-mail-imap-protocol = IMAP, команда { $command }: { $reply }
err-mail-imap-io = соединение с IMAP-сервером, { $context }: { $error }
# Как оборвалось соединение, когда сеть сама этого не сказала.
err-mail-no-answer = нет ответа в течение { $seconds } с
err-mail-closed = соединение закрыто
err-mail-bye = сервер ответил BYE: { $reply }

## SMTP
err-mail-smtp-config = настройка SMTP: { $reason }
err-mail-smtp-address = неверный адрес электронной почты { $address }: { $reason }
err-mail-smtp-build = не удаётся составить письмо: { $reason }
err-mail-smtp-rejected = SMTP-сервер { $server } ответил { $code }: { $reply }
err-mail-smtp-login = SMTP-сервер { $server } не принял вход пользователя { $user }: { $reason }
err-mail-smtp-token = вход на SMTP-сервер: { $error }
err-mail-smtp-tls = TLS с SMTP-сервером { $server }: { $reason }
err-mail-smtp-connection = соединение с SMTP-сервером { $server }: { $reason }
err-mail-smtp-protocol = обмен с SMTP-сервером { $server }: { $reason }

## TLS
err-mail-ca-file-read = не удаётся прочитать файл CA { $path }: { $error }
err-mail-ca-file-content = в файле CA { $path } нет пригодного сертификата: { $reason }
err-mail-invalid-host-name = { $host } не годится как имя сервера для TLS
err-mail-tls-config = настройка TLS: { $error }

## Причины, которые называет почтовый модуль
# Почему не удался TLS: сертификат отвергнут (сначала слова rustls), STARTTLS отклонён.
err-mail-tls-certificate = { $error } (сертификат сервера не годится для { $host } или подписан центром сертификации, которому нет доверия; если у вас свой центр сертификации, укажите его файл в ca_file)
err-mail-starttls-refused = сервер отказал в STARTTLS: { $error }
err-mail-ca-no-certificate = нет блока «BEGIN CERTIFICATE»
# Не удался вход по OAuth2.
err-mail-no-oauth2-imap = сервер не предлагает входа по OAuth2 (нет ни AUTH=OAUTHBEARER, ни AUTH=XOAUTH2; он предлагает { $offered }): войдите по паролю или проверьте имя сервера
err-mail-no-oauth2-imap-nothing = сервер не предлагает входа по OAuth2 (нет ни AUTH=OAUTHBEARER, ни AUTH=XOAUTH2, ни другого способа входа): войдите по паролю или проверьте имя сервера
err-mail-no-oauth2-smtp = сервер не предлагает входа по OAuth2 (AUTH XOAUTH2 — так ccmail входит на SMTP-сервер)
err-mail-token-refused = сервер не принял токен доступа OAuth2 ({ $mechanism }): { $reply }
err-mail-token-refused-status = сервер не принял токен доступа OAuth2 ({ $mechanism }, { $status }): { $reply }
err-mail-error-challenge = сервер ответил сообщением об ошибке
# Что делалось, когда оборвалось соединение с IMAP-сервером.
err-mail-connecting = подключение к { $server }
err-mail-greeting = чтение приветствия сервера { $server }
err-mail-tls-handshake = установка TLS с сервером { $server }
err-mail-ending-idle = DONE (конец IDLE)
# $mailbox: the mailbox's name, quoted.
err-mail-append = APPEND { $mailbox } ({ $bytes } { $bytes ->
        [one] байт
        [few] байта
       *[many] байт
    })
err-mail-idle-closed = IDLE: сервер закрыл соединение
err-mail-connection-lost = сеанс потерян из-за прежней ошибки; нужно подключиться заново
err-mail-no-noop-answer = сервер не ответил на NOOP
err-mail-smtp-no-answer = нет ответа в течение { $seconds } с ({ $step })
err-mail-smtp-step-greeting = соединение: приветствие и EHLO
err-mail-smtp-step-starttls = STARTTLS
err-mail-smtp-step-login = вход
err-mail-smtp-step-noop = NOOP
err-mail-smtp-step-sending = передача письма
# Настройка, с которой работать нельзя.
err-mail-plain-imap = security = "plain" для { $server } означает, что пароль уйдёт незашифрованным; это нужно разрешить явно (plain_ok)
err-mail-plain-smtp = security = "plain" для { $server } означает, что письма (и пароль, если он есть) уйдут незашифрованными; это нужно разрешить явно (plain_ok)
err-mail-no-password = для { $server } указано имя пользователя ({ $user }), но нет пароля
err-mail-ca-certificate = файл CA { $path }: { $error }
err-mail-tls-for = TLS для { $host }: { $error }
err-mail-not-uid-set = { $uids } — не набор UID
err-mail-not-a-flag = { $flag } — не флаг IMAP
# Письмо, которое нельзя составить.
err-mail-not-a-message-id = { $id } — не Message-ID (нужны печатные символы ASCII без пробелов и <>)
err-mail-not-threadable = { $id } нельзя указать в { $header }: Message-ID там — печатные символы ASCII без пробелов и <>, не длиннее { $max } { $max ->
    [one] символа
    [few] символов
   *[many] символов
 }
err-mail-mime-type = MIME-тип { $type }: { $error }

## Файл, который не является письмом
err-mail-not-a-message-empty = это не письмо: оно пустое
err-mail-not-a-message-nul = это не письмо: в его заголовке есть нулевые байты (двоичные данные)
# С чего оно начинается ($what: одно из err-mail-begins-* ниже, в родительном падеже).
err-mail-not-a-message = это не письмо: оно начинается с { $what }, а не с поля заголовка вроде «From:»
err-mail-begins-gzip = данных, сжатых gzip
err-mail-begins-zip = ZIP-архива
err-mail-begins-pdf = PDF-документа
err-mail-begins-binary = двоичных данных
err-mail-begins-text-line = строки текста { $line }

## What the server answered, or what made no sense in its answer
err-mail-reply-no-uidvalidity = в ответе сервера нет UIDVALIDITY
err-mail-reply-no-bodystructure = UID { $uid }: в ответе сервера нет BODYSTRUCTURE
err-mail-reply-no-size = UID { $uid }: в ответе сервера нет RFC822.SIZE
err-mail-reply-no-internaldate = UID { $uid }: в ответе сервера нет INTERNALDATE или её не прочесть
# $answer: the answer as async-imap read it.
err-mail-reply-unexpected = неожиданный ответ сервера: { $answer }

## A server's answer that could not be read ($answer: its start, quoted, as the server wrote it)
err-mail-answer-silent = сервер ничего не присылал { $seconds } с
err-mail-answer-text-too-long = текст ответа сервера длиннее { $max } { $max ->
        [one] байта
       *[other] байт
    }
err-mail-answer-line-too-long = строка ответа сервера длиннее { $max } { $max ->
        [one] байта
       *[other] байт
    }
err-mail-answer-literal-too-long = в ответе сервера литерал (блок данных) больше { $max } { $max ->
        [one] байта
       *[other] байт
    }: { $answer }
err-mail-answer-closed = соединение закрыто посреди ответа сервера
err-mail-answer-closed-in-message = соединение закрыто посреди письма
err-mail-answer-unreadable = ответ сервера не удаётся прочитать: { $answer }
err-mail-answer-unended-string = в ответе сервера незакрытая строка в кавычках: { $answer }
err-mail-answer-unended-literal = в ответе сервера незакрытый литерал: { $answer }
err-mail-answer-literal-out-of-place = в ответе сервера литерал не на своём месте: { $answer }
err-mail-answer-unended-section = в ответе сервера незакрытая секция: { $answer }
err-mail-answer-unended-list = в ответе сервера незакрытый список: { $answer }
err-mail-answer-no-value = в ответе сервера элемент без значения: { $answer }
