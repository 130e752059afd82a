//! Whether an image string is a valid normalised docker reference, as OpenKruise's
//! `daemonutil.NormalizeImageRef` (docker/distribution v2.8.2 `reference.ParseNormalizedNamed`)
//! decides it: `[domain[:port]/]path[:tag][@digest]`, lower-case repository path, at most 255
//! characters of name, digests of a known algorithm with the right hex length.

use regex::Regex;

const DEFAULT_DOMAIN: &str = "docker.io";

/// Regular expressions of the reference grammar, built per validation call (no globals).
pub(crate) struct Grammar {
    reference: Regex,
    identifier: Regex,
}

impl Grammar {
    /// Builds the grammar.
    pub(crate) fn new() -> Option<Grammar> {
        let alnum = "[a-z0-9]+";
        let sep = "(?:[._]|__|[-]*)";
        let comp = format!("{alnum}(?:{sep}{alnum})*");
        let dcomp = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
        let domain = format!(r"{dcomp}(?:\.{dcomp})*(?::[0-9]+)?");
        let name = format!("(?:{domain}/)?{comp}(?:/{comp})*");
        let tag = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
        let digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
        let reference = Regex::new(&format!("^({name})(?::({tag}))?(?:@({digest}))?$")).ok()?;
        let identifier = Regex::new("^[a-f0-9]{64}$").ok()?;
        Some(Grammar {
            reference,
            identifier,
        })
    }

    /// `ParseNormalizedNamed(s)` succeeds.
    pub(crate) fn valid(&self, s: &str) -> bool {
        if self.identifier.is_match(s) {
            return false;
        }
        let (domain, mut remainder) = split_domain(s);
        let prefixed;
        if domain == DEFAULT_DOMAIN && !remainder.contains('/') {
            prefixed = format!("library/{remainder}");
            remainder = &prefixed;
        }
        let remote = remainder.split(':').next().unwrap_or("");
        if remote.to_lowercase() != remote {
            return false;
        }
        let full = format!("{domain}/{remainder}");
        let Some(caps) = self.reference.captures(&full) else {
            return false;
        };
        if caps.get(1).map_or(0, |m| m.as_str().len()) > 255 {
            return false;
        }
        match caps.get(3) {
            None => true,
            Some(d) => valid_digest(d.as_str()),
        }
    }
}

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

fn valid_digest(d: &str) -> bool {
    let Some((alg, hex)) = d.split_once(':') else {
        return false;
    };
    let len = match alg {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    hex.len() == len
        && hex
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

#[cfg(test)]
mod tests {
    #[test]
    fn docker_references() {
        let g = super::Grammar::new().unwrap();
        assert!(g.valid("busybox:latest"));
        assert!(g.valid("registry.k8s.io/pause:3.9"));
        assert!(g.valid("localhost:5000/x/y:tag"));
        assert!(g.valid(&format!("ubuntu@sha256:{}", "a".repeat(64))));
        assert!(!g.valid(&format!("ubuntu@sha256:{}", "a".repeat(63))));
        assert!(!g.valid("Busybox:latest"));
        assert!(!g.valid("busybox:"));
        assert!(!g.valid(""));
        assert!(!g.valid(&"a".repeat(64)));
        assert!(g.valid("Docker.io/library/busybox"));
    }
}
