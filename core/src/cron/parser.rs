//! The robfig/cron v3.0.1 `ParseStandard` dialect (`parser.go`): optional `TZ=`/`CRON_TZ=` prefix,
//! descriptors, then five fields `minute hour day-of-month month day-of-week`.
//!
//! Written from the behaviour, not the code: error order and kinds follow robfig's `parser.go`.

use super::duration::parse_go_duration;
use super::schedule::{Kind, Schedule, SpecFields};
use super::zone::Location;
use crate::error::{Error, Result};
use crate::intstr::atoi;

/// Error kinds of the parser (`cron.parse` error kinds).
pub mod kinds {
    /// The schedule is the empty string.
    pub const EMPTY_SPEC: &str = "empty_spec";
    /// `TZ=`/`CRON_TZ=` with no space after it (a panic in Go).
    pub const TZ_PREFIX_WITHOUT_FIELDS: &str = "tz_prefix_without_fields";
    /// `@...` that is no descriptor.
    pub const UNRECOGNIZED_DESCRIPTOR: &str = "unrecognized_descriptor";
    /// `@every` with a bad Go duration.
    pub const INVALID_DURATION: &str = "invalid_duration";
    /// Not exactly five fields.
    pub const WRONG_FIELD_COUNT: &str = "wrong_field_count";
    /// A value that is neither a number nor a name of its field.
    pub const INVALID_NUMBER: &str = "invalid_number";
    /// A negative step.
    pub const NEGATIVE_NUMBER: &str = "negative_number";
    /// `a-b-c`.
    pub const TOO_MANY_HYPHENS: &str = "too_many_hyphens";
    /// `a/b/c`.
    pub const TOO_MANY_SLASHES: &str = "too_many_slashes";
    /// Range start below the field minimum.
    pub const BELOW_MINIMUM: &str = "below_minimum";
    /// Range end above the field maximum.
    pub const ABOVE_MAXIMUM: &str = "above_maximum";
    /// `b-a` with `b > a`.
    pub const RANGE_START_AFTER_END: &str = "range_start_after_end";
    /// `/0`.
    pub const ZERO_STEP: &str = "zero_step";
}
use kinds::*;

struct Bounds {
    field: &'static str,
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds {
    field: "minute",
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    field: "hour",
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    field: "day-of-month",
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    field: "month",
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    field: "day-of-week",
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

/// Bits `min..=max` stepping by `step`.
fn bits(min: u64, max: u64, step: u64) -> u64 {
    let mut out = 0u64;
    let mut i = min;
    while i <= max && i < 64 {
        out |= 1 << i;
        i = match i.checked_add(step) {
            Some(n) => n,
            None => break,
        };
    }
    out
}

fn all(b: &Bounds) -> u64 {
    bits(b.min, b.max, 1)
}

/// `ParseStandard(spec)`. See the module docs for the accepted language.
pub(crate) fn parse_standard(spec: &str) -> Result<Schedule> {
    if spec.is_empty() {
        return Err(Error::new(EMPTY_SPEC, "empty spec string"));
    }
    let mut location = Location::Local;
    let mut body = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let Some(space) = spec.find(' ') else {
            return Err(Error::new(
                TZ_PREFIX_WITHOUT_FIELDS,
                format!("time zone prefix without fields: {spec:?}"),
            ));
        };
        let eq = spec.find('=').map_or(0, |i| i + 1);
        let name = spec.get(eq..space).unwrap_or("");
        location = Location::load(name)
            .map_err(|e| Error::new(e.kind, format!("provided bad location {name:?}")))?;
        body = spec[space..].trim();
    }
    if body.starts_with('@') {
        return descriptor(body, location);
    }
    let mut fields = [""; 5];
    let mut n = 0usize;
    for f in body.split(char::is_whitespace).filter(|f| !f.is_empty()) {
        if let Some(slot) = fields.get_mut(n) {
            *slot = f;
        }
        n += 1;
    }
    if n != 5 {
        return Err(Error::new(
            WRONG_FIELD_COUNT,
            format!("expected exactly 5 fields, found {n}: {body:?}"),
        ));
    }
    let (minutes, _) = field(fields[0], &MINUTES)?;
    let (hours, _) = field(fields[1], &HOURS)?;
    let (days_of_month, dom_star) = field(fields[2], &DOM)?;
    let (months, _) = field(fields[3], &MONTHS)?;
    let (days_of_week, dow_star) = field(fields[4], &DOW)?;
    let f = SpecFields {
        minutes,
        hours,
        days_of_month,
        months,
        days_of_week,
        dom_star,
        dow_star,
    };
    Ok(Schedule::from_parts(Kind::Spec(f), location))
}

fn descriptor(d: &str, location: Location) -> Result<Schedule> {
    let spec = |minutes, hours, dom: u64, dom_star, months, dow: u64, dow_star| {
        let f = SpecFields {
            minutes,
            hours,
            days_of_month: dom,
            months,
            days_of_week: dow,
            dom_star,
            dow_star,
        };
        Ok(Schedule::from_parts(Kind::Spec(f), location.clone()))
    };
    match d {
        "@yearly" | "@annually" => spec(1, 1, 1 << 1, false, 1 << 1, all(&DOW), true),
        "@monthly" => spec(1, 1, 1 << 1, false, all(&MONTHS), all(&DOW), true),
        "@weekly" => spec(1, 1, all(&DOM), true, all(&MONTHS), 1, false),
        "@daily" | "@midnight" => spec(1, 1, all(&DOM), true, all(&MONTHS), all(&DOW), true),
        "@hourly" => spec(
            1,
            all(&HOURS),
            all(&DOM),
            true,
            all(&MONTHS),
            all(&DOW),
            true,
        ),
        _ => match d.strip_prefix("@every ") {
            Some(text) => {
                let ns = parse_go_duration(text).ok_or_else(|| {
                    Error::new(INVALID_DURATION, format!("failed to parse duration {d:?}"))
                })?;
                let secs = if ns < 1_000_000_000 {
                    1
                } else {
                    (ns / 1_000_000_000) as u64
                };
                Ok(Schedule::from_parts(
                    Kind::Every { seconds: secs },
                    Location::Local,
                ))
            }
            None => Err(Error::new(
                UNRECOGNIZED_DESCRIPTOR,
                format!("unrecognized descriptor: {d:?}"),
            )),
        },
    }
}

/// One field: comma-separated items, empty items dropped. Returns the bit set and the star flag.
fn field(text: &str, b: &Bounds) -> Result<(u64, bool)> {
    let mut set = 0u64;
    let mut star = false;
    for item in text.split(',').filter(|s| !s.is_empty()) {
        let (bits, s) = range(item, b)?;
        set |= bits;
        star |= s;
    }
    Ok((set, star))
}

fn err(kind: &'static str, b: &Bounds, item: &str, what: impl std::fmt::Display) -> Error {
    Error::new(kind, format!("{} field: {what}: {item:?}", b.field))
}

fn number(text: &str, b: &Bounds, item: &str) -> Result<u64> {
    match atoi(text.bytes()) {
        None => Err(err(
            INVALID_NUMBER,
            b,
            item,
            format_args!("failed to parse int from {text:?}"),
        )),
        Some(n) if n < 0 => Err(err(
            NEGATIVE_NUMBER,
            b,
            item,
            format_args!("negative number ({n}) not allowed"),
        )),
        Some(n) => Ok(n as u64),
    }
}

fn number_or_name(text: &str, b: &Bounds, item: &str) -> Result<u64> {
    if !b.names.is_empty() {
        let lower = text.to_lowercase();
        if let Some(&(_, v)) = b.names.iter().find(|(n, _)| *n == lower) {
            return Ok(v);
        }
    }
    number(text, b, item)
}

/// One item `low[-high][/step]`, with Go's order of checks.
fn range(item: &str, b: &Bounds) -> Result<(u64, bool)> {
    let mut slash = item.split('/');
    let range_part = slash.next().unwrap_or("");
    let step_part = slash.next();
    let extra_slash = slash.next().is_some();
    let mut hyphen = range_part.split('-');
    let low = hyphen.next().unwrap_or("");
    let high = hyphen.next();
    let extra_hyphen = hyphen.next().is_some();
    let single = high.is_none();

    let (start, mut end, mut star);
    if low == "*" || low == "?" {
        (start, end, star) = (b.min, b.max, true);
    } else {
        start = number_or_name(low, b, item)?;
        star = false;
        end = match high {
            None => start,
            Some(h) if !extra_hyphen => number_or_name(h, b, item)?,
            Some(_) => return Err(err(TOO_MANY_HYPHENS, b, item, "too many hyphens")),
        };
    }
    let step = match step_part {
        None => 1,
        Some(_) if extra_slash => return Err(err(TOO_MANY_SLASHES, b, item, "too many slashes")),
        Some(s) => {
            let step = number(s, b, item)?;
            if single {
                end = b.max;
            }
            if step > 1 {
                star = false;
            }
            step
        }
    };
    if start < b.min {
        return Err(err(
            BELOW_MINIMUM,
            b,
            item,
            format_args!("beginning of range ({start}) below minimum ({})", b.min),
        ));
    }
    if end > b.max {
        return Err(err(
            ABOVE_MAXIMUM,
            b,
            item,
            format_args!("end of range ({end}) above maximum ({})", b.max),
        ));
    }
    if start > end {
        return Err(err(
            RANGE_START_AFTER_END,
            b,
            item,
            format_args!("beginning of range ({start}) beyond end of range ({end})"),
        ));
    }
    if step == 0 {
        return Err(err(
            ZERO_STEP,
            b,
            item,
            "step of range should be a positive number",
        ));
    }
    Ok((bits(start, end, step), star))
}
