//go:build goref_overlay

// The pod webhooks' namespace exclusion (kruise-core's webhookNamespace member of pub.admit,
// pub.admit_review, api.launch_priority and api.workloadspread_subset): the API server calls
// mpod.kb.io / vpod.kb.io / vpodeviction.kb.io only for requests in a namespace their
// namespaceSelector selects (OpenKruise v1.9.0's handlers have no namespace rule of their own).
// webhookVerdict evaluates the selector as the API server does (apimachinery's
// LabelSelectorAsSelector over the namespace labels plus kubernetes.io/metadata.name); an
// excluded request is compared with the answer of a webhook that is not called, a selected one
// runs the test's usual reference path without the member.
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// helmPodWebhookSelector is the namespaceSelector of the pod webhooks in the Helm chart
// (openkruise/charts versions/kruise/1.9.0-alpha.3/templates/webhookconfiguration.yaml).
func helmPodWebhookSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "control-plane", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"openkruise"}},
		{Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"kube-system"}},
	}}
}

// webhookVerdict answers whether the webhooks skip the request's namespace, or the error kind
// kruise-core gives for the member ("invalid_input": no name; "invalid_label_selector": a
// selector the API server refuses).
func webhookVerdict(raw json.RawMessage) (excluded bool, kind string) {
	var w struct {
		Name     string                `json:"name"`
		Labels   map[string]string     `json:"labels"`
		Selector *metav1.LabelSelector `json:"selector"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return false, "invalid_input"
	}
	if w.Name == "" {
		return false, "invalid_input"
	}
	sel := w.Selector
	if sel == nil {
		sel = helmPodWebhookSelector()
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false, "invalid_label_selector"
	}
	if s.Empty() {
		return false, ""
	}
	l := labels.Set{}
	for k, v := range w.Labels {
		l[k] = v
	}
	l["kubernetes.io/metadata.name"] = w.Name
	return !s.Matches(l), ""
}

// compareWebhookFixed compares kruise-core's answer for an input whose webhookNamespace is
// excluded or refused with the fixed answer (want JSON) or error kind.
func compareWebhookFixed(t *testing.T, r *tally, label, fn string, in any, wantKind, want string) {
	t.Helper()
	raw, gotK, err := answer(fn, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if wantKind != "" || gotK != "" {
		if wantKind == gotK {
			r.agreeError++
		} else {
			r.fail("%s %s: want error %q, ours %s/%q", label, jsonText(in), wantKind, raw, gotK)
		}
		return
	}
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		r.fail("%s: ours %s: %v", label, raw, err)
		return
	}
	_ = json.Unmarshal([]byte(want), &b)
	if reflect.DeepEqual(a, b) {
		r.agreeValue++
		return
	}
	r.fail("%s %s:\n webhook not called %s\n ours      %s", label, jsonText(in), want, raw)
}

const (
	pubAdmitExcluded = `{"allowed":true,"reason":"","decision":"namespace_excluded","operation":null,"newStatus":null}`
	wsExcluded       = `{"subset":null,"version":"","statusChanged":false,"generatedUid":false,"webhookExcluded":true}`
)

// TestWebhookNamespaceRandom draws namespaces (names incl. kube-system and kruise-system,
// control-plane and other labels, a metadata.name label that disagrees with the name) and
// selectors (the chart's by default, the kustomize one, {}, In/NotIn/Exists/DoesNotExist, invalid
// ones) and checks kruise-core's pub.admit against the API server's verdict: excluded requests
// are allowed as namespace_excluded, selected ones answer as without the member.
func TestWebhookNamespaceRandom(t *testing.T) {
	pod := map[string]any{"metadata": map[string]any{"name": "p", "namespace": "apps"}}
	base := pubAdmitInput{Request: admitRequest{Operation: "DELETE"}, Pod: pod, Now: "2026-01-01T00:00:00Z"}
	requireFn(t, fnPubAdmit, base)
	plain, plainK, err := answer(fnPubAdmit, base)
	if err != nil || plainK != "" {
		t.Fatalf("base input: %s %q %v", plain, plainK, err)
	}
	rng := rand.New(rand.NewPCG(14, 2))
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(2000); i++ {
		w := map[string]any{"name": pick("kube-system", "kruise-system", "default", "apps", "kube-public", "")}
		lab := map[string]any{}
		if rng.IntN(2) == 0 {
			lab["control-plane"] = pick("openkruise", "other", "")
		}
		if rng.IntN(4) == 0 {
			lab["kubernetes.io/metadata.name"] = pick("kube-system", "x")
		}
		if rng.IntN(3) == 0 {
			lab["team"] = pick("a", "b")
		}
		if len(lab) > 0 || rng.IntN(2) == 0 {
			w["labels"] = lab
		}
		switch rng.IntN(7) {
		case 0:
			w["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "control-plane", "operator": "DoesNotExist"}}}
		case 1:
			w["selector"] = pick(map[string]any{}, nil)
		case 2:
			w["selector"] = map[string]any{"matchLabels": map[string]any{"team": "a"}}
		case 3:
			w["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": pick("team", "kubernetes.io/metadata.name"), "operator": pick("In", "NotIn", "Exists", "Bad"), "values": pick([]any{"a", "kube-system"}, nil)}}}
		}
		rawW, _ := json.Marshal(w)
		excluded, kind := webhookVerdict(rawW)
		in := map[string]any{"request": map[string]any{"operation": "DELETE"}, "pod": pod, "now": base.Now, "webhookNamespace": json.RawMessage(rawW)}
		label := fmt.Sprintf("random #%d", i)
		r.total++
		switch {
		case kind != "":
			seen["error "+kind]++
			compareWebhookFixed(t, &r, label, fnPubAdmit, in, kind, "")
		case excluded:
			seen["excluded"]++
			compareWebhookFixed(t, &r, label, fnPubAdmit, in, "", pubAdmitExcluded)
		default:
			seen["selected"]++
			compareWebhookFixed(t, &r, label, fnPubAdmit, in, "", string(plain))
		}
	}
	t.Logf("webhook namespace outcomes: %v", seen)
	for _, want := range []string{"excluded", "selected", "error invalid_input", "error invalid_label_selector"} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
	r.report(t, "webhookNamespace random (pub.admit)")
}
