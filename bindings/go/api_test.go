//go:build cgo

package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestConvertSidecarSetUp(t *testing.T) {
	in := []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"s","labels":{"apps.kruise.io/sidecarset-custom-version":"v1"}},
		"spec":{"namespace":"default"}}`)
	out, err := Convert(in, V1Beta1)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		APIVersion string `json:"apiVersion"`
		Spec       struct {
			CustomVersion     string `json:"customVersion"`
			NamespaceSelector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"namespaceSelector"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.APIVersion != V1Beta1 || got.Spec.CustomVersion != "v1" ||
		got.Spec.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "default" {
		t.Fatalf("unexpected conversion: %s", out)
	}
}

func TestConvertErrorsCarryKinds(t *testing.T) {
	cases := []struct{ manifest, to, kind, field string }{
		{`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet"}`, V1Beta1, "unsupported_kind", "object.kind"},
		{`{"apiVersion":"apps.kruise.io/v1beta1","kind":"DaemonSet"}`, V1Beta1, "same_version", "targetApiVersion"},
		{`{"apiVersion":"apps/v1","kind":"DaemonSet"}`, V1Beta1, "unsupported_version", "object.apiVersion"},
		{`[1,2]`, V1Beta1, "invalid_input", "object"},
		{`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"StatefulSet","spec":{"replicas":"3"}}`, V1Beta1, "invalid_input", "object.spec.replicas"},
	}
	for _, c := range cases {
		_, err := Convert([]byte(c.manifest), c.to)
		var kerr *Error
		if !errors.As(err, &kerr) || kerr.Kind() != c.kind || kerr.Field() != c.field {
			t.Fatalf("%s: want %s at %s, got %v", c.manifest, c.kind, c.field, err)
		}
	}
}

func TestCompatHelpers(t *testing.T) {
	out, err := ServerVersion([]byte(`"v1.33.2-gke.1240000"`))
	if err != nil {
		t.Fatal(err)
	}
	var sv struct {
		Version  struct{ Provider string } `json:"version"`
		Features struct {
			ResizeSubresource bool `json:"resizeSubresource"`
		} `json:"features"`
	}
	if err := json.Unmarshal(out, &sv); err != nil || sv.Version.Provider != "gke" || !sv.Features.ResizeSubresource {
		t.Fatalf("server version: %s %v", out, err)
	}
	out, err = KruiseUpgrade("v1.3.0", "v1.6.0", "v1.28.3-eks-4096722", false)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Allowed  bool
		Blockers []struct{ Code string }
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Allowed || len(v.Blockers) != 1 || v.Blockers[0].Code != "leader_election_hop_required" {
		t.Fatalf("upgrade: %s %v", out, err)
	}
}
