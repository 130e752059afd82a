package goref

import (
	"os"
	"strconv"
)

// randomCount is base * GOREF_SCALE (default 1): the number of random cases a generator draws.
func randomCount(base int) int {
	s, err := strconv.Atoi(os.Getenv("GOREF_SCALE"))
	if err != nil || s < 1 {
		s = 1
	}
	return base * s
}
