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
    /// Quantity literals: parsed value or the parse error, with the literal text.
    pub quantities: Vec<(Result<Quantity<'static>, QuantityError>, Box<str>)>,
    /// Names: lower-cased variable names and function names as written.
    pub names: Vec<Box<str>>,
    /// The syntax error, if the text is not a sentence of the grammar.
    pub syntax_error: Option<SyntaxError>,
    /// Largest value-stack depth the program reaches.
    pub max_depth: usize,
    /// Silent surprises (see [`Lint`]).
    pub lints: Vec<Lint>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Frame {
    Bin(Op, u8),
    Neg,
    Paren,
    Call { name: u32, argc: u8 },
}

/// Go `strings.ToLower`: ASCII fast path; otherwise UTF-8 decoding where each invalid byte
/// becomes U+FFFD, then Unicode simple lower-casing.
pub fn go_to_lower(b: &[u8]) -> String {
    if b.is_ascii() {
        return b.iter().map(|c| c.to_ascii_lowercase() as char).collect();
    }
    String::from_utf8_lossy_per_byte(b).chars().flat_map(char::to_lowercase).collect()
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

struct Compiler<'s> {
    src: &'s [u8],
    lexer: Lexer<'s>,
    pending: Option<Token>,
    stack: Vec<Frame>,
    prog: Program,
    depth: usize,
}

impl<'s> Compiler<'s> {
    fn next(&mut self) -> Token {
        self.pending.take().unwrap_or_else(|| self.lexer.next_token())
    }

    fn text(&self, t: Token) -> &'s [u8] {
        self.src.get(t.start..t.end).unwrap_or(&[])
    }

    fn emit(&mut self, op: Op) {
        match op {
            Op::Num(_) | Op::Qty(_) | Op::Var(_) => self.depth += 1,
            Op::Add | Op::Sub | Op::Mul | Op::Div => self.depth = self.depth.saturating_sub(1),
            Op::Call { argc, .. } => self.depth = self.depth.saturating_sub(argc as usize - 1),
            Op::Neg => {}
        }
        self.prog.max_depth = self.prog.max_depth.max(self.depth);
        self.prog.ops.push(op);
    }

    fn name(&mut self, s: String) -> u32 {
        if let Some(i) = self.prog.names.iter().position(|n| **n == *s) {
            return i as u32;
        }
        self.prog.names.push(s.into_boxed_str());
        (self.prog.names.len() - 1) as u32
    }

    /// An operand (factor) completed: pending unary minuses reduce at once.
    fn factor_done(&mut self) {
        while let Some(Frame::Neg) = self.stack.last() {
            self.stack.pop();
            self.emit(Op::Neg);
        }
    }

    /// Reduces binary operators of at least `min_prec` in the innermost context.
    fn reduce(&mut self, min_prec: u8) {
        while let Some(&Frame::Bin(op, prec)) = self.stack.last() {
            if prec < min_prec {
                break;
            }
            self.stack.pop();
            self.emit(op);
        }
    }

    fn fail(&mut self, t: Token) {
        let consumed = self.src.get(..t.end).unwrap_or(self.src);
        let line = 1 + consumed.iter().filter(|&&b| b == b'\n').count();
        let col = 1 + consumed.iter().rev().take_while(|&&b| b != b'\n').count();
        self.prog.syntax_error = Some(SyntaxError { offset: t.start, line, col });
    }

    fn run(mut self) -> Program {
        let mut expect_operand = true;
        loop {
            let t = self.next();
            if expect_operand {
                match t.kind {
                    Tok::Number => {
                        let text = String::from_utf8_lossy(self.text(t)).into_owned();
                        let read = read_number(&text);
                        match read {
                            NumberRead::Ok(_) => {}
                            NumberRead::Unparsable => {
                                self.prog.lints.push(Lint { kind: "unparsable_number", offset: t.start, token: text })
                            }
                            NumberRead::Overflow(_) => {
                                self.prog.lints.push(Lint { kind: "number_overflow", offset: t.start, token: text })
                            }
                        }
                        self.emit(Op::Num(read.value()));
                        expect_operand = false;
                        self.factor_done();
                    }
                    Tok::Quantity => {
                        // QUANTITY tokens are ASCII-unit terminated but may hold other bytes.
                        let raw = self.text(t);
                        let text = String::from_utf8_lossy(raw).into_owned();
                        let parsed = match std::str::from_utf8(raw) {
                            Ok(s) => Quantity::parse_owned(s),
                            Err(_) => Err(QuantityError::Format),
                        };
                        self.prog.quantities.push((parsed, text.into_boxed_str()));
                        self.emit(Op::Qty((self.prog.quantities.len() - 1) as u32));
                        expect_operand = false;
                        self.factor_done();
                    }
                    Tok::Ident => {
                        let next = self.lexer.next_token();
                        if next.kind == Tok::LParen {
                            let raw = String::from_utf8_lossy(self.text(t)).into_owned();
                            let name = self.name(raw);
                            self.stack.push(Frame::Call { name, argc: 0 });
                        } else {
                            self.pending = Some(next);
                            let lower = go_to_lower(self.text(t));
                            let name = self.name(lower);
                            self.emit(Op::Var(name));
                            expect_operand = false;
                            self.factor_done();
                        }
                    }
                    Tok::LParen => self.stack.push(Frame::Paren),
                    Tok::Minus => self.stack.push(Frame::Neg),
                    _ => {
                        self.fail(t);
                        return self.prog;
                    }
                }
                continue;
            }
            match t.kind {
                Tok::Plus | Tok::Minus => {
                    self.reduce(1);
                    self.stack.push(Frame::Bin(if t.kind == Tok::Plus { Op::Add } else { Op::Sub }, 1));
                    expect_operand = true;
                }
                Tok::Star | Tok::Slash => {
                    self.reduce(2);
                    self.stack.push(Frame::Bin(if t.kind == Tok::Star { Op::Mul } else { Op::Div }, 2));
                    expect_operand = true;
                }
                Tok::RParen => {
                    self.reduce(0);
                    match self.stack.last().copied() {
                        Some(Frame::Paren) => {
                            self.stack.pop();
                            self.factor_done();
                        }
                        Some(Frame::Call { name, argc }) => {
                            self.stack.pop();
                            self.emit(Op::Call { name, argc: argc + 1 });
                            self.factor_done();
                        }
                        _ => {
                            self.fail(t);
                            return self.prog;
                        }
                    }
                }
                Tok::Comma => {
                    self.reduce(0);
                    match self.stack.last_mut() {
                        Some(Frame::Call { argc, .. }) if *argc == 0 => {
                            *argc = 1;
                            expect_operand = true;
                        }
                        _ => {
                            self.fail(t);
                            return self.prog;
                        }
                    }
                }
                Tok::End => {
                    self.reduce(0);
                    if !self.stack.is_empty() {
                        self.fail(t);
                    }
                    return self.prog;
                }
                _ => {
                    self.reduce(0);
                    self.fail(t);
                    return self.prog;
                }
            }
        }
    }
}

/// Compiles `src` (bytes, like the reference) into a [`Program`].
pub fn compile(src: &[u8]) -> Program {
    Compiler { src, lexer: Lexer::new(src), pending: None, stack: Vec::new(), prog: Program::default(), depth: 0 }
        .run()
}
