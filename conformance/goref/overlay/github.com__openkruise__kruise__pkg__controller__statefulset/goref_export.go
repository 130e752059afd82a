//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports sortPodsToUpdate for the differential tests.

package statefulset

import (
	v1 "k8s.io/api/core/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefSortPodsToUpdate is sortPodsToUpdate.
func GorefSortPodsToUpdate(rollingUpdateStrategy *appsv1beta1.RollingUpdateStatefulSetStrategy, updateRevision string, totalReplicas int32, replicas []*v1.Pod) []int {
	return sortPodsToUpdate(rollingUpdateStrategy, updateRevision, totalReplicas, replicas)
}
