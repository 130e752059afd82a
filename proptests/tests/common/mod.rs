//! Helpers shared by several test binaries (each includes this with `mod common;`).

pub mod alloc_counter;
