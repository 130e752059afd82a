//! apimachinery `pkg/util/validation/validation.go` (v0.32.10) name rules. Go's `regexp` anchors
//! (`^...$`) match the whole string, and every character class is ASCII, so these are byte checks.

/// `[A-Za-z0-9]`.
fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

/// `[a-z0-9]`.
fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` (any length).
fn qualified_name_pattern(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            alnum(f)
                && alnum(l)
                && b.iter()
                    .all(|&c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` (any length).
fn dns1123_label_pattern(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            lower_alnum(f) && lower_alnum(l) && b.iter().all(|&c| lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// Longest name part of a qualified name, and longest label value.
pub const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
/// Longest label value (`LabelValueMaxLength`).
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;
/// Longest DNS-1123 label (`DNS1123LabelMaxLength`).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Longest DNS-1123 subdomain (`DNS1123SubdomainMaxLength`).
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// `IsDNS1123Subdomain`: at most 253 bytes of dot-separated `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
/// labels. There is no per-label length limit here (that is `IsDNS1123Label`'s rule):
/// `"<64 a>.com"` is a valid subdomain.
///
/// ```
/// use kruise_core::k8s::validation::is_dns1123_subdomain;
/// assert!(is_dns1123_subdomain(&format!("{}.com", "a".repeat(64))));
/// assert!(!is_dns1123_subdomain("a..b"));
/// ```
pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= DNS1123_SUBDOMAIN_MAX_LENGTH
        && s.as_bytes()
            .split(|&c| c == b'.')
            .all(dns1123_label_pattern)
}

/// `IsDNS1123Label`: at most 63 bytes of `[a-z0-9]([-a-z0-9]*[a-z0-9])?` (what
/// `NameIsDNSLabel` checks).
pub fn is_dns1123_label(s: &str) -> bool {
    s.len() <= DNS1123_LABEL_MAX_LENGTH && dns1123_label_pattern(s.as_bytes())
}

/// `IsQualifiedName`: `[prefix/]name`, where the optional prefix is a non-empty DNS-1123
/// subdomain and the name is 1-63 bytes of `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. More than
/// one `/` is invalid. Label keys (`ValidateLabelName`) follow this rule.
///
/// ```
/// use kruise_core::k8s::validation::is_qualified_name;
/// assert!(is_qualified_name("app.kubernetes.io/name"));
/// assert!(is_qualified_name(&format!("{}.com/app", "a".repeat(64))));
/// assert!(!is_qualified_name("/app"));
/// assert!(!is_qualified_name("a/b/c"));
/// ```
pub fn is_qualified_name(s: &str) -> bool {
    let mut parts = s.split('/');
    let (prefix, name) = match (parts.next(), parts.next(), parts.next()) {
        (Some(n), None, _) => (None, n),
        (Some(p), Some(n), None) => (Some(p), n),
        _ => return false,
    };
    if let Some(p) = prefix
        && (p.is_empty() || !is_dns1123_subdomain(p))
    {
        return false;
    }
    name.len() <= QUALIFIED_NAME_MAX_LENGTH && qualified_name_pattern(name.as_bytes())
}

/// `IsValidLabelValue`: empty, or at most 63 bytes of
/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
pub fn is_valid_label_value(s: &str) -> bool {
    s.is_empty() || (s.len() <= LABEL_VALUE_MAX_LENGTH && qualified_name_pattern(s.as_bytes()))
}

/// `IsValidPercent`: `^[0-9]+%$`. Returns the digits before the `%`.
pub fn valid_percent_digits(s: &str) -> Option<&str> {
    let d = s.strip_suffix('%')?;
    (!d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names() {
        let a63 = "a".repeat(63);
        let a64 = "a".repeat(64);
        assert!(is_qualified_name(&a63));
        assert!(!is_qualified_name(&a64));
        assert!(is_qualified_name(&format!("{a64}.com/app")));
        assert!(is_qualified_name(&format!("{}/x", ["a"; 127].join("."))));
        assert!(!is_qualified_name(&format!("{}/x", "a".repeat(254))));
        assert!(!is_qualified_name("Example.com/app"));
        assert!(!is_qualified_name("example.com/"));
        assert!(!is_qualified_name(""));
        assert!(!is_qualified_name("-a"));
        assert!(is_qualified_name("A_b.C-d"));
        assert!(!is_qualified_name("a b"));
    }

    #[test]
    fn subdomains_labels_and_values() {
        assert!(is_dns1123_subdomain("a-b.c"));
        assert!(!is_dns1123_subdomain("a-.c"));
        assert!(!is_dns1123_subdomain(""));
        assert!(!is_dns1123_subdomain("a."));
        assert!(is_dns1123_subdomain(&"a".repeat(253)));
        assert!(!is_dns1123_subdomain(&"a".repeat(254)));
        assert!(is_dns1123_label("subset-1"));
        assert!(!is_dns1123_label(""));
        assert!(!is_dns1123_label("a.b"));
        assert!(!is_dns1123_label("Subset"));
        assert!(!is_dns1123_label(&"a".repeat(64)));
        assert!(is_valid_label_value(""));
        assert!(is_valid_label_value("My_value.1"));
        assert!(!is_valid_label_value("a/b"));
        assert!(!is_valid_label_value(&"a".repeat(64)));
        assert_eq!(valid_percent_digits("50%"), Some("50"));
        assert_eq!(valid_percent_digits("%"), None);
        assert_eq!(valid_percent_digits("-5%"), None);
        assert_eq!(valid_percent_digits("5%%"), None);
    }
}
