//! Go RE2 (`regexp.Compile` + `MatchString`) on top of the `regex` crate.
//!
//! Both engines implement RE2 syntax, but they disagree on a few constructs. This module rewrites
//! a Go pattern into an equivalent `regex` pattern, or rejects what Go rejects:
//!
//! - `\d \w \s \b` (and negations) are ASCII in Go: rewritten to explicit ASCII classes;
//! - `\Q...\E` literals and octal escapes (`\0`, `\012`) exist only in Go: rewritten;
//! - `\<`, `\>` and `\b{...}` are plain characters in Go but assertions in `regex`: escaped;
//! - inside classes, `[`, `&`, `~` are plain in Go but nested classes / set operations in
//!   `regex`: escaped;
//! - a `{` that does not start a valid `{n}`, `{n,}`, `{n,m}` is a literal in Go: escaped;
//!   repeat counts above 1000 are rejected, as in Go;
//! - flags other than `i m s U` (Rust's `x u R`) and a lone backreference digit are rejected.

/// Rewrites a Go RE2 pattern for the `regex` crate. Errors: a message saying what Go rejects.
pub fn translate(p: &str) -> Result<String, String> {
    let c: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 8);
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' => i = escape(&c, i, &mut out, false)?,
            '[' => i = class(&c, i, &mut out)?,
            '(' if c.get(i + 1) == Some(&'?') => {
                let rest: String = c[i + 2..].iter().collect();
                if !(rest.starts_with("P<") || rest.starts_with('<')) {
                    let flags: String = rest
                        .chars()
                        .take_while(|&ch| ch != ')' && ch != ':')
                        .collect();
                    if flags.is_empty() || !flags.chars().all(|f| "imsU-".contains(f)) {
                        return Err(format!("invalid or unsupported Perl syntax: `(?{flags}`"));
                    }
                }
                out.push_str("(?");
                i += 2;
            }
            '{' => {
                let rest: String = c[i..].iter().collect();
                match repeat_len(&rest) {
                    Some((len, lo, hi)) => {
                        if lo > 1000 || hi.is_some_and(|h| h > 1000 || h < lo) {
                            return Err(format!("invalid repeat count: `{}`", &rest[..len]));
                        }
                        out.push_str(&rest[..len]);
                        i += len;
                    }
                    None => {
                        out.push_str("\\{");
                        i += 1;
                    }
                }
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `s`: (length, n, m).
fn repeat_len(s: &str) -> Option<(usize, u64, Option<u64>)> {
    let b = s.as_bytes();
    let mut i = 1;
    let num = |i: &mut usize| -> Option<u64> {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == st {
            None
        } else {
            s.get(st..*i)?.parse().ok().or(Some(u64::MAX))
        }
    };
    let lo = num(&mut i)?;
    let hi = if b.get(i) == Some(&b',') {
        i += 1;
        if b.get(i) == Some(&b'}') {
            None
        } else {
            Some(num(&mut i)?)
        }
    } else {
        Some(lo)
    };
    (b.get(i) == Some(&b'}')).then_some((i + 1, lo, hi))
}

/// Handles `\x...` at `c[i]`; returns the next index.
fn escape(c: &[char], i: usize, out: &mut String, in_class: bool) -> Result<usize, String> {
    let Some(&e) = c.get(i + 1) else {
        return Err("trailing backslash at end of expression".into());
    };
    let mut next = i + 2;
    match e {
        'd' => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
        'D' => out.push_str(if in_class { "[:^digit:]" } else { "[^0-9]" }),
        'w' => out.push_str(if in_class {
            "0-9A-Za-z_"
        } else {
            "[0-9A-Za-z_]"
        }),
        'W' => out.push_str(if in_class {
            "[:^word:]"
        } else {
            "[^0-9A-Za-z_]"
        }),
        's' => out.push_str(if in_class {
            "\\t\\n\\f\\r "
        } else {
            "[\\t\\n\\f\\r ]"
        }),
        'S' => out.push_str(if in_class {
            "[:^space:]"
        } else {
            "[^\\t\\n\\f\\r ]"
        }),
        'b' if !in_class => {
            out.push_str("(?-u:\\b)");
        }
        'B' if !in_class => out.push_str("(?-u:\\B)"),
        '<' | '>' => out.push(e),
        '&' | '~' | '-' | '[' => {
            out.push('\\');
            out.push(e);
        }
        'Q' if !in_class => {
            let mut j = i + 2;
            let mut lit = String::new();
            while j < c.len() && !(c[j] == '\\' && c.get(j + 1) == Some(&'E')) {
                lit.push(c[j]);
                j += 1;
            }
            out.push_str(&regex::escape(&lit));
            next = if j < c.len() { j + 2 } else { j };
        }
        '0'..='7' => {
            let follows = c.get(i + 2).is_some_and(|d| ('0'..='7').contains(d));
            if e != '0' && !follows {
                return Err(format!(
                    "invalid escape sequence: `\\{e}` (backreferences are not supported)"
                ));
            }
            let mut v = e as u32 - '0' as u32;
            let mut j = i + 2;
            while j < i + 4 && c.get(j).is_some_and(|d| ('0'..='7').contains(d)) {
                v = v * 8 + (c[j] as u32 - '0' as u32);
                j += 1;
            }
            out.push_str(&format!("\\x{{{v:X}}}"));
            next = j;
        }
        '8' | '9' => return Err(format!("invalid escape sequence: `\\{e}`")),
        _ => {
            out.push('\\');
            out.push(e);
        }
    }
    Ok(next)
}

/// Copies a character class starting at `c[i] == '['`; returns the index after `]`.
fn class(c: &[char], i: usize, out: &mut String) -> Result<usize, String> {
    out.push('[');
    let mut j = i + 1;
    if c.get(j) == Some(&'^') {
        out.push('^');
        j += 1;
    }
    let mut first = true;
    while j < c.len() {
        let ch = c[j];
        if ch == ']' && !first {
            out.push(']');
            return Ok(j + 1);
        }
        first = false;
        match ch {
            '[' if c.get(j + 1) == Some(&':') => {
                // POSIX class `[:name:]`: same in both.
                let rest: String = c[j..].iter().collect();
                match rest.find(":]") {
                    Some(end) if end > 1 => {
                        out.push_str(&rest[..end + 2]);
                        j += rest[..end + 2].chars().count();
                    }
                    _ => {
                        out.push_str("\\[");
                        j += 1;
                    }
                }
            }
            '[' | '&' | '~' => {
                out.push('\\');
                out.push(ch);
                j += 1;
            }
            '-' if c.get(j + 1) == Some(&'-') => {
                out.push_str("-\\-");
                j += 2;
            }
            '\\' => j = escape(c, j, out, true)?,
            _ => {
                out.push(ch);
                j += 1;
            }
        }
    }
    Err("missing closing ]".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_match(p: &str, s: &str) -> Result<bool, ()> {
        let t = translate(p).map_err(|_| ())?;
        regex::Regex::new(&t).map(|r| r.is_match(s)).map_err(|_| ())
    }

    #[test]
    fn go_semantics() {
        // Values checked with Go 1.26 regexp.
        assert_eq!(go_match(r"\Qa.b\E", "xa.by"), Ok(true));
        assert_eq!(go_match(r"\Qa.b\E", "axb"), Ok(false));
        assert_eq!(go_match(r"\141pp", "app"), Ok(true));
        assert_eq!(go_match(r"\1", "a"), Err(()));
        assert_eq!(go_match(r"\<app", "my-app"), Ok(false));
        assert_eq!(go_match(r"\<app", "<app"), Ok(true));
        assert_eq!(go_match(r"[a&&b]", "&"), Ok(true));
        assert_eq!(go_match(r"[[a]", "["), Ok(true));
        assert_eq!(go_match(r"a{", "a{"), Ok(true));
        assert_eq!(go_match(r"a{,2}", "a{,2}"), Ok(true));
        assert_eq!(go_match(r"a{1001}", "a"), Err(()));
        assert_eq!(go_match(r"(?x)a b", "ab"), Err(()));
        assert_eq!(go_match(r"(?i)APP", "my-app"), Ok(true));
        assert_eq!(go_match(r"\s", "\u{b}"), Ok(false));
        assert_eq!(go_match(r"\d", "\u{0664}"), Ok(false));
        assert_eq!(go_match(r"^large.engine.v4$", "large.engine.v4"), Ok(true));
        assert_eq!(go_match(r"[[:alpha:]]+-v\d", "engine-v4"), Ok(true));
        assert_eq!(go_match(r"(?P<n>app)|(?<m>db)", "db-1"), Ok(true));
        assert_eq!(go_match(r"[invalid(regex", "x"), Err(()));
    }
}
