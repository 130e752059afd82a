//go:build cgo

package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func allocPod(name, created string, running bool) json.RawMessage {
	status := map[string]any{"phase": "Pending", "conditions": []any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}}}
	spec := map[string]any{}
	if running {
		status = map[string]any{"phase": "Running", "conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": created}}}
		spec["nodeName"] = "n1"
	}
	b, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"name": name, "creationTimestamp": created, "labels": map[string]string{"apps.kruise.io/controller-revision-hash": "r1"}},
		"spec":     spec, "status": status,
	})
	return b
}

func TestAllocateReservesPendingPodsAndAddsStandIns(t *testing.T) {
	three := int32(3)
	crit := int32(30)
	in := AllocateInput{
		Spec: UDSpec{
			Replicas: &three,
			Template: map[string]json.RawMessage{"cloneSetTemplate": json.RawMessage("{}")},
			Topology: UDTopology{
				Subsets:          []UDSubset{{Name: "ecs"}, {Name: "vk"}},
				ScheduleStrategy: ScheduleStrategy{Type: "Adaptive", Adaptive: &AdaptiveStrategy{ReserveUnschedulablePods: true, RescheduleCriticalSeconds: &crit}},
			},
		},
		Status:          json.RawMessage(`{"subsetStatuses": [{"name": "ecs"}, {"name": "vk"}]}`),
		CurrentRevision: "r1",
		UpdatedRevision: "r1",
		Subsets: map[string]SubsetWorkload{"ecs": {Replicas: 3, StatusReplicas: 3, ReadyReplicas: 1, Pods: []json.RawMessage{
			allocPod("ecs-0", "2026-06-21T09:00:00Z", true),
			allocPod("ecs-1", "2026-06-21T09:59:00Z", false),
			allocPod("ecs-2", "2026-06-21T09:59:45Z", false),
		}}},
		Now: time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC),
	}
	a, err := Allocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if a.Allocator != "reservation" || a.Replicas["ecs"] != 3 || a.Replicas["vk"] != 1 || a.TemporaryReplicas == nil || *a.TemporaryReplicas != 1 {
		t.Fatalf("allocation %+v", a)
	}
	if a.Subsets["ecs"].ReservedPods != 1 || !a.PodReservedLabels["ecs-1"] || a.PodReservedLabels["ecs-2"] || a.RequeueAfterSeconds != 15 {
		t.Fatalf("status %+v", a)
	}
	c := a.SubsetConditions["ecs"]
	if c == nil || c.Status != "False" || c.Reason != "reschedule" || c.LastTransitionTime == nil || *c.LastTransitionTime != "2026-06-21T10:00:00Z" {
		t.Fatalf("condition %+v", c)
	}
	if a.SubsetConditions["vk"] != nil {
		t.Fatalf("vk condition %+v", a.SubsetConditions["vk"])
	}
}

func TestAllocateErrorsNameTheField(t *testing.T) {
	four, three := FromInt(4), FromInt(3)
	five := int32(5)
	_, err := Allocate(AllocateInput{Spec: UDSpec{Replicas: &five, Topology: UDTopology{Subsets: []UDSubset{{Name: "a", MinReplicas: &four, MaxReplicas: &three}}}}})
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "min_greater_than_max" || kerr.Field() != "spec.topology.subsets[0].minReplicas" {
		t.Fatalf("got %v", err)
	}
	_, err = Allocate(AllocateInput{Spec: UDSpec{Replicas: &five, Topology: UDTopology{Subsets: []UDSubset{{Name: "a"}, {Name: "a"}}}}})
	if !errors.As(err, &kerr) || kerr.Kind() != "duplicate_subset_name" {
		t.Fatalf("got %v", err)
	}
}

func TestValidateUnitedDeployment(t *testing.T) {
	ten := int32(10)
	pct := FromString("90%")
	one := FromInt(1)
	got, err := ValidateUnitedDeployment(UDSpec{
		Replicas:   &ten,
		Template:   map[string]json.RawMessage{"statefulSetTemplate": json.RawMessage("{}")},
		Topology:   UDTopology{Subsets: []UDSubset{{Name: "subset1", Replicas: &one}, {Name: "subset2", Replicas: &pct}}},
		Partitions: map[string]int32{"notExist": 1},
	})
	if err != nil || len(got) != 1 || got[0] != "unknown_partition_subset" {
		t.Fatalf("got %v, %v", got, err)
	}
}
