//! Allocation counting for the zero-allocation checks (`*_alloc.rs`).
//!
//! The counter is stats_alloc's global allocator, which counts allocations of every thread. Under
//! libtest the harness's main thread (result channel, output capture) allocates while a test
//! runs, so a measurement on a test thread could see stray allocations under load. The `*_alloc`
//! binaries are therefore declared `harness = false` in `proptests/Cargo.toml`: their `main`
//! calls [`run`], which runs every check in turn on the main thread, the only thread of the
//! process. [`run`] refuses to measure anywhere else and first proves the counter counts.

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, Stats, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Runs `f` and returns its result with the allocations made while it ran.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    let region = Region::new(GLOBAL);
    let r = f();
    let stats = region.change();
    (r, stats)
}

/// Asserts that `f` neither allocates nor reallocates; `what` names it in the failure message.
pub fn assert_no_alloc<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let (r, stats) = measure(f);
    assert_eq!(
        (stats.allocations, stats.reallocations),
        (0, 0),
        "{what} allocated: {stats:?}"
    );
    r
}

/// Runs the named checks in order (a panic fails the binary), after checking that this is the
/// single-threaded `main` of a `harness = false` binary and that an explicit allocation counts.
pub fn run(checks: &[(&str, fn())]) {
    assert_eq!(
        std::thread::current().name(),
        Some("main"),
        "allocation checks must run on the main thread of a harness = false test binary"
    );
    let (v, stats) = measure(|| black_box(Vec::<u64>::with_capacity(8)));
    drop(v);
    assert_eq!(
        (stats.allocations, stats.reallocations),
        (1, 0),
        "the counting allocator must see exactly one allocation for Vec::with_capacity(8)"
    );
    for (name, check) in checks {
        check();
        println!("test {name} ... ok");
    }
    println!("{} allocation checks passed", checks.len());
}
