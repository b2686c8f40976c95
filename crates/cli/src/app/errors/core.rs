//! The core crate's errors in the interface's words.

/// `cause` in the interface's words, if it is one of the core crate's errors.
pub(super) fn in_words(_cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    None
}
