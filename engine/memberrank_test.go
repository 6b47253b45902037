package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestZeroWeightTermsTouchNothing: a question term of weight 0 (a
// member-only question's whole names at memberNameShare 0, say) is not
// looked up: its postings would leave their pages at score 0, which the
// accumulators take as untouched, so a page would be listed in touched
// once for it and again for the next term, folded twice, and
// packMembers' member list would hold a cycle (it looped). Each term
// here comes first at weight 0, then at its own weight: every touched
// page is listed once and scored.
func TestZeroWeightTermsTouchNothing(t *testing.T) {
	ix, qs := prunedIndex(t)
	checked := 0
	for _, q := range qs {
		a := analyze(q)
		zero := slices.Clone(a.terms)
		for i := range zero {
			zero[i].weight = 0
		}
		a.terms = append(zero, a.terms...)
		r := queryRun{q: q, a: a, opt: Options{Kinds: []graph.Kind{graph.KindSymbol}}}
		r.s = ix.getScratch()
		ix.scoreTerms(&r, pruneMode{})
		seen := make(map[uint32]bool, len(r.s.touched))
		for _, p := range r.s.touched {
			if seen[p] {
				t.Fatalf("%q: page %d touched twice", q, p)
			}
			seen[p] = true
			if r.s.score[p] == 0 {
				t.Fatalf("%q: page %d touched at score 0", q, p)
			}
		}
		checked += len(seen)
		ix.putScratch(r.s)
	}
	if checked == 0 {
		t.Fatal("no page touched: the test checks nothing")
	}
}

// TestImpactsOfMatchesPostings: impactsOf reads a term's impact on a set
// of pages as its full postings hold it, for long lists (through the skip
// tables) and short ones, pages absent from the list left at 0.
func TestImpactsOfMatchesPostings(t *testing.T) {
	ix, qs := prunedIndex(t)
	long := 0
	for _, q := range qs {
		for _, qt := range analyze(q).terms {
			ref, ok := ix.lookupTerm(qt.term)
			if !ok {
				continue
			}
			pages, imps := ix.postings(ref, nil, nil)
			want := make(map[uint32]uint8, len(pages))
			for i, p := range pages {
				want[p] = imps[i]
			}
			if len(pages) >= skipMinPostings {
				long++
			}
			// every third page of the index, and every fifth posting
			var ask []uint32
			for p := uint32(0); p < uint32(ix.n); p += 3 {
				ask = append(ask, p)
			}
			for i := 0; i < len(pages); i += 5 {
				ask = append(ask, pages[i])
			}
			slices.Sort(ask)
			ask = slices.Compact(ask)
			got := make([]uint8, len(ask))
			ix.impactsOf(ref, ask, got)
			for i, p := range ask {
				if got[i] != want[p] {
					t.Fatalf("%q term %s page %d: impact %d, postings %d", q, qt.term, p, got[i], want[p])
				}
			}
		}
	}
	if long == 0 {
		t.Fatal("no term with a skip table: the test does not read one")
	}
}

// TestMemberScoresFollowOrder: the scores a member-only answer shows
// never rise down its list. The reranked head's scores (score ×
// coverage) are lower than the candidates' own; a candidate after a head
// cut at half the best showed its own score, above the reranked ones
// before it. The head now takes every candidate that could pass one of
// its own (rerankMembers), and one after a head cut at its most is shown
// at the head's last score.
func TestMemberScoresFollowOrder(t *testing.T) {
	ix, qs := prunedIndex(t)
	qs = append(slices.Clip(qs), memberQuestions()...)
	checked := 0
	for i, q := range qs {
		opt := Options{BudgetTokens: []int{2000, 8000, 20000}[i%3], Kinds: []graph.Kind{graph.KindSymbol}}
		res, err := ix.Query(context.Background(), q, opt)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(res.Results); k++ {
			if res.Results[k].Score > res.Results[k-1].Score {
				t.Errorf("%q: result %d (%s) shows %.4f after %.4f", q, k, res.Results[k].ID, res.Results[k].Score, res.Results[k-1].Score)
				break
			}
		}
		checked += len(res.Results)
	}
	if checked == 0 {
		t.Fatal("no results: the test checks nothing")
	}
}

// TestOwnScoresReadTheRecord guards ownScores: of two near-twins saying
// the question's words as often in their name, signature and doc's first
// line (fixtures/symbols/shop: counter.py, postroom.py), the one whose own text is
// shorter scores higher; the words of the longer one's body (which its
// impacts hold) count for nothing.
func TestOwnScoresReadTheRecord(t *testing.T) {
	ix, err := Load(fixtureSnapshot(t, "symbols"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"symbol:shop/counter.py#parcel_stamp": 0, "symbol:shop/postroom.py#get_parcel_stamp": 1}
	hc := make([]headCand, 2)
	found := 0
	for p := uint32(0); int(p) < ix.n; p++ {
		if k, ok := want[ix.id(p)]; ok {
			hc[k] = headCand{c: memberCand{page: p}, ownLen: -1}
			found++
		}
	}
	if found != 2 {
		t.Fatalf("found %d of the 2 definitions", found)
	}
	r := &queryRun{}
	for _, term := range []string{"stamp", "parcel", "depot", "sent"} {
		r.tps = append(r.tps, termPostings{qt: queryTerm{term: term, weight: 1}, idf: 1})
	}
	ix.ownScores(r, hc[:1])
	ix.ownScores(r, hc) // the first is not read again
	gold, twin := hc[0], hc[1]
	for k, term := range []string{"stamp", "parcel", "depot"} {
		if gold.ownTF[k] == 0 || gold.ownTF[k] != twin.ownTF[k] {
			t.Errorf("%q: counts %v and %v, want equal and not 0", term, gold.ownTF[k], twin.ownTF[k])
		}
	}
	if gold.ownTF[3] != 0 || twin.ownTF[3] != 1 {
		t.Errorf(`"sent": counts %v and %v, want 0 and 1 (the twin's doc line)`, gold.ownTF[3], twin.ownTF[3])
	}
	if gold.ownLen <= 0 || gold.ownLen >= twin.ownLen {
		t.Errorf("own lengths %d and %d, want the twin's longer", gold.ownLen, twin.ownLen)
	}
	// Without "sent" the twin holds nothing more and is longer.
	r.tps = r.tps[:3]
	hc[0].ownLen, hc[1].ownLen = -1, -1
	ix.ownScores(r, hc)
	if !(hc[0].own > hc[1].own && hc[1].own > 0) {
		t.Errorf("own scores %.4f and %.4f, want the shorter text first and both above 0", hc[0].own, hc[1].own)
	}
}
