package kruisecore

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

const pubNow = "2026-06-21T10:00:00Z"

// conv converts a JSON-shaped value into a generated type through its JSON.
func conv[T any](t *testing.T, v any) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

func pubTestPod(name, cpu string, ready bool) map[string]any {
	cond := "True"
	if !ready {
		cond = "False"
	}
	return map[string]any{
		"metadata": map[string]any{"name": name, "namespace": "default",
			"annotations": map[string]any{"kruise.io/related-pub": "web-server-pub"}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1.25",
			"resources": map[string]any{"requests": map[string]any{"cpu": cpu, "memory": "512Mi"},
				"limits": map[string]any{"cpu": "2", "memory": "1Gi"}}}}},
		"status": map[string]any{"phase": "Running", "conditions": []any{map[string]any{"type": "Ready", "status": cond}}},
	}
}

func pubTestPub(status any) map[string]any {
	p := map[string]any{
		"apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
		"metadata": map[string]any{"name": "web-server-pub", "namespace": "default", "generation": 1,
			"annotations": map[string]any{"kruise.io/pub-protect-operations": "DELETE,EVICT,UPDATE,RESIZE"}},
		"spec": map[string]any{"targetRef": map[string]any{"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet", "name": "web-server"},
			"maxUnavailable": "20%"},
	}
	if status != nil {
		p["status"] = status
	}
	return p
}

func TestPubProtectOperationsVerbatim(t *testing.T) {
	seed := "DELETE, EVICT, UPDATE, RESIZE"
	got, err := PubProtectOperations(PubProtectOperationsInput{Annotation: &seed})
	if err != nil || !reflect.DeepEqual(got.Operations, []PubOperation{PubOperationDELETE}) {
		t.Fatalf("seed annotation: %v, %v", got, err)
	}
	got, err = PubProtectOperations(PubProtectOperationsInput{})
	if err != nil || !reflect.DeepEqual(got.Operations, []PubOperation{"DELETE", "EVICT", "RESIZE", "UPDATE"}) {
		t.Fatalf("default: %v, %v", got, err)
	}
	strict := true
	_, err = PubProtectOperations(PubProtectOperationsInput{Annotation: &seed, Strict: &strict})
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "invalid_protect_operations" {
		t.Fatalf("strict: %v", err)
	}
}

func TestPubSeedScenario(t *testing.T) {
	var pods []PubPod
	for i := 0; i < 10; i++ {
		pods = append(pods, conv[PubPod](t, pubTestPod(fmt.Sprintf("web-server-%d", i), "500m", true)))
	}
	ten := int32(10)
	st, err := PubStatus(PubStatusInput{Pub: conv[PubPub](t, pubTestPub(nil)), Pods: &pods, WorkloadReplicas: &ten, Now: pubNow})
	if err != nil || st.DesiredAvailable != 8 || st.CurrentAvailable != 10 || st.UnavailableAllowed != 2 || !st.Changed {
		t.Fatalf("status: %+v, %v", st, err)
	}
	var status any = st
	eviction := "eviction"
	for i := 0; i < 3; i++ {
		pub := conv[PubPub](t, pubTestPub(status))
		a, err := PubAdmit(PubAdmitInput{Request: PubAdmitRequest{Operation: "CREATE", SubResource: &eviction}, Pod: &pods[i], Pub: &pub, Now: pubNow})
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			if !a.Allowed || a.Decision != "admitted" || a.NewStatus == nil || a.NewStatus.UnavailableAllowed != int32(1-i) {
				t.Fatalf("eviction %d: %+v", i, a)
			}
			if a.NewStatus.DisruptedPods[fmt.Sprintf("web-server-%d", i)] != "2026-06-21T10:00:00Z" {
				t.Fatalf("eviction %d record: %+v", i, a.NewStatus)
			}
			status = a.NewStatus
			continue
		}
		want := `podunavailablebudget.policy.kruise.io "web-server-pub" is forbidden: pub unavailable allowed is negative`
		if a.Allowed || a.Decision != "denied_no_budget" || a.Reason != want || a.NewStatus != nil {
			t.Fatalf("third eviction: %+v", a)
		}
	}
	resized := conv[PubPod](t, pubTestPod("web-server-3", "1", true))
	c, err := PubClassifyUpdate(PubClassifyUpdateInput{OldPod: pods[3], NewPod: resized})
	if err != nil || c.Operation == nil || *c.Operation != PubOperationRESIZE || !c.CanResizeInplace {
		t.Fatalf("resize: %+v, %v", c, err)
	}
	on := true
	pub := conv[PubPub](t, pubTestPub(status))
	a, err := PubAdmit(PubAdmitInput{Request: PubAdmitRequest{Operation: "UPDATE"}, OldPod: &pods[3], NewPod: &resized,
		Pub: &pub, FeatureGates: &PubFeatureGates{PodUnavailableBudgetUpdateGate: &on}, Now: pubNow})
	if err != nil || a.Allowed || a.Operation == nil || *a.Operation != PubOperationRESIZE {
		t.Fatalf("resize admission: %+v, %v", a, err)
	}
}

func TestPubStateValidateAndErrors(t *testing.T) {
	s, err := PubPodState(PubPodStateInput{Pod: conv[PubPod](t, pubTestPod("a", "1", false))})
	if err != nil || s != (PubPodStateOutput{Active: true, Ready: false, Consistent: true}) {
		t.Fatalf("state: %+v, %v", s, err)
	}
	codes, err := PubValidate(PubValidateInput{Pub: conv[PubPub](t, pubTestPub(nil))})
	if err != nil || len(codes) != 0 {
		t.Fatalf("validate: %v, %v", codes, err)
	}
	bad := pubTestPub(nil)
	bad["spec"].(map[string]any)["maxUnavailable"] = "x%"
	one := int32(1)
	_, err = PubStatus(PubStatusInput{Pub: conv[PubPub](t, bad), WorkloadReplicas: &one, Now: pubNow})
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "invalid_int_or_percent" || kerr.Field() != "spec.maxUnavailable" {
		t.Fatalf("bad budget: %v", err)
	}
	no := false
	a, err := PubAdmit(PubAdmitInput{Request: PubAdmitRequest{Operation: "DELETE", OldObjectPresent: &no}, Now: pubNow})
	if err != nil || a.Decision != "no_old_object" || !a.Allowed {
		t.Fatalf("no old object: %+v, %v", a, err)
	}
}
