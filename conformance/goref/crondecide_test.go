//go:build goref_overlay

// Differential test of cron.decide against one full reconcile pass of the proxy's AdvancedCronJob
// controller (pkg/controller/advancedcronjob ReconcileAdvancedCronJob.Reconcile), run over a fake
// cluster holding the AdvancedCronJob and its children, with the controller's clock set to the
// input's now (overlay) and the process zone (time.Local) set to the input's localTimeZone.
//
// Compared: status.type, status.lastScheduleTime (as an instant) and status.active as written;
// the children deleted, split into history deletes (finished children, in deletion order) and
// Replace deletes (active children); the child created (name, scheduled-at as an instant); the
// requeue (whole seconds, none when not positive). kruise-core's action must match what happened
// (create/replace iff a child was created, replace iff active children were deleted for it);
// its reason is not observable and not compared. Children are listed by the API in name order,
// so inputs are given in that order (vectors are sorted by name first).
package goref

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/controller/advancedcronjob"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

const fnCronDecide = "cron.decide"

type decideJob struct {
	Name        string  `json:"name"`
	State       string  `json:"state"`
	StartTime   *string `json:"startTime,omitempty"`
	ScheduledAt *string `json:"scheduledAt,omitempty"`
}

type decideInput struct {
	Name              string          `json:"name"`
	CreationTimestamp string          `json:"creationTimestamp"`
	Now               string          `json:"now"`
	LocalTimeZone     string          `json:"localTimeZone,omitempty"`
	Spec              json.RawMessage `json:"spec"`
	Jobs              []decideJob     `json:"jobs"`
}

type decideOut struct {
	Type                string   `json:"type"`
	LastScheduleTime    *string  `json:"lastScheduleTime"`
	Active              []string `json:"active"`
	HistoryDeletes      []string `json:"historyDeletes"`
	Action              string   `json:"action"`
	ScheduledTime       *string  `json:"scheduledTime"`
	JobName             *string  `json:"jobName"`
	JobsToDelete        []string `json:"jobsToDelete"`
	RequeueAfterSeconds *int64   `json:"requeueAfterSeconds"`

	createConflict bool // reference only: the create hit an existing child
}

func mustParseTime(t testing.TB, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return tm
}

func utcText(t testing.TB, s *string) *string {
	if s == nil {
		return nil
	}
	u := mustParseTime(t, *s).UTC().Format(time.RFC3339)
	return &u
}

// refDecide runs one Reconcile. panicked reports that the reference panicked (then out is nil).
func refDecide(t testing.TB, in decideInput) (out *decideOut, panicked any) {
	t.Helper()
	// A process's time.Local is its own *Location, never the time.UTC that LoadLocation("UTC")
	// returns (robfig compares the pointers: a schedule zoned TZ=UTC must not count as zone-less).
	loc := time.FixedZone("Local", 0)
	if in.LocalTimeZone != "" {
		l, err := time.LoadLocation(in.LocalTimeZone)
		if err != nil {
			t.Fatalf("localTimeZone %q: %v", in.LocalTimeZone, err)
		}
		if l == time.UTC {
			l = time.FixedZone("Local", 0)
		}
		loc = l
	}
	savedLocal := time.Local
	time.Local = loc
	defer func() { time.Local = savedLocal }()
	now := mustParseTime(t, in.Now).In(loc)
	advancedcronjob.GorefClock = func() time.Time { return now }
	defer func() { advancedcronjob.GorefClock = nil }()

	acj := &appsv1beta1.AdvancedCronJob{}
	if err := json.Unmarshal(in.Spec, &acj.Spec); err != nil {
		t.Fatalf("spec does not decode: %v\n%s", err, in.Spec)
	}
	acj.Name, acj.Namespace, acj.UID = in.Name, "default", "goref-acj-uid"
	acj.CreationTimestamp = metav1.NewTime(mustParseTime(t, in.CreationTimestamp))
	owner := metav1.OwnerReference{APIVersion: appsv1beta1.SchemeGroupVersion.String(), Kind: "AdvancedCronJob", Name: in.Name,
		UID: acj.UID, Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	kind := advancedcronjob.FindTemplateKind(acj.Spec)
	objs := []client.Object{acj}
	state := map[string]string{}
	for _, j := range in.Jobs {
		state[j.Name] = j.State
		meta := metav1.ObjectMeta{Name: j.Name, Namespace: "default", OwnerReferences: []metav1.OwnerReference{owner}}
		if j.ScheduledAt != nil {
			meta.Annotations = map[string]string{"apps.kruise.io/scheduled-at": *j.ScheduledAt}
		}
		var start *metav1.Time
		if j.StartTime != nil {
			st := metav1.NewTime(mustParseTime(t, *j.StartTime))
			start = &st
		}
		switch kind {
		case appsv1beta1.JobTemplate:
			job := &batchv1.Job{ObjectMeta: meta, Status: batchv1.JobStatus{StartTime: start}}
			switch j.State {
			case "succeeded":
				job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
			case "failed":
				job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue}}
			default:
				job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobSuspended, Status: corev1.ConditionTrue}}
			}
			objs = append(objs, job)
		case appsv1beta1.BroadcastJobTemplate:
			job := &appsv1beta1.BroadcastJob{ObjectMeta: meta, Status: appsv1beta1.BroadcastJobStatus{StartTime: start}}
			switch j.State {
			case "succeeded":
				job.Status.Conditions = []appsv1beta1.JobCondition{{Type: appsv1beta1.JobComplete, Status: corev1.ConditionTrue}}
			case "failed":
				job.Status.Conditions = []appsv1beta1.JobCondition{{Type: appsv1beta1.JobFailed, Status: corev1.ConditionTrue}}
			default:
				job.Status.Conditions = []appsv1beta1.JobCondition{{Type: appsv1beta1.JobComplete, Status: corev1.ConditionFalse}}
			}
			objs = append(objs, job)
		case appsv1beta1.ImageListPullJobTemplate:
			job := &appsv1beta1.ImageListPullJob{ObjectMeta: meta, Status: appsv1beta1.ImageListPullJobStatus{StartTime: start, Desired: 2}}
			switch j.State {
			case "succeeded":
				job.Status.CompletionTime, job.Status.Succeeded = ptr(metav1.NewTime(now)), 2
			case "failed":
				job.Status.CompletionTime, job.Status.Succeeded = ptr(metav1.NewTime(now)), 1
			}
			objs = append(objs, job)
		}
	}
	var deleted []string
	var created client.Object
	c := newFakeClient(t, objs, []client.Object{&appsv1beta1.AdvancedCronJob{}}).WithInterceptorFuncs(interceptor.Funcs{
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			deleted = append(deleted, obj.GetName())
			return c.Delete(ctx, obj, opts...)
		},
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			created = obj
			return c.Create(ctx, obj, opts...)
		},
	}).Build()
	r := advancedcronjob.GorefNewReconciler(c, kruiseScheme(), &record.FakeRecorder{})
	var res ctrl.Result
	var err error
	func() {
		defer func() { panicked = recover() }()
		res, err = r.Reconcile(context.TODO(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: in.Name}})
	}()
	if panicked != nil {
		return nil, panicked
	}
	// A child of the chosen name may exist already (one whose scheduled-at is missing or
	// unparsable): the controller's Create then fails and the pass returns the error (requeue by
	// backoff). Its decision is still the child it tried to create; the requeue is not compared.
	conflict := err != nil && apierrors.IsAlreadyExists(err) && created != nil
	if err != nil && !conflict {
		t.Fatalf("reference reconcile failed: %v\ninput %s", err, jsonText(in))
	}
	after := &appsv1beta1.AdvancedCronJob{}
	if err := c.Get(context.TODO(), types.NamespacedName{Namespace: "default", Name: in.Name}, after); err != nil {
		t.Fatal(err)
	}
	out = &decideOut{Type: string(after.Status.Type), Active: []string{}, HistoryDeletes: []string{}, JobsToDelete: []string{}}
	if lt := after.Status.LastScheduleTime; lt != nil {
		s := lt.UTC().Format(time.RFC3339)
		out.LastScheduleTime = &s
	}
	for _, a := range after.Status.Active {
		out.Active = append(out.Active, a.Name)
	}
	for _, d := range deleted {
		if state[d] == "active" {
			out.JobsToDelete = append(out.JobsToDelete, d)
		} else {
			out.HistoryDeletes = append(out.HistoryDeletes, d)
		}
	}
	if created != nil {
		name := created.GetName()
		out.JobName = &name
		out.ScheduledTime = utcText(t, ptr(created.GetAnnotations()["apps.kruise.io/scheduled-at"]))
		out.Action = "create"
		if len(out.JobsToDelete) > 0 {
			out.Action = "replace"
		}
	}
	if res.RequeueAfter > 0 {
		s := int64(res.RequeueAfter / time.Second)
		out.RequeueAfterSeconds = &s
	}
	out.createConflict = conflict
	return out, nil
}

// decideDeviation names the class of an input whose answers may differ ("" for none).
func decideDeviation(t testing.TB, in decideInput, panicked any) string {
	if panicked != nil && strings.Contains(fmt.Sprint(panicked), "slice bounds out of range") {
		return "tz-prefix-panic"
	}
	var tmpl struct {
		Template map[string]json.RawMessage `json:"template"`
	}
	_ = json.Unmarshal(in.Spec, &tmpl)
	noTemplate := true // no member, or every member null (Go reads both as no template)
	for _, v := range tmpl.Template {
		if string(bytes.TrimSpace(v)) != "null" {
			noTemplate = false
		}
	}
	if panicked != nil && strings.Contains(fmt.Sprint(panicked), "nil pointer") && noTemplate {
		return "empty-template-panic" // no template at all: the controller builds a BroadcastJob from a nil template
	}
	var spec struct {
		Schedule string  `json:"schedule"`
		TimeZone *string `json:"timeZone"`
	}
	_ = json.Unmarshal(in.Spec, &spec)
	if !strings.HasPrefix(effectiveSchedule(spec.Schedule, spec.TimeZone), "TZ=") &&
		!strings.HasPrefix(spec.Schedule, "CRON_TZ=") {
		loc := time.UTC
		if in.LocalTimeZone != "" {
			loc, _ = time.LoadLocation(in.LocalTimeZone)
		}
		for _, j := range in.Jobs {
			if j.ScheduledAt == nil {
				continue
			}
			tm, err := time.Parse(time.RFC3339, *j.ScheduledAt)
			if err != nil {
				continue
			}
			_, o1 := tm.Zone()
			_, o2 := tm.In(loc).Zone()
			if o1 != o2 {
				return "annotation-offset"
			}
		}
	}
	return ""
}

func compareDecide(t *testing.T, r *tally, label string, in decideInput) {
	r.total++
	want, panicked := refDecide(t, in)
	raw, gotK, err := answer(fnCronDecide, in)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got decideOut
	if gotK == "" && want != nil {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s: ours %s: %v", label, raw, err)
			return
		}
		got.LastScheduleTime = utcText(t, got.LastScheduleTime)
		got.ScheduledTime = utcText(t, got.ScheduledTime)
		for _, l := range []*[]string{&got.Active, &got.HistoryDeletes, &got.JobsToDelete} {
			if *l == nil {
				*l = []string{}
			}
		}
		if want.createConflict {
			got.RequeueAfterSeconds = want.RequeueAfterSeconds
			got.createConflict = true
		}
		action := got.Action
		if action != "create" && action != "replace" {
			got.Action = "" // skip, paused, error: nothing created
		}
		if reflect.DeepEqual(*want, got) && (action != "paused" && action != "error" || got.RequeueAfterSeconds == nil) {
			r.agreeValue++
			return
		}
		got.Action = action
	}
	if c := decideDeviation(t, in, panicked); c != "" && allowed("cron", c) {
		r.allow(c)
		return
	}
	if panicked != nil {
		r.fail("%s %s: reference panicked: %v; ours %s/%s", label, jsonText(in), panicked, raw, gotK)
		return
	}
	r.fail("%s %s:\n reference %s\n ours      %s/%s", label, jsonText(in), jsonText(want), raw, gotK)
}

func TestCronDecideVectors(t *testing.T) {
	requireFn(t, fnCronDecide, decideInput{Name: "a", CreationTimestamp: "2026-01-01T00:00:00Z", Now: "2026-01-01T00:00:00Z",
		Spec: json.RawMessage(`{"schedule":"* * * * *","template":{"jobTemplate":{}}}`)})
	var r tally
	var refVec tally // the reference against each vector's expected answer
	for _, c := range loadVectors(t, "cron", fnCronDecide) {
		var in decideInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		if in.Jobs == nil {
			in.Jobs = []decideJob{}
		}
		sort.SliceStable(in.Jobs, func(i, j int) bool { return in.Jobs[i].Name < in.Jobs[j].Name })
		compareDecide(t, &r, "vector "+c.Name, in)
		withVectorAnswer(c, func() { compareDecide(t, &refVec, "vector "+c.Name+" (reference vs vector)", in) })
	}
	r.report(t, "cron.decide vectors")
	refVec.report(t, "cron.decide vectors, reference vs vector")
}

type decideGen struct{ rng *rand.Rand }

func (g *decideGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }
func (g *decideGen) chance(n int) bool        { return g.rng.IntN(n) == 0 }

var decideZones = []string{"UTC", "America/New_York", "Asia/Shanghai", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"}

func (g *decideGen) spec(tmpl string) map[string]any {
	spec := map[string]any{}
	switch k := g.rng.IntN(20); {
	case k == 0:
		spec["schedule"] = g.pick("bad", "61 * * * *", "* * * *", "TZ=UTC", "@every 0", "@every -1m", "0 0 30 2 *", "0 0 31 4 *", "TZ=Mars/Olympus * * * * *")
	case k < 3:
		spec["schedule"] = g.pick("@hourly", "@daily", "@every 90s", "@every 7m", "@every 1h30m", "@weekly", "@every 1s")
	case k < 5:
		spec["schedule"] = g.pick("TZ=", "CRON_TZ=") + g.pick(decideZones...) + " " + g.pick("0 9 * * *", "*/15 * * * *", "30 2 * * *")
	default:
		spec["schedule"] = g.pick("*/5 * * * *", "0 * * * *", "30 2 * * *", "* * * * *", "0 0 29 2 *", "15,45 * * * *", "0 */6 * * *",
			"0 9 * * 1-5", "0 0 1 * *", "*/10 8-18 * * *")
	}
	if g.chance(5) {
		spec["timeZone"] = g.pick(append([]string{"Bad/Zone", ""}, decideZones...)...)
	}
	if g.chance(3) {
		spec["startingDeadlineSeconds"] = []int64{0, 1, 30, 60, 299, 300, 3600, 86400, -5, 10000000000, 9223372036}[g.rng.IntN(11)]
	}
	if !g.chance(4) {
		spec["concurrencyPolicy"] = g.pick("Allow", "Forbid", "Replace", "Replace", "", "bogus")
	}
	if g.chance(3) {
		spec["paused"] = g.chance(4)
	}
	for _, k := range []string{"successfulJobsHistoryLimit", "failedJobsHistoryLimit"} {
		if !g.chance(3) {
			spec[k] = []int32{0, 1, 2, 3, 3, -1, -2147483648, 10}[g.rng.IntN(8)]
		}
	}
	t := map[string]any{}
	switch tmpl {
	case "Job":
		t["jobTemplate"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}}}
		if g.chance(6) {
			t["broadcastJobTemplate"] = map[string]any{}
		}
	case "BroadcastJob":
		if !g.chance(8) {
			t["broadcastJobTemplate"] = map[string]any{"spec": map[string]any{"parallelism": 2}}
		}
	case "ImageListPullJob":
		t["imageListPullJobTemplate"] = map[string]any{"spec": map[string]any{"images": []any{"busybox:latest", "nginx:1.25"}}}
	}
	spec["template"] = t
	return spec
}

// slotTimes returns up to n fire times of a simple minute step before now (for child annotations).
func (g *decideGen) slotTimes(now time.Time, n int) []time.Time {
	step := []time.Duration{time.Minute, 5 * time.Minute, time.Hour, 90 * time.Second}[g.rng.IntN(4)]
	base := now.Truncate(step)
	var out []time.Time
	for i := 0; i < n; i++ {
		out = append(out, base.Add(-time.Duration(g.rng.IntN(40))*step))
	}
	return out
}

func randomDecideInputs(t testing.TB, n int, each func(i int, in decideInput)) {
	g := &decideGen{rng: rand.New(rand.NewPCG(20261202, 7))}
	for i := 0; i < n; i++ {
		created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(g.rng.Int64N(2*365*86400)) * time.Second)
		var now time.Time
		switch g.rng.IntN(6) {
		case 0:
			now = created.Add(-time.Duration(g.rng.IntN(3600)) * time.Second) // creation in the future
		case 1:
			now = created.Add(time.Duration(g.rng.IntN(40*86400)) * time.Second)
		default:
			now = created.Add(time.Duration(g.rng.IntN(6*3600)) * time.Second)
		}
		if g.chance(5) {
			now = now.Truncate(5 * time.Minute) // on a slot boundary
		}
		tmpl := g.pick("Job", "Job", "BroadcastJob", "ImageListPullJob")
		in := decideInput{Name: g.pick("acj", "nightly"), CreationTimestamp: created.Format(time.RFC3339), Now: now.Format(time.RFC3339)}
		if g.chance(3) {
			in.LocalTimeZone = g.pick(decideZones...)
		}
		spec := g.spec(tmpl)
		in.Spec, _ = json.Marshal(spec)
		nj := g.rng.IntN(7)
		slots := g.slotTimes(now, nj)
		names := map[string]bool{}
		for j := 0; j < nj; j++ {
			job := decideJob{State: g.pick("active", "succeeded", "succeeded", "failed")}
			st := slots[j]
			job.Name = in.Name + "-" + strconv.FormatInt(st.Unix(), 10)
			if g.chance(6) {
				job.Name = "manual-" + strconv.Itoa(j)
			}
			if names[job.Name] {
				continue
			}
			names[job.Name] = true
			switch g.rng.IntN(10) {
			case 0:
			case 1:
				job.ScheduledAt = ptr(g.pick("", "garbage", "2026-13-01T00:00:00Z", "2026-06-21 09:00:00"))
			case 2:
				loc, _ := time.LoadLocation(g.pick(decideZones...))
				job.ScheduledAt = ptr(st.In(loc).Format(time.RFC3339))
			default:
				job.ScheduledAt = ptr(st.UTC().Format(time.RFC3339))
			}
			if !g.chance(4) {
				s := st.Add(time.Duration(g.rng.IntN(3)) * time.Second).UTC().Format(time.RFC3339)
				if g.chance(5) && len(in.Jobs) > 0 && in.Jobs[0].StartTime != nil {
					s = *in.Jobs[0].StartTime // a tie
				}
				job.StartTime = &s
			}
			in.Jobs = append(in.Jobs, job)
		}
		if in.Jobs == nil {
			in.Jobs = []decideJob{}
		}
		sort.Slice(in.Jobs, func(a, b int) bool { return in.Jobs[a].Name < in.Jobs[b].Name })
		each(i, in)
	}
}

func TestCronDecideRandom(t *testing.T) {
	requireFn(t, fnCronDecide, decideInput{Name: "a", CreationTimestamp: "2026-01-01T00:00:00Z", Now: "2026-01-01T00:00:00Z",
		Spec: json.RawMessage(`{"schedule":"* * * * *","template":{"jobTemplate":{}}}`)})
	var r tally
	seen := map[string]int{}
	randomDecideInputs(t, randomCount(2500), func(i int, in decideInput) {
		out, p := refDecide(t, in)
		switch {
		case p != nil:
			seen["panic"]++
		case out.JobName != nil:
			seen[out.Action]++
			seen[out.Type]++
		case out.RequeueAfterSeconds != nil:
			seen["skip"]++
		default:
			seen["no requeue"]++
		}
		if p == nil && len(out.HistoryDeletes) > 0 {
			seen["history deletes"]++
		}
		compareDecide(t, &r, fmt.Sprintf("random #%d", i), in)
	})
	r.report(t, "cron.decide random")
	t.Logf("reference outcomes: %v", seen)
	for _, k := range []string{"create", "replace", "skip", "no requeue", "history deletes", "Job", "BroadcastJob", "ImageListPullJob"} {
		if seen[k] < 20 {
			t.Errorf("reference outcome %s reached %d times", k, seen[k])
		}
	}
}
