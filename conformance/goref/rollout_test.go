// Differential test of rollout.daemonset_nodes_needing_pods against GetNodesNeedingPods
// (pkg/controller/daemonset/daemonset_util.go, exported). The other rollout fns need the overlay
// (rollout_overlay_test.go); their shared generators live here.
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: conformance/goref/run -run Rollout
package goref

import (
	"encoding/json"
	"fmt"
	"testing"

	dsctrl "github.com/openkruise/kruise/pkg/controller/daemonset"
)

// ---- rollout.daemonset_nodes_needing_pods ----

type nodesNeedingIn struct {
	NewPodsNum       int      `json:"newPodsNum"`
	Desired          int      `json:"desired"`
	Partition        int      `json:"partition"`
	Progressive      bool     `json:"progressive"`
	NodesNeedingPods []string `json:"nodesNeedingPods"`
}

func refNodesNeedingPods(in json.RawMessage) refOutcome {
	var i nodesNeedingIn
	if err := decodeInto(in, &i); err != nil {
		return refOutcome{kind: "invalid_input"}
	}
	o := refOutcome{}
	if bigIntegers(in) {
		o.classes = append(o.classes, "int32-overflow")
	}
	nodes := append([]string(nil), i.NodesNeedingPods...)
	got := dsctrl.GetNodesNeedingPods(i.NewPodsNum, i.Desired, i.Partition, i.Progressive, nodes)
	if got == nil {
		got = []string{}
	}
	o.value = got
	switch {
	case len(got) == 0:
		o.label = "none"
	case len(got) < len(i.NodesNeedingPods):
		o.label = "truncated"
	default:
		o.label = "all"
	}
	return o
}

var diffNodesNeedingPods = diffFn{family: "rollout", fn: "rollout.daemonset_nodes_needing_pods", ref: refNodesNeedingPods}

// nodeNames draws k node names: unsorted, one in 24 a repeat of an earlier name, some whose
// byte order differs from their numeric order.
func (g *gen) nodeNames(k int) []string {
	out := []string{}
	seen := map[string]bool{}
	perm := g.rng.Perm(3*k + 3)
	for i := 0; i < k; i++ {
		name := fmt.Sprintf("node-%d", perm[i])
		switch g.n(24) {
		case 0:
			if len(out) > 0 {
				out = append(out, out[g.n(len(out))])
				continue
			}
		case 1, 2:
			if alt := g.pick("node-10", "node-9", "Node-1", "node-1a", "", "z", "a"); !seen[alt] {
				name = alt
			}
		}
		if seen[name] {
			name = fmt.Sprintf("node-x%d", i)
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}

func genNodesNeedingPods(g *gen) any {
	desired := g.count(12)
	if g.chance(20) {
		desired = g.int32Edge()
	}
	k := g.count(10)
	some := g.n(max(desired, 0) + 3)
	in := map[string]any{
		"newPodsNum":       g.pickInt(0, 0, 1, 2, desired, desired+1, some),
		"desired":          desired,
		"partition":        g.pickInt(0, 0, 1, 2, desired, desired-1, desired+1, -1, some),
		"progressive":      g.n(3) > 0,
		"nodesNeedingPods": g.nodeNames(k),
	}
	if g.chance(15) {
		delete(in, g.pick("progressive", "nodesNeedingPods"))
	}
	return in
}

func TestRolloutNodesNeedingPodsVectorsReference(t *testing.T) {
	diffNodesNeedingPods.checkVectorsReference(t, "rollout")
}

func TestRolloutNodesNeedingPodsVectors(t *testing.T) {
	requireFn(t, diffNodesNeedingPods.fn, map[string]any{"newPodsNum": 0, "desired": 0, "partition": 0})
	diffNodesNeedingPods.compareVectors(t, "rollout")
}

func TestRolloutNodesNeedingPodsRandomCoverage(t *testing.T) {
	diffNodesNeedingPods.checkCoverage(t, genInputs(3101, randomCount(baseRandom), genNodesNeedingPods), 100,
		"none", "truncated", "all")
}

func TestRolloutNodesNeedingPodsRandom(t *testing.T) {
	requireFn(t, diffNodesNeedingPods.fn, map[string]any{"newPodsNum": 0, "desired": 0, "partition": 0})
	diffNodesNeedingPods.compareRandom(t, genInputs(3101, randomCount(baseRandom), genNodesNeedingPods))
}
