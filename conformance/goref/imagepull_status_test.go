//go:debug randseednop=0
//go:build goref_overlay

// Differential test of imagepull.status against the reference's ImagePullJob controller
// (pkg/controller/imagepulljob): GetNodeImagesForJob (pkg/util/imagejob) over a fake cluster
// holding the NodeImages, calculateStatus on a reconciler whose clock reads the input's now,
// getImagePullPolicy (both exported by the overlay) with math/rand seeded per call so that the
// jitter it draws is known (randseednop=0 above makes rand.Seed effective), and the daemon's
// NormalizeImageRefToNameTag. Reconcile's own glue around those calls talks to the API server,
// so the harness restates it: the TTL of a completed job, the status write when
// util.IsJSONObjectEqual says the status changed, the requeue until the active deadline (at
// least minRequeueTime, 1 s), and how many NodeImages syncNodeImages updates (parallelism's
// IntValue less the active count, from the sorted not-synced list). A podSelector is answered
// `unsupported` by the harness, as kruise-core documents (the pods are cluster state).
// The module proxy's commit and the v1.9.0 tag are identical for every file involved.
package goref

import (
	"encoding/json"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"strings"
	"testing"
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/imagepulljob"
	daemonutil "github.com/openkruise/kruise/pkg/daemon/util"
	"github.com/openkruise/kruise/pkg/util"
	utilimagejob "github.com/openkruise/kruise/pkg/util/imagejob"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fnImagepullStatus = "imagepull.status"

type ipInput struct {
	Job         json.RawMessage               `json:"imagePullJob"`
	NodeImages  []json.RawMessage             `json:"nodeImages,omitempty"`
	PullSecrets []appsv1beta1.ReferenceObject `json:"pullSecrets,omitempty"`
	Now         string                        `json:"now"`
	DefaultTTL  *int32                        `json:"defaultTtlSecondsForAlwaysNodeImage,omitempty"`
}

type ipPolicy struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds"`
	BackoffLimit   *int32 `json:"backoffLimit"`
	TTLMin         int32  `json:"ttlSecondsAfterFinishedMin"`
	TTLMax         int32  `json:"ttlSecondsAfterFinishedMax"`
	ActiveDeadline *int64 `json:"activeDeadlineSeconds"`
}

type ipOut struct {
	Action      string          `json:"action"`
	Status      json.RawMessage `json:"status"`
	Completed   bool            `json:"completed"`
	ImageName   *string         `json:"imageName"`
	ImageTag    *string         `json:"imageTag"`
	TargetNodes []string        `json:"targetNodes"`
	NotSynced   []string        `json:"notSyncedNodes"`
	ToSync      []string        `json:"nodesToSync"`
	Requeue     *float64        `json:"requeueAfterSeconds"`
	PullPolicy  ipPolicy        `json:"pullPolicy"`
}

type ipRef struct {
	out  ipOut
	kind string
	// the status the reference computed (for the generator's unchanged-status cases)
	status *appsv1beta1.ImagePullJobStatus
}

var ipSeed int64

// ipPullPolicy runs getImagePullPolicy with a known jitter and returns the policy with the TTL's
// range (the drawn jitter taken off, the span of the draw added).
func ipPullPolicy(job *appsv1beta1.ImagePullJob) ipPolicy {
	ipSeed++
	rand.Seed(ipSeed) //nolint:staticcheck // effective through randseednop=0
	p := imagepulljob.GorefImagePullPolicy(job)
	span := int32(300)
	if job.Spec.CompletionPolicy.Type == appsv1beta1.Never {
		span = 1200
	}
	jitter := rand.New(rand.NewSource(ipSeed)).Int31n(span)
	lo := *p.TTLSecondsAfterFinished - jitter
	return ipPolicy{TimeoutSeconds: p.TimeoutSeconds, BackoffLimit: p.BackoffLimit, TTLMin: lo, TTLMax: lo + span - 1, ActiveDeadline: p.ActiveDeadlineSeconds}
}

func ipStatusJSON(s *appsv1beta1.ImagePullJobStatus) json.RawMessage {
	raw, _ := json.Marshal(s)
	return raw
}

func refImagepullStatus(t testing.TB, in *ipInput) (ref ipRef) {
	t.Helper()
	job := &appsv1beta1.ImagePullJob{}
	if len(in.Job) != 0 && string(in.Job) != "null" {
		mustDecode(t, in.Job, job, "imagePullJob")
	}
	now, err := time.Parse(time.RFC3339, in.Now)
	if err != nil {
		ref.kind = "invalid_input"
		return ref
	}
	def := int32(300)
	if in.DefaultTTL != nil {
		def = *in.DefaultTTL
	}
	if err := util.SetDefaultTtlForAlwaysNodeimage(int(def)); err != nil {
		ref.kind = "invalid_input"
		return ref
	}
	var nodes []client.Object
	names := map[string]bool{}
	for _, raw := range in.NodeImages {
		n := &appsv1beta1.NodeImage{}
		mustDecode(t, raw, n, "nodeImage")
		if names[n.Name] {
			ref.kind = "invalid_input"
			return ref
		}
		names[n.Name] = true
		nodes = append(nodes, n)
	}
	ref.out.PullPolicy = ipPullPolicy(job)
	ref.out.TargetNodes, ref.out.NotSynced, ref.out.ToSync = []string{}, []string{}, []string{}
	if name, tag, err := daemonutil.NormalizeImageRefToNameTag(job.Spec.Image); err == nil {
		ref.out.ImageName, ref.out.ImageTag = &name, &tag
	}

	// Reconcile: a completed job waits for its TTL, then is deleted
	if job.Status.CompletionTime != nil {
		ref.out.Completed = true
		ref.out.Action = "keep"
		ref.out.Status = ipStatusJSON(&job.Status)
		if ttl := job.Spec.CompletionPolicy.TTLSecondsAfterFinished; ttl != nil {
			left := time.Duration(*ttl)*time.Second - now.Sub(job.Status.CompletionTime.Time)
			if left <= 0 {
				ref.out.Action = "delete"
			} else {
				s := left.Seconds()
				ref.out.Requeue = &s
			}
		}
		return ref
	}
	if job.Spec.PodSelector != nil {
		ref.kind = "unsupported"
		return ref
	}
	cl := newFakeClient(t, nodes, nil).Build()
	targets, err := utilimagejob.GetNodeImagesForJob(cl, job)
	if err != nil {
		if !strings.Contains(err.Error(), "selector") {
			t.Fatalf("GetNodeImagesForJob: %v", err)
		}
		ref.kind = "invalid_selector"
		return ref
	}
	var secrets []appsv1beta1.ReferenceObject
	if len(job.Spec.PullSecrets) != 0 {
		secrets = in.PullSecrets
	}
	status, notSynced, err := imagepulljob.GorefCalculateStatus(job, targets, secrets, now)
	if err != nil {
		ref.kind = "invalid_image"
		return ref
	}
	ref.status = status
	for _, n := range targets {
		ref.out.TargetNodes = append(ref.out.TargetNodes, n.Name)
	}
	ref.out.NotSynced = append(ref.out.NotSynced, notSynced...)
	// syncNodeImages: parallelism less the active pulls
	limit := 1
	if job.Spec.Parallelism != nil {
		limit = job.Spec.Parallelism.IntValue()
	}
	if room := limit - int(status.Active); room > 0 {
		ref.out.ToSync = append(ref.out.ToSync, notSynced[:min(room, len(notSynced))]...)
	}
	ref.out.Status = ipStatusJSON(status)
	ref.out.Completed = status.CompletionTime != nil
	if !util.IsJSONObjectEqual(&job.Status, status) {
		ref.out.Action = "update_status"
		return ref
	}
	ref.out.Action = "none"
	cp := job.Spec.CompletionPolicy
	if cp.Type != appsv1beta1.Never && cp.ActiveDeadlineSeconds != nil {
		left := time.Duration(*cp.ActiveDeadlineSeconds)*time.Second - now.Sub(status.StartTime.Time)
		if left < time.Second {
			left = time.Second
		}
		s := left.Seconds()
		ref.out.Requeue = &s
	}
	return ref
}

func ipSame(a, b ipOut) bool {
	eqS := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	eqL := func(x, y []string) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	eqF := func(x, y *float64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	pa, pb := a.PullPolicy, b.PullPolicy
	eqI32 := func(x, y *int32) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	eqI64 := func(x, y *int64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Action == b.Action && jsonEqual(a.Status, b.Status) && a.Completed == b.Completed &&
		eqS(a.ImageName, b.ImageName) && eqS(a.ImageTag, b.ImageTag) && eqL(a.TargetNodes, b.TargetNodes) &&
		eqL(a.NotSynced, b.NotSynced) && eqL(a.ToSync, b.ToSync) && eqF(a.Requeue, b.Requeue) &&
		eqI32(pa.TimeoutSeconds, pb.TimeoutSeconds) && eqI32(pa.BackoffLimit, pb.BackoffLimit) &&
		pa.TTLMin == pb.TTLMin && pa.TTLMax == pb.TTLMax && eqI64(pa.ActiveDeadline, pb.ActiveDeadline)
}

func compareImagepullStatus(t *testing.T, r *tally, label string, raw []byte) ipRef {
	t.Helper()
	var in ipInput
	mustDecode(t, raw, &in, label)
	ref := refImagepullStatus(t, &in)
	r.total++
	got, kind, err := answer(fnImagepullStatus, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if ref.kind != "" || kind != "" {
		if ref.kind == kind {
			r.agreeError++
		} else {
			r.fail("%s: reference kind %q, kruise-core kind %q %s\ninput %s", label, ref.kind, kind, got, raw)
		}
		return ref
	}
	var out ipOut
	if err := json.Unmarshal(got, &out); err != nil {
		t.Fatalf("%s: decode %s: %v", label, got, err)
	}
	if !ipSame(ref.out, out) {
		want, _ := json.Marshal(ref.out)
		r.fail("%s: reference %s\nkruise-core %s\ninput %s", label, want, got, raw)
		return ref
	}
	r.agreeValue++
	return ref
}

func TestImagepullStatusVectorsReference(t *testing.T) {
	var r tally
	for _, c := range loadVectors(t, "imagepull_status", fnImagepullStatus) {
		withVectorAnswer(c, func() { compareImagepullStatus(t, &r, "vector "+c.Name, c.Input) })
	}
	r.report(t, "imagepull.status vectors (reference)")
}

func TestImagepullStatusVectors(t *testing.T) {
	requireFn(t, fnImagepullStatus, map[string]any{"now": "2024-01-01T00:00:00Z"})
	var r tally
	for _, c := range loadVectors(t, "imagepull_status", fnImagepullStatus) {
		compareImagepullStatus(t, &r, "vector "+c.Name, c.Input)
	}
	r.report(t, "imagepull.status vectors")
}

const ipDigest = "sha256:abababababababababababababababababababababababababababababababab"

func genImagepull(t testing.TB, rng *randv2.Rand) []byte {
	pick := func(xs ...any) any { return xs[rng.IntN(len(xs))] }
	image := pick("nginx:1.20", "nginx:1.20", "docker.io/library/nginx:1.20", "nginx", "nginx@"+ipDigest,
		"registry.example.com:5000/team/app:v1", "BAD", "").(string)
	key, tag := "nginx", "1.20"
	switch {
	case image == "nginx":
		tag = "latest"
	case strings.Contains(image, "@"):
		tag = ipDigest
	case strings.HasPrefix(image, "registry"):
		key, tag = "registry.example.com:5000/team/app", "v1"
	}
	var nodes []any
	for _, n := range []string{"n1", "n2", "n3", "n4", "n5"} {
		if rng.IntN(4) == 0 {
			continue
		}
		meta := map[string]any{"name": n, "labels": pick(nil, map[string]any{"zone": "x"}, map[string]any{"zone": "y"})}
		node := map[string]any{"metadata": meta}
		if rng.IntN(6) != 0 {
			var tags []any
			for i := rng.IntN(3); i >= 0; i-- {
				tg := map[string]any{"tag": pick(tag, tag, tag, "other"), "version": pick(0, 1, 1, 2, -1),
					"ownerReferences": pick([]any{map[string]any{"uid": "u"}}, []any{map[string]any{"uid": "u"}}, []any{map[string]any{"uid": "v"}}, nil)}
				tags = append(tags, tg)
			}
			spec := map[string]any{"tags": tags}
			if rng.IntN(3) == 0 {
				spec["pullSecrets"] = pick([]any{map[string]any{"namespace": "default", "name": "s1"}}, []any{map[string]any{"namespace": "x", "name": "s1"}})
			}
			node["spec"] = map[string]any{"images": map[string]any{pick(key, key, key, "busybox").(string): spec}}
		}
		if rng.IntN(5) != 0 {
			var sts []any
			for i := rng.IntN(2); i >= 0; i-- {
				sts = append(sts, map[string]any{"tag": pick(tag, tag, "other"), "version": pick(0, 1, 1, 2), "phase": pick("Succeeded", "Failed", "Pulling", "Waiting", "")})
			}
			node["status"] = map[string]any{"imageStatuses": map[string]any{pick(key, key, "busybox").(string): map[string]any{"tags": sts}}}
		}
		nodes = append(nodes, node)
	}
	cp := map[string]any{}
	if ty := pick("Always", "Never", "", nil); ty != nil {
		cp["type"] = ty
	}
	if ads := pick(nil, nil, 0, 30, 600, 900, 10000000000); ads != nil {
		cp["activeDeadlineSeconds"] = ads
	}
	if ttl := pick(nil, nil, 0, 100, 600, -5); ttl != nil {
		cp["ttlSecondsAfterFinished"] = ttl
	}
	spec := map[string]any{"image": image, "completionPolicy": cp}
	if rng.IntN(2) == 0 {
		pp := map[string]any{}
		if v := pick(nil, 100, 2000, 2147483647); v != nil {
			pp["timeoutSeconds"] = v
		}
		if v := pick(nil, 0, 2, -1); v != nil {
			pp["backoffLimit"] = v
		}
		spec["pullPolicy"] = pp
	}
	if p := pick(nil, nil, 0, 1, 3, "2", "50%", -1); p != nil {
		spec["parallelism"] = p
	}
	switch rng.IntN(8) {
	case 0:
		spec["selector"] = map[string]any{"names": pick([]any{}, []any{"n3", "n1", "zz"}, []any{"n2", "n2"})}
	case 1:
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"zone": pick("x", "y")}}
	case 2:
		spec["selector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": pick("In", "NotIn", "Exists", "DoesNotExist", "Gt"), "values": pick(nil, []any{"x"})}}}
	case 3:
		spec["selector"] = map[string]any{}
	}
	if rng.IntN(40) == 0 {
		spec["podSelector"] = map[string]any{"matchLabels": map[string]any{"app": "web"}}
	}
	if rng.IntN(3) == 0 {
		spec["pullSecrets"] = []any{"s1"}
	}
	status := map[string]any{}
	if rng.IntN(4) != 0 {
		status["startTime"] = pick("2024-05-01T00:00:00Z", "2024-05-01T00:09:30Z", "2024-05-01T00:09:59.9Z")
	}
	if rng.IntN(8) == 0 {
		status["completionTime"] = pick("2024-05-01T00:05:00Z", "2024-05-01T00:09:00Z")
	}
	job := map[string]any{"metadata": map[string]any{"name": "j", "namespace": "default", "uid": "u"}, "spec": spec, "status": status}
	in := map[string]any{"imagePullJob": job, "nodeImages": nodes, "now": pick("2024-05-01T00:10:00Z", "2024-05-01T00:10:00.25Z", "2024-05-01T00:19:59Z")}
	if rng.IntN(3) == 0 {
		in["pullSecrets"] = []any{map[string]any{"namespace": "default", "name": "s1"}}
	}
	if rng.IntN(6) == 0 {
		in["defaultTtlSecondsForAlwaysNodeImage"] = pick(0, 2678400, 2147483000, -1)
	}
	raw, _ := json.Marshal(in)
	if rng.IntN(3) == 0 {
		// the next pass over the same cluster: the status the reference wrote (so the unchanged
		// path and its requeue come up)
		var parsed ipInput
		mustDecode(t, raw, &parsed, "generated")
		if ref := refImagepullStatus(t, &parsed); ref.status != nil {
			var st map[string]any
			_ = json.Unmarshal(ipStatusJSON(ref.status), &st)
			if rng.IntN(4) == 0 {
				delete(st, "completionTime")
			}
			job["status"] = st
			raw, _ = json.Marshal(in)
		}
	}
	return raw
}

func ipOutcomes(ref ipRef) []string {
	if ref.kind != "" {
		return []string{ref.kind}
	}
	o := []string{ref.out.Action}
	if ref.out.Completed {
		o = append(o, "completed")
	}
	if ref.out.Requeue != nil {
		o = append(o, "requeue")
	}
	if len(ref.out.ToSync) > 0 {
		o = append(o, "sync")
	}
	var st appsv1beta1.ImagePullJobStatus
	_ = json.Unmarshal(ref.out.Status, &st)
	if st.Message == "job exceeds activeDeadlineSeconds" {
		o = append(o, "deadline")
	}
	if st.Active > 0 {
		o = append(o, "active")
	}
	if st.Failed > 0 {
		o = append(o, "failed")
	}
	if st.Succeeded > 0 {
		o = append(o, "succeeded")
	}
	if len(ref.out.NotSynced) > 0 {
		o = append(o, "not_synced")
	}
	return o
}

func TestImagepullStatusRandom(t *testing.T) {
	requireFn(t, fnImagepullStatus, map[string]any{"now": "2024-01-01T00:00:00Z"})
	rng := randv2.New(randv2.NewPCG(14, 4))
	var r tally
	for i := 0; i < randomCount(2000); i++ {
		compareImagepullStatus(t, &r, fmt.Sprintf("random #%d", i), genImagepull(t, rng))
	}
	r.report(t, "imagepull.status random")
}

func TestImagepullStatusRandomCoverage(t *testing.T) {
	rng := randv2.New(randv2.NewPCG(14, 4))
	seen := map[string]int{}
	for i := 0; i < randomCount(2000); i++ {
		var in ipInput
		mustDecode(t, genImagepull(t, rng), &in, "random")
		for _, o := range ipOutcomes(refImagepullStatus(t, &in)) {
			seen[o]++
		}
	}
	t.Logf("imagepull.status outcomes: %v", seen)
	for _, want := range []string{"invalid_input", "invalid_image", "invalid_selector", "unsupported",
		"delete", "keep", "update_status", "none", "completed", "requeue", "sync", "deadline", "active",
		"failed", "succeeded", "not_synced"} {
		if seen[want] == 0 {
			t.Errorf("the generator never reached %q", want)
		}
	}
}
