// Differential test: rollout.scale_int_or_percent against apimachinery v0.32.10 intstr
// (modes "scaled" and "legacy") and OpenKruise v1.9.0 pkg/util (mode "kruise").
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: cd conformance/goref && go test -run IntOrPercent ./...
package goref

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	kruiseutil "github.com/openkruise/kruise/pkg/util"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const fnScale = "rollout.scale_int_or_percent"

// scaleInput is the vector input shape of rollout.scale_int_or_percent (see docs/rollout.md).
type scaleInput struct {
	Value   any    `json:"value"` // int32, string or nil
	Total   int    `json:"total"`
	RoundUp bool   `json:"roundUp"`
	Mode    string `json:"mode"`
}

// refScale runs the reference function of the mode. It returns the value, or the error kind the
// spec assigns to the reference's error (nil_value, not_a_percentage, invalid_number).
func refScale(in scaleInput) (int, string) {
	var ios *intstr.IntOrString
	switch v := in.Value.(type) {
	case nil:
	case string:
		x := intstr.FromString(v)
		ios = &x
	case int32:
		x := intstr.FromInt32(v)
		ios = &x
	case float64: // decoded from JSON vectors
		x := intstr.FromInt32(int32(v))
		ios = &x
	default:
		panic(fmt.Sprintf("bad value type %T", v))
	}
	var (
		got int
		err error
	)
	switch in.Mode {
	case "scaled":
		got, err = intstr.GetScaledValueFromIntOrPercent(ios, in.Total, in.RoundUp)
	case "legacy":
		got, err = intstr.GetValueFromIntOrPercent(ios, in.Total, in.RoundUp)
	case "kruise":
		got, err = kruiseutil.GetScaledValueFromIntOrPercent(ios, in.Total, in.RoundUp)
	default:
		panic("bad mode " + in.Mode)
	}
	if err != nil {
		return 0, scaleErrKind(err.Error())
	}
	return got, ""
}

// scaleErrKind maps the reference's error text to kruise-core's kind (core/src/intstr.rs).
func scaleErrKind(msg string) string {
	switch {
	case strings.Contains(msg, "nil value for IntOrString"):
		return "nil_value"
	case strings.Contains(msg, "string is not a percentage"):
		return "not_a_percentage"
	case strings.Contains(msg, "strconv.Atoi"), strings.Contains(msg, "strconv.ParseFloat"):
		return "invalid_number"
	}
	return "unmapped: " + msg
}

// percentInt64Overflow reports whether the reference converted a float outside the int64 range
// to int (platform-dependent in Go; on amd64 it yields math.MinInt64). Detected from the input:
// the float the reference computes before the conversion.
func percentInt64Overflow(in scaleInput) bool {
	s, ok := in.Value.(string)
	if !ok {
		return false
	}
	var p float64
	switch in.Mode {
	case "legacy":
		v, err := strconv.Atoi(strings.ReplaceAll(s, "%", ""))
		if err != nil {
			return false
		}
		p = float64(v)
	case "scaled":
		v, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
		if err != nil || !strings.HasSuffix(s, "%") {
			return false
		}
		p = float64(v)
	case "kruise":
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || !strings.HasSuffix(s, "%") {
			return false
		}
		p = v
	}
	x := p * float64(in.Total) / 100
	x = math.Floor(x) // ceil/floor differ by one at most; the bound check only needs the magnitude
	return math.IsNaN(x) || x >= 0x1p63 || x < -0x1p63-1
}

// scaleDeviation names the deviation class an input falls into ("" = none); see deviations.txt.
func scaleDeviation(in scaleInput) string {
	if percentInt64Overflow(in) {
		return "int64-overflow"
	}
	return ""
}

func compareScale(t *testing.T, r *tally, label string, in scaleInput) {
	t.Helper()
	r.total++
	wantV, wantK := refScale(in)
	raw, gotK, err := ours(fnScale, in)
	if err != nil {
		t.Fatalf("%s: kruisecore.Call: %v", label, err)
	}
	if strings.HasPrefix(wantK, "unmapped") {
		r.fail("%s %+v: reference error not mapped to a kind: %s", label, in, wantK)
		return
	}
	if wantK != "" || gotK != "" {
		if wantK == gotK {
			r.agreeError++
			return
		}
		// An overflowing scale is a value question: it never excuses an error on one side only.
		r.fail("%s %+v: reference %v/%q, ours kind %q result %s", label, in, wantV, wantK, gotK, raw)
		return
	}
	var got int64
	if err := json.Unmarshal(raw, &got); err != nil {
		r.fail("%s %+v: ours returned non-integer %s", label, in, raw)
		return
	}
	if got == int64(wantV) {
		r.agreeValue++
		return
	}
	if c := scaleDeviation(in); c != "" && allowed("intstr", c) {
		r.allow(c)
		return
	}
	r.fail("%s %+v: reference %d, ours %d", label, in, wantV, got)
}

// TestIntOrPercentVectorsReference checks that the reference itself gives every
// rollout.scale_int_or_percent vector's answer (a failure means the shared vector is wrong).
func TestIntOrPercentVectorsReference(t *testing.T) {
	for _, c := range loadVectors(t, "rollout", fnScale) {
		var in scaleInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		v, k := refScale(in)
		if c.ExpectError != "" {
			if k != c.ExpectError {
				t.Errorf("vector %q: reference gives %d/%q, vector expects error %q", c.Name, v, k, c.ExpectError)
			}
		} else {
			var want int64
			if err := json.Unmarshal(c.Expect, &want); err != nil || k != "" || int64(v) != want {
				t.Errorf("vector %q: reference gives %d/%q, vector expects %s", c.Name, v, k, c.Expect)
			}
		}
	}
}

// TestIntOrPercentVectors compares the reference and kruise-core on every
// rollout.scale_int_or_percent vector.
func TestIntOrPercentVectors(t *testing.T) {
	requireFn(t, fnScale, scaleInput{Value: "50%", Total: 10, RoundUp: true, Mode: "scaled"})
	var r tally
	for _, c := range loadVectors(t, "rollout", fnScale) {
		var in scaleInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		compareScale(t, &r, "vector "+c.Name, in)
	}
	r.report(t, "intstr vectors")
}

// randomIntOrPercent draws a value: ints, well-formed percents, and odd strings.
func randomIntOrPercent(rng *rand.Rand) any {
	num := func() string {
		switch rng.IntN(8) {
		case 0:
			return strconv.Itoa(rng.IntN(101))
		case 1:
			return strconv.Itoa(rng.IntN(1000) - 500)
		case 2:
			return strconv.FormatInt(rng.Int64()>>uint(rng.IntN(63)), 10)
		case 3:
			return fmt.Sprintf("%d.%d", rng.IntN(200), rng.IntN(1000))
		case 4:
			return []string{"9223372036854775807", "9223372036854775808", "-9223372036854775808",
				"-9223372036854775809", "99999999999999999999", "2147483648", "1e2", "1E2", ".5", "5.",
				"-.5", "+7", "007", "0", "-0", "1e-2", "1e400", "0x10", "1_000", "inf", "NaN", "", "0x1p4", "-0X1.8p1",
				"1_0.5", "1__0", "_1", "1_", "1.5_5", "1e1_0", "+1_0"}[rng.IntN(31)]
		case 5:
			return fmt.Sprintf("%de%d", rng.IntN(20), rng.IntN(7)-3)
		case 6:
			return "+" + strconv.Itoa(rng.IntN(150))
		default:
			return strconv.Itoa(rng.IntN(150))
		}
	}
	switch rng.IntN(10) {
	case 0, 1:
		switch rng.IntN(4) {
		case 0:
			return int32(rng.Uint32())
		default:
			return int32(rng.IntN(2001) - 1000)
		}
	case 2:
		if rng.IntN(10) == 0 {
			return nil
		}
		return num() // no percent sign
	case 3: // odd placements of % and spaces
		n := num()
		switch rng.IntN(9) {
		case 0:
			return "%" + n
		case 1:
			if len(n) > 1 {
				k := 1 + rng.IntN(len(n)-1)
				return n[:k] + "%" + n[k:]
			}
			return n + "%%"
		case 2:
			return n + "%%"
		case 3:
			return " " + n + "%"
		case 4:
			return n + "% "
		case 5:
			return n + " %"
		case 6:
			return []string{"abc", "%", "", "%%", "abc%", "5%0", "1e2%", "%50", "50%%", "-%", "+%", " 50%", "50 %"}[rng.IntN(13)]
		case 7:
			return "-" + n + "%"
		default:
			return n + "%x"
		}
	default:
		return num() + "%"
	}
}

func randomTotal(rng *rand.Rand) int {
	switch rng.IntN(6) {
	case 0:
		return rng.IntN(11)
	case 1:
		return rng.IntN(2000000) - 1000000
	case 2:
		return int(rng.Int64() >> uint(rng.IntN(64)))
	case 3:
		return []int{0, 1, 3, 7, 10, 100, 1000, 10000, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}[rng.IntN(12)]
	default:
		return rng.IntN(1001)
	}
}

// randomScaleCases is the number of random (value, total, roundUp) triples of each mode.
const randomScaleCases = 4000

// TestIntOrPercentRandom compares the reference and kruise-core on 3 x randomScaleCases random
// (value, total, roundUp) triples (fixed seed), one third per mode.
func TestIntOrPercentRandom(t *testing.T) {
	requireFn(t, fnScale, scaleInput{Value: "50%", Total: 10, RoundUp: true, Mode: "scaled"})
	rng := rand.New(rand.NewPCG(20261129, 4))
	var r tally
	for _, mode := range []string{"scaled", "legacy", "kruise"} {
		for i := 0; i < randomScaleCases; i++ {
			in := scaleInput{Value: randomIntOrPercent(rng), Total: randomTotal(rng), RoundUp: rng.IntN(2) == 0, Mode: mode}
			compareScale(t, &r, fmt.Sprintf("random %s #%d", mode, i), in)
		}
	}
	r.report(t, "intstr random")
}
