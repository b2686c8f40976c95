//! Notation (filled in by the notation work).
