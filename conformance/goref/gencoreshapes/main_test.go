package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode"
)

// TestCommittedFileIsCurrent checks that core/src/api/core_types.rs is what this generator prints
// for the k8s.io/api version in go.mod (up to rustfmt's white space and trailing commas).
func TestCommittedFileIsCurrent(t *testing.T) {
	var buf bytes.Buffer
	write(&buf)
	committed, err := os.ReadFile("../../../core/src/api/core_types.rs")
	if err != nil {
		t.Fatal(err)
	}
	squash := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) || r == ',' {
				return -1
			}
			return r
		}, s)
	}
	if squash(buf.String()) != squash(string(committed)) {
		t.Fatal("core/src/api/core_types.rs is stale: regenerate it (see the doc comment of gencoreshapes)")
	}
}
