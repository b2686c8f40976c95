# daemon

## The daemon (`ccmail run`): its log and its errors.

daemon-no-imap = no [imap] in the config: no mail is read
daemon-no-smtp = no [smtp] in the config: queued messages stay in the outbox
daemon-chores-failed = the rules' chores failed (tried again on the next pass): { $errors }
daemon-run-needs-imap = `ccmail run` needs an [imap] section in the config (host, username and a password): see `ccmail init` and config/ccmail.example.toml
daemon-nudge-unavailable = can't listen on { $path }: { $error }; the outbox is looked at every { $secs } s instead
daemon-stopped = stopped
daemon-reconnecting = { $error }; connecting again in { $secs } s
# A failure that lasted 15 minutes: logged once at error level (on_error runs).
daemon-imap-outage = the mail server (IMAP) has failed for { $minutes } min: { $error }; still trying, next in { $secs } s
daemon-imap-recovered = the mail server (IMAP) works again, after { $minutes } min of failures
daemon-smtp-outage = letters have not gone out for { $minutes } min: { $count } wait(s) to go, the last error: { $error }; still trying (`ccmail outbox` lists them)
daemon-smtp-recovered = letters go out again, after { $minutes } min of failures
# An error that ends the daemon (on_error runs before it exits).
daemon-fatal = the daemon stops: { $error }
daemon-imap-connected = IMAP connected as { $user }
daemon-copies-failed = copies of sent mail: { $error }; trying again later
daemon-reader-failed = the reader failed on a message; it is left alone
daemon-heads-failed = looking at large messages by their heads failed ({ $error }); connecting again to fetch them whole
daemon-search-failed = the server can't search the mail's text ({ $error }); fetching all of it instead
daemon-uidvalidity-changed-while-read = the mailbox's UIDVALIDITY changed while it was read
daemon-filter-thread-failed = the mail filter's thread failed
daemon-uidvalidity-changed = UIDVALIDITY changed: reading the mailbox again
daemon-reading-since = reading the mail received since { $day }
daemon-reading-new-only = no start date (first_sync_since) and no game: only new mail will be read
daemon-applying-uid = applying the message with UID { $uid }
daemon-progress-reading = reading { $mailbox }
daemon-pass-died = the last pass died while it read the mail after UID { $uid } (a crash or a memory limit): reading one message at a time, each tried at most twice
daemon-tries-not-recorded = the tries at a failed message could not be recorded: { $error }
daemon-held-died = the daemon died while it read it (a crash or a memory limit)
daemon-held-failed = not read: it failed { $tries } tries ({ $error }); the whole message stays in the mailbox
daemon-panicked = reading the message with UID { $uid } panicked: { $why }
daemon-hook-cant-start = hook { $name }: { $program } can't be started: { $error }
daemon-hook-failed = hook { $name } ({ $program }) failed: { $status }
daemon-hook-error = hook { $name } ({ $program }): { $error }
daemon-hook-timeout = hook { $name } ({ $program }) still ran after { $secs } s: stopped
daemon-hook-game-failed = hook on_{ $kind }: game { $game }: { $error }
daemon-no-such-game = no such game
daemon-hook-sent-failed = hook on_sent: message { $message }: { $error }
# CCMAIL_TEXT of `sent`: the subject of the message sent.
daemon-hook-sent-text = sent: { $subject }
# CCMAIL_TEXT of `deadline`; $kind is the deadline's code (repeat, arbiter_cc, silence_40, claim, correction).
daemon-hook-deadline-text = game { $game }: { $kind } deadline { $days ->
        [0] today
        [1] tomorrow
       *[other] in { $days } days
    }, { $date }
daemon-outbox-error = outbox: { $error }
daemon-smtp-answers-again = the SMTP server answers again: sending { $count } waiting message(s)
daemon-hook-deadline-failed = hook on_deadline: { $error }
# A chore's message queued: $what is one of the app-chore-… lines.
daemon-chore-queued = { $what } (queued)
daemon-chores-error = chores: { $error }

## The app layer: applying mail, the rules' chores, plans, sending.

app-outbox-sent = sent
app-outbox-retry = send failed; will retry
app-outbox-failed = send failed for good
app-send-lock-trouble = can't open the send lock { $path }: { $trouble } ({ $error })
app-send-lock-cant-open = can't open the send lock { $path }
app-send-lock-held = another ccmail has been sending for { $minutes } minutes (the send lock { $path } is held): try again later
app-cant-lock = can't lock { $path }
app-outbox-orphan = left in flight by a sender that stopped mid-send: sending it again (same Message-ID)
# A line about one game: $what is said of it (an error, or what a message did).
app-game-said = game { $game }: { $what }
app-chores-of-game-failed = the chores of game { $game } failed: { $error }; nothing of them was kept, the other games' chores go on
app-chore-pgn = game { $game }: the finished game sent to the arbiter as PGN (51.9.1)
app-chore-correction = game { $game }: correction requested (51.3.4)
app-chore-repeat-cc = game { $game }: our move repeated, Cc the arbiter (51.5.1)
app-chore-repeat-friendly = game { $game }: our move repeated, to the partner only: a friendly game has no arbiter (51.5.1)
# A message's preview before it goes: the header lines.
app-preview-to = To: { $to }
app-preview-cc = Cc: { $cc }
app-preview-subject = Subject: { $subject }
app-preview-attached = Attached: { $file } ({ $mime })
# $status is the game's stored status: active, suspended or finished.
app-plan-game-not-active = game { $game } is { $status }: there is nothing to plan
app-plan-your-move = it is your move in game { $game }: a plan starts with your partner's next move, so set it once your move is sent (at the prompt, `e5 plan Nf3 Nc6` sends e5 and sets the plan)
app-in-the-plan = in the plan
app-planned-reply = the planned reply { $reply }
app-plan-played-done = game { $game }: your planned reply { $reply } to { $theirs }; the plan is done
app-plan-played-goes-on = game { $game }: your planned reply { $reply } to { $theirs }; the plan goes on: { $rest }
app-plan-ended-no-fit = game { $game }: your plan ended: it no longer fits the game's moves
app-plan-ended-deviated = game { $game }: your plan ended: { $played } was played, not the planned { $planned }; the move is yours
app-plan-ended-draw-offered = game { $game }: your plan ended: your partner offers a draw with the expected move; the answer is yours
app-plan-ended-not-going-on = game { $game }: your plan ended: the game is { $status }
app-plan-ended-done = game { $game }: your plan ended: every planned reply was played
# What became of an incoming message, in one line.
app-outcome-duplicate = message { $message } was already stored; nothing changed
app-outcome-held = held as message { $message } (see `ccmail inbox`): { $reason }
app-no-game = there is no game { $game }
app-game-vanished = game { $game } vanished
app-no-message = there is no message { $message }
# $status is the message's stored status: applied, held, dismissed, info, queued or sent.
app-message-not-held = message { $message } is not held (it is { $status })
app-message-from-us = message { $message } is from our own address: it can't be the partner's
# What ties a held message to a game (`inbox accept`), joined with "; ".
app-tie-thread = it answers a message of this game's correspondence
app-tie-header = its game header names this game's event and players
app-tie-other-header = its game header names another event or other players
app-tie-record = its record of { $count } half-moves is this game's
# $ties: empty, or ": " and the ties.
app-match-not-on-file = Message { $message } is from { $from }, not from { $address }, the address on file for game { $game }.
app-match-weak = It matches the game weakly: check it is really your partner{ $ties }.
app-match-none = It matches the game not at all: nothing in it names this game.
app-match-in-part = It matches the game in part{ $ties }.
app-match-strong = It matches the game strongly{ $ties }.
app-match-accepting = Accepting it makes { $from } the game's opponent address (51.1.2).
app-by-eye-your-move = it is your move in game { $game }: there is no move of the partner's to apply
app-by-eye-not-a-move = { $text } is not a move in game { $game }: { $reason }
app-fine-no-game = message { $message } is not matched to a game: name it with --game
app-fine-nothing-awaited = game { $game } awaits no move of the partner's: there is nothing to fine
# Why a message is held (stored with it, shown by `ccmail inbox`).
app-fined-by-player = fined by the player: { $reason }
app-held-not-processed = not processed yet
app-held-unreadable = unreadable: { $why }
app-held-no-from = the message has no From address
app-held-from-us = the message is from our own address
app-held-envelope-sender = the envelope sender { $sender } is not the From address { $from }
app-held-not-on-file = it looks like game { $game } but comes from { $from }, not the address on file { $address } (51.1.2: accept it with `ccmail inbox accept { $message } --game { $game }`)
app-held-several-games = it fits several games with { $from }: { $games }
app-held-no-game = no game with { $from } matches it
app-held-delivery-report = a delivery failure notice from { $from }: a message of ours may not have reached its recipient. Read it, and check the partner's address
app-held-auto-reply = an automatic reply from { $from } (an absence notice or the like), not a letter of the game's
app-held-list = a mailing list's or bulk mail from { $from }, not a letter of the game's
app-held-game-finished = the game is finished
app-held-unverified = unverified sender: { $why }. Apply it once with `ccmail inbox accept { $message } --game { $game }`, or add --trust to trust { $from } in this game without verification
app-held-forged = forged sender: { $why }. Apply it with `ccmail inbox accept { $message } --game { $game }` only if you know { $from } sent it
app-held-fault = { $what }; { $days } penalty days recorded (51.4.7)
# What a message without a move did besides (kept with it, for `show`).
app-no-break-to-end = no break of theirs was on file to end
app-new-address-ours = the new address { $address } is not taken: it is the player's own
app-new-address-arbiter = the new address { $address } is not taken: it is the game's arbiter's
app-repeat-queued = our last move is queued again, marked as a repeat
# Composing our message: what can't be sent.
app-no-offer-to-accept = there is no variation offered by your partner in game { $game } to accept
app-variation-needs-move = a variation goes with a move
app-no-move-given = no move given
app-in-the-variation = in the variation
app-move-goes-to-partner = a move always goes to the partner
app-cant-build-message = can't build the message
app-send-game-not-active = game { $game } is { $status }: nothing can be sent in it
app-no-draw-offer-but-variation = there is no draw offer from the opponent in game { $game } to accept; their variation is accepted with a reply: `accept MOVE` at the prompt, `ccmail move { $game } --accept-variation MOVE`
app-no-draw-offer = there is no draw offer from the opponent in game { $game } to accept
# $color: white or black, the side to move.
app-not-your-move = it is not your move in game { $game }: { $color } is to move
app-plan-needs-move = a plan goes with a move
app-now-before-received = --now { $sent } is before { $received }, when the move we answer arrived
app-now-not-a-date = --now { $text } is not a date (YYYY-MM-DD or DD.MM.YYYY) or an RFC 3339 time (2026-03-08T21:00:00+03:00)
app-no-noon = noon of { $date } does not exist in { $tz }
