//! A parsed schedule and its next fire time: robfig/cron v3.0.1 `SpecSchedule.Next` and
//! `ConstantDelaySchedule.Next`, over Go's `time.Date` offset rule (spec section 5).
//!
//! `next` allocates nothing: the schedule is five `u64` bit masks plus a borrowed zone, and offset
//! lookups go through a stack-held cache.

use super::civil::{self, Fields};
use super::zone::{Location, OffsetCache, Zone};
use crate::error::Result;
use jiff::Timestamp;

/// The five bit masks of a field schedule (bit `n` set = value `n` allowed) and the two star flags
/// that decide how day-of-month and day-of-week combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecFields {
    /// Minutes 0-59.
    pub minutes: u64,
    /// Hours 0-23.
    pub hours: u64,
    /// Days of month 1-31.
    pub days_of_month: u64,
    /// Months 1-12.
    pub months: u64,
    /// Days of week 0-6, 0 = Sunday.
    pub days_of_week: u64,
    /// The day-of-month field had an unstepped `*`/`?` item (robfig's star bit).
    pub dom_star: bool,
    /// The day-of-week field had an unstepped `*`/`?` item.
    pub dow_star: bool,
}

impl SpecFields {
    /// robfig's `dayMatches`: AND of both day fields when either carries the star flag, else OR.
    pub fn day_matches(&self, day: u32, weekday: u32) -> bool {
        let dom = self.days_of_month >> day & 1 == 1;
        let dow = self.days_of_week >> weekday & 1 == 1;
        if self.dom_star || self.dow_star {
            dom && dow
        } else {
            dom || dow
        }
    }

    /// Whether a wall-clock time (second 0) matches every field.
    pub fn matches(&self, month: u32, day: u32, weekday: u32, hour: u32, minute: u32) -> bool {
        self.months >> month & 1 == 1
            && self.day_matches(day, weekday)
            && self.hours >> hour & 1 == 1
            && self.minutes >> minute & 1 == 1
    }
}

/// What kind of schedule it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A five-field (or descriptor) schedule.
    Spec(SpecFields),
    /// `@every <d>`: a constant delay in whole seconds (at least 1), not aligned to the clock.
    Every {
        /// The delay in seconds.
        seconds: u64,
    },
}

/// A parsed cron schedule in the robfig/cron v3.0.1 `ParseStandard` dialect.
///
/// ```
/// use kruise_core::cron::Schedule;
/// let s = Schedule::parse("TZ=Asia/Shanghai 0 10 * * *").unwrap();
/// let after: jiff::Timestamp = "2022-09-05T09:01:00Z".parse().unwrap();
/// assert_eq!(s.next(after).unwrap().to_string(), "2022-09-06T02:00:00Z");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    kind: Kind,
    location: Location,
}

/// Bound on loop iterations inside one `next` call; the five-year rule ends every real search far
/// earlier, this only guards against pathological zone data.
const MAX_STEPS: u32 = 1_000_000;

impl Schedule {
    pub(crate) fn from_parts(kind: Kind, location: Location) -> Schedule {
        Schedule { kind, location }
    }

    /// Parses `spec` like robfig/cron v3.0.1 `ParseStandard` (spec section 3).
    ///
    /// Errors (kind): `empty_spec`, `tz_prefix_without_fields`, `unknown_location`,
    /// `unrecognized_descriptor`, `invalid_duration`, `wrong_field_count`, `invalid_number`,
    /// `negative_number`, `too_many_hyphens`, `too_many_slashes`, `below_minimum`, `above_maximum`,
    /// `range_start_after_end`, `zero_step`.
    pub fn parse(spec: &str) -> Result<Schedule> {
        super::parser::parse_standard(spec)
    }

    /// Parses the schedule the controller actually uses for `spec.schedule` + `spec.timeZone`
    /// (OpenKruise `formatSchedule`, spec section 4): a schedule containing `TZ` is used as is; else a
    /// loadable `time_zone` is prefixed as `TZ=<zone> `; an unloadable one is ignored.
    pub fn parse_with_time_zone(schedule: &str, time_zone: Option<&str>) -> Result<Schedule> {
        Schedule::parse(&effective_schedule(schedule, time_zone))
    }

    /// The schedule's kind (field masks or constant delay).
    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    /// The zone the schedule is evaluated in (`Local` = the caller's zone).
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The first fire time strictly after `after`, treating a schedule without zone ("Local") as UTC.
    /// `None` when there is none within robfig's five-year window (e.g. `0 0 30 2 *`).
    pub fn next(&self, after: Timestamp) -> Option<Timestamp> {
        self.next_in(after, &Zone::utc())
    }

    /// The first fire time strictly after `after`, evaluating a zone-less ("Local") schedule in
    /// `local`. No heap allocation.
    pub fn next_in(&self, after: Timestamp, local: &Zone) -> Option<Timestamp> {
        let mut secs = after.as_second();
        if after.subsec_nanosecond() < 0 {
            secs -= 1;
        }
        self.next_secs(secs, local)
            .and_then(|s| Timestamp::from_second(s).ok())
    }

    /// `next` on Unix seconds (`after` already floored to a whole second).
    pub(crate) fn next_secs(&self, after: i64, local: &Zone) -> Option<i64> {
        match self.kind {
            Kind::Every { seconds } => after.checked_add(i64::try_from(seconds).ok()?),
            Kind::Spec(ref f) => {
                let zone = match &self.location {
                    Location::Local => local,
                    Location::Zone(z) => z,
                };
                walk(f, after, &mut OffsetCache::new(zone))
            }
        }
    }

    /// Up to `n` chained fire times after `after` (stops early at "none"), written into `out`.
    /// Returns how many were written. No heap allocation.
    pub fn next_n(&self, after: Timestamp, local: &Zone, out: &mut [Timestamp]) -> usize {
        let mut t = after;
        let mut k = 0;
        for slot in out.iter_mut() {
            match self.next_in(t, local) {
                Some(n) => {
                    *slot = n;
                    t = n;
                    k += 1;
                }
                None => break,
            }
        }
        k
    }
}

/// OpenKruise `formatSchedule` (spec section 4): the schedule string the controller parses.
pub fn effective_schedule(schedule: &str, time_zone: Option<&str>) -> String {
    match time_zone {
        Some(tz) if !schedule.contains("TZ") && Location::load(tz).is_ok() => {
            format!("TZ={tz} {schedule}")
        }
        _ => schedule.to_string(),
    }
}

/// A cursor over one zone: the current instant and its wall-clock fields (the civil date is
/// recomputed only when the local day changes).
struct Cursor<'c, 'z> {
    cache: &'c mut OffsetCache<'z>,
    t: i64,
    f: Fields,
    day: i64,
}

impl Cursor<'_, '_> {
    fn set(&mut self, t: i64) {
        self.t = t;
        let local = t + i64::from(self.cache.offset(t));
        let day = local.div_euclid(civil::DAY);
        let sod = local.rem_euclid(civil::DAY);
        if day != self.day {
            let (year, month, d) = civil::civil_from_days(day);
            self.f.year = year;
            self.f.month = month;
            self.f.day = d;
            self.f.weekday = (day + 4).rem_euclid(7) as u32;
            self.day = day;
        }
        self.f.hour = (sod / 3600) as u32;
        self.f.minute = (sod / 60 % 60) as u32;
        self.f.second = (sod % 60) as u32;
    }

    /// The month loop's step (Go `AddDate(0, 1, 0)`), several months at once when that cannot
    /// differ: the day of month is at most 28 (no overflow into the next month) and the zone offset
    /// is constant over the whole span, so each single step keeps the wall time and day. Stops at
    /// the next allowed month or at January (where robfig restarts its walk).
    fn next_month(&mut self, s: &SpecFields) {
        let f = self.f;
        if f.day <= 28 {
            let mut k = 1u32;
            let mut m = f.month % 12 + 1;
            while m != 1 && s.months >> m & 1 == 0 {
                k += 1;
                m = m % 12 + 1;
            }
            if k > 1 && self.t.saturating_sub(civil::DAY) >= self.cache.stable_from() {
                let target = self.cache.date(
                    f.year,
                    i64::from(f.month) + i64::from(k),
                    i64::from(f.day),
                    i64::from(f.hour),
                    i64::from(f.minute),
                    i64::from(f.second),
                );
                if target.saturating_add(civil::DAY) < self.cache.stable_until()
                    && self.t.saturating_sub(civil::DAY) >= self.cache.stable_from()
                {
                    self.set(target);
                    return;
                }
            }
        }
        self.add_date(1, 0);
    }

    /// The day loop's step (Go `AddDate(0, 0, 1)` plus robfig's DST fix-up), several days at once
    /// while the zone offset stays constant: then each single step lands on the same wall time one
    /// day later, so the first matching day (or the 1st of the next month) is reached directly.
    fn next_day(&mut self, s: &SpecFields) {
        if self.f.hour == 0 {
            let dim = civil::days_in_month(self.f.year, self.f.month);
            let mut k = 1u32;
            let mut wd = (self.f.weekday + 1) % 7;
            while self.f.day + k <= dim && !s.day_matches(self.f.day + k, wd) {
                k += 1;
                wd = (wd + 1) % 7;
            }
            let target = self.t + i64::from(k) * civil::DAY;
            // Margin of a day: Go's Date looks the offset up at the wall time read as UTC.
            if target.saturating_add(civil::DAY) < self.cache.stable_until() {
                self.set(target);
                return;
            }
        }
        self.add_date(0, 1);
        let h = i64::from(self.f.hour);
        if h != 0 {
            let t = if h > 12 {
                self.t + (24 - h) * 3600
            } else {
                self.t - h * 3600
            };
            self.set(t);
        }
    }

    /// Go's `t.AddDate(0, months, days)`: same wall clock, calendar shift, `time.Date` resolution.
    fn add_date(&mut self, months: i64, days: i64) {
        let f = self.f;
        let t = self.cache.date(
            f.year,
            i64::from(f.month) + months,
            i64::from(f.day) + days,
            i64::from(f.hour),
            i64::from(f.minute),
            i64::from(f.second),
        );
        self.set(t);
    }

    /// Steps forward by `unit` seconds until `value(f)` is in `mask` or wraps to 0, like robfig's
    /// hour/minute/second loops. While the zone offset stays constant the wall clock advances
    /// linearly, so several steps are taken at once; at an offset change it steps one at a time.
    /// Returns `true` when it wrapped (the caller restarts at WRAP).
    fn step_until(
        &mut self,
        unit: i64,
        modulus: u32,
        mask: u64,
        value: fn(&Fields) -> u32,
    ) -> bool {
        let cur = value(&self.f);
        // distance to the next allowed value above `cur`, or to the wrap (value 0 again)
        let above = if cur + 1 >= 64 { 0 } else { mask >> (cur + 1) };
        let within = if modulus > cur + 1 {
            above & ((1u64 << (modulus - cur - 1)) - 1)
        } else {
            0
        };
        let k = if within != 0 {
            within.trailing_zeros() + 1
        } else {
            modulus - cur
        };
        let jump = i64::from(k) * unit;
        let target = self.t + jump;
        if k > 1 && target < self.cache.stable_until() {
            self.set(target);
        } else {
            self.set(self.t + unit);
        }
        value(&self.f) == 0
    }
}

/// robfig's `SpecSchedule.Next` walk on Unix seconds (spec section 5, steps 1-9).
fn walk(s: &SpecFields, after: i64, cache: &mut OffsetCache<'_>) -> Option<i64> {
    let start = after.checked_add(1)?;
    let f = cache.fields(start);
    let day = (start + i64::from(cache.offset(start))).div_euclid(civil::DAY);
    let mut c = Cursor {
        cache,
        t: start,
        f,
        day,
    };
    let year_limit = c.f.year + 5;
    let mut added = false;
    let mut steps = 0u32;
    let mut tick = || {
        steps += 1;
        steps < MAX_STEPS
    };
    'wrap: loop {
        if c.f.year > year_limit || !tick() {
            return None;
        }
        while s.months >> c.f.month & 1 == 0 {
            if !tick() {
                return None;
            }
            if !added {
                added = true;
                let t = c.cache.date(c.f.year, i64::from(c.f.month), 1, 0, 0, 0);
                c.set(t);
            }
            c.next_month(s);
            if c.f.month == 1 {
                continue 'wrap;
            }
        }
        while !s.day_matches(c.f.day, c.f.weekday) {
            if !tick() {
                return None;
            }
            if !added {
                added = true;
                let t = c
                    .cache
                    .date(c.f.year, i64::from(c.f.month), i64::from(c.f.day), 0, 0, 0);
                c.set(t);
            }
            c.next_day(s);
            if c.f.day == 1 {
                continue 'wrap;
            }
        }
        while s.hours >> c.f.hour & 1 == 0 {
            if !tick() {
                return None;
            }
            if !added {
                added = true;
                let f = c.f;
                let t = c.cache.date(
                    f.year,
                    i64::from(f.month),
                    i64::from(f.day),
                    i64::from(f.hour),
                    0,
                    0,
                );
                c.set(t);
            }
            if c.step_until(3600, 24, s.hours, |f| f.hour) {
                continue 'wrap;
            }
        }
        while s.minutes >> c.f.minute & 1 == 0 {
            if !tick() {
                return None;
            }
            if !added {
                added = true;
                c.set(c.t - c.t.rem_euclid(60));
            }
            if c.step_until(60, 60, s.minutes, |f| f.minute) {
                continue 'wrap;
            }
        }
        while c.f.second != 0 {
            if !tick() {
                return None;
            }
            added = true;
            if c.step_until(1, 60, 1, |f| f.second) {
                continue 'wrap;
            }
        }
        return Some(c.t);
    }
}
