package kruisecore

import (
	"encoding/json"
	"errors"
	"testing"
)

func allocPod(name, created string, running bool) AllocationPod {
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
	var p AllocationPod
	if err := json.Unmarshal(b, &p); err != nil {
		panic(err)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

func TestAllocateReservesPendingPodsAndAddsStandIns(t *testing.T) {
	var spec AllocationUdSpec
	if err := json.Unmarshal([]byte(`{"replicas": 3, "template": {"cloneSetTemplate": {}}, "topology": {
		"subsets": [{"name": "ecs"}, {"name": "vk"}],
		"scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true, "rescheduleCriticalSeconds": 30}}}}`), &spec); err != nil {
		t.Fatal(err)
	}
	in := AllocationAllocateInput{
		Spec:            spec,
		Status:          &AllocationUdStatus{SubsetStatuses: &[]AllocationSubsetStatusType{{Name: "ecs"}, {Name: "vk"}}},
		CurrentRevision: ptr("r1"),
		UpdatedRevision: ptr("r1"),
		Subsets: &map[string]AllocationWorkload{"ecs": {
			Spec:   &AllocationWorkloadSpec{Replicas: ptr(int32(3))},
			Status: &AllocationWorkloadStatus{Replicas: ptr(int32(3)), ReadyReplicas: ptr(int32(1))},
			Pods: &[]AllocationPod{
				allocPod("ecs-0", "2026-06-21T09:00:00Z", true),
				allocPod("ecs-1", "2026-06-21T09:59:00Z", false),
				allocPod("ecs-2", "2026-06-21T09:59:45Z", false),
			}}},
		Now: "2026-06-21T10:00:00Z",
	}
	a, err := AllocationAllocate(in)
	if err != nil {
		t.Fatal(err)
	}
	if a.Allocator != AllocationAllocatorKindReservation || a.Replicas["ecs"] != 3 || a.Replicas["vk"] != 1 || a.TemporaryReplicas == nil || *a.TemporaryReplicas != 1 {
		t.Fatalf("allocation %+v", a)
	}
	if a.Subsets == nil || a.PodReservedLabels == nil || a.SubsetConditions == nil {
		t.Fatalf("adaptive members missing: %+v", a)
	}
	if (*a.Subsets)["ecs"].ReservedPods != 1 || !(*a.PodReservedLabels)["ecs-1"] || (*a.PodReservedLabels)["ecs-2"] ||
		a.RequeueAfterSeconds == nil || *a.RequeueAfterSeconds != 15 {
		t.Fatalf("status %+v", a)
	}
	c := (*a.SubsetConditions)["ecs"]
	if c == nil || c.Status != "False" || c.Reason != "reschedule" || c.LastTransitionTime == nil || *c.LastTransitionTime != "2026-06-21T10:00:00Z" {
		t.Fatalf("condition %+v", c)
	}
	if (*a.SubsetConditions)["vk"] != nil {
		t.Fatalf("vk condition %+v", (*a.SubsetConditions)["vk"])
	}
}

func TestAllocateErrorsNameTheField(t *testing.T) {
	four, three := FromInt(4), FromInt(3)
	spec := AllocationUdSpec{Replicas: ptr(int32(5)), Topology: &AllocationTopology{Subsets: &[]AllocationSubset{{Name: ptr("a"), MinReplicas: &four, MaxReplicas: &three}}}}
	_, err := AllocationAllocate(AllocationAllocateInput{Spec: spec, Now: "2026-06-21T10:00:00Z"})
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "min_greater_than_max" || kerr.Field() != "spec.topology.subsets[0].minReplicas" {
		t.Fatalf("got %v", err)
	}
	spec.Topology.Subsets = &[]AllocationSubset{{Name: ptr("a")}, {Name: ptr("a")}}
	_, err = AllocationAllocate(AllocationAllocateInput{Spec: spec, Now: "2026-06-21T10:00:00Z"})
	if !errors.As(err, &kerr) || kerr.Kind() != "duplicate_subset_name" {
		t.Fatalf("got %v", err)
	}
}

func TestValidateUnitedDeployment(t *testing.T) {
	var spec AllocationUdSpec
	if err := json.Unmarshal([]byte(`{"replicas": 10, "template": {"statefulSetTemplate": {}},
		"topology": {"subsets": [{"name": "subset1", "replicas": 1}, {"name": "subset2", "replicas": "90%"}]},
		"updateStrategy": {"manualUpdate": {"partitions": {"notExist": 1}}}}`), &spec); err != nil {
		t.Fatal(err)
	}
	got, err := AllocationValidate(AllocationValidateInput{Spec: &spec})
	if err != nil || len(got) != 1 || got[0] != "unknown_partition_subset" {
		t.Fatalf("got %v, %v", got, err)
	}
}
