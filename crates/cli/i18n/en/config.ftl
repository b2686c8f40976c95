# config
# The config file: what its values must be, its errors and the starter file `ccmail init` writes.

## What a value must be (inside config-must-be*).
config-what-non-empty = a non-empty string
config-what-host = a host name such as "mail.example.org"
config-what-email = an e-mail address such as "name@example.org"
config-what-zone = an IANA time zone name such as "Europe/Moscow"
config-what-security = tls, starttls or plain
config-what-number = a whole number from { $min } to { $max }
config-what-date = a date such as 2026-01-31
config-what-path = a file path (a non-empty string)
config-what-env-name = the name of an environment variable
config-what-bool = true or false
config-what-command = a list of strings, the program first, such as ["notify-send", "ccmail", "a move arrived"]
config-what-url = an http:// or https:// URL
config-what-section = a section [{ $section }]
config-what-language = ru or en
config-what-notation = numeric, san or san-ru
config-what-control = MOVES/DAYS with both at least 1, such as "10/60"
config-what-rules = article51 or postal104

## Reading the file.
config-not-found = no config file at { $file }: run `ccmail init` to write a starter one (or name another with --config or CCMAIL_CONFIG)
config-not-utf8 = the config file { $file } is not UTF-8 text
config-unreadable = cannot read the config file { $file }: { $error }
config-syntax-at = TOML syntax error in { $file } at line { $line }, column { $column }: { $message }
config-syntax = TOML syntax error in { $file }: { $message }
config-unknown-section = unknown section [{ $section }] in { $file }
config-unknown-section-near = unknown section [{ $section }] in { $file } (did you mean [{ $near }]?)
config-unknown-key = unknown key "{ $key }" in { $file }
config-unknown-key-near = unknown key "{ $key }" in { $file } (did you mean "{ $near }"?)

## A wrong or missing value.
config-must-be = { $key } must be { $what } (in { $file })
config-must-be-not = { $key } must be { $what }, not { $value } (in { $file })
config-must-be-not-list = { $key } must be { $what }, not a list (in { $file })
config-must-be-not-table = { $key } must be { $what }, not a table (in { $file })
config-missing-key = missing key "{ $key }" in { $file }
config-no-player = missing section [player] in { $file }: it needs name, surname and email
config-plain-not-local = { $section }.security = "plain" sends the password and the mail unencrypted, so it is allowed only for a server on this machine (localhost, 127.0.0.1, ::1), not { $host }: use tls, or starttls (with ca_file for a server whose certificate a private CA signed) (in { $file })
config-no-home = { $key } starts with "~", but HOME is not set (in { $file })
config-other-user = { $key } may start with "~/" but not "~user/": write the whole path, not { $raw } (in { $file })
config-no-default-db = neither XDG_DATA_HOME nor HOME is set, so there is no default database file: set store.path in { $file }
config-no-default-token-file = neither XDG_DATA_HOME nor HOME is set, so there is no default token file: set { $section }.token_file in { $file }
config-unknown-zone = unknown time zone { $zone }

## Passwords and OAuth2.
config-two-passwords = { $first } and { $second } are both set in { $file }: keep one of password_cmd, password_env and password
config-password-not-private = { $key } is set in { $file }, but the file is not private (mode { $mode }): run chmod 600 { $file }, or use password_cmd or password_env instead
config-permissions-unreadable = cannot read the permissions of { $file }: { $error }
config-imap-no-password = [imap] in { $file } needs a password: one of password_cmd, password_env or password (or OAuth2: oauth2_token_cmd or [imap.oauth2])
config-smtp-oauth2-no-username = [smtp] in { $file } logs in with OAuth2 but has no username: add smtp.username
config-smtp-no-password = [smtp] in { $file } has a username but no password: add one of password_cmd, password_env or password
config-smtp-no-username = [smtp] in { $file } has a password but no username: add smtp.username
config-password-and-oauth2 = [{ $section }] in { $file } has both a password and OAuth2: keep one
config-token-cmd-and-table = { $section }.oauth2_token_cmd and [{ $section }.oauth2] are both set in { $file }: keep one
config-cmd-not-run = { $key } could not be run: { $error } (in { $file })
config-cmd-exit-status = { $key } failed with exit status { $code } (in { $file })
config-cmd-signal = { $key } was killed by signal { $signal } (in { $file })
config-cmd-failed = { $key } failed ({ $status }) (in { $file })
config-cmd-not-utf8 = { $key } printed something that is not UTF-8 text (in { $file })
config-cmd-printed-nothing = { $key } printed nothing (in { $file })
config-env-unset = { $key } names { $name }, which is not set (in { $file })
config-env-empty = { $key } names { $name }, which is empty (in { $file })
config-env-not-utf8 = { $key } names { $name }, which is not UTF-8 (in { $file })
config-smtp-no-login = [smtp] has no username, so there is no password to log in with
config-oauth2-not-password = [{ $section }] logs in with OAuth2, so it has no password
config-literal-secret = { $key } prints a secret written in { $file } itself, and others can read that file (mode { $mode }): run chmod 600 { $file }, or keep the secret in a password manager (such as password_cmd = "pass show mail")

## Writing the starter file.
config-cannot-create-dir = cannot create the directory { $dir }
config-cannot-create = cannot create { $file }
config-cannot-write = cannot write { $file }

## The starter file's explanations, each a run of comment lines in the order of the file
## (config/ccmail.example.toml); each line becomes a line "# …". The English is the
## example's own text.
config-starter-intro = ccmail's configuration (TOML). `ccmail init` writes this file if there is none.
config-starter-keys =
    Every key is here with a one-line explanation. A key that starts with "# " is commented
    out and shows its default: remove the "# " to set it. A key ccmail does not know is an
    error, so a misspelt key is never silently ignored.
config-starter-paths =
    Paths: "~/" at the start means your home directory ($HOME); a relative path is relative to
    the directory this file is in.
config-starter-name = Your name as you sign your moves, surname first (required).
config-starter-surname = Your surname as it is written in game headers (required).
config-starter-email = The address you play from (required).
config-starter-timezone = Your time zone (an IANA name); your dates are counted in it. Default: the system's zone.
config-starter-store-path = The database file. Default: $XDG_DATA_HOME/ccmail/ccmail.db, else this:
config-starter-imap =
    The incoming mail server. Commands that need none (game new, move, apply, show) work
    without [imap] and [smtp]. Remove the "# " from the header and the keys you need.
config-starter-host = The server's host name (required).
config-starter-security =
    Connection security: tls, starttls or plain (no encryption: used only when written here, and
    only for a server on this machine: localhost, 127.0.0.1, ::1). tls and starttls always check
    the certificate; a server whose certificate a private CA signed takes ca_file.
config-starter-imap-port = The port. Default: 993 with tls, 143 with starttls or plain.
config-starter-imap-username = The login name (required).
config-starter-imap-password = The password, exactly one of three ways (required). A command that prints it (sh -c):
config-starter-password-env = Or the name of an environment variable that holds it:
config-starter-password = Or the password itself, only when this file is private (chmod 600 this file):
config-starter-imap-oauth2-cmd =
    Or OAuth2 instead of a password (Outlook.com, Microsoft 365, Gmail): a command that prints
    an access token, run at every login; or the table [imap.oauth2] below.
config-starter-mailbox = The folder where your partners' moves arrive. Default:
config-starter-sent-mailbox = A folder to keep a copy of what ccmail sends in. Default: none (no copy is kept).
config-starter-first-sync =
    The first run also reads the mail already there from this date on. Default: the earliest
    start date of your active games (with no game yet, only new mail is read).
config-starter-ca-file = A CA certificate (PEM) to trust besides the usual ones. Default: none.
config-starter-oauth2 =
    Or OAuth2 with tokens ccmail gets and refreshes itself: remove the "# " from this header
    and the keys you need, then run `ccmail oauth2 authorize` once.
config-starter-token-url = The provider's token endpoint (required).
config-starter-client-id = Your OAuth2 client's id (required).
config-starter-client-secret = A command that prints the client's secret, for a provider that wants one. Default: none.
config-starter-auth-url = Where you consent, for `ccmail oauth2 authorize`. Default: none.
config-starter-scope = The scopes asked for at consent, space-separated. Default: none.
config-starter-refresh-token = A command that prints the refresh token, instead of the token file. Default: none.
config-starter-token-file = Where ccmail keeps the refresh token (mode 0600). Default: this, one file per username:
config-starter-redirect-port = The port on 127.0.0.1 the consent's redirect comes back to. Default: any free port.
config-starter-smtp = The outgoing mail server.
config-starter-smtp-port = The port. Default: 465 with tls, 587 with starttls, 25 with plain.
config-starter-smtp-username = The login name. Default: none (no login; then no password either).
config-starter-smtp-password = The password, with username, exactly one of three ways as in [imap]. A command (sh -c):
config-starter-smtp-oauth2-cmd =
    Or OAuth2 (SMTP logs in with XOAUTH2), with username: a command that prints a token, or the
    table [smtp.oauth2] below, as in [imap].
config-starter-hooks =
    Commands the daemon (`ccmail run`) runs when something happens: each a list, the program
    first, run without a shell, with no standard input. Each gets CCMAIL_EVENT_KIND
    (move, held, deadline, sent, error) and, where they apply, CCMAIL_GAME, CCMAIL_EVENT,
    CCMAIL_OPPONENT, CCMAIL_MOVE (SAN), CCMAIL_DEADLINE (date), CCMAIL_DEADLINE_KIND,
    CCMAIL_MESSAGE (the stored message's number) and CCMAIL_TEXT (one line in words).
    A hook that fails or runs too long is logged; the daemon never waits for one. Default: none.
    A partner's move was applied:
config-starter-on-held = A message was held for you to look at (`ccmail inbox`):
config-starter-on-deadline = A deadline is within deadline_days days: once a day for each deadline.
config-starter-on-sent = A message of yours was sent:
config-starter-on-error = The daemon met an error it logs at error level:
config-starter-timeout = Seconds a hook may run before it is stopped.
config-starter-authserv-id =
    Your own mail server's name as it signs the Authentication-Results header it adds to every
    message (`ccmail check` proposes it, and fails until it is set): a letter then acts only
    when that server found the sender's DKIM signature (or DMARC) valid, or when it answers a
    message ccmail sent. Until it is set, nobody vouches for a sender, even one answering our
    mail: a partner's letter acts only with a legal move, and a resignation, draw acceptance,
    address change, break or fault in it is held until you accept it. Default: none.
config-starter-defaults =
    For `ccmail game new` when a flag is not given.
    The language of the messages: ru or en.
config-starter-notation = The notation moves are written in: numeric, san or san-ru.
config-starter-control = The time control, MOVES/DAYS: so many days for every so many moves.
config-starter-rules = The rules: article51 (Article 51) or postal104 (the postal rules, 10.4).
config-starter-attach-pgn =
    Attach the game so far as a PGN file to every move message (for a partner who plays on
    Scid, cmail or ChessBase); `ccmail game set GAME --attach-pgn on|off` changes one game.
