package kruisecore

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

const scale = "rollout.scale_int_or_percent"

func TestCallReturnsTheDecision(t *testing.T) {
	got, err := Call(scale, []byte(`{"value":"90%","total":95,"roundUp":true,"mode":"scaled"}`))
	if err != nil || string(got) != "86" {
		t.Fatalf("got %s, %v; want 86", got, err)
	}
}

func TestDecisionErrorsAreReachableWithErrorsAs(t *testing.T) {
	cases := []struct {
		fn, input, kind, field string
		status                 Status
	}{
		{scale, `{"value":"90","total":0,"roundUp":false,"mode":"scaled"}`, "not_a_percentage", "value", StatusDecisionError},
		{scale, `{"value":"9%","total":"x","roundUp":false,"mode":"scaled"}`, "invalid_input", "total", StatusDecisionError},
		{"no.such_fn", `{}`, "unknown_fn", "", StatusUnknownFn},
		{scale, `{"value": `, "invalid_json", "", StatusInvalidJSON},
		{"r\xff", `{}`, "invalid_utf8", "", StatusInvalidUTF8},
		{scale, "\"\xc3\"", "invalid_utf8", "", StatusInvalidUTF8},
		{scale, "", "invalid_json", "", StatusInvalidJSON},
	}
	for _, c := range cases {
		_, err := Call(c.fn, []byte(c.input))
		var kerr *Error
		if !errors.As(err, &kerr) {
			t.Fatalf("%s %q: want *Error, got %T %v", c.fn, c.input, err, err)
		}
		if kerr.Kind() != c.kind || kerr.Status() != c.status {
			t.Errorf("%s %q: got kind %q status %d, want %q %d", c.fn, c.input, kerr.Kind(), kerr.Status(), c.kind, c.status)
		}
		if c.field != "" && kerr.Field() != c.field {
			t.Errorf("%s %q: field %q, want %q", c.fn, c.input, kerr.Field(), c.field)
		}
		if kerr.Message() == "" || !strings.HasPrefix(kerr.Error(), c.kind+": ") {
			t.Errorf("bad message %q", kerr.Error())
		}
	}
}

func TestFnIDsAndMatches(t *testing.T) {
	ids, err := FnIDs()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, id := range ids {
		found = found || id == scale
	}
	if !found {
		t.Fatalf("%s not in %v", scale, ids)
	}
	if ok, err := Matches(scale, []byte(`{"a":1,"b":[2]}`), []byte(`{"b":[2.0],"a":1}`)); !ok || err != nil {
		t.Fatalf("key order / 2 == 2.0 must match: %v %v", ok, err)
	}
	if ok, err := Matches(scale, []byte(`9223372036854775809`), []byte(`9223372036854775808`)); ok || err != nil {
		t.Fatalf("big integers must compare exactly: %v %v", ok, err)
	}
	var kerr *Error
	if _, err := Matches(scale, []byte(`1`), []byte(`{`)); !errors.As(err, &kerr) || kerr.Kind() != "invalid_json" {
		t.Fatalf("want invalid_json, got %v", err)
	}
}

func TestVersionAndBackend(t *testing.T) {
	if v := Version(); v == "" || strings.Count(v, ".") != 2 {
		t.Errorf("version %q", v)
	}
	if b := Backend(); b != defaultBackend.name() || (b != "wasm" && b != "cgo") {
		t.Errorf("backend %q", b)
	}
}

func TestExpression(t *testing.T) {
	e, err := Compile("max(cpu*50%, 50m)")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct{ cpu, want string }{{"200m", "100m"}, {"20m", "50m"}, {"2", "1"}} {
		got, err := e.Eval(Quantity("cpu", c.cpu))
		if err != nil || got != c.want {
			t.Errorf("cpu=%s: got %q, %v; want %q", c.cpu, got, err, c.want)
		}
	}
	if got, err := e.EvalMap(map[string]string{"cpu": "200m"}); err != nil || got != "100m" {
		t.Errorf("EvalMap: got %q, %v", got, err)
	}
	// a number variable gives what the generic resources.eval gives
	want, err := Call("resources.eval", []byte(`{"expr":"max(cpu*50%, 50m)","variables":{"cpu":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Eval(Number("cpu", 3)); err != nil || `"`+got+`"` != string(want) {
		t.Errorf("number var: got %q, %v; want %s", got, err, want)
	}
	var kerr *Error
	if _, err := e.Eval(); !errors.As(err, &kerr) || kerr.Kind() != "undefined_variable" {
		t.Errorf("want undefined_variable, got %v", err)
	}
	// concurrent evaluation of one compiled expression
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				if got, err := e.Eval(Quantity("cpu", "200m")); err != nil || got != "100m" {
					t.Errorf("concurrent: %q %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	e.Close()
	if _, err := e.Eval(Quantity("cpu", "1")); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	var kerr *Error
	if _, err := Compile("max(1, "); !errors.As(err, &kerr) || kerr.Kind() != "syntax_error" {
		t.Errorf("want syntax_error, got %v", err)
	}
	if _, err := Compile("1 + \xff"); !errors.As(err, &kerr) || kerr.Kind() != "invalid_utf8" {
		t.Errorf("want invalid_utf8, got %v", err)
	}
	if _, err := CompileStrict("1K + 1"); !errors.As(err, &kerr) || kerr.Kind() != "suspicious_number" {
		t.Errorf("strict: want suspicious_number, got %v", err)
	}
	lenient, err := Compile("1K + 1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := lenient.Eval(); err != nil || got != "1" {
		t.Errorf("1K reads as 0 like the reference: got %q, %v", got, err)
	}
	lenient.Close()
	e, err := Compile("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Eval(Quantity("c\xffu", "1")); !errors.As(err, &kerr) || kerr.Kind() != "invalid_utf8" {
		t.Errorf("want invalid_utf8 for a bad name, got %v", err)
	}
}
