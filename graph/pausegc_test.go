package graph

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestPauseGC: pauseGC turns the collector off under a soft memory limit
// and its restore (idempotent) puts back the percentage and the limit as
// they were; an explicit GOGC is left alone; and an incremental build with
// PauseGC leaves the collector as it found it.
func TestPauseGC(t *testing.T) {
	t.Setenv("GOGC", "")
	pct := debug.SetGCPercent(73)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(pct); debug.SetMemoryLimit(limit) })
	restore := pauseGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("paused: GC percent %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != pauseGCLimit {
		t.Errorf("paused: memory limit %d, want %d", got, pauseGCLimit)
	}
	restore()
	restore()
	if got := debug.SetGCPercent(73); got != 73 {
		t.Errorf("restored: GC percent %d, want 73", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("restored: memory limit %d, want none", got)
	}
	t.Setenv("GOGC", "40")
	pauseGC()()
	if got := debug.SetGCPercent(73); got != 73 {
		t.Errorf("with GOGC set: GC percent %d, want 73 untouched", got)
	}
	t.Setenv("GOGC", "")

	root := walktest.CopyFixture(t, "polyglot")
	build(t, root, false)
	walktest.WriteFile(t, root, "go/inventory/added.go", "package inventory\n\nfunc Added() {}\n")
	if _, err := Build(t.Context(), BuildOptions{Root: root, PauseGC: true}); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(73); got != 73 {
		t.Errorf("after a build with PauseGC: GC percent %d, want 73", got)
	}
}
