//! `format=flowed` (RFC 3676): undo the soft line breaks a mail client made. Ours because
//! mailparse does not undo them, and no well-kept crate does only this.
//!
//! Scid's mail mode through Thunderbird, for one, breaks `Move List: 1.e4 e5 …`
//! into flowed lines; the reader needs the line whole again. A line ending in a
//! space continues on the next line of the same quote depth (4.2); with
//! `DelSp=yes` that space is the sender's and is removed (4.3). A leading space
//! is space-stuffing and goes (4.4). Quoted and unquoted lines are never joined
//! (4.5), and the signature separator `-- ` is never a soft break nor joined
//! to the line before it.

/// Undoes format=flowed on `text` (already `\n`-only). Quoted paragraphs are
/// written back as `>` marks, one space, and the joined text (`>> text`).
pub(crate) fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let body = text.strip_suffix('\n');
    let ends_with_newline = body.is_some();
    let body = body.unwrap_or(text);
    if body.is_empty() && !ends_with_newline {
        return out;
    }
    // The quote depth of the paragraph being joined, if one is, and its text so far: one
    // buffer for all the paragraphs, and none for a line that is a paragraph of its own,
    // which is written as it stands.
    let mut open: Option<usize> = None;
    let mut joined = String::new();
    for line in body.split('\n') {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let signature = content == "-- ";
        let soft = content.ends_with(' ') && !signature;
        if let Some(d) = open
            && (d != depth || signature)
        {
            emit(&mut out, d, &joined, true);
            open = None;
            joined.clear();
        }
        let piece = if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        };
        if open.is_none() && !soft {
            emit(&mut out, depth, piece, false);
            continue;
        }
        open = Some(depth);
        joined.push_str(piece);
        if !soft {
            emit(&mut out, depth, &joined, false);
            open = None;
            joined.clear();
        }
    }
    if let Some(d) = open {
        emit(&mut out, d, &joined, true);
    }
    if !ends_with_newline {
        out.pop();
    }
    out
}

/// Writes one finished paragraph at quote depth `depth` and its line end. A paragraph cut
/// short (by a change of quote depth or the end of the text) loses its trailing blanks.
fn emit(out: &mut String, depth: usize, text: &str, cut: bool) {
    let text = if cut {
        text.trim_end_matches(' ')
    } else {
        text
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

#[cfg(test)]
mod tests;
