//! Which `apiVersion`s the OpenKruise v1.9.0 API server serves for a kind, and the check every
//! front end runs before it reads a manifest as that kind.
//!
//! The table carries the `served: true` versions of the CRDs in `config/crd/bases/` at v1.9.0
//! (`apps.kruise.io_sidecarsets.yaml`, `apps.kruise.io_advancedcronjobs.yaml`, ...): SidecarSet and
//! AdvancedCronJob are served at `v1alpha1` and `v1beta1`, CloneSet and UnitedDeployment at
//! `v1alpha1` only, PodUnavailableBudget at `policy.kruise.io/v1alpha1`. Core kinds (Pod, Job) are
//! served at the Kubernetes versions named here.

use crate::error::{Error, Result};
use serde_json::Value;

/// Error kind: the manifest is another kind than the one asked for (or has no `kind`).
pub const WRONG_KIND: &str = "wrong_kind";
/// Error kind: an `apiVersion` the v1.9.0 API server does not serve for the kind (the same kind
/// as `api.convert`'s unknown source version).
pub const UNSUPPORTED_VERSION: &str = super::convert::UNSUPPORTED_VERSION;

/// `(kind, served apiVersions)`.
pub const SERVED: &[(&str, &[&str])] = &[
    (
        "SidecarSet",
        &["apps.kruise.io/v1alpha1", "apps.kruise.io/v1beta1"],
    ),
    (
        "AdvancedCronJob",
        &["apps.kruise.io/v1alpha1", "apps.kruise.io/v1beta1"],
    ),
    ("CloneSet", &["apps.kruise.io/v1alpha1"]),
    ("UnitedDeployment", &["apps.kruise.io/v1alpha1"]),
    ("PodUnavailableBudget", &["policy.kruise.io/v1alpha1"]),
    ("Pod", &["v1"]),
    ("Job", &["batch/v1"]),
];

/// The served apiVersions of `kind` (`None` for a kind not in [`SERVED`]).
pub fn served_versions(kind: &str) -> Option<&'static [&'static str]> {
    SERVED.iter().find(|(k, _)| *k == kind).map(|(_, v)| *v)
}

/// Checks that `doc` is a `kind` manifest at a served apiVersion; `field` prefixes the error's
/// field (`""` for a whole file, `items[3]` for a list item).
///
/// With `required`, `kind` and `apiVersion` must be present (a manifest as `kubectl get -o yaml`
/// prints it); without, absent members pass (items of a hand-written pod list) but present ones
/// are checked. Errors: `invalid_input` (not an object, a member not a string), [`WRONG_KIND`]
/// (`kind`), [`UNSUPPORTED_VERSION`] (`apiVersion`, naming the served versions).
///
/// ```
/// use kruise_core::api::served::check;
/// use serde_json::json;
/// let cs = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet"});
/// assert!(check(&cs, "CloneSet", "", true).is_ok());
/// assert_eq!(check(&cs, "SidecarSet", "", true).unwrap_err().kind, "wrong_kind");
/// let beta = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet"});
/// assert_eq!(check(&beta, "CloneSet", "", true).unwrap_err().kind, "unsupported_version");
/// ```
pub fn check(doc: &Value, kind: &str, field: &str, required: bool) -> Result<()> {
    let path = |m: &str| {
        if field.is_empty() {
            m.to_owned()
        } else {
            format!("{field}.{m}")
        }
    };
    let Some(obj) = doc.as_object() else {
        let what = if field.is_empty() { "manifest" } else { field };
        return Err(Error::invalid_input(
            what,
            format_args!("expected a {kind} object"),
        ));
    };
    let member = |m: &str| -> Result<Option<&str>> {
        match obj.get(m) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(Error::invalid_input(
                path(m),
                format_args!("expected a string, got {other}"),
            )),
        }
    };
    let (got_kind, got_version) = (member("kind")?, member("apiVersion")?);
    match got_kind {
        Some(k) if k == kind => {}
        Some(k) => {
            return Err(Error::at(
                WRONG_KIND,
                path("kind"),
                format_args!("{k:?} is not {kind}"),
            ));
        }
        None if required => {
            return Err(Error::at(
                WRONG_KIND,
                path("kind"),
                format_args!("missing; expected {kind}"),
            ));
        }
        None => {}
    }
    let served = served_versions(kind).unwrap_or(&[]);
    match got_version {
        Some(v) if served.contains(&v) => Ok(()),
        None if !required => Ok(()),
        got => Err(Error::at(
            UNSUPPORTED_VERSION,
            path("apiVersion"),
            format_args!(
                "{} is not served for {kind} by OpenKruise v1.9.0 (served: {})",
                got.map_or("missing".to_owned(), |v| format!("{v:?}")),
                served.join(", ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kinds_and_versions() {
        let pub_ =
            json!({"apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget"});
        assert!(check(&pub_, "PodUnavailableBudget", "", true).is_ok());
        let e = check(&pub_, "CloneSet", "", true).unwrap_err();
        assert_eq!((e.kind, e.field.as_deref()), (WRONG_KIND, Some("kind")));
        let acj = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob"});
        assert!(check(&acj, "AdvancedCronJob", "", true).is_ok());
        let ud = json!({"apiVersion": "apps/v1", "kind": "UnitedDeployment"});
        let e = check(&ud, "UnitedDeployment", "", true).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (UNSUPPORTED_VERSION, Some("apiVersion"))
        );
        assert!(
            e.message.contains("served: apps.kruise.io/v1alpha1"),
            "{}",
            e.message
        );
    }

    #[test]
    fn absent_members_only_without_required() {
        let bare = json!({"metadata": {"name": "p"}});
        assert!(check(&bare, "Pod", "items[0]", false).is_ok());
        let e = check(&bare, "Pod", "", true).unwrap_err();
        assert_eq!((e.kind, e.field.as_deref()), (WRONG_KIND, Some("kind")));
        let svc = json!({"kind": "Service"});
        let e = check(&svc, "Pod", "items[2]", false).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (WRONG_KIND, Some("items[2].kind"))
        );
        let e = check(&json!({"kind": 3}), "Pod", "", false).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("kind"))
        );
        assert_eq!(
            check(&json!([]), "Pod", "", true).unwrap_err().kind,
            "invalid_input"
        );
    }
}
