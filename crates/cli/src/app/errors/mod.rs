//! The other crates' errors in the interface language. The mail, store and core crates say
//! their errors in English (`Display`: logs, tests, `--json`'s `error` stays as the user's
//! language says it); here each error type's variants are put into the catalogue's words,
//! cause by cause, for [`words`](super::daemon::words).

mod core;
mod mail;
mod store;

/// `cause` in the interface's words, if it is an error of one of ccmail's crates.
pub fn in_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    store::in_words(cause)
        .or_else(|| mail::in_words(cause))
        .or_else(|| core::in_words(cause))
}
