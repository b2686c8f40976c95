# errors-mail: the mail crate's errors (ccmail-mail's ImapError, SmtpError, TlsError, MimeError), word for
# word as their Display says them, with the reasons the mail crate gives. A server's reply,
# the network's and the libraries' words are values.

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

## The reasons the mail crate gives
# Why TLS failed: a certificate refused (rustls's words first), STARTTLS refused.
err-mail-tls-certificate = { $error } (the server's certificate is not valid for { $host } or not signed by a trusted CA; for a private CA set ca_file)
err-mail-starttls-refused = STARTTLS refused: { $error }
err-mail-ca-no-certificate = no "BEGIN CERTIFICATE" block
# An OAuth2 login that failed.
err-mail-no-oauth2-imap = the server offers no OAuth2 login (neither AUTH=OAUTHBEARER nor AUTH=XOAUTH2; it offers { $offered }): use a password, or check the server's name
err-mail-no-oauth2-imap-nothing = the server offers no OAuth2 login (neither AUTH=OAUTHBEARER nor AUTH=XOAUTH2; it offers none): use a password, or check the server's name
err-mail-no-oauth2-smtp = the server offers no OAuth2 login (AUTH XOAUTH2, which is what ccmail speaks over SMTP)
err-mail-token-refused = the server refused the OAuth2 access token ({ $mechanism }): { $reply }
err-mail-token-refused-status = the server refused the OAuth2 access token ({ $mechanism }, { $status }): { $reply }
err-mail-error-challenge = the server answered with an error challenge
# What was being done when an IMAP connection broke.
err-mail-connecting = connecting to { $server }
err-mail-greeting = reading the greeting of { $server }
err-mail-tls-handshake = TLS handshake with { $server }
err-mail-ending-idle = DONE (ending IDLE)
# $mailbox: the mailbox's name, quoted.
err-mail-append = APPEND { $mailbox } ({ $bytes } bytes)
err-mail-idle-closed = IDLE: the server closed the connection
err-mail-connection-lost = the session was lost by an earlier error; connect again
err-mail-no-noop-answer = the server did not answer NOOP
err-mail-smtp-no-answer = no answer within { $seconds } s ({ $step })
err-mail-smtp-step-greeting = connecting: the greeting and EHLO
err-mail-smtp-step-starttls = STARTTLS
err-mail-smtp-step-login = login
err-mail-smtp-step-noop = NOOP
err-mail-smtp-step-sending = sending the message
# A configuration that cannot work.
err-mail-plain-imap = security = "plain" for { $server } sends the password unencrypted; it must be allowed explicitly (plain_ok)
err-mail-plain-smtp = security = "plain" for { $server } sends mail (and any password) unencrypted; it must be allowed explicitly (plain_ok)
err-mail-no-password = a user name ({ $user }) but no password for { $server }
err-mail-ca-certificate = CA file { $path }: { $error }
err-mail-tls-for = TLS for { $host }: { $error }
err-mail-not-uid-set = { $uids } is not a UID set
err-mail-not-a-flag = { $flag } is not an IMAP flag
# A message that cannot be built.
err-mail-not-a-message-id = { $id } is not a Message-ID (printable ASCII without spaces or <>)
err-mail-not-threadable = { $id } can't be named in { $header }: a Message-ID there is printable ASCII without spaces or <>, at most { $max } characters
err-mail-mime-type = MIME type { $type }: { $error }

## A file that is not an e-mail message
err-mail-not-a-message-empty = not an e-mail message: the input is empty
err-mail-not-a-message-nul = not an e-mail message: its header block contains NUL bytes (binary data)
# What it begins with ($what: one of the err-mail-begins-* below).
err-mail-not-a-message = not an e-mail message: it begins with { $what }, not with a header field such as "From:"
err-mail-begins-gzip = gzip-compressed data
err-mail-begins-zip = a ZIP archive
err-mail-begins-pdf = a PDF document
err-mail-begins-binary = binary data
err-mail-begins-text-line = the text line { $line }

## What the server answered, or what made no sense in its answer
err-mail-reply-no-uidvalidity = no UIDVALIDITY in the answer
err-mail-reply-no-bodystructure = UID { $uid }: no BODYSTRUCTURE
err-mail-reply-no-size = UID { $uid }: no RFC822.SIZE
err-mail-reply-no-internaldate = UID { $uid }: no readable INTERNALDATE
# $answer: the answer as async-imap read it.
err-mail-reply-unexpected = unexpected { $answer }

## A server's answer that could not be read ($answer: its start, quoted, as the server wrote it)
err-mail-answer-silent = nothing from the server for { $seconds } s
err-mail-answer-text-too-long = an answer's text over { $max } bytes
err-mail-answer-line-too-long = a line over { $max } bytes
err-mail-answer-literal-too-long = a literal over { $max } bytes: { $answer }
err-mail-answer-closed = the connection was closed in the middle of an answer
err-mail-answer-closed-in-message = the connection was closed in the middle of a message
err-mail-answer-unreadable = an answer that can't be read: { $answer }
err-mail-answer-unended-string = an unended string: { $answer }
err-mail-answer-unended-literal = an unended literal: { $answer }
err-mail-answer-literal-out-of-place = a literal out of place: { $answer }
err-mail-answer-unended-section = an unended section: { $answer }
err-mail-answer-unended-list = an unended list: { $answer }
err-mail-answer-no-value = an item without a value: { $answer }
