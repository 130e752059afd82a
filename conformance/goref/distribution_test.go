//go:build goref_overlay

// Differential test of distribution.targets against one pass of the reference's
// ResourceDistribution controller (pkg/controller/resourcedistribution, Reconcile) over a fake
// cluster holding the namespaces, the distribution and the existing copies, the package's clock
// set to the input's now (clock.list). What the pass did is read from the client calls (create,
// update, delete of the copies) and the distribution's status afterwards; the matched and
// unmatched namespaces come from listNamespacesForDistributor (exported by the overlay). The
// copies kruise-core gets are the ones the fake cluster returns (as an API server would: typed
// storage, unknown members dropped).
//
// The module proxy's commit works on the v1beta1 ResourceDistribution (the input, v1alpha1, goes
// through ConvertTo), and differs from the v1.9.0 tag in two ways the test recognises from the
// input (classes in deviations.txt): it never targets kube-system and kube-public
// (proxy-system-namespaces) and it takes a copy whose controller reference names the
// distribution's kind and name as its own whatever the apiVersion (proxy-owner-api-version).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/resourcedistribution"
	"github.com/openkruise/kruise/pkg/webhook/resourcedistribution/validating"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const fnDistributionTargets = "distribution.targets"

type rdInput struct {
	ResourceDistribution json.RawMessage   `json:"resourceDistribution"`
	Namespaces           []json.RawMessage `json:"namespaces,omitempty"`
	Copies               []json.RawMessage `json:"copies,omitempty"`
	Now                  *string           `json:"now,omitempty"`
}

type rdCondition struct {
	Type               string   `json:"type"`
	Status             string   `json:"status"`
	LastTransitionTime *string  `json:"lastTransitionTime"`
	Reason             string   `json:"reason"`
	FailedNamespace    []string `json:"failedNamespace"`
}

type rdNsAction struct {
	Namespace string `json:"namespace"`
	Action    string `json:"action"`
}

type rdOut struct {
	Matched    []string     `json:"matchedNamespaces"`
	Unmatched  []string     `json:"unmatchedNamespaces"`
	Namespaces []rdNsAction `json:"namespaces"`
	Status     struct {
		Desired            int64         `json:"desired"`
		Succeeded          int64         `json:"succeeded"`
		Failed             int64         `json:"failed"`
		ObservedGeneration int64         `json:"observedGeneration"`
		Conditions         []rdCondition `json:"conditions"`
	} `json:"status"`
}

func (o *rdOut) normalize() {
	for _, p := range []*[]string{&o.Matched, &o.Unmatched} {
		if len(*p) == 0 {
			*p = nil
		}
	}
	if len(o.Namespaces) == 0 {
		o.Namespaces = nil
	}
	for i := range o.Status.Conditions {
		if len(o.Status.Conditions[i].FailedNamespace) == 0 {
			o.Status.Conditions[i].FailedNamespace = nil
		}
	}
}

// rdRef is the reference's answer: an output, or the error kind kruise-core must answer, plus
// the proxy classes the input falls in.
type rdRef struct {
	out     rdOut
	kind    string
	classes []string
}

var rdNow = time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)

func refDistributionTargets(t testing.TB, in *rdInput) rdRef {
	t.Helper()
	alpha := &appsv1alpha1.ResourceDistribution{}
	mustDecode(t, in.ResourceDistribution, alpha, "resourceDistribution")
	rd := &appsv1beta1.ResourceDistribution{}
	if err := alpha.ConvertTo(rd); err != nil {
		t.Fatalf("ConvertTo: %v", err)
	}
	if rd.Name == "" {
		t.Fatalf("the test needs a distribution name")
	}
	rd.ResourceVersion = ""
	var ref rdRef
	res, errs := validating.DeserializeResource(&rd.Spec.Resource, field.NewPath("resource"))
	if len(errs) != 0 || res == nil {
		ref.kind = "invalid_resource"
		return ref
	}
	u, isObject := res.(*unstructured.Unstructured)
	if !isObject {
		ref.kind = "invalid_resource" // a list: the reference's GetName on nil panics
		return ref
	}
	var objs []client.Object
	nsNames := map[string]bool{}
	for _, raw := range in.Namespaces {
		ns := &corev1.Namespace{}
		mustDecode(t, raw, ns, "namespace")
		ns.ResourceVersion = ""
		if ns.DeletionTimestamp != nil && len(ns.Finalizers) == 0 {
			ns.Finalizers = []string{"kubernetes"}
		}
		nsNames[ns.Name] = true
		objs = append(objs, ns)
	}
	sys := func(n string) bool { return n == "kube-system" || n == "kube-public" }
	for n := range nsNames {
		if sys(n) {
			ref.classes = append(ref.classes, "proxy-system-namespaces")
		}
	}
	for _, n := range rd.Spec.Targets.IncludedNamespaces.List {
		if sys(n.Name) {
			ref.classes = append(ref.classes, "proxy-system-namespaces")
		}
	}
	gvk := u.GroupVersionKind()
	for _, raw := range in.Copies {
		c := &unstructured.Unstructured{}
		mustDecode(t, raw, &c.Object, "copy")
		if ctrl := metav1.GetControllerOfNoCopy(c); ctrl != nil && ctrl.Kind == "ResourceDistribution" && ctrl.Name == rd.Name && ctrl.APIVersion != appsv1alpha1.GroupVersion.String() && c.GroupVersionKind() == gvk && c.GetName() == u.GetName() {
			ref.classes = append(ref.classes, "proxy-owner-api-version")
		}
		objs = append(objs, c)
	}
	objs = append(objs, rd)
	ops := map[string]string{}
	var opsMu sync.Mutex // syncItSlowly works from goroutines
	record := func(op string) func(obj client.Object) {
		return func(obj client.Object) {
			if _, ok := obj.(*unstructured.Unstructured); ok {
				opsMu.Lock()
				ops[obj.GetNamespace()] = op
				opsMu.Unlock()
			}
		}
	}
	funcs := interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			record("create")(obj)
			return c.Create(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			record("update")(obj)
			return c.Update(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			record("delete")(obj)
			return c.Delete(ctx, obj, opts...)
		},
	}
	cl := newFakeClient(t, objs, []client.Object{&appsv1beta1.ResourceDistribution{}}).WithInterceptorFuncs(funcs).Build()
	// kruise-core reads the copies as the cluster returns them.
	in.Copies = nil
	for _, raw := range objs {
		if c, ok := raw.(*unstructured.Unstructured); ok {
			got := &unstructured.Unstructured{}
			got.SetGroupVersionKind(c.GroupVersionKind())
			if err := cl.Get(context.TODO(), types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()}, got); err != nil {
				t.Fatalf("copy %s/%s: %v", c.GetNamespace(), c.GetName(), err)
			}
			b, _ := json.Marshal(got.Object)
			in.Copies = append(in.Copies, b)
		}
	}
	for k := range ops {
		delete(ops, k)
	}
	now := rdNow
	if in.Now != nil {
		var err error
		if now, err = time.Parse(time.RFC3339, *in.Now); err != nil {
			t.Fatalf("now: %v", err)
		}
	}
	resourcedistribution.GorefClock = func() time.Time { return now }
	matched, unmatched, lerr := resourcedistribution.GorefListNamespacesForDistributor(cl, &rd.Spec.Targets)
	sel := &rd.Spec.Targets.NamespaceSelector
	if lerr == nil && !rd.Spec.Targets.AllNamespaces && len(sel.MatchLabels)+len(sel.MatchExpressions) > 0 && invalidSelector(sel) {
		ref.classes = append(ref.classes, "lenient-selector")
	}
	if n := len(rd.Status.Conditions); lerr == nil && n > 0 && n < 6 {
		ref.kind = "invalid_status" // the pass indexes the old conditions by the six types and panics
		return ref
	}
	r := &resourcedistribution.ReconcileResourceDistribution{Client: cl}
	_, err := r.Reconcile(context.TODO(), reconcile.Request{NamespacedName: types.NamespacedName{Name: rd.Name}})
	if lerr != nil {
		if err == nil {
			t.Fatalf("the listing failed (%v) but the pass did not", lerr)
		}
		ref.kind = "invalid_label_selector"
		return ref
	}
	if err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	after := &appsv1beta1.ResourceDistribution{}
	if err := cl.Get(context.TODO(), types.NamespacedName{Name: rd.Name}, after); err != nil {
		t.Fatalf("distribution after: %v", err)
	}
	o := &ref.out
	o.Matched, o.Unmatched = matched, unmatched
	failedBy := map[string]string{}
	for _, c := range after.Status.Conditions {
		var ltt *string
		if !c.LastTransitionTime.IsZero() {
			s := c.LastTransitionTime.UTC().Format(time.RFC3339)
			ltt = &s
		}
		if in.Now == nil && ltt != nil && *ltt == rdNow.Format(time.RFC3339) {
			ltt = nil // kruise-core writes null where no now was given
		}
		fn := append([]string(nil), c.FailedNamespaces...)
		sort.Strings(fn)
		o.Status.Conditions = append(o.Status.Conditions, rdCondition{string(c.Type), string(c.Status), ltt, c.Reason, fn})
		for _, n := range fn {
			failedBy[n] = string(c.Type)
		}
	}
	o.Status.Desired, o.Status.Succeeded, o.Status.Failed = int64(after.Status.Desired), int64(after.Status.Succeeded), int64(after.Status.Failed)
	o.Status.ObservedGeneration = after.Status.ObservedGeneration
	for _, n := range matched {
		a := "unchanged"
		switch {
		case failedBy[n] == "ConflictOccurred":
			a = "conflict"
		case failedBy[n] == "NamespaceNotExists":
			a = "namespace_not_found"
		case ops[n] != "":
			a = ops[n]
		}
		o.Namespaces = append(o.Namespaces, rdNsAction{n, a})
	}
	for _, n := range unmatched {
		a := "none"
		if ops[n] == "delete" {
			a = "delete"
		}
		o.Namespaces = append(o.Namespaces, rdNsAction{n, a})
	}
	o.normalize()
	return ref
}

func compareDistributionTargets(t *testing.T, r *tally, label string, raw []byte) rdRef {
	t.Helper()
	r.total++
	var in rdInput
	mustDecode(t, raw, &in, "input")
	want := refDistributionTargets(t, &in)
	fed, _ := json.Marshal(in)
	got, kind, err := answer(fnDistributionTargets, json.RawMessage(fed))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var out rdOut
	if kind == "" {
		mustDecode(t, got, &out, "output")
		out.normalize()
	}
	if kind == want.kind && (kind != "" || reflect.DeepEqual(out, want.out)) {
		if kind != "" {
			r.agreeError++
		} else {
			r.agreeValue++
		}
		return want
	}
	for _, c := range want.classes {
		if allowed("distribution", c) {
			r.allow(c)
			return want
		}
	}
	w, _ := json.Marshal(want.out)
	r.fail("%s: kruise-core %s %s, reference %s %s\n%s", label, kind, got, want.kind, w, fed)
	return want
}

func TestDistributionTargetsVectors(t *testing.T) {
	cases := loadVectors(t, "distribution", fnDistributionTargets)
	var ref, diff tally
	for _, c := range cases {
		withVectorAnswer(c, func() { compareDistributionTargets(t, &ref, "reference vs vector "+c.Name, c.Input) })
	}
	ref.report(t, "distribution.targets vectors: reference vs vector")
	requireFn(t, fnDistributionTargets, json.RawMessage(cases[0].Input))
	for _, c := range cases {
		compareDistributionTargets(t, &diff, c.Name, c.Input)
	}
	diff.report(t, "distribution.targets vectors: reference vs kruise-core")
}

// genDistribution draws a ConfigMap or Secret distribution over up to six namespaces: targets
// (all, included with a missing one, excluded, label selectors, sometimes invalid), copies with
// equal or other data and owners (this distribution, another, none, not controller, v1beta1),
// terminating namespaces, old statuses with six (sometimes two) conditions, kube-system rarely.
func genDistribution(rng *rand.Rand) []byte {
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	pool := []string{"a", "b", "c", "d", "e", "f"}
	if rng.IntN(30) == 0 {
		pool[5] = "kube-system"
	}
	secret := rng.IntN(2) == 0
	data := func() map[string]any {
		v := pick("1", "2")
		if secret {
			v = pick("MQ==", "Mg==")
		}
		m := map[string]any{"k": v}
		if rng.IntN(4) == 0 {
			m["k2"] = v
		}
		return m
	}
	kind := "ConfigMap"
	if secret {
		kind = "Secret"
	}
	resource := map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": "cfg"}, "data": data()}
	if secret && rng.IntN(2) == 0 {
		resource["type"] = "Opaque"
	}
	switch rng.IntN(40) {
	case 0:
		resource = nil
	case 1:
		delete(resource, "kind")
	}
	var namespaces []any
	exists := map[string]bool{}
	for _, n := range pool {
		if rng.IntN(5) == 0 {
			continue
		}
		exists[n] = true
		meta := map[string]any{"name": n, "labels": pick(nil, map[string]any{"team": "x"}, map[string]any{"team": "y"}, map[string]any{"team": "x", "env": "prod"})}
		if rng.IntN(12) == 0 {
			meta["deletionTimestamp"] = "2024-01-01T00:00:00Z"
			meta["finalizers"] = []any{"kubernetes"}
		}
		namespaces = append(namespaces, map[string]any{"metadata": meta})
	}
	list := func(p int) map[string]any {
		var l []any
		for _, n := range append(pool, "ghost") {
			if rng.IntN(p) == 0 {
				l = append(l, map[string]any{"name": n})
			}
		}
		return map[string]any{"list": l}
	}
	targets := map[string]any{}
	if rng.IntN(4) == 0 {
		targets["allNamespaces"] = true
	}
	if rng.IntN(2) == 0 {
		targets["includedNamespaces"] = list(3)
	}
	if rng.IntN(2) == 0 {
		targets["excludedNamespaces"] = list(5)
	}
	switch rng.IntN(6) {
	case 0, 1:
		targets["namespaceLabelSelector"] = map[string]any{"matchLabels": map[string]any{"team": pick("x", "y")}}
	case 2:
		targets["namespaceLabelSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": pick("team", "env"), "operator": pick("In", "NotIn", "Exists", "DoesNotExist", "Bogus"), "values": pick(nil, []any{"x"}, []any{"prod", "y"})}}}
	case 3:
		targets["namespaceLabelSelector"] = map[string]any{}
	}
	owner := func() any {
		o := map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "ResourceDistribution", "name": "rd", "uid": "u", "controller": true}
		switch rng.IntN(8) {
		case 0:
			o["name"] = "other"
		case 1:
			o["controller"] = false
		case 2:
			return nil
		case 3:
			if rng.IntN(8) == 0 {
				o["apiVersion"] = "apps.kruise.io/v1beta1"
			}
		}
		return []any{o}
	}
	var copies []any
	for _, n := range pool { // in order: the draws must not depend on map iteration
		if !exists[n] || rng.IntN(2) == 0 {
			continue
		}
		meta := map[string]any{"name": "cfg", "namespace": n, "ownerReferences": owner()}
		c := map[string]any{"apiVersion": "v1", "kind": kind, "metadata": meta, "data": data()}
		if resource != nil && rng.IntN(2) == 0 {
			if d, ok := resource["data"]; ok {
				c["data"] = d
			}
			if ty, ok := resource["type"]; ok {
				c["type"] = ty
			}
		}
		copies = append(copies, c)
	}
	slices.SortFunc(copies, func(a, b any) int {
		return cmpString(a.(map[string]any)["metadata"].(map[string]any)["namespace"].(string), b.(map[string]any)["metadata"].(map[string]any)["namespace"].(string))
	})
	rdObj := map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "ResourceDistribution",
		"metadata": map[string]any{"name": "rd", "generation": rng.IntN(5)},
		"spec":     map[string]any{"resource": resource, "targets": targets}}
	if rng.IntN(3) == 0 {
		var conds []any
		n := 6
		if rng.IntN(15) == 0 {
			n = 2
		}
		for i, ty := range []string{"GetResourceFailed", "CreateResourceFailed", "UpdateResourceFailed", "DeleteResourceFailed", "ConflictOccurred", "NamespaceNotExists"}[:n] {
			conds = append(conds, map[string]any{"type": ty, "status": pick("True", "False", "False"), "lastTransitionTime": fmt.Sprintf("2023-01-0%dT00:00:00Z", i+1), "reason": "r"})
		}
		rdObj["status"] = map[string]any{"conditions": conds}
	}
	in := map[string]any{"resourceDistribution": rdObj, "namespaces": namespaces, "copies": copies}
	if rng.IntN(10) != 0 {
		in["now"] = "2024-06-01T12:00:00Z"
	}
	raw, _ := json.Marshal(in)
	return raw
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestDistributionTargetsRandom(t *testing.T) {
	requireFn(t, fnDistributionTargets, map[string]any{"resourceDistribution": map[string]any{}})
	rng := rand.New(rand.NewPCG(14, 3))
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(2000); i++ {
		ref := compareDistributionTargets(t, &r, fmt.Sprintf("random #%d", i), genDistribution(rng))
		if ref.kind != "" {
			seen[ref.kind]++
			continue
		}
		for _, a := range ref.out.Namespaces {
			seen[a.Action]++
		}
		if ref.out.Status.Failed > 0 {
			seen["failed"]++
		}
	}
	t.Logf("distribution.targets outcomes: %v", seen)
	for _, want := range []string{"invalid_resource", "invalid_label_selector", "invalid_status", "create", "update", "unchanged", "conflict", "namespace_not_found", "delete", "none", "failed"} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
	r.report(t, "distribution.targets random")
}
