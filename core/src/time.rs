//! RFC 3339 times as Kubernetes reads them: Go `time.Parse(time.RFC3339, s)`, which is what
//! `metav1.Time` JSON unmarshalling (apimachinery `meta/v1/time.go`) and OpenKruise's own time
//! fields use. The one time parser of every family.

use crate::error::{Error, Result};
use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::Offset;

/// Parses `YYYY-MM-DDTHH:MM:SS`, an optional fraction (`.` or `,`, any number of digits, cut at
/// nanoseconds), then `Z` or `±HH:MM`, as Go's `time.Parse(time.RFC3339, s)` accepts it (the hour
/// may have one digit; `T`/`Z` are upper case; no space separator). `None` where Go fails
/// (including calendar-invalid dates such as February 30).
pub fn parse_rfc3339(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let num = |i: usize, n: usize| -> Option<i64> {
        let part = b.get(i..i + n)?;
        part.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let year = num(0, 4)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || b.get(10) != Some(&b'T') {
        return None;
    }
    let month = num(5, 2)?;
    let day = num(8, 2)?;
    // Go's hour directive takes one or two digits.
    let (hour, mut i) = match (num(11, 2), num(11, 1)) {
        (Some(h), _) => (h, 13),
        (None, Some(h)) => (h, 12),
        _ => return None,
    };
    if b.get(i) != Some(&b':') || b.get(i + 3) != Some(&b':') {
        return None;
    }
    let minute = num(i + 1, 2)?;
    let second = num(i + 4, 2)?;
    i += 6;
    let mut nanos: i32 = 0;
    if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        let mut scale = 100_000_000i32;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            nanos += i32::from(c - b'0') * scale;
            scale /= 10;
            i += 1;
        }
    }
    let offset = match b.get(i)? {
        b'Z' if b.len() == i + 1 => 0,
        c @ (b'+' | b'-') if b.len() == i + 6 && b[i + 3] == b':' => {
            let hh = num(i + 1, 2)?;
            let mm = num(i + 4, 2)?;
            if hh > 24 || mm > 60 {
                return None;
            }
            let o = hh * 3600 + mm * 60;
            if *c == b'-' { -o } else { o }
        }
        _ => return None,
    };
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let small = |v: i64| i8::try_from(v).ok();
    let dt = DateTime::new(
        i16::try_from(year).ok()?,
        small(month)?,
        small(day)?,
        small(hour)?,
        small(minute)?,
        small(second)?,
        nanos,
    )
    .ok()?;
    let offset = Offset::from_seconds(i32::try_from(offset).ok()?).ok()?;
    offset.to_timestamp(dt).ok()
}

/// [`parse_rfc3339`] for an input field: error `invalid_input` naming `field`.
pub fn parse_time(s: &str, field: &str) -> Result<Timestamp> {
    parse_rfc3339(s)
        .ok_or_else(|| Error::invalid_input(field, format_args!("{s:?} is not an RFC 3339 time")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Option<(i64, i32)> {
        parse_rfc3339(s).map(|t| (t.as_second(), t.subsec_nanosecond()))
    }

    #[test]
    fn accepts_what_go_accepts() {
        assert_eq!(at("2026-06-21T10:00:00Z"), Some((1_782_036_000, 0)));
        assert_eq!(at("2026-06-21T18:00:00+08:00"), Some((1_782_036_000, 0)));
        assert_eq!(at("2026-06-21T09:30:00-00:30"), Some((1_782_036_000, 0)));
        assert_eq!(
            at("2026-06-21T10:00:00.5Z"),
            Some((1_782_036_000, 500_000_000))
        );
        assert_eq!(
            at("2026-06-21T10:00:00,25Z"),
            Some((1_782_036_000, 250_000_000))
        );
        assert_eq!(
            at("2026-06-21T10:00:00.1234567891Z"),
            Some((1_782_036_000, 123_456_789))
        );
        assert_eq!(at("2026-06-21T9:00:00-01:00"), Some((1_782_036_000, 0)));
        assert_eq!(at("2024-02-29T00:00:00Z"), Some((1_709_164_800, 0)));
    }

    #[test]
    fn rejects_what_go_rejects() {
        for s in [
            "",
            "not-a-time",
            "2026-02-30T10:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-06-21 10:00:00Z",
            "2026-06-21t10:00:00Z",
            "2026-06-21T10:00:00z",
            "2026-06-21T10:00:00",
            "2026-06-21T24:00:00Z",
            "2026-06-21T10:60:00Z",
            "2026-06-21T10:00:00+0100",
            "2026-06-21T10:00:00Z ",
            "2026-13-01T10:00:00Z",
        ] {
            assert_eq!(at(s), None, "{s:?}");
        }
        let e = parse_time("yesterday", "now").unwrap_err();
        assert_eq!((e.kind, e.field.as_deref()), ("invalid_input", Some("now")));
    }

    #[test]
    fn cron_view_floors_seconds_before_1970() {
        use crate::cron::zone::parse_rfc3339 as secs_nanos;
        assert_eq!(
            secs_nanos("1969-12-31T23:59:59.5Z"),
            Some((-1, 500_000_000))
        );
        assert_eq!(
            secs_nanos("1970-01-01T00:00:00.25Z"),
            Some((0, 250_000_000))
        );
        assert_eq!(
            secs_nanos("0001-01-01T00:00:00Z"),
            Some((-62_135_596_800, 0))
        );
    }
}
