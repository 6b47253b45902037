package engine

import (
	"testing"
)

// TestReweightedSegmentsReadStoredImpacts: segments reweighted under the
// statistics of them all (what a full build does) read their stored
// impacts at open — no recomputation — and answer exactly as an index
// built in one go over the live pages; dead pages' postings are left out
// without recomputing the rest.
func TestReweightedSegmentsReadStoredImpacts(t *testing.T) {
	g, err := synthSnapshot(t, 300).Graph()
	if err != nil {
		t.Fatal(err)
	}
	for _, dead := range []bool{false, true} {
		rm := 0.0
		if dead {
			rm = 0.08
		}
		sd := splitSegments(t, g, 4, 11, 0, rm)
		// The statistics of the live pages, as a build that writes them sums them.
		want := NewIndex(sd.live)
		var all Stats
		for _, sg := range want.segs {
			all.Add(Stats{sg.sum, sg.cnt})
		}
		for i := range sd.segs {
			if sd.segs[i].Engine, err = Reweight(sd.segs[i].Engine, all); err != nil {
				t.Fatal(err)
			}
		}
		ix, err := OpenSegments(sd.segs)
		if err != nil {
			t.Fatal(err)
		}
		for i, sg := range ix.segs {
			if !sg.exact {
				t.Fatalf("dead=%v: segment %d recomputes its impacts after Reweight", dead, i)
			}
		}
		for _, c := range segmentQuestions(sd.live, 40) {
			if err := sameResult(query(t, ix, c.q, c.opt), query(t, want, c.q, c.opt)); err != nil {
				t.Errorf("dead=%v: %q: %v", dead, c.q, err)
			}
		}
	}
}
