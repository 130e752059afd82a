//! [`Expression`]: compile once, evaluate many times (OpenKruise `pkg/util/calculator`,
//! `calculator.go` + the semantic actions of `calculator.y`).

use super::compile::{
    Emit, Lint, Op, Program, QuantityLit, Sink, SyntaxError, compile, drive, var_name,
};
use super::number::write_go_g;
use crate::error::{Error, Result};
use crate::quantity::amount::Amount;
use crate::quantity::parse::fast_parts;
use crate::quantity::{Format, QUANTITY_OUT_OF_RANGE, Quantity, QuantityError, go_f64_to_i64};
use std::borrow::Cow;
use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt;

/// Error kinds of the calculator (`resources.eval`; mapped from its messages).
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
    /// The printed result (`Value.String`): the quantity's string, or Go `%g` for a number.
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

/// One resolved instruction of a compiled expression: the postfix [`Op`]s with function names
/// checked and int64-sized quantity literals unpacked at compile time.
#[derive(Debug, Clone, Copy)]
enum Ins {
    Num(f64),
    /// An int64-sized quantity literal; `text` is its retained span in the source, if any.
    Small {
        value: i64,
        scale: i32,
        format: Format,
        text: Option<(u32, u32)>,
    },
    /// Any other quantity literal (big decimal or parse error): index into the literal table.
    Qty(u32),
    Var(u32),
    Op(Op),
    /// `max`/`min` with two arguments.
    MaxMin(bool),
    /// A call that records an error (unknown function or wrong argument count).
    BadCall {
        known: bool,
        span: (usize, usize),
        argc: u8,
    },
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
    code: Box<[Ins]>,
    has_vars: bool,
    /// The variables the expression reads, in order of first use: indices into `prog.names`.
    vars: Box<[u32]>,
    /// For each entry of `prog.names`: its index in `vars` (`u32::MAX` for a function name).
    slot_of: Box<[u32]>,
}

/// The single "last error wins" slot of the reference calculator (`Calculator.lastError`);
/// holds only source spans so recording an error does not allocate.
#[derive(Debug, Clone, Copy)]
enum Recorded {
    InvalidQuantity(usize, usize),
    Undefined(usize, usize),
    UnknownFunction(usize, usize),
    ArgCount(usize, usize),
    QuantityTimesQuantity,
    DivisionByQuantity,
    DivisionByZero,
    OutOfRange,
}

const INLINE: usize = 8;

/// One value-stack slot of the evaluation machine. `Copy` and without drop glue, so pushing,
/// popping and setting up the stack are plain moves of 32 bytes: int64-sized quantities (the
/// apimachinery fast path) live in the slot itself, anything else (a big decimal, owned text)
/// sits in the machine's side table.
#[derive(Debug, Clone, Copy)]
enum Slot<'a> {
    /// "No value" (a failed construct).
    Missing,
    /// A float64 number.
    Num(f64),
    /// An `int64Amount` quantity: `value * 10^scale`, with its format and borrowed retained text.
    Small {
        value: i64,
        scale: i32,
        format: Format,
        text: Option<&'a str>,
    },
    /// Index into [`Machine::big`].
    Big(u32),
}

/// What a variable lookup found: a ready slot (numbers, int64-sized quantities) or a value.
enum Found<'a> {
    Slot(Slot<'a>),
    Value(Value<'a>),
}

/// A quantity text as a slot when it is on the one-pass fast path, else parsed in full.
#[inline]
fn parse_slot(s: &str) -> std::result::Result<Found<'_>, QuantityError> {
    match fast_parts(s) {
        Some((value, scale, format, retained)) => Ok(Found::Slot(Slot::Small {
            value,
            scale,
            format,
            text: if retained { Some(s) } else { None },
        })),
        None => Quantity::parse(s).map(|q| Found::Value(Value::Quantity(q))),
    }
}

/// `(value, scale, format)` of a number or small quantity slot (`toQuantity` for a number).
#[inline]
fn small_parts(s: Slot<'_>) -> Option<(i64, i32, Format)> {
    match s {
        Slot::Num(n) => Some((go_f64_to_i64(n * 1000.0), -3, Format::DecimalSI)),
        Slot::Small {
            value,
            scale,
            format,
            ..
        } => Some((value, scale, format)),
        _ => None,
    }
}

/// apimachinery `MilliValue` of an int64 amount.
#[inline]
fn small_milli(value: i64, scale: i32) -> i64 {
    Amount::Int { value, scale }.milli()
}

/// `+ - * /` when both operands are numbers or int64-sized quantities and the result stays
/// int64-sized: exactly what [`binary`] computes, without building [`Quantity`] values.
/// `None` = not handled here (the caller takes the general path).
#[inline]
fn fast_binary<'a>(
    op: Op,
    l: Slot<'a>,
    r: Slot<'a>,
    err: &mut Option<Recorded>,
) -> Option<Slot<'a>> {
    match op {
        Op::Add | Op::Sub => {
            if let (Slot::Num(a), Slot::Num(b)) = (l, r) {
                return Some(Slot::Num(if op == Op::Add { a + b } else { a - b }));
            }
            let (lv, ls, lf) = small_parts(l)?;
            let (mut rv, rs, rf) = small_parts(r)?;
            if op == Op::Sub {
                rv = rv.wrapping_neg();
            }
            let format = if lv == 0 { rf } else { lf };
            let mut a = (lv, ls);
            if !Amount::int_add(&mut a, (rv, rs)) {
                return None;
            }
            Some(Slot::Small {
                value: a.0,
                scale: a.1,
                format,
                text: None,
            })
        }
        Op::Mul => match (l, r) {
            (Slot::Num(a), Slot::Num(b)) => Some(Slot::Num(a * b)),
            (Slot::Small { .. }, Slot::Small { .. }) => {
                *err = Some(Recorded::QuantityTimesQuantity);
                Some(Slot::Missing)
            }
            (
                Slot::Small {
                    value,
                    scale,
                    format,
                    ..
                },
                Slot::Num(n),
            )
            | (
                Slot::Num(n),
                Slot::Small {
                    value,
                    scale,
                    format,
                    ..
                },
            ) => Some(Slot::Small {
                value: go_f64_to_i64(small_milli(value, scale) as f64 * n),
                scale: -3,
                format,
                text: None,
            }),
            _ => None,
        },
        _ => match (l, r) {
            (Slot::Big(_), _) | (_, Slot::Big(_)) => None,
            (_, Slot::Small { .. }) => {
                *err = Some(Recorded::DivisionByQuantity);
                Some(Slot::Missing)
            }
            (_, Slot::Num(0.0)) => {
                *err = Some(Recorded::DivisionByZero);
                Some(Slot::Missing)
            }
            (
                Slot::Small {
                    value,
                    scale,
                    format,
                    ..
                },
                Slot::Num(n),
            ) => Some(Slot::Small {
                value: go_f64_to_i64(small_milli(value, scale) as f64 / n),
                scale: -3,
                format,
                text: None,
            }),
            (Slot::Num(a), Slot::Num(b)) => Some(Slot::Num(a / b)),
            _ => None,
        },
    }
}

/// `maxFunc` / `minFunc` on numbers and int64-sized quantities (see [`max_min`]).
#[inline]
fn fast_max_min<'a>(is_max: bool, a: Slot<'a>, b: Slot<'a>) -> Option<Slot<'a>> {
    if let (Slot::Num(x), Slot::Num(y)) = (a, b) {
        let left = if is_max { x >= y } else { x <= y };
        return Some(Slot::Num(if left { x } else { y }));
    }
    let as_q = |s: Slot<'a>| -> Option<Slot<'a>> {
        match s {
            Slot::Num(n) => Some(Slot::Small {
                value: go_f64_to_i64(n * 1000.0),
                scale: -3,
                format: Format::DecimalSI,
                text: None,
            }),
            Slot::Small { .. } => Some(s),
            _ => None,
        }
    };
    let a = as_q(a)?;
    let b = as_q(b)?;
    let (Some((av, as_, _)), Some((bv, bs, _))) = (small_parts(a), small_parts(b)) else {
        return None;
    };
    let o = Amount::Int {
        value: av,
        scale: as_,
    }
    .cmp_value(&Amount::Int {
        value: bv,
        scale: bs,
    });
    let left = if is_max {
        o != Ordering::Less
    } else {
        o != Ordering::Greater
    };
    Some(if left { a } else { b })
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
        let code = resolve(src, &prog);
        let mut vars = Vec::new();
        let mut slot_of = vec![u32::MAX; prog.names.len()];
        for op in &prog.ops {
            if let Op::Var(i) = *op
                && let Some(s) = slot_of.get_mut(i as usize)
                && *s == u32::MAX
            {
                *s = vars.len() as u32;
                vars.push(i);
            }
        }
        Expression {
            src: src.into(),
            prog,
            code,
            has_vars,
            vars: vars.into(),
            slot_of: slot_of.into(),
        }
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
            return Err(Error::at(
                kind::SUSPICIOUS_NUMBER,
                "expr",
                format_args!("{:?} at byte {} {what}", l.token, l.offset),
            ));
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
    /// quantities and expressions up to 8 values deep (the result may borrow text from `self`
    /// and `vars`).
    ///
    /// Errors: `invalid_quantity` for a referenced variable whose quantity text does not parse
    /// (field `variables.<name>`), then the calculator's kinds: the recorded error (last one wins) or
    /// `syntax_error`; `negative_result` for a final value below zero.
    pub fn eval<'a>(&'a self, vars: &[(&str, Var<'a>)]) -> Result<Value<'a>> {
        let bad = Cell::new(None);
        let mut m = Machine::new();
        self.run(&mut m, |_, name: &str| lookup_var(vars, name, &bad));
        check_bad(&bad)?;
        m.finish(&self.src, self.prog.syntax_error)
    }

    /// The variables the expression reads (lower-cased, as they are looked up), each once, in
    /// order of first use. [`Expression::eval_indexed`] takes their values in this order.
    pub fn variables(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.vars.iter().map(|&i| {
            self.prog
                .names
                .get(i as usize)
                .map_or("", |n| n.text(&self.src))
        })
    }

    /// The position of `name` in [`Expression::variables`], if the expression reads it.
    pub fn variable_index(&self, name: &str) -> Option<usize> {
        self.variables().position(|n| n == name)
    }

    /// [`Expression::eval`] with the variables given by position: `vars[i]` is the value of
    /// `variables()[i]` (`None`, or a missing entry, leaves it unbound: `undefined_variable`).
    /// Skips the name lookups of [`Expression::eval`]; same results and errors otherwise.
    pub fn eval_indexed<'a>(&'a self, vars: &[Option<Var<'a>>]) -> Result<Value<'a>> {
        let bad = Cell::new(None);
        let mut m = Machine::new();
        self.run(&mut m, |slot, name: &str| {
            match vars.get(slot as usize).copied().flatten()? {
                Var::Number(n) => Some(Found::Slot(Slot::Num(n))),
                Var::Quantity(s) => match parse_slot(s) {
                    Ok(f) => Some(f),
                    Err(_) => {
                        bad.set(Some((name, s)));
                        None
                    }
                },
            }
        });
        check_bad(&bad)?;
        m.finish(&self.src, self.prog.syntax_error)
    }

    /// Like [`Expression::eval`] with variables already holding values (e.g. an aggregated
    /// quantity that has no text, or the format-less zero quantity). Does not allocate when the
    /// values' text is borrowed.
    pub fn eval_values<'a>(&'a self, vars: &[(&str, Value<'a>)]) -> Result<Value<'a>> {
        let mut m = Machine::new();
        self.run(&mut m, |_, name: &str| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| Found::Value(v.clone()))
        });
        m.finish(&self.src, self.prog.syntax_error)
    }

    /// Evaluates and prints the result (`Value.String`): exactly what `resources.eval` returns.
    pub fn eval_to_string(&self, vars: &[(&str, Var<'_>)]) -> Result<String> {
        let v = self.eval(vars)?;
        Ok(print(&v))
    }

    /// Parses and evaluates `src` in one pass, without building an [`Expression`]: each
    /// reduction is evaluated as the parser makes it, exactly as the reference does. Same
    /// result and errors as `Expression::compile_unchecked(src).eval(vars)`; no heap allocation
    /// for ordinary expressions (operator and value stacks are inline).
    pub fn eval_once<'a>(src: &'a str, vars: &[(&str, Var<'a>)]) -> Result<Value<'a>> {
        let bad = Cell::new(None);
        let mut sink = DirectSink {
            src,
            m: Machine::new(),
            lookup: |name: &str| lookup_var(vars, name, &bad),
        };
        let se = drive(src.as_bytes(), &mut sink);
        check_bad(&bad)?;
        sink.m.finish(src, se)
    }

    /// [`Expression::eval_once`] with variables holding values.
    pub fn eval_once_values<'a>(src: &'a str, vars: &[(&str, Value<'a>)]) -> Result<Value<'a>> {
        let lookup = |name: &str| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| Found::Value(v.clone()))
        };
        let mut sink = DirectSink {
            src,
            m: Machine::new(),
            lookup,
        };
        let se = drive(src.as_bytes(), &mut sink);
        sink.m.finish(src, se)
    }

    /// [`Expression::eval_once`] and print (what `resources.eval` returns).
    pub fn eval_once_to_string(src: &str, vars: &[(&str, Var<'_>)]) -> Result<String> {
        let v = Expression::eval_once(src, vars)?;
        Ok(print(&v))
    }

    /// Runs the postfix program: every construct is evaluated, a failing one yields "no value"
    /// and overwrites the error slot.
    #[inline]
    fn run<'a, F: Fn(u32, &'a str) -> Option<Found<'a>>>(&'a self, m: &mut Machine<'a>, lookup: F) {
        for ins in self.code.iter() {
            match *ins {
                Ins::Num(n) => m.push_slot(Slot::Num(n)),
                Ins::Small {
                    value,
                    scale,
                    format,
                    text,
                } => m.push_slot(Slot::Small {
                    value,
                    scale,
                    format,
                    text: text.and_then(|(a, b)| self.src.get(a as usize..b as usize)),
                }),
                Ins::Qty(i) => match self.prog.quantities.get(i as usize) {
                    Some(QuantityLit {
                        value: Ok(q),
                        retained,
                        span,
                    }) => {
                        let text = if *retained {
                            self.src.get(span.0..span.1)
                        } else {
                            None
                        };
                        m.push(Some(Value::Quantity(q.reborrow().with_text(text))))
                    }
                    Some(QuantityLit { span, .. }) => {
                        m.fail(Recorded::InvalidQuantity(span.0, span.1))
                    }
                    None => m.push(None),
                },
                Ins::Var(i) => match self.prog.names.get(i as usize) {
                    Some(n) => match lookup(
                        self.slot_of.get(i as usize).copied().unwrap_or(u32::MAX),
                        n.text(&self.src),
                    ) {
                        Some(f) => m.push_found(f),
                        None => m.fail(Recorded::Undefined(n.span.0, n.span.1)),
                    },
                    None => m.push(None),
                },
                Ins::Op(op) => m.op(op),
                Ins::MaxMin(is_max) => m.max_min(is_max),
                Ins::BadCall { known, span, argc } => m.call_error(known, span, argc),
            }
        }
    }
}

/// Resolves a program's instructions (see [`Ins`]).
fn resolve(src: &str, prog: &Program) -> Box<[Ins]> {
    prog.ops
        .iter()
        .map(|op| match *op {
            Op::Num(n) => Ins::Num(n),
            Op::Qty(i) => match prog.quantities.get(i as usize) {
                Some(QuantityLit {
                    value:
                        Ok(Quantity {
                            amount: Amount::Int { value, scale },
                            format,
                            ..
                        }),
                    retained,
                    span,
                }) if u32::try_from(span.1).is_ok() => Ins::Small {
                    value: *value,
                    scale: *scale,
                    format: *format,
                    text: retained.then_some((span.0 as u32, span.1 as u32)),
                },
                _ => Ins::Qty(i),
            },
            Op::Var(i) => Ins::Var(i),
            Op::Call { name, argc } => {
                let (text, span) = match prog.names.get(name as usize) {
                    Some(n) => (n.text(src), n.span),
                    None => ("", (0, 0)),
                };
                let is_max = text.eq_ignore_ascii_case("max");
                let known = is_max || text.eq_ignore_ascii_case("min");
                if known && argc == 2 {
                    Ins::MaxMin(is_max)
                } else {
                    Ins::BadCall { known, span, argc }
                }
            }
            op => Ins::Op(op),
        })
        .collect()
}

/// Prints a value (`Value.String`) into a fresh string.
#[inline]
fn print(v: &Value<'_>) -> String {
    let mut s = String::with_capacity(24);
    let _ = v.write_to(&mut s);
    s
}

impl Value<'_> {
    /// Prints the value (`Value.String`, what `resources.eval` returns) into `out` without an
    /// intermediate string: the retained text of a quantity, its canonical form, or Go `%g`.
    #[inline]
    pub fn write_to<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        match self {
            Value::Quantity(q) => match q.retained_text() {
                Some(t) => out.write_str(t),
                None => crate::quantity::print::write_canonical(q, out),
            },
            Value::Number(n) => write_go_g(*n, out),
        }
    }
}

/// Looks a `Var` up; a quantity text that does not parse is remembered in `bad`.
fn lookup_var<'a, 'n>(
    vars: &'n [(&'n str, Var<'a>)],
    name: &str,
    bad: &Cell<Option<(&'n str, &'a str)>>,
) -> Option<Found<'a>> {
    match vars.iter().find(|(k, _)| *k == name) {
        Some((_, Var::Number(n))) => Some(Found::Slot(Slot::Num(*n))),
        Some((k, Var::Quantity(s))) => match parse_slot(s) {
            Ok(f) => Some(f),
            Err(_) => {
                bad.set(Some((k, s)));
                None
            }
        },
        None => None,
    }
}

/// A referenced variable whose text is not a quantity: an input error.
#[inline]
fn check_bad(bad: &Cell<Option<(&str, &str)>>) -> Result<()> {
    match bad.get() {
        Some((name, text)) => Err(bad_variable(name, text)),
        None => Ok(()),
    }
}

#[cold]
#[inline(never)]
fn bad_variable(name: &str, text: &str) -> Error {
    let e = Quantity::parse(text).err().unwrap_or(QuantityError::Format);
    e.to_error(&format!("variables.{name}"), text)
}

/// Turns the value and error slot into the outcome (`calculator.go` `Parse`).
#[cold]
#[inline(never)]
fn finish<'a>(
    src: &str,
    se: Option<SyntaxError>,
    (value, recorded): (Option<Value<'a>>, Option<Recorded>),
) -> Result<Value<'a>> {
    if let Some(se) = se {
        return Err(match recorded {
            Some(r) => build_error(src, r),
            None => Error::new(kind::SYNTAX_ERROR, syntax_message(se)),
        });
    }
    let Some(value) = value else {
        return Err(match recorded {
            Some(r) => build_error(src, r),
            None => Error::new(kind::SYNTAX_ERROR, "no result from parser"),
        });
    };
    let negative = match &value {
        Value::Quantity(q) => q.signum() < 0,
        Value::Number(n) => *n < 0.0,
    };
    if negative {
        return Err(Error::new(
            kind::NEGATIVE_RESULT,
            format!("calculation result is negative: {value}"),
        ));
    }
    Ok(value)
}

fn build_error(src: &str, r: Recorded) -> Error {
    let raw = |a: usize, b: usize| {
        String::from_utf8_lossy(src.as_bytes().get(a..b).unwrap_or(&[])).into_owned()
    };
    match r {
        Recorded::InvalidQuantity(a, b) => {
            let text = raw(a, b);
            let e = Quantity::parse(&text)
                .err()
                .unwrap_or(QuantityError::Format);
            Error::new(
                e.kind(),
                format!("{text:?} is not a valid quantity: {}", e.reason()),
            )
        }
        Recorded::Undefined(a, b) => Error::new(
            kind::UNDEFINED_VARIABLE,
            format!("undefined variable: {}", var_name(raw(a, b).as_bytes())),
        ),
        Recorded::UnknownFunction(a, b) => Error::new(
            kind::UNKNOWN_FUNCTION,
            format!("unknown function: {}", raw(a, b)),
        ),
        Recorded::ArgCount(a, b) => Error::new(
            kind::WRONG_ARGUMENT_COUNT,
            format!(
                "{} function requires exactly 2 arguments, got 1",
                raw(a, b).to_ascii_lowercase()
            ),
        ),
        Recorded::QuantityTimesQuantity => Error::new(
            kind::QUANTITY_TIMES_QUANTITY,
            "multiplication of two quantities",
        ),
        Recorded::DivisionByQuantity => {
            Error::new(kind::DIVISION_BY_QUANTITY, "division by quantity")
        }
        Recorded::DivisionByZero => Error::new(kind::DIVISION_BY_ZERO, "division by zero"),
        Recorded::OutOfRange => Error::new(QUANTITY_OUT_OF_RANGE, QuantityError::TooLarge.reason()),
    }
}

/// The evaluation machine shared by compiled and one-pass evaluation: a value stack of
/// [`Slot`]s (inline up to [`INLINE`] deep), a side table for values that are not int64-sized,
/// and the error slot.
struct Machine<'a> {
    inline: [Slot<'a>; INLINE],
    len: usize,
    spill: Vec<Slot<'a>>,
    big: Vec<Value<'a>>,
    err: Option<Recorded>,
}

impl<'a> Machine<'a> {
    #[inline]
    fn new() -> Self {
        Machine {
            inline: [Slot::Missing; INLINE],
            len: 0,
            spill: Vec::new(),
            big: Vec::new(),
            err: None,
        }
    }

    #[inline]
    fn push_slot(&mut self, s: Slot<'a>) {
        match self.inline.get_mut(self.len) {
            Some(x) => *x = s,
            None => self.spill.push(s),
        }
        self.len += 1;
    }

    #[inline]
    fn pop_slot(&mut self) -> Slot<'a> {
        if self.len == 0 {
            return Slot::Missing;
        }
        self.len -= 1;
        match self.inline.get(self.len) {
            Some(s) => *s,
            None => self.spill.pop().unwrap_or(Slot::Missing),
        }
    }

    /// Stores a value as a slot (int64-sized quantities with borrowed or no text stay inline).
    #[inline]
    fn slot(&mut self, v: Value<'a>) -> Slot<'a> {
        match v {
            Value::Number(n) => Slot::Num(n),
            Value::Quantity(q) => match (&q.amount, &q.text) {
                (Amount::Int { value, scale }, None) => Slot::Small {
                    value: *value,
                    scale: *scale,
                    format: q.format,
                    text: None,
                },
                (Amount::Int { value, scale }, Some(Cow::Borrowed(t))) => Slot::Small {
                    value: *value,
                    scale: *scale,
                    format: q.format,
                    text: Some(t),
                },
                _ => {
                    self.big.push(Value::Quantity(q));
                    Slot::Big((self.big.len() - 1) as u32)
                }
            },
        }
    }

    /// The value of a slot (a side-table entry is moved out; each slot is taken once).
    fn take(&mut self, s: Slot<'a>) -> Option<Value<'a>> {
        match s {
            Slot::Missing => None,
            Slot::Num(n) => Some(Value::Number(n)),
            Slot::Small {
                value,
                scale,
                format,
                text,
            } => Some(Value::Quantity(Quantity {
                amount: Amount::Int { value, scale },
                format,
                text: text.map(Cow::Borrowed),
            })),
            Slot::Big(i) => self
                .big
                .get_mut(i as usize)
                .map(|v| std::mem::replace(v, Value::Number(0.0))),
        }
    }

    #[inline]
    fn push(&mut self, v: Option<Value<'a>>) {
        let s = match v {
            Some(v) => self.slot(v),
            None => Slot::Missing,
        };
        self.push_slot(s);
    }

    #[inline]
    fn push_found(&mut self, f: Found<'a>) {
        let s = match f {
            Found::Slot(s) => s,
            Found::Value(v) => self.slot(v),
        };
        self.push_slot(s);
    }

    /// A construct failed: no value, and the error overwrites the slot.
    #[inline]
    fn fail(&mut self, r: Recorded) {
        self.err = Some(r);
        self.push_slot(Slot::Missing);
    }

    /// `+ - * /` or unary minus.
    #[inline]
    fn op(&mut self, op: Op) {
        if op == Op::Neg {
            let s = match self.pop_slot() {
                Slot::Num(n) => Slot::Num(-n),
                Slot::Small {
                    value,
                    scale,
                    format,
                    ..
                } => Slot::Small {
                    value: value.wrapping_neg(),
                    scale,
                    format,
                    text: None,
                },
                Slot::Missing => Slot::Missing,
                big => match self.take(big) {
                    Some(Value::Quantity(mut q)) => {
                        q.neg();
                        self.slot(Value::Quantity(q))
                    }
                    Some(Value::Number(n)) => Slot::Num(-n),
                    None => Slot::Missing,
                },
            };
            return self.push_slot(s);
        }
        let r = self.pop_slot();
        let l = self.pop_slot();
        let s = match (l, r) {
            (Slot::Missing, _) | (_, Slot::Missing) => Slot::Missing,
            _ => match fast_binary(op, l, r, &mut self.err) {
                Some(s) => s,
                None => match (self.take(l), self.take(r)) {
                    (Some(l), Some(r)) => match binary(op, l, r, &mut self.err) {
                        Some(v) => self.slot(v),
                        None => Slot::Missing,
                    },
                    _ => Slot::Missing,
                },
            },
        };
        self.push_slot(s);
    }

    /// `max`/`min` with two arguments (the name already checked).
    #[inline]
    fn max_min(&mut self, is_max: bool) {
        let b = self.pop_slot();
        let a = self.pop_slot();
        let s = match (a, b) {
            (Slot::Missing, _) | (_, Slot::Missing) => Slot::Missing,
            _ => match fast_max_min(is_max, a, b) {
                Some(s) => s,
                None => match (self.take(a), self.take(b)) {
                    (Some(a), Some(b)) => {
                        let v = max_min(is_max, a, b);
                        self.slot(v)
                    }
                    _ => Slot::Missing,
                },
            },
        };
        self.push_slot(s);
    }

    /// `callFunc`: the name is checked first, then the argument count, then missing values.
    #[inline]
    fn call(&mut self, name: &str, span: (usize, usize), argc: u8) {
        let is_max = name.eq_ignore_ascii_case("max");
        if argc == 2 && (is_max || name.eq_ignore_ascii_case("min")) {
            return self.max_min(is_max);
        }
        self.call_error(is_max || name.eq_ignore_ascii_case("min"), span, argc)
    }

    /// A call that cannot succeed: pops its arguments and records why.
    fn call_error(&mut self, known: bool, span: (usize, usize), argc: u8) {
        if argc == 2 {
            self.pop_slot();
        }
        self.pop_slot();
        if !known {
            return self.fail(Recorded::UnknownFunction(span.0, span.1));
        }
        self.fail(Recorded::ArgCount(span.0, span.1))
    }

    /// The outcome (`calculator.go` `Parse`): the fast path returns a non-negative number or
    /// int64-sized quantity directly; everything else goes through [`finish`].
    #[inline]
    fn finish(&mut self, src: &str, se: Option<SyntaxError>) -> Result<Value<'a>> {
        let s = self.pop_slot();
        if se.is_none() {
            match s {
                Slot::Num(n) if n >= 0.0 || n.is_nan() => return Ok(Value::Number(n)),
                Slot::Small {
                    value,
                    scale,
                    format,
                    text,
                } if value >= 0 => {
                    return Ok(Value::Quantity(Quantity {
                        amount: Amount::Int { value, scale },
                        format,
                        text: text.map(Cow::Borrowed),
                    }));
                }
                _ => {}
            }
        }
        let v = self.take(s);
        finish(src, se, (v, self.err))
    }
}

/// Evaluates reductions as the parser makes them (one-pass evaluation).
struct DirectSink<'a, F> {
    src: &'a str,
    m: Machine<'a>,
    lookup: F,
}

impl<'a, F: Fn(&str) -> Option<Found<'a>>> Sink for DirectSink<'a, F> {
    #[inline]
    fn emit(&mut self, e: Emit) {
        let src: &'a str = self.src;
        match e {
            Emit::Num(n) => self.m.push_slot(Slot::Num(n)),
            Emit::Qty(a, b) => match src.get(a..b).map(parse_slot) {
                Some(Ok(f)) => self.m.push_found(f),
                _ => self.m.fail(Recorded::InvalidQuantity(a, b)),
            },
            Emit::Var(a, b) => {
                let name = var_name(src.as_bytes().get(a..b).unwrap_or(&[]));
                match (self.lookup)(&name) {
                    Some(f) => self.m.push_found(f),
                    None => self.m.fail(Recorded::Undefined(a, b)),
                }
            }
            Emit::Op(op) => self.m.op(op),
            Emit::Call(a, b, argc) => self.m.call(src.get(a..b).unwrap_or(""), (a, b), argc),
        }
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
            (Value::Quantity(mut q), Value::Number(n))
            | (Value::Number(n), Value::Quantity(mut q)) => {
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
            (_, Value::Number(0.0)) => {
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
    let keep_left = |o: Ordering| {
        if is_max {
            o != Ordering::Less
        } else {
            o != Ordering::Greater
        }
    };
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let left = if is_max { x >= y } else { x <= y };
            Value::Number(if left { x } else { y })
        }
        (a, b) => {
            let mut aq = to_quantity(a);
            let bq = to_quantity(b);
            // apimachinery `Cmp` (pointer receiver) turns the left quantity into the
            // exact-decimal form (`AsDec`) when the right one has that form, and maxFunc /
            // minFunc return the left quantity so converted; later `MilliValue` calls on it then
            // follow the decimal rules (`docs/resources.md`).
            if matches!(aq.amount, Amount::Int { .. }) && matches!(bq.amount, Amount::Dec(_)) {
                aq.amount = Amount::Dec(Box::new(aq.amount.to_dec()));
            }
            if keep_left(aq.cmp_value(&bq)) {
                Value::Quantity(aq)
            } else {
                Value::Quantity(bq)
            }
        }
    }
}

fn syntax_message(se: SyntaxError) -> String {
    format!(
        "parse error: syntax error at line {}, col {}",
        se.line, se.col
    )
}
