//go:build goref_overlay

// Differential test of rollout.inplace_refresh against OpenKruise's pkg/util/inplaceupdate
// itself: the exported Refresh of the real control (NewForTypedClient over a fake clientset that
// holds the pod, with the CloneSet's revision adapter clonesetutils.RevisionAdapterImpl and the
// package's settable Clock, which the overlay also makes finishGracePeriod's time.Since read),
// its options defaulted by SetOptionsDefaults. The server version is learnt as in the
// rollout.inplace_pod_patch test (NewRegistry against a local /version), the resize patch
// captured by a reactor. What Refresh did is read from the writes the fake clientset saw (a pod
// update, a status update, none) and the reference's own EqualToRevisionHash for a grace spec.
package goref

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
)

type refreshIn struct {
	Pod           json.RawMessage `json:"pod"`
	Now           string          `json:"now"`
	FeatureGates  map[string]bool `json:"featureGates"`
	ServerVersion *string         `json:"serverVersion"`
}

// refreshUnsupported mirrors the fn's refusals of annotation content it does not read
// (containerRefMetadata members other than labels/annotations, resources claims, stored
// templates, metadata patches beyond labels/annotations).
func refreshUnsupported(pod *corev1.Pod) string {
	check := func(m map[string]json.RawMessage, key string) string {
		raw, ok := m[key]
		if !ok || string(raw) == "null" {
			return ""
		}
		var per map[string]map[string]json.RawMessage
		if json.Unmarshal(raw, &per) != nil {
			return ""
		}
		for _, v := range per {
			for k, x := range v {
				switch {
				case key == "nextContainerRefMetadata" || key == "containerRefMetadata":
					if k != "labels" && k != "annotations" && !(k == "creationTimestamp" && string(x) == "null") {
						return "unsupported"
					}
				default:
					if k != "limits" && k != "requests" && !(k == "claims" && string(x) == "null") {
						return "unsupported"
					}
				}
			}
		}
		return ""
	}
	if g, ok := appspub.GetInPlaceUpdateGrace(pod); ok && g != "" {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(g), &m) == nil {
			for _, k := range []string{"containerRefMetadata", "containerResources"} {
				if u := check(m, k); u != "" {
					return u
				}
			}
			for _, k := range []string{"oldTemplate", "newTemplate"} {
				if raw, ok := m[k]; ok && string(raw) != "null" {
					return "unsupported"
				}
			}
			if raw, ok := m["metaDataPatch"]; ok && string(raw) != "null" {
				var b64 string
				if json.Unmarshal(raw, &b64) == nil {
					if b, err := base64.StdEncoding.DecodeString(b64); err == nil && len(b) > 0 {
						if k := patchSupported(b); k == "unsupported" {
							return k
						}
					}
				}
			}
		}
		return ""
	}
	if s, ok := appspub.GetInPlaceUpdateState(pod); ok {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &m) == nil {
			for _, k := range []string{"nextContainerRefMetadata", "nextContainerResources"} {
				if u := check(m, k); u != "" {
					return u
				}
			}
		}
	}
	return ""
}

func isDecodeErr(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var pe *time.ParseError
	var ce base64.CorruptInputError
	return errors.As(err, &se) || errors.As(err, &te) || errors.As(err, &pe) || errors.As(err, &ce) ||
		strings.Contains(err.Error(), "not found") || strings.HasPrefix(err.Error(), "quantities must match") ||
		strings.Contains(err.Error(), "unexpected end of JSON input") || strings.Contains(err.Error(), "invalid JSON document")
}

func refInplaceRefresh(in json.RawMessage) (o refOutcome) {
	var i refreshIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(in, &top); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	for k := range top {
		switch k {
		case "pod", "now", "featureGates", "serverVersion":
		default:
			return refOutcome{kind: "invalid_input"}
		}
	}
	for k := range i.FeatureGates {
		if k != "InPlaceWorkloadVerticalScaling" && k != "CloneSetShortHash" {
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
	if k := refreshUnsupported(&pod); k != "" {
		return refOutcome{kind: k}
	}
	setPatchGates(i.FeatureGates)
	inplaceupdate.Clock = clocktesting.NewFakeClock(now)
	setServerVersion(major, minor)
	defer func() {
		if p := recover(); p != nil {
			o = refOutcome{kind: "invalid_input", label: "invalid_input/reference-panics"}
		}
	}()
	client := fake.NewSimpleClientset(pod.DeepCopy())
	var resizePatches [][]byte
	var writes []string
	client.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if p, ok := a.(k8stesting.PatchAction); ok && a.GetSubresource() == "resize" {
			resizePatches = append(resizePatches, append([]byte(nil), p.GetPatch()...))
		}
		return false, nil, nil
	})
	client.PrependReactor("update", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		writes = append(writes, a.GetSubresource())
		return false, nil, nil
	})
	ctrl := inplaceupdate.NewForTypedClient(client, clonesetutils.RevisionAdapterImpl)
	grace, _ := appspub.GetInPlaceUpdateGrace(&pod)
	res := ctrl.Refresh(pod.DeepCopy(), &inplaceupdate.UpdateOptions{})
	if res.RefreshErr != nil {
		if isDecodeErr(res.RefreshErr) {
			return refOutcome{kind: "invalid_annotation"}
		}
		return refOutcome{kind: "unmapped: " + res.RefreshErr.Error()}
	}
	if len(resizePatches) > 1 || len(writes) > 1 {
		return refOutcome{kind: "unmapped: more than one write"}
	}
	var resizePatch any
	if len(resizePatches) == 1 {
		if err := json.Unmarshal(resizePatches[0], &resizePatch); err != nil {
			return refOutcome{kind: "unmapped: resize patch not JSON"}
		}
	}
	got, err := client.CoreV1().Pods(pod.Namespace).Get(context.TODO(), pod.Name, metav1.GetOptions{})
	if err != nil {
		return refOutcome{kind: "unmapped: " + err.Error()}
	}
	action := "Nothing"
	switch {
	case res.DelayDuration > 0:
		action = "GracePending"
	case grace != "" && len(writes) == 1:
		var spec inplaceupdate.UpdateSpec
		_ = json.Unmarshal([]byte(grace), &spec)
		if clonesetutils.EqualToRevisionHash("", &pod, spec.Revision) {
			action = "GraceFinished"
		} else {
			action = "GraceDropped"
		}
	case len(writes) == 1 && writes[0] == "status":
		action = "Ready"
	case len(writes) == 1:
		action = "NextBatch"
	}
	var podV any
	final := &pod
	if len(writes) == 1 {
		final = got
		if err := json.Unmarshal(mustJSON(got), &podV); err != nil {
			panic(err)
		}
	}
	var state any
	if s, ok := appspub.GetInPlaceUpdateState(final); ok {
		if json.Unmarshal([]byte(s), &state) != nil {
			state = nil
		}
	}
	containers := []string{}
	if action == "GraceFinished" || action == "NextBatch" {
		var st appspub.InPlaceUpdateState
		s, _ := appspub.GetInPlaceUpdateState(final)
		if err := json.Unmarshal([]byte(s), &st); err == nil {
			if n := len(st.ContainerBatchesRecord); n > 0 && st.ContainerBatchesRecord[n-1].Containers != nil {
				containers = st.ContainerBatchesRecord[n-1].Containers
			}
		}
	}
	v := map[string]any{
		"action":              action,
		"pod":                 podV,
		"state":               state,
		"containers":          containers,
		"requeueAfterSeconds": int64(res.DelayDuration / time.Second),
	}
	if resizePatch != nil {
		v["resizePatch"] = resizePatch
	}
	o.value = v
	o.label = action
	if resizePatch != nil {
		o.label += "/resize"
	}
	return o
}

// projectInplaceRefresh drops the reason (the reference has none) and passes the pod through
// corev1.Pod, as the reference's was.
func projectInplaceRefresh(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	delete(m, "reason")
	if m["pod"] != nil {
		if p, err := roundTripPod(m["pod"]); err == nil {
			m["pod"] = p
		}
	}
	return m
}

var diffInplaceRefresh = diffFn{family: "rollout", fn: "rollout.inplace_refresh", ref: refInplaceRefresh, project: projectInplaceRefresh}

// ---- generator ----

func genInplaceRefresh(g *gen) any {
	names := []string{"app", "sidecar", "log"}
	nc := 1 + g.n(3)
	base := time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC)
	now := base
	if g.chance(6) {
		now = now.Add(500 * time.Millisecond)
	}
	containers := []any{}
	statuses := []any{}
	for ci := 0; ci < nc; ci++ {
		name := names[ci]
		c := map[string]any{"name": name, "image": g.pick("img:v2", "img:v1", "img")}
		if g.chance(2) {
			c["env"] = []any{map[string]any{"name": "KRUISE_CONTAINER_BARRIER", "valueFrom": map[string]any{"configMapKeyRef": map[string]any{"name": "b", "key": g.pick("p_10", "p_0", "p_5")}}}}
		}
		res := map[string]any{"limits": map[string]any{"cpu": g.pick("1", "2")}, "requests": map[string]any{"cpu": g.pick("1", "500m"), "memory": "1Gi"}}
		c["resources"] = res
		containers = append(containers, c)
		if !g.chance(8) {
			st := map[string]any{"name": name, "image": g.pick(c["image"].(string), "img:v1"), "imageID": g.pick("sha256:new", "sha256:old"), "ready": g.n(4) > 0}
			if g.bool() {
				st["resources"] = res
			}
			statuses = append(statuses, st)
		}
	}
	hash := g.pick("demo-5d8f", "demo-abc")
	labels := map[string]any{"app": "demo", "controller-revision-hash": hash}
	ann := map[string]any{}
	ts := func() any {
		switch g.n(6) {
		case 0:
			return nil
		case 1:
			return base.Add(-5 * time.Second).Format(time.RFC3339)
		case 2:
			return base.Add(10 * time.Second).Format(time.RFC3339)
		case 3:
			return "2026-06-21T09:59:57.5Z"
		default:
			return base.Add(-60 * time.Second).Format(time.RFC3339)
		}
	}
	state := map[string]any{"revision": hash, "updateTimestamp": ts()}
	if g.bool() {
		last := map[string]any{}
		for _, n := range names[:nc] {
			if g.bool() {
				last[n] = map[string]any{"imageID": g.pick("sha256:old", "sha256:new")}
			}
		}
		state["lastContainerStatuses"] = last
		state["updateImages"] = true
	}
	if g.chance(3) {
		state["updateResources"] = true
	}
	if g.chance(5) {
		state["updateEnvFromMetadata"] = true
	}
	if g.bool() {
		ni := map[string]any{}
		nr := map[string]any{}
		nm := map[string]any{}
		for _, n := range names[:nc] {
			switch g.n(4) {
			case 0:
				ni[n] = g.pick("img:v3", "img:v2")
			case 1:
				nr[n] = map[string]any{"limits": map[string]any{"cpu": g.pick("4", "2")}, "requests": map[string]any{"cpu": "2"}}
			case 2:
				// one value per key: which container's value wins is Go's map order otherwise
				nm[n] = map[string]any{"labels": map[string]any{"k": "v"}}
			}
		}
		if len(nr) > 0 && len(ni) == 0 && g.n(3) > 0 {
			ni[names[0]] = "img:v3"
		}
		if len(ni) > 0 {
			state["nextContainerImages"] = ni
		}
		if len(nr) > 0 {
			state["nextContainerResources"] = nr
		}
		if len(nm) > 0 {
			state["nextContainerRefMetadata"] = nm
		}
		if g.n(4) > 0 {
			state["preCheckBeforeNext"] = map[string]any{"containersRequiredReady": []any{g.pick("app", "sidecar", "ghost")}}
		}
		state["containerBatchesRecord"] = []any{map[string]any{"timestamp": ts(), "containers": []any{"app"}}}
	}
	switch g.n(14) {
	case 0:
	case 1:
		ann["apps.kruise.io/inplace-update-state"] = g.pick("{bad", `{"revision":1}`, `[]`, `null`, `{"updateTimestamp":"yesterday"}`, `{"nextContainerResources":{"app":{"limits":{"cpu":"x"}}}}`)
	case 2:
		ann["inplace-update-state"] = string(mustJSON(state))
	default:
		ann["apps.kruise.io/inplace-update-state"] = string(mustJSON(state))
	}
	if g.chance(3) {
		spec := map[string]any{"revision": g.pick(hash, "demo-other", "x-"+strings.TrimPrefix(hash, "demo-")), "graceSeconds": g.pick2(0, 5, 30, 60, -1)}
		if g.bool() {
			spec["containerImages"] = map[string]any{"app": "img:v9"}
		}
		if g.chance(3) {
			spec["containerResources"] = map[string]any{names[g.n(nc)]: map[string]any{"limits": map[string]any{"cpu": "3"}, "requests": map[string]any{"memory": "2Gi"}}}
		}
		if g.chance(4) {
			spec["metaDataPatch"] = base64.StdEncoding.EncodeToString([]byte(`{"metadata":{"labels":{"new":"n"}}}`))
		}
		if g.chance(4) {
			spec["updateEnvFromMetadata"] = true
		}
		key := "apps.kruise.io/inplace-update-grace"
		if g.chance(8) {
			key = "inplace-update-grace"
		}
		switch g.n(12) {
		case 0:
			ann[key] = ""
		case 1:
			ann[key] = g.pick("{bad", `{"graceSeconds":"x"}`, `{"metaDataPatch":"%%"}`)
		default:
			ann[key] = string(mustJSON(spec))
		}
	}
	spec := map[string]any{"containers": containers}
	if g.n(4) > 0 {
		spec["readinessGates"] = []any{map[string]any{"conditionType": "InPlaceUpdateReady"}}
	}
	conds := []any{}
	if g.n(3) > 0 {
		c := map[string]any{"type": "InPlaceUpdateReady", "status": g.pick("False", "True", "True"), "lastTransitionTime": "2026-06-21T09:00:00Z"}
		if c["status"] == "False" || g.chance(5) {
			c["reason"] = "StartInPlaceUpdate"
		}
		conds = append(conds, c)
	}
	if g.bool() {
		conds = append(conds, map[string]any{"type": "Ready", "status": g.pick("True", "False"), "lastTransitionTime": "2026-06-21T09:00:00Z"})
	}
	in := map[string]any{
		"pod": map[string]any{
			"metadata": map[string]any{"name": "pod-0", "namespace": "default", "labels": labels, "annotations": ann},
			"spec":     spec,
			"status":   map[string]any{"conditions": conds, "containerStatuses": statuses},
		},
		"now": now.Format(time.RFC3339Nano),
	}
	gates := map[string]any{}
	if g.bool() {
		gates["InPlaceWorkloadVerticalScaling"] = g.n(3) > 0
	}
	in["featureGates"] = gates
	if g.n(3) > 0 {
		in["serverVersion"] = g.pick("v1.32.3", "v1.31.2", "v1.34.0-eks-1")
	}
	if g.chance(60) {
		in["now"] = "soon"
	}
	return in
}

func TestRolloutInplaceRefreshVectorsReference(t *testing.T) {
	diffInplaceRefresh.checkVectorsReference(t, "rollout_inplace_refresh")
}

func TestRolloutInplaceRefreshVectors(t *testing.T) {
	requireFn(t, diffInplaceRefresh.fn, map[string]any{"pod": map[string]any{}, "now": "2026-01-01T00:00:00Z"})
	diffInplaceRefresh.compareVectors(t, "rollout_inplace_refresh")
}

func TestRolloutInplaceRefreshRandomCoverage(t *testing.T) {
	diffInplaceRefresh.checkCoverage(t, genInputs(1402, randomCount(baseRandom), genInplaceRefresh), 10,
		"Nothing", "GracePending", "GraceFinished", "GraceDropped", "GraceFinished/resize", "NextBatch", "Ready",
		"invalid_annotation", "invalid_input")
}

func TestRolloutInplaceRefreshRandom(t *testing.T) {
	requireFn(t, diffInplaceRefresh.fn, map[string]any{"pod": map[string]any{}, "now": "2026-01-01T00:00:00Z"})
	diffInplaceRefresh.compareRandom(t, genInputs(1402, randomCount(baseRandom), genInplaceRefresh))
}

var _ = fmt.Sprintf
