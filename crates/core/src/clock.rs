//! The rules clock (filled in by the clock work).
