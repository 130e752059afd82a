//! Fuzzes the robfig/cron dialect parser (`kruise_core::cron::Schedule::parse`) and, for schedules
//! that parse, one `next` from a few instants and zones: nothing may panic, and every fire time
//! must be strictly after its start.
//!
//! Run: `cargo +nightly fuzz run cron_schedule` (from `fuzz/`).
#![no_main]

use jiff::Timestamp;
use kruise_core::cron::{Schedule, Zone};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(schedule) = Schedule::parse(&text) else { return };
    let local = Zone::load("America/New_York").unwrap_or_else(|_| Zone::utc());
    for secs in [-62_135_596_800i64, 0, 1_782_036_000, 4_102_444_800] {
        let Ok(after) = Timestamp::from_second(secs) else { continue };
        if let Some(next) = schedule.next_in(after, &local) {
            assert!(next > after, "{text:?}: next({after}) = {next}");
        }
    }
});
