//! Canonical printing (apimachinery `Quantity.String` / `CanonicalizeBytes`, `AsCanonicalBytes`,
//! `AsCanonicalBase1024Bytes`, `suffixer.construct`).

use super::amount::{
    Amount, Dec, dec_round_up, negative_scale, positive_scale, remove_big_factors,
    remove_i64_factors,
};
use super::{Format, Quantity};
use num_bigint::BigInt;
use num_traits::Zero;
use std::cmp::Ordering;
use std::fmt::{self, Write};

/// A printed mantissa: small values stay on the stack.
enum Number {
    Small(i64),
    Big(BigInt),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Small(v) => write_int(*v, f),
            Number::Big(v) => write!(f, "{v}"),
        }
    }
}

/// Writes a decimal integer without going through `fmt` padding machinery.
#[inline]
pub(crate) fn write_int<W: Write + ?Sized>(v: i64, out: &mut W) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut m = v.unsigned_abs();
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + (m % 10) as u8;
        }
        m /= 10;
        if m == 0 || i == 0 {
            break;
        }
    }
    if v < 0 {
        out.write_char('-')?;
    }
    out.write_str(std::str::from_utf8(buf.get(i..).unwrap_or(&[])).unwrap_or(""))
}

/// Writes the canonical form of `q` (ignoring retained text) to `out`.
pub fn write_canonical<W: Write>(q: &Quantity<'_>, out: &mut W) -> fmt::Result {
    if q.amount.is_zero() {
        return out.write_str("0");
    }
    let mut format = q.format;
    let mut rounded: Option<Amount> = None;
    match format {
        Format::DecimalExponent | Format::DecimalSI => {}
        Format::BinarySI => {
            let lo = Amount::Int {
                value: -1024,
                scale: 0,
            };
            let hi = Amount::Int {
                value: 1024,
                scale: 0,
            };
            if q.amount.cmp_value(&lo) == Ordering::Greater
                && q.amount.cmp_value(&hi) == Ordering::Less
            {
                format = Format::DecimalSI;
            } else {
                match as_scale0(&q.amount) {
                    Some((r, true)) => rounded = Some(r),
                    _ => format = Format::DecimalSI,
                }
            }
        }
        Format::Empty => format = Format::DecimalExponent,
    }
    match (format, rounded) {
        (Format::BinarySI, Some(r)) => {
            let (number, exponent) = canonical_base1024(&r);
            write_number(&number, out)?;
            match exponent {
                1 => out.write_str("Ki"),
                2 => out.write_str("Mi"),
                3 => out.write_str("Gi"),
                4 => out.write_str("Ti"),
                5 => out.write_str("Pi"),
                6 => out.write_str("Ei"),
                _ => Ok(()),
            }
        }
        _ => {
            let (number, exponent) = canonical_base10(&q.amount);
            write_number(&number, out)?;
            if format == Format::DecimalExponent {
                if exponent != 0 {
                    write!(out, "e{exponent}")?;
                }
                return Ok(());
            }
            out.write_str(match exponent {
                -9 => "n",
                -6 => "u",
                -3 => "m",
                3 => "k",
                6 => "M",
                9 => "G",
                12 => "T",
                15 => "P",
                18 => "E",
                _ => "",
            })
        }
    }
}

fn write_number<W: Write>(n: &Number, out: &mut W) -> fmt::Result {
    match n {
        Number::Small(v) => write_int(*v, out),
        Number::Big(v) => write!(out, "{v}"),
    }
}

/// `AsScale(0)`: the value rounded up to an integer, and whether that was exact. `None` when an
/// exact decimal would be absurdly long (then printed as DecimalSI, which needs no rounding).
fn as_scale0(a: &Amount) -> Option<(Amount, bool)> {
    match a {
        Amount::Int { value, scale } => {
            if *scale >= 0 {
                Some((a.clone(), true))
            } else {
                let (v, exact) = negative_scale(*value, scale.wrapping_neg());
                Some((Amount::Int { value: v, scale: 0 }, exact))
            }
        }
        Amount::Dec(d) => {
            let (r, exact) = dec_round_up(d, 0).ok()?;
            Some((Amount::Dec(Box::new(r)), exact))
        }
    }
}

/// `AsCanonicalBytes`: mantissa and a power-of-ten exponent that is a multiple of 3.
fn canonical_base10(a: &Amount) -> (Number, i32) {
    if let Amount::Int { value, scale } = a {
        let (amount, times) = remove_i64_factors(*value, 10);
        let mut exponent = scale.wrapping_add(times);
        let fixed = match exponent % 3 {
            1 | -2 => amount.checked_mul(10).inspect(|_| {
                exponent = exponent.wrapping_sub(1);
            }),
            2 | -1 => amount.checked_mul(100).inspect(|_| {
                exponent = exponent.wrapping_sub(2);
            }),
            _ => Some(amount),
        };
        if let Some(v) = fixed {
            return (Number::Small(v), exponent);
        }
    }
    let d: Dec = a.to_dec();
    let (mut amount, times) = remove_big_factors(&d.unscaled, 10);
    let mut exponent = d.scale.wrapping_neg().wrapping_add(times);
    while exponent % 3 != 0 {
        amount *= 10;
        exponent = exponent.wrapping_sub(1);
    }
    (Number::Big(amount), exponent)
}

/// `AsCanonicalBase1024Bytes` of an integral amount: mantissa and power of 1024.
fn canonical_base1024(a: &Amount) -> (Number, i32) {
    if let Amount::Int { value, scale } = a
        && let (v, true) = positive_scale(*value, *scale)
    {
        let (amount, exponent) = remove_i64_factors(v, 1024);
        return (Number::Small(amount), exponent);
    }
    let d = a.to_dec();
    let r = dec_round_up(&d, 0)
        .map(|(r, _)| r.unscaled)
        .unwrap_or_else(|_| BigInt::zero());
    let (amount, exponent) = remove_big_factors(&r, 1024);
    (Number::Big(amount), exponent)
}
