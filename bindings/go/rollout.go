package kruisecore

// ScaleMode picks which of OpenKruise's three int-or-percent parsers reads a string.
type ScaleMode string

const (
	// ScaleModeScaled is apimachinery GetScaledValueFromIntOrPercent: must end in "%", integer
	// before it (Advanced DaemonSet).
	ScaleModeScaled ScaleMode = "scaled"
	// ScaleModeLegacy is apimachinery GetValueFromIntOrPercent: every "%" deleted, then an integer
	// (CloneSet maxSurge/maxUnavailable, Advanced StatefulSet).
	ScaleModeLegacy ScaleMode = "legacy"
	// ScaleModeKruise is OpenKruise's float parser in pkg/util/tools.go (CloneSet partition and
	// webhook).
	ScaleModeKruise ScaleMode = "kruise"
)

// scaleViaCall is ScaleIntOrPercent through the generated RolloutScaleIntOrPercent (JSON).
func scaleViaCall(v *IntOrPercent, total int64, roundUp bool, mode ScaleMode) (int64, error) {
	return RolloutScaleIntOrPercent(RolloutScaleIntOrPercentInput{Value: v, Total: total, RoundUp: roundUp, Mode: RolloutFlavour(mode)})
}

// Partition is a resolved partition: pods (or nodes) kept on the old revision, and how many may be
// on the update revision.
type Partition struct {
	Partition  int64 `json:"partition"`
	MaxUpdated int64 `json:"maxUpdated"`
}

// CloneSetPartition resolves spec.updateStrategy.partition against spec.replicas (nil means 1):
// float parser rounding up, one pod still updated unless the text is exactly "100%", clamped to
// [0, replicas]. Errors: "not_a_percentage", "invalid_number" (Field "partition").
func CloneSetPartition(partition *IntOrPercent, replicas *int32) (Partition, error) {
	in := struct {
		Kind      string        `json:"kind"`
		Partition *IntOrPercent `json:"partition"`
		Replicas  *int32        `json:"replicas"`
	}{"CloneSet", partition, replicas}
	var out Partition
	err := callTyped("rollout.partition", in, &out)
	return out, err
}

// DaemonSetPartition resolves an Advanced DaemonSet rollingUpdate.partition: scaled parser against
// status.desiredNumberScheduled rounding down, not clamped; MaxUpdated = max(nodes - partition, 0).
func DaemonSetPartition(partition *IntOrPercent, desiredNumberScheduled, nodes int32) (Partition, error) {
	in := struct {
		Kind      string        `json:"kind"`
		Partition *IntOrPercent `json:"partition"`
		Desired   int32         `json:"desiredNumberScheduled"`
		Nodes     int32         `json:"nodes"`
	}{"DaemonSet", partition, desiredNumberScheduled, nodes}
	var out Partition
	err := callTyped("rollout.partition", in, &out)
	return out, err
}

// StatefulSetPartition resolves an Advanced StatefulSet partition (a plain int; nil is 0).
// A negative partition is an *Error with Kind "negative_partition".
func StatefulSetPartition(partition *int32, replicas int32) (Partition, error) {
	in := struct {
		Kind      string `json:"kind"`
		Partition *int32 `json:"partition"`
		Replicas  int32  `json:"replicas"`
	}{"StatefulSet", partition, replicas}
	var out Partition
	err := callTyped("rollout.partition", in, &out)
	return out, err
}
