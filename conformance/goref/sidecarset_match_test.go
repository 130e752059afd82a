//go:build goref_overlay

// Differential test of sidecarset.match against the reference pieces of the pod webhook's
// SidecarSet path, in the order sidecarsetMutatingPod (pkg/webhook/pod/mutating/sidecarset.go)
// applies them:
//
//  1. the webhook configuration's namespaceSelector (the API server matches it with
//     apimachinery's metav1.LabelSelectorAsSelector against the namespace's labels; the default
//     is the Helm chart's, a fact copied from the chart, not code);
//  2. sidecarcontrol.IsActivePod;
//  3. fieldindex.IndexSidecarSetV1Beta1 (the listing by the pod's namespace or clusterScope);
//  4. spec.injectionStrategy.paused;
//  5. sidecarcontrol.IsSelectorNamespace and sidecarcontrol.PodMatchedSidecarSet over a fake
//     cluster holding the Namespace (labels plus kubernetes.io/metadata.name, as the API server
//     stores it). The reason inside step 5 comes from IsSelectorNamespace and the selector's
//     Nothing/Empty; the matched bit from PodMatchedSidecarSet itself.
//
// A v1alpha1 SidecarSet goes through (*v1alpha1.SidecarSet).ConvertTo first. Inputs with a
// selector that apimachinery's LabelSelectorAsSelector refuses form the class
// "sidecarset invalid-selector" (kruise-core answers invalid_label_selector).
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/control/sidecarcontrol"
	"github.com/openkruise/kruise/pkg/util/fieldindex"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnSidecarSetMatch = "sidecarset.match"

// helmWebhookNamespaceSelector is mpod.kb.io's namespaceSelector in the Helm chart
// (openkruise/charts versions/kruise/1.9.0-alpha.3/templates/webhookconfiguration.yaml).
var helmWebhookNamespaceSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
	{Key: "control-plane", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"openkruise"}},
	{Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"kube-system"}},
}}

type scsMatchInput struct {
	Pod                      json.RawMessage `json:"pod"`
	Namespace                json.RawMessage `json:"namespace"`
	SidecarSet               json.RawMessage `json:"sidecarSet"`
	WebhookNamespaceSelector json.RawMessage `json:"webhookNamespaceSelector"`
}

type scsMatchOut struct {
	Matched bool   `json:"matched"`
	Reason  string `json:"reason"`
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

func mustDecode(t testing.TB, raw json.RawMessage, v any, what string) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s does not decode: %v\n%s", what, err, raw)
	}
}

// invalidSelector reports whether apimachinery refuses a non-nil selector.
func invalidSelector(s *metav1.LabelSelector) bool {
	if s == nil {
		return false
	}
	_, err := metav1.LabelSelectorAsSelector(s)
	return err != nil
}

// refSidecarSetMatch answers the reference's (matched, reason), or class "invalid-selector".
func refSidecarSetMatch(t testing.TB, in scsMatchInput) (out scsMatchOut, class string) {
	t.Helper()
	pod := &corev1.Pod{}
	mustDecode(t, in.Pod, pod, "pod")
	podNs := pod.Namespace
	if podNs == "" {
		podNs = "default"
	}
	var tm metav1.TypeMeta
	mustDecode(t, in.SidecarSet, &tm, "sidecarSet")
	scs := &appsv1beta1.SidecarSet{}
	if tm.APIVersion == appsv1alpha1.GroupVersion.String() {
		alpha := &appsv1alpha1.SidecarSet{}
		mustDecode(t, in.SidecarSet, alpha, "sidecarSet")
		if err := alpha.ConvertTo(scs); err != nil {
			t.Fatalf("ConvertTo: %v", err)
		}
	} else {
		mustDecode(t, in.SidecarSet, scs, "sidecarSet")
	}
	webhook := helmWebhookNamespaceSelector
	if present(in.WebhookNamespaceSelector) {
		webhook = &metav1.LabelSelector{}
		mustDecode(t, in.WebhookNamespaceSelector, webhook, "webhookNamespaceSelector")
	}
	if invalidSelector(webhook) || invalidSelector(scs.Spec.NamespaceSelector) || invalidSelector(scs.Spec.Selector) {
		return out, "invalid-selector"
	}
	var objs []client.Object
	var nsLabels labels.Set
	if present(in.Namespace) {
		ns := &corev1.Namespace{}
		mustDecode(t, in.Namespace, ns, "namespace")
		ns.Name = podNs
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[corev1.LabelMetadataName] = podNs
		ns.ResourceVersion = ""
		nsLabels = ns.Labels
		objs = append(objs, ns)
	}
	reason := func(r string) (scsMatchOut, string) { return scsMatchOut{Matched: r == "matched", Reason: r}, "" }
	// 1. the API server's webhook namespace selector.
	sel, _ := metav1.LabelSelectorAsSelector(webhook)
	if !sel.Empty() {
		if nsLabels == nil {
			return reason("namespace_not_found")
		}
		if !sel.Matches(nsLabels) {
			return reason("webhook_namespace_excluded")
		}
	}
	// 2-4. the webhook's own filters.
	if !sidecarcontrol.IsActivePod(pod) {
		return reason("pod_inactive")
	}
	idx := fieldindex.IndexSidecarSetV1Beta1(scs)
	if !slices.Contains(idx, podNs) && !slices.Contains(idx, fieldindex.IndexValueSidecarSetClusterScope) {
		return reason("not_listed")
	}
	if scs.Spec.InjectionStrategy.Paused {
		return reason("paused")
	}
	// 5. PodMatchedSidecarSet.
	c := newFakeClient(t, objs, nil).Build()
	matched, err := sidecarcontrol.PodMatchedSidecarSet(c, pod, scs)
	if err != nil {
		t.Fatalf("PodMatchedSidecarSet: %v", err)
	}
	var r string
	switch {
	case scs.Spec.NamespaceSelector != nil && !sidecarcontrol.IsSelectorNamespace(c, podNs, scs.Spec.NamespaceSelector):
		r = "namespace_selector_mismatch"
		if nsLabels == nil {
			r = "namespace_not_found"
		}
	case scs.Spec.Selector == nil:
		r = "selector_absent"
	case len(scs.Spec.Selector.MatchLabels)+len(scs.Spec.Selector.MatchExpressions) == 0:
		r = "selector_empty"
	case !matched:
		r = "selector_mismatch"
	default:
		r = "matched"
	}
	if matched != (r == "matched") {
		t.Fatalf("PodMatchedSidecarSet says %v, the composed reason %s", matched, r)
	}
	return reason(r)
}

func compareSidecarSetMatch(t *testing.T, r *tally, label string, raw []byte) {
	t.Helper()
	r.total++
	var in scsMatchInput
	mustDecode(t, raw, &in, "input")
	want, class := refSidecarSetMatch(t, in)
	got, kind, err := answer(fnSidecarSetMatch, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if class != "" {
		if kind == "invalid_label_selector" && allowed("sidecarset", class) {
			r.allow(class)
			return
		}
		r.fail("%s: class %s: kruise-core answered %s %s\n%s", label, class, kind, got, raw)
		return
	}
	if kind != "" {
		r.fail("%s: kruise-core error %s, reference %+v\n%s", label, kind, want, raw)
		return
	}
	var out scsMatchOut
	mustDecode(t, got, &out, "output")
	if out != want {
		r.fail("%s: kruise-core %+v, reference %+v\n%s", label, out, want, raw)
		return
	}
	r.agreeValue++
}

func TestSidecarSetMatchVectors(t *testing.T) {
	requireFn(t, fnSidecarSetMatch, map[string]any{"pod": map[string]any{}, "sidecarSet": map[string]any{}})
	for _, vs := range []bool{false, true} {
		r := &tally{}
		for _, c := range loadVectors(t, "sidecarset_match", fnSidecarSetMatch) {
			if c.ExpectError == "invalid_input" {
				continue // a namespace object that is not the pod's: no reference input
			}
			if vs {
				withVectorAnswer(c, func() { compareSidecarSetMatch(t, r, c.Name, c.Input) })
			} else {
				compareSidecarSetMatch(t, r, c.Name, c.Input)
			}
		}
		r.report(t, map[bool]string{false: "sidecarset.match vectors", true: "sidecarset.match reference vs vector"}[vs])
	}
}

// scsGen draws SidecarSet matching inputs from small pools, so that selectors often hit.
type scsGen struct{ rng *rand.Rand }

func (g *scsGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *scsGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

var (
	scsKeys   = []string{"app", "tier", "env", "control-plane", "kubernetes.io/metadata.name"}
	scsValues = []string{"web", "db", "prod", "openkruise", "kube-system", "default", "ns1", ""}
	scsNs     = []string{"default", "kube-system", "ns1", "ns2", ""}
)

func (g *scsGen) labels() map[string]any {
	if g.chance(8) {
		return nil
	}
	m := map[string]any{}
	for i, n := 0, g.rng.IntN(4); i < n; i++ {
		m[g.pick(scsKeys...)] = g.pick(scsValues...)
	}
	return m
}

// selector: nil, {}, or labels and expressions, sometimes invalid.
func (g *scsGen) selector() any {
	switch g.rng.IntN(8) {
	case 0:
		return nil
	case 1:
		return map[string]any{}
	}
	s := map[string]any{}
	if g.chance(2) {
		ml := map[string]any{}
		for i, n := 0, 1+g.rng.IntN(2); i < n; i++ {
			ml[g.pick(scsKeys...)] = g.pick(scsValues...)
		}
		if g.chance(30) {
			ml["bad key"] = "x"
		}
		s["matchLabels"] = ml
	}
	if g.chance(2) || len(s) == 0 {
		var exprs []any
		for i, n := 0, 1+g.rng.IntN(2); i < n; i++ {
			op := g.pick("In", "NotIn", "Exists", "DoesNotExist")
			if g.chance(25) {
				op = g.pick("Gt", "", "in")
			}
			e := map[string]any{"key": g.pick(scsKeys...), "operator": op}
			if op == "In" || op == "NotIn" {
				vals := []any{g.pick(scsValues...)}
				if g.chance(2) {
					vals = append(vals, g.pick(scsValues...))
				}
				if g.chance(25) {
					vals = nil
				}
				e["values"] = vals
			} else if g.chance(25) {
				e["values"] = []any{"x"}
			}
			exprs = append(exprs, e)
		}
		s["matchExpressions"] = exprs
	}
	return s
}

func (g *scsGen) input() map[string]any {
	ns := g.pick(scsNs...)
	meta := map[string]any{"name": "p", "namespace": ns, "labels": g.labels()}
	if g.chance(8) {
		meta["deletionTimestamp"] = "2026-06-21T10:00:00Z"
	}
	pod := map[string]any{"metadata": meta, "status": map[string]any{"phase": g.pick("Running", "Pending", "Succeeded", "Failed", "")}}
	in := map[string]any{"pod": pod}
	if !g.chance(6) {
		in["namespace"] = map[string]any{"metadata": map[string]any{"labels": g.labels()}}
	}
	spec := map[string]any{"selector": g.selector()}
	if !g.chance(3) {
		nsSel := g.selector()
		if m, ok := nsSel.(map[string]any); ok && g.chance(3) {
			// point the namespace index at a namespace (matchLabels or an In expression)
			if g.chance(2) {
				m["matchLabels"] = map[string]any{"kubernetes.io/metadata.name": g.pick("default", "ns1", "ns2")}
			} else {
				m["matchExpressions"] = []any{map[string]any{"key": "kubernetes.io/metadata.name", "operator": "In",
					"values": []any{g.pick("default", "ns1"), g.pick("ns2", "kube-system")}}}
			}
		}
		spec["namespaceSelector"] = nsSel
	}
	if g.chance(6) {
		spec["injectionStrategy"] = map[string]any{"paused": g.chance(2)}
	}
	scs := map[string]any{"apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet", "metadata": map[string]any{"name": "s"}, "spec": spec}
	if g.chance(6) {
		scs["apiVersion"] = "apps.kruise.io/v1alpha1"
		if g.chance(2) {
			spec["namespace"] = g.pick("default", "ns1", "kube-system")
		}
	}
	in["sidecarSet"] = scs
	switch g.rng.IntN(5) {
	case 0:
		in["webhookNamespaceSelector"] = map[string]any{}
	case 1:
		in["webhookNamespaceSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "control-plane", "operator": "DoesNotExist"}}}
	case 2:
		in["webhookNamespaceSelector"] = g.selector()
	}
	return in
}

func TestSidecarSetMatchRandom(t *testing.T) {
	requireFn(t, fnSidecarSetMatch, map[string]any{"pod": map[string]any{}, "sidecarSet": map[string]any{}})
	g := &scsGen{rand.New(rand.NewPCG(20260621, 7))}
	r := &tally{}
	reasons := map[string]int{}
	for i, n := 0, randomCount(2000); i < n; i++ {
		raw, err := json.Marshal(g.input())
		if err != nil {
			t.Fatal(err)
		}
		var in scsMatchInput
		mustDecode(t, raw, &in, "input")
		want, class := refSidecarSetMatch(t, in)
		if class != "" {
			reasons[class]++
		} else {
			reasons[want.Reason]++
		}
		compareSidecarSetMatch(t, r, fmt.Sprintf("random %d", i), raw)
	}
	for _, want := range []string{"matched", "webhook_namespace_excluded", "namespace_not_found", "pod_inactive", "not_listed",
		"paused", "namespace_selector_mismatch", "selector_absent", "selector_empty", "selector_mismatch", "invalid-selector"} {
		if reasons[want] == 0 {
			t.Errorf("the generator never reached %s (%v)", want, reasons)
		}
	}
	t.Logf("outcomes: %v", reasons)
	r.report(t, "sidecarset.match random")
}

// ---- label selector matching (k8s.io/apimachinery) ----------------------------------------------

// TestLabelSelectorMatchRandom checks kruise-core's one selector matcher (core/src/k8s/
// selector_match.rs) against metav1.LabelSelectorAsSelector + Selector.Matches directly: through
// sidecarset.match with every other rule out of the way (no webhook filter, an active pod, no
// namespace selector), `matched` is exactly "the selector is non-empty and matches the labels".
func TestLabelSelectorMatchRandom(t *testing.T) {
	requireFn(t, fnSidecarSetMatch, map[string]any{"pod": map[string]any{}, "sidecarSet": map[string]any{}})
	g := &scsGen{rand.New(rand.NewPCG(20260621, 8))}
	r := &tally{}
	hits := map[string]int{}
	for i, n := 0, randomCount(3000); i < n; i++ {
		sel := g.selector()
		lbl := g.labels()
		in := map[string]any{"pod": map[string]any{"metadata": map[string]any{"namespace": "ns1", "labels": lbl}},
			"webhookNamespaceSelector": map[string]any{}, "sidecarSet": map[string]any{"spec": map[string]any{"selector": sel}}}
		raw, _ := json.Marshal(in)
		r.total++
		var ls *metav1.LabelSelector
		if sel != nil {
			b, _ := json.Marshal(sel)
			ls = &metav1.LabelSelector{}
			mustDecode(t, b, ls, "selector")
		}
		got, kind, err := ours(fnSidecarSetMatch, json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		s, convErr := metav1.LabelSelectorAsSelector(ls)
		if convErr != nil {
			hits["error"]++
			if kind == "invalid_label_selector" {
				r.agreeError++
			} else {
				r.fail("random %d: apimachinery refuses (%v), kruise-core %s %s\n%s", i, convErr, kind, got, raw)
			}
			continue
		}
		podLabels := labels.Set{}
		for k, v := range lbl {
			podLabels[k] = v.(string)
		}
		want := !s.Empty() && s.Matches(podLabels)
		hits[fmt.Sprint(want)]++
		var out scsMatchOut
		if kind != "" {
			r.fail("random %d: kruise-core error %s, apimachinery %v\n%s", i, kind, want, raw)
			continue
		}
		mustDecode(t, got, &out, "output")
		if out.Matched != want {
			r.fail("random %d: kruise-core %v, apimachinery %v\n%s", i, out.Matched, want, raw)
			continue
		}
		r.agreeValue++
	}
	if hits["true"] == 0 || hits["false"] == 0 || hits["error"] == 0 {
		t.Errorf("generator reached %v; want matches, misses and errors", hits)
	}
	t.Logf("outcomes: %v", hits)
	r.report(t, "label selector matching random")
}
