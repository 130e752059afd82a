//! Go's `time.ParseDuration`, as `@every <d>` uses it.
//!
//! Grammar: an optional sign, then one or more `<number><unit>` terms, where a number is decimal
//! digits with an optional fraction and the units are `ns us µs μs ms s m h`; the bare `0` is allowed.
//! Result in nanoseconds (Go's `time.Duration`, an `i64`).

const NS: u64 = 1;
const US: u64 = 1_000;
const MS: u64 = 1_000_000;
const S: u64 = 1_000_000_000;
const LIMIT: u64 = 1 << 63;

fn unit(u: &[u8]) -> Option<u64> {
    Some(match u {
        b"ns" => NS,
        b"us" | [0xC2, 0xB5, b's'] | [0xCE, 0xBC, b's'] => US, // us, µs (U+00B5), μs (U+03BC)
        b"ms" => MS,
        b"s" => S,
        b"m" => 60 * S,
        b"h" => 3600 * S,
        _ => return None,
    })
}

/// Parses a Go duration into nanoseconds; `None` where Go returns an error (bad syntax, unknown or
/// missing unit, overflow of `i64` nanoseconds).
pub fn parse_go_duration(s: &str) -> Option<i64> {
    let mut b = s.as_bytes();
    let mut neg = false;
    if let Some(&c @ (b'-' | b'+')) = b.first() {
        neg = c == b'-';
        b = &b[1..];
    }
    if b == b"0" {
        return Some(0);
    }
    if b.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !b.is_empty() {
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return None;
        }
        // integer part
        let mut v: u64 = 0;
        let mut i = 0;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            if v > LIMIT / 10 {
                return None;
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return None;
            }
            i += 1;
        }
        let pre = i > 0;
        b = &b[i..];
        // fraction
        let mut f: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut post = false;
        if b.first() == Some(&b'.') {
            b = &b[1..];
            let mut j = 0;
            let mut overflow = false;
            while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
                j += 1;
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = j > 0;
            b = &b[j..];
        }
        if !pre && !post {
            return None;
        }
        // unit: everything up to the next digit or '.'
        let n = b
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(b.len());
        if n == 0 {
            return None;
        }
        let u = unit(&b[..n])?;
        b = &b[n..];
        if v > LIMIT / u {
            return None;
        }
        v *= u;
        if f > 0 {
            v += (f as f64 * (u as f64 / scale)) as u64;
            if v > LIMIT {
                return None;
            }
        }
        total += v;
        if total > LIMIT {
            return None;
        }
    }
    if neg {
        return Some((total as i64).wrapping_neg());
    }
    if total > LIMIT - 1 {
        return None;
    }
    Some(total as i64)
}

#[cfg(test)]
mod tests {
    use super::parse_go_duration as p;

    #[test]
    fn go_durations() {
        assert_eq!(p("1h30m"), Some(5_400_000_000_000));
        assert_eq!(p("90s"), Some(90_000_000_000));
        assert_eq!(p("1.5h"), Some(5_400_000_000_000));
        assert_eq!(p(".5s"), Some(500_000_000));
        assert_eq!(p("1µs"), Some(1_000));
        assert_eq!(p("1μs"), Some(1_000));
        assert_eq!(p("-1s"), Some(-1_000_000_000));
        assert_eq!(p("0"), Some(0));
        assert_eq!(p("+0"), Some(0));
        assert_eq!(p(""), None);
        assert_eq!(p("1"), None);
        assert_eq!(p("1d"), None);
        assert_eq!(p("."), None);
        assert_eq!(p("1h "), None);
        assert_eq!(p(" 1h"), None);
        assert_eq!(p("9223372036854775807ns"), Some(i64::MAX));
        assert_eq!(p("9223372036854775808ns"), None);
        assert_eq!(p("-9223372036854775808ns"), Some(i64::MIN));
        assert_eq!(p("2562048h"), None);
    }
}
