# listing
# `ccmail games` and `ccmail show`: the games listed, one game shown, how a game ended.

## games

games-none = No games. `ccmail game new --help` makes one.
# The turn column of a listed game (10 columns wide).
games-finished = finished { $result }
games-suspended = suspended
games-your-move = YOUR MOVE
games-their-move = their move
# Our colour in a listed game.
games-white = white
games-black = black
# "move 12", "left W 20 B 18": the words of a listed game's columns.
games-move = move
games-left = left
games-white-initial = W
games-black-initial = B
games-held = { $count } held message(s) of this game wait for you: `ccmail inbox`
games-not-sent = not sent: { $subject } ({ $error })
games-waiting = waiting to go: { $subject }: { $count ->
    [one] one failed try
   *[other] { $count } failed tries
}, the last: { $error }; next try { $next } (`ccmail outbox`)
games-silence-friendly = no move for { $count } days: a friendly game, no arbiter to tell on day 40 ({ $date }) (51.5.3)
games-silence = no move for { $count } days: on day 40 ({ $date }) the game can be lost by the side that has not told the arbiter (51.5.3)

## show

show-no-game = there is no game { $id } (see `ccmail games --all`)
show-friendly-repeat = Friendly game: no arbiter; the repeat of { $date } went to the partner only (51.5.1)
show-friendly-repeat-queued = Friendly game: no arbiter; the repeat of { $date } waits to go, to the partner only (51.5.1)
show-friendly-finished = Friendly game: no arbiter; the finished game went to no arbiter (51.9.1)
show-letters = Letters that were not moves:
show-changes = Changes to the game:
show-last-sent-unknown = the date our last move was sent is not known: no repeat or 40-day deadline is counted until it is given: ccmail game set { $id } --last-sent YYYY-MM-DD
# What a letter of the partner's was.
show-kind-move = move
show-kind-repeat = repeat
show-kind-draw-accept = draw accept
show-kind-resignation = resignation
show-kind-break-notice = break notice
show-kind-break-end = break end
show-kind-address-change = address change
show-kind-correction-request = correction request
show-kind-claim = claim
show-kind-adjudication = adjudication
show-kind-note = note
show-kind-other = other
show-problems = Problems:
show-problem-held = message { $message } is held: { $reason }
show-problem-send-failed = message { $message } could not be sent: { $error }
show-problem-send-waiting = message { $message } waits to go: { $count ->
    [one] one failed try
   *[other] { $count } failed tries
}, the last: { $error }; next try { $next }
show-problem-correction-due = a correction request is owed for the message received { $date } (51.3.4)
show-problem-overstepped = { $side } overstepped the time control at move { $move } (51.6)
show-offer = They offer the variation { $line } (51.3.7): `ccmail move { $id } --accept-variation[=N] MOVE` accepts it, all of it or its first N half-moves, then replies MOVE.
# One step of our plan: their expected move, our answer.
show-plan-pair = if { $theirs } then { $ours }
show-plan = Your plan (not sent): { $plan }.
show-draw-mine = You offered a draw; the partner has not answered it yet
show-draw-theirs = The partner offers a draw: `ccmail move { $id } --accept-draw` accepts it; a move without it declines it
# What we may do when the partner overstepped (the end of show-warning-overstepped).
show-claim-win = you may claim a win on time (`ccmail claim { $id }`), no later than your reply: answering without it gives up the right to claim (51.6.1)
show-claim-friendly = a friendly game has no arbiter to claim to (51.6.1)
show-warning-overstepped-mine = You went over the time limit with your move { $move }: the partner may claim a win on time with his reply (51.6.1)
show-warning-overstepped = { $side } went over the time limit with move { $move }: { $claim }
# $days: a count of days ("3 days").
show-warning-will-overstep-mine = You are { $days } over the limit of your move { $move }: you will overstep the control with it (51.4.3)
show-warning-will-overstep = { $side } is { $days } over the limit of move { $move }: the control will be overstepped with it (51.4.3)
show-warning-last-day-mine = No day left before your move { $move }: sent today it keeps within the limit, sent later it does not (51.4.3)
show-warning-last-day = { $side } has no day left before move { $move } (51.4.3)
show-warning = Warning: { $text }
# $rules: the rules profile (article51, postal104); $moves/$days: the time control.
show-heading = { $id } — { $event }: { $white } – { $black }   (started { $start }, { $rules }, control { $moves }/{ $days })
# $color: white or black, as the game stores it.
show-you-play-arbiter = You play { $color } against { $opponent }; arbiter { $arbiter }.
show-you-play-friendly = You play { $color } against { $opponent }; a friendly game: no arbiter.
show-trusted = Trusted without verification: { $addresses }.
show-finished-why = Finished: { $result } ({ $why })
show-finished = Finished: { $result }
show-suspended = Suspended: a time-forfeit claim awaits the arbiter
show-your-move = Your move
show-waiting = Waiting for the partner's move
show-before-ccmail = before ccmail kept the game
show-move-dates = received { $received }  sent { $sent }  { $count } day(s)
show-days-used = Days used by then: White { $white }, Black { $black }
# $days: a count of days ("12 days"); the other values are numbers of days.
# $on_break: "yes" while the side is on a break.
show-clock = { $side }: { $days } + { $penalty } penalty = { $total } of { $limit } by move { $control }; { $left } left{ $on_break ->
    [yes] {" "}(on a break)
   *[no] {""}
}
show-running = Running on the move awaited: { $count } day(s)
show-deadlines = Deadlines:
# After a deadline met by a repeat already sent.
show-deadline-sent = — sent
show-deadline-queued = — queued, not sent yet
show-deadline-repeat = repeat our move, Cc the arbiter (51.5.1)
show-deadline-repeat-friendly = repeat our move to the partner only: no arbiter (51.5.1)
show-deadline-arbiter-cc = 5 days or fewer left: mail goes Cc the arbiter (51.4.10)
show-deadline-arbiter-cc-friendly = 5 days or fewer left: no arbiter to copy (51.4.10)
show-deadline-silence = 40 days without a move (51.5.3)
show-deadline-silence-friendly = 40 days without a move: no arbiter to tell (51.5.3)
show-deadline-claim = last day to claim a time forfeit (51.6.1)
show-deadline-claim-friendly = time control overstepped: no arbiter to claim to (51.6.1)
show-deadline-correction = ask for a correction (51.3.4)
show-deadline = deadline

## How a finished game ended ($side: White or Black)

show-ending-checkmate = Checkmate
show-ending-stalemate = Stalemate
show-ending-insufficient-material = Draw by insufficient material
show-ending-resignation = { $side } resigns
show-ending-agreement = Draw agreed
show-ending-time-forfeit = { $side } lost on time
show-ending-adjudication = Decided by the arbiter

## A game that cannot be read

show-not-a-colour = { $name } is not a colour (white or black)
show-move-does-not-replay = move { $ply } ({ $uci }) of { $game } does not replay
show-game-in-database = game { $game } in the database
show-clock-of-game = the clock of game { $game }

## outbox

outbox-empty = Nothing waits to go, and nothing failed. `ccmail outbox --all` lists what was sent too.
outbox-empty-all = The outbox is empty: no letter was queued yet.
# The columns of `ccmail outbox`.
outbox-column-id = ID
outbox-column-game = GAME
outbox-column-kind = KIND
outbox-column-state = STATE
outbox-column-queued = QUEUED
outbox-column-to = TO
# After a letter's To addresses.
outbox-cc = (Cc { $addresses })
outbox-state-queued = queued
outbox-state-retrying = retrying
outbox-state-failed = failed
outbox-state-sent = sent
outbox-detail-queued = not tried yet (due { $next }): the daemon (`ccmail run`) sends it, or the next command that sends
outbox-detail-retrying = { $count ->
    [one] one failed try
   *[other] { $count } failed tries
}, the last: { $error }; next try { $next }
outbox-detail-failed = failed for good, not tried again: { $error }
outbox-detail-sent = sent { $at }
