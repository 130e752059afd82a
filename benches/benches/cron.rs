#![allow(missing_docs)] // criterion_group! generates undocumented public items
//! Criterion benchmarks of the cron family: `Schedule::parse` and one `Schedule::next_in` call, for
//! the common schedules, without a zone (UTC) and with Asia/Shanghai and America/New_York.
//!
//! Bench ids: `cron/parse/<schedule>` and `cron/next/<schedule>/<zone>`; the Go side-by-side
//! script (conformance/goref) matches robfig/cron benchmarks by these names.

use criterion::{Criterion, criterion_group, criterion_main};
use jiff::Timestamp;
use kruise_core::cron::{Schedule, Zone};
use std::hint::black_box;

/// The schedules of issue 5.
const SCHEDULES: &[&str] = &["0 */2 * * *", "*/5 * * * *", "0 0 29 2 *", "@every 90s"];
/// Zones: UTC (no zone) and two real ones, one with DST.
const ZONES: &[&str] = &["UTC", "Asia/Shanghai", "America/New_York"];
/// The instant every next-fire bench starts from (a fixed, ordinary time: 10:17:23 on a Sunday).
const AFTER: &str = "2026-06-21T10:17:23Z";

fn parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("cron/parse");
    for s in SCHEDULES {
        g.bench_function(*s, |b| b.iter(|| Schedule::parse(black_box(s))));
    }
    for z in ZONES.iter().filter(|z| **z != "UTC") {
        let spec = format!("TZ={z} 0 */2 * * *");
        g.bench_function(spec.as_str(), |b| {
            b.iter(|| Schedule::parse(black_box(&spec)))
        });
    }
    g.finish();
}

fn next(c: &mut Criterion) {
    let after: Timestamp = AFTER.parse().expect("valid instant");
    let mut g = c.benchmark_group("cron/next");
    for s in SCHEDULES {
        for z in ZONES {
            // The zone is the schedule's own (`TZ=` prefix), as the controller builds it from spec.timeZone.
            let spec = if *z == "UTC" {
                (*s).to_string()
            } else {
                format!("TZ={z} {s}")
            };
            let sched = Schedule::parse(&spec).expect("valid schedule");
            let local = Zone::utc();
            g.bench_function(format!("{s}/{z}"), |b| {
                b.iter(|| sched.next_in(black_box(after), &local))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, parse, next);
criterion_main!(benches);
