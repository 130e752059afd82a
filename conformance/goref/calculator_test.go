// Differential test: resources.eval against OpenKruise v1.9.0's pkg/util/calculator (with
// apimachinery v0.32.10 quantities).
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: cd conformance/goref && go test -run Calculator ./...
package goref

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/openkruise/kruise/pkg/util/calculator"
	"k8s.io/apimachinery/pkg/api/resource"
)

const fnEval = "resources.eval"

// evalInput is the vector input shape of resources.eval (see docs/resources.md).
type evalInput struct {
	Expr      string         `json:"expr"`
	Variables map[string]any `json:"variables,omitempty"` // string = quantity, float64 = number
}

// refVars converts vector/generator variables to the calculator's map.
func refVars(vars map[string]any) map[string]*calculator.Value {
	m := make(map[string]*calculator.Value, len(vars))
	for k, v := range vars {
		switch x := v.(type) {
		case string:
			q, err := resource.ParseQuantity(x)
			if err != nil {
				panic(fmt.Sprintf("variable %s=%q is not a quantity: %v", k, x, err))
			}
			m[k] = &calculator.Value{IsQuantity: true, Quantity: q}
		case float64:
			m[k] = &calculator.Value{Number: x}
		default:
			panic(fmt.Sprintf("variable %s has type %T", k, v))
		}
	}
	return m
}

// refEval runs the reference calculator: the printed result, or the kruise-core kind of its error.
// The third result is the calculator's raw value even when Parse reported an error.
func refEval(in evalInput) (out, kind string, raw *calculator.Value) {
	defer func() {
		if p := recover(); p != nil {
			out, kind, raw = "", fmt.Sprintf("panic: %v", p), nil
		}
	}()
	c := calculator.NewCalculatorWithVariables(refVars(in.Variables))
	v, err := c.Parse(in.Expr)
	if err != nil {
		return "", calcErrKind(err), c.GetResult()
	}
	return v.String(), "", v
}

// calcErrKind maps the reference's error to kruise-core's error kinds (resources/expression.rs).
func calcErrKind(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, resource.ErrFormatWrong), errors.Is(err, resource.ErrSuffix), errors.Is(err, resource.ErrNumeric):
		return "invalid_quantity"
	case strings.HasPrefix(msg, "parse error"):
		return "syntax_error"
	case msg == "multiplication of two quantities":
		return "quantity_times_quantity"
	case msg == "division by quantity":
		return "division_by_quantity"
	case msg == "division by zero":
		return "division_by_zero"
	case strings.HasPrefix(msg, "unknown function: "):
		return "unknown_function"
	case strings.Contains(msg, "function requires exactly 2 arguments"):
		return "wrong_argument_count"
	case strings.HasPrefix(msg, "undefined variable: "):
		return "undefined_variable"
	case strings.HasPrefix(msg, "calculation result is negative"):
		return "negative_result"
	}
	return "unmapped: " + msg
}

// node is a generated expression: its text and, for well-formed trees, its structure, which the
// generator keeps equal to the parse of the text (used only to classify a disagreement, never to
// compute an expected value).
type node struct {
	text string
	op   string // "" leaf, "+", "-", "*", "/", "neg", "paren", "max", "min", "call"
	kids []*node
}

// prec is the binding strength of a binary operator (calculator.y: + - bind looser than * /).
func prec(op string) int {
	switch op {
	case "+", "-":
		return 1
	case "*", "/":
		return 2
	}
	return 3
}

// prec is the binding strength of the node's outermost construct (3 = a factor).
func (n *node) prec() int { return prec(n.op) }

func (g *exprGen) paren(n *node) *node {
	return &node{text: "(" + g.sp() + n.text + g.sp() + ")", op: "paren", kids: []*node{n}}
}

// exprGen draws random expressions (fixed seed) over the whole surface of the language.
type exprGen struct{ rng *rand.Rand }

func (g *exprGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *exprGen) sp() string {
	switch g.rng.IntN(6) {
	case 0, 1, 2:
		return ""
	case 3, 4:
		return " "
	default:
		return g.pick("  ", "\t", "\n ")
	}
}

func (g *exprGen) number() string {
	switch g.rng.IntN(12) {
	case 0, 1, 2:
		return strconv.Itoa(g.rng.IntN(11))
	case 3, 4:
		return strconv.Itoa(g.rng.IntN(1000))
	case 5:
		return fmt.Sprintf("%d.%d", g.rng.IntN(100), g.rng.IntN(1000))
	case 6:
		return g.pick(".5", "5.", "0.1", "0.3", "1.005", "0.0005", "2.5", "1e3", "2E-2", "1e+2", "1e-7", "3e6", "1e9", "1e18", "1e400", "0")
	case 7, 8, 9:
		return g.pick("50%", "12.5%", "150%", "0%", "33%", "100%", "1%", "99.9%", "5%", "200%", ".5%", "1e2%")
	case 10:
		if g.rng.IntN(2) == 0 {
			return g.pick("1e300", "1e18", "9.3e15", "1e400", "0.000001", "1e-320", "9223372036854775807", "1e19", "4e15", "123456789.123456789")
		}
		return g.pick("1K", "100n", "5u", "2cpu", "1e", "1e+", "50%5", "5%m", "1E", "007", "1.2.3", "1e2e3", "5Ei", "2E", "3n", "4u", "1eKi", "1Ei")
	default:
		return strconv.Itoa(g.rng.IntN(100000))
	}
}

func (g *exprGen) quantity() string {
	var mant string
	switch g.rng.IntN(10) {
	case 0, 1, 2, 3:
		mant = strconv.Itoa(1 + g.rng.IntN(999))
	case 4:
		mant = strconv.Itoa(g.rng.IntN(100000))
	case 5:
		mant = fmt.Sprintf("%d.%d", g.rng.IntN(10), g.rng.IntN(1000))
	case 6:
		mant = g.pick("1.500", "0100", "100.", ".5", "1.250", "0", "000", "1.", "0.001", "1024", "1000", "1536", "8", "16")
	case 7:
		mant = g.pick("1e3", "2e3", "1e-3", "5E2", "1e", "1e+1", "12e-1")
	case 8:
		if g.rng.IntN(2) == 0 { // slow parse path, overflowing milli values, rounding beyond nano
			mant = g.pick("10", "9223372", "999999999999999999999", "1.0000000001", "0.0000000001", "123456789012345678901",
				"18446744073709551616", "9007199254740993", "0.123456789012", "99999")
			break
		}
		mant = strconv.Itoa(g.rng.IntN(100))
	default:
		mant = strconv.Itoa(g.rng.IntN(100))
	}
	return mant + g.pick("m", "m", "m", "k", "M", "G", "T", "P", "Ki", "Mi", "Mi", "Gi", "Gi", "Ti", "Pi")
}

func (g *exprGen) leaf() *node {
	switch g.rng.IntN(10) {
	case 0, 1, 2, 3:
		return &node{text: g.quantity()}
	case 4, 5, 6:
		return &node{text: g.number()}
	default:
		if g.rng.IntN(12) == 0 {
			return &node{text: g.pick("disk", "cpu_x", "Memory", "memoryx")}
		}
		return &node{text: g.pick("cpu", "cpu", "memory", "memory", "CPU", "MEMORY")}
	}
}

func (g *exprGen) expr(depth int) *node {
	if depth <= 0 || g.rng.IntN(10) < 3 {
		return g.leaf()
	}
	switch k := g.rng.IntN(20); {
	case k < 10:
		op := g.pick("+", "-", "*", "/", "+", "*")
		a, b := g.expr(depth-1), g.expr(depth-1)
		// parenthesise where the grammar would otherwise group differently from the tree
		if a.prec() < prec(op) {
			a = g.paren(a)
		}
		if b.prec() <= prec(op) {
			b = g.paren(b)
		}
		return &node{text: a.text + g.sp() + op + g.sp() + b.text, op: op, kids: []*node{a, b}}
	case k < 12:
		a := g.expr(depth - 1)
		if a.prec() < 3 {
			a = g.paren(a)
		}
		return &node{text: "-" + g.sp() + a.text, op: "neg", kids: []*node{a}}
	case k < 14:
		a := g.expr(depth - 1)
		return &node{text: "(" + g.sp() + a.text + g.sp() + ")", op: "paren", kids: []*node{a}}
	default:
		name := g.pick("max", "min", "max", "min", "MAX", "Min", "avg")
		op := "call"
		if strings.EqualFold(name, "max") || strings.EqualFold(name, "min") {
			op = strings.ToLower(name)
		}
		a := g.expr(depth - 1)
		if g.rng.IntN(12) == 0 { // one argument
			return &node{text: name + g.sp() + "(" + a.text + ")", op: "call", kids: []*node{a}}
		}
		b := g.expr(depth - 1)
		return &node{text: name + g.sp() + "(" + g.sp() + a.text + g.sp() + "," + g.sp() + b.text + g.sp() + ")", op: op, kids: []*node{a, b}}
	}
}

// mutate breaks a well-formed expression at a random byte. It only inserts valid UTF-8 (JSON
// cannot carry other bytes to kruise-core unchanged); "µ" and "é" are two Latin-1 letter bytes
// each for the reference's byte-wise lexer, and NUL ends the input there.
func (g *exprGen) mutate(s string) string {
	if s == "" {
		return "("
	}
	i := g.rng.IntN(len(s))
	switch g.rng.IntN(6) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + g.pick("(", ")", "+", "-", "*", "/", ",", "%", "@", "_", ".", " ", "e", "\x00", "µ", "é") + s[i:]
	case 2:
		return s[:i]
	case 3:
		return s + g.pick("+", "*", ")", ",", " (", " 5")
	case 4:
		return g.pick("+", "(", "*", ",") + s
	default:
		return g.pick("max()", "max(1,2,3)", "max(1,,2)", "", "   ", "()", "-", "5 5", "foo 1", "1/0 +", "max(1/0)", "foo(1/0)")
	}
}

func (g *exprGen) variables() map[string]any {
	if g.rng.IntN(16) == 0 {
		return nil
	}
	vars := map[string]any{}
	switch g.rng.IntN(8) {
	case 0:
		vars["cpu"] = 1.0
		vars["memory"] = g.pick2(0.5, 2.0, 0.0)
	default:
		vars["cpu"] = g.pick("200m", "1", "2", "1.5", "0", "1.500m", "500u", "4k", "1e3", "100m", "3", "250m", "7m",
			"0100m", "100.m", "1E3", "10P", "-100m", "1n", "0.0000000015", "123456789012345678901", "8Ei")
		vars["memory"] = g.pick("1Gi", "512Mi", "100M", "1.5Gi", "0", "1000000", "2e9", "1Ki", "123", "3Gi",
			"1.5Ki", "1e9", "1023Ki", "7Pi", "-1Gi", "1.250k", "0.5Gi", "12e-1")
	}
	if g.rng.IntN(10) == 0 {
		delete(vars, g.pick("cpu", "memory"))
	}
	return vars
}

func (g *exprGen) pick2(xs ...float64) float64 { return xs[g.rng.IntN(len(xs))] }

// calcDeviation names the deviations.txt class of a disagreement on a well-formed tree (""
// when none applies), judging each binary node from the reference's values of its operands:
// "milli-overflow" when * or / gets a quantity whose value in thousandths is outside the int64
// range; "int64-overflow" for a float64-to-int64 conversion outside the int64 range (or of NaN),
// which Go leaves platform dependent (docs/deviations.md, section goref).
func calcDeviation(n *node, vars map[string]any) string {
	if n == nil {
		return ""
	}
	for _, k := range n.kids {
		if c := calcDeviation(k, vars); c != "" {
			return c
		}
	}
	if len(n.kids) != 2 {
		return ""
	}
	_, _, a := refEval(evalInput{Expr: n.kids[0].text, Variables: vars})
	_, _, b := refEval(evalInput{Expr: n.kids[1].text, Variables: vars})
	if a == nil || b == nil || a.IsQuantity == b.IsQuantity {
		return ""
	}
	num, q := a.Number, b.Quantity
	if a.IsQuantity {
		num, q = b.Number, a.Quantity
	}
	bad := func(x float64) bool { return math.IsNaN(x) || x >= 0x1p63 || x < -0x1p63 }
	switch n.op {
	case "+", "-", "max", "min":
		if bad(num * 1000) {
			return "int64-overflow"
		}
	case "*":
		if milliOutOfRange(q) {
			return "milli-overflow"
		}
		if bad(float64(q.MilliValue()) * num) {
			return "int64-overflow"
		}
	case "/":
		if a.IsQuantity && milliOutOfRange(q) {
			return "milli-overflow"
		}
		if a.IsQuantity && num != 0 && bad(float64(q.MilliValue())/num) {
			return "int64-overflow"
		}
	}
	return ""
}

// milliOutOfRange reports whether the exact value of q in thousandths lies outside the int64
// range, where the reference's MilliValue wraps or is undefined (docs/deviations.md, goref).
func milliOutOfRange(q resource.Quantity) bool {
	c := q.DeepCopy()
	r, ok := new(big.Rat).SetString(c.AsDec().String())
	if !ok {
		panic("quantity " + q.String() + " has no exact decimal")
	}
	r.Mul(r, big.NewRat(1000, 1))
	lim := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 63))
	return r.Cmp(lim) >= 0 || r.Cmp(new(big.Rat).Neg(lim)) < 0
}

func compareEval(t *testing.T, r *tally, label string, in evalInput, tree *node) {
	t.Helper()
	r.total++
	want, wantK, _ := refEval(in)
	raw, gotK, err := ours(fnEval, in)
	if err != nil {
		t.Fatalf("%s: kruisecore.Call: %v", label, err)
	}
	if strings.HasPrefix(wantK, "unmapped") || strings.HasPrefix(wantK, "panic") {
		r.fail("%s %q vars %v: reference: %s", label, in.Expr, in.Variables, wantK)
		return
	}
	var got string
	if gotK == "" {
		if err := json.Unmarshal(raw, &got); err != nil {
			r.fail("%s %q: ours returned a non-string %s", label, in.Expr, raw)
			return
		}
	}
	switch {
	case wantK == "" && gotK == "" && want == got:
		r.agreeValue++
		return
	case wantK != "" && wantK == gotK:
		r.agreeError++
		return
	}
	if c := calcDeviation(tree, in.Variables); c != "" && allowed("resources", c) {
		r.allow(c)
		return
	}
	r.fail("%s %q vars %v: reference %q/%s, ours %q/%s", label, in.Expr, in.Variables, want, wantK, got, gotK)
}

// TestCalculatorVectorsReference checks that the reference itself gives every resources.eval
// vector's answer (a failure here means the shared vector is wrong: the reference wins).
func TestCalculatorVectorsReference(t *testing.T) {
	for _, c := range loadVectors(t, "resources", fnEval) {
		var in evalInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		v, k, _ := refEval(in)
		if c.ExpectError != "" {
			if k != c.ExpectError {
				t.Errorf("vector %q (%q): reference gives %q/%q, vector expects error %q", c.Name, in.Expr, v, k, c.ExpectError)
			}
		} else {
			var want string
			if err := json.Unmarshal(c.Expect, &want); err != nil || k != "" || v != want {
				t.Errorf("vector %q (%q): reference gives %q/%q, vector expects %s", c.Name, in.Expr, v, k, c.Expect)
			}
		}
	}
}

// TestCalculatorVectors compares the reference and kruise-core on every resources.eval vector.
func TestCalculatorVectors(t *testing.T) {
	requireFn(t, fnEval, evalInput{Expr: "1"})
	var r tally
	for _, c := range loadVectors(t, "resources", fnEval) {
		var in evalInput
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		compareEval(t, &r, "vector "+c.Name, in, nil)
	}
	r.report(t, "calculator vectors")
}

// randomEvalInputs draws the inputs of TestCalculatorRandom (fixed seed); tree is nil for a
// deliberately malformed expression.
func randomEvalInputs(n int, each func(i int, in evalInput, tree *node)) {
	g := &exprGen{rng: rand.New(rand.NewPCG(20261129, 1))}
	for i := 0; i < n; i++ {
		tree := g.expr(1 + g.rng.IntN(4))
		in := evalInput{Expr: g.sp() + tree.text + g.sp(), Variables: g.variables()}
		switch g.rng.IntN(200) {
		case 0: // deep nesting
			n := 1 + g.rng.IntN(300)
			in.Expr, tree = strings.Repeat("(", n)+tree.text+strings.Repeat(")", n), nil
		case 1: // long chains
			n := 1 + g.rng.IntN(200)
			in.Expr, tree = strings.Repeat(g.leaf().text+g.pick("+", "-", "*", "/"), n)+g.leaf().text, nil
		case 2: // nested calls
			n := 1 + g.rng.IntN(100)
			in.Expr, tree = strings.Repeat("max(1m,", n)+tree.text+strings.Repeat(")", n), nil
		default:
			if g.rng.IntN(8) == 0 {
				in.Expr, tree = g.mutate(in.Expr), nil
			}
		}
		each(i, in, tree)
	}
}

// TestCalculatorRandomCoverage checks that the generator reaches every outcome of the
// reference (each error kind and plenty of values), so the differential test is not vacuous.
func TestCalculatorRandomCoverage(t *testing.T) {
	seen := map[string]int{}
	randomEvalInputs(randomExprCases, func(i int, in evalInput, tree *node) {
		_, k, _ := refEval(in)
		if k == "" {
			k = "value"
		}
		seen[k]++
	})
	t.Logf("reference outcomes over %d random expressions: %v", randomExprCases, seen)
	for _, k := range []string{"value", "syntax_error", "invalid_quantity", "undefined_variable", "unknown_function",
		"wrong_argument_count", "quantity_times_quantity", "division_by_quantity", "division_by_zero", "negative_result"} {
		if seen[k] < 20 {
			t.Errorf("outcome %s reached only %d times", k, seen[k])
		}
	}
	for k, n := range seen {
		if strings.HasPrefix(k, "unmapped") || strings.HasPrefix(k, "panic") {
			t.Errorf("reference outcome %q (%d times) has no kind", k, n)
		}
	}
}

// randomExprCases is the number of random expressions of TestCalculatorRandom.
const randomExprCases = 12000

// TestCalculatorRandom compares the reference and kruise-core on randomExprCases random
// expressions (fixed seed); about one in eight is deliberately malformed.
func TestCalculatorRandom(t *testing.T) {
	requireFn(t, fnEval, evalInput{Expr: "1"})
	var r tally
	randomEvalInputs(randomExprCases, func(i int, in evalInput, tree *node) {
		compareEval(t, &r, fmt.Sprintf("random #%d", i), in, tree)
	})
	r.report(t, "calculator random")
}
