package kruisecore

import (
	"encoding/json"
	"time"
)

// UnitedDeployment subset allocation (OpenKruise v1.9 pkg/controller/uniteddeployment): typed
// wrappers over Call("allocation.allocate"), Call("allocation.next_replicas") and
// Call("allocation.validate"). Every other allocation fn id is reachable through Call.

// UDSubset is one spec.topology.subsets[] entry (replica fields are int-or-percent).
type UDSubset struct {
	Name        string        `json:"name"`
	Replicas    *IntOrPercent `json:"replicas,omitempty"`
	MinReplicas *IntOrPercent `json:"minReplicas,omitempty"`
	MaxReplicas *IntOrPercent `json:"maxReplicas,omitempty"`
}

// AdaptiveStrategy is spec.topology.scheduleStrategy.adaptive (nil durations take the defaults
// 30 s and 300 s).
type AdaptiveStrategy struct {
	RescheduleCriticalSeconds *int32 `json:"rescheduleCriticalSeconds,omitempty"`
	UnschedulableDuration     *int32 `json:"unschedulableDuration,omitempty"`
	ReserveUnschedulablePods  bool   `json:"reserveUnschedulablePods,omitempty"`
}

// ScheduleStrategy is spec.topology.scheduleStrategy: Type "Adaptive", "Fixed" or "".
type ScheduleStrategy struct {
	Type     string            `json:"type,omitempty"`
	Adaptive *AdaptiveStrategy `json:"adaptive,omitempty"`
}

// UDTopology is spec.topology.
type UDTopology struct {
	Subsets          []UDSubset       `json:"subsets,omitempty"`
	ScheduleStrategy ScheduleStrategy `json:"scheduleStrategy"`
}

// UDSpec is the part of a UnitedDeployment spec allocation reads. Template holds the workload
// templates by key (statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate,
// deploymentTemplate); only their presence matters. Partitions are manualUpdate partitions.
type UDSpec struct {
	Replicas   *int32                     `json:"replicas,omitempty"`
	Template   map[string]json.RawMessage `json:"template,omitempty"`
	Topology   UDTopology                 `json:"topology"`
	Partitions map[string]int32           `json:"-"`
}

// MarshalJSON writes the CRD's JSON shape (partitions under updateStrategy.manualUpdate).
func (s UDSpec) MarshalJSON() ([]byte, error) {
	type plain UDSpec
	out := struct {
		plain
		UpdateStrategy any `json:"updateStrategy,omitempty"`
	}{plain: plain(s)}
	if s.Partitions != nil {
		out.UpdateStrategy = map[string]any{"manualUpdate": map[string]any{"partitions": s.Partitions}}
	}
	return json.Marshal(out)
}

// SubsetWorkload is an existing subset workload: its spec.replicas, status.replicas,
// status.readyReplicas and its pods (Pod objects as JSON, e.g. items of `kubectl get pods -o json`).
type SubsetWorkload struct {
	Replicas       int32
	StatusReplicas int32
	ReadyReplicas  int32
	Pods           []json.RawMessage
}

// MarshalJSON writes the workload shape of "allocation.allocate".
func (w SubsetWorkload) MarshalJSON() ([]byte, error) {
	pods := w.Pods
	if pods == nil {
		pods = []json.RawMessage{}
	}
	return json.Marshal(map[string]any{
		"spec":   map[string]int32{"replicas": w.Replicas},
		"status": map[string]int32{"replicas": w.StatusReplicas, "readyReplicas": w.ReadyReplicas},
		"pods":   pods,
	})
}

// AllocateInput is one reconcile: the spec, the UnitedDeployment status JSON (nil = none), the
// current and updated revisions, the existing workloads by subset name, and now.
type AllocateInput struct {
	Spec            UDSpec
	Status          json.RawMessage
	CurrentRevision string
	UpdatedRevision string
	Subsets         map[string]SubsetWorkload
	Now             time.Time
}

// UnschedulableStatus is the controller's per-subset adaptive status.
type UnschedulableStatus struct {
	Unschedulable         bool  `json:"unschedulable"`
	MarkedAsUnschedulable bool  `json:"markedAsUnschedulable"`
	PendingPods           int32 `json:"pendingPods"`
	ReservedPods          int32 `json:"reservedPods"`
	UpdateTimeoutPods     int32 `json:"updateTimeoutPods"`
}

// SchedulableCondition is a subset's Schedulable condition after the step.
type SchedulableCondition struct {
	Status             string  `json:"status"`
	Reason             string  `json:"reason"`
	LastTransitionTime *string `json:"lastTransitionTime"`
}

// Allocation is the decision: the allocator ("specific", "minMax", "adaptive", "reservation"),
// replicas per subset, temporary replicas (reservation only), and for Adaptive types the
// recomputed subset status, conditions, requeue delay in seconds (0 = none) and reserved-label
// patches by pod name.
type Allocation struct {
	Allocator           string                           `json:"allocator"`
	Replicas            map[string]int64                 `json:"replicas"`
	TemporaryReplicas   *int64                           `json:"temporaryReplicas,omitempty"`
	Subsets             map[string]UnschedulableStatus   `json:"subsets,omitempty"`
	SubsetConditions    map[string]*SchedulableCondition `json:"subsetConditions,omitempty"`
	RequeueAfterSeconds float64                          `json:"requeueAfterSeconds,omitempty"`
	PodReservedLabels   map[string]bool                  `json:"podReservedLabels,omitempty"`
}

// Allocate runs one reconcile's allocation ("allocation.allocate"). Errors are *Error with the
// allocators' kinds ("min_greater_than_max", "specified_exceeds_total", "duplicate_subset_name",
// ...) or "invalid_input" naming the field.
func Allocate(in AllocateInput) (Allocation, error) {
	status := in.Status
	if status == nil {
		status = json.RawMessage("{}")
	}
	subsets := in.Subsets
	if subsets == nil {
		subsets = map[string]SubsetWorkload{}
	}
	body := struct {
		Spec            UDSpec                    `json:"spec"`
		Status          json.RawMessage           `json:"status"`
		CurrentRevision string                    `json:"currentRevision"`
		UpdatedRevision string                    `json:"updatedRevision"`
		Subsets         map[string]SubsetWorkload `json:"subsets"`
		Now             string                    `json:"now"`
	}{in.Spec, status, in.CurrentRevision, in.UpdatedRevision, subsets, in.Now.UTC().Format(time.RFC3339Nano)}
	var out Allocation
	err := callTyped("allocation.allocate", body, &out)
	return out, err
}

// ValidateUnitedDeployment lists the webhook's allocation-rule violations of spec, in order
// ("allocation.validate"; empty = valid).
func ValidateUnitedDeployment(spec UDSpec) ([]string, error) {
	out := []string{}
	err := callTyped("allocation.validate", map[string]any{"spec": spec}, &out)
	return out, err
}
