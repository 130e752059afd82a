// Shared machinery of the allocation and rollout differential tests (allocation*_test.go,
// rollout*_test.go): a reference adapter per fn id turns the fn's vector input into calls of the
// OpenKruise Go code and its answer into the fn's output shape; the harness below compares it
// with kruise-core's answer, checks the shared vectors against the reference, and tallies the
// reference's outcomes so the generators can be checked for coverage.
package goref

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func init() {
	// The reference logs every decision through klog; the tests only want the answers.
	klog.SetLogger(logr.Discard())
}

// refOutcome is the reference's answer to one input.
type refOutcome struct {
	// value is the answer in the fn's output shape (ignored when kind is set).
	value any
	// kind is the error kind the spec assigns to the reference's error ("" for a value). The
	// harness sets "panic: ..." when the reference panicked; adapters return "unmapped: ..." for an
	// error they cannot name and "invalid_input" when Go cannot decode the input into its types.
	kind string
	// classes are the deviations.txt classes this input falls into, recognised from the input and
	// the reference's intermediate values (never from kruise-core's answer).
	classes []string
	// label names the outcome for the coverage tests ("" = the kind, or "value").
	label string
}

// refFn is a reference adapter: the vector input of a fn id in, the reference's answer out.
type refFn func(in json.RawMessage) refOutcome

// diffFn describes one fn id under differential test.
type diffFn struct {
	family, fn string
	ref        refFn
	// project, when set, maps kruise-core's value to what the reference can be compared with
	// (it removes outputs the reference does not compute; see the README's table).
	project func(ours any) any
}

// callRef runs the adapter, turning a panic of the reference into a "panic: ..." kind.
func callRef(ref refFn, in json.RawMessage) (o refOutcome) {
	defer func() {
		if p := recover(); p != nil {
			o = refOutcome{kind: fmt.Sprintf("panic: %v", p)}
		}
	}()
	return ref(in)
}

// outcomeLabel is the coverage label of o.
func outcomeLabel(o refOutcome) string {
	switch {
	case o.label != "":
		return o.label
	case o.kind != "":
		return o.kind
	}
	return "value"
}

// mustJSON marshals v (a test input or answer).
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// compact is b without insignificant white space.
func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// canonJSON decodes b into plain values with every number as an exact rational string, so that
// 15, 15.0 and 1.5e1 compare equal and integers beyond 2^53 stay exact.
func canonJSON(b []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return canonNumbers(v), nil
}

// canonNum is a JSON number in canonical rational form.
type canonNum string

func canonNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return "bad number " + string(x)
		}
		return canonNum(r.RatString())
	case []any:
		for i := range x {
			x[i] = canonNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = canonNumbers(x[k])
		}
	}
	return v
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(a, b []byte) bool {
	x, err1 := canonJSON(a)
	y, err2 := canonJSON(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
}

// compare runs one input through the reference and kruise-core and records the outcome in r.
func (d diffFn) compare(t *testing.T, r *tally, label string, input any) {
	t.Helper()
	in := mustJSON(input)
	r.total++
	want := callRef(d.ref, in)
	raw, gotK, err := ours(d.fn, in)
	if err != nil {
		t.Fatalf("%s %s: kruisecore.Call: %v", d.fn, label, err)
	}
	got := []byte(raw)
	if gotK == "" && d.project != nil {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s %s: ours returned bad JSON %s", d.fn, label, raw)
		}
		got = mustJSON(d.project(v))
	}
	switch {
	case want.kind == "" && gotK == "" && jsonEqual(mustJSON(want.value), got):
		r.agreeValue++
		return
	case want.kind != "" && want.kind == gotK:
		r.agreeError++
		return
	}
	for _, c := range want.classes {
		if allowed(d.family, c) {
			r.allow(c)
			return
		}
	}
	wantS := want.kind
	if wantS == "" {
		wantS = string(mustJSON(want.value))
	}
	gotS := gotK
	if gotS == "" {
		gotS = string(got)
	}
	r.fail("%s %s: input %s\n  reference: %s\n  ours:      %s\n  classes: %v", d.fn, label, in, wantS, gotS, want.classes)
}

// checkVectorsReference checks that the reference itself gives every vector's answer of the fn
// (the reference wins: a failure means conformance/vectors/<area>.json must be corrected). A
// vector whose input falls into an accepted class (a documented deviation) is only logged.
func (d diffFn) checkVectorsReference(t *testing.T, area string) {
	t.Helper()
	n, logged := 0, 0
	for _, c := range loadVectors(t, area, d.fn) {
		n++
		o := callRef(d.ref, c.Input)
		ok := false
		expect := []byte(c.Expect)
		if c.ExpectError == "" && d.project != nil {
			var v any
			if err := json.Unmarshal(c.Expect, &v); err != nil {
				t.Fatalf("vector %q: bad expect: %v", c.Name, err)
			}
			expect = mustJSON(d.project(v))
		}
		if c.ExpectError != "" {
			ok = o.kind == c.ExpectError
		} else {
			ok = o.kind == "" && jsonEqual(mustJSON(o.value), expect)
		}
		if ok {
			continue
		}
		got := o.kind
		if got == "" {
			got = string(mustJSON(o.value))
		}
		want := c.ExpectError
		if want == "" {
			want = string(compact(expect))
		}
		if cls := allowedClass(d.family, o.classes); cls != "" {
			logged++
			t.Logf("vector %q (%s): reference %s, vector %s: accepted class %s", c.Name, compact(c.Input), got, want, cls)
			continue
		}
		t.Errorf("vector %q (%s):\n  reference gives %s\n  vector expects  %s", c.Name, compact(c.Input), got, want)
	}
	t.Logf("%s: %d vectors checked against the reference (%d in an accepted class)", d.fn, n, logged)
}

// allowedClass returns the first of classes that deviations.txt lists for family ("" if none).
func allowedClass(family string, classes []string) string {
	for _, c := range classes {
		if allowed(family, c) {
			return c
		}
	}
	return ""
}

// compareVectors compares the reference and kruise-core on every vector of the fn.
func (d diffFn) compareVectors(t *testing.T, area string) {
	t.Helper()
	var r tally
	for _, c := range loadVectors(t, area, d.fn) {
		d.compare(t, &r, "vector "+c.Name, c.Input)
	}
	r.report(t, d.fn+" vectors")
}

// compareRandom compares the reference and kruise-core on every generated input.
func (d diffFn) compareRandom(t *testing.T, inputs []any) {
	t.Helper()
	var r tally
	for i, in := range inputs {
		d.compare(t, &r, fmt.Sprintf("random #%d", i), in)
	}
	r.report(t, fmt.Sprintf("%s random", d.fn))
}

// checkCoverage runs the reference on every generated input and requires each of want (outcome
// labels) at least min times, and no panic or unmapped reference error outside an accepted
// class, so that the differential test cannot pass vacuously.
func (d diffFn) checkCoverage(t *testing.T, inputs []any, min int, want ...string) {
	t.Helper()
	seen := map[string]int{}
	for _, in := range inputs {
		o := callRef(d.ref, mustJSON(in))
		l := outcomeLabel(o)
		if strings.HasPrefix(l, "panic") || strings.HasPrefix(l, "unmapped") {
			if allowedClass(d.family, o.classes) == "" {
				t.Errorf("%s: reference outcome %q for input %s has no kind and no accepted class", d.fn, l, mustJSON(in))
			}
			l = strings.SplitN(l, ":", 2)[0]
		}
		seen[l]++
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, seen[k])
	}
	t.Logf("%s: reference outcomes over %d random inputs:%s", d.fn, len(inputs), b.String())
	for _, w := range want {
		if seen[w] < min {
			t.Errorf("%s: outcome %s reached only %d times (want >= %d)", d.fn, w, seen[w], min)
		}
	}
}

// gen is the random source of a generator, with helpers biased to edge values.
type gen struct{ rng *rand.Rand }

func newGen(seed uint64) *gen { return &gen{rng: rand.New(rand.NewPCG(seed, 7))} }

func (g *gen) n(k int) int       { return g.rng.IntN(k) }
func (g *gen) chance(k int) bool { return g.rng.IntN(k) == 0 }
func (g *gen) pick(xs ...string) string {
	return xs[g.rng.IntN(len(xs))]
}
func (g *gen) pickInt(xs ...int) int { return xs[g.rng.IntN(len(xs))] }
func (g *gen) bool() bool            { return g.rng.IntN(2) == 0 }

// count is a small non-negative count biased to 0, 1 and the low end.
func (g *gen) count(max int) int {
	switch g.n(6) {
	case 0:
		return 0
	case 1:
		return 1
	}
	return g.n(max + 1)
}

// int32Edge is an int32 biased to zero, small, negative and extreme values.
func (g *gen) int32Edge() int {
	switch g.n(12) {
	case 0, 1:
		return 0
	case 2:
		return 1
	case 3:
		return -g.pickInt(1, 2, 5)
	case 4:
		return g.pickInt(math.MaxInt32, math.MinInt32, 1<<30, 1000000, 1000001, 999999)
	case 5, 6, 7:
		return g.n(12)
	default:
		return g.n(120)
	}
}

// percent is an int-or-percent string biased to the edges of percentage parsing and rounding.
func (g *gen) percent() string {
	switch g.n(10) {
	case 0, 1, 2:
		return fmt.Sprintf("%d%%", g.pickInt(0, 1, 10, 20, 25, 29, 33, 35, 49, 50, 51, 66, 67, 71, 75, 99, 100))
	case 3:
		return fmt.Sprintf("%d%%", g.n(101))
	case 4:
		return g.pick("101%", "150%", "200%", "-0%", "-5%", "+5%", "-1%", "1000%", "2147483647%", "3000000000%", "9223372036854775807%", "99999999999999999999%")
	case 5:
		return g.pick("12.5%", "0.5%", "50.0%", ".5%", "5.%", "1e2%", "33.3%", "0.07%", "16.1%", "32.3%", "100.0%", "-0.5%", "1_0%", "0x10%")
	case 6:
		return g.pick("5", "0", "50", "abc", "", "%", "%%", "5%%", "%5", "5%0", " 5%", "5% ", "05%", "007%", "+%", "-%", "50%x")
	default:
		return fmt.Sprintf("%d%%", g.n(101))
	}
}

// badPercent is a string that no int-or-percent parser reads as a percentage.
func (g *gen) badPercent() string {
	return g.pick("5", "abc", "", "%", "%%", "5%%", " 5%", "5% ", "x%", "1.5.%", "--1%", "+-1%")
}

// intOrPercent is a JSON int-or-percent value (int or string), biased to edge values.
func (g *gen) intOrPercent() any {
	if g.bool() {
		return g.int32Edge()
	}
	return g.percent()
}

// maybeIOP is an int-or-percent, or nil (JSON null / unset) one time in k.
func (g *gen) maybeIOP(k int) any {
	if g.chance(k) {
		return nil
	}
	return g.intOrPercent()
}

// base time of the generated times (whole seconds).
var genEpoch = time.Date(2026, 6, 21, 10, 0, 0, 0, time.UTC)

// timeNear is a time within about an hour around genEpoch, biased to exact offsets that land on
// the deadlines the decisions compare against; one in 25 has a fractional second.
func (g *gen) timeNear() time.Time {
	var s int
	switch g.n(4) {
	case 0:
		s = -g.pickInt(0, 1, 5, 10, 15, 29, 30, 31, 59, 60, 61, 120, 299, 300, 301, 600)
	case 1:
		s = g.pickInt(0, 1, 5, 10, 30, 60, 300)
	default:
		s = g.n(1800) - 1500
	}
	t := genEpoch.Add(time.Duration(s) * time.Second)
	if g.chance(25) {
		t = t.Add(time.Duration(g.pickInt(1, 500, 999)) * time.Millisecond)
	}
	return t
}

// rfc3339 formats t the way kruise-core and the vectors do (fractional seconds only when set).
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// genInputs draws n inputs from draw with a fixed seed.
func genInputs(seed uint64, n int, draw func(g *gen) any) []any {
	g := newGen(seed)
	out := make([]any, n)
	for i := range out {
		out[i] = draw(g)
	}
	return out
}

// seconds is a duration as the vectors print it: seconds, fractional only when needed.
func seconds(d time.Duration) any {
	if d%time.Second == 0 {
		return int64(d / time.Second)
	}
	return d.Seconds()
}

// decodeInto decodes a JSON input into the reference's types with encoding/json (unknown members
// are ignored, as the API types do; absent or null leaves v's zero value).
func decodeInto(b []byte, v any) error {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, v)
}

// bigIntegers reports whether the JSON document holds an integer of magnitude >= 2^30, where the
// reference's int32 sums and conversions may wrap while kruise-core computes in 64 bits.
func bigIntegers(b []byte) bool {
	v, err := canonJSON(b)
	if err != nil {
		return false
	}
	lim := new(big.Rat).SetInt64(1 << 30)
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case canonNum:
			r, ok := new(big.Rat).SetString(string(x))
			return ok && new(big.Rat).Abs(r).Cmp(lim) >= 0
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
