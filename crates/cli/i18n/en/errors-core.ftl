# errors-core
# The core crate's errors: each text is the error's own English, byte for byte.

# $text: the date as typed, in quotes.
err-core-date = { $text } is not a date (YYYY-MM-DD or DD.MM.YYYY)

## Breaks. $existing and $span: a break's days, "01.07.2026–10.07.2026".
err-core-break-reversed = a break cannot end ({ $to }) before it starts ({ $from })
err-core-break-overlaps = the break overlaps the break { $existing } already taken
err-core-break-over-allowance = { $year }: { $used } break days already taken, { $asked } more asked, at most { $allowed } a year (51.7.1)
err-core-break-second-in-year = { $year } already has its one break { $existing } (10.4.1)
err-core-break-too-long = a break of { $days } days is longer than the { $allowed } days allowed (10.4.1)
err-core-break-not-early = the break { $span } is over by { $back_on }: nothing to end early

## A game's clock history that can't be counted.
err-core-clock-sent-before-received = ply { $ply }: sent { $sent } before the previous move was received { $received }
err-core-clock-bad-variation = variation proposed with ply { $proposed_with } and accepted through ply { $accepted_through } does not fit the plies made or overlaps another
err-core-clock-no-such-ply = recorded at ply { $ply }, but only plies 1 to { $last } exist or are awaited
err-core-clock-reversed-period = a charged period cannot end ({ $to }) before it starts ({ $from })

## Accepting a partner's variation, and a conditional plan.
err-core-accept-no-reply = the accepted moves end with your partner's move: your reply must follow them (an accepted variation with no reply counts as illegible, 51.3.9)
err-core-accept-out-of-range = the variation offered has { $len } half-moves: { $asked } can't be accepted
err-core-accept-extra-reply = the first { $asked } half-moves of the variation end with your own move, which is then your reply: give no other move
err-core-accept-empty = no move given
err-core-plan-too-short = a plan is your partner's expected move and your reply, then the next pair, …: give at least two moves
err-core-plan-no-reply = the plan ends with a move of your partner's: add your reply to it, or leave it out

## A game that can't be written as PGN.
err-core-pgn-illegal-move = move { $ply } of the game is not legal in its position
err-core-pgn-illegal-variation = the variation from move { $ply } has a move that is not legal in its position
err-core-pgn-variation-too-far = a variation starts at move { $ply }, but the game has only { $len } moves

# A move that could not be read: $text as written, $reason why.
err-core-move = { $text }: { $reason }

## A new or imported game's header and addresses.
err-core-setup-no-event = the competition's name is empty (51.2.2); give --event NAME
err-core-setup-no-white = White's name is empty (51.2.2)
err-core-setup-no-black = Black's name is empty (51.2.2)
err-core-setup-opponent-is-me = the opponent's address { $email } is your own ([player] email); give --opponent EMAIL
err-core-setup-arbiter-is-me = the arbiter's address { $email } is your own ([player] email); give --arbiter EMAIL
err-core-setup-arbiter-is-opponent = the arbiter's address { $email } is the opponent's; give --arbiter EMAIL

## Import. $error in err-core-import-unreadable: the PGN reader's own words; in
## err-core-import-unplayable: err-core-move.
err-core-import-unreadable = the PGN can't be read after game { $after }: { $error }
err-core-import-unplayable = game { $game } of the PGN ({ $white } – { $black }): move { $text } can't be played: { $error }
err-core-import-no-move = no message in it carries a move of a game

## A name that is not one of the known ones, in quotes.
err-core-end-reason = { $name } is not a way a game ends
err-core-notation = unknown notation { $name } (expected numeric, san, san-ru, lan or uci)
err-core-profile = unknown rules profile { $name }: expected article51 or postal104
err-core-control = bad time control { $text }: expected MOVES/DAYS, both at least 1, e.g. 10/60
err-core-penalty-cause = { $name } is not a penalty cause
err-core-language = unknown language { $name } (expected ru or en)
