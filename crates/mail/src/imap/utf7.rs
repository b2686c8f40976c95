//! IMAP's modified UTF-7 (RFC 3501, 5.1.3): how folder names with letters beyond ASCII go on
//! the wire. The player writes `Отправленные`; the server lists and selects
//! `&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-`.
//!
//! Our own forty lines rather than the utf7-imap crate: that one pulls in regex and
//! encoding_rs for this, and its decoder can't say that a name was malformed, where a folder
//! list must show such a name as the server sent it rather than a wrong one.

use base64::Engine;
use base64::alphabet::Alphabet;
use base64::engine::{GeneralPurpose, GeneralPurposeConfig};

/// Base64 with `,` for `/` and no padding.
fn engine() -> GeneralPurpose {
    let alphabet =
        Alphabet::new("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,")
            .expect("a 64-letter alphabet");
    GeneralPurpose::new(
        &alphabet,
        GeneralPurposeConfig::new()
            .with_encode_padding(false)
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireNone),
    )
}

/// A folder name as the server wants it.
pub fn encode(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut run: Vec<u16> = Vec::new();
    let flush = |run: &mut Vec<u16>, out: &mut String| {
        if run.is_empty() {
            return;
        }
        let bytes: Vec<u8> = run.iter().flat_map(|u| u.to_be_bytes()).collect();
        out.push('&');
        out.push_str(&engine().encode(bytes));
        out.push('-');
        run.clear();
    };
    for c in name.chars() {
        match c {
            '&' => {
                flush(&mut run, &mut out);
                out.push_str("&-");
            }
            ' '..='~' => {
                flush(&mut run, &mut out);
                out.push(c);
            }
            _ => run.extend(c.encode_utf16(&mut [0; 2]).iter()),
        }
    }
    flush(&mut run, &mut out);
    out
}

/// A folder name as the server sent it, as people read it; `None` when it is not modified
/// UTF-7.
pub fn decode(wire: &str) -> Option<String> {
    let mut out = String::with_capacity(wire.len());
    let mut rest = wire;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after.find('-')?;
        let encoded = &after[..end];
        if encoded.is_empty() {
            out.push('&');
        } else {
            let bytes = engine().decode(encoded).ok()?;
            if bytes.len() % 2 != 0 {
                return None;
            }
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|p| u16::from_be_bytes([p[0], p[1]]))
                .collect();
            out.push_str(&String::from_utf16(&units).ok()?);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_servers_write_them() {
        for (name, wire) in [
            ("INBOX", "INBOX"),
            ("Отправленные", "&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-"),
            ("Входящие", "&BBIERQQ+BDQETwRJBDgENQ-"),
            (
                "[Gmail]/Отправленные",
                "[Gmail]/&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-",
            ),
            ("Tom & Jerry", "Tom &- Jerry"),
            // RFC 3501's own example.
            ("~peter/mail/台北/日本語", "~peter/mail/&U,BTFw-/&ZeVnLIqe-"),
            ("Шахматы 2026", "&BCgEMARFBDwEMARCBEs- 2026"),
        ] {
            assert_eq!(encode(name), wire, "{name}");
            assert_eq!(decode(wire).as_deref(), Some(name), "{wire}");
        }
    }

    #[test]
    fn a_malformed_name_is_not_decoded() {
        for wire in ["&BB4", "&BB4E-", "&!!-", "&2D0-"] {
            assert_eq!(decode(wire), None, "{wire}");
        }
    }

    proptest::proptest! {
        #[test]
        fn every_name_comes_back(name in "\\PC{0,24}") {
            proptest::prop_assert_eq!(decode(&encode(&name)), Some(name));
        }
    }
}
