//! The config's `[hooks]`: a command run when something happens, as aerc's `mail-received`,
//! neomutt's `new_mail_command` or goimapnotify's `onNewMail` do. Each hook is a program and
//! its arguments, run without a shell, with no standard input and what it prints thrown away,
//! and what happened in `CCMAIL_*` environment variables ([`Event::vars`]).
//!
//! Its environment is a clean one: the `CCMAIL_*` variables of the event and the basics a
//! program needs to find its way ([`passed_on`]: `PATH`, `HOME`, the user, the locale, the
//! zone, the temporary directory, and the desktop's D-Bus address and display for
//! `notify-send`). Nothing else of the daemon's: not a `password_env` variable, nor a token,
//! nor anything a service manager put there.
//!
//! A hook never holds the daemon up: it runs on a task of its own, is stopped after
//! `timeout_secs`, and a hook that fails, can't start or is stopped is logged at warn level
//! (never error level, which would run `on_error` about `on_error`). The daemon waits for the
//! hooks still running only when it exits, each no longer than its time limit.
//!
//! Which event fires when: `move` and `held` once a message's transaction committed
//! ([`super::sync`]); `sent` for each message the outbox sent (the daemon's, or a command's
//! that sends at once); `deadline` from the chores'
//! pass, once a day per deadline within `deadline_days` (the store remembers which it told);
//! `error` for every event the daemon logs at error level ([`ErrorLayer`]).

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tokio::process::Command;
use tokio::task::JoinSet;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer};

use ccmail_store::Store;

use crate::config::Hooks;

/// What happened, for a hook.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Event {
    /// `move`, `held`, `deadline`, `sent` or `error`.
    pub kind: &'static str,
    pub game: Option<String>,
    /// The game's event (competition).
    pub event: Option<String>,
    pub opponent: Option<String>,
    /// The move, in SAN.
    pub mv: Option<String>,
    pub deadline: Option<String>,
    pub deadline_kind: Option<String>,
    /// The stored message's number.
    pub message: Option<i64>,
    /// One line in words.
    pub text: String,
}

impl Event {
    /// The environment the hook gets: `CCMAIL_EVENT_KIND` always, the others where they apply.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![("CCMAIL_EVENT_KIND", self.kind.to_owned())];
        let mut put = |name: &'static str, value: &Option<String>| {
            if let Some(value) = value {
                v.push((name, value.clone()));
            }
        };
        put("CCMAIL_GAME", &self.game);
        put("CCMAIL_EVENT", &self.event);
        put("CCMAIL_OPPONENT", &self.opponent);
        put("CCMAIL_MOVE", &self.mv);
        put("CCMAIL_DEADLINE", &self.deadline);
        put("CCMAIL_DEADLINE_KIND", &self.deadline_kind);
        put("CCMAIL_MESSAGE", &self.message.map(|m| m.to_string()));
        v.push(("CCMAIL_TEXT", one_line(&self.text)));
        v
    }
}

/// The hooks of a config, and the ones running.
#[derive(Debug)]
pub struct Runner {
    hooks: Hooks,
    running: Mutex<JoinSet<()>>,
}

impl Runner {
    pub fn new(hooks: Hooks) -> Runner {
        Runner {
            hooks,
            running: Mutex::new(JoinSet::new()),
        }
    }

    /// The config's days for `on_deadline`.
    pub fn deadline_days(&self) -> u32 {
        self.hooks.deadline_days
    }

    /// Whether a hook is set for events of `kind`.
    pub fn wants(&self, kind: &str) -> bool {
        !self.command(kind).is_empty()
    }

    fn command(&self, kind: &str) -> &[String] {
        match kind {
            "move" => &self.hooks.on_move,
            "held" => &self.hooks.on_held,
            "deadline" => &self.hooks.on_deadline,
            "sent" => &self.hooks.on_sent,
            "error" => &self.hooks.on_error,
            _ => &[],
        }
    }

    /// Starts the hook for `event`, if there is one, and returns at once.
    pub fn fire(&self, event: Event) {
        let argv = self.command(event.kind).to_vec();
        if argv.is_empty() {
            return;
        }
        let limit = Duration::from_secs(u64::from(self.hooks.timeout_secs));
        let mut running = self.running.lock().expect("the hooks' lock");
        // What finished is forgotten, so that a daemon running for months keeps no list.
        while running.try_join_next().is_some() {}
        running.spawn(run(argv, event, limit));
    }

    /// Waits for the hooks still running (each stops at its time limit).
    pub async fn finish(&self) {
        let mut running = std::mem::take(&mut *self.running.lock().expect("the hooks' lock"));
        while running.join_next().await.is_some() {}
    }

    /// Makes this runner the one [`ErrorLayer`] fires `on_error` with.
    pub fn for_errors(runner: std::sync::Arc<Runner>) {
        let _ = ERRORS.set(runner);
    }
}

async fn run(argv: Vec<String>, event: Event, limit: Duration) {
    let name = format!("on_{}", event.kind);
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| name.to_str().is_some_and(passed_on)))
        .envs(event.vars())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            tracing::warn!(
                "{}",
                crate::t!(
                    "daemon-hook-cant-start",
                    name = &name,
                    program = format!("{:?}", argv[0]),
                    error = e.to_string()
                )
            );
            return;
        }
    };
    match tokio::time::timeout(limit, child.wait()).await {
        Ok(Ok(status)) if status.success() => {
            tracing::debug!("hook {name} done");
        }
        Ok(Ok(status)) => tracing::warn!(
            "{}",
            crate::t!(
                "daemon-hook-failed",
                name = &name,
                program = &argv[0],
                status = status.to_string()
            )
        ),
        Ok(Err(e)) => tracing::warn!(
            "{}",
            crate::t!(
                "daemon-hook-error",
                name = &name,
                program = &argv[0],
                error = e.to_string()
            )
        ),
        Err(_) => {
            let _ = child.kill().await;
            tracing::warn!(
                "{}",
                crate::t!(
                    "daemon-hook-timeout",
                    name = &name,
                    program = &argv[0],
                    secs = limit.as_secs()
                )
            );
        }
    }
}

/// Whether the daemon's variable `name` is passed on to a hook: the basics a program needs
/// (where programs are, the home, the user, the locale, the zone, the temporary directory,
/// and what a desktop notification needs), and nothing else. The daemon's own `CCMAIL_*` are
/// not: the event's are set anew.
pub fn passed_on(name: &str) -> bool {
    const BASICS: [&str; 13] = [
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TMPDIR",
        "XDG_RUNTIME_DIR",
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "NO_COLOR",
    ];
    // The locale's `LC_*`, and the desktop's D-Bus address (`DBUS_…_BUS_ADDRESS`).
    BASICS.contains(&name) || name.starts_with("LC_") || name.starts_with("DBUS_")
}

/// One line: line breaks and other control characters become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

static ERRORS: OnceLock<std::sync::Arc<Runner>> = OnceLock::new();

/// A `tracing` layer that fires `on_error` for every event logged at error level, with the
/// event's message as `CCMAIL_TEXT`, once a daemon's runner is set ([`Runner::for_errors`]).
#[derive(Debug, Default)]
pub struct ErrorLayer;

impl<S: tracing::Subscriber> Layer<S> for ErrorLayer {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if *event.metadata().level() != tracing::Level::ERROR {
            return;
        }
        let Some(runner) = ERRORS.get() else { return };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let mut text = Message(String::new());
        event.record(&mut text);
        runner.fire(Event {
            kind: "error",
            text: text.0,
            ..Event::default()
        });
    }
}

/// The `message` field of an event, with the others after it.
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0.insert_str(0, &format!("{value:?}"));
        } else {
            self.0.push_str(&format!(" {}={value:?}", field.name()));
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.insert_str(0, value);
        } else {
            self.0.push_str(&format!(" {}={value}", field.name()));
        }
    }
}

/// The `on_move` or `on_held` event of a message applied or held; `None` for anything else.
/// The game's details are filled in when the hook fires ([`fire_for_message`]).
pub fn of_outcome(outcome: &crate::app::apply::Outcome) -> Option<Event> {
    use crate::app::apply::Outcome;
    let (kind, message, game) = match outcome {
        Outcome::Applied { message, game, .. } => ("move", *message, Some(game.clone())),
        Outcome::Held { message, game, .. } => ("held", *message, game.clone()),
        Outcome::Info { .. } | Outcome::Duplicate { .. } => return None,
    };
    Some(Event {
        kind,
        game,
        message: Some(message),
        text: outcome.describe(),
        ..Event::default()
    })
}

/// Fires a message's hook with its game's event, opponent and (for a move) the move, read
/// from the store now that the message is committed.
pub async fn fire_for_message(store: &Store, hooks: &Runner, mut event: Event) {
    if !hooks.wants(event.kind) {
        return;
    }
    if let Some(id) = event.game.clone() {
        match game_details(store, &id, event.kind).await {
            Ok((name, opponent, mv)) => {
                event.event = Some(name);
                event.opponent = Some(opponent);
                event.mv = mv;
            }
            Err(e) => tracing::warn!(
                "{}",
                crate::t!(
                    "daemon-hook-game-failed",
                    kind = event.kind,
                    game = &id,
                    error = e.to_string()
                )
            ),
        }
    }
    hooks.fire(event);
}

/// A game's event and opponent, and its last move in SAN when it is the one the event is
/// about: the partner's for `move`, ours for `sent`.
async fn game_details(
    store: &Store,
    id: &str,
    kind: &str,
) -> anyhow::Result<(String, String, Option<String>)> {
    let mut conn = store.conn().await?;
    let game = crate::app::game::Game::load(&mut conn, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!(crate::t!("daemon-no-such-game")))?;
    let mover = match kind {
        "move" => Some(game.opponent()),
        "sent" => Some(game.me),
        _ => None,
    };
    // The side that made the last move is the one not to move now.
    let last_by = !game.to_move();
    let mv = game
        .moves
        .last()
        .filter(|_| mover == Some(last_by))
        .map(|m| m.san.clone());
    Ok((game.row.event.clone(), game.row.opponent_email.clone(), mv))
}

/// Fires `on_sent` for stored message `id`, just sent (by the daemon, or by a command that
/// sends at once).
pub async fn fire_sent(store: &Store, hooks: &Runner, id: i64) {
    if !hooks.wants("sent") {
        return;
    }
    let row = match store.conn().await {
        Ok(mut conn) => ccmail_store::message(&mut conn, id).await,
        Err(e) => Err(e),
    };
    let row = match row {
        Ok(Some(row)) => row,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(
                "{}",
                crate::t!(
                    "daemon-hook-sent-failed",
                    message = id,
                    error = e.to_string()
                )
            );
            return;
        }
    };
    let text = crate::t!(
        "daemon-hook-sent-text",
        subject = row.subject.clone().unwrap_or_default()
    );
    fire_for_message(
        store,
        hooks,
        Event {
            kind: "sent",
            game: row.game_id,
            message: Some(id),
            text,
            ..Event::default()
        },
    )
    .await;
}

/// Fires `on_deadline` for each deadline of an active game from today to `deadline_days`
/// ahead that it was not told about today.
pub async fn fire_deadlines(
    store: &Store,
    hooks: &Runner,
    clock: &crate::app::Clock,
) -> anyhow::Result<()> {
    if !hooks.wants("deadline") {
        return Ok(());
    }
    let today = clock.today();
    let last = today + chrono::Days::new(u64::from(hooks.deadline_days()));
    let mut conn = store.conn().await?;
    let games = crate::app::game::Game::load_all_dates(&mut conn, false).await?;
    for game in games.iter().filter(|g| g.is_active()) {
        let Ok(report) = game.report(today) else {
            continue;
        };
        for deadline in report
            .deadlines
            .iter()
            .filter(|x| (today..=last).contains(&x.date))
        {
            let kind = serde_json::to_value(deadline.kind)?
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let what = format!("{kind} {}", deadline.date);
            if !ccmail_store::hook_told_once(&mut conn, "deadline", game.id(), &what, today).await?
            {
                continue;
            }
            let days = (deadline.date - today).num_days();
            hooks.fire(Event {
                kind: "deadline",
                game: Some(game.id().to_owned()),
                event: Some(game.row.event.clone()),
                opponent: Some(game.row.opponent_email.clone()),
                deadline: Some(deadline.date.to_string()),
                deadline_kind: Some(kind.clone()),
                text: crate::t!(
                    "daemon-hook-deadline-text",
                    game = game.id(),
                    kind = &kind,
                    days = days,
                    date = deadline.date
                ),
                ..Event::default()
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hook_gets_the_basics_and_no_secret() {
        let cases = [
            ("PATH", true),
            ("HOME", true),
            ("LANG", true),
            ("LC_ALL", true),
            ("LC_MESSAGES", true),
            ("TZ", true),
            ("XDG_RUNTIME_DIR", true),
            ("DBUS_SYSTEM_BUS_ADDRESS", true),
            ("MAIL_PASSWORD", false),
            ("CCMAIL_TEST_IMAP_PASSWORD", false),
            ("CCMAIL_CONFIG", false),
            ("GITHUB_TOKEN", false),
            ("AWS_SECRET_ACCESS_KEY", false),
            ("SSH_AUTH_SOCK", false),
            ("LD_PRELOAD", false),
            ("path", false),
        ];
        for (name, want) in cases {
            assert_eq!(super::passed_on(name), want, "{name}");
        }
    }
}
