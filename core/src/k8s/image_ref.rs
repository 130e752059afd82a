//! Docker image references: the one reference grammar every family uses
//! (docker/distribution `reference`, v2.8.2 as OpenKruise v1.9.0 vendors it).
//!
//! Grammar: `name[:tag][@algo:hex]`; name = `[domain/]component(/component)*`, at most 255 bytes;
//! a digest is valid only for sha256 / sha384 / sha512 with 64 / 96 / 128 lowercase hex digits.
//! Two readings of it:
//!
//! - [`parse`]: plain `reference.Parse`, **no** normalization (`nginx` and
//!   `docker.io/library/nginx` are different repositories), as OpenKruise's `util.ParseImage`;
//!   PUB's digest-consistency check of `IsPodStateConsistent` uses it ([`is_digest`],
//!   [`same_image`]).
//! - [`is_valid_normalized`]: `reference.ParseNormalizedNamed` succeeds, as
//!   `daemonutil.NormalizeImageRef` asks it (AdvancedCronJob's ImageListPullJob template images):
//!   the docker.io default domain and `library/` prefix, a lower-case repository path, and no
//!   bare 64-hex identifier.
//!
//! Allocation-free except for the normalized reading's prefixed name.

/// A parsed reference: repository name, tag and digest (both optional), borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageRef<'a> {
    /// The repository name exactly as written.
    pub name: &'a str,
    /// The tag (`None` when absent).
    pub tag: Option<&'a str>,
    /// The digest `algo:hex` (`None` when absent).
    pub digest: Option<&'a str>,
}

/// Parses a reference; `None` when it is not a valid reference.
pub fn parse(s: &str) -> Option<ImageRef<'_>> {
    let (left, digest) = match s.split_once('@') {
        Some((l, d)) => (l, Some(d)),
        None => (s, None),
    };
    if let Some(d) = digest
        && !valid_digest(d)
    {
        return None;
    }
    // a tag follows the last ':' when no '/' comes after it (else the ':' is a registry port)
    let (name, tag) = match left.rfind(':') {
        Some(i) if !left[i + 1..].contains('/') => (&left[..i], Some(&left[i + 1..])),
        _ => (left, None),
    };
    if let Some(t) = tag
        && !valid_tag(t)
    {
        return None;
    }
    if name.is_empty() || name.len() > 255 || !valid_name(name) {
        return None;
    }
    Some(ImageRef { name, tag, digest })
}

/// Whether an image string is a digest reference (`util.IsImageDigest`). Cheap for tag images.
pub fn is_digest(image: &str) -> bool {
    image.contains('@') && parse(image).is_some_and(|r| r.digest.is_some())
}

/// `util.IsContainerImageEqual`: both parse, same repository, and same digest when both carry one,
/// else same tag.
pub fn same_image(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (parse(a), parse(b)) else {
        return false;
    };
    if a.name != b.name {
        return false;
    }
    match (a.digest, b.digest) {
        (Some(x), Some(y)) => x == y,
        _ => a.tag == b.tag,
    }
}

const DEFAULT_DOMAIN: &str = "docker.io";

/// `reference.ParseNormalizedNamed(s)` succeeds: the reference with the default domain
/// (`docker.io`, whose one-component names take the `library/` prefix; `index.docker.io` is read
/// as `docker.io`), whose repository path is lower case, and which is not a bare 64-hex
/// identifier.
pub fn is_valid_normalized(s: &str) -> bool {
    if s.len() == 64
        && s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return false;
    }
    let (domain, remainder) = split_domain(s);
    let library = domain == DEFAULT_DOMAIN && !remainder.contains('/');
    let remote = remainder.split(':').next().unwrap_or("");
    if remote.to_lowercase() != remote {
        return false;
    }
    let full = if library {
        format!("{domain}/library/{remainder}")
    } else {
        format!("{domain}/{remainder}")
    };
    parse(&full).is_some()
}

/// distribution's `splitDockerDomain`: (domain, remainder); a first component without `.` or
/// `:`, not `localhost` and lower case is a path, not a domain.
fn split_domain(s: &str) -> (&str, &str) {
    match s.find('/') {
        Some(i) => {
            let first = &s[..i];
            if !first.contains(['.', ':']) && first != "localhost" && first.to_lowercase() == first
            {
                (DEFAULT_DOMAIN, s)
            } else if first == "index.docker.io" {
                (DEFAULT_DOMAIN, &s[i + 1..])
            } else {
                (first, &s[i + 1..])
            }
        }
        None => (DEFAULT_DOMAIN, s),
    }
}

fn valid_tag(t: &str) -> bool {
    let b = t.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    !b.is_empty()
        && b.len() <= 128
        && word(b[0])
        && b[1..].iter().all(|&c| word(c) || c == b'.' || c == b'-')
}

fn valid_digest(d: &str) -> bool {
    let Some((algo, hex)) = d.split_once(':') else {
        return false;
    };
    let want = match algo {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    hex.len() == want
        && hex
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

fn valid_name(name: &str) -> bool {
    let mut parts = name.split('/');
    let Some(first) = parts.next() else {
        return false;
    };
    let rest_ok = |mut it: std::str::Split<'_, char>| -> (bool, usize) {
        let mut n = 0;
        let ok = it.all(|p| {
            n += 1;
            valid_path_component(p)
        });
        (ok, n)
    };
    let (rest_valid, rest_count) = rest_ok(parts);
    if !rest_valid {
        return false;
    }
    // all path components, or a domain followed by at least one path component
    valid_path_component(first) || (rest_count > 0 && valid_domain(first))
}

/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`
fn valid_path_component(p: &str) -> bool {
    let b = p.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    if b.is_empty() || !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &b[start..i];
        let ok = sep == b"." || sep == b"_" || sep == b"__" || sep.iter().all(|&c| c == b'-');
        if !ok {
            return false;
        }
    }
    true
}

/// `component(\.component)*(:[0-9]+)?`, component `[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?`
fn valid_domain(d: &str) -> bool {
    let (host, port) = match d.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (d, None),
    };
    if let Some(p) = port
        && (p.is_empty() || !p.bytes().all(|c| c.is_ascii_digit()))
    {
        return false;
    }
    host.split('.').all(|c| {
        let b = c.as_bytes();
        !b.is_empty()
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    const D: &str = "sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d";

    #[test]
    fn parses_plain_references() {
        let r = parse("docker.io/library/nginx:1.25").unwrap();
        assert_eq!(
            (r.name, r.tag, r.digest),
            ("docker.io/library/nginx", Some("1.25"), None)
        );
        let r = parse("localhost:5000/app").unwrap();
        assert_eq!((r.name, r.tag), ("localhost:5000/app", None));
        assert!(parse("Nginx:v1").is_none());
        assert!(parse("nginx:").is_none());
        assert!(parse("").is_none());
        assert!(parse("a__b--c.d_e/f").is_some());
        assert!(parse("a___b").is_none());
    }

    #[test]
    fn digests() {
        assert!(is_digest(&format!("nginx@{D}")));
        assert!(is_digest(&format!("docker.io/busybox:1@{D}")));
        assert!(!is_digest("nginx:v1"));
        assert!(!is_digest(&format!(
            "nginx@{}",
            D.to_uppercase().replace("SHA", "sha")
        )));
        assert!(!is_digest("nginx@md5:abcdef"));
        assert!(!is_digest(&format!("@{D}")));
        // un-normalized: different repositories
        assert!(!same_image(
            &format!("nginx@{D}"),
            &format!("docker.io/library/nginx@{D}")
        ));
        assert!(same_image(&format!("nginx@{D}"), &format!("nginx:v1@{D}")));
        assert!(same_image("nginx:v1", "nginx:v1"));
        assert!(!same_image("nginx:v1", "nginx:v2"));
    }

    #[test]
    fn normalized_references() {
        assert!(is_valid_normalized("busybox:latest"));
        assert!(is_valid_normalized("registry.k8s.io/pause:3.9"));
        assert!(is_valid_normalized("localhost:5000/x/y:tag"));
        assert!(is_valid_normalized(&format!(
            "ubuntu@sha256:{}",
            "a".repeat(64)
        )));
        assert!(!is_valid_normalized(&format!(
            "ubuntu@sha256:{}",
            "a".repeat(63)
        )));
        assert!(!is_valid_normalized("Busybox:latest"));
        assert!(!is_valid_normalized("busybox:"));
        assert!(!is_valid_normalized(""));
        assert!(!is_valid_normalized(&"a".repeat(64)));
        assert!(is_valid_normalized("Docker.io/library/busybox"));
        assert!(is_valid_normalized("index.docker.io/busybox"));
        assert!(!is_valid_normalized("a:b:c"));
        assert!(!is_valid_normalized("x:y/z"));
        // 255 bytes of normalized name at most: `docker.io/library/` counts
        assert!(is_valid_normalized(&"a".repeat(255 - 18)));
        assert!(!is_valid_normalized(&"a".repeat(256 - 18)));
    }
}
