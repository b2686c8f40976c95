# inbox

## ccmail inbox: held messages, accept, fine, dismiss.

inbox-accept-question = Accept it?
inbox-not-accepted = Not accepted; nothing changed.
inbox-trusted = { $sender } is trusted without verification in game { $game } from now on.
# $cause: the value given, quoted; the faults' names are the flag's values.
inbox-not-a-fault = --cause { $cause } is not a fault: illegible, ambiguous, impossible, no-move or wrong-repetition
inbox-no-message = there is no message { $id }
# $status: one of inbox-status-*.
inbox-not-held = message { $id } is not held (it is { $status })
inbox-status-applied = applied
inbox-status-held = held
inbox-status-dismissed = dismissed
inbox-status-info = info
inbox-status-queued = queued
inbox-status-sent = sent
inbox-dismissed = message { $id } dismissed (it stays stored)
inbox-none-held = No held messages.
inbox-no-sender = (no sender)
inbox-no-subject = (no subject)
# $reason: the stored reason, as it was written.
inbox-held-because = held: { $reason }

## ccmail check: one line a step, "ok"/"FAIL" first (six columns).

check-mark-ok = ok
check-mark-fail = FAIL
check-mark-hint = hint
# $key: a config key; $value: its value, quoted; $file: the config file.
check-placeholder = { $key } = { $value } is the starter config's example, which reaches no one: put your own in { $file }
# The hints after a failed connection: what the server sent says what the config should say.
check-hint-implicit-tls = { $port } is implicit TLS (the server spoke TLS first): security = "tls"
check-hint-silent = the server said nothing in { $seconds } s: if { $port } is implicit TLS (IMAP 993, SMTP 465), security = "tls"; if not, check host and port
check-hint-plain-first = { $port } greets in plain text, not TLS: security = "starttls" (or the implicit-TLS port: IMAP 993, SMTP 465)
check-hint-smtp-port = { $port } is an SMTP port, not IMAP: [imap] needs the IMAP port (993 with security = "tls", 143 with "starttls")
check-hint-imap-port = { $port } is an IMAP port, not SMTP: [smtp] needs the SMTP port (465 with security = "tls", 587 with "starttls")
# $said: the server's first line, quoted.
check-hint-not-mail = { $port } answers, but not as a mail server ({ $said }): check host and port
check-hint-silent-after-tls = the server said nothing in { $seconds } s after TLS: check host and port
check-hint-closed = { $server } closed the connection at once: check host, port and security
check-hint-nothing-listens = nothing listens on { $server }: check host and port, and that the server runs
check-hint-unreachable = { $server } took no connection in { $seconds } s: check host, port and the network
check-hint-no-tls-answer = { $server } took the connection but did not answer TLS in { $seconds } s: check host and port
check-step-config = config
check-step-database = database
check-step-security = security
check-config-read = read from { $path } (player { $name } <{ $email }>, time zone { $timezone })
check-config-unread = the config could not be read, so nothing else was checked
check-failed = { $count ->
    [one] 1 check failed
   *[other] { $count } checks failed
}
check-database-opened = opened { $path }: { $count } game(s), { $active } active
check-database-unreadable = opened { $path }, but reading it failed: { $error }
# $how: TLS or STARTTLS.
check-connected = connected to { $server } with { $how }
check-connected-plain = connected to { $server } with no encryption (security = "plain")
check-logged-in = logged in as { $user }
check-cannot-connect = cannot connect: { $error }
check-imap-none = not configured: { $file } has no [imap] (`ccmail run` needs it)
check-imap-mailbox-idle = mailbox { $mailbox } has { $count } message(s); IDLE: yes
check-imap-mailbox-polled = mailbox { $mailbox } has { $count } message(s); IDLE: no (new mail is polled for)
check-imap-sent-copies = copies of sent mail go to { $mailbox }
check-imap-mailbox-failed = mailbox { $mailbox }: { $error }
check-security-heads-unread = reading the newest mail's headers: { $error }
check-security-verified = senders are verified: a move counts only when { $id }'s Authentication-Results found its sender's DKIM signature or DMARC valid, or it answers our mail
# $quoted, $found: the server's name in quotes; $recent: how many messages were looked at.
check-security-absent = [security] authserv_id is { $quoted }, but none of the newest { $recent } messages carries Authentication-Results from { $id }, so every move would be held as unverified
check-security-absent-other = [security] authserv_id is { $quoted }, but none of the newest { $recent } messages carries Authentication-Results from { $id }, so every move would be held as unverified; they carry { $found }'s: set [security] authserv_id = { $found } in { $file }
check-security-unverified-proposed = senders are not verified: until [security] authserv_id is set, a letter from the partner's address acts only with a legal move, and a resignation, draw acceptance, address change or fault in it is held; your server writes its verdict as { $found }: add [security] authserv_id = { $found } to { $file }
check-security-unverified-none = senders are checked by address and envelope only, which anyone can forge from any server; your own server's DKIM verdict is stronger: the newest mail carries no Authentication-Results naming a server, so there is none to propose
# $how: where the token came from (the OAuth2 provider's words).
check-token-got = got an OAuth2 access token { $how }
check-token-none = no OAuth2 access token: { $error }
check-smtp-none = not configured: { $file } has no [smtp] (messages stay in the outbox)
check-smtp-no-login = no login configured (the server takes mail without one)

## ccmail parse: what was read from a message. Labels: at most 15 characters.

parse-kind = Kind:
parse-from = From:
parse-subject = Subject:
parse-date = Date:
parse-event = Event:
parse-start = Start:
parse-white = White:
parse-black = Black:
parse-moves = Moves:
parse-new-move = New move:
parse-not-read = { $text } (not read)
parse-variation = Variation:
parse-your-move-sent = Your move sent:
parse-received = Received:
parse-sent = Sent:
parse-move-days = Move days:
parse-totals = Totals:
parse-totals-days = White { $white }, Black { $black }
parse-signature = Signature:
parse-offers-draw = offers a draw
parse-accepts-draw = accepts the draw
parse-resigns = resigns
parse-repeats = repeats an unanswered move
parse-takes-break = takes a break from { $from } to { $to }
parse-also = Also:
parse-note = Note:
parse-no-problems = No problems.
# $code: the problem's code (as in the JSON); $detail: its description.
parse-problem = Problem ({ $code }): { $detail }
parse-mail-note = Mail: { $note }

## ccmail export

export-no-game = there is no game { $id }
export-no-pgn = can't write game { $id } as PGN
export-cannot-write = can't write { $path }
