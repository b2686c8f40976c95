//! ccmail-mail: the mail side of ccmail. Speaks mail, not chess.

pub mod imap;
pub mod mime;
pub mod smtp;
pub mod tls;
