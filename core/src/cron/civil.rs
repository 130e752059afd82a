//! Proleptic-Gregorian civil arithmetic on Unix seconds, with Go's `time.Date` normalisation.
//!
//! Everything here is plain integer math (no zone, no allocation). Instants are `i64` Unix seconds;
//! "local seconds" are Unix seconds shifted by a zone offset (the wall clock read as if it were UTC).

/// Seconds in a day.
pub(crate) const DAY: i64 = 86_400;

/// Wall-clock fields of one instant in one zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fields {
    /// Year (proleptic Gregorian, astronomical numbering).
    pub year: i64,
    /// Month 1-12.
    pub month: u32,
    /// Day of month 1-31.
    pub day: u32,
    /// Hour 0-23.
    pub hour: u32,
    /// Minute 0-59.
    pub minute: u32,
    /// Second 0-59.
    pub second: u32,
    /// Day of week, 0 = Sunday.
    pub weekday: u32,
}

/// Days since 1970-01-01 of the civil date `y-m-d` (`m` 1-12, `d` 1-31), Howard Hinnant's algorithm.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date `(year, month, day)` of a day number since 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days in month `m` (1-12) of year `y`.
pub(crate) fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Wall-clock fields of local seconds `local`.
pub(crate) fn fields_of_local(local: i64) -> Fields {
    let days = local.div_euclid(DAY);
    let sod = local.rem_euclid(DAY);
    let (year, month, day) = civil_from_days(days);
    Fields {
        year,
        month,
        day,
        hour: (sod / 3600) as u32,
        minute: (sod / 60 % 60) as u32,
        second: (sod % 60) as u32,
        weekday: (days + 4).rem_euclid(7) as u32,
    }
}

/// Local seconds of a possibly un-normalised civil time, normalised the way Go's `time.Date` does:
/// months overflow into years first, then days, hours, minutes and seconds are simply added.
pub(crate) fn local_of_civil(
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
) -> i64 {
    let m0 = month - 1;
    let y = year + m0.div_euclid(12);
    let m = (m0.rem_euclid(12) + 1) as u32;
    let days = days_from_civil(y, m, 1) + (day - 1);
    days * DAY + hour * 3600 + minute * 60 + second
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_days() {
        for z in [
            -719_468_i64 - 1000,
            -1,
            0,
            1,
            59,
            60,
            11_016,
            19_723,
            2_932_896,
        ] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z, "{y}-{m}-{d}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn go_date_normalisation() {
        // 2026-13-01 is 2027-01-01; 2026-02-29 is 2026-03-01; 2026-01-32 is 2026-02-01.
        assert_eq!(
            local_of_civil(2026, 13, 1, 0, 0, 0),
            local_of_civil(2027, 1, 1, 0, 0, 0)
        );
        assert_eq!(
            local_of_civil(2026, 2, 29, 0, 0, 0),
            local_of_civil(2026, 3, 1, 0, 0, 0)
        );
        assert_eq!(
            local_of_civil(2026, 1, 32, 0, 0, 0),
            local_of_civil(2026, 2, 1, 0, 0, 0)
        );
        assert_eq!(
            local_of_civil(2026, 0, 1, 0, 0, 0),
            local_of_civil(2025, 12, 1, 0, 0, 0)
        );
        let f = fields_of_local(local_of_civil(2026, 6, 21, 10, 5, 7));
        assert_eq!(
            (
                f.year, f.month, f.day, f.hour, f.minute, f.second, f.weekday
            ),
            (2026, 6, 21, 10, 5, 7, 0)
        );
    }
}
