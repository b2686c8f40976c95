//! SMTP (to be written).
