//! MIME decoding (filled in by the MIME work).
