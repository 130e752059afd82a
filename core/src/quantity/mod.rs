//! Exact Kubernetes quantities, mirroring apimachinery `pkg/api/resource` v0.32 (`quantity.go`,
//! `amount.go`, `suffix.go`, `math.go`, `scale_int.go`).
//!
//! A [`Quantity`] holds an exact decimal value, a [`Format`] and, when the parser kept it, the text
//! as written ("retained text", printed verbatim until an operation changes the value). Values
//! that fit apimachinery's int64 fast path stay in an `i64` mantissa with a power-of-ten scale (no
//! heap); larger ones use an arbitrary-precision decimal, exactly as apimachinery switches to
//! `inf.Dec`. No `f64` is involved in parsing, printing, comparing or adding.
//!
//! ```
//! use kruise_core::quantity::Quantity;
//! let q = Quantity::parse("1.5Gi").unwrap();
//! assert_eq!(q.to_string(), "1536Mi");
//! assert_eq!(Quantity::parse("1.500m").unwrap().to_string(), "1.500m"); // retained text
//! let mut sum = Quantity::parse("100m").unwrap();
//! sum.add(&Quantity::parse("1").unwrap()).unwrap();
//! assert_eq!(sum.to_string(), "1100m");
//! assert_eq!(Quantity::parse("500u").unwrap().milli_value(), 1); // rounded up
//! ```

pub(crate) mod amount;
pub(crate) mod parse;
pub(crate) mod print;

use crate::error::Error;
use amount::Amount;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

/// Error kind of a quantity Kubernetes rejects.
pub const INVALID_QUANTITY: &str = "invalid_quantity";
/// Error kind when an exact result would need more than 20,000 (`MAX_DIGITS`) digits (where
/// Kubernetes itself would try to build the number and stall; see `docs/deviations.md`).
pub const QUANTITY_OUT_OF_RANGE: &str = "quantity_out_of_range";

/// How a quantity prints (apimachinery `Format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Powers of ten with SI suffixes (`m`, `k`, `M`, ...).
    DecimalSI,
    /// Powers of 1024 (`Ki`, `Mi`, ...).
    BinarySI,
    /// `e<n>` exponents.
    DecimalExponent,
    /// No format: only the zero quantity (`resource.Quantity{}`) has it; prints `0`.
    Empty,
}

/// Why a quantity string is rejected (apimachinery `ErrFormatWrong`, `ErrSuffix`, `ErrNumeric`),
/// plus [`QuantityError::TooLarge`] for values kruise-core refuses to materialise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantityError {
    /// The empty string.
    Empty,
    /// Text after the number that is not `[eEinumkKMGTP]*[+-]?[0-9]*`.
    Format,
    /// A suffix that is neither SI, binary SI nor `e<int64>`.
    Suffix,
    /// No digit in the number part (slow path only).
    Numeric,
    /// Exact value would need more than 20,000 (`MAX_DIGITS`) digits.
    TooLarge,
}

impl QuantityError {
    /// Human-readable reason.
    pub fn reason(self) -> &'static str {
        match self {
            QuantityError::Empty => "a quantity cannot be empty",
            QuantityError::Format => {
                "a quantity must be a signed decimal number followed by an optional suffix of the form [eEinumkKMGTP]*[-+]?[0-9]*"
            }
            QuantityError::Suffix => {
                "the suffix is not one of n u m k M G T P E Ki Mi Gi Ti Pi Ei or e<integer>"
            }
            QuantityError::Numeric => "the numeric part of the quantity has no digits",
            QuantityError::TooLarge => "the quantity's exponent is too large to represent exactly",
        }
    }

    /// The error kind: `invalid_quantity`, or `quantity_out_of_range` for [`QuantityError::TooLarge`].
    pub fn kind(self) -> &'static str {
        match self {
            QuantityError::TooLarge => QUANTITY_OUT_OF_RANGE,
            _ => INVALID_QUANTITY,
        }
    }

    /// As a kruise-core [`Error`] about `field`, quoting the text.
    pub fn to_error(self, field: &str, text: &str) -> Error {
        Error::at(
            self.kind(),
            field,
            format_args!("{text:?} is not a valid quantity: {}", self.reason()),
        )
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

/// An exact Kubernetes quantity (apimachinery `resource.Quantity`).
///
/// `'a` is the lifetime of the retained text when it borrows the parsed string; use
/// [`Quantity::into_owned`] to detach it. Cloning a small quantity with borrowed text does not
/// allocate.
#[derive(Debug, Clone)]
pub struct Quantity<'a> {
    pub(crate) amount: Amount,
    pub(crate) format: Format,
    pub(crate) text: Option<Cow<'a, str>>,
}

impl PartialEq for Quantity<'_> {
    /// Equal values (formats and retained text are ignored), like apimachinery `Cmp == 0`.
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Quantity<'static> {
    /// The zero quantity with no format (`resource.Quantity{}`): prints `0`.
    pub const ZERO: Quantity<'static> = Quantity {
        amount: Amount::ZERO,
        format: Format::Empty,
        text: None,
    };

    /// `resource.NewMilliQuantity(millis, format)`.
    pub fn from_milli(millis: i64, format: Format) -> Self {
        Quantity {
            amount: Amount::Int {
                value: millis,
                scale: -3,
            },
            format,
            text: None,
        }
    }

    /// `resource.NewQuantity(value, format)`.
    pub fn from_i64(value: i64, format: Format) -> Self {
        Quantity {
            amount: Amount::Int { value, scale: 0 },
            format,
            text: None,
        }
    }
}

impl<'a> Quantity<'a> {
    /// Parses a quantity exactly like apimachinery `ParseQuantity`: optional sign, digits with an
    /// optional `.` fraction, then a suffix (`n u m k M G T P E`, `Ki Mi Gi Ti Pi Ei`, or
    /// `e`/`E` + a signed integer). Values with more than 9 fractional digits round up to `1n`
    /// steps; BinarySI values are capped at 2^63-1. The text is retained (printed verbatim) when
    /// apimachinery keeps it (fast path and already canonical-looking, e.g. `1.500m`, `0100m`).
    ///
    /// Errors: [`QuantityError`] (kind `invalid_quantity`), or `TooLarge` for exponents whose exact
    /// value would exceed 20,000 (`MAX_DIGITS`) digits.
    pub fn parse(s: &'a str) -> Result<Quantity<'a>, QuantityError> {
        parse::parse(s)
    }

    /// Parses and detaches from `s`.
    pub fn parse_owned(s: &str) -> Result<Quantity<'static>, QuantityError> {
        parse::parse(s).map(Quantity::into_owned)
    }

    /// This quantity with owned retained text.
    pub fn into_owned(self) -> Quantity<'static> {
        Quantity {
            amount: self.amount,
            format: self.format,
            text: self.text.map(|t| Cow::Owned(t.into_owned())),
        }
    }

    /// A copy borrowing this quantity's retained text (no allocation for int64-sized values).
    pub fn reborrow(&self) -> Quantity<'_> {
        Quantity {
            amount: self.amount.clone(),
            format: self.format,
            text: self.text.as_deref().map(Cow::Borrowed),
        }
    }

    /// This value without retained text (no allocation).
    pub fn without_text(self) -> Quantity<'static> {
        Quantity {
            amount: self.amount,
            format: self.format,
            text: None,
        }
    }

    /// This value with `text` as its retained text (`None` drops it). The caller vouches that
    /// the text denotes this value.
    pub(crate) fn with_text<'b>(self, text: Option<&'b str>) -> Quantity<'b> {
        Quantity {
            amount: self.amount,
            format: self.format,
            text: text.map(Cow::Borrowed),
        }
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The retained text, if the parser kept it and no operation changed the value since.
    pub fn retained_text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.amount.is_zero()
    }

    /// Sign of the value: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        self.amount.signum()
    }

    /// Exact comparison of values (apimachinery `Cmp`).
    pub fn cmp_value(&self, other: &Quantity<'_>) -> Ordering {
        self.amount.cmp_value(&other.amount)
    }

    /// Adds `y` exactly (apimachinery `Add`): the retained text is dropped; when this value is
    /// zero it first takes `y`'s format.
    ///
    /// Errors: [`QuantityError::TooLarge`] only when the exact sum would need more than
    /// 20,000 (`MAX_DIGITS`) digits.
    pub fn add(&mut self, y: &Quantity<'_>) -> Result<(), QuantityError> {
        self.text = None;
        if self.amount.is_zero() {
            self.format = y.format;
        }
        self.amount
            .add(&y.amount)
            .map_err(|_| QuantityError::TooLarge)
    }

    /// Subtracts `y` exactly (adds its negation; format rule as [`Quantity::add`]).
    pub fn sub(&mut self, y: &Quantity<'_>) -> Result<(), QuantityError> {
        let mut n = y.reborrow();
        n.neg();
        self.add(&n)
    }

    /// Negates (apimachinery `Neg`); drops the retained text.
    pub fn neg(&mut self) {
        self.text = None;
        self.amount.neg();
    }

    /// apimachinery `MilliValue`: the value in thousandths, rounded up (away from zero for an
    /// int64 amount); 0 when an int64 amount overflows; the low 64 bits (Go `big.Int.Int64`)
    /// for a big decimal.
    pub fn milli_value(&self) -> i64 {
        self.amount.milli()
    }

    /// apimachinery `SetMilli`: value := `millis / 1000`, format kept, text dropped.
    pub fn set_milli(&mut self, millis: i64) {
        self.text = None;
        self.amount = Amount::Int {
            value: millis,
            scale: -3,
        };
    }

    /// apimachinery `RoundUp(scale)`: rounds the value away from zero to a multiple of
    /// `10^scale` (`-3` = milli precision) and returns whether that was exact. An int64 amount
    /// already that coarse is left alone; otherwise the retained text is dropped.
    ///
    /// Errors: [`QuantityError::TooLarge`] when a big-decimal result would need more than
    /// 20,000 (`MAX_DIGITS`) digits (the value is then unchanged).
    pub fn round_up(&mut self, scale: i32) -> Result<bool, QuantityError> {
        let (rounded, exact) = match &self.amount {
            Amount::Int { scale: s, .. } if *s >= scale => return Ok(true),
            Amount::Int { value, scale: s } => {
                let (v, exact) = amount::negative_scale(*value, scale.saturating_sub(*s));
                (Amount::Int { value: v, scale }, exact)
            }
            Amount::Dec(d) => {
                let (r, exact) = amount::dec_round_up(d, scale.wrapping_neg())
                    .map_err(|_| QuantityError::TooLarge)?;
                (Amount::Dec(Box::new(r)), exact)
            }
        };
        self.text = None;
        self.amount = rounded;
        Ok(exact)
    }

    /// The canonical string, ignoring any retained text.
    pub fn canonical(&self) -> String {
        let mut s = String::new();
        let _ = print::write_canonical(self, &mut s);
        s
    }
}

impl fmt::Display for Quantity<'_> {
    /// apimachinery `String()`: the retained text if any, else the canonical form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(t) => f.write_str(t),
            None => print::write_canonical(self, f),
        }
    }
}

impl std::str::FromStr for Quantity<'static> {
    type Err = QuantityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse_owned(s)
    }
}

/// Go's `int64(f)` on amd64 (CVTTSD2SI): truncation toward zero; NaN and values outside the
/// int64 range give `i64::MIN` (Rust's `as` would saturate instead).
pub fn go_f64_to_i64(f: f64) -> i64 {
    if f.is_nan() || !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

#[cfg(test)]
mod tests;
