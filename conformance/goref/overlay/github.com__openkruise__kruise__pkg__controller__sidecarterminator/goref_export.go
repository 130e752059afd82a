//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package sidecarterminator

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GorefNewReconciler builds the reconciler around a client and an event recorder.
func GorefNewReconciler(c client.Client, rec record.EventRecorder) *ReconcileSidecarTerminator {
	return &ReconcileSidecarTerminator{Client: c, recorder: rec}
}

// GorefIsInterestingPod exports isInterestingPod.
func GorefIsInterestingPod(pod *corev1.Pod) bool { return isInterestingPod(pod) }
