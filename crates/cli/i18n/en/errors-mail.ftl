# errors-mail: the mail crate's errors (ccmail-mail's ImapError, SmtpError, TlsError), word for
# word as their Display says them. A server's reply, the network's words and the reasons
# built by the mail crate are values.

## IMAP
err-mail-imap-config = IMAP configuration: { $reason }
err-mail-imap-connect = cannot connect to IMAP server { $server }: { $error }
err-mail-imap-tls = TLS with IMAP server { $server }: { $reason }
err-mail-imap-login = IMAP login refused for { $user }: { $reply }
err-mail-imap-token = IMAP login: { $error }
err-mail-imap-protocol = IMAP { $command }: { $reply }
err-mail-imap-io = IMAP connection, { $context }: { $error }
# How a connection ended, when the network did not say it itself.
err-mail-no-answer = no answer within { $seconds } s
err-mail-closed = the connection was closed
err-mail-bye = server said BYE: { $reply }

## SMTP
err-mail-smtp-config = SMTP configuration: { $reason }
err-mail-smtp-address = invalid e-mail address { $address }: { $reason }
err-mail-smtp-build = cannot build the message: { $reason }
err-mail-smtp-rejected = SMTP server { $server } replied { $code }: { $reply }
err-mail-smtp-login = SMTP login refused for { $user } at { $server }: { $reason }
err-mail-smtp-token = SMTP login: { $error }
err-mail-smtp-tls = TLS with SMTP server { $server }: { $reason }
err-mail-smtp-connection = SMTP connection to { $server }: { $reason }
err-mail-smtp-protocol = SMTP with { $server }: { $reason }

## TLS
err-mail-ca-file-read = cannot read the CA file { $path }: { $error }
err-mail-ca-file-content = the CA file { $path } holds no usable certificate: { $reason }
err-mail-invalid-host-name = { $host } is not a valid host name for TLS
err-mail-tls-config = TLS configuration: { $error }
