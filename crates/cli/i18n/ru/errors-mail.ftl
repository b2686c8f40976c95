# errors-mail: ошибки почты (ImapError, SmtpError, TlsError из ccmail-mail). Ответ сервера,
# слова сети и причины, которые почтовый модуль пишет сам, подставляются как есть.

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
