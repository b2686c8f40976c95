//! The other crates' errors in the interface language. The mail, store and core crates say
//! their errors in English (`Display`: logs, tests, `--json`'s `error` stays as the user's
//! language says it); here each error type's variants are put into the catalogue's words,
//! cause by cause, for [`words`](super::daemon::words).

mod core;
mod mail;
mod mime;
mod store;

/// `cause` in the interface's words, if it is an error of one of ccmail's crates.
pub fn in_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    store::in_words(cause)
        .or_else(|| mail::in_words(cause))
        .or_else(|| core::in_words(cause))
}

/// A note of the MIME decoder (what it had to work around in a message) in the interface's
/// words.
pub fn mime_note(note: &ccmail_mail::mime::MimeNote) -> String {
    mime::words(note, crate::i18n::current())
}

/// A failed file write or open in the interface's words, when it is one of the storage
/// troubles a user can act on (a full disk, a read-only file system, no permission).
pub fn storage_trouble(e: &std::io::Error) -> Option<String> {
    ccmail_store::Trouble::of(e).map(|t| store::trouble(t, crate::i18n::current()))
}
