package engine

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// tieGraph is files of the same text, listed in an order unlike their
// IDs', each with two symbols: a question of their words ties every
// file, and ranking breaks the ties by ID alone.
func tieGraph(files int) *graph.Graph {
	r := rand.New(rand.NewPCG(3, 4))
	var pages []graph.Page
	var edges []graph.Edge
	for _, f := range r.Perm(files) {
		p := fmt.Sprintf("svc%d/handler_%d.go", f%7, f)
		fi := uint32(len(pages))
		pages = append(pages, graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: p, Path: p, Lang: "go",
			Doc: "Package handler: error handling for a negative count"})
		for _, name := range []string{"Handle", "Count"} {
			si := uint32(len(pages))
			pages = append(pages, graph.Page{ID: graph.SymbolID(p, name), Kind: graph.KindSymbol, Title: "func " + name + "()",
				Name: name, Qualified: name, SymKind: "func", Path: p, Line: 3, EndLine: 9, Lang: "go", Doc: name + " counts the errors"})
			edges = append(edges, graph.Edge{From: fi, To: si, Type: graph.Contains})
		}
	}
	return graph.NewGraph(pages, edges)
}

// TestIDRanksFollowIDs: comparing two group pages' ID ranks gives what
// comparing their decoded IDs gives, for every pair of a sample, and a
// page that groups no other ranks none.
func TestIDRanksFollowIDs(t *testing.T) {
	ix := NewIndex(pruneGraph())
	ix.buildIDRanks()
	rk := ix.ranks()
	if rk == nil {
		t.Fatal("no ranks after buildIDRanks")
	}
	r := rand.New(rand.NewPCG(5, 6))
	gp := ix.groupPages
	for range 20000 {
		p, q := gp[r.IntN(len(gp))], gp[r.IntN(len(gp))]
		if got, want := ix.compareIDs(rk, p, q), compareParts(ix.idParts(p), ix.idParts(q)); cmp.Compare(got, 0) != cmp.Compare(want, 0) {
			t.Fatalf("pages %d, %d (%v, %v): rank order %d, ID order %d", p, q, ix.idParts(p), ix.idParts(q), got, want)
		}
	}
	for p := range uint32(ix.n) {
		if (ix.group[p] == p) != (rk[p] != noRank) {
			t.Fatalf("page %d (group %d) has rank %d", p, ix.group[p], rk[p])
		}
	}
}

// TestIDRanksSameAnswers: a question every file ties on gets the same
// answer (every result, its place, More) with the ranks as with the IDs
// decoded, at several budgets, and the ranks did order its ties.
func TestIDRanksSameAnswers(t *testing.T) {
	ix := NewIndex(tieGraph(400))
	ix.buildIDRanks()
	for _, q := range []string{"error handling for a negative count", "handler", "Count", "svc3 handler"} {
		for _, budget := range []int{300, 2000, 12000} {
			opt := Options{BudgetTokens: budget}
			idRanksOff = true
			want, _ := ix.Query(t.Context(), q, opt)
			idRanksOff = false
			r0 := ix.stats.rankTies.Load()
			got, _ := ix.Query(t.Context(), q, opt)
			if a, b := answerJSON(t, got), answerJSON(t, want); a != b || got.More != want.More {
				t.Fatalf("%q at %d tokens: with ranks\n%s\nmore %d, decoding IDs\n%s\nmore %d", q, budget, a, got.More, b, want.More)
			}
			if q == "error handling for a negative count" && ix.stats.rankTies.Load() == r0 {
				t.Errorf("%q at %d tokens: no tie ordered by rank", q, budget)
			}
		}
	}
}

// TestIDRanksMergedSegments: the ranks merged from the segments' own ID
// orders (an index of several segments, with pages dead in some and
// updated copies in another) are those a sort of every group page's ID
// gives, and a second index on the same decoded segments (a generation
// reusing them) merges the orders the first one made into the same ranks.
func TestIDRanksMergedSegments(t *testing.T) {
	sd := splitSegments(t, proseGraph(3000), 5, 31, 0.1, 0.05)
	for i := range sd.segs {
		sd.segs[i].Key = fmt.Sprintf("id-ranks-merged-%d", i)
	}
	want := func(ix *Index) idRanks {
		ix.groupOrdinals()
		type key struct {
			id  [5]string
			ord uint32
		}
		keys := make([]key, len(ix.groupPages))
		for o, p := range ix.groupPages {
			keys[o] = key{ix.idParts(p), uint32(o)}
		}
		slices.SortFunc(keys, func(a, b key) int { return cmp.Or(compareParts(a.id, b.id), cmp.Compare(a.ord, b.ord)) })
		ranks := make(idRanks, ix.n)
		for i := range ranks {
			ranks[i] = noRank
		}
		r := uint32(0)
		for i := range keys {
			if i > 0 && compareParts(keys[i-1].id, keys[i].id) != 0 {
				r++
			}
			ranks[ix.groupPages[keys[i].ord]] = r
		}
		return ranks
	}
	for round := range 2 {
		ix, err := OpenSegments(sd.segs)
		if err != nil {
			t.Fatal(err)
		}
		<-ix.Warm()
		if len(ix.segs) < 5 || ix.dead == nil {
			t.Fatalf("%d segments, dead pages %v: the test needs several and some dead", len(ix.segs), ix.dead != nil)
		}
		got, w := ix.ranks(), want(ix)
		if !slices.Equal(got, w) {
			t.Fatalf("round %d: merged ranks differ from a sort of every ID", round)
		}
		if slices.Max(slices.DeleteFunc(slices.Clone(w), func(r uint32) bool { return r == noRank })) < 1000 {
			t.Fatalf("round %d: too few distinct IDs to test", round)
		}
	}
}
