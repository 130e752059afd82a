//go:build goref_overlay

// Differential test of sidecarset.inject against the pod webhook's SidecarSet step itself:
// (*PodCreateHandler).sidecarsetMutatingPod (pkg/webhook/pod/mutating/sidecarset.go, exported by
// the overlay, its metav1.Now() reading the settable clock) on a CREATE request, over a fake
// cluster holding the Namespace and the SidecarSets with OpenKruise's namespace field index.
// The fake client's List is sorted by name (the informer cache's order is not defined), and
// kruise-core gets the SidecarSets in the order the webhook then lists them: those indexed under
// the pod's namespace, then the cluster-scoped ones.
//
// The pods are compared after a round trip through corev1.Pod and encoding/json on both sides
// (the API server's view), the annotations byte for byte. Classes (deviations.txt, family
// sidecarset): invalid-selector (as in sidecarset.match), merge-patch-json (kruise-core answers
// unsupported), proxy-canary (the proxy's commit drops a canary SidecarSet's base).
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/util/fieldindex"
	"github.com/openkruise/kruise/pkg/webhook/pod/mutating"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

const fnSidecarsetInject = "sidecarset.inject"

type scsInjectInput struct {
	Pod                      json.RawMessage   `json:"pod"`
	Namespace                json.RawMessage   `json:"namespace"`
	SidecarSets              []json.RawMessage `json:"sidecarSets"`
	WebhookNamespaceSelector json.RawMessage   `json:"webhookNamespaceSelector"`
	Now                      string            `json:"now"`
}

type scsInjectOut struct {
	Pod     json.RawMessage `json:"pod"`
	Changed bool            `json:"changed"`
}

// refInject is the webhook's answer: the pod (encoding/json of corev1.Pod) and whether it
// changed, or its error text, or a class.
type refInject struct {
	pod     []byte
	changed bool
	err     string
	class   string   // the first class of the input ("" = none)
	classes []string // every class of the input
}

// normalizePod is the API server's view of a pod: decoded into corev1.Pod and encoded again.
func normalizePod(t testing.TB, raw []byte) []byte {
	t.Helper()
	p := &corev1.Pod{}
	mustDecode(t, raw, p, "pod")
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasSidecarSetIndex() bool {
	kruiseScheme()
	for _, ix := range fakeIndexes {
		if _, ok := ix.obj.(*appsv1beta1.SidecarSet); ok && ix.field == fieldindex.IndexNameForSidecarSetNamespace {
			return true
		}
	}
	return false
}

func refSidecarsetInject(t testing.TB, raw []byte) refInject {
	t.Helper()
	var in scsInjectInput
	mustDecode(t, raw, &in, "input")
	pod := &corev1.Pod{}
	mustDecode(t, in.Pod, pod, "pod")
	podNs := pod.Namespace
	if podNs == "" {
		podNs = "default"
	}
	unchanged := refInject{pod: normalizePod(t, in.Pod)}
	webhook := helmWebhookNamespaceSelector
	if present(in.WebhookNamespaceSelector) {
		webhook = &metav1.LabelSelector{}
		mustDecode(t, in.WebhookNamespaceSelector, webhook, "webhookNamespaceSelector")
	}
	var objs []client.Object
	var nsLabels map[string]string
	if present(in.Namespace) {
		ns := &corev1.Namespace{}
		mustDecode(t, in.Namespace, ns, "namespace")
		ns.Name = podNs
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[corev1.LabelMetadataName] = podNs
		nsLabels = ns.Labels
		objs = append(objs, ns)
	}
	var classes []string
	addClass := func(c string) {
		if !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	if invalidSelector(webhook) {
		addClass("invalid-selector")
	}
	for _, s := range in.SidecarSets {
		scs := &appsv1beta1.SidecarSet{}
		mustDecode(t, s, scs, "sidecarSet")
		if invalidSelector(scs.Spec.Selector) || invalidSelector(scs.Spec.NamespaceSelector) {
			addClass("invalid-selector")
		}
		if scs.Annotations["apps.kruise.io/sidecarset-canary"] == "true" && scs.Annotations["apps.kruise.io/sidecarset-base"] != "" {
			addClass("proxy-canary")
		}
		for _, p := range scs.Spec.PatchPodMetadata {
			if p.PatchPolicy == appsv1beta1.SidecarSetMergePatchJsonPatchPolicy && len(p.Annotations) > 0 {
				addClass("merge-patch-json")
			}
		}
		objs = append(objs, scs)
	}
	class := ""
	if slices.Contains(classes, "invalid-selector") {
		class = "invalid-selector"
	} else if len(classes) > 0 {
		class = classes[0]
	}
	unchanged.class, unchanged.classes = class, classes
	if class == "invalid-selector" {
		return unchanged
	}
	// The API server calls the webhook only for namespaces its selector matches.
	if sel, _ := metav1.LabelSelectorAsSelector(webhook); !sel.Empty() && (nsLabels == nil || !sel.Matches(labels.Set(nsLabels))) {
		return unchanged
	}
	b := newFakeClient(t, objs, nil).WithInterceptorFuncs(interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if err := c.List(ctx, list, opts...); err != nil {
				return err
			}
			if l, ok := list.(*appsv1beta1.SidecarSetList); ok {
				sort.SliceStable(l.Items, func(i, j int) bool { return l.Items[i].Name < l.Items[j].Name })
			}
			return nil
		},
	})
	if !hasSidecarSetIndex() {
		b = b.WithIndex(&appsv1beta1.SidecarSet{}, fieldindex.IndexNameForSidecarSetNamespace, fieldindex.IndexSidecarSetV1Beta1)
	}
	h := &mutating.PodCreateHandler{Client: b.Build()}
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		t.Fatalf("now: %v", err)
	}
	mutating.GorefClock = func() time.Time { return now }
	defer func() { mutating.GorefClock = nil }()
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		Operation: admissionv1.Create, Namespace: podNs,
		Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"},
	}}
	skip, err := mutating.GorefSidecarsetMutatingPod(h, context.Background(), req, pod)
	if err != nil {
		return refInject{err: err.Error(), class: class, classes: classes}
	}
	out, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	return refInject{pod: out, changed: !skip, class: class, classes: classes}
}

// listingOrder puts the SidecarSets in the webhook's listing order for the pod's namespace:
// indexed under it, then cluster-scoped, each by name (then the unlisted ones).
func listingOrder(podNs string, sets []map[string]any) []map[string]any {
	rank := func(s map[string]any) int {
		b, _ := json.Marshal(s)
		scs := &appsv1beta1.SidecarSet{}
		if json.Unmarshal(b, scs) != nil {
			return 2
		}
		idx := fieldindex.IndexSidecarSetV1Beta1(scs)
		switch {
		case slices.Contains(idx, podNs):
			return 0
		case slices.Contains(idx, fieldindex.IndexValueSidecarSetClusterScope):
			return 1
		}
		return 2
	}
	name := func(s map[string]any) string { return s["metadata"].(map[string]any)["name"].(string) }
	out := slices.Clone(sets)
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		return name(out[i]) < name(out[j])
	})
	return out
}

// sameInjection reports whether kruise-core's answer equals the reference's pod and changed bit.
func sameInjection(t *testing.T, want refInject, got json.RawMessage, kind string) bool {
	if kind != "" || want.err != "" {
		return false
	}
	var out scsInjectOut
	mustDecode(t, got, &out, "output")
	return string(normalizePod(t, out.Pod)) == string(want.pod) && out.Changed == want.changed
}

// compareSidecarsetInject compares one input and returns the outcome name for the coverage.
func compareSidecarsetInject(t *testing.T, r *tally, label string, raw []byte) string {
	t.Helper()
	r.total++
	want := refSidecarsetInject(t, raw)
	got, kind, err := answer(fnSidecarsetInject, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	// A class is accepted when kruise-core answers what the class says; otherwise the answers
	// must agree (e.g. a SidecarSet with MergePatchJson that does not match the pod).
	classKind := map[string]string{"invalid-selector": "invalid_label_selector", "merge-patch-json": "unsupported"}
	for _, c := range want.classes {
		if kind != "" && classKind[c] == kind && allowed("sidecarset", c) {
			r.allow(c)
			return c
		}
	}
	if want.class == "invalid-selector" {
		r.fail("%s: class %s: kruise-core answered %s %s\n%s", label, want.class, kind, got, raw)
		return want.class
	}
	if want.class == "proxy-canary" && allowed("sidecarset", want.class) && !sameInjection(t, want, got, kind) {
		r.allow(want.class)
		return want.class
	}
	if want.err != "" {
		if kind == "" {
			r.fail("%s: reference error %q, kruise-core %s\n%s", label, want.err, got, raw)
			return "error"
		}
		wantKind := ""
		switch {
		case strings.Contains(want.err, "invalid annotations"):
			wantKind = "invalid_annotation"
		case strings.Contains(want.err, "no containers match"):
			wantKind = "no_target_containers"
		}
		if wantKind != "" && kind != wantKind {
			r.fail("%s: reference error %q, kruise-core kind %s\n%s", label, want.err, kind, raw)
			return "error"
		}
		r.agreeError++
		return "error " + kind
	}
	if kind != "" {
		r.fail("%s: kruise-core error %s, reference changed=%v pod %s\n%s", label, kind, want.changed, want.pod, raw)
		return "error"
	}
	var out scsInjectOut
	mustDecode(t, got, &out, "output")
	gotPod := normalizePod(t, out.Pod)
	if string(gotPod) != string(want.pod) || out.Changed != want.changed {
		r.fail("%s: kruise-core changed=%v\n  %s\nreference changed=%v\n  %s\ninput %s", label, out.Changed, gotPod, want.changed, want.pod, raw)
		return "disagree"
	}
	r.agreeValue++
	switch {
	case !want.changed:
		return "unchanged"
	case strings.Contains(string(want.pod), "SIDECARSET_VERSION"):
		return "hot-upgrade"
	case strings.Contains(string(want.pod), "IS_INJECTED"):
		return "injected"
	}
	return "metadata-only"
}

func TestSidecarsetInjectVectors(t *testing.T) {
	requireFn(t, fnSidecarsetInject, map[string]any{"pod": map[string]any{}, "now": "2026-01-01T00:00:00Z"})
	for _, vs := range []bool{false, true} {
		r := &tally{}
		for _, c := range loadVectors(t, "sidecarset_inject", fnSidecarsetInject) {
			if c.ExpectError == "invalid_input" || c.ExpectError == "unsupported" {
				continue // malformed input, or an input the reference answers from the cluster's history
			}
			if vs {
				withVectorAnswer(c, func() { compareSidecarsetInject(t, r, c.Name, c.Input) })
			} else {
				compareSidecarsetInject(t, r, c.Name, c.Input)
			}
		}
		r.report(t, map[bool]string{false: "sidecarset.inject vectors", true: "sidecarset.inject reference vs vector"}[vs])
	}
}

// injGen draws pods and SidecarSets from small pools, so that names, paths and env vars collide.
type injGen struct{ rng *rand.Rand }

func (g *injGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *injGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }
func (g *injGen) upTo(n int) int           { return g.rng.IntN(n + 1) }

var (
	injEnvNames  = []string{"A", "B", "POD_NAME", "IS_INJECTED"}
	injPaths     = []string{"/data", "/logs", "/var/run", "/dev/xvda"}
	injDevPaths  = []string{"/dev/xvda", "/dev/xvdb", "/data"}
	injVolumes   = []string{"vol-a", "vol-b", "vol-c"}
	injAppNames  = []string{"app", "main", "web", "sidecar-a"}
	injSideNames = []string{"sidecar-a", "sidecar-b", "mesh", "init-x", "app"}
)

func (g *injGen) env() []any {
	var out []any
	for i, n := 0, g.upTo(3); i < n; i++ {
		name := g.pick(injEnvNames...)
		e := map[string]any{"name": name, "value": g.pick("x", "y", "true", "")}
		if g.chance(6) {
			e = map[string]any{"name": name, "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "metadata.name"}}}
		}
		out = append(out, e)
	}
	return out
}

func (g *injGen) mounts() []any {
	var out []any
	for i, n := 0, g.upTo(3); i < n; i++ {
		m := map[string]any{"name": g.pick(injVolumes...), "mountPath": g.pick(injPaths...)}
		if g.chance(3) {
			m["subPathExpr"] = g.pick("foo/$(A)/$(POD_NAME)", "$(B)", "$(MISSING)x", "$(A", "$(9X)")
		}
		if g.chance(4) {
			m["readOnly"] = true
		}
		out = append(out, m)
	}
	return out
}

func (g *injGen) devices() []any {
	var out []any
	for i, n := 0, g.upTo(2); i < n; i++ {
		out = append(out, map[string]any{"name": g.pick(injVolumes...), "devicePath": g.pick(injDevPaths...)})
	}
	return out
}

func (g *injGen) resources() map[string]any {
	r := map[string]any{}
	if !g.chance(3) {
		l := map[string]any{}
		if !g.chance(4) {
			l["cpu"] = g.pick("1", "500m", "2")
		}
		if !g.chance(4) {
			l["memory"] = g.pick("1Gi", "512Mi", "100M")
		}
		r["limits"] = l
	}
	if !g.chance(3) {
		r["requests"] = map[string]any{"cpu": g.pick("100m", "250m"), "memory": g.pick("128Mi", "64Mi")}
	}
	return r
}

func (g *injGen) appContainer(name string) map[string]any {
	c := map[string]any{"name": name, "image": "app:" + g.pick("1", "2")}
	if e := g.env(); e != nil {
		c["env"] = e
	}
	if m := g.mounts(); m != nil {
		c["volumeMounts"] = m
	}
	if d := g.devices(); d != nil && g.chance(2) {
		c["volumeDevices"] = d
	}
	if g.chance(2) {
		c["resources"] = g.resources()
	}
	return c
}

func (g *injGen) sidecar(init bool) map[string]any {
	c := g.appContainer(g.pick(injSideNames...))
	c["image"] = "side:" + g.pick("1", "2")
	if init && g.chance(2) {
		c["restartPolicy"] = "Always"
	}
	if p := g.rng.IntN(5); p < 3 {
		c["podInjectPolicy"] = []string{"BeforeAppContainer", "AfterAppContainer", "Other"}[p]
	}
	if g.chance(5) {
		c["upgradeStrategy"] = map[string]any{"upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": g.pick("empty:1", "")}
	} else if g.chance(4) {
		c["upgradeStrategy"] = map[string]any{"upgradeType": "ColdUpgrade"}
	}
	if !g.chance(3) {
		c["shareVolumePolicy"] = map[string]any{"type": g.pick("enabled", "enabled", "disabled")}
	}
	if g.chance(2) {
		c["shareVolumeDevicePolicy"] = map[string]any{"type": g.pick("enabled", "disabled")}
	}
	var transfer []any
	for i, n := 0, g.upTo(2); i < n; i++ {
		te := map[string]any{}
		if g.chance(2) {
			te["sourceContainerName"] = g.pick(injAppNames...)
		}
		if g.chance(2) {
			te["sourceContainerNameFrom"] = map[string]any{"fieldRef": map[string]any{"fieldPath": g.pick(
				"metadata.labels['src']", "metadata.annotations['src']", "metadata.annotations['SRC']",
				"metadata.name", "metadata.labels['bad key']", "spec['x']", "")}}
		}
		if g.chance(2) {
			te["envName"] = g.pick(injEnvNames...)
		}
		if g.chance(2) {
			te["envNames"] = []any{g.pick(injEnvNames...), g.pick(injEnvNames...)}
		}
		transfer = append(transfer, te)
	}
	if transfer != nil {
		c["transferEnv"] = transfer
	}
	if g.chance(6) {
		c["resourcesPolicy"] = map[string]any{
			"targetContainersMode":      g.pick("sum", "max"),
			"targetContainersNameRegex": g.pick(".*", "^app$", "nomatch", "a"),
			"resourcesExpr": map[string]any{
				"limits":   map[string]any{"cpu": g.pick("cpu*50%", "", "max(cpu*50%, 50m)"), "memory": g.pick("memory*50%", "200Mi")},
				"requests": map[string]any{"cpu": g.pick("cpu*50%", "", "100m"), "memory": g.pick("memory*50%", "")},
			},
		}
	}
	return c
}

func (g *injGen) hashAnnotation(names []string) string {
	switch g.rng.IntN(6) {
	case 0:
		return `{"old":"h0"}`
	case 1:
		return "not json"
	case 2:
		return `{"old":{"updateTimestamp":"2021-01-02T03:04:05.5+02:00","hash":"h0","sidecarSetName":"old","sidecarList":["x"],"controllerRevision":"r0"}}`
	case 3:
		return fmt.Sprintf(`{%q:{"updateTimestamp":null,"hash":"prev","sidecarSetName":"x","sidecarList":null},"z<&>":{"hash":"h"}}`, g.pick(names...))
	case 4:
		return `{"old":{"hash":1}}`
	}
	return ""
}

func (g *injGen) input() map[string]any {
	ns := g.pick("default", "ns1")
	setNames := []string{"s1", "s2", "s3", "old"}
	ann := map[string]any{}
	if g.chance(3) {
		ann["kruise.io/sidecarset-hash"] = g.hashAnnotation(setNames)
	}
	if g.chance(4) {
		ann["kruise.io/sidecarset-hash-without-image"] = g.hashAnnotation(setNames)
	}
	if g.chance(4) {
		ann["kruise.io/sidecarset-injected-list"] = g.pick("old", "old,,x", "", "s1")
	}
	if g.chance(5) {
		ann["kruise.io/sidecarset-working-hotupgrade-container"] = g.pick(`{"mesh":"mesh-2"}`, `[1]`, `{"x":3,"y":"y-1"}`)
	}
	if g.chance(2) {
		ann["src"] = g.pick(injAppNames...)
	}
	if g.chance(4) {
		ann["keep"] = "pod"
	}
	labels := map[string]any{"app": g.pick("web", "web", "web", "db")}
	if g.chance(2) {
		labels["src"] = g.pick(injAppNames...)
	}
	spec := map[string]any{}
	var containers []any
	for i, n := 0, 1+g.upTo(2); i < n; i++ {
		containers = append(containers, g.appContainer(g.pick(injAppNames...)))
	}
	spec["containers"] = containers
	if g.chance(3) {
		var inits []any
		for i, n := 0, 1+g.upTo(1); i < n; i++ {
			c := g.appContainer(g.pick("init-a", "init-x", "sidecar-b"))
			if g.chance(2) {
				c["restartPolicy"] = "Always"
			}
			inits = append(inits, c)
		}
		spec["initContainers"] = inits
	}
	if g.chance(2) {
		var vols []any
		for i, n := 0, g.upTo(2); i < n; i++ {
			vols = append(vols, map[string]any{"name": g.pick(injVolumes...), "emptyDir": map[string]any{}})
		}
		spec["volumes"] = vols
	}
	if g.chance(3) {
		spec["imagePullSecrets"] = []any{map[string]any{"name": g.pick("sec-a", "sec-b")}, map[string]any{"name": g.pick("sec-a", "sec-c")}}
	}
	meta := map[string]any{"name": "p", "namespace": ns, "labels": labels}
	if len(ann) > 0 {
		meta["annotations"] = ann
	}
	phase := "Running"
	if g.chance(20) {
		phase = "Succeeded"
	}
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": map[string]any{"phase": phase}}

	var sets []map[string]any
	g.rng.Shuffle(len(setNames), func(i, j int) { setNames[i], setNames[j] = setNames[j], setNames[i] })
	for k, n := 0, 1+g.upTo(2); k < n; k++ {
		name := setNames[k]
		sann := map[string]any{"kruise.io/sidecarset-hash": "hash-" + name}
		if g.chance(2) {
			sann["kruise.io/sidecarset-hash-without-image"] = "nohash-" + name
		}
		if g.chance(40) {
			sann["apps.kruise.io/sidecarset-canary"] = "true"
			sann["apps.kruise.io/sidecarset-base"] = g.pick(setNames...)
		}
		sspec := map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}
		switch g.rng.IntN(12) {
		case 0:
			sspec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "db"}}
		case 1:
			sspec["selector"] = nil
		case 2:
			sspec["namespaceSelector"] = map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": g.pick("default", "ns1")}}
		case 3:
			sspec["injectionStrategy"] = map[string]any{"paused": true}
		case 4:
			sspec["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "Bad"}}}
		}
		var cs, ics []any
		for i, n := 0, g.upTo(2); i < n; i++ {
			cs = append(cs, g.sidecar(false))
		}
		if g.chance(3) {
			for i, n := 0, 1+g.upTo(1); i < n; i++ {
				ics = append(ics, g.sidecar(true))
			}
		}
		if cs != nil {
			sspec["containers"] = cs
		}
		if ics != nil {
			sspec["initContainers"] = ics
		}
		var vols []any
		for i, n := 0, g.upTo(3); i < n; i++ {
			vols = append(vols, map[string]any{"name": g.pick(injVolumes...), "hostPath": map[string]any{"path": "/h/" + g.pick("1", "2")}})
		}
		if vols != nil {
			sspec["volumes"] = vols
		}
		if g.chance(3) {
			sspec["imagePullSecrets"] = []any{map[string]any{"name": g.pick("sec-a", "sec-d")}}
		}
		if g.chance(5) {
			sspec["patchPodMetadata"] = []any{map[string]any{
				"annotations": map[string]any{g.pick("keep", "new", "src"): g.pick("v1", "main")},
				"patchPolicy": g.pick("Retain", "Overwrite", "", "Unknown", "MergePatchJson")}}
		}
		scs := map[string]any{"apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet",
			"metadata": map[string]any{"name": name, "annotations": sann}, "spec": sspec}
		if g.chance(2) {
			scs["status"] = map[string]any{"latestRevision": name + "-rev"}
		}
		sets = append(sets, scs)
	}
	in := map[string]any{"pod": pod, "sidecarSets": listingOrder(ns, sets),
		"now": g.pick("2026-06-21T10:00:00Z", "2026-06-21T18:00:00.75+08:00")}
	if !g.chance(10) {
		in["namespace"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"team": "a"}}}
	}
	if g.chance(10) {
		in["webhookNamespaceSelector"] = map[string]any{"matchLabels": map[string]any{"team": g.pick("a", "b")}}
	}
	return in
}

func TestSidecarsetInjectRandom(t *testing.T) {
	requireFn(t, fnSidecarsetInject, map[string]any{"pod": map[string]any{}, "now": "2026-01-01T00:00:00Z"})
	g := &injGen{rand.New(rand.NewPCG(20261204, 14))}
	r := &tally{}
	outcomes := map[string]int{}
	for i, n := 0, randomCount(3000); i < n; i++ {
		raw, err := json.Marshal(g.input())
		if err != nil {
			t.Fatal(err)
		}
		outcomes[compareSidecarsetInject(t, r, fmt.Sprintf("random %d", i), raw)]++
	}
	t.Logf("outcomes: %v", outcomes)
	for _, want := range []string{"unchanged", "injected", "hot-upgrade", "metadata-only", "error invalid_annotation",
		"error no_target_containers", "invalid-selector", "merge-patch-json", "proxy-canary"} {
		if outcomes[want] == 0 {
			t.Errorf("the generator never reached %s (%v)", want, outcomes)
		}
	}
	r.report(t, "sidecarset.inject random")
}
