//! The pod annotations the SidecarSet injection reads and writes: the per-SidecarSet upgrade
//! records `kruise.io/sidecarset-hash` and `kruise.io/sidecarset-hash-without-image`
//! (`sidecarcontrol.SidecarSetUpgradeSpec`), read as `json.Unmarshal` reads them (with the
//! fallback to the older `map[string]string` form) and written as `json.Marshal` writes them,
//! and the hot-upgrade working-container map.

use super::gojson::push_string;
use crate::time::parse_rfc3339;
use jiff::Timestamp;
use serde_json::Value;
use std::collections::BTreeMap;

/// Pod annotation: the SidecarSet upgrade records (also the SidecarSet's own hash annotation).
pub const HASH: &str = "kruise.io/sidecarset-hash";
/// Pod annotation: the upgrade records with the image-less hashes.
pub const HASH_WITHOUT_IMAGE: &str = "kruise.io/sidecarset-hash-without-image";
/// Pod annotation: the comma-separated names of the injected SidecarSets.
pub const INJECTED_LIST: &str = "kruise.io/sidecarset-injected-list";
/// Pod annotation: hot-upgrade sidecar name -> the pod container currently working.
pub const WORKING_HOT_UPGRADE: &str = "kruise.io/sidecarset-working-hotupgrade-container";

/// One `SidecarSetUpgradeSpec` record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UpgradeSpec {
    /// `updateTimestamp`, whole seconds UTC; `None` = Go's zero time (written `null`).
    pub update_timestamp: Option<Timestamp>,
    /// `hash`.
    pub hash: String,
    /// `sidecarSetName`.
    pub sidecar_set_name: String,
    /// `sidecarList`; `None` = Go nil (written `null`).
    pub sidecar_list: Option<Vec<String>>,
    /// `controllerRevision` (omitted when empty).
    pub controller_revision: String,
}

impl UpgradeSpec {
    fn push_json(&self, out: &mut String) {
        out.push_str("{\"updateTimestamp\":");
        match self.update_timestamp {
            Some(t) => push_string(out, &format_time(t)),
            None => out.push_str("null"),
        }
        out.push_str(",\"hash\":");
        push_string(out, &self.hash);
        out.push_str(",\"sidecarSetName\":");
        push_string(out, &self.sidecar_set_name);
        out.push_str(",\"sidecarList\":");
        match &self.sidecar_list {
            None => out.push_str("null"),
            Some(l) => {
                out.push('[');
                for (i, n) in l.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_string(out, n);
                }
                out.push(']');
            }
        }
        if !self.controller_revision.is_empty() {
            out.push_str(",\"controllerRevision\":");
            push_string(out, &self.controller_revision);
        }
        out.push('}');
    }
}

/// `metav1.Time` as JSON writes it: UTC, whole seconds (the fraction is dropped).
pub fn format_time(t: Timestamp) -> String {
    Timestamp::from_second(t.as_second() - i64::from(t.subsec_nanosecond() < 0))
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// Reads a time as `metav1.Time.UnmarshalJSON` does, then to whole seconds; Go's zero time
/// (`0001-01-01T00:00:00Z`) is `None`, as is `null`. `Err(())` when Go fails.
fn read_time(v: &Value) -> Result<Option<Timestamp>, ()> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => {
            let t = parse_rfc3339(s).ok_or(())?;
            // Go's IsZero: 0001-01-01T00:00:00 UTC exactly.
            if t.as_second() == -62_135_596_800 && t.subsec_nanosecond() == 0 {
                return Ok(None);
            }
            Ok(Some(t))
        }
        _ => Err(()),
    }
}

/// Go's field matching in `json.Unmarshal`: the exact name, else a case-insensitive one.
fn field(name: &str, key: &str) -> bool {
    key == name || key.eq_ignore_ascii_case(name)
}

fn read_string(v: &Value, into: &mut String) -> Result<(), ()> {
    match v {
        Value::Null => Ok(()),
        Value::String(s) => {
            *into = s.clone();
            Ok(())
        }
        _ => Err(()),
    }
}

fn read_spec(v: &Value) -> Result<UpgradeSpec, ()> {
    let mut spec = UpgradeSpec::default();
    let obj = match v {
        Value::Null => return Ok(spec),
        Value::Object(o) => o,
        _ => return Err(()),
    };
    for (k, v) in obj {
        if field("updateTimestamp", k) {
            if !v.is_null() {
                spec.update_timestamp = read_time(v)?;
            }
        } else if field("hash", k) {
            read_string(v, &mut spec.hash)?;
        } else if field("sidecarSetName", k) {
            read_string(v, &mut spec.sidecar_set_name)?;
        } else if field("controllerRevision", k) {
            read_string(v, &mut spec.controller_revision)?;
        } else if field("sidecarList", k) {
            spec.sidecar_list = match v {
                Value::Null => None,
                Value::Array(items) => Some(
                    items
                        .iter()
                        .map(|i| {
                            let mut s = String::new();
                            read_string(i, &mut s).map(|_| s)
                        })
                        .collect::<Result<_, ()>>()?,
                ),
                _ => return Err(()),
            };
        }
    }
    Ok(spec)
}

/// Reads an upgrade-record annotation as `buildSidecars` does: a map of records, else the older
/// map of hashes (each becoming `{hash, sidecarSetName: key}`). `None` when both fail (the
/// webhook then refuses the pod).
pub fn read_specs(s: &str) -> Option<BTreeMap<String, UpgradeSpec>> {
    let v: Value = serde_json::from_str(s).ok()?;
    let obj = match &v {
        Value::Null => return Some(BTreeMap::new()),
        Value::Object(o) => o,
        _ => return None,
    };
    if let Ok(m) = obj
        .iter()
        .map(|(k, v)| read_spec(v).map(|s| (k.clone(), s)))
        .collect::<Result<BTreeMap<_, _>, ()>>()
    {
        return Some(m);
    }
    obj.iter()
        .map(|(k, v)| {
            let mut hash = String::new();
            read_string(v, &mut hash).ok()?;
            Some((
                k.clone(),
                UpgradeSpec {
                    hash,
                    sidecar_set_name: k.clone(),
                    ..UpgradeSpec::default()
                },
            ))
        })
        .collect()
}

/// `json.Marshal(map[string]SidecarSetUpgradeSpec)`.
pub fn write_specs(m: &BTreeMap<String, UpgradeSpec>) -> String {
    super::gojson::object(m, |out, v| v.push_json(out))
}

/// `GetPodHotUpgradeInfoInAnnotations`: the map `json.Unmarshal` leaves behind, errors
/// included (a value that is not a string reads as `""`; anything but an object: empty).
pub fn read_hot_upgrade_info(s: &str) -> BTreeMap<String, String> {
    match serde_json::from_str::<Value>(s) {
        Ok(Value::Object(o)) => o
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => s,
                    _ => String::new(),
                };
                (k, v)
            })
            .collect(),
        _ => BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_records_like_go() {
        let m = read_specs(
            r#"{"b":{"updateTimestamp":"2020-01-01T08:00:00.5+08:00","HASH":"h","sidecarList":["x"]},"a":null}"#,
        )
        .unwrap();
        assert_eq!(
            write_specs(&m),
            r#"{"a":{"updateTimestamp":null,"hash":"","sidecarSetName":"","sidecarList":null},"b":{"updateTimestamp":"2020-01-01T00:00:00Z","hash":"h","sidecarSetName":"","sidecarList":["x"]}}"#
        );
        let old = read_specs(r#"{"s":"h1","t":null}"#).unwrap();
        assert_eq!(old["s"].hash, "h1");
        assert_eq!(old["t"].sidecar_set_name, "t");
        assert!(read_specs(r#"{"s":1}"#).is_none());
        assert!(read_specs("[").is_none());
        assert!(read_specs("null").unwrap().is_empty());
    }

    #[test]
    fn hot_upgrade_info_keeps_what_go_keeps() {
        let m = read_hot_upgrade_info(r#"{"a":"a-1","b":2}"#);
        assert_eq!(m["a"], "a-1");
        assert_eq!(m["b"], "");
        assert!(read_hot_upgrade_info("[1]").is_empty());
    }
}
