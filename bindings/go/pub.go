package kruisecore

import (
	"encoding/json"
	"time"
)

// Typed helpers of the PodUnavailableBudget (PUB) family, over the generic Call. Pods and PUBs are
// taken as any value that marshals to their Kubernetes JSON (a client-go corev1.Pod, a
// map[string]any decoded from the API server, json.RawMessage, ...). Errors are *Error values
// (Kind "invalid_input", "invalid_int_or_percent", "invalid_protect_operations"; Field names the
// input field). Mirrors OpenKruise v1.9.0; see the pub spec and docs/pub.md.

// PubPodState is the PUB pod predicates.
type PubPodState struct {
	// Active: phase not Succeeded/Failed and no deletionTimestamp.
	Active bool `json:"active"`
	// Ready: Running, first Ready condition True, not deleting, no unavailable-pod.kruise.io/ label.
	Ready bool `json:"ready"`
	// Consistent: images and Kruise in-place updates settled.
	Consistent bool `json:"consistent"`
}

// PubProtectOperations returns the protected operations, sorted, for a
// kruise.io/pub-protect-operations value (nil = absent) like "pub.protect_operations". v1.9 reads
// pieces verbatim: "DELETE, EVICT" protects only DELETE. strict applies the webhook's validation
// first (Kind "invalid_protect_operations").
func PubProtectOperations(annotation *string, inPlacePodVerticalScaling, strict bool) ([]string, error) {
	in := struct {
		Annotation *string `json:"annotation"`
		InPlace    bool    `json:"inPlacePodVerticalScaling"`
		Strict     bool    `json:"strict"`
	}{annotation, inPlacePodVerticalScaling, strict}
	var out struct {
		Operations []string `json:"operations"`
	}
	err := callTyped("pub.protect_operations", in, &out)
	return out.Operations, err
}

// PubGetPodState evaluates a pod's PUB predicates ("pub.pod_state").
func PubGetPodState(pod any) (PubPodState, error) {
	var out PubPodState
	err := callTyped("pub.pod_state", struct {
		Pod any `json:"pod"`
	}{pod}, &out)
	return out, err
}

// PubUpdateClass is how a pod update is judged: Operation is nil, "UPDATE" or "RESIZE".
type PubUpdateClass struct {
	UnavailableChanged bool    `json:"unavailableChanged"`
	CanResizeInplace   bool    `json:"canResizeInplace"`
	Operation          *string `json:"operation"`
}

// PubClassifyUpdate classifies oldPod -> newPod ("pub.classify_update").
func PubClassifyUpdate(oldPod, newPod any) (PubUpdateClass, error) {
	var out PubUpdateClass
	err := callTyped("pub.classify_update", struct {
		Old any `json:"oldPod"`
		New any `json:"newPod"`
	}{oldPod, newPod}, &out)
	return out, err
}

// PubStatus is a PodUnavailableBudget status in CRD JSON; record maps are pod name -> RFC 3339 time.
type PubStatus struct {
	ObservedGeneration int64             `json:"observedGeneration"`
	DisruptedPods      map[string]string `json:"disruptedPods"`
	UnavailablePods    map[string]string `json:"unavailablePods"`
	UnavailableAllowed int32             `json:"unavailableAllowed"`
	CurrentAvailable   int32             `json:"currentAvailable"`
	DesiredAvailable   int32             `json:"desiredAvailable"`
	TotalReplicas      int32             `json:"totalReplicas"`
}

// PubStatusResult is a computed status plus when to recheck and whether a write is needed.
type PubStatusResult struct {
	PubStatus
	// RecheckTime is the earliest record expiry (RFC 3339), nil when nothing is recorded.
	RecheckTime *string `json:"recheckTime"`
	// Changed reports whether the controller would write the status.
	Changed bool `json:"changed"`
}

// PubComputeStatus computes the PUB controller's status at now ("pub.status"). pods are the pods
// the PUB matches (a slice; inactive pods are dropped); workloadReplicas is the target's replicas
// in targetRef mode (nil = missing or deleting) or the distinct-workload replica sum in selector
// mode.
func PubComputeStatus(pub any, pods any, workloadReplicas *int32, now time.Time) (PubStatusResult, error) {
	in := struct {
		Pub      any    `json:"pub"`
		Pods     any    `json:"pods"`
		Replicas *int32 `json:"workloadReplicas"`
		Now      string `json:"now"`
	}{pub, pods, workloadReplicas, rfc3339(now)}
	var out PubStatusResult
	err := callTyped("pub.status", in, &out)
	return out, err
}

// PubFeatureGates are the Kruise gates the PUB decisions read; nil fields take v1.9's defaults
// (delete gate on, update gate off, InPlacePodVerticalScaling off).
type PubFeatureGates struct {
	DeleteGate                *bool `json:"PodUnavailableBudgetDeleteGate,omitempty"`
	UpdateGate                *bool `json:"PodUnavailableBudgetUpdateGate,omitempty"`
	InPlacePodVerticalScaling *bool `json:"InPlacePodVerticalScaling,omitempty"`
}

// PubAdmitRequest is one pod request for PubAdmit.
type PubAdmitRequest struct {
	// Operation is "UPDATE", "DELETE" or "CREATE" (eviction).
	Operation string
	// SubResource is "" or "eviction" (others are ignored by the webhook).
	SubResource string
	// DryRun skips the status write (a dry run can still be denied).
	DryRun bool
	// NoOldObject marks a DELETE request that carried no old object.
	NoOldObject bool
	// OldPod and NewPod are the UPDATE objects; Pod is the DELETE old object or the evicted pod.
	OldPod, NewPod, Pod any
	// Pub is the PUB named by the pod's kruise.io/related-pub (nil = not found).
	Pub any
	// Gates are the feature gates (nil = defaults).
	Gates *PubFeatureGates
	// Now is the record time.
	Now time.Time
}

// PubAdmission is the webhook's answer: Reason is "" when allowed; NewStatus is the status to
// write (Decision "admitted" only).
type PubAdmission struct {
	Allowed   bool       `json:"allowed"`
	Reason    string     `json:"reason"`
	Decision  string     `json:"decision"`
	Operation *string    `json:"operation"`
	NewStatus *PubStatus `json:"newStatus"`
}

// PubAdmit decides one pod request against its PUB ("pub.admit").
func PubAdmit(r PubAdmitRequest) (PubAdmission, error) {
	type request struct {
		Operation        string `json:"operation"`
		SubResource      string `json:"subResource"`
		DryRun           bool   `json:"dryRun"`
		OldObjectPresent bool   `json:"oldObjectPresent"`
	}
	in := struct {
		Request request          `json:"request"`
		OldPod  any              `json:"oldPod,omitempty"`
		NewPod  any              `json:"newPod,omitempty"`
		Pod     any              `json:"pod,omitempty"`
		Pub     any              `json:"pub"`
		Gates   *PubFeatureGates `json:"featureGates,omitempty"`
		Now     string           `json:"now"`
	}{request{r.Operation, r.SubResource, r.DryRun, !r.NoOldObject}, r.OldPod, r.NewPod, r.Pod, r.Pub, r.Gates, rfc3339(r.Now)}
	var out PubAdmission
	err := callTyped("pub.admit", in, &out)
	return out, err
}

// PubReviewContext is what a webhook knows besides the request, for PubAdmitReview.
type PubReviewContext struct {
	// Pub is the PUB named by the checked pod's kruise.io/related-pub (nil = not found).
	Pub any
	// EvictedPod is, for pods/eviction, the current pod fetched by request.name (the review's
	// object is the Eviction). Needed only while the delete gate is on.
	EvictedPod any
	// Gates are the feature gates (nil = defaults).
	Gates *PubFeatureGates
	// Now is the record time.
	Now time.Time
}

// PubResponseStatus is the status of an AdmissionResponse, as controller-runtime's
// ValidationResponse sets it: Code 200 when allowed, 403 "Forbidden" with the message when denied.
type PubResponseStatus struct {
	Code    int32  `json:"code"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// PubAdmissionResponse is the admission.k8s.io/v1 AdmissionResponse to send back (UID echoed).
type PubAdmissionResponse struct {
	UID     string            `json:"uid"`
	Allowed bool              `json:"allowed"`
	Status  PubResponseStatus `json:"status"`
}

// PubReviewAdmission is PubAdmitReview's answer: the decision plus the response to send back.
type PubReviewAdmission struct {
	PubAdmission
	Response PubAdmissionResponse `json:"response"`
}

// PubAdmitReview decides the admission.k8s.io/v1 AdmissionReview the API server posts, or its
// request member ("pub.admit_review"). review is the request body ([]byte or json.RawMessage) or
// any value marshalling to the review or request JSON (a k8s.io/api AdmissionReview, a map).
//
// It fails closed: a request without a valid operation (upper case), kind, uid or the objects its
// operation carries is an *Error with Kind "invalid_input" and Field naming it
// ("request.operation", "request.oldObject", "apiVersion", ...). Dry run is read as OpenKruise
// v1.9.0 reads it (request.options.dryRun for UPDATE and DELETE; see docs/pub.md).
func PubAdmitReview(review any, ctx PubReviewContext) (PubReviewAdmission, error) {
	if b, ok := review.([]byte); ok {
		review = json.RawMessage(b)
	}
	in := struct {
		Review  any              `json:"review"`
		Evicted any              `json:"evictedPod,omitempty"`
		Pub     any              `json:"pub"`
		Gates   *PubFeatureGates `json:"featureGates,omitempty"`
		Now     string           `json:"now"`
	}{review, ctx.EvictedPod, ctx.Pub, ctx.Gates, rfc3339(ctx.Now)}
	var out PubReviewAdmission
	err := callTyped("pub.admit_review", in, &out)
	return out, err
}

// PubValidate returns the PUB webhook's error codes in order ("pub.validate"; empty = valid).
// oldPub is the stored object on update (nil on create).
func PubValidate(pub, oldPub any, gates *PubFeatureGates) ([]string, error) {
	in := struct {
		Pub    any              `json:"pub"`
		OldPub any              `json:"oldPub"`
		Gates  *PubFeatureGates `json:"featureGates,omitempty"`
	}{pub, oldPub, gates}
	out := []string{}
	err := callTyped("pub.validate", in, &out)
	return out, err
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
