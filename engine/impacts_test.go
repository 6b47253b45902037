package engine

import (
	"bytes"
	"testing"
)

// TestImpactsRecomputed: impacts computed from the stored term
// frequencies and lengths equal the stored ones under the same statistics.
func TestImpactsRecomputed(t *testing.T) {
	ix := NewIndex(synthGraph(3000))
	sg := ix.segs[0]
	if !sg.exact {
		t.Fatal("a one-segment index does not read its stored impacts")
	}
	stored := make([]termImpacts, sg.numTerms)
	for id := range uint32(sg.numTerms) {
		stored[id] = ix.impacts(sg, id)
	}
	sg.exact = false
	for id := range uint32(sg.numTerms) {
		got := ix.impacts(sg, id)
		if got.df != stored[id].df || !bytes.Equal(got.post, stored[id].post) {
			t.Fatalf("term %q: recomputed %d postings %x, stored %d %x", sg.term(id), got.df, got.post, stored[id].df, stored[id].post)
		}
	}
}

// BenchmarkImpactsAll computes every term's impacts from term frequencies.
func BenchmarkImpactsAll(b *testing.B) {
	_, ix, _ := benchIndex(b)
	sg := ix.segs[0]
	sg.exact = false
	defer func() { sg.exact = true }()
	total := 0
	for b.Loop() {
		sg.cache.Clear()
		total = 0
		for t := range uint32(sg.numTerms) {
			total += ix.impacts(sg, t).df
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(total), "ns/posting")
	b.ReportMetric(float64(total), "postings")
}
