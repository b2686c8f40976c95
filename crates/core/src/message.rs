//! The move message (filled in by the reader work).
