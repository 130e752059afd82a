//! The bits of Go's `encoding/json` output (Go 1.22 and later) that the pod webhook writes into
//! annotations: string escaping and maps with sorted keys. Kept byte-exact because the
//! annotations are compared as strings by the SidecarSet controller.

use std::collections::BTreeMap;

/// Appends `s` as a JSON string the way `json.Marshal` writes it: HTML-safe (`<`, `>`, `&` as
/// `\u003c`...), U+2028/U+2029 escaped, `\b \f \n \r \t` short forms, other control bytes as
/// `\u00xx`.
pub fn push_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' => {
                let b = c as u32;
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `json.Marshal` of a Go map with string keys: keys in byte order, each value written by
/// `value`.
pub fn object<V>(m: &BTreeMap<String, V>, value: impl Fn(&mut String, &V)) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_string(&mut out, k);
        out.push(':');
        value(&mut out, v);
    }
    out.push('}');
    out
}

/// `json.Marshal(map[string]string)`.
pub fn string_map(m: &BTreeMap<String, String>) -> String {
    object(m, |out, v| push_string(out, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_go() {
        let mut s = String::new();
        push_string(&mut s, "a<b>&\"\\\n\u{1}\u{8}\u{2028}é");
        assert_eq!(s, r#""a\u003cb\u003e\u0026\"\\\n\u0001\b\u2028é""#);
        let m = BTreeMap::from([("b".to_string(), "1".to_string()), ("a".into(), "2".into())]);
        assert_eq!(string_map(&m), r#"{"a":"2","b":"1"}"#);
    }
}
