package engine

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// TestEachOnCores: every index is called once when none fails, and a
// failure is returned as the error of the lowest index that failed.
func TestEachOnCores(t *testing.T) {
	if err := eachOnCores(0, func(int) error { t.Fatal("called for n = 0"); return nil }); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	var calls [n]atomic.Int32
	if err := eachOnCores(n, func(i int) error { calls[i].Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("index %d called %d times", i, c)
		}
	}
	bad := errors.New("bad")
	err := eachOnCores(n, func(i int) error {
		if i == 3 || i == 700 {
			return fmt.Errorf("segment %d: %w", i, bad)
		}
		return nil
	})
	if !errors.Is(err, bad) || err.Error() != "segment 3: bad" {
		t.Fatalf("error %v, want segment 3's", err)
	}
}
