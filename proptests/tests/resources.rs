//! Property tests of exact quantities and resource expressions.

use kruise_core::quantity::Quantity;
use kruise_core::resources::{Expression, Value, Var};
use proptest::prelude::*;
use std::cmp::Ordering;

/// Quantity texts Kubernetes accepts whose canonical form keeps the value (exponents up to E).
fn quantity_text() -> impl Strategy<Value = String> {
    signed_quantity_text(true)
}

/// As [`quantity_text`]; `allow_negative = false` gives values >= 0 only.
fn signed_quantity_text(allow_negative: bool) -> impl Strategy<Value = String> {
    let suffix = prop::sample::select(vec![
        "", "n", "u", "m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi", "e3", "e-6", "E2",
    ]);
    (
        any::<bool>(),
        0u64..1_000_000,
        prop::option::of(0u32..1000),
        suffix,
    )
        .prop_map(move |(neg, int, frac, suf)| {
            let sign = if neg && allow_negative { "-" } else { "" };
            match frac {
                Some(f) => format!("{sign}{int}.{f:03}{suf}"),
                None => format!("{sign}{int}{suf}"),
            }
        })
}

fn q(s: &str) -> Quantity<'static> {
    Quantity::parse_owned(s).expect("generated quantities parse")
}

fn eval_q<'a>(e: &'a Expression, vars: &[(&str, Var<'a>)]) -> Option<Quantity<'a>> {
    match e.eval(vars) {
        Ok(Value::Quantity(q)) => Some(q),
        _ => None,
    }
}

proptest! {
    #![proptest_config(kruise_proptests::config(2000))]

    #[test]
    fn canonical_round_trip(text in quantity_text()) {
        let a = q(&text);
        let printed = a.canonical();
        let b = q(&printed);
        prop_assert_eq!(a.cmp_value(&b), Ordering::Equal, "{} printed as {}", text, printed);
        prop_assert_eq!(b.canonical(), printed.clone());
        // The retained text, when kept, denotes the same value.
        let shown = a.to_string();
        prop_assert_eq!(q(&shown).cmp_value(&a), Ordering::Equal);
    }

    #[test]
    fn add_then_sub_is_identity(a in quantity_text(), b in quantity_text()) {
        let qa = q(&a);
        let qb = q(&b);
        let mut r = qa.clone();
        r.add(&qb).unwrap();
        r.sub(&qb).unwrap();
        prop_assert_eq!(r.cmp_value(&qa), Ordering::Equal, "{} + {} - {}", a, b, b);
        // Through the calculator too (exact quantity addition).
        let e = Expression::compile("a + b - b").unwrap();
        let got = eval_q(&e, &[("a", Var::Quantity(&a)), ("b", Var::Quantity(&b))]);
        if qa.signum() >= 0 {
            prop_assert_eq!(got.map(|g| g.cmp_value(&qa)), Some(Ordering::Equal));
        }
    }

    #[test]
    fn max_min_laws(a in signed_quantity_text(false), b in signed_quantity_text(false)) {
        let (qa, qb) = (q(&a), q(&b));
        let max = Expression::compile("max(a, b)").unwrap();
        let max_rev = Expression::compile("max(b, a)").unwrap();
        let min = Expression::compile("min(a, b)").unwrap();
        let min_rev = Expression::compile("min(b, a)").unwrap();
        let vars = [("a", Var::Quantity(&a)), ("b", Var::Quantity(&b))];
        let (m1, m2) = (eval_q(&max, &vars).unwrap(), eval_q(&max_rev, &vars).unwrap());
        let (n1, n2) = (eval_q(&min, &vars).unwrap(), eval_q(&min_rev, &vars).unwrap());
        prop_assert_eq!(m1.cmp_value(&m2), Ordering::Equal);
        prop_assert_eq!(n1.cmp_value(&n2), Ordering::Equal);
        prop_assert!(m1.cmp_value(&qa) != Ordering::Less && m1.cmp_value(&qb) != Ordering::Less);
        prop_assert!(n1.cmp_value(&qa) != Ordering::Greater && n1.cmp_value(&qb) != Ordering::Greater);
        // Idempotent, and a tie keeps the left operand as written.
        let same = Expression::compile("max(a, a)").unwrap();
        prop_assert_eq!(eval_q(&same, &vars).unwrap().to_string(), qa.to_string());
    }

    #[test]
    fn eval_never_panics_on_arbitrary_text(s in ".{0,64}") {
        let e = Expression::compile_unchecked(&s);
        let _ = e.eval(&[("cpu", Var::Quantity("250m")), ("memory", Var::Number(2.0))]);
        let _ = Expression::compile(&s);
        let _ = Expression::compile_strict(&s);
        let _ = Quantity::parse(&s);
    }

    #[test]
    fn eval_never_panics_on_token_soup(parts in prop::collection::vec(prop::sample::select(vec![
        "1", "0", "1e400", "1e-400", "50%", "100m", "1Gi", "8Ei", "9223372036854775807", "1e18", "cpu", "memory",
        "max", "min", "foo", "(", ")", ",", "+", "-", "*", "/", " ", "1K", ".", "e", "%", "\u{0}", "\u{e9}",
    ]), 0..40)) {
        let s: String = parts.concat();
        let e = Expression::compile_unchecked(&s);
        let _ = e.eval(&[("cpu", Var::Quantity("1e2000000000")), ("memory", Var::Quantity("123456789012345678901234567890"))]);
        let _ = e.eval(&[("cpu", Var::Number(f64::NAN)), ("memory", Var::Number(-0.0))]);
    }
}

proptest! {
    #![proptest_config(kruise_proptests::config(3000))]

    /// One-pass evaluation (used by `resources.eval`) and compiled evaluation agree.
    #[test]
    fn one_pass_equals_compiled(parts in prop::collection::vec(prop::sample::select(vec![
        "1", "0", "2.5", "50%", "100m", "1Gi", "1.5Ki", "1.500m", "1e3m", "cpu", "CPU", "memory", "x",
        "max", "min", "Max", "foo", "(", ")", ",", "+", "-", "*", "/", " ", "1K", ".", "@", "\u{e9}",
    ]), 0..24)) {
        let s: String = parts.concat();
        let vars = [("cpu", Var::Quantity("1.500m")), ("memory", Var::Number(3.0))];
        let once = Expression::eval_once_to_string(&s, &vars).map_err(|e| (e.kind, e.message));
        let compiled = Expression::compile_unchecked(&s).eval_to_string(&vars).map_err(|e| (e.kind, e.message));
        prop_assert_eq!(once, compiled, "{:?}", s);
    }
}
