//! Properties of `kruise_core::cron::Schedule`: `next(t) > t`, `next(t)` matches the schedule, no
//! match between `t` and `next(t)` (UTC, checked minute by minute over bounded ranges), `next` is
//! monotonic, and the parser never panics.

use jiff::Timestamp;
use jiff::tz::Offset;
use kruise_core::cron::{Kind, Schedule, SpecFields, Zone};
use proptest::prelude::*;

/// One list item of a field with bounds `lo..=hi`, in every form robfig accepts.
fn item(lo: u32, hi: u32) -> impl Strategy<Value = String> {
    prop_oneof![
        Just("*".to_string()),
        Just("?".to_string()),
        (1..=hi).prop_map(|s| format!("*/{s}")),
        (lo..=hi).prop_map(|a| a.to_string()),
        (lo..=hi, lo..=hi).prop_map(|(a, b)| format!("{}-{}", a.min(b), a.max(b))),
        (lo..=hi, lo..=hi, 1..=hi).prop_map(|(a, b, s)| format!("{}-{}/{s}", a.min(b), a.max(b))),
        (lo..=hi, 1..=hi).prop_map(|(a, s)| format!("{a}/{s}")),
    ]
}

fn field(lo: u32, hi: u32) -> impl Strategy<Value = String> {
    prop::collection::vec(item(lo, hi), 1..=3).prop_map(|v| v.join(","))
}

/// Valid five-field schedules (and some descriptors).
fn schedule() -> impl Strategy<Value = String> {
    prop_oneof![
        9 => (field(0, 59), field(0, 23), field(1, 31), field(1, 12), field(0, 6))
            .prop_map(|(a, b, c, d, e)| format!("{a} {b} {c} {d} {e}")),
        1 => prop::sample::select(vec!["@yearly", "@monthly", "@weekly", "@daily", "@hourly", "@every 90s", "@every 1h30m"])
            .prop_map(str::to_string),
    ]
}

/// Instants between 1990 and 2060, whole seconds plus sometimes a fraction.
fn instant() -> impl Strategy<Value = Timestamp> {
    (
        631_152_000i64..2_871_763_200,
        prop_oneof![Just(0i32), 0..1_000_000_000i32],
    )
        .prop_map(|(s, n)| Timestamp::new(s, n).expect("in range"))
}

fn zone() -> impl Strategy<Value = Zone> {
    prop::sample::select(vec![
        "UTC",
        "America/New_York",
        "Europe/London",
        "Asia/Shanghai",
        "Australia/Lord_Howe",
        "America/Havana",
        "Asia/Kathmandu",
    ])
    .prop_map(|z| Zone::load(z).expect("bundled zone"))
}

fn matches_in(f: &SpecFields, t: Timestamp, off: Offset) -> bool {
    let dt = off.to_datetime(t);
    dt.second() == 0
        && f.matches(
            dt.month() as u32,
            dt.day() as u32,
            dt.weekday().to_sunday_zero_offset() as u32,
            dt.hour() as u32,
            dt.minute() as u32,
        )
}

proptest! {
    #![proptest_config(kruise_proptests::config(2000))]

    #[test]
    fn next_is_after_and_a_match(spec in schedule(), t in instant(), z in zone()) {
        let s = Schedule::parse(&spec).unwrap();
        if let Some(n) = s.next_in(t, &z) {
            prop_assert!(n > t, "{spec}: next({t}) = {n}");
            prop_assert_eq!(n.subsec_nanosecond(), 0);
            match s.kind() {
                Kind::Spec(f) => prop_assert!(matches_in(f, n, z.time_zone().to_offset(n)), "{spec} in {}: {n} is no match", z.name()),
                Kind::Every { seconds } => prop_assert_eq!(n.as_second() - t.as_second() - i64::from(t.subsec_nanosecond() < 0), *seconds as i64),
            }
        }
    }

    #[test]
    fn no_match_skipped_in_utc(spec in schedule(), t in instant()) {
        let s = Schedule::parse(&spec).unwrap();
        let Kind::Spec(f) = s.kind() else { return Ok(()) };
        let next = s.next(t);
        // Every whole minute strictly between t and next (at most 3000 of them) is no match.
        let mut m = (t.as_second().div_euclid(60) + 1) * 60;
        for _ in 0..3000 {
            let Ok(c) = Timestamp::from_second(m) else { break };
            if next.is_some_and(|n| c >= n) {
                break;
            }
            prop_assert!(!matches_in(f, c, Offset::UTC), "{spec}: {c} matches but next({t}) = {next:?}");
            m += 60;
        }
    }

    #[test]
    fn next_is_monotonic(spec in schedule(), a in instant(), b in instant(), z in zone()) {
        let s = Schedule::parse(&spec).unwrap();
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        if let (Some(x), Some(y)) = (s.next_in(lo, &z), s.next_in(hi, &z)) {
            prop_assert!(x <= y, "{spec} in {}: next({lo}) = {x} > next({hi}) = {y}", z.name());
        }
    }

    #[test]
    fn chain_is_strictly_increasing(spec in schedule(), t in instant(), z in zone()) {
        let s = Schedule::parse(&spec).unwrap();
        let mut buf = [t; 6];
        let n = s.next_n(t, &z, &mut buf);
        for w in buf[..n].windows(2) {
            prop_assert!(w[0] < w[1]);
        }
    }

    #[test]
    fn parser_never_panics(text in any::<String>()) {
        let _ = Schedule::parse(&text);
    }

    #[test]
    fn parser_never_panics_on_near_misses(
        parts in prop::collection::vec(
            prop::sample::select(vec!["*", "?", "-", "/", ",", " ", "\t", "0", "5", "59", "60", "7", "+3", "-1",
                                      "jan", "SUN", "L", "#", "TZ=", "CRON_TZ=", "UTC", "Asia/Tokyo", "@every ",
                                      "@daily", "1h", ".5s", "µs", "9223372036854775808"]),
            0..16),
        t in instant(),
    ) {
        let text: String = parts.concat();
        if let Ok(s) = Schedule::parse(&text)
            && let Some(n) = s.next(t)
        {
            prop_assert!(n > t);
        }
    }
}
