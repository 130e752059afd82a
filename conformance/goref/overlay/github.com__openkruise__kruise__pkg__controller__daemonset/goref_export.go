//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the DaemonSet rolling-update budget and node ordering for the
// differential tests.

package daemonset

import (
	corev1 "k8s.io/api/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefUpdatedDesiredNodeCounts is updatedDesiredNodeCounts (maxSurge, maxUnavailable, error).
func GorefUpdatedDesiredNodeCounts(ds *appsv1beta1.DaemonSet, nodeList []*corev1.Node, nodeToDaemonPods map[string][]*corev1.Pod) (int, int, error) {
	return (&ReconcileDaemonSet{}).updatedDesiredNodeCounts(ds, nodeList, nodeToDaemonPods)
}

// GorefFilterDaemonPodsNodeToUpdate is filterDaemonPodsNodeToUpdate with nodes read from lister.
func GorefFilterDaemonPodsNodeToUpdate(ds *appsv1beta1.DaemonSet, hash string, nodeToDaemonPods map[string][]*corev1.Pod, lister corelisters.NodeLister) ([]string, error) {
	return (&ReconcileDaemonSet{nodeLister: lister}).filterDaemonPodsNodeToUpdate(ds, hash, nodeToDaemonPods)
}
