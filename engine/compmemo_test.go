package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestComponentScannedOncePerComponent: a question's leading component
// scans the path-segment terms once however many times the question runs
// (pruned, bounded, exact), and not again for a later question with the
// same component (compMemo); the answers are those of an index without
// the memo.
func TestComponentScannedOncePerComponent(t *testing.T) {
	old, oldKeep := pruneMinPostings, boundKeep
	pruneMinPostings, boundKeep = 100, 300
	t.Cleanup(func() { pruneMinPostings, boundKeep = old, oldKeep })
	ix, ref := NewIndex(pruneGraph()), NewIndex(pruneGraph())
	ctx := context.Background()

	before := ix.stats.compTerms.Load()
	ix.componentHits(newComponentMatch("queue"))
	scan := ix.stats.compTerms.Load() - before
	if scan == 0 {
		t.Fatal("componentHits scanned no term")
	}
	prose := []string{"how are records validated", "where are retries configured", "how does the cache get flushed",
		"which policy schedules the worker", "how are metrics reported", "template rendering of reports"}
	var qs []string
	for i := range 12 {
		qs = append(qs, fmt.Sprintf("svc%d: %s", i, prose[i%len(prose)]))
	}
	reran := 0
	for round := range 2 {
		for _, q := range qs {
			c0, r0 := ix.stats.compTerms.Load(), ix.stats.runs.Load()
			got, err := ix.Query(ctx, q, Options{})
			if err != nil {
				t.Fatal(err)
			}
			c, runs := ix.stats.compTerms.Load()-c0, ix.stats.runs.Load()-r0
			if runs > 1 {
				reran++
			}
			if want := []int64{scan, 0}[round]; c != want {
				t.Errorf("round %d %q (%d runs): %d terms scanned, want %d", round, q, runs, c, want)
			}
			want, _ := ref.Query(ctx, q, Options{})
			if a, b := dumpResult(t, got), dumpResult(t, want); a != b {
				t.Errorf("%q: answer differs from a fresh index's:\n%s\nwant\n%s", q, a, b)
			}
		}
	}
	if reran == 0 {
		t.Error("no question ran more than once: the test does not exercise reruns")
	}
	t.Logf("%d terms a scan; %d of %d questions ran more than once", scan, reran, 2*len(qs))
}

// dumpResult is an answer whole: its JSON and its rendered text.
func dumpResult(t *testing.T, r Result) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n" + r.Render()
}
