package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
)

func manifest(t *testing.T, text string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestConvertSidecarSetUp(t *testing.T) {
	in := manifest(t, `{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"s","labels":{"apps.kruise.io/sidecarset-custom-version":"v1"}},
		"spec":{"namespace":"default"}}`)
	out, err := ApiConvert(ApiConvertInput{Object: in, TargetApiVersion: V1Beta1})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(out)
	var got struct {
		APIVersion string `json:"apiVersion"`
		Spec       struct {
			CustomVersion     string `json:"customVersion"`
			NamespaceSelector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"namespaceSelector"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(text, &got); err != nil {
		t.Fatal(err)
	}
	if got.APIVersion != V1Beta1 || got.Spec.CustomVersion != "v1" ||
		got.Spec.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "default" {
		t.Fatalf("unexpected conversion: %s", text)
	}
}

func TestConvertErrorsCarryKinds(t *testing.T) {
	cases := []struct{ manifest, to, kind, field string }{
		{`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet"}`, V1Beta1, "unsupported_kind", "object.kind"},
		{`{"apiVersion":"apps.kruise.io/v1beta1","kind":"DaemonSet"}`, V1Beta1, "same_version", "targetApiVersion"},
		{`{"apiVersion":"apps/v1","kind":"DaemonSet"}`, V1Beta1, "unsupported_version", "object.apiVersion"},
		{`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"StatefulSet","spec":{"replicas":"3"}}`, V1Beta1, "invalid_input", "object.spec.replicas"},
	}
	for _, c := range cases {
		_, err := ApiConvert(ApiConvertInput{Object: manifest(t, c.manifest), TargetApiVersion: c.to})
		var kerr *Error
		if !errors.As(err, &kerr) || kerr.Kind() != c.kind || kerr.Field() != c.field {
			t.Fatalf("%s: want %s at %s, got %v", c.manifest, c.kind, c.field, err)
		}
	}
	// A manifest that is not an object cannot be typed; through Call it is invalid_input.
	_, err := Call("api.convert", []byte(`{"object":[1,2],"targetApiVersion":"apps.kruise.io/v1beta1"}`))
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "invalid_input" || kerr.Field() != "object" {
		t.Fatalf("array manifest: got %v", err)
	}
}

func TestCompatGenerated(t *testing.T) {
	sv, err := CompatServerVersion(json.RawMessage(`{"version":"v1.33.2-gke.1240000"}`))
	if err != nil {
		t.Fatal(err)
	}
	if sv.Version.Provider != "gke" || !sv.Features.ResizeSubresource {
		t.Fatalf("server version: %+v", sv)
	}
	no := false
	v, err := CompatKruiseUpgrade(CompatKruiseUpgradeInput{From: "v1.3.0", To: "v1.6.0",
		Kubernetes: json.RawMessage(`"v1.28.3-eks-4096722"`), KruiseDaemonDisabled: &no})
	if err != nil {
		t.Fatal(err)
	}
	if v.Allowed || len(v.Blockers) != 1 || v.Blockers[0].Code != "leader_election_hop_required" {
		t.Fatalf("upgrade: %+v", v)
	}
}
