//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise. A thin export of the pod webhook's SidecarSet step, and the settable clock that
// replaces metav1.Now() in the files named in clock.list.

package mutating

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// GorefClock, when set, is what metav1.Now() reads in the files of clock.list.
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefSidecarsetMutatingPod runs (*PodCreateHandler).sidecarsetMutatingPod.
func GorefSidecarsetMutatingPod(h *PodCreateHandler, ctx context.Context, req admission.Request, pod *corev1.Pod) (bool, error) {
	return h.sidecarsetMutatingPod(ctx, req, pod)
}
