//! The line the player types at the `reply` prompt, read into what to do.
//!
//! A correspondence player writes a move the way a message carries it: the move, then the
//! continuation they propose (51.3.7), then what goes with it. So one line says it all:
//!
//! ```text
//! e5                       the move, in any notation ccmail reads
//! e5 Nf3 Nc6               …and the variation 2. Nf3 Nc6 (move numbers may be written)
//! e5 draw                  …and a draw offer
//! e5 note Thanks!          …and a note: the rest of the line
//! e5 plan Nf3 Nc6          …and our private plan: if they play 2. Nf3, reply 2... Nc6
//! accept / resign          accept their draw offer / resign (each may take a note)
//! accept Nf6, accept 2 d6  accept their variation, whole or its first 2 half-moves,
//!                          then reply (51.3.7–8)
//! skip, quit, help, board, moves
//! ```
//!
//! A move line that begins with the partner's offered variation accepts it as far as it
//! follows it (see [`ccmail_core::conditional::read_line`]): typing the offer, then our reply,
//! is accepting it.
//!
//! Keywords have Russian twins (`ничья`, `принимаю`, `сдаюсь`, `пропуск`, `выход`, …).
//! Nothing here looks at the position: the move and the variation are checked by
//! [`crate::app::compose::draft`], which says what is wrong with them.

use ccmail_core::notation::{looks_like_move, strip_move_number};

use crate::app::compose::{Accept, Request};

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// An empty line.
    Nothing,
    Help,
    /// Leave this game for now.
    Skip,
    /// Leave the prompt.
    Quit,
    /// Show the game again.
    Board,
    /// All the moves, with their dates.
    Moves,
    /// A message to compose: a move (with variation, draw offer, note), an acceptance of
    /// the partner's draw offer, or a resignation.
    Send(Request),
    /// Not something ccmail understands: why, in words.
    Wrong(String),
}

/// The help text, in the interface language: ≤ 80 columns, ≤ 22 lines, each ending in `\n`.
/// The command words are the same in both languages (the Russian ones are listed too).
pub fn help() -> String {
    let row = |term: &str, text: String| format!("  {term:<13}{text}");
    [
        crate::t!("prompt-help-intro"),
        crate::t!("prompt-help-after-move"),
        row(
            &crate::t!("prompt-help-more-moves-term"),
            crate::t!("prompt-help-more-moves"),
        ),
        row("draw", crate::t!("prompt-help-draw")),
        row(
            &crate::t!("prompt-help-plan-term"),
            crate::t!("prompt-help-plan"),
        ),
        row(
            &crate::t!("prompt-help-note-term"),
            crate::t!("prompt-help-note"),
        ),
        crate::t!("prompt-help-their-variation"),
        format!("  {}", crate::t!("prompt-help-their-variation-part")),
        crate::t!("prompt-help-shown"),
        format!("  {}", crate::t!("prompt-help-answers")),
        crate::t!("prompt-help-other-commands"),
        row("accept", crate::t!("prompt-help-accept")),
        row("resign", crate::t!("prompt-help-resign")),
        row("skip", crate::t!("prompt-help-skip")),
        row("board", crate::t!("prompt-help-board")),
        row("help", crate::t!("prompt-help-help")),
        row("quit", crate::t!("prompt-help-quit")),
        crate::t!("prompt-help-russian"),
        crate::t!("prompt-help-keys"),
    ]
    .iter()
    .map(|line| format!("{line}\n"))
    .collect()
}

/// Reads one line.
pub fn parse(line: &str) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Nothing;
    }
    read_line(line).unwrap_or_else(Input::Wrong)
}

/// Reads a line that is not blank; what is wrong with it is the error.
fn read_line(line: &str) -> Result<Input, String> {
    let (head, note) = split_note(line);
    let note = match note {
        Some("") => {
            return Err(crate::t!("prompt-note-text-after"));
        }
        other => other.map(str::to_owned),
    };
    let tokens: Vec<&str> = head.split_whitespace().collect();
    if let Some(command) = read_command(&tokens, note.is_some())? {
        return Ok(command);
    }
    let mut request = Request {
        note,
        ..Request::default()
    };
    let tokens = take_plan(&tokens, &mut request)?;
    let words = sort_words(tokens, &mut request)?;
    let takes_variation = read_accept(&mut request, tokens, &words)?;
    attach_moves(request, &words.moves, takes_variation)
}

/// Reads a command of one word (`help`, `skip`, …), which takes no note; `None` when the line
/// is not one.
fn read_command(tokens: &[&str], noted: bool) -> Result<Option<Input>, String> {
    let [only] = tokens else {
        return Ok(None);
    };
    let command = match Word::of(only) {
        Some(Word::Help) => Some(Input::Help),
        Some(Word::Skip) => Some(Input::Skip),
        Some(Word::Quit) => Some(Input::Quit),
        Some(Word::Board) => Some(Input::Board),
        Some(Word::Moves) => Some(Input::Moves),
        _ => None,
    };
    match command {
        Some(_) if noted => Err(crate::t!("prompt-takes-no-note", word = *only)),
        command => Ok(command),
    }
}

/// Takes the plan, every token after its word, into `request`; returns the tokens before it.
fn take_plan<'t, 'a>(
    tokens: &'t [&'a str],
    request: &mut Request,
) -> Result<&'t [&'a str], String> {
    let (tokens, plan) = match tokens.iter().position(|t| Word::of(t) == Some(Word::Plan)) {
        Some(i) => (&tokens[..i], Some(&tokens[i + 1..])),
        None => (tokens, None),
    };
    if let Some(plan) = plan {
        if plan.is_empty() {
            return Err(crate::t!("prompt-plan-moves-after"));
        }
        if let Some(w) = plan.iter().find_map(|t| Word::of(t)) {
            return Err(crate::t!("prompt-goes-before-plan", word = w.name()));
        }
        request.plan = Some(plan.join(" "));
    }
    Ok(tokens)
}

/// The tokens of a line other than its words.
struct Sorted<'a> {
    /// The moves, without their numbers.
    moves: Vec<&'a str>,
    /// Whether `accept` was typed.
    accept_word: bool,
    /// `accept N …`: how many half-moves of the offered variation.
    part: Option<usize>,
}

/// Sorts the tokens into words (`draw` and `resign` set in `request`), `accept`'s number and
/// moves.
fn sort_words<'a>(tokens: &[&'a str], request: &mut Request) -> Result<Sorted<'a>, String> {
    let word = |t: &str| Word::of(t);
    let mut moves: Vec<&str> = Vec::new();
    let mut accept_word = false;
    let mut part: Option<usize> = None;
    for (i, &t) in tokens.iter().enumerate() {
        match word(t) {
            Some(Word::Draw) => request.offer_draw = true,
            Some(Word::Accept) => accept_word = true,
            Some(Word::Resign) => request.resign = true,
            Some(w) => {
                return Err(crate::t!(
                    "prompt-command-of-its-own",
                    typed = t,
                    word = w.name()
                ));
            }
            // `accept 2 …`: how many half-moves of the offered variation.
            None if i > 0
                && word(tokens[i - 1]) == Some(Word::Accept)
                && t.parse::<usize>().is_ok() =>
            {
                part = t.parse().ok();
            }
            None => match strip_move_number(t) {
                Some((_, _, "")) => {}
                Some((_, _, rest)) => moves.push(rest),
                None => moves.push(t),
            },
        }
    }
    Ok(Sorted {
        moves,
        accept_word,
        part,
    })
}

/// Reads what `accept` accepts (the draw offer, or the variation) into `request`, and checks
/// that the words go together; returns whether the variation is taken.
fn read_accept(request: &mut Request, tokens: &[&str], words: &Sorted) -> Result<bool, String> {
    let Sorted {
        moves,
        accept_word,
        part,
    } = words;
    let accept_word = *accept_word;
    if let Some(odd) = moves.iter().find(|t| !could_be_move(t)) {
        return Err(unknown_word(odd));
    }
    let takes_variation = accept_word && (part.is_some() || !moves.is_empty());
    if takes_variation && Word::of(tokens[0]) != Some(Word::Accept) {
        return Err(crate::t!("prompt-accept-first"));
    }
    if accept_word && !takes_variation {
        request.accept_draw = true;
    }
    if takes_variation {
        request.accept = Accept::Part(*part);
    } else if !moves.is_empty() {
        request.accept = Accept::Typed;
    }
    if (accept_word || request.offer_draw || !moves.is_empty()) && request.resign {
        return Err(crate::t!("prompt-resign-alone"));
    }
    if request.accept_draw && request.offer_draw {
        return Err(crate::t!("prompt-accept-alone"));
    }
    Ok(takes_variation)
}

/// Puts the move and the variation after it into `request`, or says why the request needs a
/// move it has not.
fn attach_moves(
    mut request: Request,
    moves: &[&str],
    takes_variation: bool,
) -> Result<Input, String> {
    if request.accept_draw || request.resign {
        if request.plan.is_some() {
            return Err(crate::t!("prompt-plan-needs-move"));
        }
        return Ok(Input::Send(request));
    }
    let Some((first, rest)) = moves.split_first() else {
        if takes_variation {
            // `accept 3`: the part ends with our own move, which is the reply.
            return Ok(Input::Send(request));
        }
        return Err(if request.offer_draw {
            crate::t!("prompt-draw-needs-move")
        } else if request.plan.is_some() {
            crate::t!("prompt-plan-needs-move")
        } else {
            crate::t!("prompt-note-needs-move")
        });
    };
    request.mv = Some((*first).to_owned());
    if !rest.is_empty() {
        request.variation = Some(rest.join(" "));
    }
    Ok(Input::Send(request))
}

/// The line again from a request, for `edit` and the history.
pub fn unparse(r: &Request) -> String {
    let mut parts: Vec<String> = Vec::new();
    if r.resign {
        parts.push("resign".into());
    }
    if r.accept_draw {
        parts.push("accept".into());
    }
    if let Accept::Part(part) = r.accept {
        parts.push("accept".into());
        parts.extend(part.map(|n| n.to_string()));
    }
    parts.extend(r.mv.clone());
    parts.extend(r.variation.clone());
    if r.offer_draw {
        parts.push("draw".into());
    }
    if let Some(plan) = &r.plan {
        parts.push(format!("plan {plan}"));
    }
    if let Some(note) = &r.note {
        parts.push(format!("note {note}"));
    }
    parts.join(" ")
}

/// The command words, English and Russian, for completion (the one-letter aliases left out).
pub fn words() -> impl Iterator<Item = &'static str> {
    Word::ALL
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .filter(|w| w.chars().count() > 1)
}

/// Whether `token` is a draw offer's word (`draw`, `ничью`), which may stand among moves.
pub fn is_draw_word(token: &str) -> bool {
    Word::of(token) == Some(Word::Draw)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Help,
    Skip,
    Quit,
    Board,
    Moves,
    Draw,
    Accept,
    Resign,
    Note,
    Plan,
}

impl Word {
    const ALL: [(Word, &'static [&'static str]); 10] = [
        (Word::Help, &["help", "?", "h", "помощь"]),
        (Word::Skip, &["skip", "next", "пропуск", "дальше"]),
        (Word::Quit, &["quit", "q", "exit", "выход"]),
        (Word::Board, &["board", "show", "доска"]),
        (Word::Moves, &["moves", "ходы"]),
        (Word::Draw, &["draw", "ничья", "ничью"]),
        (Word::Accept, &["accept", "принимаю"]),
        (Word::Resign, &["resign", "сдаюсь"]),
        (Word::Note, &["note", "замечание"]),
        (Word::Plan, &["plan", "план"]),
    ];

    fn of(token: &str) -> Option<Word> {
        let t = token.to_lowercase();
        Word::ALL
            .iter()
            .find(|(_, names)| names.contains(&t.as_str()))
            .map(|(w, _)| *w)
    }

    fn name(self) -> &'static str {
        Word::ALL
            .iter()
            .find(|(w, _)| *w == self)
            .map_or("", |(_, names)| names[0])
    }
}

/// The line before the note keyword, and the note (the rest of the line, as typed).
fn split_note(line: &str) -> (&str, Option<&str>) {
    let mut at = 0;
    for token in line.split_whitespace() {
        let start = at + line[at..].find(token).unwrap_or(0);
        at = start + token.len();
        if Word::of(token) == Some(Word::Note) {
            return (&line[..start], Some(line[at..].trim()));
        }
    }
    (line, None)
}

/// Whether a token might be a move (the position decides later): not a plain word.
fn could_be_move(token: &str) -> bool {
    looks_like_move(token) || !token.chars().all(char::is_alphabetic)
}

/// A word that is neither a move nor a command, with the command probably meant.
fn unknown_word(token: &str) -> String {
    let t = token.to_lowercase();
    let best = Word::ALL
        .iter()
        .flat_map(|(w, names)| names.iter().map(move |n| (*w, *n)))
        .filter(|(_, n)| n.chars().count() > 1)
        .map(|(w, n)| (distance(&t, n), w))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, w)) if d <= 2 => crate::t!(
            "prompt-unknown-word-did-you-mean",
            typed = token,
            word = w.name()
        ),
        _ => crate::t!("prompt-unknown-word", typed = token),
    }
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(line: &str) -> Request {
        match parse(line) {
            Input::Send(r) => r,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn wrong(line: &str) -> String {
        match parse(line) {
            Input::Wrong(why) => why,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn commands() {
        for (line, want) in [
            ("", Input::Nothing),
            ("  ", Input::Nothing),
            ("help", Input::Help),
            ("?", Input::Help),
            ("SKIP", Input::Skip),
            ("пропуск", Input::Skip),
            ("quit", Input::Quit),
            ("q", Input::Quit),
            ("board", Input::Board),
            ("moves", Input::Moves),
        ] {
            assert_eq!(parse(line), want, "{line:?}");
        }
    }

    #[test]
    fn a_move_with_everything_that_can_go_with_it() {
        let r = send("e5");
        assert_eq!(r.mv.as_deref(), Some("e5"));
        assert_eq!(r.variation, None);
        let r = send("1... e5 2. Nf3 Nc6 draw note Good luck, and thanks!");
        assert_eq!(r.mv.as_deref(), Some("e5"));
        assert_eq!(r.variation.as_deref(), Some("Nf3 Nc6"));
        assert!(r.offer_draw);
        assert_eq!(r.note.as_deref(), Some("Good luck, and thanks!"));
        let r = send("5755 2.7163 2836 ничья");
        assert_eq!(r.mv.as_deref(), Some("5755"));
        assert_eq!(r.variation.as_deref(), Some("7163 2836"));
        assert!(r.offer_draw);
        let r = send("Кf6 замечание Спасибо");
        assert_eq!(r.mv.as_deref(), Some("Кf6"));
        assert_eq!(r.note.as_deref(), Some("Спасибо"));
        assert_eq!(send("O-O").mv.as_deref(), Some("O-O"));
    }

    #[test]
    fn accept_and_resign_go_alone() {
        let r = send("accept");
        assert!(r.accept_draw && r.mv.is_none());
        let r = send("resign note Well played");
        assert!(r.resign);
        assert_eq!(r.note.as_deref(), Some("Well played"));
        assert!(wrong("e5 accept").contains("`accept` comes first"));
        assert!(wrong("resign e5").contains("goes without a move"));
        assert!(wrong("accept draw").contains("goes without a move"));
    }

    #[test]
    fn their_variation_is_accepted_by_word_or_by_typing_it() {
        // Typed: the move line is read against their offer when composed.
        let r = send("e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6");
        assert_eq!(r.accept, Accept::Typed);
        assert_eq!(r.mv.as_deref(), Some("e5"));
        // By word: all of it, then the reply (and our own offer after it).
        let r = send("accept Nf6 O-O Be7");
        assert_eq!(r.accept, Accept::Part(None));
        assert_eq!(r.mv.as_deref(), Some("Nf6"));
        assert_eq!(r.variation.as_deref(), Some("O-O Be7"));
        assert!(!r.accept_draw);
        // Its first two half-moves, then d6.
        let r = send("принимаю 2 d6");
        assert_eq!(
            (r.accept, r.mv.as_deref()),
            (Accept::Part(Some(2)), Some("d6"))
        );
        // Its first three: the third, ours, is the reply.
        let r = send("accept 3");
        assert_eq!((r.accept, r.mv), (Accept::Part(Some(3)), None));
        // Alone, `accept` is still the draw.
        assert_eq!(send("accept").accept, Accept::No);
    }

    #[test]
    fn a_plan_follows_the_move() {
        let r = send("e5 Nf3 Nc6 plan Nf3 Nc6 2. Bb5 a6 note Good luck");
        assert_eq!(r.mv.as_deref(), Some("e5"));
        assert_eq!(r.variation.as_deref(), Some("Nf3 Nc6"));
        assert_eq!(r.plan.as_deref(), Some("Nf3 Nc6 2. Bb5 a6"));
        assert_eq!(r.note.as_deref(), Some("Good luck"));
        assert!(wrong("e5 plan").contains("the plan's moves go after the word"));
        assert!(wrong("plan Nf3 Nc6").contains("a plan goes with a move"));
        assert!(wrong("e5 plan Nf3 draw").contains("`draw` goes before `plan`"));
    }

    #[test]
    fn what_is_wrong_is_said() {
        assert!(wrong("draw").contains("a draw offer goes with a move"));
        assert!(wrong("e5 note").contains("the note's text goes after the word"));
        assert!(wrong("note hello").contains("a note goes with a move"));
        assert_eq!(
            wrong("skp"),
            "`skp` is not a move or a command; did you mean `skip`? (`help` lists them)"
        );
        assert!(wrong("e5 drwa").contains("did you mean `draw`?"));
        assert!(wrong("e5 skip").contains("a command of its own"));
        assert!(wrong("hello").contains("is not a move or a command"));
    }

    #[test]
    fn the_help_fits_80_by_24() {
        let help = help();
        assert!(help.lines().count() <= 22);
        for line in help.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
    }

    #[test]
    fn unparse_gives_the_line_back() {
        for line in [
            "e5",
            "e5 Nf3 Nc6 draw note Good luck",
            "accept note Thanks",
            "resign",
            "accept Nf6",
            "accept 2 d6 draw plan Bb5 a6",
            "accept 3",
            "e5 plan Nf3 Nc6 note Hi",
        ] {
            assert_eq!(unparse(&send(line)), line);
        }
    }
}
