//! Compiling an expression into postfix form, in the exact order the reference's goyacc LALR(1)
//! parser (`calculator.y`, `calculator_y.go`) runs its semantic actions.
//!
//! Every state of that parser that holds a completed rule reduces by default, whatever the
//! lookahead. So on an unexpected token it first reduces everything completed in the innermost
//! open context (parenthesis, call argument or the whole input) and only then reports the syntax
//! error, while nothing is reduced when the error comes where an operand was expected. An
//! identifier becomes a variable reference as soon as the next token is known not to be `(`.
//! The compiler mirrors this with an explicit operator stack (no recursion, so 10,000 nested
//! parentheses are fine) and records the postfix program up to the error.

use super::lexer::{Lexer, Tok, Token};
use super::number::{NumberRead, read_number};
use crate::quantity::{Quantity, QuantityError};

/// One postfix instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push a number literal.
    Num(f64),
    /// Push quantity literal `i` of the literal table (or record its parse error).
    Qty(u32),
    /// Push variable `i` of the name table (already lower-cased like the reference).
    Var(u32),
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// Unary minus.
    Neg,
    /// Call function `name` (index into the name table, original spelling) with `argc` (1 or 2)
    /// arguments.
    Call {
        /// Name index.
        name: u32,
        /// Argument count.
        argc: u8,
    },
}

/// Where the reference's parser gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the offending token.
    pub offset: usize,
    /// Line of the lexer position after reading that token (1-based, like the reference).
    pub line: usize,
    /// Column of the lexer position after reading that token (1-based, like the reference).
    pub col: usize,
}

/// A NUMBER token the reference reads silently in a surprising way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lint {
    /// `unparsable_number` (read as 0) or `number_overflow` (read as +Inf, or 0 with `%`).
    pub kind: &'static str,
    /// Byte offset in the expression.
    pub offset: usize,
    /// The token as written.
    pub token: String,
}

/// The compiled program.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Postfix instructions (up to a syntax error, if any).
    pub ops: Vec<Op>,
    /// Quantity literals: parsed value (retained text stripped) or the parse error.
    pub quantities: Vec<QuantityLit>,
    /// Names: lower-cased variable names and function names as written.
    pub names: Vec<Name>,
    /// The syntax error, if the text is not a sentence of the grammar.
    pub syntax_error: Option<SyntaxError>,
    /// Largest value-stack depth the program reaches.
    pub max_depth: usize,
    /// Silent surprises (see [`Lint`]).
    pub lints: Vec<Lint>,
}

/// A QUANTITY literal: its value (without text) and where its text is in the source.
#[derive(Debug, Clone)]
pub struct QuantityLit {
    /// Parsed value (retained text stripped; see `retained`) or the parse error.
    pub value: Result<Quantity<'static>, QuantityError>,
    /// Whether apimachinery retains the literal's text (printed verbatim).
    pub retained: bool,
    /// Byte span of the literal in the source.
    pub span: (usize, usize),
}

/// A variable or function name: the span of its first occurrence, and its lower-cased text when
/// that differs from the source (non-ASCII or upper-case variable names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// Byte span in the source.
    pub span: (usize, usize),
    /// Text to use instead of the span, if any.
    pub owned: Option<Box<str>>,
}

impl Name {
    /// The name's text, given the source.
    pub fn text<'a>(&'a self, src: &'a str) -> &'a str {
        match &self.owned {
            Some(s) => s,
            None => src.get(self.span.0..self.span.1).unwrap_or(""),
        }
    }
}

/// A variable name as the reference looks it up: `strings.ToLower(ident)`, borrowed from the
/// source when that changes nothing.
pub fn var_name(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(s) if !s.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) => {
            std::borrow::Cow::Borrowed(s)
        }
        _ => std::borrow::Cow::Owned(go_to_lower(raw)),
    }
}

/// One reduction, in the order the reference performs them; spans index the source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Emit {
    /// A NUMBER literal (value as the reference reads it).
    Num(f64),
    /// A QUANTITY literal.
    Qty(usize, usize),
    /// A variable reference (identifier span).
    Var(usize, usize),
    /// A binary operator (`Op::Add`, `Sub`, `Mul`, `Div`) or `Op::Neg`.
    Op(Op),
    /// A call: function-name span and argument count.
    Call(usize, usize, u8),
}

/// Receives the reductions of [`drive`].
pub trait Sink {
    /// One reduction.
    fn emit(&mut self, e: Emit);
    /// A NUMBER token the reference reads silently in a surprising way.
    fn lint(&mut self, _kind: &'static str, _offset: usize, _raw: &[u8]) {}
}

/// Go `strings.ToLower`: ASCII fast path; otherwise UTF-8 decoding where each invalid byte
/// becomes U+FFFD, then Unicode simple lower-casing.
pub fn go_to_lower(b: &[u8]) -> String {
    if b.is_ascii() {
        return b.iter().map(|c| c.to_ascii_lowercase() as char).collect();
    }
    String::from_utf8_lossy_per_byte(b)
        .chars()
        .flat_map(char::to_lowercase)
        .collect()
}

trait LossyPerByte {
    fn from_utf8_lossy_per_byte(b: &[u8]) -> String;
}

impl LossyPerByte for String {
    /// Like `String::from_utf8_lossy`, but every invalid byte is its own U+FFFD (Go's rule).
    fn from_utf8_lossy_per_byte(mut b: &[u8]) -> String {
        let mut out = String::new();
        loop {
            match std::str::from_utf8(b) {
                Ok(s) => {
                    out.push_str(s);
                    return out;
                }
                Err(e) => {
                    let (good, rest) = b.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(good).unwrap_or(""));
                    out.push('\u{FFFD}');
                    b = rest.get(1..).unwrap_or(&[]);
                }
            }
        }
    }
}

/// An open construct on the operator stack (kept small: it is copied a lot).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Frame {
    /// `+` or `-` (precedence 1).
    AddSub(bool),
    /// `*` or `/` (precedence 2).
    MulDiv(bool),
    Neg,
    Paren,
    Call {
        start: u32,
        end: u32,
        argc: u8,
    },
}

impl Frame {
    /// The binary operator and its precedence, if this is one.
    fn bin(self) -> Option<(Op, u8)> {
        match self {
            Frame::AddSub(true) => Some((Op::Add, 1)),
            Frame::AddSub(false) => Some((Op::Sub, 1)),
            Frame::MulDiv(true) => Some((Op::Mul, 2)),
            Frame::MulDiv(false) => Some((Op::Div, 2)),
            _ => None,
        }
    }
}

const FRAMES_INLINE: usize = 16;

/// Operator stack: inline for ordinary nesting, spilling to the heap beyond.
struct Frames {
    inline: [Frame; FRAMES_INLINE],
    len: usize,
    spill: Vec<Frame>,
}

impl Frames {
    fn push(&mut self, f: Frame) {
        if self.len < FRAMES_INLINE {
            self.inline[self.len] = f;
        } else {
            self.spill.push(f);
        }
        self.len += 1;
    }
    fn last(&self) -> Option<Frame> {
        match self.len {
            0 => None,
            n if n <= FRAMES_INLINE => Some(self.inline[n - 1]),
            _ => self.spill.last().copied(),
        }
    }
    fn last_mut(&mut self) -> Option<&mut Frame> {
        match self.len {
            0 => None,
            n if n <= FRAMES_INLINE => self.inline.get_mut(n - 1),
            _ => self.spill.last_mut(),
        }
    }
    fn pop(&mut self) {
        if self.len > FRAMES_INLINE {
            self.spill.pop();
        }
        self.len = self.len.saturating_sub(1);
    }
}

struct Compiler<'s, 'k, S: Sink> {
    src: &'s [u8],
    lexer: Lexer<'s>,
    pending: Option<Token>,
    stack: Frames,
    sink: &'k mut S,
}

impl<'s, S: Sink> Compiler<'s, '_, S> {
    fn next(&mut self) -> Token {
        self.pending
            .take()
            .unwrap_or_else(|| self.lexer.next_token())
    }

    fn text(&self, t: Token) -> &'s [u8] {
        self.src.get(t.start..t.end).unwrap_or(&[])
    }

    /// An operand (factor) completed: pending unary minuses reduce at once.
    fn factor_done(&mut self) {
        while let Some(Frame::Neg) = self.stack.last() {
            self.stack.pop();
            self.sink.emit(Emit::Op(Op::Neg));
        }
    }

    /// Reduces binary operators of at least `min_prec` in the innermost context.
    fn reduce(&mut self, min_prec: u8) {
        while let Some((op, prec)) = self.stack.last().and_then(Frame::bin) {
            if prec < min_prec {
                break;
            }
            self.stack.pop();
            self.sink.emit(Emit::Op(op));
        }
    }

    fn fail(&self, t: Token) -> Option<SyntaxError> {
        let consumed = self.src.get(..t.end).unwrap_or(self.src);
        let line = 1 + consumed.iter().filter(|&&b| b == b'\n').count();
        let col = 1 + consumed.iter().rev().take_while(|&&b| b != b'\n').count();
        Some(SyntaxError {
            offset: t.start,
            line,
            col,
        })
    }

    fn run(mut self) -> Option<SyntaxError> {
        let mut expect_operand = true;
        loop {
            let t = self.next();
            if expect_operand {
                match t.kind {
                    Tok::Number => {
                        let raw = self.text(t);
                        let read = match small_integer(raw) {
                            Some(v) => NumberRead::Ok(v),
                            None => std::str::from_utf8(raw)
                                .map(read_number)
                                .unwrap_or(NumberRead::Unparsable),
                        };
                        match read {
                            NumberRead::Ok(_) => {}
                            NumberRead::Unparsable => {
                                self.sink.lint("unparsable_number", t.start, raw)
                            }
                            NumberRead::Overflow(_) => {
                                self.sink.lint("number_overflow", t.start, raw)
                            }
                        }
                        self.sink.emit(Emit::Num(read.value()));
                        expect_operand = false;
                        self.factor_done();
                    }
                    Tok::Quantity => {
                        self.sink.emit(Emit::Qty(t.start, t.end));
                        expect_operand = false;
                        self.factor_done();
                    }
                    Tok::Ident => {
                        let next = self.lexer.next_token();
                        if next.kind == Tok::LParen {
                            self.stack.push(Frame::Call {
                                start: t.start as u32,
                                end: t.end as u32,
                                argc: 0,
                            });
                        } else {
                            self.pending = Some(next);
                            self.sink.emit(Emit::Var(t.start, t.end));
                            expect_operand = false;
                            self.factor_done();
                        }
                    }
                    Tok::LParen => self.stack.push(Frame::Paren),
                    Tok::Minus => self.stack.push(Frame::Neg),
                    _ => return self.fail(t),
                }
                continue;
            }
            match t.kind {
                Tok::Plus | Tok::Minus => {
                    self.reduce(1);
                    self.stack.push(Frame::AddSub(t.kind == Tok::Plus));
                    expect_operand = true;
                }
                Tok::Star | Tok::Slash => {
                    self.reduce(2);
                    self.stack.push(Frame::MulDiv(t.kind == Tok::Star));
                    expect_operand = true;
                }
                Tok::RParen => {
                    self.reduce(0);
                    match self.stack.last() {
                        Some(Frame::Paren) => {
                            self.stack.pop();
                            self.factor_done();
                        }
                        Some(Frame::Call { start, end, argc }) => {
                            self.stack.pop();
                            self.sink
                                .emit(Emit::Call(start as usize, end as usize, argc + 1));
                            self.factor_done();
                        }
                        _ => return self.fail(t),
                    }
                }
                Tok::Comma => {
                    self.reduce(0);
                    match self.stack.last_mut() {
                        Some(Frame::Call { argc, .. }) if *argc == 0 => {
                            *argc = 1;
                            expect_operand = true;
                        }
                        _ => return self.fail(t),
                    }
                }
                Tok::End => {
                    self.reduce(0);
                    return if self.stack.len == 0 {
                        None
                    } else {
                        self.fail(t)
                    };
                }
                _ => {
                    self.reduce(0);
                    return self.fail(t);
                }
            }
        }
    }
}

/// A NUMBER token of 1 to 15 ASCII digits: exact in a float64, read as `ParseFloat` reads it
/// (the common case, without UTF-8 validation).
#[inline]
fn small_integer(raw: &[u8]) -> Option<f64> {
    if raw.is_empty() || raw.len() > 15 {
        return None;
    }
    let mut v = 0u64;
    for &b in raw {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + d as u64;
    }
    Some(v as f64)
}

/// Runs the parser over `src`, feeding every reduction to `sink` in the reference's order;
/// returns the syntax error, if any (reductions made before it have been emitted).
pub fn drive<S: Sink>(src: &[u8], sink: &mut S) -> Option<SyntaxError> {
    let stack = Frames {
        inline: [Frame::Paren; FRAMES_INLINE],
        len: 0,
        spill: Vec::new(),
    };
    Compiler {
        src,
        lexer: Lexer::new(src),
        pending: None,
        stack,
        sink,
    }
    .run()
}

/// Records reductions as a [`Program`].
struct ProgramSink<'s> {
    src: &'s [u8],
    prog: Program,
    depth: usize,
}

impl ProgramSink<'_> {
    fn push(&mut self, op: Op) {
        match op {
            Op::Num(_) | Op::Qty(_) | Op::Var(_) => self.depth += 1,
            Op::Add | Op::Sub | Op::Mul | Op::Div => self.depth = self.depth.saturating_sub(1),
            Op::Call { argc, .. } => self.depth = self.depth.saturating_sub(argc as usize - 1),
            Op::Neg => {}
        }
        self.prog.max_depth = self.prog.max_depth.max(self.depth);
        self.prog.ops.push(op);
    }

    /// Interns a name (lower-cased like the reference for variables).
    fn name(&mut self, start: usize, end: usize, lower: bool) -> u32 {
        let raw = self.src.get(start..end).unwrap_or(&[]);
        let text = if lower {
            var_name(raw)
        } else {
            std::borrow::Cow::Owned(String::from_utf8_lossy(raw).into_owned())
        };
        let src = self.src;
        // A function name is reported as written, so it may only share an entry whose source
        // text is the same (not a lower-cased variable: `cpu(CPU)` names `cpu`).
        let same = |n: &Name| match &n.owned {
            Some(o) => lower && **o == *text,
            None => src.get(n.span.0..n.span.1) == Some(text.as_bytes()),
        };
        if let Some(i) = self.prog.names.iter().position(same) {
            return i as u32;
        }
        let owned = match text {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(o) if o.as_bytes() == raw => None,
            std::borrow::Cow::Owned(o) => Some(o.into_boxed_str()),
        };
        self.prog.names.push(Name {
            span: (start, end),
            owned,
        });
        (self.prog.names.len() - 1) as u32
    }
}

impl Sink for ProgramSink<'_> {
    fn emit(&mut self, e: Emit) {
        let op = match e {
            Emit::Num(v) => Op::Num(v),
            Emit::Qty(a, b) => {
                let raw = self.src.get(a..b).unwrap_or(&[]);
                let parsed = match std::str::from_utf8(raw) {
                    Ok(s) => Quantity::parse(s),
                    Err(_) => Err(QuantityError::Format),
                };
                let retained = parsed.as_ref().is_ok_and(|q| q.retained_text().is_some());
                let value = parsed.map(Quantity::without_text);
                self.prog.quantities.push(QuantityLit {
                    value,
                    retained,
                    span: (a, b),
                });
                Op::Qty((self.prog.quantities.len() - 1) as u32)
            }
            Emit::Var(a, b) => Op::Var(self.name(a, b, true)),
            Emit::Op(op) => op,
            Emit::Call(a, b, argc) => Op::Call {
                name: self.name(a, b, false),
                argc,
            },
        };
        self.push(op);
    }

    fn lint(&mut self, kind: &'static str, offset: usize, raw: &[u8]) {
        let token = String::from_utf8_lossy(raw).into_owned();
        self.prog.lints.push(Lint {
            kind,
            offset,
            token,
        });
    }
}

/// Compiles `src` (bytes, like the reference) into a [`Program`].
pub fn compile(src: &[u8]) -> Program {
    let prog = Program {
        ops: Vec::with_capacity(src.len().min(32)),
        ..Program::default()
    };
    let mut sink = ProgramSink {
        src,
        prog,
        depth: 0,
    };
    let se = drive(src, &mut sink);
    sink.prog.syntax_error = se;
    sink.prog
}
