//! Stub replaced below.
