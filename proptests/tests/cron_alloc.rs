//! `Schedule::next` / `next_in` allocate nothing: a counting global allocator (stats_alloc) sees zero
//! allocations across many calls, for UTC, Local and zoned schedules. A `harness = false` binary:
//! the check runs on the main thread, alone (see `common/alloc_counter.rs`).

mod common;

use common::alloc_counter::{assert_no_alloc, run};
use jiff::Timestamp;
use kruise_core::cron::{Schedule, Zone};

fn main() {
    run(&[("next_does_not_allocate", next_does_not_allocate)]);
}

fn next_does_not_allocate() {
    let cases = [
        ("0 */2 * * *", "UTC"),
        ("*/5 * * * *", "Asia/Shanghai"),
        ("0 0 29 2 *", "America/New_York"),
        ("@every 90s", "UTC"),
        ("TZ=America/New_York 30 2 * * *", "UTC"),
        ("0 0 30 2 *", "Europe/Berlin"),
    ];
    let prepared: Vec<(Schedule, Zone)> = cases
        .iter()
        .map(|(s, z)| (Schedule::parse(s).unwrap(), Zone::load(z).unwrap()))
        .collect();
    let start: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
    let fired = assert_no_alloc("Schedule::next_in / next", || {
        let mut fired = 0u32;
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
        fired
    });
    assert!(fired > 800, "schedules fired {fired} times");
}
