//! Property tests live in `tests/`.
