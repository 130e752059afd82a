package goref

import (
	"os"
	"strconv"
)

// randomCount returns base * GOREF_SCALE (default 1): the number of random cases a generator
// draws. The soak (scripts/goref-soak) sets GOREF_SCALE to run many more.
func randomCount(base int) int {
	s, err := strconv.Atoi(os.Getenv("GOREF_SCALE"))
	if err != nil || s < 1 {
		s = 1
	}
	return base * s
}
