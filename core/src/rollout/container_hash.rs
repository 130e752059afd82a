//! The container hashes in-place update completion compares with the ones kruise-daemon records
//! in `apps.kruise.io/runtime-containers-meta`.
//!
//! Mirrors kubelet's `HashContainer` of Kubernetes v1.32 (`pkg/kubelet/container/helpers.go`:
//! only `name` and `image`), OpenKruise's `containermeta` `GetExpectHash` (the env read from
//! labels/annotations) and `hashutil.DeepHashObject` (`pkg/util/hash`): FNV-1a (32 bits) over
//! apimachinery `dump.ForHash` of the JSON bytes, which for a `[]byte` is spew's `%#v` form
//! `([]uint8)[123 34 ...]` (the bytes in decimal, space separated).
//!
//! Not computed: the pre-1.31 kubelet hash (`hashContainer` in the reference), which covers the
//! JSON of the whole `v1.Container`.

use crate::sidecarset::gojson::push_string;
use serde_json::{Map, Value};

/// FNV-1a, 32 bits.
fn fnv32a(bytes: impl IntoIterator<Item = u8>) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// `DeepHashObject(fnv32a, jsonBytes)`.
fn deep_hash_json(json: &str) -> u64 {
    let mut text = String::with_capacity(json.len() * 4 + 12);
    text.push_str("([]uint8)[");
    for (i, b) in json.bytes().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&b.to_string());
    }
    text.push(']');
    u64::from(fnv32a(text.bytes()))
}

/// Kubelet v1.32 `HashContainer`: the hash of `{"image": image, "name": name}`.
pub fn plain_hash(name: &str, image: &str) -> u64 {
    let mut json = String::from("{\"image\":");
    push_string(&mut json, image);
    json.push_str(",\"name\":");
    push_string(&mut json, name);
    json.push('}');
    deep_hash_json(&json)
}

/// `hashEnvs` of `(name, value)` pairs already sorted by name (`[]v1.EnvVar` JSON; an empty
/// value omitted; no env: `null`).
pub fn env_hash(envs: &[(String, String)]) -> u64 {
    if envs.is_empty() {
        return deep_hash_json("null");
    }
    let mut json = String::from("[");
    for (i, (n, v)) in envs.iter().enumerate() {
        if i > 0 {
            json.push(',');
        }
        json.push_str("{\"name\":");
        push_string(&mut json, n);
        if !v.is_empty() {
            json.push_str(",\"value\":");
            push_string(&mut json, v);
        }
        json.push('}');
    }
    json.push(']');
    deep_hash_json(&json)
}

/// One entry of `apps.kruise.io/runtime-containers-meta`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuntimeMeta {
    /// `name`.
    pub name: String,
    /// `containerID`.
    pub container_id: String,
    /// `hashes.plainHash`.
    pub plain_hash: u64,
    /// `hashes.extractedEnvFromMetadataHash`.
    pub env_hash: u64,
}

/// A member of a Go struct as `encoding/json` finds it: the exact key, else one equal ignoring
/// ASCII case.
fn member<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).or_else(|| {
        m.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

fn go_string(v: Option<&Value>, at: &str) -> Result<String, String> {
    match v {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("{at}: not a string")),
    }
}

/// A JSON number as Go decodes it into an unsigned / signed integer type (integer literal, in
/// range).
fn go_uint(v: Option<&Value>, at: &str) -> Result<u64, String> {
    match v {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => n
            .as_u64()
            .filter(|_| !n.to_string().contains(['.', 'e', 'E']))
            .ok_or_else(|| format!("{at}: {n} is not a uint64")),
        Some(_) => Err(format!("{at}: not a number")),
    }
}

fn go_int32(v: Option<&Value>, at: &str) -> Result<(), String> {
    match v {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Number(n)) => n
            .as_i64()
            .filter(|i| i32::try_from(*i).is_ok() && !n.to_string().contains(['.', 'e', 'E']))
            .map(|_| ())
            .ok_or_else(|| format!("{at}: {n} is not an int32")),
        Some(_) => Err(format!("{at}: not a number")),
    }
}

/// `GetRuntimeContainerMetaSet` of the annotation text: the containers, or the decode error.
/// `null` is an empty set.
pub fn parse_runtime_meta(text: &str) -> Result<Vec<RuntimeMeta>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let top = match &v {
        Value::Null => return Ok(Vec::new()),
        Value::Object(m) => m,
        _ => return Err("not a JSON object".into()),
    };
    let list = match member(top, "containers") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err("containers: not an array".into()),
    };
    let mut out = Vec::new();
    let mut first_err = None;
    for (i, c) in list.iter().enumerate() {
        let at = format!("containers[{i}]");
        let c = match c {
            Value::Null => {
                out.push(RuntimeMeta::default());
                continue;
            }
            Value::Object(m) => m,
            _ => return Err(format!("{at}: not an object")),
        };
        let mut meta = RuntimeMeta::default();
        let mut keep = |r: Result<(), String>| {
            if let Err(e) = r {
                first_err.get_or_insert(e);
            }
        };
        match go_string(member(c, "name"), &format!("{at}.name")) {
            Ok(s) => meta.name = s,
            Err(e) => keep(Err(e)),
        }
        match go_string(member(c, "containerID"), &format!("{at}.containerID")) {
            Ok(s) => meta.container_id = s,
            Err(e) => keep(Err(e)),
        }
        keep(go_int32(
            member(c, "restartCount"),
            &format!("{at}.restartCount"),
        ));
        match member(c, "hashes") {
            None | Some(Value::Null) => {}
            Some(Value::Object(h)) => {
                match go_uint(member(h, "plainHash"), &format!("{at}.hashes.plainHash")) {
                    Ok(n) => meta.plain_hash = n,
                    Err(e) => keep(Err(e)),
                }
                match go_uint(
                    member(h, "extractedEnvFromMetadataHash"),
                    &format!("{at}.hashes.extractedEnvFromMetadataHash"),
                ) {
                    Ok(n) => meta.env_hash = n,
                    Err(e) => keep(Err(e)),
                }
            }
            Some(_) => keep(Err(format!("{at}.hashes: not an object"))),
        }
        out.push(meta);
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by the reference (kubelet v1.32 `HashContainer`, `containermeta` hasher).
    #[test]
    fn hashes_match_the_reference_bytes() {
        assert_eq!(fnv32a(*b""), 0x811c_9dc5);
        assert_eq!(fnv32a(*b"a"), 0xe40c_292c);
        // the spew form of the JSON bytes
        assert_eq!(
            deep_hash_json("{}"),
            u64::from(fnv32a(*b"([]uint8)[123 125]"))
        );
        assert_eq!(env_hash(&[]), deep_hash_json("null"));
    }

    #[test]
    fn runtime_meta_decodes_like_go() {
        let m = parse_runtime_meta(
            r#"{"containers":[{"name":"a","containerID":"x","restartCount":1,"hashes":{"plainHash":5}}]}"#,
        )
        .unwrap();
        assert_eq!(m[0].plain_hash, 5);
        assert_eq!(m[0].container_id, "x");
        assert!(parse_runtime_meta("null").unwrap().is_empty());
        assert!(parse_runtime_meta("[]").is_err());
        assert!(parse_runtime_meta(r#"{"containers":[{"hashes":{"plainHash":-1}}]}"#).is_err());
        assert!(parse_runtime_meta(r#"{"containers":[{"hashes":{"plainHash":1.0}}]}"#).is_err());
    }
}
