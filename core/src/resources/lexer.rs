//! The expression lexer, mirroring OpenKruise `pkg/util/calculator/lexer.go` (v1.9.0).
//!
//! The reference reads the expression **byte by byte** and classifies each byte as if it were
//! the Unicode code point of the same number (`rune(input[pos])`), so bytes 0x80-0xFF behave like
//! Latin-1 characters, and a NUL byte is indistinguishable from the end of input. Only the
//! QUANTITY/NUMBER decision (`isQuantity`) decodes UTF-8. This lexer does the same on `&[u8]`.

/// Token kinds of the calculator grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// A numeric token that is not a quantity (read as a float; unparsable text reads as 0).
    Number,
    /// A numeric token ending in exactly one of `m k M G T P Ki Mi Gi Ti Pi`.
    Quantity,
    /// A letter followed by letters, digits and `_`.
    Ident,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// Any other byte (`%`, `@`, `_`, ...): never accepted by the grammar.
    Unknown,
    /// End of input (or a NUL byte).
    End,
}

/// One token: kind and byte span in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: Tok,
    /// Start byte offset.
    pub start: usize,
    /// End byte offset (exclusive).
    pub end: usize,
}

/// Go `unicode.IsSpace` for a code point below 0x100.
#[inline]
pub fn is_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0D | 0x20 | 0x85 | 0xA0)
}

/// Go `unicode.IsLetter` for a code point below 0x100.
#[inline]
pub fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic()
        || matches!(b, 0xAA | 0xB5 | 0xBA | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0xFF)
}

/// Byte lexer over an expression.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`; everything from the first NUL byte on is ignored.
    pub fn new(src: &'a [u8]) -> Self {
        let end = src.iter().position(|&b| b == 0).unwrap_or(src.len());
        Lexer {
            src: &src[..end],
            pos: 0,
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    /// The next token.
    #[inline]
    pub fn next_token(&mut self) -> Token {
        while self.peek().is_some_and(is_space) {
            self.pos += 1;
        }
        let start = self.pos;
        let Some(b) = self.peek() else {
            return Token {
                kind: Tok::End,
                start,
                end: start,
            };
        };
        let single = |kind| Token {
            kind,
            start,
            end: start + 1,
        };
        let kind = match b {
            b'+' => Tok::Plus,
            b'-' => Tok::Minus,
            b'*' => Tok::Star,
            b'/' => Tok::Slash,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b',' => Tok::Comma,
            b'.' | b'0'..=b'9' => {
                self.read_number();
                let text = &self.src[start..self.pos];
                let kind = if is_quantity(text) {
                    Tok::Quantity
                } else {
                    Tok::Number
                };
                return Token {
                    kind,
                    start,
                    end: self.pos,
                };
            }
            _ if is_letter(b) => {
                while self
                    .peek()
                    .is_some_and(|c| is_letter(c) || c.is_ascii_digit() || c == b'_')
                {
                    self.pos += 1;
                }
                return Token {
                    kind: Tok::Ident,
                    start,
                    end: self.pos,
                };
            }
            _ => Tok::Unknown,
        };
        self.pos += 1;
        single(kind)
    }

    /// The numeric scanner (`readNumber`).
    #[inline]
    fn read_number(&mut self) {
        let (mut dot, mut exp, mut pct, mut need_exp_digit) = (false, false, false, false);
        while let Some(c) = self.peek() {
            match c {
                b'0'..=b'9' => need_exp_digit = false,
                b'.' => {
                    if dot || exp || pct {
                        break;
                    }
                    dot = true;
                }
                b'e' | b'E' => {
                    if exp || pct {
                        break;
                    }
                    exp = true;
                    need_exp_digit = true;
                }
                b'+' | b'-' => {
                    if !need_exp_digit {
                        break;
                    }
                    need_exp_digit = false;
                }
                b'%' => {
                    if pct {
                        break;
                    }
                    pct = true;
                }
                _ if is_letter(c) => {
                    if need_exp_digit {
                        break;
                    }
                    while self.peek().is_some_and(is_letter) {
                        self.pos += 1;
                    }
                    break;
                }
                _ => break,
            }
            self.pos += 1;
        }
    }
}

/// `isQuantity`: the numeric part ends at the first code point (UTF-8 decoded, invalid bytes
/// as U+FFFD) that is not a Unicode decimal digit or one of `. e E + -`; the token is a QUANTITY
/// iff that position is > 0 and the rest is exactly one of the supported units.
#[inline]
pub fn is_quantity(text: &[u8]) -> bool {
    if text.is_ascii() {
        // Same rule without UTF-8 decoding: ASCII decimal digits are the only ASCII Nd.
        let Some(num_end) = text
            .iter()
            .position(|b| !matches!(b, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
        else {
            return false;
        };
        return num_end > 0 && is_unit(text.get(num_end..).unwrap_or(&[]));
    }
    let mut i = 0;
    let mut num_end = 0;
    while i < text.len() {
        let (cp, width) = decode_utf8(&text[i..]);
        let numeric = matches!(cp, 0x2E | 0x65 | 0x45 | 0x2B | 0x2D) || is_go_digit(cp);
        if !numeric {
            num_end = i;
            break;
        }
        i += width;
    }
    if num_end == 0 {
        return false;
    }
    is_unit(&text[num_end..])
}

/// One of the calculator's quantity units.
#[inline]
fn is_unit(rest: &[u8]) -> bool {
    matches!(
        rest,
        b"m" | b"k" | b"M" | b"G" | b"T" | b"P" | b"Ki" | b"Mi" | b"Gi" | b"Ti" | b"Pi"
    )
}

/// Go `utf8.DecodeRune`: the code point and width; an invalid sequence is U+FFFD of width 1.
fn decode_utf8(b: &[u8]) -> (u32, usize) {
    let n = match b.first() {
        None => return (0xFFFD, 1),
        Some(&c) if c < 0x80 => return (c as u32, 1),
        Some(&c) if (0xC2..=0xDF).contains(&c) => 2,
        Some(&c) if (0xE0..=0xEF).contains(&c) => 3,
        Some(&c) if (0xF0..=0xF4).contains(&c) => 4,
        _ => return (0xFFFD, 1),
    };
    match b
        .get(..n)
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
    {
        Some(ch) => (ch as u32, n),
        None => (0xFFFD, 1),
    }
}

/// Go `unicode.IsDigit` (category Nd).
fn is_go_digit(cp: u32) -> bool {
    if cp < 0x80 {
        return cp.wrapping_sub(0x30) < 10;
    }
    const ND: &[(u32, u32)] = &[
        (0x30, 0x39),
        (0x660, 0x669),
        (0x6F0, 0x6F9),
        (0x7C0, 0x7C9),
        (0x966, 0x96F),
        (0x9E6, 0x9EF),
        (0xA66, 0xA6F),
        (0xAE6, 0xAEF),
        (0xB66, 0xB6F),
        (0xBE6, 0xBEF),
        (0xC66, 0xC6F),
        (0xCE6, 0xCEF),
        (0xD66, 0xD6F),
        (0xDE6, 0xDEF),
        (0xE50, 0xE59),
        (0xED0, 0xED9),
        (0xF20, 0xF29),
        (0x1040, 0x1049),
        (0x1090, 0x1099),
        (0x17E0, 0x17E9),
        (0x1810, 0x1819),
        (0x1946, 0x194F),
        (0x19D0, 0x19D9),
        (0x1A80, 0x1A89),
        (0x1A90, 0x1A99),
        (0x1B50, 0x1B59),
        (0x1BB0, 0x1BB9),
        (0x1C40, 0x1C49),
        (0x1C50, 0x1C59),
        (0xA620, 0xA629),
        (0xA8D0, 0xA8D9),
        (0xA900, 0xA909),
        (0xA9D0, 0xA9D9),
        (0xA9F0, 0xA9F9),
        (0xAA50, 0xAA59),
        (0xABF0, 0xABF9),
        (0xFF10, 0xFF19),
        (0x104A0, 0x104A9),
        (0x10D30, 0x10D39),
        (0x11066, 0x1106F),
        (0x110F0, 0x110F9),
        (0x11136, 0x1113F),
        (0x111D0, 0x111D9),
        (0x112F0, 0x112F9),
        (0x11450, 0x11459),
        (0x114D0, 0x114D9),
        (0x11650, 0x11659),
        (0x116C0, 0x116C9),
        (0x11730, 0x11739),
        (0x118E0, 0x118E9),
        (0x11950, 0x11959),
        (0x11C50, 0x11C59),
        (0x11D50, 0x11D59),
        (0x11DA0, 0x11DA9),
        (0x11F50, 0x11F59),
        (0x16A60, 0x16A69),
        (0x16AC0, 0x16AC9),
        (0x16B50, 0x16B59),
        (0x1D7CE, 0x1D7FF),
        (0x1E140, 0x1E149),
        (0x1E2F0, 0x1E2F9),
        (0x1E4F0, 0x1E4F9),
        (0x1E950, 0x1E959),
        (0x1FBF0, 0x1FBF9),
    ];
    ND.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        let mut lx = Lexer::new(s.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            if t.kind == Tok::End {
                return out;
            }
            out.push((t.kind, &s[t.start..t.end]));
        }
    }

    #[test]
    fn numeric_tokens_classify_like_the_reference() {
        for (s, k) in [
            ("1K", Tok::Number),
            ("100n", Tok::Number),
            ("5u", Tok::Number),
            ("1E", Tok::Number),
            ("2cpu", Tok::Number),
            ("50%5", Tok::Number),
            ("5%m", Tok::Number),
            (".", Tok::Number),
            ("1e", Tok::Number),
            ("1e+", Tok::Number),
            ("1e3m", Tok::Quantity),
            ("2e3Mi", Tok::Quantity),
            (".5Mi", Tok::Quantity),
            ("100.m", Tok::Quantity),
            ("100m", Tok::Quantity),
        ] {
            assert_eq!(kinds(s), vec![(k, s)], "{s}");
        }
        assert_eq!(kinds("1Ei"), vec![(Tok::Number, "1E"), (Tok::Ident, "i")]);
        assert_eq!(kinds("1eKi"), vec![(Tok::Number, "1e"), (Tok::Ident, "Ki")]);
        assert_eq!(kinds("_x"), vec![(Tok::Unknown, "_"), (Tok::Ident, "x")]);
        assert_eq!(kinds("1 \0 + 2"), vec![(Tok::Number, "1")]);
        // A Malayalam digit inside the unit run counts as numeric for isQuantity.
        assert_eq!(kinds("5\u{0D6A}m"), vec![(Tok::Quantity, "5\u{0D6A}m")]);
    }
}
