package kruisecore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// callTyped marshals in, calls fnID and unmarshals the result into out: the one body of every
// generated typed function (zz_generated_*.go).
func callTyped(fnID string, in any, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	res, err := Call(fnID, body)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

// unmarshalOpen reads b into plain (a pointer to an open struct's plain form) and answers the
// members not named in known, for its Extra (nil when none): the body of every generated
// UnmarshalJSON of an open object.
func unmarshalOpen(b []byte, plain any, known ...string) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(b, plain); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for _, k := range known {
		delete(all, k)
	}
	if len(all) == 0 {
		all = nil
	}
	return all, nil
}

// marshalOpen writes plain (an open struct's plain form) with the members of extra that it does
// not already have: the body of every generated MarshalJSON of an open object.
func marshalOpen(plain any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(plain)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, x := range extra {
		if _, ok := all[k]; !ok {
			all[k] = x
		}
	}
	return json.Marshal(all)
}

// IntOrPercent is Kubernetes' IntOrString as OpenKruise's fields use it: an int32 or a string such
// as "25%". The zero value is the integer 0. It marshals to and from the same JSON as IntOrString
// (a JSON number or a JSON string); the generated structs use it for every int-or-string member.
// Hand-written: the schema's untagged union has no generated Go form.
type IntOrPercent struct {
	// IsString selects StrVal over IntVal.
	IsString bool
	// IntVal is the integer form.
	IntVal int32
	// StrVal is the string form, kept verbatim (e.g. "50%", "5%0").
	StrVal string
}

// FromInt is the integer form of an IntOrPercent.
func FromInt(i int32) IntOrPercent { return IntOrPercent{IntVal: i} }

// FromString is the string form of an IntOrPercent, e.g. FromString("25%").
func FromString(s string) IntOrPercent { return IntOrPercent{IsString: true, StrVal: s} }

// MarshalJSON writes a JSON number or a JSON string.
func (v IntOrPercent) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return []byte(strconv.FormatInt(int64(v.IntVal), 10)), nil
}

// errIntOrPercent is the UnmarshalJSON error for JSON that is neither a string nor an int32.
var errIntOrPercent = errors.New("kruisecore: an int-or-percent is a JSON string or an int32 number")

// UnmarshalJSON reads a JSON string or a JSON integer within int32 (as apimachinery's IntOrString
// does; null leaves the value unchanged, as for every Unmarshaler).
func (v *IntOrPercent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = FromString(s)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	var i int32
	if err := json.Unmarshal(b, &i); err != nil {
		return errIntOrPercent
	}
	*v = FromInt(i)
	return nil
}
