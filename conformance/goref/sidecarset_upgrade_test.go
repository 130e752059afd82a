//go:build goref_overlay

// Differential test of sidecarset.next_upgrade against the reference's SidecarSet controller
// round (pkg/controller/sidecarset): the status calculateStatus gives (exported by the overlay),
// the gates of UpdateSidecarSet (isSidecarSetNotUpdate, updateStrategy.paused,
// isSidecarSetUpdateFinish), the pods NewStrategy().GetNextUpgradePods picks and marks not
// upgradable, the candidates in SortUpdateIndexes order, calculateUpgradeCount over them, and
// each pod's verdict from the sidecarcontrol predicates GetNextUpgradePods uses
// (IsPodSidecarUpdated, the update selector, IsSidecarSetUpgradable) and the candidate's position.
//
// Classified by the harness from the input: a HotUpgrade sidecar (kruise-core: unsupported) and
// a reference panic (a null in-place update state of the SidecarSet; kruise-core:
// invalid_annotation); a pod or SidecarSet that encoding/json refuses is invalid_input.
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/control/sidecarcontrol"
	"github.com/openkruise/kruise/pkg/controller/sidecarset"
	"github.com/openkruise/kruise/pkg/util"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
)

const fnSidecarSetNextUpgrade = "sidecarset.next_upgrade"

type nuInput struct {
	SidecarSet json.RawMessage   `json:"sidecarSet"`
	Pods       []json.RawMessage `json:"pods"`
}

type nuPod struct {
	Name       string `json:"name"`
	Reason     string `json:"reason"`
	Ready      bool   `json:"ready"`
	Consistent bool   `json:"consistent"`
}

type nuStatus struct {
	MatchedPods      int64 `json:"matchedPods"`
	UpdatedPods      int64 `json:"updatedPods"`
	ReadyPods        int64 `json:"readyPods"`
	UpdatedReadyPods int64 `json:"updatedReadyPods"`
}

type nuOut struct {
	Action             string   `json:"action"`
	UpgradePods        []string `json:"upgradePods"`
	NotUpgradablePods  []string `json:"notUpgradablePods"`
	Candidates         []string `json:"candidates"`
	UpgradeLimit       int64    `json:"upgradeLimit"`
	Partition          int64    `json:"partition"`
	MaxUnavailable     int64    `json:"maxUnavailable"`
	UpdatedUnavailable int64    `json:"updatedUnavailable"`
	Status             nuStatus `json:"status"`
	Pods               []nuPod  `json:"pods"`
}

func (o *nuOut) normalize() {
	for _, p := range []*[]string{&o.UpgradePods, &o.NotUpgradablePods, &o.Candidates} {
		if *p == nil {
			*p = []string{}
		}
	}
	if o.Pods == nil {
		o.Pods = []nuPod{}
	}
}

func podNames(pods []*corev1.Pod) []string {
	out := []string{}
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// refNextUpgrade answers the reference's round, or an error kind ("invalid_input",
// "unsupported", "invalid_annotation").
func refNextUpgrade(t testing.TB, raw []byte) (out nuOut, kind string) {
	t.Helper()
	var in nuInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return out, "invalid_input"
	}
	set := &appsv1beta1.SidecarSet{}
	if len(in.SidecarSet) > 0 {
		if err := json.Unmarshal(in.SidecarSet, set); err != nil {
			return out, "invalid_input"
		}
	}
	pods := make([]*corev1.Pod, len(in.Pods))
	for i, r := range in.Pods {
		pods[i] = &corev1.Pod{}
		if err := json.Unmarshal(r, pods[i]); err != nil {
			return out, "invalid_input"
		}
	}
	for _, c := range set.Spec.Containers {
		if c.UpgradeStrategy.UpgradeType == appsv1beta1.SidecarContainerHotUpgrade {
			return out, "unsupported"
		}
	}
	defer func() {
		if r := recover(); r != nil {
			out, kind = nuOut{}, "invalid_annotation"
		}
	}()
	control := sidecarcontrol.New(set)
	strategy := set.Spec.UpdateStrategy
	status := sidecarset.GorefCalculateStatus(control, pods)
	out.Status = nuStatus{int64(status.MatchedPods), int64(status.UpdatedPods), int64(status.ReadyPods), int64(status.UpdatedReadyPods)}
	switch {
	case sidecarset.GorefIsSidecarSetNotUpdate(set):
		out.Action = "notUpdate"
	case strategy.Paused:
		out.Action = "paused"
	case sidecarset.GorefIsSidecarSetUpdateFinish(status):
		out.Action = "finished"
	default:
		out.Action = "upgrade"
	}
	up, notUp := sidecarset.NewStrategy().GetNextUpgradePods(control, pods)
	if out.Action == "upgrade" {
		out.UpgradePods, out.NotUpgradablePods = podNames(up), podNames(notUp)
	}
	reasons := make([]string, len(pods))
	var wait []int
	for i, pod := range pods {
		if sidecarcontrol.IsPodSidecarUpdated(set, pod) {
			reasons[i] = "updated"
			continue
		}
		if strategy.Selector != nil {
			sel, err := util.ValidatedLabelSelectorAsSelector(strategy.Selector)
			if err != nil || !sel.Matches(labels.Set(pod.Labels)) {
				reasons[i] = "notSelected"
				continue
			}
		}
		canUpgrade, consistent := control.IsSidecarSetUpgradable(pod)
		switch {
		case !canUpgrade:
			reasons[i] = "notUpgradable"
		case !consistent:
			reasons[i] = "upgradeInFlight"
		default:
			wait = append(wait, i)
		}
	}
	order := sidecarset.SortUpdateIndexes(strategy, pods, wait)
	limit := sidecarset.GorefCalculateUpgradeCount(control, append([]int(nil), order...), pods)
	if len(up) != limit {
		t.Fatalf("GetNextUpgradePods picked %d pods, calculateUpgradeCount says %d\n%s", len(up), limit, raw)
	}
	if strategy.Partition != nil {
		total := int32(len(pods))
		p, _ := util.CalculatePartitionReplicas(strategy.Partition, &total)
		out.Partition = int64(p)
	}
	out.MaxUnavailable = 1
	if strategy.MaxUnavailable != nil {
		m, _ := intstrutil.GetValueFromIntOrPercent(strategy.MaxUnavailable, len(pods), true)
		out.MaxUnavailable = int64(m)
	}
	for _, pod := range pods {
		if sidecarcontrol.IsPodSidecarUpdated(set, pod) && (!control.IsPodStateConsistent(pod, nil) || !control.IsPodReady(pod)) {
			out.UpdatedUnavailable++
		}
	}
	eligible := len(order) - int(out.Partition)
	for pos, i := range order {
		out.Candidates = append(out.Candidates, pods[i].Name)
		switch {
		case pos >= eligible:
			reasons[i] = "partition"
		case pos >= limit:
			reasons[i] = "maxUnavailable"
		case out.Action == "notUpdate" || out.Action == "paused":
			reasons[i] = out.Action
		default:
			reasons[i] = "upgrade"
		}
	}
	out.UpgradeLimit = int64(limit)
	for i, pod := range pods {
		out.Pods = append(out.Pods, nuPod{pod.Name, reasons[i], control.IsPodReady(pod), control.IsPodStateConsistent(pod, nil)})
	}
	out.normalize()
	return out, ""
}

func compareNextUpgrade(t *testing.T, r *tally, label string, raw []byte) (nuOut, string) {
	t.Helper()
	r.total++
	want, wantKind := refNextUpgrade(t, raw)
	got, kind, err := answer(fnSidecarSetNextUpgrade, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if wantKind != "" || kind != "" {
		if wantKind == kind {
			r.agreeError++
		} else {
			r.fail("%s: kruise-core error %q %s, reference error %q %+v\n%s", label, kind, got, wantKind, want, raw)
		}
		return want, wantKind
	}
	var out nuOut
	mustDecode(t, got, &out, "output")
	out.normalize()
	if !reflect.DeepEqual(out, want) {
		w, _ := json.Marshal(want)
		r.fail("%s: kruise-core %s, reference %s\n%s", label, got, w, raw)
		return want, ""
	}
	r.agreeValue++
	return want, ""
}

func TestSidecarsetNextUpgradeVectorsReference(t *testing.T) {
	var ref tally
	for _, c := range loadVectors(t, "sidecarset_next_upgrade", fnSidecarSetNextUpgrade) {
		withVectorAnswer(c, func() { compareNextUpgrade(t, &ref, "reference vs vector "+c.Name, c.Input) })
	}
	ref.report(t, "sidecarset.next_upgrade vectors: reference vs vector")
}

func TestSidecarsetNextUpgradeVectors(t *testing.T) {
	cases := loadVectors(t, "sidecarset_next_upgrade", fnSidecarSetNextUpgrade)
	requireFn(t, fnSidecarSetNextUpgrade, json.RawMessage(cases[0].Input))
	var diff tally
	for _, c := range cases {
		compareNextUpgrade(t, &diff, c.Name, c.Input)
	}
	diff.report(t, "sidecarset.next_upgrade vectors: reference vs kruise-core")
}

const nuDigest = "sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"
const nuDigest2 = "sha256:b9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"

// genNextUpgrade draws one round: a SidecarSet with 1-2 sidecars and every update-strategy knob
// (partition and maxUnavailable ints, percents and unreadable strings; selectors incl. an unknown
// operator; weight and order priorities; scatter terms with values, "*" and ""), and 0-12 pods
// (sometimes up to 24, then with distinct creation times: Go's sort.Slice is not stable above
// 12) whose records are updated, old, unreadable, in the older map form or missing, with tag or
// digest images, statuses consistent or not, in-place update states, readiness, phases, nodes,
// restarts and deletion.
func genNextUpgrade(rng *rand.Rand) []byte {
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	sidecars := []string{"sidecar"}
	if rng.IntN(4) == 0 {
		sidecars = append(sidecars, "sidecar2")
	}
	var scs []any
	for _, s := range sidecars {
		c := map[string]any{"name": s, "image": "sidecar:v2"}
		if rng.IntN(150) == 0 {
			c["upgradeStrategy"] = map[string]any{"upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": "empty:1"}
		}
		scs = append(scs, c)
	}
	us := map[string]any{}
	if rng.IntN(25) == 0 {
		us["type"] = "NotUpdate"
	} else if rng.IntN(3) == 0 {
		us["type"] = "RollingUpdate"
	}
	if rng.IntN(25) == 0 {
		us["paused"] = true
	}
	if rng.IntN(2) == 0 {
		us["partition"] = pick(0, 1, 2, 3, -1, 30, "0%", "20%", "50%", "99%", "100%", "150%", "x%", "5")
	}
	if rng.IntN(4) > 0 {
		us["maxUnavailable"] = pick(0, 1, 1, 2, 3, 5, 100, -1, "0%", "10%", "34%", "50%", "100%", "2", "x%", "5%%")
	}
	switch rng.IntN(8) {
	case 0:
		us["selector"] = map[string]any{"matchLabels": map[string]any{"app": "a"}}
	case 1:
		us["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "NotIn", "values": []any{"b"}}}}
	case 2:
		us["selector"] = pick(map[string]any{}, map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "Bad"}}},
			map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "In"}}})
	}
	switch rng.IntN(6) {
	case 0:
		us["priorityStrategy"] = map[string]any{"weightPriority": []any{
			map[string]any{"weight": pick(10, 50, -5), "matchSelector": map[string]any{"matchLabels": map[string]any{"app": "a"}}},
			map[string]any{"weight": pick(5, 50, 0), "matchSelector": pick(map[string]any{}, map[string]any{"matchLabels": map[string]any{"zone": "z1"}},
				map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": "Bad"}}})},
		}}
	case 1:
		us["priorityStrategy"] = map[string]any{"orderPriority": pick(
			[]any{map[string]any{"orderedKey": "rank"}},
			[]any{map[string]any{"orderedKey": "rank"}, map[string]any{"orderedKey": "app"}},
		)}
	case 2:
		us["priorityStrategy"] = map[string]any{}
	}
	switch rng.IntN(7) {
	case 0:
		us["scatterStrategy"] = []any{map[string]any{"key": "zone", "value": "z1"}}
	case 1:
		us["scatterStrategy"] = []any{map[string]any{"key": "zone", "value": "*"}}
	case 2:
		us["scatterStrategy"] = []any{map[string]any{"key": "zone", "value": "z1"}, map[string]any{"key": "app", "value": "a"}}
	case 3:
		us["scatterStrategy"] = pick([]any{map[string]any{"key": "app", "value": ""}}, []any{map[string]any{"key": "app", "value": "*"}, map[string]any{"key": "zone", "value": "*"}})
	}
	setAnn := map[string]any{"kruise.io/sidecarset-hash": "new", "kruise.io/sidecarset-hash-without-image": "wo-1"}
	if rng.IntN(40) == 0 {
		delete(setAnn, "kruise.io/sidecarset-hash")
	}
	set := map[string]any{"apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet",
		"metadata": map[string]any{"name": "set", "annotations": setAnn},
		"spec":     map[string]any{"containers": scs, "updateStrategy": us}}

	n := rng.IntN(13)
	if rng.IntN(8) == 0 {
		n = 13 + rng.IntN(12)
	}
	distinct := n > 12 || rng.IntN(2) == 0
	allUpdated := rng.IntN(15) == 0
	var pods []any
	for i := 0; i < n; i++ {
		lab := map[string]any{}
		if rng.IntN(6) > 0 {
			lab["app"] = pick("a", "a", "b", "c")
		}
		if rng.IntN(5) > 0 {
			lab["zone"] = pick("z1", "z1", "z2", "z3")
		}
		if rng.IntN(3) > 0 {
			lab["rank"] = pick("r-1", "r-2", "r-10", "x", "7", "r-99999999999999999999")
		}
		hash := pick("new", "old", "old", "old").(string)
		if allUpdated {
			hash = "new"
		}
		ann := map[string]any{}
		switch rng.IntN(20) {
		case 0: // no record
		case 1:
			ann["kruise.io/sidecarset-hash"] = "{"
		case 2:
			ann["kruise.io/sidecarset-hash"] = fmt.Sprintf(`{"set":%q}`, hash)
		case 3:
			ann["kruise.io/sidecarset-hash"] = `{"other":{"hash":"new"}}`
		default:
			ann["kruise.io/sidecarset-hash"] = fmt.Sprintf(`{"set":{"hash":%q,"sidecarSetName":"set","sidecarList":["sidecar"]}}`, hash)
		}
		switch rng.IntN(12) {
		case 0:
		case 1:
			ann["kruise.io/sidecarset-hash-without-image"] = `{"set":{"hash":"wo-2"}}`
		default:
			ann["kruise.io/sidecarset-hash-without-image"] = `{"set":{"hash":"wo-1"}}`
		}
		digest := rng.IntN(4) == 0
		img := func(v string) string {
			if digest {
				return "sidecar@" + pick(nuDigest, nuDigest2).(string)
			}
			return "sidecar:" + v
		}
		specImg := map[string]string{}
		var containers, statuses []any
		containers = append(containers, map[string]any{"name": "main", "image": "nginx:1"})
		statuses = append(statuses, map[string]any{"name": "main", "image": "nginx:1", "imageID": "docker-pullable://nginx@" + nuDigest, "ready": rng.IntN(6) > 0, "restartCount": pick(0, 0, 1, 3)})
		for _, s := range sidecars {
			si := img(pick("v1", "v2").(string))
			specImg[s] = si
			containers = append(containers, map[string]any{"name": s, "image": si})
			if rng.IntN(15) == 0 {
				continue // a missing status
			}
			stImg := si
			if rng.IntN(4) == 0 {
				stImg = img(pick("v1", "v2").(string))
			}
			id := pick("docker-pullable://sidecar@"+nuDigest, "sidecar@"+nuDigest2, "docker://x://sidecar@"+nuDigest, "id-old", "id-new").(string)
			statuses = append(statuses, map[string]any{"name": s, "image": stImg, "imageID": id, "ready": rng.IntN(4) > 0, "restartCount": pick(0, 0, 2)})
		}
		switch rng.IntN(10) {
		case 0:
			ann["kruise.io/sidecarset-inplace-update-state"] = fmt.Sprintf(`{"set":{"revision":"old","updateTimestamp":"2024-01-01T00:00:00Z","lastContainerStatuses":{"sidecar":{"imageID":%q}}}}`, pick("id-old", "id-new", "docker-pullable://sidecar@"+nuDigest))
		case 1:
			ann["kruise.io/sidecarset-inplace-update-state"] = pick("{", "", "null", `{"other":{"lastContainerStatuses":{"sidecar":{"imageID":"id-old"}}}}`, `{"set":{"lastContainerStatuses":{"sidecar":{"imageID":1}}}}`)
		case 2:
			if rng.IntN(10) == 0 {
				ann["kruise.io/sidecarset-inplace-update-state"] = `{"set":null}`
			}
		}
		created := fmt.Sprintf("2024-01-01T00:%02d:00Z", pick(0, 1, 2).(int))
		if distinct {
			created = fmt.Sprintf("2024-01-01T%02d:%02d:00Z", rng.IntN(24), i)
		}
		meta := map[string]any{"name": fmt.Sprintf("pod-%d", i), "labels": lab, "annotations": ann, "creationTimestamp": created}
		if rng.IntN(30) == 0 {
			meta["deletionTimestamp"] = "2024-02-01T00:00:00Z"
		}
		spec := map[string]any{"containers": containers}
		if rng.IntN(8) > 0 {
			spec["nodeName"] = "node-1"
		}
		var conds []any
		if rng.IntN(8) > 0 {
			conds = append(conds, map[string]any{"type": "Ready", "status": pick("True", "True", "True", "False"), "lastTransitionTime": pick("2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z")})
		}
		status := map[string]any{"phase": pick("Running", "Running", "Running", "Running", "Pending", "Unknown", ""), "conditions": conds, "containerStatuses": statuses}
		if rng.IntN(100) == 0 {
			meta["creationTimestamp"] = "yesterday"
		}
		pods = append(pods, map[string]any{"metadata": meta, "spec": spec, "status": status})
	}
	raw, _ := json.Marshal(map[string]any{"sidecarSet": set, "pods": pods})
	return raw
}

func TestSidecarsetNextUpgradeRandom(t *testing.T) {
	requireFn(t, fnSidecarSetNextUpgrade, map[string]any{"sidecarSet": map[string]any{}})
	rng := rand.New(rand.NewPCG(14, 1))
	var r tally
	for i := 0; i < randomCount(3000); i++ {
		compareNextUpgrade(t, &r, fmt.Sprintf("random #%d", i), genNextUpgrade(rng))
	}
	r.report(t, "sidecarset.next_upgrade random")
}

// TestSidecarsetNextUpgradeRandomCoverage checks (reference only) that the generator reaches
// every action, every pod reason and every error kind.
func TestSidecarsetNextUpgradeRandomCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	seen := map[string]int{}
	for i := 0; i < randomCount(3000); i++ {
		o, kind := refNextUpgrade(t, genNextUpgrade(rng))
		if kind != "" {
			seen["error "+kind]++
			continue
		}
		seen["action "+o.Action]++
		for _, p := range o.Pods {
			seen["reason "+p.Reason]++
		}
		if len(o.UpgradePods) > 1 {
			seen["several upgraded"]++
		}
		if len(o.NotUpgradablePods) > 0 {
			seen["not upgradable marked"]++
		}
	}
	t.Logf("sidecarset.next_upgrade outcomes: %v", seen)
	for _, want := range []string{"action notUpdate", "action paused", "action finished", "action upgrade",
		"reason upgrade", "reason updated", "reason notSelected", "reason notUpgradable", "reason upgradeInFlight",
		"reason partition", "reason maxUnavailable", "reason notUpdate", "reason paused", "several upgraded",
		"not upgradable marked", "error invalid_input", "error unsupported", "error invalid_annotation"} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
}
