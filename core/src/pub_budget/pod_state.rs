//! Pod predicates: active, ready, state-consistent.
//!
//! Mirrors kube `IsPodActive`, `IsPodReady` / `IsPodStateConsistent` in
//! `pkg/control/pubcontrol/pub_control.go`, `util.IsRunningAndReady`,
//! `sidecarcontrol.IsSidecarContainerUpdateCompleted` and
//! `inplaceupdate.DefaultCheckInPlaceUpdateCompleted` (OpenKruise v1.9.0). See
//! `docs/pub.md`. None of them allocates for a pod without in-place annotations.

use super::image_ref;
use super::types::{Pod, StrMap, has_unavailable_label};
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// Annotation: Kruise in-place update state (JSON), new key.
pub const ANN_INPLACE_STATE: &str = "apps.kruise.io/inplace-update-state";
/// Annotation: Kruise in-place update state, legacy key.
pub const ANN_INPLACE_STATE_OLD: &str = "inplace-update-state";
/// Annotation: in-place update grace period, new key.
pub const ANN_INPLACE_GRACE: &str = "apps.kruise.io/inplace-update-grace";
/// Annotation: in-place update grace period, legacy key.
pub const ANN_INPLACE_GRACE_OLD: &str = "inplace-update-grace";
/// Annotation: kruise-daemon's runtime container meta (JSON).
pub const ANN_RUNTIME_META: &str = "apps.kruise.io/runtime-containers-meta";
/// Annotation: SidecarSets injected into the pod (comma-separated).
pub const ANN_SIDECARSET_LIST: &str = "kruise.io/sidecarset-injected-list";
/// Annotation: SidecarSet name -> in-place update state (JSON).
pub const ANN_SIDECARSET_STATE: &str = "kruise.io/sidecarset-inplace-update-state";
/// Container env marking a SidecarSet-injected container.
pub const ENV_IS_INJECTED: &str = "IS_INJECTED";

/// The three predicates together (`pub.pod_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PodState {
    /// Phase not Succeeded/Failed and no deletionTimestamp.
    pub active: bool,
    /// Running, first Ready condition True, not deleting, no unavailable label.
    pub ready: bool,
    /// Images and in-place updates settled (`IsPodStateConsistent`).
    pub consistent: bool,
}

impl Pod {
    /// kube `IsPodActive`.
    pub fn is_active(&self) -> bool {
        self.status.phase != "Succeeded"
            && self.status.phase != "Failed"
            && self.metadata.deletion_timestamp.is_none()
    }

    /// PUB `IsPodReady`: Running, first `Ready` condition `True`, not deleting, no
    /// `unavailable-pod.kruise.io/` label.
    pub fn is_ready(&self) -> bool {
        self.status.phase == "Running"
            && self
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "Ready")
                .is_some_and(|c| c.status == "True")
            && self.metadata.deletion_timestamp.is_none()
            && !has_unavailable_label(&self.metadata.labels)
    }

    /// PUB `IsPodStateConsistent` (digest images, SidecarSet containers, Kruise in-place update).
    pub fn is_consistent(&self) -> bool {
        let mut all_digest = true;
        for c in self.spec.containers() {
            if !image_ref::is_digest(&c.image) {
                all_digest = false;
                continue;
            }
            if !self.digest_matches(&c.name, &c.image) {
                return false;
            }
        }
        if all_digest {
            return true;
        }
        self.sidecars_consistent() && self.inplace_update_completed()
    }

    /// All three predicates.
    pub fn state(&self) -> PodState {
        PodState {
            active: self.is_active(),
            ready: self.is_ready(),
            consistent: self.is_consistent(),
        }
    }

    /// Available for the controller's count: active, ready and consistent (the record maps are
    /// checked by the caller).
    pub fn counts_as_available(&self) -> bool {
        self.is_active() && self.is_ready() && self.is_consistent()
    }

    /// `util.IsPodContainerDigestEqual` for one container: its status (the last one by that
    /// name) has an imageID (text between the first and second `://`, if any) equal to `image`.
    fn digest_matches(&self, name: &str, image: &str) -> bool {
        let Some(cs) = self
            .status
            .container_statuses
            .iter()
            .rev()
            .find(|s| s.name == name)
        else {
            return false;
        };
        let id = match cs.image_id.split("://").nth(1) {
            Some(after) => after,
            None => cs.image_id.as_str(),
        };
        image_ref::same_image(image, id)
    }

    fn sidecars_consistent(&self) -> bool {
        let ann = &self.metadata.annotations;
        let list = match ann.get(ANN_SIDECARSET_LIST) {
            Some(l) if !l.is_empty() => l.as_str(),
            _ => return true,
        };
        let is_sidecar = |name: &str| {
            self.spec
                .containers()
                .iter()
                .any(|c| c.name == name && c.env_value(ENV_IS_INJECTED) == Some("true"))
        };
        if !self
            .spec
            .containers()
            .iter()
            .any(|c| c.env_value(ENV_IS_INJECTED) == Some("true"))
        {
            return true;
        }
        let Some(raw) = ann.get(ANN_SIDECARSET_STATE).filter(|s| !s.is_empty()) else {
            return true;
        };
        let Ok(states) =
            serde_json::from_str::<Option<BTreeMap<String, Option<GoStruct<InPlaceState>>>>>(raw)
        else {
            return false;
        };
        let states = states.unwrap_or_default();
        let mut sets: Vec<&str> = list.split(',').collect();
        sets.sort_unstable();
        sets.dedup();
        let mut last: BTreeMap<&str, &str> = BTreeMap::new();
        for set in sets {
            if let Some(Some(GoStruct(state))) = states.get(set) {
                for (name, st) in state.last_container_statuses.iter().flatten() {
                    last.insert(name.as_str(), st.0.image_id.as_str());
                }
            }
        }
        let image_of = |name: &str| -> &str {
            self.spec
                .containers()
                .iter()
                .rev()
                .find(|c| c.name == name)
                .map_or("", |c| c.image.as_str())
        };
        for cs in &self.status.container_statuses {
            if !is_sidecar(&cs.name) {
                continue;
            }
            if let Some(old_id) = last.get(cs.name.as_str())
                && *old_id == cs.image_id
                && image_of(&cs.name) != cs.image
            {
                return false;
            }
        }
        true
    }

    /// `DefaultCheckInPlaceUpdateCompleted` without the kubelet container-hash branch.
    fn inplace_update_completed(&self) -> bool {
        let ann = &self.metadata.annotations;
        if ann.contains_key(ANN_INPLACE_GRACE) || ann.contains_key(ANN_INPLACE_GRACE_OLD) {
            return false;
        }
        let Some(raw) = ann
            .get(ANN_INPLACE_STATE)
            .or_else(|| ann.get(ANN_INPLACE_STATE_OLD))
        else {
            return true;
        };
        let Ok(GoStruct(state)) = serde_json::from_str::<GoStruct<InPlaceState>>(raw) else {
            return false;
        };
        if state
            .next_container_images
            .as_ref()
            .is_some_and(|m| !m.is_empty())
            || state
                .next_container_ref_metadata
                .as_ref()
                .is_some_and(|m| !m.is_empty())
            || state
                .next_container_resources
                .as_ref()
                .is_some_and(|m| !m.is_empty())
        {
            return false;
        }
        // runtime-containers-meta must parse when present; its kubelet-hash shortcut is out of scope
        if let Some(m) = ann.get(ANN_RUNTIME_META)
            && serde_json::from_str::<serde_json::Value>(m)
                .map_or(true, |v| !(v.is_object() || v.is_null()))
        {
            return false;
        }
        if state.update_env_from_metadata {
            // only kubelet container hashes could confirm this (out of scope): not confirmed
            return false;
        }
        self.last_statuses_settled(state.last_container_statuses.unwrap_or_default())
    }

    fn last_statuses_settled(&self, mut last: BTreeMap<String, GoStruct<LastStatus>>) -> bool {
        let spec_image = |name: &str| -> Option<(&str, bool)> {
            self.spec
                .containers()
                .iter()
                .rev()
                .find(|c| c.name == name)
                .map(|c| (c.image.as_str(), !c.image.contains(':')))
        };
        for cs in &self.status.container_statuses {
            if let Some(old) = last.remove(&cs.name)
                && old.0.image_id == cs.image_id
            {
                let same = match spec_image(&cs.name) {
                    Some((img, true)) => cs.image.strip_suffix(":latest") == Some(img),
                    Some((img, false)) => img == cs.image,
                    None => cs.image.is_empty(),
                };
                if !same {
                    return false;
                }
            }
        }
        last.is_empty()
    }
}

/// The in-place update state JSON (`appspub.InPlaceUpdateState`), the members read here.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct InPlaceState {
    last_container_statuses: Option<BTreeMap<String, GoStruct<LastStatus>>>,
    next_container_images: Option<StrMap>,
    next_container_ref_metadata: Option<BTreeMap<String, serde_json::Value>>,
    next_container_resources: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(deserialize_with = "super::types::null_default")]
    update_env_from_metadata: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LastStatus {
    #[serde(rename = "imageID", deserialize_with = "super::types::null_default")]
    image_id: String,
}

/// A struct read as Go's `encoding/json` reads one into a struct value: from a JSON object, or
/// from `null` (which leaves the zero value). Anything else, a JSON array in particular, is an
/// error; serde's derived `Deserialize` would read an array as the struct's fields in order.
#[derive(Debug, Default)]
struct GoStruct<T>(T);

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for GoStruct<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct ObjectOrNull<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> Visitor<'de> for ObjectOrNull<T> {
            type Value = GoStruct<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object or null")
            }
            fn visit_none<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
                Ok(GoStruct(T::default()))
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
                Ok(GoStruct(T::default()))
            }
            fn visit_some<D2: Deserializer<'de>>(
                self,
                d: D2,
            ) -> std::result::Result<Self::Value, D2::Error> {
                d.deserialize_map(self)
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(GoStruct)
            }
        }
        d.deserialize_option(ObjectOrNull(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(v: serde_json::Value) -> Pod {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn ready_uses_first_ready_condition() {
        let p = pod(json!({"status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "False"}, {"type": "Ready", "status": "True"}]}}));
        assert!(!p.is_ready());
        assert!(p.is_active());
    }

    #[test]
    fn latest_suffix_and_consumed_entries() {
        let id = "nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d";
        let state = json!({"lastContainerStatuses": {"main": {"imageID": id}}}).to_string();
        // spec "nginx" is compared as "nginx:latest"
        let p = pod(
            json!({"metadata": {"annotations": {ANN_INPLACE_STATE: state}},
            "spec": {"containers": [{"name": "main", "image": "nginx"}]},
            "status": {"containerStatuses": [{"name": "main", "image": "nginx:latest", "imageID": id}]}}),
        );
        assert!(p.is_consistent());
        // an entry without a matching status is left unconsumed
        let p = pod(
            json!({"metadata": {"annotations": {ANN_INPLACE_STATE: state}},
            "spec": {"containers": [{"name": "other", "image": "nginx:v1"}]}}),
        );
        assert!(!p.is_consistent());
        // grace annotation, unparsable state
        let p = pod(
            json!({"metadata": {"annotations": {ANN_INPLACE_GRACE_OLD: ""}}, "spec": {"containers": [{"name": "a", "image": "x:1"}]}}),
        );
        assert!(!p.is_consistent());
        let p = pod(
            json!({"metadata": {"annotations": {ANN_INPLACE_STATE: "{"}}, "spec": {"containers": [{"name": "a", "image": "x:1"}]}}),
        );
        assert!(!p.is_consistent());
        // zero containers: consistent whatever the annotations
        let p = pod(json!({"metadata": {"annotations": {ANN_INPLACE_STATE: "{"}}}));
        assert!(p.is_consistent());
    }

    #[test]
    fn sidecar_state_checked_only_with_list_and_injected_container() {
        let id = "envoy@sha256:f7108338109c3a0b94d2df4734fc480aac7caefc0e6fa4b11951216c2bec6dcf";
        let st = json!({"s1": {"lastContainerStatuses": {"mesh": {"imageID": id}}}}).to_string();
        let base = |list: Option<&str>| {
            let mut ann = serde_json::Map::new();
            ann.insert(ANN_SIDECARSET_STATE.into(), json!(st));
            if let Some(l) = list {
                ann.insert(ANN_SIDECARSET_LIST.into(), json!(l));
            }
            pod(json!({"metadata": {"annotations": ann},
                "spec": {"containers": [{"name": "mesh", "image": "envoy:v2", "env": [{"name": "IS_INJECTED", "value": "true"}]}]},
                "status": {"containerStatuses": [{"name": "mesh", "image": "envoy:v1", "imageID": id}]}}))
        };
        assert!(base(None).is_consistent());
        assert!(!base(Some("s1")).is_consistent());
        assert!(base(Some("s2")).is_consistent());
    }
}
