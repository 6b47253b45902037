package graph

import (
	"cmp"
	"slices"
)

// Graph is an immutable in-memory graph of pages and typed edges. Edges are
// kept twice, sorted by (From, Type, To) and by (To, Type, From), so both
// directions are a binary search away. A Graph is safe for concurrent reads.
type Graph struct {
	Pages []Page
	out   []Edge // sorted by From, Type, To
	in    []Edge // sorted by To, Type, From
	byID  map[string]uint32
}

// NewGraph builds a Graph from pages and edges; it takes ownership of both.
// Duplicate edges are dropped.
func NewGraph(pages []Page, edges []Edge) *Graph {
	return newGraphIndexed(pages, edges, nil)
}

// newGraphIndexed is NewGraph given, unless nil, the map from page ID to
// index (AssembleGraph has built it already).
func newGraphIndexed(pages []Page, edges []Edge, byID map[string]uint32) *Graph {
	g := &Graph{Pages: pages, byID: byID}
	// The two directions sort on two cores.
	in := slices.Clone(edges)
	done := make(chan struct{})
	go func() {
		slices.SortFunc(in, func(a, b Edge) int {
			if a.To != b.To {
				return cmp.Compare(a.To, b.To)
			}
			if a.Type != b.Type {
				return int(a.Type) - int(b.Type)
			}
			return cmp.Compare(a.From, b.From)
		})
		g.in = compactEdges(in)
		close(done)
	}()
	if g.byID == nil {
		g.byID = make(map[string]uint32, len(pages))
		for i := range pages {
			g.byID[pages[i].ID] = uint32(i)
		}
	}
	slices.SortFunc(edges, func(a, b Edge) int {
		if a.From != b.From {
			return cmp.Compare(a.From, b.From)
		}
		if a.Type != b.Type {
			return int(a.Type) - int(b.Type)
		}
		return cmp.Compare(a.To, b.To)
	})
	g.out = compactEdges(edges)
	<-done
	return g
}

// Lookup returns the index of the page with the given ID.
func (g *Graph) Lookup(id string) (uint32, bool) {
	i, ok := g.byID[id]
	return i, ok
}

// Edges returns all edges sorted by (From, Type, To). The slice is shared: do not modify it.
func (g *Graph) Edges() []Edge { return g.out }

// Out returns the edges leaving page i (all types when all is true, else only type t).
// The slice is shared: do not modify it.
func (g *Graph) Out(i uint32, t EdgeType, all bool) []Edge {
	lo, _ := slices.BinarySearchFunc(g.out, i, func(e Edge, v uint32) int { return cmp.Compare(e.From, v) })
	hi := lo
	for hi < len(g.out) && g.out[hi].From == i {
		hi++
	}
	return filterType(g.out[lo:hi], t, all)
}

// In returns the edges entering page i. The slice is shared: do not modify it.
func (g *Graph) In(i uint32, t EdgeType, all bool) []Edge {
	lo, _ := slices.BinarySearchFunc(g.in, i, func(e Edge, v uint32) int { return cmp.Compare(e.To, v) })
	hi := lo
	for hi < len(g.in) && g.in[hi].To == i {
		hi++
	}
	return filterType(g.in[lo:hi], t, all)
}

func filterType(es []Edge, t EdgeType, all bool) []Edge {
	if all {
		return es
	}
	lo := 0
	for lo < len(es) && es[lo].Type < t {
		lo++
	}
	hi := lo
	for hi < len(es) && es[hi].Type == t {
		hi++
	}
	return es[lo:hi]
}

// compactEdges drops the repeats of an edge from es, sorted so that
// repeats are adjacent, merging their attributes.
func compactEdges(es []Edge) []Edge {
	k := 0
	for i := range es {
		if k > 0 && es[i].From == es[k-1].From && es[i].To == es[k-1].To && es[i].Type == es[k-1].Type {
			es[k-1].Attr = mergeAttr(es[k-1].Attr, es[i].Attr)
			continue
		}
		es[k] = es[i]
		k++
	}
	return es[:k]
}

// Confident reports an edge the default views show: any edge but a loose reference.
func (e Edge) Confident() bool { return !e.Attr.Loose() }
