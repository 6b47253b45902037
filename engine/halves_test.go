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

// TestRankStepsOnHalvesEqualOnePass: two steps of ranking a broad
// question run on two cores when long enough, and give the answers one
// pass gives, to the bit (explanations included), on an index of three
// segments with updated and removed files:
//   - fold: the touched pages folded into their groups, cut at a group
//     page near the middle (foldDenseHalves), leaving the scratch's
//     bitmap clear, so that the question asked again on one core agrees;
//   - signals: the file signals (name, helper, header) read over the
//     ranked groups half each (fileSignals).
func TestRankStepsOnHalvesEqualOnePass(t *testing.T) {
	for _, step := range []struct {
		name    string
		seed    uint64
		min     *int
		counter func(ix *Index) int64
	}{
		{"fold", 23, &foldHalvesMin, func(ix *Index) int64 { return ix.stats.foldHalved.Load() }},
		{"signals", 29, &fileSignalsHalvesMin, func(ix *Index) int64 { return ix.stats.signalsHalved.Load() }},
	} {
		t.Run(step.name, func(t *testing.T) {
			_, sd, ix := synthSegments(t, 800, 3, step.seed, 0.12, 0.06)
			oldMin, oldProcs := *step.min, runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
			t.Cleanup(func() {
				*step.min = oldMin
				runtime.GOMAXPROCS(oldProcs)
			})
			qs := segmentQuestions(sd.live, 80)
			for i := range qs {
				qs[i].opt.Explain = i%3 == 0
			}
			for _, c := range qs {
				*step.min = math.MaxInt
				h0 := step.counter(ix)
				want := answerJSON(t, query(t, ix, c.q, c.opt))
				if step.counter(ix) != h0 {
					t.Fatal("run on two cores below its minimum")
				}
				*step.min = 2
				if got := answerJSON(t, query(t, ix, c.q, c.opt)); got != want {
					t.Errorf("%q: answer on two cores\n%s\nwant\n%s", c.q, got, want)
				}
				if s := ix.idle.Load(); s != nil {
					for w, b := range s.bits {
						if b != 0 {
							t.Fatalf("%q: word %d of the touched bitmap left set (%#x)", c.q, w, b)
						}
					}
				}
				*step.min = math.MaxInt
				if again := answerJSON(t, query(t, ix, c.q, c.opt)); again != want {
					t.Errorf("%q: asked again on one core after two, the answer differs", c.q)
				}
			}
			if n := step.counter(ix); n < int64(len(qs))/2 {
				t.Errorf("%d runs on two cores for %d questions: the halves were not tried", n, len(qs))
			}
		})
	}
}
