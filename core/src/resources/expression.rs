//! [`Expression`]: compile once, evaluate many times (OpenKruise `pkg/util/calculator`,
//! `calculator.go` + the semantic actions of `calculator.y`).

use super::compile::{Lint, Op, Program, SyntaxError, compile};
use super::number::write_go_g;
use crate::error::{Error, Result};
use crate::quantity::{Format, QUANTITY_OUT_OF_RANGE, Quantity, QuantityError, go_f64_to_i64};
use std::cmp::Ordering;
use std::fmt;

/// Error kinds of the calculator (spec section 11).
pub mod kind {
    /// The parser rejected the text and nothing else was recorded.
    pub const SYNTAX_ERROR: &str = "syntax_error";
    /// A QUANTITY literal (or variable value) Kubernetes rejects.
    pub const INVALID_QUANTITY: &str = "invalid_quantity";
    /// Identifier not bound.
    pub const UNDEFINED_VARIABLE: &str = "undefined_variable";
    /// A call of anything but `max`/`min`.
    pub const UNKNOWN_FUNCTION: &str = "unknown_function";
    /// `max`/`min` with one argument.
    pub const WRONG_ARGUMENT_COUNT: &str = "wrong_argument_count";
    /// `*` with two quantities.
    pub const QUANTITY_TIMES_QUANTITY: &str = "quantity_times_quantity";
    /// `/` with a quantity divisor.
    pub const DIVISION_BY_QUANTITY: &str = "division_by_quantity";
    /// `/` by the number 0.
    pub const DIVISION_BY_ZERO: &str = "division_by_zero";
    /// The final value is negative.
    pub const NEGATIVE_RESULT: &str = "negative_result";
    /// A strict-mode finding (see [`super::Expression::compile_strict`]).
    pub const SUSPICIOUS_NUMBER: &str = "suspicious_number";
}

/// A variable's value: quantity text (parsed like Kubernetes does) or a plain float64 number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Var<'a> {
    /// Quantity text such as `"200m"` or `"1.5Gi"`; its retained text is kept (borrowed).
    Quantity(&'a str),
    /// A plain number (the reference's `Value{IsQuantity: false}`).
    Number(f64),
}

/// A calculator value: a float64 number or an exact quantity (possibly borrowing its text from
/// the expression or a variable).
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// IEEE-754 double.
    Number(f64),
    /// Kubernetes quantity.
    Quantity(Quantity<'a>),
}

impl fmt::Display for Value<'_> {
    /// The printed result (spec section 5): the quantity's string, or Go `%g` for a number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write_go_g(*n, f),
            Value::Quantity(q) => fmt::Display::fmt(q, f),
        }
    }
}

impl Value<'_> {
    /// Detaches the value from the expression and variables.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Number(n) => Value::Number(n),
            Value::Quantity(q) => Value::Quantity(q.into_owned()),
        }
    }
}

/// A compiled resource expression. `Clone + Send + Sync`; evaluation takes `&self`.
///
/// ```
/// use kruise_core::resources::{Expression, Var};
/// let e = Expression::compile("max(cpu*50%, 50m)").unwrap();
/// assert_eq!(e.eval_to_string(&[("cpu", Var::Quantity("200m"))]).unwrap(), "100m");
/// assert_eq!(e.eval_to_string(&[("cpu", Var::Quantity("60m"))]).unwrap(), "50m");
/// assert_eq!(e.eval(&[("cpu", Var::Quantity("1"))]).unwrap().to_string(), "500m");
/// ```
#[derive(Debug, Clone)]
pub struct Expression {
    src: Box<str>,
    prog: Program,
    has_vars: bool,
}

/// The single "last error wins" slot of the reference calculator (`Calculator.lastError`);
/// holds only indices so recording an error does not allocate.
#[derive(Debug, Clone, Copy)]
enum Recorded {
    InvalidQuantity(u32),
    Undefined(u32),
    UnknownFunction(u32),
    ArgCount(u32),
    QuantityTimesQuantity,
    DivisionByQuantity,
    DivisionByZero,
    OutOfRange,
}

const INLINE: usize = 16;

/// Value stack: inline for ordinary expressions, spilling to the heap only when deeper than
/// [`INLINE`].
struct Stack<'a> {
    inline: [Option<Value<'a>>; INLINE],
    len: usize,
    spill: Vec<Option<Value<'a>>>,
}

impl<'a> Stack<'a> {
    fn new() -> Self {
        Stack { inline: [const { None }; INLINE], len: 0, spill: Vec::new() }
    }
    fn push(&mut self, v: Option<Value<'a>>) {
        if self.len < INLINE {
            self.inline[self.len] = v;
        } else {
            self.spill.push(v);
        }
        self.len += 1;
    }
    fn pop(&mut self) -> Option<Value<'a>> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < INLINE { self.inline[self.len].take() } else { self.spill.pop().flatten() }
    }
}

/// `toQuantity` of a number: `NewMilliQuantity(int64(n*1000), DecimalSI)`.
fn number_to_quantity(n: f64) -> Quantity<'static> {
    Quantity::from_milli(go_f64_to_i64(n * 1000.0), Format::DecimalSI)
}

fn to_quantity(v: Value<'_>) -> Quantity<'_> {
    match v {
        Value::Quantity(q) => q,
        Value::Number(n) => number_to_quantity(n),
    }
}

impl Expression {
    /// Compiles `src`.
    ///
    /// Errors: only when the outcome is an error whatever the variables are: a syntax error
    /// whose already-evaluated prefix references no variable (kind `syntax_error`, or the error
    /// that prefix records, e.g. `invalid_quantity` for `1e3m +`). A syntactically broken
    /// expression that references variables compiles, and [`Expression::eval`] reports what the
    /// reference reports (which can depend on the variables: `foo 1` gives
    /// `undefined_variable` without `foo`, `syntax_error` with it).
    pub fn compile(src: &str) -> Result<Expression> {
        let e = Expression::compile_unchecked(src);
        if e.prog.syntax_error.is_some() && !e.has_vars {
            e.eval(&[])?;
        }
        Ok(e)
    }

    /// Compiles without the early check of [`Expression::compile`]: never fails.
    pub fn compile_unchecked(src: &str) -> Expression {
        let prog = compile(src.as_bytes());
        let has_vars = prog.ops.iter().any(|op| matches!(op, Op::Var(_)));
        Expression { src: src.into(), prog, has_vars }
    }

    /// Strict compile: like [`Expression::compile`], but also rejects every syntax error
    /// (kind `syntax_error`, even when the reference would report a variable-dependent error
    /// instead) and every NUMBER token the reference silently misreads (kind
    /// `suspicious_number`): unparsable ones read as 0 (`1K`, `2cpu`, `100n`, `1e`, `.`,
    /// `50%5`) and out-of-range ones (`1e400` reads as +Inf, `1e400%` as 0).
    pub fn compile_strict(src: &str) -> Result<Expression> {
        let e = Expression::compile(src)?;
        if let Some(se) = e.prog.syntax_error {
            return Err(Error::at(kind::SYNTAX_ERROR, "expr", syntax_message(se)));
        }
        if let Some(l) = e.prog.lints.first() {
            let what = if l.kind == "unparsable_number" {
                "is not a number; the reference reads it as 0 (a unit typo? valid units: m k M G T P Ki Mi Gi Ti Pi)"
            } else {
                "is out of float64 range; the reference reads it as +Inf (or 0 with %)"
            };
            return Err(Error::at(kind::SUSPICIOUS_NUMBER, "expr", format_args!("{:?} at byte {} {what}", l.token, l.offset)));
        }
        Ok(e)
    }

    /// The silent surprises of this expression (NUMBER tokens read as 0 or +Inf), in source
    /// order; empty for a clean expression.
    pub fn lint(&self) -> &[Lint] {
        &self.prog.lints
    }

    /// The syntax error, if the text is not a sentence of the grammar.
    pub fn syntax_error(&self) -> Option<SyntaxError> {
        self.prog.syntax_error
    }

    /// The source text.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// The postfix program (for inspection and explanations).
    pub fn ops(&self) -> &[Op] {
        &self.prog.ops
    }

    /// Evaluates against `vars` (names matched exactly against the lower-cased identifier; a
    /// name with upper-case letters can never match, as in the reference).
    ///
    /// Returns the final value (quantity or number). Does not allocate for int64-sized
    /// quantities and expressions up to 16 values deep (the result may borrow text from `self`
    /// and `vars`).
    ///
    /// Errors: `invalid_quantity` for a variable whose quantity text does not parse (field
    /// `variables.<name>`), then the calculator's kinds: the recorded error (last one wins) or
    /// `syntax_error`; `negative_result` for a final value below zero.
    pub fn eval<'a>(&'a self, vars: &[(&str, Var<'a>)]) -> Result<Value<'a>> {
        for (name, v) in vars {
            if let Var::Quantity(s) = v {
                if let Err(e) = Quantity::parse(s) {
                    return Err(e.to_error(&format!("variables.{name}"), s));
                }
            }
        }
        let lookup = |name: &str| match vars.iter().find(|(k, _)| *k == name) {
            Some((_, Var::Number(n))) => Some(Value::Number(*n)),
            Some((_, Var::Quantity(s))) => Quantity::parse(s).ok().map(Value::Quantity),
            None => None,
        };
        self.finish(self.run(lookup))
    }

    /// Like [`Expression::eval`] with variables already holding values (e.g. an aggregated
    /// quantity that has no text, or the format-less zero quantity). Does not allocate.
    pub fn eval_values<'a>(&'a self, vars: &[(&str, Value<'a>)]) -> Result<Value<'a>> {
        let lookup = |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
        self.finish(self.run(lookup))
    }

    /// Turns the run's value and error slot into the outcome (`calculator.go` `Parse`).
    fn finish<'a>(&self, (value, recorded): (Option<Value<'a>>, Option<Recorded>)) -> Result<Value<'a>> {
        if let Some(se) = self.prog.syntax_error {
            return Err(match recorded {
                Some(r) => self.build_error(r),
                None => Error::new(kind::SYNTAX_ERROR, syntax_message(se)),
            });
        }
        let Some(value) = value else {
            return Err(match recorded {
                Some(r) => self.build_error(r),
                None => Error::new(kind::SYNTAX_ERROR, "no result from parser"),
            });
        };
        let negative = match &value {
            Value::Quantity(q) => q.signum() < 0,
            Value::Number(n) => *n < 0.0,
        };
        if negative {
            return Err(Error::new(kind::NEGATIVE_RESULT, format!("calculation result is negative: {value}")));
        }
        Ok(value)
    }

    /// Evaluates and prints the result (spec section 5): exactly what `resources.eval` returns.
    pub fn eval_to_string(&self, vars: &[(&str, Var<'_>)]) -> Result<String> {
        self.eval(vars).map(|v| v.to_string())
    }

    fn build_error(&self, r: Recorded) -> Error {
        let name = |i: u32| self.prog.names.get(i as usize).map(|s| &**s).unwrap_or("");
        match r {
            Recorded::InvalidQuantity(i) => match self.prog.quantities.get(i as usize) {
                Some((Err(e), text)) => Error::new(e.kind(), format!("{text:?} is not a valid quantity: {}", e.reason())),
                _ => Error::new(kind::INVALID_QUANTITY, "invalid quantity"),
            },
            Recorded::Undefined(i) => Error::new(kind::UNDEFINED_VARIABLE, format!("undefined variable: {}", name(i))),
            Recorded::UnknownFunction(i) => Error::new(kind::UNKNOWN_FUNCTION, format!("unknown function: {}", name(i))),
            Recorded::ArgCount(i) => Error::new(
                kind::WRONG_ARGUMENT_COUNT,
                format!("{} function requires exactly 2 arguments, got 1", name(i).to_ascii_lowercase()),
            ),
            Recorded::QuantityTimesQuantity => {
                Error::new(kind::QUANTITY_TIMES_QUANTITY, "multiplication of two quantities")
            }
            Recorded::DivisionByQuantity => Error::new(kind::DIVISION_BY_QUANTITY, "division by quantity"),
            Recorded::DivisionByZero => Error::new(kind::DIVISION_BY_ZERO, "division by zero"),
            Recorded::OutOfRange => Error::new(QUANTITY_OUT_OF_RANGE, QuantityError::TooLarge.reason()),
        }
    }

    /// Runs the postfix program: every construct is evaluated, a failing one yields "no value"
    /// and overwrites the error slot.
    fn run<'a, F: Fn(&str) -> Option<Value<'a>>>(&'a self, lookup: F) -> (Option<Value<'a>>, Option<Recorded>) {
        let mut st = Stack::new();
        let mut err: Option<Recorded> = None;
        for op in self.prog.ops.iter() {
            let v = match *op {
                Op::Num(n) => Some(Value::Number(n)),
                Op::Qty(i) => match self.prog.quantities.get(i as usize) {
                    Some((Ok(q), _)) => Some(Value::Quantity(q.reborrow())),
                    _ => {
                        err = Some(Recorded::InvalidQuantity(i));
                        None
                    }
                },
                Op::Var(i) => {
                    let name = self.prog.names.get(i as usize).map(|s| &**s).unwrap_or("");
                    let v = lookup(name);
                    if v.is_none() {
                        err = Some(Recorded::Undefined(i));
                    }
                    v
                }
                Op::Neg => st.pop().map(|v| match v {
                    Value::Number(n) => Value::Number(-n),
                    Value::Quantity(mut q) => {
                        q.neg();
                        Value::Quantity(q)
                    }
                }),
                Op::Add | Op::Sub | Op::Mul | Op::Div => {
                    let r = st.pop();
                    let l = st.pop();
                    match (l, r) {
                        (Some(l), Some(r)) => binary(*op, l, r, &mut err),
                        _ => None,
                    }
                }
                Op::Call { name, argc } => {
                    let (a, b) = if argc == 2 {
                        let b = st.pop();
                        (st.pop(), b)
                    } else {
                        (st.pop(), None)
                    };
                    let fname = self.prog.names.get(name as usize).map(|s| &**s).unwrap_or("");
                    let is_max = fname.eq_ignore_ascii_case("max");
                    if !is_max && !fname.eq_ignore_ascii_case("min") {
                        err = Some(Recorded::UnknownFunction(name));
                        None
                    } else if argc != 2 {
                        err = Some(Recorded::ArgCount(name));
                        None
                    } else {
                        match (a, b) {
                            (Some(a), Some(b)) => Some(max_min(is_max, a, b)),
                            _ => None,
                        }
                    }
                }
            };
            st.push(v);
        }
        (st.pop(), err)
    }
}

/// `+ - * /` on two present values (calculator.y `add`, `sub`, `mul`, `div`).
fn binary<'a>(op: Op, l: Value<'a>, r: Value<'a>, err: &mut Option<Recorded>) -> Option<Value<'a>> {
    match op {
        Op::Add | Op::Sub => {
            if let (Value::Number(a), Value::Number(b)) = (&l, &r) {
                return Some(Value::Number(if op == Op::Add { a + b } else { a - b }));
            }
            let mut lq = to_quantity(l);
            let mut rq = to_quantity(r);
            if op == Op::Sub {
                rq.neg();
            }
            match lq.add(&rq) {
                Ok(()) => Some(Value::Quantity(lq)),
                Err(_) => {
                    *err = Some(Recorded::OutOfRange);
                    None
                }
            }
        }
        Op::Mul => match (l, r) {
            (Value::Quantity(_), Value::Quantity(_)) => {
                *err = Some(Recorded::QuantityTimesQuantity);
                None
            }
            (Value::Quantity(mut q), Value::Number(n)) | (Value::Number(n), Value::Quantity(mut q)) => {
                let m = go_f64_to_i64(q.milli_value() as f64 * n);
                q.set_milli(m);
                Some(Value::Quantity(q))
            }
            (Value::Number(a), Value::Number(b)) => Some(Value::Number(a * b)),
        },
        _ => match (l, r) {
            (_, Value::Quantity(_)) => {
                *err = Some(Recorded::DivisionByQuantity);
                None
            }
            (_, Value::Number(n)) if n == 0.0 => {
                *err = Some(Recorded::DivisionByZero);
                None
            }
            (Value::Quantity(mut q), Value::Number(n)) => {
                let m = go_f64_to_i64(q.milli_value() as f64 / n);
                q.set_milli(m);
                Some(Value::Quantity(q))
            }
            (Value::Number(a), Value::Number(b)) => Some(Value::Number(a / b)),
        },
    }
}

/// `maxFunc` / `minFunc`: ties keep the left operand; a number meeting a quantity is converted
/// (`NewMilliQuantity(int64(n*1000))`) and the converted value is what may be returned.
fn max_min<'a>(is_max: bool, a: Value<'a>, b: Value<'a>) -> Value<'a> {
    let keep_left = |o: Ordering| if is_max { o != Ordering::Less } else { o != Ordering::Greater };
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let left = if is_max { x >= y } else { x <= y };
            Value::Number(if left { x } else { y })
        }
        (a, b) => {
            let aq = to_quantity(a);
            let bq = to_quantity(b);
            if keep_left(aq.cmp_value(&bq)) { Value::Quantity(aq) } else { Value::Quantity(bq) }
        }
    }
}

fn syntax_message(se: SyntaxError) -> String {
    format!("parse error: syntax error at line {}, col {}", se.line, se.col)
}
