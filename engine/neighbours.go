package engine

import (
	"cmp"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// buildNeighbours builds the group-level neighbour lists (files, modules) used
// by focus and the neighbour boost.
func (ix *segment) buildNeighbours(g *graph.Graph) {
	n := ix.n
	edges := g.Edges()

	// Undirected, over all edge types, deduplicated.
	type pair struct{ a, b uint32 }
	var pairs []pair
	for _, e := range edges {
		if int(e.From) >= n || int(e.To) >= n {
			continue
		}
		a, b := ix.group[e.From], ix.group[e.To]
		if a != b {
			pairs = append(pairs, pair{a, b}, pair{b, a})
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.a != y.a {
			return cmp.Compare(x.a, y.a)
		}
		return cmp.Compare(x.b, y.b)
	})
	pairs = slices.Compact(pairs)
	ix.adjOff = make([]uint32, n+1)
	ix.adj = make([]uint32, len(pairs))
	for i, p := range pairs {
		ix.adjOff[p.a+1]++
		ix.adj[i] = p.b
	}
	for i := range n {
		ix.adjOff[i+1] += ix.adjOff[i]
	}
}
