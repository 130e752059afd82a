//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the pieces of updateDaemonSetStatus for the differential test of
// rollout.daemonset_status.

package daemonset

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	kruiseclientset "github.com/openkruise/kruise/pkg/client/clientset/versioned"
)

// GorefNodeShouldRunDaemonPod is nodeShouldRunDaemonPod (shouldRun, shouldContinueRunning).
func GorefNodeShouldRunDaemonPod(node *corev1.Node, ds *appsv1beta1.DaemonSet) (bool, bool) {
	return nodeShouldRunDaemonPod(node, ds)
}

// GorefSortDaemonPods sorts pods as updateDaemonSetStatus does (podByCreationTimestampAndPhase).
func GorefSortDaemonPods(pods []*corev1.Pod) {
	sort.Sort(podByCreationTimestampAndPhase(pods))
}

// GorefIsDaemonPodAvailable is isDaemonPodAvailable.
func GorefIsDaemonPodAvailable(pod *corev1.Pod, minReadySeconds int32, now metav1.Time) bool {
	return isDaemonPodAvailable(pod, minReadySeconds, now)
}

// GorefStoreDaemonSetStatus is storeDaemonSetStatus writing through client.
func GorefStoreDaemonSetStatus(client kruiseclientset.Interface, ds *appsv1beta1.DaemonSet,
	desired, current, misscheduled, ready, updated, available, unavailable int, updateObservedGen bool, hash string) error {
	return (&ReconcileDaemonSet{kruiseClient: client}).storeDaemonSetStatus(context.TODO(), ds,
		desired, current, misscheduled, ready, updated, available, unavailable, updateObservedGen, hash)
}
