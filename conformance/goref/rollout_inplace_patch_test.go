// Differential test of rollout.inplace_pod_patch against OpenKruise's pkg/util/inplaceupdate
// itself: the exported Update of the real control (NewForTypedClient over a fake clientset that
// holds the pod, with the CloneSet's revision writer clonesetutils.RevisionAdapterImpl and the
// package's settable Clock), its options defaulted by SetOptionsDefaults except CalculateSpec,
// which hands over the case's update spec (the spec rollout.inplace_update computes). The pod is
// read back from the fake clientset after the update; both sides' pods are compared after a
// corev1.Pod round trip, the annotations byte for byte.
//
// The server version: pkg/client keeps the version the controller learnt at start in an
// unexported variable that only NewRegistry sets, from the discovery client's GET /version. The
// harness therefore calls NewRegistry against a local HTTP server answering /version with the
// case's major and minor (1.30, the reference's own default, when the case gives none). The fake
// clientset records the resize subresource patch (a reactor on "patch" of "pods" with subresource
// "resize"): those bytes are the case's resizePatch.
package goref

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	kruiseclient "github.com/openkruise/kruise/pkg/client"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	"github.com/openkruise/kruise/pkg/features"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
)

type patchResIn struct {
	Limits   map[string]string `json:"limits"`
	Requests map[string]string `json:"requests"`
}

type patchMetaIn struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

type patchSpecIn struct {
	ContainerImages       map[string]string      `json:"containerImages"`
	ContainerResources    map[string]patchResIn  `json:"containerResources"`
	ContainerRefMetadata  map[string]patchMetaIn `json:"containerRefMetadata"`
	UpdateEnvFromMetadata bool                   `json:"updateEnvFromMetadata"`
	MetadataPatch         json.RawMessage        `json:"metadataPatch"`
}

type patchIn struct {
	Pod                json.RawMessage `json:"pod"`
	Spec               patchSpecIn     `json:"spec"`
	Revision           string          `json:"revision"`
	Now                string          `json:"now"`
	GracePeriodSeconds int32           `json:"gracePeriodSeconds"`
	FeatureGates       map[string]bool `json:"featureGates"`
	ServerVersion      *string         `json:"serverVersion"`
}

var (
	versionMu     sync.Mutex
	versionServer *httptest.Server
	versionReply  = map[string]string{"major": "1", "minor": "30"}
	// leadingMajorMinor is the rule of compat.server_version kruise-core reads serverVersion
	// with (checked by the harness as kruise-core does): an optional v, then major.minor.
	leadingMajorMinor = regexp.MustCompile(`^[vV]?([0-9]+)\.([0-9]+)`)
)

// setServerVersion makes pkg/client learn major.minor the way the controller does at start:
// NewRegistry asks the (local) server's /version.
func setServerVersion(major, minor string) {
	versionMu.Lock()
	defer versionMu.Unlock()
	if versionServer == nil {
		versionServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			versionMu.Lock()
			reply := map[string]string{}
			for k, v := range versionReply {
				reply[k] = v
			}
			versionMu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(reply)
		}))
	}
	versionReply = map[string]string{"major": major, "minor": minor, "gitVersion": "v" + major + "." + minor + ".0"}
	versionMu.Unlock()
	err := kruiseclient.NewRegistry(&rest.Config{Host: versionServer.URL})
	versionMu.Lock()
	if err != nil {
		panic(err)
	}
}

// caseServerVersion is the major and minor the case's serverVersion means, or ok false when
// kruise-core refuses it (no leading major.minor).
func caseServerVersion(v *string) (major, minor string, ok bool) {
	if v == nil {
		return "1", "30", true
	}
	m := leadingMajorMinor.FindStringSubmatch(strings.TrimSpace(*v))
	if m == nil {
		return "", "", false
	}
	a, err1 := strconv.ParseUint(m[1], 10, 64)
	b, err2 := strconv.ParseUint(m[2], 10, 64)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	return strconv.FormatUint(a, 10), strconv.FormatUint(b, 10), true
}

// patchSupported mirrors the fn's rule on metadata patches: {"metadata": {"labels"|"annotations":
// map of string-or-null, or null}}; other members are "unsupported", wrong value types
// "invalid_input" (the reference would fail decoding the patched pod).
func patchSupported(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return "invalid_input"
	}
	kind := ""
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "metadata" {
			return "unsupported"
		}
		meta, ok := top[k].(map[string]any)
		if !ok {
			return "unsupported"
		}
		mkeys := make([]string, 0, len(meta))
		for mk := range meta {
			mkeys = append(mkeys, mk)
		}
		sort.Strings(mkeys)
		for _, mk := range mkeys {
			if mk != "labels" && mk != "annotations" {
				return "unsupported"
			}
			switch m := meta[mk].(type) {
			case nil:
			case map[string]any:
				vkeys := make([]string, 0, len(m))
				for key := range m {
					vkeys = append(vkeys, key)
				}
				sort.Strings(vkeys)
				for _, key := range vkeys {
					if strings.HasPrefix(key, "$") {
						return "unsupported"
					}
					switch m[key].(type) {
					case nil, string:
					default:
						if kind == "" {
							kind = "invalid_input"
						}
					}
				}
			default:
				if kind == "" {
					kind = "invalid_input"
				}
			}
		}
	}
	return kind
}

func setPatchGates(g map[string]bool) {
	for _, f := range []string{string(features.InPlaceWorkloadVerticalScaling), string(features.CloneSetShortHash)} {
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%v", f, g[f])); err != nil {
			panic(err)
		}
	}
}

// roundTripPod is the API server's view of a pod value: decoded into corev1.Pod and encoded.
func roundTripPod(v any) (any, error) {
	var p corev1.Pod
	if err := json.Unmarshal(mustJSON(v), &p); err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(mustJSON(&p), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func refInplacePatch(in json.RawMessage) (o refOutcome) {
	var i patchIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	// the fn's own input rule (checked by the harness as kruise-core does): no unknown members
	var top map[string]json.RawMessage
	if err := json.Unmarshal(in, &top); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	for k := range top {
		switch k {
		case "pod", "spec", "revision", "now", "gracePeriodSeconds", "featureGates", "serverVersion":
		default:
			return refOutcome{kind: "invalid_input"}
		}
	}
	now, err := time.Parse(time.RFC3339, i.Now)
	if err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	major, minor, ok := caseServerVersion(i.ServerVersion)
	if !ok {
		return refOutcome{kind: "invalid_input"}
	}
	var pod corev1.Pod
	if len(i.Pod) == 0 || i.Pod[0] != '{' {
		return refOutcome{kind: "invalid_input"}
	}
	if err := json.Unmarshal(i.Pod, &pod); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	spec := &inplaceupdate.UpdateSpec{
		Revision:              i.Revision,
		ContainerImages:       map[string]string{},
		ContainerResources:    map[string]corev1.ResourceRequirements{},
		ContainerRefMetadata:  map[string]metav1.ObjectMeta{},
		UpdateEnvFromMetadata: i.Spec.UpdateEnvFromMetadata,
		GraceSeconds:          i.GracePeriodSeconds,
	}
	for k, v := range i.Spec.ContainerImages {
		spec.ContainerImages[k] = v
	}
	for c, r := range i.Spec.ContainerResources {
		rr := corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}}
		for _, part := range []struct {
			from map[string]string
			to   corev1.ResourceList
		}{{r.Limits, rr.Limits}, {r.Requests, rr.Requests}} {
			for k, v := range part.from {
				q, err := resource.ParseQuantity(v)
				if err != nil {
					return refOutcome{kind: "invalid_input"}
				}
				part.to[corev1.ResourceName(k)] = q
			}
		}
		spec.ContainerResources[c] = rr
	}
	for c, m := range i.Spec.ContainerRefMetadata {
		spec.ContainerRefMetadata[c] = metav1.ObjectMeta{Labels: m.Labels, Annotations: m.Annotations}
	}
	if k := patchSupported(i.Spec.MetadataPatch); k != "" {
		return refOutcome{kind: k}
	}
	if len(i.Spec.MetadataPatch) > 0 && string(i.Spec.MetadataPatch) != "null" {
		var v any
		if err := json.Unmarshal(i.Spec.MetadataPatch, &v); err != nil {
			return refOutcome{kind: "invalid_input"}
		}
		spec.MetaDataPatch = mustJSON(v)
	}
	setPatchGates(i.FeatureGates)
	inplaceupdate.Clock = clocktesting.NewFakeClock(now)
	defer func() {
		// the reference panics writing into a nil map or reading a malformed launch-priority
		// env; kruise-core refuses the input naming the member
		if p := recover(); p != nil {
			o = refOutcome{kind: "invalid_input", label: "invalid_input/reference-panics"}
		}
	}()
	opts := inplaceupdate.SetOptionsDefaults(&inplaceupdate.UpdateOptions{
		GracePeriodSeconds: i.GracePeriodSeconds,
		CalculateSpec: func(_, _ *apps.ControllerRevision, _ *inplaceupdate.UpdateOptions) *inplaceupdate.UpdateSpec {
			return spec
		},
	})
	unready := opts.CheckPodNeedsBeUnready(pod.DeepCopy(), spec)
	setServerVersion(major, minor)
	client := fake.NewSimpleClientset(pod.DeepCopy())
	var resizePatches [][]byte
	client.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if p, ok := a.(k8stesting.PatchAction); ok && a.GetSubresource() == "resize" {
			resizePatches = append(resizePatches, append([]byte(nil), p.GetPatch()...))
		}
		return false, nil, nil
	})
	ctrl := inplaceupdate.NewForTypedClient(client, clonesetutils.RevisionAdapterImpl)
	rev := &apps.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: i.Revision}}
	res := ctrl.Update(pod.DeepCopy(), rev, rev, opts)
	var resizePatch any
	if len(resizePatches) > 1 {
		return refOutcome{kind: "unmapped: more than one resize patch"}
	}
	if len(resizePatches) == 1 {
		// kruise-core refuses a patched container name the reference prints unescaped into
		// broken or different JSON (a quote, backslash or control character)
		for _, c := range pod.Spec.Containers {
			if strings.ContainsAny(c.Name, "\"\\") || strings.IndexFunc(c.Name, func(r rune) bool { return r < 0x20 }) >= 0 {
				if strings.Contains(string(resizePatches[0]), `{"name":"`+c.Name+`"`) {
					return refOutcome{kind: "invalid_input", label: "invalid_input/resize-name"}
				}
			}
		}
		if err := json.Unmarshal(resizePatches[0], &resizePatch); err != nil {
			return refOutcome{kind: "unmapped: resize patch not JSON: " + err.Error()}
		}
	}
	if res.UpdateErr != nil {
		return refOutcome{kind: "unmapped: " + res.UpdateErr.Error()}
	}
	if !res.InPlaceUpdate {
		return refOutcome{kind: "unmapped: not in place"}
	}
	got, err := client.CoreV1().Pods(pod.Namespace).Get(context.TODO(), pod.Name, metav1.GetOptions{})
	if err != nil {
		return refOutcome{kind: "unmapped: " + err.Error()}
	}
	stateText := got.Annotations[appspub.InPlaceUpdateStateKey]
	var grace any
	if g, ok := got.Annotations[appspub.InPlaceUpdateGraceKey]; ok && i.GracePeriodSeconds > 0 {
		grace = g
	}
	containers := []string{}
	if i.GracePeriodSeconds <= 0 {
		var st appspub.InPlaceUpdateState
		if err := json.Unmarshal([]byte(stateText), &st); err != nil {
			panic(err)
		}
		if n := len(st.ContainerBatchesRecord); n > 0 {
			containers = st.ContainerBatchesRecord[n-1].Containers
		}
	}
	var podV any
	if err := json.Unmarshal(mustJSON(got), &podV); err != nil {
		panic(err)
	}
	o.value = map[string]any{
		"pod":                 podV,
		"unready":             unready,
		"state":               stateText,
		"grace":               grace,
		"containers":          containers,
		"requeueAfterSeconds": int64(res.DelayDuration / time.Second),
	}
	if resizePatch != nil {
		o.value.(map[string]any)["resizePatch"] = resizePatch
	}
	switch {
	case i.GracePeriodSeconds > 0:
		o.label = "grace"
	case strings.Contains(stateText, "nextContainer"):
		o.label = "batched"
	default:
		o.label = "patched"
	}
	if unready {
		o.label += "/unready"
	}
	if strings.Contains(stateText, `"updateResources":true`) && i.FeatureGates[string(features.InPlaceWorkloadVerticalScaling)] {
		o.label += "/resized"
		if kruiseclient.ShouldUpdateResourceByResize() && i.GracePeriodSeconds <= 0 {
			if resizePatch != nil {
				o.label += "/subresource"
			} else {
				o.label += "/subresource-unchanged"
			}
		}
	}
	return o
}

// projectInplacePatch passes kruise-core's pod through corev1.Pod, as the reference's pod was
// (stored by the fake clientset, read back, encoded).
func projectInplacePatch(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if p, err := roundTripPod(m["pod"]); err == nil {
		m["pod"] = p
	}
	return m
}

var diffInplacePatch = diffFn{family: "rollout", fn: "rollout.inplace_pod_patch", ref: refInplacePatch, project: projectInplacePatch}

// ---- generator ----

func (g *gen) patchResources() map[string]any {
	out := map[string]any{}
	for _, kind := range []string{"limits", "requests"} {
		if g.chance(5) {
			continue
		}
		m := map[string]any{}
		for _, r := range []string{"cpu", "memory", "ephemeral-storage"} {
			if g.n(3) > 0 {
				m[r] = g.pick("100m", "0.5", "1", "2", "1Gi", "1024Mi", "512Mi", "500m")
			}
		}
		if g.chance(8) {
			out[kind] = nil
		} else {
			out[kind] = m
		}
	}
	return out
}

func genInplacePatch(g *gen) any {
	names := []string{"app", "sidecar", "log", "main"}
	nc := 1 + g.n(4)
	containers := []any{}
	statuses := []any{}
	for ci := 0; ci < nc; ci++ {
		name := names[ci]
		if g.chance(25) {
			name = names[0] // duplicate name
		}
		c := map[string]any{"name": name, "image": g.pick("img:v1", "img", "reg:5000/img:v1")}
		if g.chance(3) {
			env := map[string]any{"name": "KRUISE_CONTAINER_BARRIER"}
			switch g.n(12) {
			case 0:
				// no configMapKeyRef: the reference panics
			case 1:
				env["valueFrom"] = map[string]any{"configMapKeyRef": map[string]any{"name": "b", "key": g.pick("p", "")}}
			default:
				env["valueFrom"] = map[string]any{"configMapKeyRef": map[string]any{"name": "b", "key": g.pick("p_1", "p_2", "p_2", "p_-1", "p_x", "p_0", "p_99999999999999999999")}}
			}
			c["env"] = []any{map[string]any{"name": "X", "value": "1"}, env}
		}
		if g.n(4) > 0 {
			c["resources"] = g.patchResources()
		}
		if g.chance(3) {
			c["resizePolicy"] = []any{map[string]any{"resourceName": g.pick("cpu", "memory"), "restartPolicy": g.pick("NotRequired", "RestartContainer")}}
		}
		containers = append(containers, c)
		if !g.chance(6) {
			st := map[string]any{"name": name, "image": c["image"], "imageID": g.pick("sha256:aaa", "sha256:bbb", ""), "ready": g.bool()}
			statuses = append(statuses, st)
		}
	}
	labels := map[string]any{"app": "demo"}
	ann := map[string]any{}
	if g.chance(4) {
		ann["apps.kruise.io/inplace-update-grace"] = `{"revision":"x"}`
	}
	if g.chance(4) {
		ann["inplace-update-grace"] = "old"
	}
	if g.chance(4) {
		ann["inplace-update-state"] = `{"revision":"old"}`
	}
	if g.chance(5) {
		labels["controller-revision-hash"] = "demo-old"
	}
	spec := map[string]any{"containers": containers}
	if !g.chance(3) {
		gates := []any{map[string]any{"conditionType": "InPlaceUpdateReady"}}
		if g.chance(3) {
			gates = append(gates, map[string]any{"conditionType": "other"})
		}
		spec["readinessGates"] = gates
	}
	conds := []any{}
	for _, t := range []string{"Ready", "ContainersReady", "InPlaceUpdateReady", "other", "PodScheduled"} {
		if g.bool() {
			conds = append(conds, map[string]any{"type": t, "status": g.pick("True", "True", "False", "Unknown"), "lastTransitionTime": "2024-01-01T00:00:00Z"})
		}
	}
	pod := map[string]any{
		"metadata": map[string]any{"name": "pod-0", "namespace": "default", "labels": labels, "annotations": ann},
		"spec":     spec,
		"status":   map[string]any{"conditions": conds, "containerStatuses": statuses},
	}
	// the spec: images, resources, metadata for some of the pod's containers (and strangers)
	images := map[string]any{}
	res := map[string]any{}
	meta := map[string]any{}
	for _, n := range append(names, "ghost") {
		if g.chance(3) {
			images[n] = g.pick("img:v2", "img:v3", "reg:5000/img:v2")
		}
		if g.chance(4) {
			r := map[string]any{"limits": map[string]any{}, "requests": map[string]any{}}
			for _, kind := range []string{"limits", "requests"} {
				for _, k := range []string{"cpu", "memory"} {
					if g.bool() {
						r[kind].(map[string]any)[k] = g.pick("200m", "1", "2Gi", "0.25", "1500Mi")
					}
				}
			}
			if g.chance(30) {
				r["limits"].(map[string]any)["cpu"] = "bad"
			}
			res[n] = r
		}
		if g.chance(4) {
			m := map[string]any{}
			// values derived from the key: the reference applies the containers in map order
			if g.bool() {
				k := g.pick("k1", "k2", "a/b")
				m["labels"] = map[string]any{k: "v-" + k}
			}
			if g.bool() {
				k := g.pick("a1", "a2", "x<y>&")
				m["annotations"] = map[string]any{k: "w-" + k}
			}
			meta[n] = m
		}
	}
	s := map[string]any{"containerImages": images, "containerResources": res, "containerRefMetadata": meta, "updateEnvFromMetadata": len(meta) > 0 && !g.chance(5)}
	switch g.n(8) {
	case 0:
		s["metadataPatch"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": nil, "new": "n"}}}
	case 1:
		s["metadataPatch"] = map[string]any{"metadata": map[string]any{"annotations": map[string]any{"x": "y", "inplace-update-grace": nil}, "labels": nil}}
	case 2:
		s["metadataPatch"] = map[string]any{}
	case 3:
		if g.chance(4) {
			s["metadataPatch"] = map[string]any{"metadata": map[string]any{g.pick("finalizers", "name"): []any{"f"}}}
		}
	}
	in := map[string]any{
		"pod":      pod,
		"spec":     s,
		"revision": g.pick("demo-5d8f", "demo-abc-123", "h1", "demo-"),
		"now":      g.pick("2026-06-21T10:00:00Z", "2026-06-21T10:00:00.9Z", "2026-06-21T18:00:00+08:00"),
	}
	if g.chance(3) {
		in["gracePeriodSeconds"] = g.pick2(-1, 0, 5, 30)
	}
	gates := map[string]any{}
	if g.bool() {
		gates["InPlaceWorkloadVerticalScaling"] = g.n(3) > 0
	}
	if g.chance(3) {
		gates["CloneSetShortHash"] = g.bool()
	}
	in["featureGates"] = gates
	if g.chance(40) {
		in["now"] = "yesterday"
	}
	if g.bool() {
		in["serverVersion"] = g.pick("v1.32.3", "v1.33.2-gke.1240000", "v1.32.3-eks-4096722", "v1.31.9", "v1.30.2+k3s1", "1.34", "v2.0.0", "v1.28+", "v1", "latest")
	}
	return in
}

func (g *gen) pick2(xs ...int) int { return xs[g.n(len(xs))] }

func TestRolloutInplacePodPatchVectorsReference(t *testing.T) {
	diffInplacePatch.checkVectorsReference(t, "rollout_inplace_pod_patch")
}

func TestRolloutInplacePodPatchVectors(t *testing.T) {
	requireFn(t, diffInplacePatch.fn, map[string]any{"pod": map[string]any{}, "spec": map[string]any{}, "revision": "r", "now": "2026-01-01T00:00:00Z"})
	diffInplacePatch.compareVectors(t, "rollout_inplace_pod_patch")
}

func TestRolloutInplacePodPatchRandomCoverage(t *testing.T) {
	diffInplacePatch.checkCoverage(t, genInputs(1401, randomCount(baseRandom), genInplacePatch), 10,
		"patched", "patched/unready", "batched", "batched/unready", "grace", "grace/unready",
		"patched/resized", "patched/unready/resized", "patched/resized/subresource", "patched/resized/subresource-unchanged",
		"patched/unready/resized/subresource", "invalid_input", "invalid_input/reference-panics", "unsupported")
}

func TestRolloutInplacePodPatchRandom(t *testing.T) {
	requireFn(t, diffInplacePatch.fn, map[string]any{"pod": map[string]any{}, "spec": map[string]any{}, "revision": "r", "now": "2026-01-01T00:00:00Z"})
	diffInplacePatch.compareRandom(t, genInputs(1401, randomCount(baseRandom), genInplacePatch))
}
