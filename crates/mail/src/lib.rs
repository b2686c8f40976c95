//! ccmail-mail: the mail side of ccmail. Speaks mail, not chess.

pub mod mime;
