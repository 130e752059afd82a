//! Quantity behaviour pinned against apimachinery v0.32.10 (values obtained by running
//! `resource.ParseQuantity`, `String()` and `MilliValue()`).

use super::*;

/// (input, printed string or None for a parse error, MilliValue).
const PARSE_TABLE: &[(&str, Option<&str>, i64)] = &[
    ("0", Some("0"), 0),
    ("1", Some("1"), 1000),
    ("100m", Some("100m"), 100),
    ("1.500m", Some("1.500m"), 2),
    ("1.250k", Some("1.250k"), 1250000),
    ("0100m", Some("0100m"), 100),
    ("100.m", Some("100.m"), 100),
    ("1.500", Some("1.500"), 1500),
    ("1000m", Some("1"), 1000),
    ("0.5", Some("500m"), 500),
    ("1024Mi", Some("1Gi"), 1073741824000),
    ("1.5Gi", Some("1536Mi"), 1610612736000),
    ("1.5Ki", Some("1536"), 1536000),
    ("1Ki", Some("1Ki"), 1024000),
    ("1e9", Some("1e9"), 1000000000000),
    ("1E", Some("1E"), 0),
    ("1e3", Some("1e3"), 1000000),
    ("1e-3", Some("1e-3"), 1),
    ("1.5e3", Some("1500"), 1500000),
    ("-1", Some("-1"), -1000),
    ("-100m", Some("-100m"), -100),
    ("+5", Some("+5"), 5000),
    ("500u", Some("500u"), 1),
    ("1n", Some("1n"), 1),
    ("0.1n", Some("1n"), 1),
    ("-0.1n", Some("-1n"), 1),
    ("1.0000000001", Some("1000000001n"), 1001),
    (
        "123456789012345678901234567890",
        Some("123456789012345678901234567890"),
        8982045596877734992,
    ),
    ("1e30", Some("1e30"), 0),
    ("8Ei", Some("9223372036854775807"), -1000),
    ("4Ei", Some("4Ei"), 0),
    ("10P", Some("10P"), 0),
    ("9223372036854775807", Some("9223372036854775807"), -1000),
    ("9223372036854775808", Some("9223372036854775808"), 0),
    ("0.5Ki", Some("512"), 512000),
    ("1Pi", Some("1Pi"), 1125899906842624000),
    ("999Ti", Some("999Ti"), 1098412116148224000),
    ("1000Ti", Some("1000Ti"), 1099511627776000000),
    ("1e400", Some("10e399"), 0),
    ("1.5e-2147483648", Some("150e2147483646"), 15),
    ("-", Some("0"), 0),
    ("+", Some("0"), 0),
    ("Ki", Some("0"), 0),
    (".", Some("0"), 0),
    ("", None, 0),
    ("1 ", None, 0),
    ("1e", None, 0),
    ("1e+", None, 0),
    ("1mi", None, 0),
    ("1.5.5", None, 0),
    ("1e3m", None, 0),
    ("1Ki5", None, 0),
    ("--1", None, 0),
    ("1.", Some("1."), 1000),
    ("  1", None, 0),
    ("1E5", Some("100e3"), 100000000),
    (
        "12345678901234567890m",
        Some("12345678901234567890m"),
        -6101065172474983726,
    ),
    ("0.000000000000000000001", Some("1n"), 1),
    (
        "-12345678901234567890123",
        Some("-12345678901234567890123"),
        -6432227781342,
    ),
    ("1e-10", Some("1e-9"), 1),
    ("7Ki", Some("7Ki"), 7168000),
    ("8Ki", Some("8Ki"), 8192000),
    ("1023", Some("1023"), 1023000),
    ("1025Ki", Some("1025Ki"), 1049600000),
    ("0.0000000000000000000", Some("0"), 0),
    ("1e2147483647", Some("10e2147483646"), 1),
    ("1e-9", Some("1e-9"), 1),
    ("1e-12", Some("1e-9"), 1),
    ("1.5Mi", Some("1536Ki"), 1572864000),
    ("100Ki", Some("100Ki"), 102400000),
    ("0.1Ki", Some("102400m"), 102400),
];

#[test]
fn parse_print_milli_match_apimachinery() {
    for (input, printed, milli) in PARSE_TABLE {
        match (Quantity::parse(input), printed) {
            (Ok(q), Some(p)) => {
                assert_eq!(q.to_string(), *p, "String() of {input:?}");
                assert_eq!(q.milli_value(), *milli, "MilliValue() of {input:?}");
            }
            (Err(_), None) => {}
            (got, want) => panic!("{input:?}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn parse_errors_have_reasons() {
    assert_eq!(Quantity::parse("1e3m").unwrap_err(), QuantityError::Format);
    assert_eq!(Quantity::parse("1mi").unwrap_err(), QuantityError::Suffix);
    assert_eq!(Quantity::parse("").unwrap_err(), QuantityError::Empty);
    assert_eq!(
        Quantity::parse(".e-20").unwrap_err(),
        QuantityError::Numeric
    );
    assert_eq!(
        Quantity::parse("1e3m").unwrap_err().kind(),
        "invalid_quantity"
    );
}

#[test]
fn huge_exponents_do_not_hang() {
    // Kubernetes would build a 2^31-digit number here; we refuse.
    assert_eq!(
        Quantity::parse("1e2147483648").unwrap_err(),
        QuantityError::TooLarge
    );
    let mut q = Quantity::parse("1e2000000000").unwrap();
    assert_eq!(q.to_string(), "100e1999999998");
    assert_eq!(
        q.add(&Quantity::parse("1").unwrap()).unwrap_err(),
        QuantityError::TooLarge
    );
}

#[test]
fn add_sub_format_rules() {
    let mut z = Quantity::from_i64(0, Format::DecimalSI);
    z.add(&Quantity::parse("1Mi").unwrap()).unwrap();
    assert_eq!(z.to_string(), "1Mi");
    let mut a = Quantity::parse("1Gi").unwrap();
    a.add(&Quantity::parse("100Mi").unwrap()).unwrap();
    assert_eq!(a.to_string(), "1124Mi");
    let mut b = Quantity::parse("100m").unwrap();
    b.sub(&Quantity::parse("1").unwrap()).unwrap();
    assert_eq!(b.to_string(), "-900m");
    // int64 overflow falls back to exact decimals.
    let mut c = Quantity::parse("9223372036854775807").unwrap();
    c.add(&Quantity::parse("9223372036854775807").unwrap())
        .unwrap();
    assert_eq!(c.to_string(), "18446744073709551614");
}

#[test]
fn compare_is_exact() {
    let a = Quantity::parse("1Gi").unwrap();
    let b = Quantity::parse("1073741824").unwrap();
    assert_eq!(a.cmp_value(&b), Ordering::Equal);
    let c = Quantity::parse("1073741824001m").unwrap();
    assert_eq!(a.cmp_value(&c), Ordering::Less);
    let big = Quantity::parse("123456789012345678901234567890").unwrap();
    assert_eq!(
        big.cmp_value(&Quantity::parse("1e29").unwrap()),
        Ordering::Greater
    );
    assert_eq!(
        big.cmp_value(&Quantity::parse("1e30").unwrap()),
        Ordering::Less
    );
}

#[test]
fn go_float_to_int_conversion() {
    assert_eq!(go_f64_to_i64(1.9), 1);
    assert_eq!(go_f64_to_i64(-1.9), -1);
    assert_eq!(go_f64_to_i64(f64::NAN), i64::MIN);
    assert_eq!(go_f64_to_i64(1e19), i64::MIN);
    assert_eq!(go_f64_to_i64(f64::INFINITY), i64::MIN);
}
