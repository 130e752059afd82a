//go:build goref_overlay

// Differential tests of the pub family (PodUnavailableBudget) against the module proxy's
// github.com/openkruise/kruise v1.9.0: pkg/control/pubcontrol (protected operations, pod
// predicates, update classification). Shared here: the random pod and PUB generators of all pub
// tests and the translation of a v1alpha1 PUB (what kruise-core reads, the tag's only version)
// into the v1beta1 object the proxy's code takes.
//
// Run through ./run (it adds the overlay that exports isNeedPubProtection).
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	policyv1alpha1 "github.com/openkruise/kruise/apis/policy/v1alpha1"
	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"github.com/openkruise/kruise/pkg/control/pubcontrol"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	corev1 "k8s.io/api/core/v1"
	kubecontroller "k8s.io/kubernetes/pkg/controller"
)

const (
	fnPubProtect  = "pub.protect_operations"
	fnPubPodState = "pub.pod_state"
	fnPubClassify = "pub.classify_update"

	annoProtectOps   = "kruise.io/pub-protect-operations"
	annoTotalReplica = "pub.kruise.io/protect-total-replicas"
	annoRelatedPub   = "kruise.io/related-pub"
	annoNoProtect    = "pub.kruise.io/no-protect"
)

func init() {
	// the reference's pod and PUB helpers log at V(3..6); keep the output quiet
	pubcontrol.InitPubControl(nil, nil, nil)
}

// setGates sets the reference's feature gates (unset names keep their defaults).
func setPubGates(t testing.TB, gates map[string]bool) {
	t.Helper()
	for _, name := range []string{"PodUnavailableBudgetDeleteGate", "PodUnavailableBudgetUpdateGate", "InPlacePodVerticalScaling",
		"WorkloadSpread", "ResourcesDeletionProtection", "DeletionProtectionForCRDCascadingGate", "StatefulSetAutoDeletePVC",
		"StatefulSetAutoResizePVCGate"} {
		v, ok := gates[name]
		if !ok {
			v = defaultGate(name)
		}
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%t", name, v)); err != nil {
			t.Fatalf("set gate %s: %v", name, err)
		}
	}
}

// defaultGate is OpenKruise v1.9.0's default for the gates the tests set (pkg/features).
func defaultGate(name string) bool {
	switch name {
	case "PodUnavailableBudgetDeleteGate", "WorkloadSpread", "StatefulSetAutoDeletePVC":
		return true
	}
	return false
}

// ---- v1alpha1 PUB -> the proxy's v1beta1 object ----------------------------------------------

// betaPub is the v1beta1 object the proxy's controller and webhooks take for the v1alpha1 PUB
// raw (vector JSON). The JSON fields are shared by both versions; the annotations stay (the
// proxy's runtime still reads kruise.io/pub-protect-operations from them). The proxy no longer
// reads pub.kruise.io/protect-total-replicas at runtime but spec.protectTotalReplicas, which its
// own v1alpha1 -> v1beta1 conversion fills from the annotation: that conversion (ConvertTo of
// an alpha object carrying just that annotation) gives the field. totalErr is the conversion's
// error (the proxy rejects what the tag parses leniently).
func betaPub(t testing.TB, raw []byte) (pub *policyv1beta1.PodUnavailableBudget, totalErr error) {
	t.Helper()
	pub = &policyv1beta1.PodUnavailableBudget{}
	if err := json.Unmarshal(raw, pub); err != nil {
		t.Fatalf("PUB does not decode: %v\n%s", err, raw)
	}
	if v, ok := pub.Annotations[annoTotalReplica]; ok {
		alpha := &policyv1alpha1.PodUnavailableBudget{}
		alpha.Annotations = map[string]string{annoTotalReplica: v}
		conv := &policyv1beta1.PodUnavailableBudget{}
		if err := alpha.ConvertTo(conv); err != nil {
			return pub, err
		}
		pub.Spec.ProtectTotalReplicas = conv.Spec.ProtectTotalReplicas
	}
	return pub, nil
}

// protectPieceAccepted is the proxy's verdict on one comma piece of kruise.io/pub-protect-operations:
// whether its v1alpha1 -> v1beta1 conversion (the only place the proxy still checks the
// annotation) accepts an annotation made of just that piece.
func protectPieceAccepted(piece string) bool {
	alpha := &policyv1alpha1.PodUnavailableBudget{}
	alpha.Annotations = map[string]string{annoProtectOps: piece}
	return alpha.ConvertTo(&policyv1beta1.PodUnavailableBudget{}) == nil
}

// protectAllPiecesEmpty: the annotation is present, non-empty and all its pieces are empty
// ("," ",,"): the tag then protects nothing, the proxy falls back to the defaults.
func protectAllPiecesEmpty(anno *string) bool {
	return anno != nil && *anno != "" && strings.Trim(*anno, ",") == ""
}

// protectPieceTrimmed: some piece is empty or carries surrounding white space, which the proxy's
// check trims or skips and the tag's validation rejects.
func protectPieceTrimmed(anno *string) bool {
	if anno == nil {
		return false
	}
	for _, p := range strings.Split(*anno, ",") {
		if p == "" || strings.TrimSpace(p) != p {
			return true
		}
	}
	return false
}

// noProtectParseBool: pub.kruise.io/no-protect is not exactly "true" but a Go boolean true
// ("1", "t", "True", "TRUE"): the proxy exempts the pod, the tag does not.
func noProtectParseBool(annotations map[string]string) bool {
	v, ok := annotations[annoNoProtect]
	if !ok || v == "true" {
		return false
	}
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// ---- generators -------------------------------------------------------------------------------

type pubGen struct{ rng *rand.Rand }

func (g *pubGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *pubGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

const (
	digestA = "sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"
	digestB = "sha256:0000000000000000000000000000000000000000000000000000000000000001"
)

// protectAnnotation draws a kruise.io/pub-protect-operations value (nil = absent).
func (g *pubGen) protectAnnotation() *string {
	if g.chance(4) {
		return nil
	}
	var s string
	switch g.rng.IntN(4) {
	case 0:
		s = g.pick("", ",", ",,", "DELETE", "EVICT", "UPDATE", "RESIZE", "DELETE,EVICT", "DELETE, EVICT", " EVICT",
			"delete", "Update", "DELETE,", ",UPDATE", "UPDATE,RESIZE", "RESIZE,RESIZE", "FOO", "DELETE,,EVICT", "EVICT ")
	default:
		n := g.rng.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = g.pick("DELETE", "EVICT", "UPDATE", "RESIZE", "DELETE", "EVICT", "UPDATE", "RESIZE", "", " UPDATE",
				"evict", "Delete", "DELETE ", "X", "\tRESIZE")
		}
		s = strings.Join(parts, ",")
	}
	return &s
}

func (g *pubGen) image() string {
	return g.pick("nginx:v1", "nginx:v1", "nginx:1.18", "nginx", "busybox:latest", "nginx@"+digestA,
		"docker.io/library/nginx@"+digestA, "nginx@"+digestB, "nginx:v1@"+digestA, "nginx@sha256:abc",
		"NGINX:v1", "", "registry.k8s.io/pause:3.9", "localhost:5000/app")
}

func (g *pubGen) imageID() string {
	return g.pick("nginx@"+digestA, "docker-pullable://nginx@"+digestA, "docker.io/library/nginx@"+digestA,
		"nginx@"+digestB, "containerd://nginx@"+digestA, "", "sha256:"+strings.Repeat("f", 64), "nginx:v1", "://nginx@"+digestA)
}

func (g *pubGen) quantity(res string) string {
	if res == "memory" {
		return g.pick("1Gi", "1Gi", "2Gi", "512Mi", "1073741824", "0", "1G", "100Mi")
	}
	return g.pick("1", "1", "2", "500m", "1000m", "0", "100m", "1.5", "250m")
}

func (g *pubGen) resourceList() map[string]any {
	m := map[string]any{}
	for _, r := range []string{"cpu", "memory", "ephemeral-storage", "nvidia.com/gpu"} {
		if g.rng.IntN(3) == 0 || (r != "cpu" && r != "memory" && g.rng.IntN(4) != 0) {
			continue
		}
		switch r {
		case "ephemeral-storage":
			m[r] = g.pick("1Gi", "2Gi")
		case "nvidia.com/gpu":
			m[r] = g.pick("1", "2")
		default:
			m[r] = g.quantity(r)
		}
	}
	return m
}

func (g *pubGen) resources() map[string]any {
	out := map[string]any{}
	switch g.rng.IntN(5) {
	case 0:
		return nil
	case 1: // guaranteed-looking
		l := g.resourceList()
		out["limits"] = l
		if g.chance(2) {
			out["requests"] = l
		}
	default:
		if !g.chance(3) {
			out["requests"] = g.resourceList()
		}
		if !g.chance(2) {
			out["limits"] = g.resourceList()
		}
	}
	return out
}

func (g *pubGen) container(name string) map[string]any {
	c := map[string]any{"name": name, "image": g.image()}
	if r := g.resources(); r != nil {
		c["resources"] = r
	}
	if g.chance(5) {
		var pol []any
		for _, r := range []string{"cpu", "memory"} {
			if g.chance(2) {
				pol = append(pol, map[string]any{"resourceName": r, "restartPolicy": g.pick("NotRequired", "RestartContainer", "")})
			}
		}
		c["resizePolicy"] = pol
	}
	if g.chance(5) {
		c["env"] = []any{map[string]any{"name": "IS_INJECTED", "value": g.pick("true", "true", "True", "false", "")},
			map[string]any{"name": "IS_INJECTED", "value": "true"}}
	}
	return c
}

// inplaceState draws an in-place update state (JSON text) over the containers named.
func (g *pubGen) inplaceState(names []string) string {
	if g.chance(8) {
		return g.pick("{", "null", "[]", `{"lastContainerStatuses": 5}`, "")
	}
	st := map[string]any{"revision": "rev-1", "updateTimestamp": "2026-06-21T09:00:00Z"}
	last := map[string]any{}
	for _, n := range names {
		if g.chance(2) {
			last[n] = map[string]any{"imageID": g.imageID()}
		}
	}
	if g.chance(4) {
		last["ghost"] = map[string]any{"imageID": g.imageID()}
	}
	st["lastContainerStatuses"] = last
	switch g.rng.IntN(8) {
	case 0:
		st["nextContainerImages"] = map[string]any{"c0": "nginx:v2"}
	case 1:
		st["nextContainerImages"] = map[string]any{}
	case 2:
		st["nextContainerResources"] = map[string]any{"c0": map[string]any{"limits": map[string]any{"cpu": "2"}}}
	case 3:
		st["updateEnvFromMetadata"] = true
	case 4:
		st["nextContainerRefMetadata"] = map[string]any{"c0": map[string]any{"labels": map[string]any{"a": "b"}}}
	}
	b, _ := json.Marshal(st)
	return string(b)
}

// pod draws a pod JSON over the surface the PUB decisions read (readiness, consistency, resize).
func (g *pubGen) pod(name string) map[string]any {
	meta := map[string]any{"name": name, "namespace": "default"}
	labels := map[string]any{"app": "demo"}
	if g.chance(6) {
		labels["unavailable-pod.kruise.io/"+g.pick("upgrade", "x")] = "true"
	}
	meta["labels"] = labels
	annos := map[string]any{}
	if !g.chance(6) {
		annos[annoRelatedPub] = g.pick("pub-test", "pub-test", "pub-test", "")
	}
	if g.chance(8) {
		annos[annoNoProtect] = g.pick("true", "false", "True", "1", "")
	}
	if g.chance(10) {
		annos["kubernetes.io/config.source"] = g.pick("api", "file", "", "http")
	}
	n := g.rng.IntN(4)
	if g.chance(10) {
		n = 0
	}
	var names []string
	var containers []any
	for i := 0; i < n; i++ {
		nm := "c" + strconv.Itoa(i)
		names = append(names, nm)
		containers = append(containers, g.container(nm))
	}
	spec := map[string]any{"containers": containers}
	if n == 0 && g.chance(2) {
		delete(spec, "containers")
	}
	if g.chance(8) {
		spec["initContainers"] = []any{g.container("init")}
	}
	if g.chance(5) {
		key := g.pick("apps.kruise.io/inplace-update-state", "inplace-update-state")
		annos[key] = g.inplaceState(names)
	}
	if g.chance(12) {
		annos[g.pick("apps.kruise.io/inplace-update-grace", "inplace-update-grace")] = `{"revision":"r","containerImages":{}}`
	}
	if g.chance(6) {
		annos["kruise.io/sidecarset-injected-list"] = g.pick("s1", "s1,s2", "", "s2")
		if !g.chance(3) {
			states := map[string]any{}
			for _, s := range []string{"s1", "s2", "s3"} {
				if g.chance(2) {
					var st any
					_ = json.Unmarshal([]byte(g.inplaceState(names)), &st)
					if st != nil { // a null entry makes the reference dereference nil (docs/deviations.md, pub)
						states[s] = st
					}
				}
			}
			b, _ := json.Marshal(states)
			v := string(b)
			if g.chance(10) {
				v = "{bad"
			}
			annos["kruise.io/sidecarset-inplace-update-state"] = v
		}
	}
	meta["annotations"] = annos
	if g.chance(12) {
		meta["deletionTimestamp"] = "2026-06-21T09:00:00Z"
	}
	status := map[string]any{"phase": g.pick("Running", "Running", "Running", "Running", "Pending", "Succeeded", "Failed", "")}
	var conds []any
	switch g.rng.IntN(8) {
	case 0:
	case 1:
		conds = append(conds, map[string]any{"type": "Ready", "status": "False"})
	case 2:
		conds = append(conds, map[string]any{"type": "Ready", "status": "False"}, map[string]any{"type": "Ready", "status": "True"})
	case 3:
		conds = append(conds, map[string]any{"type": "ContainersReady", "status": "True"}, map[string]any{"type": "Ready", "status": g.pick("True", "Unknown")})
	default:
		conds = append(conds, map[string]any{"type": "Ready", "status": "True"})
	}
	if conds != nil {
		status["conditions"] = conds
	}
	var css []any
	for _, nm := range names {
		if g.chance(8) {
			continue
		}
		img := g.image()
		if g.rng.IntN(3) > 0 {
			for _, c := range containers {
				if c.(map[string]any)["name"] == nm {
					img = c.(map[string]any)["image"].(string)
				}
			}
		}
		css = append(css, map[string]any{"name": nm, "image": img, "imageID": g.imageID(), "ready": true})
	}
	if g.chance(10) {
		css = append(css, map[string]any{"name": "ghost", "image": "x", "imageID": "y"})
	}
	if css != nil {
		status["containerStatuses"] = css
	}
	return map[string]any{"metadata": meta, "spec": spec, "status": status}
}

// healthyPod draws a running, ready, consistent pod guarded by pub-test (the pods the budget
// check is reached for), with random resources.
func (g *pubGen) healthyPod(name string) map[string]any {
	var containers, statuses []any
	for i := 0; i <= g.rng.IntN(2); i++ {
		nm := "c" + strconv.Itoa(i)
		img := g.pick("nginx:v1", "nginx@"+digestA, "busybox:latest")
		c := map[string]any{"name": nm, "image": img}
		if r := g.resources(); r != nil {
			c["resources"] = r
		}
		containers = append(containers, c)
		statuses = append(statuses, map[string]any{"name": nm, "image": img, "imageID": "docker-pullable://nginx@" + digestA, "ready": true})
	}
	annos := map[string]any{annoRelatedPub: "pub-test"}
	if g.chance(10) {
		annos[annoNoProtect] = g.pick("true", "false", "1")
	}
	return map[string]any{
		"metadata": map[string]any{"name": name, "namespace": "default", "labels": map[string]any{"app": "demo"}, "annotations": annos},
		"spec":     map[string]any{"containers": containers},
		"status": map[string]any{"phase": "Running", "conditions": []any{map[string]any{"type": "Ready", "status": "True"}},
			"containerStatuses": statuses},
	}
}

// mutatePod draws a newPod from oldPod for classify/admit: resource edits (the RESIZE path),
// image/env edits, label edits, added containers, or nothing.
func (g *pubGen) mutatePod(old map[string]any) map[string]any {
	var p map[string]any
	b, _ := json.Marshal(old)
	_ = json.Unmarshal(b, &p)
	spec := p["spec"].(map[string]any)
	cs, _ := spec["containers"].([]any)
	edits := 1 + g.rng.IntN(2)
	for e := 0; e < edits; e++ {
		switch k := g.rng.IntN(12); {
		case k < 5 && len(cs) > 0: // resources
			c := cs[g.rng.IntN(len(cs))].(map[string]any)
			if r := g.resources(); r != nil {
				c["resources"] = r
			} else {
				delete(c, "resources")
			}
		case k == 5 && len(cs) > 0:
			c := cs[g.rng.IntN(len(cs))].(map[string]any)
			c["image"] = g.image()
		case k == 6:
			labels := p["metadata"].(map[string]any)["labels"].(map[string]any)
			if g.chance(2) {
				labels["unavailable-pod.kruise.io/"+g.pick("a", "b")] = "true"
			} else {
				labels["other"] = "x"
			}
		case k == 7:
			cs = append(cs, g.container("added"))
			spec["containers"] = cs
		case k == 8 && len(cs) > 0:
			c := cs[g.rng.IntN(len(cs))].(map[string]any)
			c["resizePolicy"] = []any{map[string]any{"resourceName": g.pick("cpu", "memory"), "restartPolicy": g.pick("NotRequired", "RestartContainer")}}
		case k == 9:
			if ics, ok := spec["initContainers"].([]any); ok && len(ics) > 0 {
				ics[0].(map[string]any)["resources"] = g.resources()
			} else {
				p["metadata"].(map[string]any)["annotations"].(map[string]any)["kubernetes.io/config.source"] = g.pick("file", "api")
			}
		case k == 10 && len(cs) > 0: // respell a quantity with the same value
			c := cs[g.rng.IntN(len(cs))].(map[string]any)
			c["resources"] = map[string]any{"requests": map[string]any{"cpu": g.pick("1", "1000m", "1.0")}, "limits": map[string]any{"cpu": g.pick("1", "1000m")}}
		default: // nothing in the spec (metadata only)
			p["metadata"].(map[string]any)["annotations"].(map[string]any)["note"] = "x"
		}
	}
	return p
}

func decodePod(t testing.TB, m map[string]any) *corev1.Pod {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(b, pod); err != nil {
		t.Fatalf("pod does not decode: %v\n%s", err, b)
	}
	return pod
}

// ---- pub.protect_operations --------------------------------------------------------------------

type protectInput struct {
	Annotation                *string `json:"annotation"`
	InPlacePodVerticalScaling bool    `json:"inPlacePodVerticalScaling"`
	Strict                    bool    `json:"strict,omitempty"`
}

var pubOperations = []policyv1beta1.PubOperation{"DELETE", "EVICT", "RESIZE", "UPDATE"}

// refProtect: the operations the proxy's isNeedPubProtection protects for a PUB carrying the
// annotation, or (strict) the kind when the proxy's check rejects a piece.
func refProtect(t testing.TB, in protectInput) ([]string, string) {
	setPubGates(t, map[string]bool{"InPlacePodVerticalScaling": in.InPlacePodVerticalScaling})
	if in.Strict && in.Annotation != nil {
		for _, p := range strings.Split(*in.Annotation, ",") {
			if !protectPieceAccepted(p) {
				return nil, "invalid_protect_operations"
			}
		}
	}
	pub := &policyv1beta1.PodUnavailableBudget{}
	if in.Annotation != nil {
		pub.Annotations = map[string]string{annoProtectOps: *in.Annotation}
	}
	ops := []string{}
	for _, op := range pubOperations {
		if pubcontrol.GorefIsNeedPubProtection(pub, op) {
			ops = append(ops, string(op))
		}
	}
	return ops, ""
}

func protectDeviation(in protectInput) string {
	if protectAllPiecesEmpty(in.Annotation) {
		return "proxy-protect-operations-all-empty"
	}
	if in.Strict && protectPieceTrimmed(in.Annotation) {
		return "proxy-protect-operations-trimmed"
	}
	return ""
}

func compareProtect(t *testing.T, r *tally, label string, in protectInput) {
	r.total++
	want, wantK := refProtect(t, in)
	raw, gotK, err := answer(fnPubProtect, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got struct {
		Operations []string `json:"operations"`
	}
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s: ours %s: %v", label, raw, err)
			return
		}
	}
	switch {
	case wantK == "" && gotK == "" && reflect.DeepEqual(want, got.Operations):
		r.agreeValue++
		return
	case wantK != "" && wantK == gotK:
		r.agreeError++
		return
	}
	if c := protectDeviation(in); c != "" && allowed("pub", c) {
		r.allow(c)
		return
	}
	r.fail("%s %s: reference %v/%s, ours %s/%s", label, jsonText(in), want, wantK, raw, gotK)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestPubProtectVectors(t *testing.T) {
	requireFn(t, fnPubProtect, protectInput{})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "pub", fnPubProtect) {
		var in protectInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		compareProtect(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { compareProtect(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "pub.protect_operations vectors")
	refVec.report(t, "pub.protect_operations vectors, reference vs vector")
}

func randomProtectInputs(n int, each func(i int, in protectInput)) {
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 1))}
	for i := 0; i < n; i++ {
		each(i, protectInput{Annotation: g.protectAnnotation(), InPlacePodVerticalScaling: g.chance(2), Strict: g.chance(3)})
	}
}

func TestPubProtectRandom(t *testing.T) {
	requireFn(t, fnPubProtect, protectInput{})
	var r tally
	seen := map[string]int{}
	randomProtectInputs(randomCount(3000), func(i int, in protectInput) {
		ops, k := refProtect(t, in)
		seen[fmt.Sprintf("%v%s", ops, k)]++
		compareProtect(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "pub.protect_operations random")
	// coverage: every single operation alone, nothing, the defaults with and without RESIZE, strict errors
	for _, k := range []string{"[]", "[DELETE]", "[EVICT]", "[RESIZE]", "[DELETE EVICT UPDATE]", "[DELETE EVICT RESIZE UPDATE]", "[]invalid_protect_operations"} {
		if seen[k] < 10 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}

// ---- pub.pod_state ----------------------------------------------------------------------------

type podState struct {
	Active     bool `json:"active"`
	Ready      bool `json:"ready"`
	Consistent bool `json:"consistent"`
}

func refPodState(t testing.TB, pod map[string]any) podState {
	p := decodePod(t, pod)
	return podState{
		Active:     kubecontroller.IsPodActive(p),
		Ready:      pubcontrol.PubControl.IsPodReady(p),
		Consistent: pubcontrol.PubControl.IsPodStateConsistent(p),
	}
}

func comparePodState(t *testing.T, r *tally, label string, pod map[string]any) {
	r.total++
	want := refPodState(t, pod)
	raw, gotK, err := answer(fnPubPodState, map[string]any{"pod": pod})
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got podState
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err == nil && got == want {
			r.agreeValue++
			return
		}
	}
	r.fail("%s pod %s: reference %+v, ours %s/%s", label, jsonText(pod), want, raw, gotK)
}

func TestPubPodStateVectors(t *testing.T) {
	requireFn(t, fnPubPodState, map[string]any{"pod": map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectorsAll(t, "pub", fnPubPodState) {
		var in struct {
			Pod map[string]any `json:"pod"`
		}
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		comparePodState(t, &r, "vector "+c.Name, in.Pod)
		withVectorAnswer(c, func() { comparePodState(t, &refVec, "vector "+c.Name+" (reference vs vector)", in.Pod) })
	}
	r.report(t, "pub.pod_state vectors")
	refVec.report(t, "pub.pod_state vectors, reference vs vector")
}

func TestPubPodStateRandom(t *testing.T) {
	requireFn(t, fnPubPodState, map[string]any{"pod": map[string]any{}})
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 2))}
	var r tally
	seen := map[podState]int{}
	for i := 0; i < randomCount(3000); i++ {
		pod := g.pod("pod-" + strconv.Itoa(i))
		seen[refPodState(t, pod)]++
		comparePodState(t, &r, fmt.Sprintf("random #%d", i), pod)
	}
	r.report(t, "pub.pod_state random")
	for _, s := range []podState{{true, true, true}, {true, true, false}, {true, false, true}, {false, false, true}} {
		if seen[s] < 20 {
			t.Errorf("reference outcome %+v reached %d times", s, seen[s])
		}
	}
}

// ---- pub.classify_update ----------------------------------------------------------------------

type classifyOut struct {
	UnavailableChanged bool    `json:"unavailableChanged"`
	CanResizeInplace   bool    `json:"canResizeInplace"`
	Operation          *string `json:"operation"`
}

func refClassify(t testing.TB, oldPod, newPod map[string]any) classifyOut {
	o, n := decodePod(t, oldPod), decodePod(t, newPod)
	out := classifyOut{
		UnavailableChanged: pubcontrol.PubControl.IsPodUnavailableChanged(o, n),
		CanResizeInplace:   pubcontrol.PubControl.CanResizeInplace(o, n),
	}
	if out.UnavailableChanged {
		op := "UPDATE"
		if out.CanResizeInplace {
			op = "RESIZE"
		}
		out.Operation = &op
	}
	return out
}

func compareClassify(t *testing.T, r *tally, label string, oldPod, newPod map[string]any) {
	r.total++
	want := refClassify(t, oldPod, newPod)
	in := map[string]any{"oldPod": oldPod, "newPod": newPod}
	raw, gotK, err := answer(fnPubClassify, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got classifyOut
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err == nil && reflect.DeepEqual(got, want) {
			r.agreeValue++
			return
		}
	}
	r.fail("%s %s: reference %s, ours %s/%s", label, jsonText(in), jsonText(want), raw, gotK)
}

func TestPubClassifyVectors(t *testing.T) {
	requireFn(t, fnPubClassify, map[string]any{"oldPod": map[string]any{}, "newPod": map[string]any{}})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectorsAll(t, "pub", fnPubClassify) {
		var in struct {
			OldPod map[string]any `json:"oldPod"`
			NewPod map[string]any `json:"newPod"`
		}
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		compareClassify(t, &r, "vector "+c.Name, in.OldPod, in.NewPod)
		withVectorAnswer(c, func() { compareClassify(t, &refVec, "vector "+c.Name+" (reference vs vector)", in.OldPod, in.NewPod) })
	}
	r.report(t, "pub.classify_update vectors")
	refVec.report(t, "pub.classify_update vectors, reference vs vector")
}

func TestPubClassifyRandom(t *testing.T) {
	requireFn(t, fnPubClassify, map[string]any{"oldPod": map[string]any{}, "newPod": map[string]any{}})
	g := &pubGen{rng: rand.New(rand.NewPCG(20261202, 3))}
	var r tally
	seen := map[string]int{}
	for i := 0; i < randomCount(3000); i++ {
		old := g.pod("pod-x")
		var nw map[string]any
		if g.chance(10) {
			nw = old
		} else {
			nw = g.mutatePod(old)
		}
		c := refClassify(t, old, nw)
		seen[fmt.Sprintf("%t/%t", c.UnavailableChanged, c.CanResizeInplace)]++
		compareClassify(t, &r, fmt.Sprintf("random #%d", i), old, nw)
	}
	r.report(t, "pub.classify_update random")
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("reference outcomes (unavailableChanged/canResizeInplace): %v", seen)
	for _, k := range []string{"true/true", "true/false", "false/true"} {
		if seen[k] < 50 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}
