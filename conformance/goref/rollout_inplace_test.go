// Differential test of rollout.inplace_update against OpenKruise's pkg/util/inplaceupdate: the
// default CalculateSpec (defaultCalculateInPlaceUpdateSpec, reached through the exported
// SetOptionsDefaults) with the CloneSet's options (IgnoreVolumeClaimTemplatesHashDiff for
// InPlaceOnly, as cloneset_core.go GetUpdateOptions), DefaultCheckInPlaceUpdateCompleted, the
// patch of github.com/appscode/jsonpatch v1.0.1 CreatePatch, and the feature gates set per case.
package goref

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/appscode/jsonpatch"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-base/featuregate"
	kubeletcontainer "k8s.io/kubernetes/pkg/kubelet/container"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	"github.com/openkruise/kruise/pkg/features"
	utilcontainermeta "github.com/openkruise/kruise/pkg/util/containermeta"
	utilfeature "github.com/openkruise/kruise/pkg/util/feature"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
)

type inplaceRevIn struct {
	Name        string            `json:"name"`
	Annotations map[string]string `json:"annotations"`
	Data        json.RawMessage   `json:"data"`
	Template    json.RawMessage   `json:"template"`
}

type inplaceIn struct {
	OldRevision  *inplaceRevIn   `json:"oldRevision"`
	NewRevision  inplaceRevIn    `json:"newRevision"`
	UpdateType   *string         `json:"updateType"`
	FeatureGates map[string]bool `json:"featureGates"`
	Pod          *corev1.Pod     `json:"pod"`
}

// controllerRevision builds the revision the controller holds: data as given (a JSON string is
// the raw bytes), or the template wrapped as the CloneSet stores it.
func (r *inplaceRevIn) controllerRevision() *apps.ControllerRevision {
	raw := []byte(r.Data)
	if len(r.Template) > 0 {
		raw = mustJSON(map[string]any{"spec": map[string]any{"template": json.RawMessage(r.Template)}})
	} else if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			panic(err)
		}
		raw = []byte(s)
	}
	return &apps.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Name: r.Name, Annotations: r.Annotations},
		Data:       runtime.RawExtension{Raw: raw},
	}
}

func setInplaceGates(g map[string]bool) {
	get := func(name string, def bool) bool {
		if v, ok := g[name]; ok {
			return v
		}
		return def
	}
	for _, f := range []struct {
		gate featuregate.Feature
		def  bool
	}{
		{features.InPlaceUpdateEnvFromMetadata, true},
		{features.InPlaceWorkloadVerticalScaling, false},
		{features.RecreatePodWhenChangeVCTInCloneSetGate, false},
	} {
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%v", f.gate, get(string(f.gate), f.def))); err != nil {
			panic(err)
		}
	}
}

// sortedOps orders patch operations by path, op and value (the reference's order follows Go's
// map iteration and is unspecified).
func sortedOps(ops []any) []any {
	sort.SliceStable(ops, func(i, j int) bool {
		return string(mustJSON(ops[i])) < string(mustJSON(ops[j]))
	})
	return ops
}

func refInplace(in json.RawMessage) refOutcome {
	var i inplaceIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	ut := "ReCreate"
	if i.UpdateType != nil {
		ut = *i.UpdateType
	}
	// input rules of the fn itself: a known update type (the CloneSet webhook allows no other),
	// exactly one of data and template
	switch ut {
	case "ReCreate", "InPlaceIfPossible", "InPlaceOnly":
	default:
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	for _, r := range []*inplaceRevIn{i.OldRevision, &i.NewRevision} {
		if r == nil {
			continue
		}
		if (len(r.Data) > 0 && string(r.Data) != "null") == (len(r.Template) > 0 && string(r.Template) != "null") {
			return refOutcome{kind: "invalid_input"}
		}
		if len(r.Template) == 0 || string(r.Template) == "null" {
			var m map[string]any
			if err := json.Unmarshal(r.controllerRevision().Data.Raw, &m); err != nil || m == nil {
				// the reference cannot build the patch (or, for null, panics reading the
				// template) and recreates; kruise-core refuses the revision
				o.classes = append(o.classes, "inplace-revision-not-an-object")
			}
		}
	}
	setInplaceGates(i.FeatureGates)
	newRev := i.NewRevision.controllerRevision()
	var oldRev *apps.ControllerRevision
	ops := []any{}
	if i.OldRevision != nil {
		oldRev = i.OldRevision.controllerRevision()
		// on an error (a revision that is not a JSON object: class above) the reference
		// recreates; the patch stays empty
		patch, _ := jsonpatch.CreatePatch(oldRev.Data.Raw, newRev.Data.Raw)
		for _, p := range patch {
			// the in-memory operation: add and replace carry a value, null included
			op := map[string]any{"op": p.Operation, "path": p.Path}
			if p.Operation != "remove" {
				var v any
				if err := json.Unmarshal(mustJSON(p.Value), &v); err != nil {
					panic(err)
				}
				op["value"] = v
			}
			ops = append(ops, op)
		}
		for _, r := range []*apps.ControllerRevision{oldRev, newRev} {
			if len(o.classes) > 0 {
				break
			}
			if _, err := inplaceupdate.GetTemplateFromRevision(r); err != nil {
				// the reference recreates; kruise-core refuses the template naming the member
				o.classes = append(o.classes, "inplace-template-not-decodable")
			}
		}
	}
	opts := inplaceupdate.SetOptionsDefaults(&inplaceupdate.UpdateOptions{IgnoreVolumeClaimTemplatesHashDiff: ut == "InPlaceOnly"})
	spec := opts.CalculateSpec(oldRev, newRev, opts)
	out := map[string]any{
		"canInPlace":            spec != nil,
		"patch":                 sortedOps(ops),
		"containerImages":       map[string]any{},
		"containerResources":    map[string]any{},
		"containerRefMetadata":  map[string]any{},
		"updateEnvFromMetadata": false,
		"metadataPatch":         nil,
		"completion":            nil,
	}
	switch {
	case ut == "ReCreate":
		out["action"] = "Recreate"
	case spec != nil:
		out["action"] = "InPlace"
	case ut == "InPlaceOnly":
		out["action"] = "Blocked"
	default:
		out["action"] = "Recreate"
	}
	o.label = fmt.Sprint(out["action"], "/", spec != nil)
	if spec != nil {
		imgs := map[string]any{}
		for k, v := range spec.ContainerImages {
			imgs[k] = v
		}
		out["containerImages"] = imgs
		res := map[string]any{}
		for k, v := range spec.ContainerResources {
			l, r := map[string]any{}, map[string]any{}
			for n, q := range v.Limits {
				l[string(n)] = q.String()
			}
			for n, q := range v.Requests {
				r[string(n)] = q.String()
			}
			res[k] = map[string]any{"limits": l, "requests": r}
		}
		out["containerResources"] = res
		meta := map[string]any{}
		for k, v := range spec.ContainerRefMetadata {
			m := map[string]any{}
			if len(v.Labels) > 0 {
				m["labels"] = v.Labels
			}
			if len(v.Annotations) > 0 {
				m["annotations"] = v.Annotations
			}
			meta[k] = m
		}
		out["containerRefMetadata"] = meta
		out["updateEnvFromMetadata"] = spec.UpdateEnvFromMetadata
		if spec.MetaDataPatch != nil {
			var v any
			if err := json.Unmarshal(spec.MetaDataPatch, &v); err != nil {
				panic(err)
			}
			out["metadataPatch"] = v
		}
		if len(spec.ContainerResources) > 0 {
			o.label += "/resources"
		}
		if spec.UpdateEnvFromMetadata {
			o.label += "/env"
		}
	}
	if i.Pod != nil {
		err := inplaceupdate.DefaultCheckInPlaceUpdateCompleted(i.Pod)
		out["completion"] = map[string]any{"completed": err == nil}
		if oldKubeletHashDecides(i.Pod) {
			o.classes = append(o.classes, "inplace-runtime-hashes")
		}
		o.label += fmt.Sprint("/completed=", err == nil)
	}
	o.value = out
	return o
}

// projectInplace drops what the reference does not compute (the reason, the completion message)
// and sorts the patch.
func projectInplace(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	delete(m, "reason")
	if c, ok := m["completion"].(map[string]any); ok {
		delete(c, "message")
	}
	if p, ok := m["patch"].([]any); ok {
		m["patch"] = sortedOps(p)
	}
	for _, k := range []string{"containerImages", "containerResources", "containerRefMetadata"} {
		if m[k] == nil {
			m[k] = map[string]any{}
		}
	}
	return m
}

var diffInplace = diffFn{family: "rollout", fn: "rollout.inplace_update", ref: refInplace, project: projectInplace}

// ---- generator ----

var (
	inplaceImages = []string{"nginx:1.25", "nginx:1.26", "nginx", "busybox:latest", "reg:5000/app", "reg:5000/app:v2"}
	inplaceQty    = []string{"100m", "200m", "0.5", "500m", "1", "2", "1Gi", "512Mi", "2Gi", "1024Mi", "bad"}
)

func (g *gen) inplaceEnv() []any {
	var env []any
	for k := g.count(3); k > 0; k-- {
		name := g.pick("A", "B", "SIDECARSET_VERSION", "C")
		switch g.n(5) {
		case 0:
			env = append(env, map[string]any{"name": name, "value": g.pick("x", "y")})
		case 1:
			env = append(env, map[string]any{"name": name, "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": g.pick("metadata.name", "metadata.labels", "['k1']", "metadata.labels['k1'", "status.podIP")}}})
		default:
			path := g.pick("metadata.labels['k1']", "metadata.labels['k2']", "metadata.annotations['a1']", "metadata.annotations['a/b']", "metadata.labels['a/b']")
			e := map[string]any{"name": name, "valueFrom": map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": path}}}
			if g.chance(8) {
				e["value"] = "set"
			}
			env = append(env, e)
		}
	}
	return env
}

func (g *gen) inplaceResources() map[string]any {
	r := map[string]any{}
	for _, kind := range []string{"limits", "requests"} {
		if g.chance(3) {
			continue
		}
		l := map[string]any{}
		for _, n := range []string{"cpu", "memory", "nvidia.com/gpu", "ephemeral-storage"} {
			if (n == "cpu" || n == "memory") && !g.chance(4) || g.chance(8) {
				q := inplaceQty[g.n(len(inplaceQty)-1)]
				if g.chance(60) {
					q = "bad"
				}
				l[n] = q
			}
		}
		r[kind] = l
	}
	return r
}

func (g *gen) inplaceContainer(name string) map[string]any {
	c := map[string]any{"name": name, "image": inplaceImages[g.n(len(inplaceImages))]}
	if g.n(3) > 0 {
		if e := g.inplaceEnv(); len(e) > 0 {
			c["env"] = e
		}
	}
	if g.n(3) > 0 {
		c["resources"] = g.inplaceResources()
	}
	if g.chance(4) {
		c["imagePullPolicy"] = g.pick("Always", "IfNotPresent")
	}
	return c
}

func (g *gen) inplaceMeta() map[string]any {
	m := map[string]any{}
	labels := map[string]any{"app": "demo"}
	for _, k := range []string{"k1", "k2", "a/b", "x"} {
		if g.bool() {
			labels[k] = g.pick("v1", "v2", "")
		}
	}
	if !g.chance(8) {
		m["labels"] = labels
	}
	if g.bool() {
		ann := map[string]any{}
		for _, k := range []string{"a1", "a/b", "a~c"} {
			if g.bool() {
				ann[k] = g.pick("p", "q")
			}
		}
		m["annotations"] = ann
	}
	if g.chance(5) {
		var f []any
		for _, x := range []string{"fz1", "fz2", "fz3"} {
			if g.bool() {
				f = append(f, x)
			}
		}
		m["finalizers"] = f
	}
	return m
}

func (g *gen) inplaceTemplate() map[string]any {
	var cs []any
	names := []string{"app", "sidecar", "log"}
	for k := 1 + g.n(3); k > 0; k-- {
		cs = append(cs, g.inplaceContainer(names[len(cs)]))
	}
	spec := map[string]any{"containers": cs}
	if g.chance(6) {
		spec["terminationGracePeriodSeconds"] = g.pickInt(10, 30)
	}
	t := map[string]any{"spec": spec}
	if !g.chance(10) {
		t["metadata"] = g.inplaceMeta()
	}
	return t
}

// inplaceCopy copies a generated JSON value.
func inplaceCopy(v any) any {
	var out any
	if err := json.Unmarshal(mustJSON(v), &out); err != nil {
		panic(err)
	}
	return out
}

// mutateTemplate applies a few random edits, most of them ones an in-place update can take.
func (g *gen) mutateTemplate(t map[string]any) {
	spec := t["spec"].(map[string]any)
	cs := spec["containers"].([]any)
	for k := 1 + g.n(3); k > 0; k-- {
		c := cs[g.n(len(cs))].(map[string]any)
		switch g.n(14) {
		case 0, 1, 2, 3:
			c["image"] = inplaceImages[g.n(len(inplaceImages))]
		case 4, 5, 6:
			if r, ok := c["resources"].(map[string]any); ok {
				for _, kind := range []string{"limits", "requests"} {
					if l, ok := r[kind].(map[string]any); ok && g.bool() {
						n := g.pick("cpu", "memory", "cpu", "memory", "nvidia.com/gpu")
						if g.chance(6) {
							delete(l, n)
						} else {
							l[n] = inplaceQty[g.n(len(inplaceQty))]
						}
					}
				}
			} else {
				c["resources"] = g.inplaceResources()
			}
		case 7, 8:
			if e := g.inplaceEnv(); len(e) > 0 {
				c["env"] = e
			} else {
				delete(c, "env")
			}
		case 9:
			if len(cs) < 3 && g.bool() {
				cs = append(cs, g.inplaceContainer("extra"))
			} else if len(cs) > 1 {
				cs = cs[:len(cs)-1]
			}
			spec["containers"] = cs
		case 10:
			if len(cs) > 1 {
				cs[0], cs[1] = cs[1], cs[0]
			}
		case 11:
			c["imagePullPolicy"] = g.pick("Always", "Never")
		default:
			// metadata only
		}
	}
	if g.bool() {
		meta, ok := t["metadata"].(map[string]any)
		if !ok || g.chance(10) {
			t["metadata"] = g.inplaceMeta()
			return
		}
		for k := 1 + g.n(3); k > 0; k-- {
			which := g.pick("labels", "annotations", "labels", "finalizers")
			m, _ := meta[which].(map[string]any)
			switch {
			case which == "finalizers":
				meta["finalizers"] = g.inplaceMeta()["finalizers"]
			case m == nil:
				meta[which] = map[string]any{g.pick("k1", "a1", "a/b"): g.pick("v1", "v9")}
			case g.chance(4):
				delete(m, g.pick("k1", "k2", "a1", "a/b", "a~c", "x"))
			default:
				m[g.pick("k1", "k2", "a1", "a/b", "a~c", "x")] = g.pick("v1", "v2", "v3", "")
			}
		}
	}
}

func (g *gen) inplaceRevision(name string, t map[string]any) map[string]any {
	r := map[string]any{"name": name}
	switch g.n(10) {
	case 0, 1:
		r["template"] = t
	case 2:
		t["$patch"] = "replace"
		r["data"] = string(mustJSON(map[string]any{"spec": map[string]any{"template": t}}))
	default:
		t["$patch"] = "replace"
		d := map[string]any{"spec": map[string]any{"template": t}}
		if g.chance(8) {
			d["metadata"] = map[string]any{"labels": map[string]any{"k": g.pick("v", "w")}}
		}
		r["data"] = d
	}
	if g.n(3) > 0 {
		r["annotations"] = map[string]any{"kruise.io/cloneset-volumeclaimtemplate-hash": g.pick("", "111", "222")}
	}
	return r
}

func (g *gen) inplacePod(tmpl map[string]any) map[string]any {
	var containers, statuses []any
	last := map[string]any{}
	for _, c := range tmpl["spec"].(map[string]any)["containers"].([]any) {
		cm := c.(map[string]any)
		name := cm["name"].(string)
		img := cm["image"].(string)
		pc := map[string]any{"name": name, "image": img}
		if r, ok := cm["resources"]; ok && !g.chance(4) {
			pc["resources"] = r
		}
		containers = append(containers, pc)
		if g.chance(8) {
			continue
		}
		id := g.pick("sha-1", "sha-2")
		if env, ok := cm["env"]; ok && !g.chance(4) {
			pc["env"] = env
		}
		st := map[string]any{"name": name, "imageID": id, "image": g.pick(img, img+":latest", "other:1"), "containerID": g.pick("containerd://c1", "containerd://c2")}
		if g.n(3) > 0 {
			if r, ok := pc["resources"].(map[string]any); ok && g.n(3) > 0 {
				st["resources"] = r
			} else {
				st["resources"] = g.inplaceResources()
			}
		}
		statuses = append(statuses, st)
		if g.bool() {
			last[name] = map[string]any{"imageID": g.pick(id, "sha-1", "sha-0")}
		}
	}
	if g.chance(6) {
		last["ghost"] = map[string]any{"imageID": "sha-1"}
	}
	ann := map[string]any{}
	if !g.chance(6) {
		state := map[string]any{"revision": "new", "updateTimestamp": "2026-06-01T00:00:00Z", "lastContainerStatuses": last}
		if g.chance(5) {
			state["updateResources"] = true
		}
		if g.chance(8) {
			state["updateEnvFromMetadata"] = true
		}
		if g.chance(8) {
			state["nextContainerImages"] = map[string]any{"app": "nginx:9"}
		}
		key := "apps.kruise.io/inplace-update-state"
		if g.chance(10) {
			key = "inplace-update-state"
		}
		ann[key] = string(mustJSON(state))
	}
	if g.chance(12) {
		ann[g.pick("apps.kruise.io/inplace-update-grace", "inplace-update-grace")] = `{"revision":"new","containerImages":{},"graceSeconds":30}`
	}
	labels := map[string]any{}
	for _, k := range []string{"k1", "a/b", "x"} {
		if g.bool() {
			labels[k] = g.pick("n1", "n2", "")
		}
	}
	for _, k := range []string{"a1", "a~c"} {
		if g.bool() {
			ann[k] = g.pick("n1", "n2", "<&>")
		}
	}
	pod := map[string]any{
		"metadata": map[string]any{"name": "pod-0", "labels": labels, "annotations": ann},
		"spec":     map[string]any{"containers": containers},
		"status":   map[string]any{"containerStatuses": statuses},
	}
	if g.chance(3) {
		ann["apps.kruise.io/runtime-containers-meta"] = g.runtimeMeta(pod)
	}
	return pod
}

// runtimeMeta is kruise-daemon's annotation for the pod: per container (some left out) the
// status's containerID (sometimes another) and the hashes the reference expects, each sometimes
// off by one; or a malformed value.
func (g *gen) runtimeMeta(pod map[string]any) string {
	switch g.n(14) {
	case 0:
		return g.pick(`null`, `[]`, `{"containers":[{"hashes":{"plainHash":-1}}]}`, `{"containers":[{"hashes":{"plainHash":1.5}}]}`, `{"containers":null}`, `{"containers":[null]}`, `{"containers":[{"restartCount":4294967296}]}`)
	}
	var p corev1.Pod
	if err := json.Unmarshal(mustJSON(pod), &p); err != nil {
		return `{"containers":[]}`
	}
	hasher := utilcontainermeta.NewEnvFromMetadataHasher()
	cs := []any{}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		if g.chance(12) {
			continue
		}
		cid := ""
		for _, st := range p.Status.ContainerStatuses {
			if st.Name == c.Name {
				cid = st.ContainerID
				break
			}
		}
		if g.chance(10) {
			cid = "containerd://other"
		}
		plain := kubeletcontainer.HashContainer(c)
		if g.chance(5) {
			plain++
		}
		env := hasher.GetExpectHash(c, &p)
		if g.chance(5) {
			env++
		}
		h := map[string]any{"plainHash": plain}
		if !g.chance(6) {
			h["extractedEnvFromMetadataHash"] = env
		}
		cs = append(cs, map[string]any{"name": c.Name, "containerID": cid, "restartCount": g.n(3), "hashes": h})
	}
	return string(mustJSON(map[string]any{"containers": cs}))
}

// oldKubeletHashDecides reports whether the pod's runtime-containers-meta has a container whose
// plain hash differs from kubelet v1.32's HashContainer while its status and containerID match:
// the reference then also tries the pre-1.31 kubelet hash (the whole container's JSON), which
// kruise-core does not compute (it answers completed null when the image check fails).
func oldKubeletHashDecides(pod *corev1.Pod) bool {
	set, err := appspub.GetRuntimeContainerMetaSet(pod)
	if err != nil || set == nil {
		return false
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		var st *corev1.ContainerStatus
		for j := range pod.Status.ContainerStatuses {
			if pod.Status.ContainerStatuses[j].Name == c.Name {
				st = &pod.Status.ContainerStatuses[j]
				break
			}
		}
		var meta *appspub.RuntimeContainerMeta
		for j := range set.Containers {
			if set.Containers[j].Name == c.Name {
				meta = &set.Containers[j]
			}
		}
		if st == nil || meta == nil || meta.ContainerID != st.ContainerID {
			return false
		}
		if kubeletcontainer.HashContainer(c) != meta.Hashes.PlainHash {
			return true
		}
	}
	return false
}

func genInplace(g *gen) any {
	old := g.inplaceTemplate()
	nt := inplaceCopy(old).(map[string]any)
	switch {
	case g.chance(5):
		// labels and annotations read through the downward API, changed alone or with an image
		c0 := old["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
		c0["env"] = []any{
			map[string]any{"name": "L", "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "metadata.labels['" + g.pick("k1", "a/b") + "']"}}},
			map[string]any{"name": g.pick("N", "SIDECARSET_VERSION_ALT"), "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "metadata.annotations['" + g.pick("a1", "a~c") + "']"}}},
		}
		nt = inplaceCopy(old).(map[string]any)
		meta, _ := nt["metadata"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
			nt["metadata"] = meta
			old["metadata"] = map[string]any{"labels": map[string]any{"app": "demo"}}
		}
		for _, which := range []string{"labels", "annotations"} {
			m, _ := meta[which].(map[string]any)
			if m == nil {
				m = map[string]any{}
				meta[which] = m
			}
			for _, k := range []string{"k1", "a/b", "a1", "a~c", "x"} {
				if g.bool() {
					m[k] = g.pick("n1", "n2")
				}
			}
		}
		if g.bool() {
			c := nt["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			c["image"] = inplaceImages[g.n(len(inplaceImages))]
		}
	case !g.chance(12):
		g.mutateTemplate(nt)
	}
	in := map[string]any{}
	podTmpl := inplaceCopy(nt).(map[string]any)
	if g.chance(20) {
		in["oldRevision"] = nil
	} else {
		in["oldRevision"] = g.inplaceRevision("old", old)
	}
	in["newRevision"] = g.inplaceRevision("new", nt)
	if !g.chance(8) {
		in["updateType"] = g.pick("ReCreate", "InPlaceIfPossible", "InPlaceOnly", "InPlaceIfPossible")
	}
	gates := map[string]any{}
	for _, n := range []string{"InPlaceUpdateEnvFromMetadata", "InPlaceWorkloadVerticalScaling", "InPlaceWorkloadVerticalScaling", "RecreatePodWhenChangeVCTInCloneSetGate"} {
		if g.n(3) > 0 {
			gates[n] = g.n(3) > 0
		}
	}
	in["featureGates"] = gates
	if g.bool() {
		in["pod"] = g.inplacePod(podTmpl)
	}
	return in
}

func TestRolloutInplaceUpdateVectorsReference(t *testing.T) {
	diffInplace.checkVectorsReference(t, "rollout_inplace")
}

func TestRolloutInplaceUpdateVectors(t *testing.T) {
	requireFn(t, diffInplace.fn, map[string]any{"newRevision": map[string]any{"template": map[string]any{}}})
	diffInplace.compareVectors(t, "rollout_inplace")
}

func TestRolloutInplaceUpdateRandomCoverage(t *testing.T) {
	diffInplace.checkCoverage(t, genInputs(1301, randomCount(4*baseRandom), genInplace), 10,
		"InPlace/true", "Recreate/false", "Recreate/true", "Blocked/false",
		"InPlace/true/resources", "InPlace/true/env", "InPlace/true/completed=true", "InPlace/true/completed=false", "invalid_input")
}

func TestRolloutInplaceUpdateRandom(t *testing.T) {
	requireFn(t, diffInplace.fn, map[string]any{"newRevision": map[string]any{"template": map[string]any{}}})
	diffInplace.compareRandom(t, genInputs(1301, randomCount(4*baseRandom), genInplace))
}
