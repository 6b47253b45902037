package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNameMayApplyNeverHidesAName checks fileSignals's shortcut against
// the name signal it skips: for any name words, question words and
// project words, whenever the signal would apply the file's fact says it
// may, and the fact still rules out most files whose names are not made
// of the question's words (else the shortcut saves nothing).
func TestNameMayApplyNeverHidesAName(t *testing.T) {
	vocab := []string{"expr", "compos", "client", "server", "config", "axum", "core", "util", "mod", "parser", "token", "stream", "build", "cache"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) []string {
		var ws []string
		for range n {
			ws = append(ws, vocab[rng.IntN(len(vocab))])
		}
		return ws
	}
	applied, skipped, trials := 0, 0, 20000
	for range trials {
		sw, words, proj := pick(rng.IntN(4)), pick(rng.IntN(5)), pick(rng.IntN(3))
		slices.Sort(proj)
		proj = slices.Compact(proj)
		n := len(sw)
		applies := n > 0 && allIn(sw, words)
		if !applies && n > 0 {
			rest := dropWords(slices.Clone(sw), proj)
			applies = len(rest) > 0 && len(rest) < n && allIn(rest, words)
		}
		may := nameMayApply(factKnown|wordSig(sw), wordSig(words), wordSig(proj))
		if applies && !may {
			t.Fatalf("name %q, question %q, project %q: the signal applies but the fact rules it out", sw, words, proj)
		}
		if applies {
			applied++
		} else if !may {
			skipped++
		}
	}
	if applied == 0 || skipped < (trials-applied)/2 {
		t.Errorf("%d of %d names applied; the fact ruled out only %d of the rest", applied, trials, skipped)
	}
}
