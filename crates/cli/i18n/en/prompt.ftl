# The `reply` prompt: its help, what is wrong with a typed line, a move that does not fit.

## Help (`help` at the prompt): each line ≤ 80 columns; the left column's width is the code's.
prompt-help-intro = Type your move in any notation ccmail reads: 7163, Nf3, Кf3, g1-f3 or g1f3.
prompt-help-after-move = On the same line, after the move, you may add:
prompt-help-more-moves-term = more moves
prompt-help-more-moves = a conditional variation: their reply, yours, … (51.3.7)
prompt-help-draw = offer a draw with the move
prompt-help-plan-term = plan MOVES
prompt-help-plan = your private plan: their expected move, your reply, … (not sent)
prompt-help-note-term = note TEXT
prompt-help-note = a note for your partner (the rest of the line)
prompt-help-their-variation = Their variation: type its moves, then your reply, or `accept MOVE` (all of it)
prompt-help-their-variation-part = or `accept N MOVE` (its first N half-moves, then MOVE).
prompt-help-shown = The message is then shown exactly as it will be sent:
prompt-help-answers = y sends it, e edits the line, c cancels (nothing is queued).
prompt-help-other-commands = Other commands:
prompt-help-accept = accept your partner's draw offer (no move; may take a note)
prompt-help-resign = resign the game (asks again; may take a note)
prompt-help-skip = leave this game for now and go to the next one
prompt-help-board = show the game again;  moves   every move with its dates
prompt-help-help = this text
prompt-help-quit = stop (Ctrl-D too); what you confirmed stays sent or queued
prompt-help-russian = In Russian: ничья, замечание, план, принимаю, сдаюсь, пропуск, выход.
prompt-help-keys = Tab completes legal moves; Up and Down recall earlier lines.

## What is wrong with a typed line.
prompt-note-text-after = the note's text goes after the word: e.g. `e5 note Thank you`
prompt-takes-no-note = `{ $word }` takes no note
prompt-plan-moves-after = the plan's moves go after the word: e.g. `e5 plan Nf3 Nc6`
prompt-goes-before-plan = `{ $word }` goes before `plan`
prompt-command-of-its-own = `{ $typed }` is a command of its own: type just `{ $word }`
prompt-accept-first = `accept` comes first: `accept` alone accepts their draw offer, `accept MOVE` their variation and replies MOVE
prompt-resign-alone = `resign` goes without a move: type just `resign` (or `resign note TEXT`)
prompt-accept-alone = `accept` goes without a move: type just `accept` (or `accept note TEXT`)
prompt-plan-needs-move = a plan goes with a move: e.g. `e5 plan Nf3 Nc6`
prompt-draw-needs-move = a draw offer goes with a move: e.g. `e5 draw`; `accept` accepts theirs
prompt-note-needs-move = a note goes with a move, `accept` or `resign`: e.g. `e5 note Thank you`
prompt-unknown-word-did-you-mean = `{ $typed }` is not a move or a command; did you mean `{ $word }`? (`help` lists them)
prompt-unknown-word = `{ $typed }` is not a move or a command (`help` lists them)

## A move that does not fit the position: what was probably meant. `$role` is pawn, knight,
## bishop, rook, queen or king; `$reason` is the move reader's own words, in the interface's language.
prompt-not-playable = { $typed } is not playable: { $reason }.
prompt-write = Write { $moves }.
prompt-or = { $first } or { $last }
prompt-list-more = { $moves } and { $count } more
prompt-in-check = Your king is in check.
prompt-no-such-piece = You have no { $role }.
prompt-reaches-but-check = The { $role } on { $square } reaches { $to }, but that does not answer the check.
prompt-pinned = The { $role } on { $square } is pinned: going to { $to } would leave your king in check.
prompt-piece-on-can-go = The { $role } on { $square } can go: { $moves }.
prompt-piece-on-stuck = The { $role } on { $square } can't move.
prompt-pawns-near-can-go = Your pawns near the { $file }-file can go: { $moves }.
prompt-pawns-near-stuck = Your pawns near the { $file }-file can't move.
prompt-pawns-can-go = Your pawns can go: { $moves }.
prompt-pawns-stuck = Your pawns can't move.
prompt-your-piece-can-go = Your { $role } can go: { $moves }.
prompt-your-piece-stuck = Your { $role } can't move.
prompt-your-pieces-can-go = Your { $role }s can go: { $moves }.
prompt-your-pieces-stuck = Your { $role }s can't move.
prompt-moves-to = Moves to { $square }: { $moves }.

## One game's screen. The columns' widths are the code's.
prompt-your-move = Your move: { $number } as { $side ->
    [white] White
   *[black] Black
}, against { $opponent }
prompt-column-move = Move
prompt-column-received = received
prompt-column-sent = sent
prompt-column-days = days
prompt-no-moves-start = No moves yet (start { $start }).
prompt-deadline = Deadline { $date }: { $words }
# A clock line: `White (you): 14 of 60 days by move 20 (2 penalty): 46 left, 3 running on this move, on a break`.
prompt-clock-you = { $side } (you)
prompt-clock-used = { $total } of { $limit } days by move { $control }
prompt-clock-penalty = ({ $penalty } penalty)
prompt-clock-left = { $left } left
prompt-clock-running = { $days } running on this move
prompt-clock-on-break = on a break

## What the partner's last message said beyond the move, and what the reply will say.
prompt-news-draw-offer = They offer a draw: `accept` accepts it; a move declines it.
prompt-news-variation = They offer the variation { $variation } (51.3.7): to accept it, type its moves and then your reply, or `accept MOVE` (all of it, then MOVE), or `accept N MOVE` (its first N half-moves).
# The dates of their message, in brackets after "Their note" and "Their message" ($when).
prompt-news-sent-received = (sent { $sent }, received { $received })
prompt-news-received = (received { $received })
prompt-news-their-note = Their note{ $when }: { $note }
prompt-news-repeat-arbiter = Their message{ $when } was a repeat (51.5.1): your answer goes Cc the arbiter.
prompt-news-repeat-friendly = Their message{ $when } was a repeat (51.5.1): a friendly game: your answer goes to the partner only.
prompt-news-totals-differ = They count the totals as White { $their_white }, Black { $their_black }; ccmail counts White { $white }, Black { $black } (your reply states ccmail's).
# $note: what the reply will say, in the game's language.
prompt-news-reply-will-say = Your reply will say: { $note }
prompt-news-reply-cc-arbiter = Your reply goes Cc the arbiter (an answer to a repeat, 51.5.1).
prompt-news-held = Held for this game: message { $id } ({ $reason }): `ccmail inbox`.
prompt-news-on-break = They are on a break until { $to }: those days are not charged to them.
prompt-news-break-ahead = They will take a break from { $from } to { $to }.

## The prompt's session: its start, the held messages, the questions, the end.
prompt-no-json = `ccmail reply` is interactive and has no --json form; see `ccmail games --json`
prompt-no-terminal-stdin = `ccmail reply` is interactive and needs a terminal, but standard input is not a terminal (a pipe or a file?). From a script, list the games with `ccmail games` and play with `ccmail move GAME MOVE --yes`
prompt-no-terminal-stdout = `ccmail reply` is interactive and needs a terminal, but standard output is not a terminal (a pipe or a file?). From a script, list the games with `ccmail games` and play with `ccmail move GAME MOVE --yes`
prompt-no-terminal-either = `ccmail reply` is interactive and needs a terminal, but neither standard input nor standard output is a terminal (a pipe or a file?). From a script, list the games with `ccmail games` and play with `ccmail move GAME MOVE --yes`
# The games that wait for the partner's reply ($others below), after the count of ours.
prompt-others-waiting = ; { $count ->
    [one] 1 game awaits a reply
   *[other] { $count } games await replies
}
prompt-others-more = ; { $count ->
    [one] 1 more awaits a reply
   *[other] { $count } more await replies
}
prompt-nothing-to-answer = { $today }: nothing to answer{ $others }.
prompt-games-to-answer = { $today }: { $count ->
    [one] 1 game to answer
   *[other] { $count } games to answer, most urgent first
}{ $others }.
prompt-type-your-move = Type your move at the prompt; `help` lists the commands.
prompt-held-head = { $count ->
    [one] 1 message is held, not applied to any game (`ccmail inbox`):
   *[other] { $count } messages are held, not applied to any game (`ccmail inbox`):
}
prompt-held-no-sender = (no sender)
prompt-held-no-reason = held
prompt-held-more = … and { $count } more
prompt-no-line-editing = can't set up line editing
prompt-reading-line = reading the line
prompt-reading-answer = reading the answer
prompt-no-longer-your-move = Game { $game }: no longer your move (new mail?); next.
# The questions end in a blank, which the code adds.
prompt-confirm-resign = Resign this game? Type yes to send it, e to edit, c to cancel:
prompt-confirm-send = Send it? y(es), e(dit), c(ancel):
prompt-confirm-resign-again = Type yes to resign, e to edit, c to cancel.
prompt-confirm-send-again = y sends it, e edits the line, c cancels.
prompt-stored-for-later = The message is stored in the outbox and will be sent later.
prompt-cancelled = Cancelled: nothing was queued.
prompt-not-a-message = Not a message to send: back to the game.
prompt-no-moves = No moves yet.
prompt-move-dates = received { $received }  sent { $sent }
prompt-done = Done: { $sent } answered, { $skipped } skipped.
prompt-done-stopped = Done: { $sent } answered, { $skipped } skipped; stopped with { $count ->
    [one] 1 game
   *[other] { $count } games
} still to answer.
