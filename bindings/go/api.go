package kruisecore

import "encoding/json"

// API versions of the apps.kruise.io kinds with two versions in OpenKruise v1.9.
const (
	V1Alpha1 = "apps.kruise.io/v1alpha1"
	V1Beta1  = "apps.kruise.io/v1beta1"
)

// Convert converts one whole apps.kruise.io manifest (JSON) to apiVersion to, as OpenKruise
// v1.9's conversion webhook does ("api.convert"). Errors are *Error with Kind "same_version",
// "unsupported_kind", "unsupported_version", "not_representable" or "invalid_input" (Field names
// the offending member, e.g. "object.spec.replicas").
func Convert(manifest []byte, to string) ([]byte, error) {
	input, err := json.Marshal(struct {
		Object           json.RawMessage `json:"object"`
		TargetAPIVersion string          `json:"targetApiVersion"`
	}{json.RawMessage(manifest), to})
	if err != nil {
		return nil, err
	}
	return Call("api.convert", input)
}

// ServerVersion parses a Kubernetes version as GET /version reports it (the JSON object, or a
// JSON string holding gitVersion) and decides the features it offers ("compat.server_version").
// It never fails on an odd version string: the answer then has "known": false.
func ServerVersion(version []byte) ([]byte, error) {
	input, err := json.Marshal(struct {
		Version json.RawMessage `json:"version"`
	}{json.RawMessage(version)})
	if err != nil {
		return nil, err
	}
	return Call("compat.server_version", input)
}

// KruiseUpgrade says whether upgrading OpenKruise from -> to is allowed on Kubernetes version
// kubernetes (a gitVersion such as "v1.28.3-eks-4096722"), with kruise-daemon disabled or not
// ("compat.kruise_upgrade"): {"allowed", "blockers", "warnings", "via", "kubernetes"}.
func KruiseUpgrade(from, to, kubernetes string, kruiseDaemonDisabled bool) ([]byte, error) {
	input, err := json.Marshal(map[string]any{
		"from": from, "to": to, "kubernetes": kubernetes, "kruiseDaemonDisabled": kruiseDaemonDisabled,
	})
	if err != nil {
		return nil, err
	}
	return Call("compat.kruise_upgrade", input)
}
