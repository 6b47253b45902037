package engine

import (
	"strings"
	"testing"
)

// TestPackerMeasuresWithoutAllocating guards the packer's measuring: each
// stub is rendered into one reused buffer to be counted, and finish sums
// the counts rather than rendering the answer again, so packing stubs
// that are already built allocates nothing. UsedTokens stays the count of
// the rendered answer.
func TestPackerMeasuresWithoutAllocating(t *testing.T) {
	var stubs []Stub
	for i := range 40 {
		stubs = append(stubs, Stub{ID: "symbol:engine/pack.go#packer.add", Kind: "symbol", Title: "func (p *packer) add(s Stub)",
			Path: "engine/pack.go", Line: 100 + i, Snippet: "add appends a stub if it fits the budget, shrinking it first",
			Symbols: []string{"packer.add", "packer.finish", "renderStub"}, symLines: []int{120 + i, 180, 90}})
	}
	r := Result{Query: "packer", BudgetTokens: MaxBudgetTokens, Results: make([]Stub, 0, len(stubs))}
	var buf []byte
	pack := func() {
		r.Results, r.More, r.Truncated = r.Results[:0], 0, false
		p := newPacker(&r)
		p.buf = buf
		for _, s := range stubs {
			p.add(s)
		}
		p.finish()
		buf = p.buf
	}
	pack()
	if len(r.Results) != len(stubs) {
		t.Fatalf("packed %d of %d stubs in %d tokens", len(r.Results), len(stubs), r.BudgetTokens)
	}
	if got := CountTokens(r.Render()); got != r.UsedTokens {
		t.Fatalf("UsedTokens %d, rendered answer counts %d", r.UsedTokens, got)
	}
	if n := testing.AllocsPerRun(20, pack); n != 0 {
		t.Errorf("packing %d built stubs allocates %.0f times, want 0", len(stubs), n)
	}
}

// TestRenderedTokensMatchesRender checks that finish's count without
// rendering is the count of the rendered answer in each layout: a note
// that fits or not, an empty answer, a truncated one whose "more" line
// fits or not.
func TestRenderedTokensMatchesRender(t *testing.T) {
	st := Stub{ID: "file:a/b.go", Kind: "file", Title: "b.go €", Path: "a/b.go", Snippet: "does\tthings\nwell"}
	for _, budget := range []int{1, 5, 12, 30, 2000} {
		for _, note := range []string{"", "no page defines Foo", strings.Repeat("long note ", 20)} {
			for _, n := range []int{0, 1, 3} {
				for _, trunc := range []bool{false, true} {
					r := Result{Query: "q\nx", BudgetTokens: budget, Note: note, Truncated: trunc, More: n}
					stubTok := 0
					for range n {
						r.Results = append(r.Results, st)
						stubTok += CountTokens(renderStub(&st))
					}
					if got, want := r.renderedTokens(stubTok), CountTokens(r.Render()); got != want {
						t.Errorf("budget %d note %q stubs %d truncated %v: counted %d, rendered %d", budget, note, n, trunc, got, want)
					}
				}
			}
		}
	}
}
