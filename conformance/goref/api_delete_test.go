//go:build goref_overlay

// Differential test of api.delete_protection against the proxy's
// pkg/webhook/util/deletionprotection (ValidateWorkloadDeletion, ValidateNamespaceDeletion over a
// fake cluster holding the namespace's pods and PVCs, ValidateCRDDeletion over a fake cluster
// holding the custom resources, ValidateServiceDeletion, ValidateIngressDeletion). Which function a
// kind goes to, and that only DELETE requests without a subresource are examined, is the
// dispatch of OpenKruise's validating webhooks (pkg/webhook/{builtinworkloads,cloneset,statefulset,
// uniteddeployment,namespace,customresourcedefinition,service,ingress}/validating); the test
// writes that dispatch out and compares the functions' verdicts.
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/openkruise/kruise/pkg/webhook/util/deletionprotection"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnAPIDelete = "api.delete_protection"

type deleteInput struct {
	Kind   string `json:"kind"`
	Object struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     struct {
			Replicas *int32 `json:"replicas,omitempty"`
		} `json:"spec"`
	} `json:"object"`
	Dependents *struct {
		Pods                   []map[string]any `json:"pods,omitempty"`
		PersistentVolumeClaims []map[string]any `json:"persistentVolumeClaims,omitempty"`
		CustomResources        []map[string]any `json:"customResources,omitempty"`
	} `json:"dependents,omitempty"`
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	Operation    string          `json:"operation,omitempty"`
	SubResource  string          `json:"subResource,omitempty"`
}

var gorefCRGVK = schema.GroupVersionKind{Group: "goref.example.com", Version: "v1", Kind: "Widget"}

func decodeMapInto(t testing.TB, m map[string]any, into any) {
	t.Helper()
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("does not decode: %v\n%s", err, b)
	}
}

// refDelete: "" when allowed, else the kind the reference's denial maps to.
func refDelete(t testing.TB, in deleteInput) string {
	t.Helper()
	if (in.Operation != "" && in.Operation != "DELETE") || in.SubResource != "" {
		return ""
	}
	setPubGates(t, in.FeatureGates)
	meta := in.Object.Metadata
	var err error
	switch in.Kind {
	case "Deployment", "ReplicaSet", "StatefulSet", "CloneSet", "UnitedDeployment":
		err = deletionprotection.ValidateWorkloadDeletion(&meta, in.Object.Spec.Replicas)
	case "Service":
		err = deletionprotection.ValidateServiceDeletion(&corev1.Service{ObjectMeta: meta})
	case "Ingress":
		err = deletionprotection.ValidateIngressDeletion(&meta)
	case "Namespace":
		var objs []client.Object
		if in.Dependents != nil {
			for _, pm := range in.Dependents.Pods {
				p := &corev1.Pod{}
				decodeMapInto(t, pm, p)
				objs = append(objs, fakeReady(p, meta.Name))
			}
			for _, cm := range in.Dependents.PersistentVolumeClaims {
				c := &corev1.PersistentVolumeClaim{}
				decodeMapInto(t, cm, c)
				objs = append(objs, fakeReady(c, meta.Name))
			}
		}
		c := newFakeClient(t, objs, nil).Build()
		err = deletionprotection.ValidateNamespaceDeletion(c, &corev1.Namespace{ObjectMeta: meta})
	case "CustomResourceDefinition":
		var objs []client.Object
		if in.Dependents != nil {
			for _, rm := range in.Dependents.CustomResources {
				u := &unstructured.Unstructured{Object: deepCopyJSON(rm).(map[string]any)}
				u.SetGroupVersionKind(gorefCRGVK)
				objs = append(objs, fakeReady(u, "default"))
			}
		}
		c := newFakeClient(t, objs, nil).Build()
		err = deletionprotection.ValidateCRDDeletion(c, &meta, gorefCRGVK)
	}
	if err == nil {
		return ""
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "is not enabled"):
		return "crd_cascading_gate_disabled"
	case strings.Contains(msg, "and replicas"):
		return "deletion_forbidden_replicas"
	case strings.Contains(msg, "and active pods"):
		return "deletion_forbidden_active_pods"
	case strings.Contains(msg, "status pvc"):
		return "deletion_forbidden_bound_pvcs"
	case strings.Contains(msg, "and active CRs"):
		return "deletion_forbidden_active_crs"
	case strings.HasSuffix(msg, "=Always"):
		return "deletion_forbidden_always"
	}
	return "unmapped: " + msg
}

// fakeReady places an object in namespace ns and gives a deleting one a finalizer (the fake
// client refuses a deletionTimestamp without one); a nameless one gets a name.
var fakeNameSeq int

func fakeReady(o client.Object, ns string) client.Object {
	o.SetNamespace(ns)
	o.SetResourceVersion("")
	if o.GetName() == "" {
		o.SetGenerateName("")
		fakeNameSeq++
		o.SetName("goref-" + strconv.Itoa(fakeNameSeq))
	}
	if o.GetDeletionTimestamp() != nil {
		o.SetFinalizers(append(o.GetFinalizers(), "goref/keep"))
	}
	return o
}

func compareDelete(t *testing.T, r *tally, label string, raw json.RawMessage) {
	r.total++
	var in deleteInput
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	want := refDelete(t, in)
	out, gotK, err := answer(fnAPIDelete, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	switch {
	case strings.HasPrefix(want, "unmapped"):
		r.fail("%s %s: reference %s", label, raw, want)
	case want == "" && gotK == "" && reflect.DeepEqual(decodeJSON(t, out), decodeJSON(t, []byte(`{"allowed":true}`))):
		r.agreeValue++
	case want != "" && want == gotK:
		r.agreeError++
	default:
		r.fail("%s %s: reference %q, ours %s/%s", label, raw, want, out, gotK)
	}
}

func TestAPIDeleteVectors(t *testing.T) {
	requireFn(t, fnAPIDelete, map[string]any{"kind": "Pod", "object": map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "api", fnAPIDelete) {
		compareDelete(t, &r, "vector "+c.Name, c.Input)
		withVectorAnswer(c, func() { compareDelete(t, &refVec, "vector "+c.Name+" (reference vs vector)", c.Input) })
	}
	r.report(t, "api.delete_protection vectors")
	refVec.report(t, "api.delete_protection vectors, reference vs vector")
}

func randomDeleteInputs(n int, each func(i int, raw json.RawMessage)) {
	g := &apiGen{rng: rand.New(rand.NewPCG(20261202, 10))}
	ts := "2026-06-21T10:00:00Z"
	for i := 0; i < n; i++ {
		in := map[string]any{"kind": g.pick("Deployment", "ReplicaSet", "StatefulSet", "CloneSet", "UnitedDeployment", "Namespace", "Namespace",
			"Namespace", "CustomResourceDefinition", "CustomResourceDefinition", "Service", "Ingress", "DaemonSet", "Pod", "ConfigMap")}
		meta := map[string]any{"name": "x"}
		if !g.chance(6) {
			meta["labels"] = map[string]any{"policy.kruise.io/delete-protection": g.pick("Always", "Cascading", "Cascading", "Cascading", "Cascading", "always", "", "Never")}
		}
		if g.chance(8) {
			meta["deletionTimestamp"] = ts
		}
		obj := map[string]any{"metadata": meta}
		if !g.chance(4) {
			obj["spec"] = map[string]any{"replicas": []int{0, 0, 1, 3, -1, 2147483647}[g.rng.IntN(6)]}
		}
		in["object"] = obj
		if g.chance(6) {
			delete(obj, "spec")
		}
		if !g.chance(5) {
			deps := map[string]any{}
			var pods, pvcs, crs []any
			for j := g.rng.IntN(3); j > 0; j-- {
				pm := map[string]any{"name": "p" + strconv.Itoa(j)}
				if g.chance(5) {
					pm["deletionTimestamp"] = ts
				}
				pods = append(pods, map[string]any{"metadata": pm, "status": map[string]any{"phase": g.pick("Running", "Pending", "Succeeded", "Failed", "Succeeded", "Failed", "")}})
			}
			for j := g.rng.IntN(3); j > 0; j-- {
				cm := map[string]any{"name": "c" + strconv.Itoa(j)}
				if g.chance(5) {
					cm["deletionTimestamp"] = ts
				}
				pvcs = append(pvcs, map[string]any{"metadata": cm, "status": map[string]any{"phase": g.pick("Bound", "Bound", "Pending", "Lost", "")}})
			}
			for j := g.rng.IntN(3); j > 0; j-- {
				rm := map[string]any{"name": "r" + strconv.Itoa(j)}
				if g.chance(3) {
					rm["deletionTimestamp"] = ts
				}
				crs = append(crs, map[string]any{"metadata": rm})
			}
			if pods != nil || g.chance(2) {
				deps["pods"] = append([]any{}, pods...)
			}
			if pvcs != nil || g.chance(2) {
				deps["persistentVolumeClaims"] = append([]any{}, pvcs...)
			}
			if crs != nil || g.chance(2) {
				deps["customResources"] = append([]any{}, crs...)
			}
			in["dependents"] = deps
		}
		if !g.chance(6) {
			in["featureGates"] = map[string]any{"ResourcesDeletionProtection": !g.chance(5), "DeletionProtectionForCRDCascadingGate": !g.chance(3)}
		}
		if g.chance(8) {
			in["operation"] = g.pick("DELETE", "UPDATE", "CREATE")
		}
		if g.chance(12) {
			in["subResource"] = g.pick("status", "")
		}
		b, _ := json.Marshal(in)
		each(i, b)
	}
}

func TestAPIDeleteRandom(t *testing.T) {
	requireFn(t, fnAPIDelete, map[string]any{"kind": "Pod", "object": map[string]any{}})
	var r tally
	seen := map[string]int{}
	randomDeleteInputs(randomCount(2500), func(i int, raw json.RawMessage) {
		var in deleteInput
		_ = json.Unmarshal(raw, &in)
		k := refDelete(t, in)
		if k == "" {
			k = "allowed"
		}
		seen[k]++
		compareDelete(t, &r, fmt.Sprintf("random #%d", i), raw)
	})
	r.report(t, "api.delete_protection random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"allowed", "deletion_forbidden_always", "deletion_forbidden_replicas", "deletion_forbidden_active_pods",
		"deletion_forbidden_bound_pvcs", "deletion_forbidden_active_crs", "crd_cascading_gate_disabled"} {
		if seen[k] < 10 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}
