//! `Schedule::next` / `next_in` allocate nothing: a counting global allocator (stats_alloc) sees zero
//! allocations across many calls, for UTC, Local and zoned schedules. Kept in its own test binary
//! with a single test so no other thread allocates while it measures.

use jiff::Timestamp;
use kruise_core::cron::{Schedule, Zone};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn next_does_not_allocate() {
    let cases = [
        ("0 */2 * * *", "UTC"),
        ("*/5 * * * *", "Asia/Shanghai"),
        ("0 0 29 2 *", "America/New_York"),
        ("@every 90s", "UTC"),
        ("TZ=America/New_York 30 2 * * *", "UTC"),
        ("0 0 30 2 *", "Europe/Berlin"),
    ];
    let prepared: Vec<(Schedule, Zone)> =
        cases.iter().map(|(s, z)| (Schedule::parse(s).unwrap(), Zone::load(z).unwrap())).collect();
    let start: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
    let mut fired = 0u32;
    let region = Region::new(GLOBAL);
    for (s, z) in &prepared {
        let mut t = start;
        for _ in 0..200 {
            match s.next_in(t, z) {
                Some(n) => {
                    t = n;
                    fired += 1;
                }
                None => break,
            }
        }
        let _ = s.next(start);
    }
    let stats = region.change();
    assert!(fired > 800, "schedules fired {fired} times");
    assert_eq!(stats.allocations, 0, "next() allocated: {stats:?}");
    assert_eq!(stats.reallocations, 0, "next() reallocated: {stats:?}");
}
