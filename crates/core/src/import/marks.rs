//! ccmail's own PGN commands for what its clock counts beside the moves' dates: penalties
//! (`[%ccpen black 2 wrong_repetition 4]`), extra periods (`[%ccextra black 2026.03.05
//! 2026.03.08 correction_request impossible 4]`) and the partner's breaks (`[%ccbreak
//! 2026.04.01 2026.04.10 2026.03.30 -]`). `export` writes them and `game import` reads them
//! back, so that an exported game comes back with both clocks. A command that can't be read
//! is left out.

use chrono::NaiveDate;
use shakmaty::Color;

use crate::clock::{Penalty, PenaltyCause};

/// An extra period (51.4.8) as ccmail's export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraMark {
    pub player: Color,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// `correction_request` or `rejected_message`.
    pub kind: String,
    /// The fault a correction request answered.
    pub fault: Option<PenaltyCause>,
    /// The ply it is recorded at.
    pub ply: u32,
}

/// A break of the partner's (51.7) as ccmail's export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakMark {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub notice: Option<NaiveDate>,
    pub ended: Option<NaiveDate>,
}

/// `[%ccpen white 2 impossible 4]`: a penalty recorded at ply 4 (without it, at `ply`, the
/// move the comment follows).
pub fn penalties(comment: &str, ply: usize) -> Vec<Penalty> {
    commands(comment, "ccpen")
        .filter_map(|w| {
            let at = match w.get(3) {
                Some(n) => n.parse().ok()?,
                None => u32::try_from(ply).ok()?,
            };
            Some(Penalty {
                player: color(w.first()?)?,
                days: w.get(1)?.parse().ok()?,
                cause: w.get(2)?.parse().ok()?,
                ply: at,
            })
        })
        .collect()
}

/// `[%ccextra black 2026.03.05 2026.03.08 correction_request impossible 4]` (`-` for no fault).
pub fn extras(comment: &str) -> Vec<ExtraMark> {
    commands(comment, "ccextra")
        .filter_map(|w| {
            let fault = match *w.get(4)? {
                "-" => None,
                f => Some(f.parse().ok()?),
            };
            Some(ExtraMark {
                player: color(w.first()?)?,
                from: date(w.get(1)?)?,
                to: date(w.get(2)?)?,
                kind: (*w.get(3)?).to_owned(),
                fault,
                ply: w.get(5)?.parse().ok()?,
            })
        })
        .collect()
}

/// `[%ccbreak 2026.04.01 2026.04.10 2026.03.30 -]`: from, to, notice, ended (`-`: none).
pub fn breaks(comment: &str) -> Vec<BreakMark> {
    commands(comment, "ccbreak")
        .filter_map(|w| {
            let maybe = |t: &str| {
                if t == "-" {
                    Some(None)
                } else {
                    date(t).map(Some)
                }
            };
            Some(BreakMark {
                from: date(w.first()?)?,
                to: date(w.get(1)?)?,
                notice: maybe(w.get(2)?)?,
                ended: maybe(w.get(3)?)?,
            })
        })
        .collect()
}

/// The words of each `[%name …]` command in `comment`.
fn commands<'a>(comment: &'a str, name: &'a str) -> impl Iterator<Item = Vec<&'a str>> + 'a {
    comment.split("[%").skip(1).filter_map(move |body| {
        let body = &body[..body.find(']')?];
        let mut words = body.split_whitespace();
        (words.next()? == name).then(|| words.collect())
    })
}

fn color(word: &str) -> Option<Color> {
    match word {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn date(word: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(word, "%Y.%m.%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().expect("a date")
    }

    #[test]
    fn each_command_reads_back_and_a_broken_one_is_left_out() {
        let c = "[%ccsnt 2026.03.04] [%ccpen black 2 wrong_repetition] [%ccpen white x late_repeat] \
                 [%ccextra black 2026.03.05 2026.03.08 correction_request impossible 4] \
                 [%ccextra white 2026.03.05 2026.03.06 rejected_message - 5] \
                 [%ccbreak 2026.04.01 2026.04.10 2026.03.30 -] [%ccbreak 2026.04 -]";
        assert_eq!(penalties(c, 4).len(), 1);
        assert_eq!(penalties(c, 4)[0].cause, PenaltyCause::WrongRepetition);
        assert_eq!(penalties(c, 4)[0].ply, 4, "the move the comment follows");
        let at = penalties("[%ccpen white 1 late_repeat 7]", 4);
        assert_eq!((at[0].player, at[0].ply), (Color::White, 7));
        assert_eq!(
            extras(c),
            vec![
                ExtraMark {
                    player: Color::Black,
                    from: d("2026-03-05"),
                    to: d("2026-03-08"),
                    kind: "correction_request".into(),
                    fault: Some(PenaltyCause::Impossible),
                    ply: 4,
                },
                ExtraMark {
                    player: Color::White,
                    from: d("2026-03-05"),
                    to: d("2026-03-06"),
                    kind: "rejected_message".into(),
                    fault: None,
                    ply: 5,
                },
            ]
        );
        assert_eq!(
            breaks(c),
            vec![BreakMark {
                from: d("2026-04-01"),
                to: d("2026-04-10"),
                notice: Some(d("2026-03-30")),
                ended: None,
            }]
        );
    }
}
