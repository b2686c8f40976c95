use super::unflow;

/// The first form of `unflow`, a string for each paragraph: the reference the one
/// buffer is held to.
mod first {
    /// Undoes format=flowed on `text` (already `\n`-only). Quoted paragraphs are
    /// written back as `>` marks, one space, and the joined text (`>> text`).
    pub(super) fn unflow(text: &str, delsp: bool) -> String {
        let mut out = String::with_capacity(text.len());
        let body = text.strip_suffix('\n');
        let ends_with_newline = body.is_some();
        let body = body.unwrap_or(text);
        if body.is_empty() && !ends_with_newline {
            return out;
        }
        // The paragraph being joined: its quote depth and text so far.
        let mut para: Option<(usize, String)> = None;
        for line in body.split('\n') {
            let depth = line.bytes().take_while(|&b| b == b'>').count();
            let content = &line[depth..];
            let content = content.strip_prefix(' ').unwrap_or(content);
            let signature = content == "-- ";
            let soft = content.ends_with(' ') && !signature;
            if let Some((d, _)) = &para
                && (*d != depth || signature)
            {
                emit(&mut out, para.take(), true);
            }
            let piece = if soft && delsp {
                &content[..content.len() - 1]
            } else {
                content
            };
            let (_, joined) = para.get_or_insert_with(|| (depth, String::new()));
            joined.push_str(piece);
            if !soft {
                emit(&mut out, para.take(), false);
            }
        }
        emit(&mut out, para.take(), true);
        if !ends_with_newline {
            out.pop();
        }
        out
    }

    /// Writes one finished paragraph and its line end. A paragraph cut short (by a
    /// change of quote depth or the end of the text) loses its trailing blanks.
    fn emit(out: &mut String, para: Option<(usize, String)>, cut: bool) {
        let Some((depth, text)) = para else { return };
        let text = if cut {
            text.trim_end_matches(' ')
        } else {
            &text
        };
        for _ in 0..depth {
            out.push('>');
        }
        if depth > 0 && !text.is_empty() {
            out.push(' ');
        }
        out.push_str(text);
        out.push('\n');
    }
}

proptest::proptest! {
    /// One buffer for all paragraphs, and lines written as they stand, give the text a
    /// string for each paragraph gave: soft and hard lines, quotes of several depths,
    /// space-stuffing, signature separators, blank lines, with and without DelSp.
    #[test]
    fn unflow_as_first_written(
        text in "((>{0,2})( ?)(-- |[a-z.]{0,5}| )( {0,2})\n?){0,12}",
        delsp in proptest::bool::ANY,
    ) {
        proptest::prop_assert_eq!(unflow(&text, delsp), first::unflow(&text, delsp), "{:?}", text);
    }
}

#[test]
fn table() {
    let rows: &[(&str, bool, &str)] = &[
        ("a \nb\n", false, "a b\n"),
        ("a \nb\n", true, "ab\n"),
        (
            "Move List: 1.e4 \ne5 2.Nf3\n",
            false,
            "Move List: 1.e4 e5 2.Nf3\n",
        ),
        (" From here\n >x\n", false, "From here\n>x\n"),
        ("> a \n> b\nc\n", false, "> a b\nc\n"),
        ("> a \nb \nc", false, "> a\nb c"),
        (">> a \n>>b\n", false, ">> a b\n"),
        ("x\n-- \nsig\n", false, "x\n-- \nsig\n"),
        ("Thanks \n-- \nGuy\n", false, "Thanks\n-- \nGuy\n"),
        ("soft at end \n", false, "soft at end\n"),
        ("a\n\nb\n", false, "a\n\nb\n"),
        ("", false, ""),
        ("\n", false, "\n"),
    ];
    for (input, delsp, want) in rows {
        assert_eq!(unflow(input, *delsp), *want, "{input:?} delsp={delsp}");
    }
}
