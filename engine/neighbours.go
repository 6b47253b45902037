package engine

import (
	"cmp"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// buildNeighbours builds the group-level neighbour lists (files, modules) used
// by focus and the neighbour boost, and which of their entries are edges
// out of the list's page (adjOut: a page that was replaced by a newer
// segment's copy keeps the links into it of the pages that link to it).
func (ix *segment) buildNeighbours(g *graph.Graph) {
	n := ix.n
	edges := g.Edges()

	// Undirected, over all edge types but loose references, deduplicated.
	type pair struct {
		a, b uint32
		out  bool // an edge goes from a to b
	}
	var pairs []pair
	for _, e := range edges {
		if int(e.From) >= n || int(e.To) >= n || !e.Confident() {
			continue
		}
		a, b := ix.group[e.From], ix.group[e.To]
		if a != b {
			pairs = append(pairs, pair{a, b, true}, pair{b, a, false})
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.a != y.a {
			return cmp.Compare(x.a, y.a)
		}
		return cmp.Compare(x.b, y.b)
	})
	k := 0
	for i, p := range pairs {
		if i > 0 && p.a == pairs[k-1].a && p.b == pairs[k-1].b {
			pairs[k-1].out = pairs[k-1].out || p.out
			continue
		}
		pairs[k] = p
		k++
	}
	pairs = pairs[:k]
	ix.adjOff = make([]uint32, n+1)
	ix.adj = make([]uint32, len(pairs))
	ix.adjOut = make([]byte, (len(pairs)+7)/8)
	for i, p := range pairs {
		ix.adjOff[p.a+1]++
		ix.adj[i] = p.b
		if p.out {
			ix.adjOut[i/8] |= 1 << (i % 8)
		}
	}
	for i := range n {
		ix.adjOff[i+1] += ix.adjOff[i]
	}
}
