//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package workloadspread

import (
	"sort"
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GorefClock, when set, is the time the package's time.Now() calls read (see clock.list).
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefFakeSubsetName exports FakeSubsetName.
const GorefFakeSubsetName = FakeSubsetName

// GorefPass runs the steps of syncWorkloadSpread after the pod listing: groupVersionedPods, the
// deletion costs (updateDeletionCostBySubset per version, latestVersion given instead of read
// from the workload, as updateDeletionCost does) and calculateWorkloadSpreadStatus; it returns
// the status, the per-subset pods, the pods to delete and the requeue the duration store holds.
// The per-subset pods are joined version by version in sorted version order: groupVersionedPods
// joins them in Go's random map order, which shows in missingReplicas when deleting pods meet a
// full subset; the sorted order is one of the orders it picks, and the one kruise-core takes.
func GorefPass(c client.Client, ws *appsv1beta1.WorkloadSpread, pods []*corev1.Pod, replicas int32, latestVersion string) (
	*appsv1beta1.WorkloadSpreadStatus, map[string][]*corev1.Pod, map[string][]*corev1.Pod, time.Duration, error) {
	r := &ReconcileWorkloadSpread{Client: c, recorder: record.NewFakeRecorder(100000)}
	key := getWorkloadSpreadKey(ws)
	durationStore.Pop(key)
	versionedPodMap, _, err := r.groupVersionedPods(ws, pods, replicas)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	versions := make([]string, 0, len(versionedPodMap))
	for v := range versionedPodMap {
		versions = append(versions, v)
	}
	sort.Strings(versions)
	subsetPodMap := map[string][]*corev1.Pod{}
	for _, v := range versions {
		for subset, ps := range versionedPodMap[v] {
			subsetPodMap[subset] = append(subsetPodMap[subset], ps...)
		}
	}
	if ws.Spec.TargetReference != nil && isEffectiveKindForDeletionCost(ws.Spec.TargetReference) {
		for version, podMap := range versionedPodMap {
			if err := r.updateDeletionCostBySubset(ws, podMap, replicas, version != latestVersion); err != nil {
				return nil, nil, nil, 0, err
			}
		}
	}
	status, failed := r.calculateWorkloadSpreadStatus(ws, versionedPodMap, subsetPodMap, replicas)
	return status, subsetPodMap, failed, durationStore.Pop(key), nil
}
