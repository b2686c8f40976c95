use super::{Writer, html_to_text};

/// [`Writer::chars`] as it was first written, a character at a time: the reference
/// for the one that pushes runs.
fn chars_first(w: &mut Writer, s: &str) {
    for c in s.chars() {
        if w.pre > 0 {
            if c == '\n' {
                w.newline()
            } else {
                w.push_literal(c)
            }
        } else if c.is_whitespace() && c != '\u{a0}' {
            w.pending_space = !w.line.is_empty();
        } else {
            w.push_literal(c);
        }
    }
}

proptest::proptest! {
    /// Runs pushed whole leave the writer as characters pushed one by one do, from any
    /// state it can be in (a line begun or not, a space pending, quoted, in `<pre>`),
    /// on text of words, blanks of every kind (NBSP, tabs, vertical tab, Unicode
    /// spaces) and Cyrillic.
    #[test]
    fn runs_as_characters(
        s in "(e4|Ход|x| |  |\t|\n|\r|\u{b}|\u{c}|\u{a0}|\u{2003}|\u{3000}|\u{85}|\u{1}|\\.){0,16}",
        line in "(| |ab|Ход )",
        out in "(|a\n)",
        pending_space in proptest::bool::ANY,
        quote in 0usize..3,
        line_depth in 0usize..3,
        pre in 0usize..2,
    ) {
        let start = Writer {
            out: out.clone(),
            line: line.clone(),
            line_depth,
            quote,
            pre,
            pending_space,
        };
        let (mut ours, mut theirs) = (start.clone(), start);
        ours.chars(&s);
        chars_first(&mut theirs, &s);
        proptest::prop_assert_eq!(ours, theirs, "{:?}", s);
    }
}

#[test]
fn table() {
    let rows: &[(&str, &str)] = &[
        ("<div>a</div><div><br></div><div>b</div>", "a\n\nb\n"),
        ("text<div>more</div>", "text\nmore\n"),
        ("<div>a<br></div>", "a\n"),
        ("<p>one\n  two</p><p>three</p>", "one two\nthree\n"),
        (
            "<head><title>T</title><style>p{}</style></head><body>x</body>",
            "x\n",
        ),
        ("<html><head><meta charset=utf-8><body>x", "x\n"),
        ("a<script>if (a<b) {}</script>b", "ab\n"),
        (
            "&lt;a@b&gt; &amp; &quot;q&quot; &#39;s&#39; &#1055;&#x41f;",
            "<a@b> & \"q\" 's' ПП\n",
        ),
        (
            "a&nbsp;&nbsp;b AT&T &bogus; &#xD800;",
            "a  b AT&T &bogus; \u{fffd}\n",
        ),
        ("<ul><li>e4</li><li>e5</li></ul>", "e4\ne5\n"),
        ("<table><tr><td>1.</td><td>e4</td></tr></table>", "1. e4\n"),
        ("a<hr>b", "a\nb\n"),
        (
            "<div>On Mon wrote:</div><blockquote>x<br>y<blockquote>z</blockquote></blockquote>after",
            "On Mon wrote:\n> x\n> y\n>> z\nafter\n",
        ),
        ("<pre>1. e4  e5\n2. Nf3</pre>", "1. e4  e5\n2. Nf3\n"),
        ("a <!-- hidden <b> --> b", "a b\n"),
        ("x < y and <3", "x < y and <3\n"),
        ("unclosed <b", "unclosed <b\n"),
        ("<o:p></o:p>Outlook<o:p></o:p>", "Outlook\n"),
        ("", ""),
    ];
    for (html, want) in rows {
        assert_eq!(html_to_text(html), *want, "{html:?}");
    }
}
