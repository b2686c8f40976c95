# help
# The command line's help (`ccmail --help`, `ccmail COMMAND --help`), the man page and the
# shell completions. Keys: `about-` and the command's path for a command (`about-game-new`;
# `-long` after it for the longer text `--help` shows where `-h` shows the first), `help-`,
# the path and the argument for an argument (`help-game-new-event`). A text ends without a
# full stop where `-h` shows it in a list.

# The help's headings and clap's own flags.
help-heading-usage = Usage:
help-heading-commands = Commands:
help-heading-arguments = Arguments:
help-heading-options = Options:
help-flag-help = Print help
help-flag-help-more = Print help (see more with '--help')
help-flag-help-summary = Print help (see a summary with '-h')
help-flag-version = Print version
# clap's own `help` subcommand, in each command that has subcommands.
# The notes after an argument's help: the variable it may come from, the values it takes.
help-note-env = [env: { $name }=]
help-note-values = [possible values: { $values }]
help-subcommand = Print this message or the help of the given subcommand(s)
help-subcommand-arg = Print help for the subcommand(s)

## A mistake on the command line (exit status 2): clap's messages.

clap-error = error: { $message }
clap-unexpected-argument = unexpected argument '{ $arg }' found
clap-unrecognized-subcommand = unrecognized subcommand '{ $name }'
clap-invalid-value = invalid value '{ $value }' for '{ $arg }'
clap-invalid-value-because = invalid value '{ $value }' for '{ $arg }': { $why }
clap-possible-values = [possible values: { $values }]
clap-missing-required = the following required arguments were not provided:
clap-missing-subcommand = '{ $name }' requires a subcommand but one was not provided
clap-conflict = the argument '{ $arg }' cannot be used with '{ $other }'
clap-used-twice = the argument '{ $arg }' cannot be used multiple times
# $values: the suggestions, each in quotes, joined by commas.
clap-tip-argument = { $count ->
    [one] tip: a similar argument exists: { $values }
   *[other] tip: some similar arguments exist: { $values }
}
clap-tip-subcommand = { $count ->
    [one] tip: a similar subcommand exists: { $values }
   *[other] tip: some similar subcommands exist: { $values }
}
clap-tip-value = { $count ->
    [one] tip: a similar value exists: { $values }
   *[other] tip: some similar values exist: { $values }
}
clap-more-information = For more information, try '--help'.

about-ccmail = E-mail correspondence chess client: reads partners' move messages, keeps the rules' clocks, answers in the standard form
help-config = The config file [default: $XDG_CONFIG_HOME/ccmail/config.toml]
help-now = The clock for everything: YYYY-MM-DD or DD.MM.YYYY (noon local time), or an RFC 3339 time
help-json = Machine-readable output on stdout

about-folders = The IMAP server's folders, named as people read them, with which one is `mailbox` and which `sent_mailbox`
about-folders-long =
    The IMAP server's folders, named as people read them, with which one is `mailbox` and which `sent_mailbox`.

    Folder names in the config are written as you see them here, in any language ("Отправленные"); ccmail converts them to IMAP's modified UTF-7 on the wire. `--json`: an array of the names.

about-service = The systemd user unit that keeps `ccmail run` going across logins and reboots
about-service-install = Write the unit to ~/.config/systemd/user/ (running this ccmail, with --config when given), then enable and start it; without systemd, say what to do instead
about-service-uninstall = Stop and disable the unit, and remove it
about-service-status = Whether the unit is installed, and its state

about-completions = The shell completion script, on standard output
about-completions-long =
    The shell completion script, on standard output.

    bash: `ccmail completions bash > ~/.local/share/bash-completion/completions/ccmail`; zsh: into a folder of your $fpath as `_ccmail`; fish: `ccmail completions fish > ~/.config/fish/completions/ccmail.fish`.
help-completions-shell = The shell

about-manpage = The man page, ccmail(1), in roff on standard output (`ccmail manpage | man -l -`)

about-init = Write a commented starter config (if none exists) and create or migrate the database
about-init-long =
    Write a commented starter config (if none exists) and create or migrate the database.

    Safe to run twice: an existing config is never overwritten.

about-game = Games: `ccmail game new …` creates one

about-game-new = Create a game; prints its id
help-game-new-event = The competition's name (51.2.2)
help-game-new-start = Its official start date, YYYY-MM-DD or DD.MM.YYYY (51.4.5)
help-game-new-white = White's surname
help-game-new-black = Black's surname
help-game-new-color = Your colour: white or black
help-game-new-opponent = The opponent's e-mail address
help-game-new-arbiter = The arbiter's e-mail address; without it the game is a friendly one: nothing is copied to an arbiter, and the chores that need one say so instead
help-game-new-notation = numeric, san or san-ru [default: the config's]
help-game-new-lang = ru or en [default: the config's]
help-game-new-control = Time control, N moves / D days [default: the config's, else 10/60]
help-game-new-rules = article51 or postal104 [default: the config's]
help-game-new-attach-pgn = Attach the game so far as a PGN file to each move message, for a partner on Scid, cmail or ChessBase [default: the config's, else off]

about-game-import = Bring in games already under way: a PGN file (one game or many), a partner's last message (.eml) or an mbox of a game's mail. Prints the id of each game
help-game-import-file = The file, or - for standard input
help-game-import-color = Your colour, where the file does not say (WhiteNA/BlackNA, your name, who sent what)
help-game-import-opponent = The opponent's e-mail address, where the file does not give it
help-game-import-arbiter = The arbiter's e-mail address [default: the address the last message was copied to; none: a friendly game]
help-game-import-event = The competition's name, where the file does not give it
help-game-import-start = The official start date, YYYY-MM-DD or DD.MM.YYYY, where the file does not give it
help-game-import-control = Time control, N moves / D days [default: the file's, else the config's]
help-game-import-rules = article51 or postal104 [default: the config's]
help-game-import-notation = numeric, san or san-ru [default: the letter's, else the config's]
help-game-import-lang = ru or en [default: the letter's, else the config's]
help-game-import-encoding = The PGN file's charset: utf-8, windows-1251 or latin-1 [default: found by what the file holds]
help-game-import-last-sent = The date your last move was sent, where the file does not give it

about-game-decision = Record the arbiter's decision on a suspended game (51.6 claim, 51.9.4 adjudication): the result, or that play resumes. The 14-day protest window (51.6) starts that day
help-game-decision-game = The game's id
help-game-decision-result = The result the arbiter gave: 1-0, 0-1 or 1/2-1/2
help-game-decision-resume = The claim was rejected: play goes on

about-game-set = Change what a game was created or imported with. Each change is recorded in the game (`show` lists them); one that moves a clock says how
help-game-set-game = The game's id
help-game-set-opponent = The opponent's e-mail address
help-game-set-arbiter = The arbiter's e-mail address, or none for a friendly game
help-game-set-lang = The language of our letters: ru or en
help-game-set-notation = The notation of our letters: numeric, san or san-ru
help-game-set-control = Time control, N moves / D days
help-game-set-rules = article51 or postal104
help-game-set-event = The competition's name
help-game-set-start = The official start date, YYYY-MM-DD or DD.MM.YYYY
help-game-set-last-sent = The date our last move was sent, for a game imported without it
help-game-set-attach-pgn = Attach the game so far as a PGN file to each move message from now on

about-game-delete = Remove a game with all its moves and mail (export it first to keep them); asks first on a terminal, --yes otherwise
help-game-delete-game = The game's id
help-game-delete-yes = Remove it without asking

about-game-archive = Put a game away: out of `games` and the daemon's chores, kept whole; `games --all` lists it
help-game-archive-game = The game's id

about-games = Active games (all with --all), most urgent first
help-games-all = Finished games too

about-outbox = Letters waiting to go and those that failed, each with its tries, last error and next try (the sent ones too with --all)
help-outbox-all = The letters already sent too

about-show = A game: the board from your side, the moves with dates and days, both clocks, the deadlines and any problems
help-show-game = The game's id

about-move = Play your move: compose the standard-form message and send it (or queue it)
help-move-game = The game's id
help-move-mv = Your move, in any notation ccmail reads (5254, e4, Кf3, e2-e4, e2e4). With --accept-variation, your reply after the accepted moves. May be left out with --accept-draw, or when the accepted part of a variation ends with your own move
help-move-variation = A conditional continuation: the partner's reply, yours, … (51.3.7)
help-move-accept-variation = Accept the variation your partner offered (51.3.7): all of it, or its first N half-moves; the message repeats them, then gives MOVE, your reply (51.3.8). When the accepted part ends with your own move, that move is the reply: leave MOVE out
help-move-offer-draw = Offer a draw with the move
help-move-accept-draw = Accept the opponent's draw offer
help-move-note = A note for the partner, sent under `Замечания:`/`Notes:`
help-move-dry-run = Print the message and change nothing
help-move-yes = Don't ask for confirmation on a terminal

about-plan = Your plan: private conditional replies, never sent to the partner
about-plan-long =
    Your plan: private conditional replies, never sent to the partner.

    LINE is your partner's expected move, your reply, the next expected move, your reply, … in any notation (move numbers may be written). When the partner's move is the one expected, the daemon sends your planned reply at once in the standard form and the plan moves on; any other move, or a draw offer with it, ends the plan and leaves the move to you. `show` lists it.
help-plan-game = The game's id
help-plan-line = The plan: their expected move, your reply, … (e.g. "2. Nf3 Nc6 3. Bb5 a6")
help-plan-clear = Drop the plan

about-resign = Resign the game: sends the resignation; the game ends 1-0 / 0-1
help-resign-game = The game's id
help-resign-dry-run = Print the message and change nothing
help-resign-yes = Don't ask for confirmation on a terminal

about-reply = The interactive prompt: walks the games where you are to move, most urgent first
about-reply-long =
    The interactive prompt: walks the games where you are to move, most urgent first.

    For each game: the board from your side, the last moves with dates, both clocks, deadlines and what the partner's last message said; then your move in any notation (with a variation, a draw offer, a note), the exact message, and send / edit / cancel. `help` at the prompt lists the commands. Needs a terminal.

about-apply = Process one saved message exactly as the daemon would (`-` reads standard input)
help-apply-file = The message file, or `-`
help-apply-received = Its receipt date, YYYY-MM-DD or DD.MM.YYYY, or an RFC 3339 time [default: the topmost Received: header, else today]

about-inbox = Held messages (unknown sender, no matching game, unreadable), with the reason
about-inbox-accept = Apply a held message to a game (accepting its sender as the opponent's address, unless the sender is the game's arbiter)
help-inbox-accept-message = The message number shown by `ccmail inbox`
help-inbox-accept-game = The game it belongs to
help-inbox-accept-by-eye = The partner's move as you read it in the message (any notation): the message is applied with this move, and its record taken as ours
help-inbox-accept-trust = Also trust the sender's address in this game from now on, without verification (for a partner whose provider does not sign its mail)
help-inbox-accept-yes = Don't ask before the sender becomes the game's opponent address
about-inbox-fine = Fine the partner two days for a fault you found in a held message (51.4.7); a correction request goes out as for a fault ccmail finds itself (51.3.4)
help-inbox-fine-message = The message number shown by `ccmail inbox`
help-inbox-fine-cause = What was wrong: illegible, ambiguous, impossible, no-move or wrong-repetition
help-inbox-fine-game = The game, when the message was not matched to one
about-inbox-dismiss = Put a held message aside for good (it stays stored)
help-inbox-dismiss-message = The message number shown by `ccmail inbox`

about-export = The game as PGN (with dates), or all its mail as an mbox; with `--all`, every game as PGN in one file
help-export-game = The game (not with `--all`)
help-export-pgn = PGN (the default)
help-export-mbox = Every message of the game, in and out, as an mbox
help-export-all = Every game as PGN, one after another, separated by a blank line
help-export-active = With `--all`: only the games not finished
help-export-output = Write to FILE instead of standard output

about-break = Your breaks (51.7; 10.4 in postal104 games): announce, end early, list
about-break-announce = Announce a break: checks the yearly allowance and notifies every opponent with an active game and the arbiter ("беру перерыв с … по …")
help-break-announce-from = The first day of the break, YYYY-MM-DD or DD.MM.YYYY
help-break-announce-to = The last day of the break (included), YYYY-MM-DD or DD.MM.YYYY
help-break-announce-dry-run = Print the notices and change nothing
about-break-end = End the current (or next) break early: play again from --on (default: today); the days not taken go back to the allowance
help-break-end-on = The first day of play again, YYYY-MM-DD or DD.MM.YYYY [default: today]
help-break-end-dry-run = Print the notices and change nothing
about-break-list = Your breaks and the days left this year

about-claim = Draft (and after confirmation send) a time-forfeit claim to the arbiter, Cc the opponent (51.6); the game is suspended until the decision
help-claim-game = The game's id
help-claim-dry-run = Print the claim and change nothing
help-claim-yes = Don't ask for confirmation on a terminal

about-adjudicate = Build (and after confirmation send) the adjudication package of 51.9.4 to the arbiter
help-adjudicate-game = The game's id
help-adjudicate-claim = The result claimed: 1-0, 0-1 or 1/2-1/2
help-adjudicate-reason = The reasoning (analysis may support it)
help-adjudicate-mv = The sealed move, when it is your move: it counts as made
help-adjudicate-dry-run = Print the package and change nothing
help-adjudicate-yes = Don't ask for confirmation on a terminal

about-address = Your e-mail address (51.1.2)
about-address-change = Tell every active opponent and arbiter your new address (51.1.2); then set `[player] email` in the config
help-address-change-new-email = Your new e-mail address
help-address-change-dry-run = Print the notices and change nothing

about-parse = Read one RFC 5322 message file and print what ccmail reads from it
about-parse-long =
    Read one RFC 5322 message file and print what ccmail reads from it.

    Needs no config and no database. Moves are replayed from the initial position. A file that is not a mail message still exits 0, with the problem `unreadable`.
help-parse-file = The message file, or `-` for standard input

about-run = The daemon: watch the mailbox (IMAP IDLE, polling where IDLE is missing), apply the moves that arrive, send what is due
about-run-long =
    The daemon: watch the mailbox (IMAP IDLE, polling where IDLE is missing), apply the moves that arrive, send what is due.

    Only chess mail is read into ccmail (mail from a game's opponent or arbiter, replies in a game's thread, messages with a game header and a move); the mailbox itself is never changed. Stops cleanly on SIGINT/SIGTERM after the message in hand. Logs go to standard error; RUST_LOG sets the level (default info).
help-run-once = One full pass (read, apply, send), then exit

about-check = Check the setup: read the config, open the database, log in to IMAP and SMTP, and say how each step went. Exits 1 if any failed

about-oauth2 = OAuth2 logins: `ccmail oauth2 authorize` runs the first consent
about-oauth2-authorize = The first consent for [imap.oauth2] (and [smtp.oauth2]): prints the URL to open, waits for the browser's redirect to 127.0.0.1, and stores the refresh token in the token file (mode 0600). Without a flag, every section with an [*.oauth2] table
help-oauth2-authorize-imap = Only [imap.oauth2]
help-oauth2-authorize-smtp = Only [smtp.oauth2]
