//! Time zones as Go's `time.LoadLocation` resolves them, backed by jiff's bundled tz database, and
//! Go's `time.Date` rule for turning a wall-clock time into an instant.
//!
//! Mirrors `time.LoadLocation` and `time.Date` of Go (used by robfig/cron v3.0.1 and OpenKruise's
//! `formatSchedule`). Zone data comes from jiff's bundled tzdb, never from the host.

use super::civil::{self, Fields};
use crate::error::{Error, Result};
use jiff::Timestamp;
use jiff::tz::TimeZone;

/// Error kind for a zone name Go cannot load.
pub const UNKNOWN_LOCATION: &str = "unknown_location";

/// A loaded time zone: UTC (Go's `""`/`"UTC"`) or an IANA zone from the bundled tz database.
///
/// Cloning is cheap (a reference count); offset lookups never allocate.
#[derive(Debug, Clone)]
pub struct Zone {
    tz: TimeZone,
    utc: bool,
    /// For zones whose offset never changes again (no daylight-saving rule): since when, and the
    /// offset. Lets lookups after that instant skip jiff, like Go's per-Location zone cache.
    tail: Option<(i64, i32)>,
}

impl PartialEq for Zone {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Zone {
    /// UTC.
    pub fn utc() -> Zone {
        Zone {
            tz: TimeZone::UTC,
            utc: true,
            tail: None,
        }
    }

    /// Loads `name` the way Go's `time.LoadLocation` does, except `"Local"` (see [`Location::load`]):
    /// `""` and `"UTC"` give UTC; any other name must be an IANA tz database name spelled exactly
    /// (case-sensitive, as Go's lookup is); names containing `..` or starting with `/` or `\` are
    /// refused.
    ///
    /// Errors: `unknown_location`.
    pub fn load(name: &str) -> Result<Zone> {
        if name.is_empty() || name == "UTC" {
            return Ok(Zone::utc());
        }
        let bad = || Error::new(UNKNOWN_LOCATION, format!("unknown time zone {name:?}"));
        if name.contains("..") || name.starts_with('/') || name.starts_with('\\') || name == "Local"
        {
            return Err(bad());
        }
        match jiff::tz::db().get(name) {
            Ok(tz) if tz.iana_name() == Some(name) => Ok(Zone::from_tz(tz)),
            _ => Err(bad()),
        }
    }

    /// A zone built from TZif bytes (e.g. from the `time/tzdata` of the Go release a controller was
    /// built with), to pin the tz database version instead of the bundled one.
    ///
    /// Errors: `unknown_location` when the data is not valid TZif.
    pub fn from_tzif(name: &str, data: &[u8]) -> Result<Zone> {
        match TimeZone::tzif(name, data) {
            Ok(tz) => Ok(Zone::from_tz(tz)),
            Err(e) => Err(Error::new(
                UNKNOWN_LOCATION,
                format!("time zone {name:?}: {e}"),
            )),
        }
    }

    fn from_tz(tz: TimeZone) -> Zone {
        // The last change jiff knows of before year 9999: a zone with a daylight-saving rule has
        // one in 9999 itself; a zone that settled on one offset has its last one long before.
        let last = Timestamp::from_second(TS_MAX - 1)
            .ok()
            .map(|end| tz.preceding(end).next());
        let tail = match last {
            Some(Some(tr)) if tr.timestamp().as_second() < TAIL_BEFORE => {
                Some((tr.timestamp().as_second(), tr.offset().seconds()))
            }
            Some(None) => Some((i64::MIN, tz.to_offset(Timestamp::UNIX_EPOCH).seconds())),
            _ => None,
        };
        Zone {
            tz,
            utc: false,
            tail,
        }
    }

    /// The zone's name: `"UTC"` or the IANA name as loaded.
    pub fn name(&self) -> &str {
        if self.utc {
            "UTC"
        } else {
            self.tz.iana_name().unwrap_or("UTC")
        }
    }

    /// The jiff zone behind this one.
    pub fn time_zone(&self) -> &TimeZone {
        &self.tz
    }

    /// Offset east of UTC, in seconds, at Unix second `t`.
    pub fn offset_at(&self, t: i64) -> i32 {
        OffsetCache::new(self).offset(t)
    }
}

/// Where a schedule is evaluated: a fixed zone, or "Local", meaning the zone of the time passed to
/// `next` (Go's `time.Local` handling in `SpecSchedule.Next`).
#[derive(Debug, Clone, PartialEq)]
pub enum Location {
    /// No zone of its own: evaluated in the caller's zone.
    Local,
    /// A loaded zone.
    Zone(Zone),
}

impl Location {
    /// Go's `time.LoadLocation`, `"Local"` included. Errors: `unknown_location`.
    pub fn load(name: &str) -> Result<Location> {
        if name == "Local" {
            Ok(Location::Local)
        } else {
            Zone::load(name).map(Location::Zone)
        }
    }

    /// The name reported by `cron.parse`: `None` for Local, else the zone name.
    pub fn name(&self) -> Option<&str> {
        match self {
            Location::Local => None,
            Location::Zone(z) => Some(z.name()),
        }
    }
}

/// A zone whose last known offset change is before 2200-01-01 keeps that offset forever.
const TAIL_BEFORE: i64 = 7_258_118_400;

/// Smallest and largest Unix second jiff can represent; lookups outside are clamped.
const TS_MIN: i64 = -377_705_116_800;
const TS_MAX: i64 = 253_402_207_200;

/// How far ahead a cache refill looks for the next offset change (40 days: longer than any jump).
const HI_WINDOW: i64 = 40 * 86_400;

/// An offset lookup with a one-interval cache: between two transitions the offset is constant, so
/// repeated lookups in the same interval cost two comparisons. Borrowed, never allocates.
pub(crate) struct OffsetCache<'a> {
    tz: &'a TimeZone,
    utc: bool,
    lo: i64,
    hi: i64,
    off: i32,
}

impl<'a> OffsetCache<'a> {
    /// A fresh cache over `zone`.
    #[inline]
    pub(crate) fn new(zone: &'a Zone) -> Self {
        let (lo, hi, off) = match zone.tail {
            Some((from, off)) => (from, TS_MAX, off),
            None => (1, 0, 0),
        };
        OffsetCache {
            tz: &zone.tz,
            utc: zone.utc,
            lo,
            hi,
            off,
        }
    }

    /// Offset in seconds at Unix second `t`.
    #[inline]
    pub(crate) fn offset(&mut self, t: i64) -> i32 {
        if self.utc {
            return 0;
        }
        if self.lo <= t && t < self.hi {
            return self.off;
        }
        self.refill(t)
    }

    /// Looks the offset at `t` up in jiff and caches the interval around it.
    #[inline(never)]
    fn refill(&mut self, t: i64) -> i32 {
        let c = t.clamp(TS_MIN + 1, TS_MAX - 1);
        let Ok(ts) = Timestamp::from_second(c) else {
            return 0;
        };
        // One walk back from the end of a window finds both the change that started the current
        // offset (`lo`) and the first change after `c` (`hi`); with no change in the window its
        // end is a safe bound. (jiff's `preceding` is much cheaper than `following`.)
        let end = c.saturating_add(HI_WINDOW).min(TS_MAX - 1);
        self.hi = end;
        self.lo = i64::MIN;
        let mut off = None;
        if let Ok(probe) = Timestamp::from_second(end) {
            for tr in self.tz.preceding(probe) {
                let at = tr.timestamp().as_second();
                if at <= c {
                    self.lo = at;
                    off = Some(tr.offset().seconds());
                    break;
                }
                self.hi = at;
            }
        }
        self.off = match off {
            Some(o) => o,
            None => self.tz.to_offset(ts).seconds(),
        };
        if c != t {
            // Outside jiff's range: only answer for this very second.
            self.lo = t;
            self.hi = t.saturating_add(1);
        }
        self.off
    }

    /// Seconds until the cached interval containing `t` ends (valid right after `offset(t)`).
    #[inline]
    pub(crate) fn stable_until(&self) -> i64 {
        if self.utc { i64::MAX } else { self.hi }
    }

    /// Start of the cached interval (valid right after `offset(t)`).
    #[inline]
    pub(crate) fn stable_from(&self) -> i64 {
        if self.utc { i64::MIN } else { self.lo }
    }

    /// Wall-clock fields of Unix second `t`.
    pub(crate) fn fields(&mut self, t: i64) -> Fields {
        let off = self.offset(t);
        civil::fields_of_local(t + i64::from(off))
    }

    /// Go's `time.Date(y, mo, d, h, mi, s, 0, zone)` as Unix seconds: the wall time `w` (fields read
    /// as UTC, normalised like Go) becomes `w - offset_at(w - offset_at(w))`. In a gap this gives the
    /// instant written with the offset in force before... or after the change depending on the sign
    /// of the offset, exactly as Go does; in an overlap it picks the occurrence Go picks.
    pub(crate) fn date(&mut self, y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
        let w = civil::local_of_civil(y, mo, d, h, mi, s);
        let o1 = i64::from(self.offset(w));
        if o1 == 0 {
            return w;
        }
        let o2 = i64::from(self.offset(w - o1));
        w - o2
    }
}

/// [`crate::time::parse_rfc3339`] (Go `time.Parse(time.RFC3339, s)`) as Unix seconds (floor) and
/// nanoseconds. `None` when Go would fail.
pub fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let t = crate::time::parse_rfc3339(s)?;
    let (secs, nanos) = (t.as_second(), t.subsec_nanosecond());
    // jiff splits towards zero; callers want floor seconds plus a non-negative fraction
    Some(if nanos < 0 {
        (secs - 1, (nanos + 1_000_000_000).unsigned_abs())
    } else {
        (secs, nanos.unsigned_abs())
    })
}

/// Parses an RFC 3339 input field (Go `time.Parse(time.RFC3339, ..)`); `invalid_input` naming
/// `field` otherwise.
pub(crate) fn time_field(s: &str, field: &str) -> Result<(i64, u32)> {
    parse_rfc3339(s)
        .ok_or_else(|| Error::invalid_input(field, format!("{s:?} is not an RFC 3339 time")))
}

/// Loads the controller's local zone (`localTimeZone`, default UTC). `"Local"` means UTC here.
/// Errors: `unknown_location` naming `field`.
pub(crate) fn local_zone(name: Option<&str>, field: &str) -> Result<Zone> {
    match name.map(Location::load).transpose() {
        Ok(None | Some(Location::Local)) => Ok(Zone::utc()),
        Ok(Some(Location::Zone(z))) => Ok(z),
        Err(e) => Err(Error::at(e.kind, field, e.message)),
    }
}

/// Formats Unix second `t` as RFC 3339 in UTC (`2026-06-21T10:00:00Z`).
pub fn format_utc(t: i64) -> String {
    let f = civil::fields_of_local(t);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        f.year, f.month, f.day, f.hour, f.minute, f.second
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_like_go() {
        assert_eq!(Zone::load("").unwrap().name(), "UTC");
        assert_eq!(Zone::load("UTC").unwrap().name(), "UTC");
        assert_eq!(Zone::load("Asia/Shanghai").unwrap().name(), "Asia/Shanghai");
        assert_eq!(
            Zone::load("asia/shanghai").unwrap_err().kind,
            UNKNOWN_LOCATION
        );
        assert_eq!(
            Zone::load("Mars/Olympus").unwrap_err().kind,
            UNKNOWN_LOCATION
        );
        assert_eq!(
            Zone::load("../etc/passwd").unwrap_err().kind,
            UNKNOWN_LOCATION
        );
        assert_eq!(Location::load("Local").unwrap(), Location::Local);
    }

    #[test]
    fn go_date_in_gap_and_fold() {
        let ny = Zone::load("America/New_York").unwrap();
        let mut c = OffsetCache::new(&ny);
        // 2026-03-08 02:30 does not exist in New York: Go gives 01:30 EST = 06:30Z.
        assert_eq!(
            format_utc(c.date(2026, 3, 8, 2, 30, 0)),
            "2026-03-08T06:30:00Z"
        );
        // 2026-11-01 01:30 happens twice: Go gives the first (EDT) one, 05:30Z.
        assert_eq!(
            format_utc(c.date(2026, 11, 1, 1, 30, 0)),
            "2026-11-01T05:30:00Z"
        );
        let berlin = Zone::load("Europe/Berlin").unwrap();
        let mut c = OffsetCache::new(&berlin);
        // 2026-03-29 02:30 does not exist in Berlin: Go gives 03:30 CEST = 01:30Z.
        assert_eq!(
            format_utc(c.date(2026, 3, 29, 2, 30, 0)),
            "2026-03-29T01:30:00Z"
        );
        let london = Zone::load("Europe/London").unwrap();
        let mut c = OffsetCache::new(&london);
        // 2026-10-25 01:30 happens twice in London: Go picks the second (GMT) one.
        assert_eq!(
            format_utc(c.date(2026, 10, 25, 1, 30, 0)),
            "2026-10-25T01:30:00Z"
        );
    }

    #[test]
    fn constant_tail_only_after_the_last_change() {
        let sh = Zone::load("Asia/Shanghai").unwrap();
        // China observed daylight saving time 1986-1991: July 1988 was +09:00.
        assert_eq!(
            sh.offset_at(parse_rfc3339("1988-07-01T00:00:00Z").unwrap().0),
            9 * 3600
        );
        assert_eq!(
            sh.offset_at(parse_rfc3339("2026-07-01T00:00:00Z").unwrap().0),
            8 * 3600
        );
        assert_eq!(
            sh.offset_at(parse_rfc3339("2300-01-01T00:00:00Z").unwrap().0),
            8 * 3600
        );
        let ny = Zone::load("America/New_York").unwrap();
        assert_eq!(
            ny.offset_at(parse_rfc3339("2300-07-01T00:00:00Z").unwrap().0),
            -4 * 3600
        );
        assert_eq!(
            ny.offset_at(parse_rfc3339("2300-01-01T00:00:00Z").unwrap().0),
            -5 * 3600
        );
    }

    #[test]
    fn rfc3339_like_go() {
        assert_eq!(
            parse_rfc3339("2026-06-21T10:00:00Z"),
            Some((1_782_036_000, 0))
        );
        assert_eq!(
            parse_rfc3339("2026-06-21T18:00:00+08:00"),
            Some((1_782_036_000, 0))
        );
        assert_eq!(
            parse_rfc3339("2026-06-21T10:00:00.5Z"),
            Some((1_782_036_000, 500_000_000))
        );
        assert_eq!(parse_rfc3339("2026-02-30T10:00:00Z"), None);
        assert_eq!(parse_rfc3339("2026-06-21 10:00:00Z"), None);
        assert_eq!(parse_rfc3339("2026-06-21T10:00:00z"), None);
        assert_eq!(parse_rfc3339("not-a-time"), None);
        assert_eq!(format_utc(1_782_036_000), "2026-06-21T10:00:00Z");
    }
}
