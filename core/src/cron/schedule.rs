//! A parsed schedule and its next fire time: robfig/cron v3.0.1 `SpecSchedule.Next` and
//! `ConstantDelaySchedule.Next`, over Go's `time.Date` offset rule (robfig `spec.go`).
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

    /// Parses `spec` like robfig/cron v3.0.1 `ParseStandard` (`parser.go`).
    ///
    /// Errors (kind): `empty_spec`, `tz_prefix_without_fields`, `unknown_location`,
    /// `unrecognized_descriptor`, `invalid_duration`, `wrong_field_count`, `invalid_number`,
    /// `negative_number`, `too_many_hyphens`, `too_many_slashes`, `below_minimum`, `above_maximum`,
    /// `range_start_after_end`, `zero_step`.
    pub fn parse(spec: &str) -> Result<Schedule> {
        super::parser::parse_standard(spec)
    }

    /// Parses the schedule the controller actually uses for `spec.schedule` + `spec.timeZone`
    /// (OpenKruise `formatSchedule`): a schedule containing `TZ` is used as is; else a
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
    #[inline]
    pub fn next(&self, after: Timestamp) -> Option<Timestamp> {
        self.next_in(after, &Zone::utc())
    }

    /// The first fire time strictly after `after`, evaluating a zone-less ("Local") schedule in
    /// `local`. No heap allocation.
    #[inline]
    pub fn next_in(&self, after: Timestamp, local: &Zone) -> Option<Timestamp> {
        let mut secs = after.as_second();
        if after.subsec_nanosecond() < 0 {
            secs -= 1;
        }
        self.next_secs(secs, local)
            .and_then(|s| Timestamp::from_second(s).ok())
    }

    /// `next` on Unix seconds (`after` already floored to a whole second).
    #[inline]
    pub(crate) fn next_secs(&self, after: i64, local: &Zone) -> Option<i64> {
        match self.kind {
            Kind::Every { seconds } => after.checked_add(i64::try_from(seconds).ok()?),
            Kind::Spec(ref f) => {
                let zone = match &self.location {
                    Location::Local => local,
                    Location::Zone(z) => z,
                };
                let mut cache = OffsetCache::new(zone);
                let start = after.checked_add(1)?;
                match later_today(f, start, &mut cache) {
                    Some(t) => Some(t),
                    None => walk(f, after, &mut cache),
                }
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

/// OpenKruise `formatSchedule` (`advancedcronjob_utils.go`): the string the controller parses.
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

/// Bits 1-12 of a month mask.
const ALL_MONTHS: u64 = 0x1ffe;
/// Bits 1-31 of a day-of-month mask.
const ALL_DAYS: u64 = 0xffff_fffe;

/// The smallest value `>= from` and `< limit` whose bit is set in `mask`.
#[inline]
fn first_at_or_after(mask: u64, from: u32, limit: u32) -> Option<u32> {
    if from >= limit {
        return None;
    }
    let rest = (mask & ((1u64 << limit) - 1)) >> from;
    (rest != 0).then(|| from + rest.trailing_zeros())
}

/// The walk's answer when it is later on the same local day as `start` (= `after` + 1 s) and the
/// zone offset is constant from a day before `start` to a day after the answer; `None` otherwise
/// (the caller then walks).
///
/// Why this equals the walk: with one offset in force over that span, every `time.Date` the walk
/// makes (its truncations look up offsets within ~1 h + the offset of `start` or the answer, well
/// inside the day margins) resolves to "wall time minus that offset", so the walk is the walk of a
/// fixed-offset zone, and in a fixed-offset zone of whole minutes robfig's walk returns the first
/// matching wall minute at or after `start` (the UTC proptest "no match is skipped" pins this). An
/// offset with seconds (old local mean times) is left to the walk: robfig's minute truncation is
/// absolute there and can skip a matching wall minute. Here that minute
/// is read straight off the bit masks: the current hour's next allowed minute, else the next
/// allowed hour's first allowed minute. No civil date is computed unless the month or
/// day-of-month field restricts.
#[inline]
fn later_today(s: &SpecFields, start: i64, cache: &mut OffsetCache<'_>) -> Option<i64> {
    let off = i64::from(cache.offset(start));
    if off % 60 != 0 {
        // robfig truncates to the absolute minute, which is not a wall minute here.
        return None;
    }
    let local = start.checked_add(off)?;
    let day = local.div_euclid(civil::DAY);
    let sod = local.rem_euclid(civil::DAY) as u32;
    let weekday = (day + 4).rem_euclid(7) as u32;
    let today = if s.months & ALL_MONTHS == ALL_MONTHS && s.days_of_month & ALL_DAYS == ALL_DAYS {
        // Every day-of-month bit is set, so only the weekday can decide.
        s.day_matches(1, weekday)
    } else {
        let (_, month, d) = civil::civil_from_days(day);
        s.months >> month & 1 == 1 && s.day_matches(d, weekday)
    };
    if !today {
        return None;
    }
    let hour = sod / 3600;
    let minute = sod / 60 % 60;
    let second = sod % 60;
    let this_hour = if s.hours >> hour & 1 == 1 {
        first_at_or_after(s.minutes, minute + u32::from(second != 0), 60)
    } else {
        None
    };
    let (h, m) = match this_hour {
        Some(m) => (hour, m),
        None => (
            first_at_or_after(s.hours, hour + 1, 24)?,
            first_at_or_after(s.minutes, 0, 60)?,
        ),
    };
    let answer = day * civil::DAY + i64::from(h) * 3600 + i64::from(m) * 60 - off;
    (start.saturating_sub(civil::DAY) >= cache.stable_from()
        && answer.saturating_add(civil::DAY) < cache.stable_until())
    .then_some(answer)
}

/// robfig's `SpecSchedule.Next` walk on Unix seconds (robfig `spec.go`).
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

#[cfg(test)]
mod fast_path_tests {
    use super::*;

    /// The same-day shortcut must give exactly what the full walk gives, around DST changes too.
    #[test]
    fn later_today_agrees_with_the_walk() {
        let specs = [
            "*/5 * * * *",
            "0 */2 * * *",
            "30 2 * * *",
            "15,45 1-3 * * 1-5",
            "0 0 29 2 *",
            "7 * 13 * 5",
            "*/7 9-17 * 3,11 *",
        ];
        let zones = [
            "UTC",
            "Asia/Shanghai",
            "America/New_York",
            "Europe/London",
            "Australia/Lord_Howe",
            "Asia/Kathmandu",
            // -00:44:30 until 1972: an offset that is not whole minutes.
            "Africa/Monrovia",
        ];
        // 2026-03-01 .. 2026-11-30 and 1965-03-01 .. 1965-11-30 in steps of 7 h 13 min 17 s, plus the seconds around them.
        let mut shortcut = 0u32;
        for (z, first) in zones
            .iter()
            .flat_map(|z| [(*z, 1_772_323_200_i64), (*z, -152_668_800)])
        {
            let zone = Zone::load(z).unwrap();
            for spec in specs {
                let Kind::Spec(f) = *Schedule::parse(spec).unwrap().kind() else {
                    unreachable!("field schedule")
                };
                let mut t = first;
                while t < first + 275 * civil::DAY {
                    for after in [t - 1, t, t + 59] {
                        let mut c1 = OffsetCache::new(&zone);
                        let fast = later_today(&f, after + 1, &mut c1);
                        let slow = walk(&f, after, &mut OffsetCache::new(&zone));
                        if let Some(x) = fast {
                            shortcut += 1;
                            assert_eq!(Some(x), slow, "{spec} in {z} after {after}");
                        }
                    }
                    t += 7 * 3600 + 13 * 60 + 17;
                }
            }
        }
        assert!(
            shortcut > 10_000,
            "the shortcut was taken only {shortcut} times"
        );
    }
}
