//! Fuzzes the expression lexer, compiler and evaluator: never a panic, and the outcome of a
//! compiled expression does not depend on how often it is evaluated.
#![no_main]

use kruise_core::resources::{Expression, Var};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Split: first line = variable value, rest = expression.
    let text = String::from_utf8_lossy(data);
    let (var, expr) = text.split_once('\n').unwrap_or(("250m", &text));
    let e = Expression::compile_unchecked(expr);
    let vars = [("cpu", Var::Quantity(var)), ("memory", Var::Number(2.5))];
    let first = e.eval_to_string(&vars);
    let second = e.eval_to_string(&vars);
    assert_eq!(first, second);
    let _ = Expression::compile_strict(expr);
    if let Ok(c) = Expression::compile(expr) {
        assert_eq!(c.eval_to_string(&vars), first);
    }
});
