# commands

## Shared by several commands

cmd-no-game = there is no game { $id }
cmd-no-game-see-games = there is no game { $id } (see `ccmail games`)
cmd-no-game-see-all = there is no game { $id } (see `ccmail games --all`)
cmd-game-vanished = the game vanished
cmd-no-result = no result
cmd-game-finished-with = game { $id } is finished ({ $result })
cmd-flag-not-email = { $flag } { $email } is not an e-mail address
cmd-color-white-or-black = --color must be white or black, not { $value }

## Asking before sending, reading input (commands/mod.rs)

# After the question: the answers taken are y, yes, да and д.
cmd-confirm-hint = [y/N]
cmd-not-sent = Not sent; nothing changed.
cmd-writing-stdout = writing to standard output
# $what: cmd-what-message-file or cmd-what-file.
cmd-read-stdin-failed = can't read the { $what } from standard input
cmd-open-failed = can't open the { $what } { $path }
cmd-what-message-file = message file
cmd-what-file = file
cmd-runtime-failed = can't start the async runtime

## A message shown before it is sent

cmd-preview-to = To: { $to }
cmd-preview-cc = Cc: { $cc }
cmd-preview-subject = Subject: { $subject }

## Sending the outbox; $what is a subject or one of the *-notices below

cmd-flush-no-smtp = queued: { $what } (no [smtp] in the config: it stays in the outbox)
cmd-flush-sent = sent: { $what }
cmd-flush-queued = queued: { $what } (not sent: { $reason }; the daemon sends it: see `ccmail outbox`)
cmd-flush-time-limit = the time limit of { $seconds } s ran out
cmd-notices = the notices

## ccmail move, ccmail resign

cmd-move-ask = Send this message?
# $side: white or black, the opponent.
cmd-move-claim-given-up = Sending this gives up the right to claim a win on time: { $side ->
    [white] White
   *[black] Black
} went over the time limit with move { $at }, and the claim goes no later than your reply (51.6.1); `ccmail claim { $id }` claims it instead.
cmd-move-changed = game { $id } changed while the message was on screen (new mail?): nothing was queued; look at the game again
cmd-move-game-over = The game is over: { $result }.

## ccmail address change

cmd-address-not-email = { $email } is not an e-mail address
cmd-address-same = { $email } is already your address
cmd-address-done = notices to { $count } game(s); now set [player] email = "{ $email }" in { $path }
cmd-address-notices = the address notices

## ccmail adjudicate

cmd-adjudicate-claim-invalid = --claim must be 1-0, 0-1 or 1/2-1/2, not { $claim }
cmd-adjudicate-friendly = game { $id } is a friendly game: there is no arbiter to adjudicate it; agree the result with your partner and record it with `ccmail game decision { $id } --result RESULT`
cmd-adjudicate-your-move = it is your move in game { $id }: name your sealed move with --move (51.9.4)
cmd-adjudicate-not-your-move = it is not your move in game { $id }: there is no sealed move to give
cmd-adjudicate-ask = Send this to the arbiter?

## ccmail apply

cmd-chore-queued = { $done } (queued)
cmd-no-such-local-time = no such local time

## ccmail break

cmd-break-in-advance = a break is announced in advance (51.7.2): --from { $from } is before today ({ $today })
cmd-break-cannot = the break can't be taken: { $why }
cmd-break-recorded = break { $from } – { $to } ({ $days } days) recorded; notices to { $count } game(s)
cmd-break-notices = the break notices
cmd-break-none-to-end = there is no break in progress or to come on { $on } to end
cmd-break-reversed = the break's dates are reversed
cmd-break-ended = break { $from } – { $to } ends: playing again from { $on }; { $count } day(s) back in the allowance
cmd-break-none = No breaks.
cmd-break-span = { $from } – { $to }
cmd-break-span-ended = { $from } – { $to } (ended early: back on { $back })
cmd-break-used = { $year }: { $used } of 30 days used
# $profile: the rules' name (article51, postal104).
cmd-break-left = { $profile }: { $count } day(s) left

## ccmail claim

cmd-claim-not-overstepped = the opponent has not overstepped a time control in game { $id }: { $total } of { $limit } days by move { $at }
cmd-claim-ask = Send this claim and suspend the game?
cmd-claim-suspended = game { $id } is suspended until the arbiter's decision
cmd-claim-friendly = game { $id } is a friendly game: there is no arbiter to claim to; agree the result with your partner and record it with `ccmail game decision { $id } --result RESULT`
# $status: suspended or finished.
cmd-claim-not-active = game { $id } is { $status }: no claim can be made in it

## ccmail manpage (roff: $init is the command in bold)

cmd-man-config = The config ({ $init } writes a commented one).
cmd-man-database = The games and every message (SQLite).
cmd-man-see-also = The user's guide, README.md, and docs/cli.md.

## ccmail folders

cmd-folders-no-imap = { $path } has no [imap]: there is no server to ask
cmd-folders-not-messages = (not a folder of messages)
cmd-folders-missing = { $key } = { $name } ({ $path }) is not among them: write one of the names above

## ccmail game new, decision, set

cmd-new-notation = --notation must be numeric, san or san-ru
cmd-new-no-free-id = no free game id
cmd-game-finished-already = game { $id } is finished already ({ $result })
cmd-decision-result-invalid = --result must be 1-0, 0-1 or 1/2-1/2, not { $result }
cmd-decision-friendly = game { $id } finished { $result } (a friendly game: no arbiter, no PGN sent)
cmd-decision-done = game { $id } finished { $result } by the arbiter's decision; a protest is due within 14 days (by { $by })
cmd-decision-pgn = the game's PGN
cmd-decision-not-suspended = game { $id } is not suspended
cmd-decision-resumed = game { $id } goes on
cmd-decision-give = give --result RESULT or --resume
cmd-set-pgn-on = game { $id }: each move message from now on carries the game as PGN
cmd-set-pgn-off = game { $id }: move messages carry no PGN from now on
cmd-set-give = nothing to change in game { $id }: give at least one of --opponent, --arbiter, --lang, --notation, --control, --rules, --event, --start, --last-sent, --attach-pgn
cmd-set-nothing = game { $id }: nothing to change
cmd-set-none = (none)
cmd-set-changed = game { $id }: { $field } { $old } → { $new }
cmd-set-clock = clocks before: { $before }; now: { $after }
cmd-set-clock-same = the clocks do not change: { $now }
cmd-set-clock-both = White { $white }, Black { $black }
cmd-set-clock-side = { $total } days of { $limit } by move { $at }, { $left } left
cmd-set-last-sent-not-ours = --last-sent is the date our last move was sent: in game { $id } the last move is not ours
cmd-set-last-sent-early = --last-sent is before the game's start ({ $start })
cmd-delete-confirm = Remove game { $id } ({ $event }: { $white } – { $black }) with its { $moves } moves and { $messages } letters? Nothing is sent.
cmd-delete-give-yes = removing game { $id } removes its moves and mail for good: give --yes (export it first to keep them)
cmd-delete-kept = game { $id } is kept
cmd-delete-done = game { $id } removed, with its { $messages } letters
cmd-archive-done = game { $id } archived: out of `ccmail games` and the daemon's chores; `ccmail games --all` lists it
cmd-archive-already = game { $id } is archived already

## ccmail game import

cmd-import-no-game = { $name }: there is no game in this PGN
cmd-import-label = { $name }, game { $n }
cmd-import-failed = { $label } can't be imported
cmd-import-note = game { $id }: { $note }
cmd-import-already = in the store already: nothing changed (its settings change with `ccmail game set { $id } …`)
cmd-import-illegal = move { $n } is not legal
cmd-import-colour = your colour: neither WhiteNA/BlackNA, your name nor who sent the mail say which side is yours; give --color white|black
cmd-import-opponent = the opponent's address: the file does not give it; give --opponent EMAIL
cmd-import-event = the event: the file does not name it; give --event NAME
cmd-import-start = the start date: the file does not give it; give --start YYYY-MM-DD
cmd-import-white = White's name: the file does not give it
cmd-import-black = Black's name: the file does not give it
cmd-import-friendly = no arbiter in the file or the flags: a friendly game, nothing is copied to an arbiter; if it is rated: ccmail game set { $id } --arbiter EMAIL
cmd-import-last-sent-unknown = the file does not say when your last move ({ $move }) was sent: until you give the date, no repeat (51.5.1) or silence deadline (51.5.3) is counted for this game: ccmail game set { $id } --last-sent YYYY-MM-DD
cmd-import-last-sent-ask = When did you send your last move ({ $move })? YYYY-MM-DD (empty: not known):

## ccmail init

cmd-init-wrote = wrote a starter config to { $path } (edit [player] first)
cmd-init-exists = config { $path } exists; left as it is
cmd-init-db = database { $path } is ready
cmd-init-authserv-id = your mail server writes its verdict on senders as { $found }: add [security] authserv_id = { $found } to { $file } (until then a partner's letter acts only with a legal move; anything else in it is held)
cmd-init-authserv-id-none = the newest mail names no server in Authentication-Results, so there is no [security] authserv_id to propose yet; `ccmail check` looks again
cmd-init-authserv-id-unread = could not look at the mailbox for [security] authserv_id: { $error }; `ccmail check` looks again

## ccmail plan

cmd-plan-none = Game { $id }: no plan.
cmd-plan-set = Game { $id }: your plan, { $line } (never sent; each reply goes when the move before it arrives, and any other move ends the plan).

## ccmail run (log lines)

cmd-run-stopping = stopping after the work in hand (a second signal quits at once)
cmd-run-second-signal = second signal: quitting now
cmd-run-starting = ccmail daemon starting
cmd-run-dumpable = the daemon could not be made non-dumpable (prctl PR_SET_DUMPABLE): { $error }

## ccmail service

cmd-service-no-home = HOME is not set
cmd-service-not-utf8 = { $path } is not UTF-8: systemd can't run it
cmd-service-bad-path = { $path }: a path with quotes, backslashes or % can't go into the unit as it is
cmd-service-no-exe = can't tell where this ccmail is
cmd-service-cant-create = can't create { $path }
cmd-service-cant-write = can't write { $path }
cmd-service-wrote = wrote { $path }
cmd-service-started = enabled and started: `ccmail service status` shows it, `journalctl --user -u ccmail` its log; `loginctl enable-linger $USER` keeps it running while you are logged out
cmd-service-not-started = not started: { $why }.
cmd-service-not-started-help = The unit is written; where there is a systemd user manager, `systemctl --user enable --now ccmail` starts it. Without systemd, start `ccmail run` when you log in (a desktop autostart entry, ~/.profile, or cron's @reboot).
cmd-service-removed = removed { $path }
cmd-service-nothing-to-remove = no unit at { $path }: nothing to remove
cmd-service-cant-remove = can't remove { $path }
cmd-service-not-installed = not installed: no unit at { $path } (`ccmail service install` writes it)
cmd-service-unit = unit: { $path }
cmd-service-state = state: { $state }
cmd-service-state-unknown = state unknown: { $why }
cmd-service-state-no-systemctl = state unknown: systemctl can't be run ({ $error })
cmd-service-no-systemctl = systemctl can't be run ({ $error }): is this a systemd system?
cmd-service-systemctl-failed = `systemctl --user { $args }` failed: { $why }
cmd-service-no-reason = no reason given

## ccmail oauth2 authorize, and the OAuth2 tokens

cmd-oauth2-imap-or-smtp = [imap.oauth2] or [smtp.oauth2]
# $which: [imap.oauth2], [smtp.oauth2] or cmd-oauth2-imap-or-smtp.
cmd-oauth2-no-table = { $path } has no { $which } table (with token_url, auth_url and client_id), so there is nothing to authorize
cmd-oauth2-note-refresh-cmd = note: { $section }.refresh_token_cmd is set, so ccmail takes the refresh token from that command, not from the token file written now
cmd-oauth2-open-url = Open this URL in a browser and allow access ({ $section }; waiting up to { $minutes } minutes):
cmd-oauth2-authorized = authorized: the refresh token is in { $path } (mode 0600)
cmd-oauth2-authorized-valid = authorized: the refresh token is in { $path } (mode 0600); the first access token is good for { $minutes } min
# Where `ccmail check` got a token.
cmd-oauth2-from-token-cmd = from { $section }.oauth2_token_cmd
cmd-oauth2-from-refresh = from { $url } (client { $client })
cmd-oauth2-from-refresh-until = from { $url } (client { $client }), good until { $date } { $time } UTC
cmd-oauth2-no-refresh-token = [{ $section }] has no refresh token yet (no token file { $path }): run `ccmail oauth2 authorize --{ $flag }` once
# Follows "; " at the end of a refusal.
cmd-oauth2-consent-again = run `ccmail oauth2 authorize --{ $flag }` to consent again
# $what in the token endpoint's errors.
cmd-oauth2-refreshing = refreshing the access token
cmd-oauth2-exchanging = exchanging the authorization code
cmd-oauth2-new-refresh-token = the token endpoint sent a new refresh token, which ccmail cannot keep with { $section }.refresh_token_cmd; the old one is used until it expires
cmd-oauth2-refreshed = OAuth2 access token refreshed
cmd-oauth2-token-failed = getting an OAuth2 token failed: { $error }
cmd-oauth2-no-auth-url = { $section }.auth_url is not set in { $path }: the consent needs the provider's authorization URL
cmd-oauth2-cannot-listen = cannot listen on 127.0.0.1 for the redirect: { $error }
cmd-oauth2-no-refresh-granted = the provider granted access but sent no refresh token, so ccmail could not log in again later: ask for offline access in { $section }.scope (Microsoft: offline_access)
cmd-oauth2-no-answer = no answer from the browser within { $minutes } minutes: run the command again
cmd-oauth2-wrong-state = ignored a request to the redirect address with another state than was sent (not the answer to this consent); still waiting for the browser
cmd-oauth2-page-wrong-state = not the answer to ccmail's request: ignored
cmd-oauth2-consent-refused = the provider refused the consent: { $error } { $why }
# The browser's page after the redirect.
cmd-oauth2-page-ok = ccmail has the authorization. You may close this page.
cmd-oauth2-page-failed = ccmail did not get the authorization: see the terminal.
cmd-oauth2-page-not-here = not here
cmd-oauth2-no-randomness = no randomness: { $error }
# The token endpoint: "{ $what }: { $url } " and one of the refusals after it.
cmd-oauth2-unreachable = { $what }: the token endpoint { $url } could not be reached: { $error }
cmd-oauth2-unreadable-answer = { $what }: reading the answer of { $url } failed: { $error }
cmd-oauth2-no-access-token = answered without an access token
cmd-oauth2-http-status = answered HTTP { $status }
cmd-oauth2-refused-grant = refused the grant (it was revoked or has expired)
cmd-oauth2-refused-client = refused the client (client_id or its secret)
cmd-oauth2-refused-scope = refused the scope
cmd-oauth2-busy = is busy
cmd-oauth2-refused = refused
# Token file
cmd-oauth2-file-unreadable = cannot read the token file { $path }: { $error }
cmd-oauth2-file-foreign = the token file { $path } is not ccmail's: { $error }
cmd-oauth2-file-unwritable = cannot write the token file { $path }: { $error }
