//! ccmail-mail: the mail side of ccmail. Speaks mail, not chess.

pub mod config;
pub mod imap;
pub mod mbox;
pub mod mime;
pub mod oauth2;
pub mod probe;
pub mod smtp;
pub mod tls;
