package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestSkipEqualsFull: for pruned questions (their tail terms score only
// marked groups, and prose questions' terms only the groups planBound
// marks, decoding those groups' postings only) and, with a low
// common-term floor, for common terms after rare ones, every answer with
// postings blocks or groups skipped is the one decoding every posting
// gives (results, scores, snippets, More), and skipping decodes fewer
// postings: a counter, not a time.
func TestSkipEqualsFull(t *testing.T) {
	ix, qs := prunedIndex(t)
	oldFloor := commonTermFloor
	t.Cleanup(func() { commonTermFloor, skipOff, groupTabsOff = oldFloor, false, false })
	var names []string
	g := pruneGraph()
	for _, p := range g.Pages {
		if p.Kind == graph.KindSymbol {
			names = append(names, p.Name)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	common := []string{"retry", "cache", "token", "record", "user", "session", "the"}
	for range 80 {
		qs = append(qs, names[r.IntN(len(names))]+" "+common[r.IntN(len(common))]+" "+common[r.IntN(len(common))])
	}
	var decFull, decSkip, skipped int64
	g0 := ix.stats.skippedGroups.Load()
	for i, q := range qs {
		// The first half with the default floor: only the pruned
		// questions' tail terms skip blocks; then common terms do.
		if i == len(qs)/2 {
			commonTermFloor = 100
		}
		opt := Options{BudgetTokens: []int{2000, 600, 8000}[i%3]}
		// Every other question with the tail and common terms' group
		// impacts unused (groupTabsOff): their blocks are skipped instead.
		groupTabsOff = i%2 == 1
		skipOff = true
		d0 := ix.stats.postings.Load()
		want, err := ix.Query(context.Background(), q, opt)
		if err != nil {
			t.Fatal(err)
		}
		d1 := ix.stats.postings.Load()
		skipOff = false
		s0 := ix.stats.skipped.Load()
		got, err := ix.Query(context.Background(), q, opt)
		if err != nil {
			t.Fatal(err)
		}
		decFull += d1 - d0
		decSkip += ix.stats.postings.Load() - d1
		skipped += ix.stats.skipped.Load() - s0
		if i == len(qs)/2-1 {
			// A tail term whose group impacts the index keeps passes over
			// unmarked groups (tailTabs, accumulateGroups) instead of blocks.
			tg := ix.stats.skippedGroups.Load() - g0
			t.Logf("default floor: %d postings decoded in full, %d with skipping, %d blocks skipped, %d groups passed over", decFull, decSkip, skipped, tg)
			if skipped+tg == 0 {
				t.Errorf("no tail term skipped a block or a group")
			}
		}
		if g, w := answerJSON(t, got), answerJSON(t, want); g != w || got.More != want.More {
			t.Errorf("%q (budget %d): answer with blocks skipped\n%s\nwant\n%s", q, opt.BudgetTokens, g, w)
		}
	}
	groups := ix.stats.skippedGroups.Load() - g0
	t.Logf("%d questions: %d postings decoded in full, %d with skipping, %d blocks skipped, %d groups' postings passed over", len(qs), decFull, decSkip, skipped, groups)
	if groups == 0 {
		t.Errorf("no group's postings were passed over (accumulateGroups)")
	}
	if skipped < 100 || decFull-decSkip < skipped*skipBlock/2 {
		t.Errorf("skipping decoded %d of %d postings (%d blocks skipped): common terms' blocks are not skipped", decSkip, decFull, skipped)
	}
}
