//! Conformance vectors (in `vectors/`); the runner is `tests/vectors.rs`.
