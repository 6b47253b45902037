package engine

import (
	"math"
	"runtime"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestHalvesEqualOnePass: every term's postings decoded on two cores, half
// the segments each (onHalves), give the answers one pass over them gives,
// to the bit (scores, order, snippets, explanations), on an index of three
// segments with updated and removed files, for questions that score every
// posting, skip blocks, or prune.
func TestHalvesEqualOnePass(t *testing.T) {
	// 800 files in three segments: common words have skip tables
	// (skipMinPostings in a segment).
	_, sd, ix := synthSegments(t, 800, 3, 17, 0.12, 0.06)
	oldMin, oldFloor, oldProcs := halvesMinBytes, commonTermFloor, runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() {
		halvesMinBytes, commonTermFloor, groupTabsOff = oldMin, oldFloor, false
		runtime.GOMAXPROCS(oldProcs)
	})
	qs := segmentQuestions(sd.live, 60)
	add := func(q string, opt Options) {
		qs = append(qs, struct {
			q   string
			opt Options
		}{q, opt})
	}
	add("how are records validated and retried", Options{})
	add("session token cache", Options{Explain: true})
	// A rare name with common words: the common ones skip blocks.
	common := []string{"record", "error", "context", "cache", "the"}
	n := 0
	for i := range sd.live.Pages {
		if p := &sd.live.Pages[i]; p.Kind == graph.KindSymbol && i%7 == 0 && n < 30 {
			add(p.Name+" "+common[n%len(common)]+" "+common[(n+2)%len(common)], Options{})
			n++
		}
	}
	for i, c := range qs {
		// The second half with a low common-term floor: common terms after
		// rare ones skip blocks (accumulateSkip).
		if i == len(qs)/2 {
			commonTermFloor = 20
		}
		// Every other question with the group impacts unused
		// (groupTabsOff): pruned terms skip blocks instead.
		groupTabsOff = i%2 == 1
		halvesMinBytes = math.MaxInt
		h0 := ix.stats.halved.Load()
		want := query(t, ix, c.q, c.opt)
		if ix.stats.halved.Load() != h0 {
			t.Fatal("a term was decoded on two cores below halvesMinBytes")
		}
		halvesMinBytes = 0
		got := query(t, ix, c.q, c.opt)
		if g, w := answerJSON(t, got), answerJSON(t, want); g != w {
			t.Errorf("%q: answer decoded on two cores\n%s\nwant\n%s", c.q, g, w)
		}
	}
	if n := ix.stats.halved.Load(); n < int64(len(qs)) {
		t.Errorf("%d terms decoded on two cores for %d questions: the halves were not tried", n, len(qs))
	}
	if ix.stats.skipped.Load() == 0 {
		t.Errorf("no block skipped: accumulateSkip's halves were not tried")
	}
}

// TestFoldHalvesEqualOnePass: the touched pages folded into their groups
// on two cores, cut at a group page near the middle (foldDenseHalves),
// give the answers one pass gives, to the bit, on an index of three
// segments with updated and removed files; and the scratch is left clear,
// so that the question asked again on one core still agrees.
func TestFoldHalvesEqualOnePass(t *testing.T) {
	_, sd, ix := synthSegments(t, 800, 3, 23, 0.12, 0.06)
	oldMin, oldProcs := foldHalvesMin, runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() {
		foldHalvesMin = oldMin
		runtime.GOMAXPROCS(oldProcs)
	})
	qs := segmentQuestions(sd.live, 80)
	qs = append(qs, struct {
		q   string
		opt Options
	}{"how are records validated and retried", Options{Explain: true}})
	for _, c := range qs {
		foldHalvesMin = math.MaxInt
		h0 := ix.stats.foldHalved.Load()
		want := query(t, ix, c.q, c.opt)
		if ix.stats.foldHalved.Load() != h0 {
			t.Fatal("a fold ran on two cores below foldHalvesMin")
		}
		foldHalvesMin = 0
		got := query(t, ix, c.q, c.opt)
		if g, w := answerJSON(t, got), answerJSON(t, want); g != w {
			t.Errorf("%q: answer folded on two cores\n%s\nwant\n%s", c.q, g, w)
		}
		if s := ix.idle.Load(); s != nil {
			for w, b := range s.bits {
				if b != 0 {
					t.Fatalf("%q: the fold left word %d of the touched bitmap set (%#x)", c.q, w, b)
				}
			}
		}
		foldHalvesMin = math.MaxInt
		if again := query(t, ix, c.q, c.opt); answerJSON(t, again) != answerJSON(t, want) {
			t.Errorf("%q: asked again on one core after two, the answer differs", c.q)
		}
	}
	if n := ix.stats.foldHalved.Load(); n < int64(len(qs))/2 {
		t.Errorf("%d folds on two cores for %d questions: the halves were not tried", n, len(qs))
	}
}

// TestSignalsHalvesEqualOnePass: the file signals (name, helper, header)
// read for the groups on two cores, half the ranked groups each, give
// the answers one pass gives, explanations included.
func TestSignalsHalvesEqualOnePass(t *testing.T) {
	_, sd, ix := synthSegments(t, 800, 3, 29, 0.12, 0.06)
	oldMin, oldProcs := fileSignalsHalvesMin, runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() {
		fileSignalsHalvesMin = oldMin
		runtime.GOMAXPROCS(oldProcs)
	})
	qs := segmentQuestions(sd.live, 80)
	for i := range qs {
		qs[i].opt.Explain = i%3 == 0
	}
	for _, c := range qs {
		fileSignalsHalvesMin = math.MaxInt
		h0 := ix.stats.signalsHalved.Load()
		want := query(t, ix, c.q, c.opt)
		if ix.stats.signalsHalved.Load() != h0 {
			t.Fatal("file signals read on two cores below fileSignalsHalvesMin")
		}
		fileSignalsHalvesMin = 2
		got := query(t, ix, c.q, c.opt)
		if g, w := answerJSON(t, got), answerJSON(t, want); g != w {
			t.Errorf("%q: answer with the file signals on two cores\n%s\nwant\n%s", c.q, g, w)
		}
	}
	if n := ix.stats.signalsHalved.Load(); n < int64(len(qs))/2 {
		t.Errorf("file signals on two cores %d times for %d questions: the halves were not tried", n, len(qs))
	}
}
