//! The two internal representations of a quantity's value, mirroring apimachinery's
//! `int64Amount` (`amount.go`) and `infDecAmount` (`quantity.go`, over `gopkg.in/inf.v0`).
//!
//! The representation matters beyond the value: `MilliValue` rounds and overflows differently for
//! the two forms, so [`Amount`] keeps which one apimachinery would hold.

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// Largest number of decimal digits an exact intermediate value may need. Kubernetes itself
/// would try to materialise such numbers (and hang or run out of memory for exponents like
/// `1e-2147483648`); kruise-core refuses with [`Overflow`] instead.
pub const MAX_DIGITS: u64 = 20_000;

/// An exact intermediate would need more than [`MAX_DIGITS`] digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// `value * 10^scale` with an `i64` mantissa (apimachinery `int64Amount`), or an arbitrary
/// precision `unscaled * 10^-scale` (apimachinery `infDecAmount`, inf.Dec's sign of scale).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Amount {
    /// `value * 10^scale`.
    Int {
        /// Mantissa.
        value: i64,
        /// Power of ten.
        scale: i32,
    },
    /// Big decimal: `unscaled * 10^(-scale)`.
    Dec(Box<Dec>),
}

/// inf.Dec: `unscaled * 10^(-scale)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dec {
    /// Unscaled integer.
    pub unscaled: BigInt,
    /// Negative power of ten.
    pub scale: i32,
}

/// `10^n` as a big integer; errors beyond [`MAX_DIGITS`].
pub fn pow10(n: u64) -> Result<BigInt, Overflow> {
    if n > MAX_DIGITS {
        return Err(Overflow);
    }
    Ok(num_traits::pow(BigInt::from(10u8), n as usize))
}

/// Number of decimal digits of `|x|` (0 has 1 digit).
pub fn digits(x: &BigInt) -> u64 {
    if x.is_zero() {
        return 1;
    }
    // bits * log10(2), corrected exactly.
    let bits = x.bits();
    let est = ((bits.saturating_sub(1)) as f64 * std::f64::consts::LOG10_2) as u64 + 1;
    // est is either exact or one too small.
    match pow10(est) {
        Ok(p) if x.magnitude() >= p.magnitude() => est + 1,
        _ => est,
    }
}

/// Go's `big.Int.Int64()`: low 64 bits of `|x|`, negated when `x < 0`.
pub fn go_big_int64(x: &BigInt) -> i64 {
    let low = x.magnitude().iter_u64_digits().next().unwrap_or(0) as i64;
    if x.sign() == Sign::Minus {
        low.wrapping_neg()
    } else {
        low
    }
}

/// apimachinery `positiveScaleInt64`: `base * 10^scale` and whether it fit in int64. Like Go, an
/// overflow returns the **wrapped** product for the scales 1, 2, 3, 6 and 9 (computed in one
/// multiplication) and 0 for the others (computed digit by digit); `i64::MIN` gives 0; a scale
/// `<= 0` returns `base` unchanged (Go's loop does not run).
pub fn positive_scale(base: i64, scale: i32) -> (i64, bool) {
    let one_step = |b: i64| -> (i64, bool) {
        if base == 0 || base == 1 {
            return (base.wrapping_mul(b), true);
        }
        if base == i64::MIN {
            return (0, false);
        }
        match base.checked_mul(b) {
            Some(c) => (c, true),
            None => (base.wrapping_mul(b), false),
        }
    };
    match scale {
        s if s <= 0 => (base, true),
        1 => one_step(10),
        2 => one_step(100),
        3 => one_step(1000),
        6 => one_step(1_000_000),
        9 => one_step(1_000_000_000),
        _ => {
            if base == 0 {
                return (0, true);
            }
            let mut v = base;
            for _ in 0..scale {
                match v.checked_mul(10) {
                    Some(c) if v != i64::MIN => v = c,
                    _ => return (0, false),
                }
            }
            (v, true)
        }
    }
}

/// apimachinery `negativeScaleInt64`: `base / 10^scale`, rounded away from zero when inexact;
/// returns `(result, exact)`.
pub fn negative_scale(base: i64, scale: i32) -> (i64, bool) {
    if scale <= 0 {
        return (base, true);
    }
    if scale >= 19 {
        return match base.signum() {
            0 => (0, true),
            s => (s, false),
        };
    }
    let d = 10i64.pow(scale as u32);
    let q = base / d;
    let frac = base % d != 0;
    if frac {
        (q + base.signum(), false)
    } else {
        (q, true)
    }
}

/// Removes factors of `base` from `value` (apimachinery `removeInt64Factors`).
pub fn remove_i64_factors(value: i64, base: i64) -> (i64, i32) {
    let neg = value < 0;
    let mut r = if neg { value.wrapping_neg() } else { value };
    let mut times = 0i32;
    while r >= base && r % base == 0 {
        times += 1;
        r /= base;
    }
    (if neg { r.wrapping_neg() } else { r }, times)
}

/// Removes factors of `base` from a big value (apimachinery `removeBigIntFactors`).
pub fn remove_big_factors(value: &BigInt, base: u32) -> (BigInt, i32) {
    let b = BigInt::from(base);
    let mut d = value.clone();
    let mut times = 0i32;
    while !d.is_zero() {
        let (q, m) = d.div_mod_floor(&b);
        if !m.is_zero() {
            break;
        }
        times += 1;
        d = q;
    }
    (d, times)
}

impl Amount {
    /// The zero `int64Amount`.
    pub const ZERO: Amount = Amount::Int { value: 0, scale: 0 };

    /// The value as inf.Dec (apimachinery `AsDec`).
    pub fn to_dec(&self) -> Dec {
        match self {
            Amount::Int { value, scale } => Dec {
                unscaled: BigInt::from(*value),
                scale: scale.wrapping_neg(),
            },
            Amount::Dec(d) => (**d).clone(),
        }
    }

    /// Sign: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Amount::Int { value, .. } => value.signum() as i32,
            Amount::Dec(d) => match d.unscaled.sign() {
                Sign::Minus => -1,
                Sign::NoSign => 0,
                Sign::Plus => 1,
            },
        }
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.signum() == 0
    }

    /// Negation (apimachinery `Neg`; the int64 mantissa wraps like Go's).
    pub fn neg(&mut self) {
        match self {
            Amount::Int { value, .. } => *value = value.wrapping_neg(),
            Amount::Dec(d) => d.unscaled = -std::mem::take(&mut d.unscaled),
        }
    }

    /// `int64Amount.Add`: `false` when the sum does not fit (the caller then adds as decimals).
    pub(crate) fn int_add(a: &mut (i64, i32), b: (i64, i32)) -> bool {
        if b.0 == 0 {
            return true;
        }
        if a.0 == 0 {
            *a = b;
            return true;
        }
        if a.1 == b.1 {
            match a.0.checked_add(b.0) {
                Some(c) => {
                    a.0 = c;
                    true
                }
                None => false,
            }
        } else if a.1 > b.1 {
            let (c, true) = positive_scale(a.0, a.1.wrapping_sub(b.1)) else {
                return false;
            };
            let Some(c) = c.checked_add(b.0) else {
                return false;
            };
            *a = (c, b.1);
            true
        } else {
            let (c, true) = positive_scale(b.0, b.1.wrapping_sub(a.1)) else {
                return false;
            };
            let Some(c) = a.0.checked_add(c) else {
                return false;
            };
            a.0 = c;
            true
        }
    }

    /// Adds `y` exactly; int64 first, decimal when that overflows (apimachinery `Quantity.Add`
    /// without the format rule). Errors only when the exact decimal would be absurdly long.
    pub fn add(&mut self, y: &Amount) -> Result<(), Overflow> {
        if let (
            Amount::Int { value, scale },
            Amount::Int {
                value: bv,
                scale: bs,
            },
        ) = (&*self, y)
        {
            let mut a = (*value, *scale);
            if Amount::int_add(&mut a, (*bv, *bs)) {
                *self = Amount::Int {
                    value: a.0,
                    scale: a.1,
                };
                return Ok(());
            }
        }
        let x = self.to_dec();
        let y = y.to_dec();
        *self = Amount::Dec(Box::new(dec_add(&x, &y)?));
        Ok(())
    }

    /// apimachinery `MilliValue` (`ScaledValue(Milli)`): thousandths rounded up, with Go's
    /// overflow behaviour (0 for an overflowing int64 amount; the low 64 bits for a decimal).
    pub fn milli(&self) -> i64 {
        match self {
            Amount::Int { value, scale } => {
                if *scale < -3 {
                    negative_scale(*value, (-3i32).wrapping_sub(*scale)).0
                } else {
                    positive_scale(*value, scale.wrapping_sub(-3)).0
                }
            }
            Amount::Dec(d) => dec_scaled_value(&d.unscaled, d.scale, 3),
        }
    }

    /// Exact comparison of the values.
    pub fn cmp_value(&self, other: &Amount) -> Ordering {
        if let (
            Amount::Int {
                value: a,
                scale: sa,
            },
            Amount::Int {
                value: b,
                scale: sb,
            },
        ) = (self, other)
            && let Some(o) = cmp_small(*a, *sa, *b, *sb)
        {
            return o;
        }
        let (am, ae) = self.mantissa_exp();
        let (bm, be) = other.mantissa_exp();
        cmp_big(&am, ae, &bm, be)
    }

    /// `(mantissa, exponent)` with value = mantissa * 10^exponent (exponent widened to i64).
    pub fn mantissa_exp(&self) -> (BigInt, i64) {
        match self {
            Amount::Int { value, scale } => (BigInt::from(*value), *scale as i64),
            Amount::Dec(d) => (d.unscaled.clone(), -(d.scale as i64)),
        }
    }
}

/// Compares `a*10^sa` with `b*10^sb` in i128 when the exponents are close.
fn cmp_small(a: i64, sa: i32, b: i64, sb: i32) -> Option<Ordering> {
    if a == 0 || b == 0 || (a > 0) != (b > 0) {
        return Some(a.signum().cmp(&b.signum()));
    }
    let diff = sa as i64 - sb as i64;
    if diff.abs() > 18 {
        return None;
    }
    let p = 10i128.pow(diff.unsigned_abs() as u32);
    let (x, y) = if diff >= 0 {
        (a as i128 * p, b as i128)
    } else {
        (a as i128, b as i128 * p)
    };
    Some(x.cmp(&y))
}

/// Exact comparison of `a*10^ae` with `b*10^be` without materialising huge powers.
pub fn cmp_big(a: &BigInt, ae: i64, b: &BigInt, be: i64) -> Ordering {
    let (sa, sb) = (a.sign(), b.sign());
    let sign_rank = |s: Sign| match s {
        Sign::Minus => -1,
        Sign::NoSign => 0,
        Sign::Plus => 1,
    };
    if sa != sb || sa == Sign::NoSign {
        return sign_rank(sa).cmp(&sign_rank(sb));
    }
    // Same non-zero sign: compare magnitudes, then flip for negatives.
    let ma = digits(a) as i64 + ae;
    let mb = digits(b) as i64 + be;
    let mag = if ma != mb {
        ma.cmp(&mb)
    } else {
        // Same order of magnitude: the exponent gap is bounded by the digit counts.
        let diff = (ae - be).unsigned_abs();
        let p = num_traits::pow(BigInt::from(10u8), diff as usize);
        if ae >= be {
            (a.abs() * p).cmp(&b.abs())
        } else {
            a.abs().cmp(&(b.abs() * p))
        }
    };
    if sa == Sign::Minus {
        mag.reverse()
    } else {
        mag
    }
}

/// inf.Dec `Add`: the result has the larger scale.
pub fn dec_add(x: &Dec, y: &Dec) -> Result<Dec, Overflow> {
    if x.scale == y.scale {
        return Ok(Dec {
            unscaled: &x.unscaled + &y.unscaled,
            scale: x.scale,
        });
    }
    let (hi, lo) = if x.scale > y.scale { (x, y) } else { (y, x) };
    let diff = (hi.scale as i64 - lo.scale as i64) as u64;
    if lo.unscaled.is_zero() {
        return Ok(Dec {
            unscaled: hi.unscaled.clone(),
            scale: hi.scale,
        });
    }
    if diff + digits(&lo.unscaled) > MAX_DIGITS {
        return Err(Overflow);
    }
    let up = &lo.unscaled * pow10(diff)?;
    Ok(Dec {
        unscaled: &hi.unscaled + up,
        scale: hi.scale,
    })
}

/// apimachinery `scaledValue(unscaled, scale, newScale)` (value in units of `10^-new_scale`,
/// rounded up; Go's int64 wrap-around kept).
pub fn dec_scaled_value(unscaled: &BigInt, scale: i32, new_scale: i32) -> i64 {
    let dif = scale.wrapping_sub(new_scale);
    if dif == 0 {
        return go_big_int64(unscaled);
    }
    if dif < 0 {
        // int64(math.Pow10(-dif)) on amd64: out of range gives MinInt64.
        let p = 10f64.powi(dif.wrapping_neg());
        return go_big_int64(unscaled).wrapping_mul(crate::quantity::go_f64_to_i64(p));
    }
    if unscaled < &BigInt::from(i64::MAX) && dif < 19 {
        let u = go_big_int64(unscaled);
        let d = 10i64.pow(dif as u32);
        let (q, m) = (u / d, u % d);
        return if m != 0 { q.wrapping_add(1) } else { q };
    }
    // Euclidean DivMod (divisor positive: floor division, non-negative remainder).
    if dif as u64 > digits(unscaled) + 1 {
        // |unscaled| < 10^dif: quotient is 0 (positive) or -1 (negative), remainder non-zero.
        return match unscaled.sign() {
            Sign::Minus => 0,
            Sign::NoSign => 0,
            Sign::Plus => 1,
        };
    }
    let d = num_traits::pow(BigInt::from(10u8), dif as usize);
    let (q, r) = unscaled.div_mod_floor(&d);
    let v = go_big_int64(&q);
    if r.is_zero() { v } else { v.wrapping_add(1) }
}

/// inf.Dec `Round(x, s, RoundUp)` (away from zero); returns the rounded value and whether it is
/// exact.
pub fn dec_round_up(x: &Dec, s: i32) -> Result<(Dec, bool), Overflow> {
    if x.scale <= s {
        let diff = (s as i64 - x.scale as i64) as u64;
        if x.unscaled.is_zero() {
            return Ok((
                Dec {
                    unscaled: BigInt::zero(),
                    scale: s,
                },
                true,
            ));
        }
        if diff + digits(&x.unscaled) > MAX_DIGITS {
            return Err(Overflow);
        }
        return Ok((
            Dec {
                unscaled: &x.unscaled * pow10(diff)?,
                scale: s,
            },
            true,
        ));
    }
    let diff = (x.scale as i64 - s as i64) as u64;
    if x.unscaled.is_zero() {
        return Ok((
            Dec {
                unscaled: BigInt::zero(),
                scale: s,
            },
            true,
        ));
    }
    if diff > digits(&x.unscaled) {
        let one = if x.unscaled.is_negative() {
            BigInt::from(-1)
        } else {
            BigInt::from(1)
        };
        return Ok((
            Dec {
                unscaled: one,
                scale: s,
            },
            false,
        ));
    }
    let d = pow10(diff)?;
    let (q, r) = (&x.unscaled / &d, &x.unscaled % &d);
    if r.is_zero() {
        Ok((
            Dec {
                unscaled: q,
                scale: s,
            },
            true,
        ))
    } else {
        let q = if x.unscaled.is_negative() {
            q - 1
        } else {
            q + 1
        };
        Ok((
            Dec {
                unscaled: q,
                scale: s,
            },
            false,
        ))
    }
}
