package graph

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// TestOnCores: every index is called once when none fails, and a failure
// is returned.
func TestOnCores(t *testing.T) {
	if err := OnCores(0, func(int) error { t.Fatal("called for n = 0"); return nil }); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	var calls [n]atomic.Int32
	if err := OnCores(n, func(i int) error { calls[i].Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("index %d called %d times", i, c)
		}
	}
	bad := errors.New("bad")
	err := OnCores(n, func(i int) error {
		if i == 3 || i == 700 {
			return fmt.Errorf("segment %d: %w", i, bad)
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Fatalf("error %v, want a segment's", err)
	}
}
