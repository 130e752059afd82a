package kruisecore

import "encoding/json"

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

// Partition is a resolved partition (the output of the generated RolloutPartition): pods (or
// nodes) kept on the old revision, and how many may be on the update revision.
type Partition = RolloutPartitionOutput

// partitionOf calls the generated RolloutPartition with one variant of its input.
func partitionOf(variant any) (Partition, error) {
	in, err := json.Marshal(variant)
	if err != nil {
		return Partition{}, err
	}
	return RolloutPartition(in)
}

// CloneSetPartition resolves spec.updateStrategy.partition against spec.replicas (nil means 1):
// float parser rounding up, one pod still updated unless the text is exactly "100%", clamped to
// [0, replicas]. Errors: "not_a_percentage", "invalid_number" (Field "partition"). A convenience
// over RolloutPartition.
func CloneSetPartition(partition *IntOrPercent, replicas *int32) (Partition, error) {
	return partitionOf(RolloutPartitionInputCloneSet{Kind: "CloneSet", Partition: partition, Replicas: replicas})
}

// DaemonSetPartition resolves an Advanced DaemonSet rollingUpdate.partition: scaled parser against
// status.desiredNumberScheduled rounding down, not clamped; MaxUpdated = max(nodes - partition, 0).
// A convenience over RolloutPartition.
func DaemonSetPartition(partition *IntOrPercent, desiredNumberScheduled, nodes int32) (Partition, error) {
	return partitionOf(RolloutPartitionInputDaemonSet{Kind: "DaemonSet", Partition: partition,
		DesiredNumberScheduled: desiredNumberScheduled, Nodes: &nodes})
}

// StatefulSetPartition resolves an Advanced StatefulSet partition (a plain int; nil is 0).
// A negative partition is an *Error with Kind "negative_partition". A convenience over
// RolloutPartition.
func StatefulSetPartition(partition *int32, replicas int32) (Partition, error) {
	var p *IntOrPercent
	if partition != nil {
		v := FromInt(*partition)
		p = &v
	}
	return partitionOf(RolloutPartitionInputStatefulSet{Kind: "StatefulSet", Partition: p, Replicas: replicas})
}
