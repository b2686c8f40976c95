//! The app layer of ccmail: what the binary's commands share, and what tests and benchmarks
//! drive directly. Orchestration lives here, not in the domain or mail crates.

pub mod app;
pub mod config;
pub mod i18n;
pub mod incoming;
pub mod oauth2;
pub mod term;
