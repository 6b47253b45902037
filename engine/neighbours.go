package engine

import (
	"math"
	"slices"

	"github.com/cespare/xxhash/v2"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// buildGraph computes PageRank over references and imports (warm-started
// from prev), the per-group centrality prior, and the group-level
// neighbour lists used by Focus.
func (ix *Index) buildGraph(g *graph.Graph, prev *Index) {
	n := ix.n
	edges := g.Edges()

	// --- PageRank over references + imports, CSR by target for a pull iteration.
	outDeg := make([]uint32, n)
	inCnt := make([]uint32, n+1)
	for _, e := range edges {
		if (e.Type == graph.References || e.Type == graph.Imports) && int(e.From) < n && int(e.To) < n && e.From != e.To {
			outDeg[e.From]++
			inCnt[e.To+1]++
		}
	}
	for i := range n {
		inCnt[i+1] += inCnt[i]
	}
	src := make([]uint32, inCnt[n])
	fill := slices.Clone(inCnt[:n])
	for _, e := range edges {
		if (e.Type == graph.References || e.Type == graph.Imports) && int(e.From) < n && int(e.To) < n && e.From != e.To {
			src[fill[e.To]] = e.From
			fill[e.To]++
		}
	}
	pr := make([]float64, n)
	warm := false
	if prev != nil && prev.n > 0 && len(prev.pr) == prev.n {
		// Keyed by a hash of the ID, built from its parts: the previous
		// index derives IDs, and building 700k of them as strings for a
		// map cost more than the rest of the warm start.
		byID := make(map[uint64]uint32, prev.n)
		for i := range uint32(prev.n) {
			byID[prev.idHash(i)] = i
		}
		known, mass := 0, 0.0
		for i := range g.Pages {
			if j, ok := byID[xxhash.Sum64String(g.Pages[i].ID)]; ok {
				pr[i] = float64(prev.pr[j])
				mass += pr[i]
				known++
			}
		}
		if known > 0 && mass > 0 {
			warm = true
			newMass := float64(n-known) / float64(n)
			scale := (1 - newMass) / mass
			for i := range pr {
				if pr[i] == 0 {
					pr[i] = 1 / float64(n)
				} else {
					pr[i] *= scale
				}
			}
		}
	}
	if !warm {
		for i := range pr {
			pr[i] = 1 / float64(max(n, 1))
		}
	}
	next := make([]float64, n)
	contrib := make([]float64, n)
	for range pageRankIters {
		dangling := 0.0
		for i := range n {
			if outDeg[i] == 0 {
				dangling += pr[i]
				contrib[i] = 0
			} else {
				contrib[i] = pr[i] / float64(outDeg[i])
			}
		}
		base := (1-pageRankDamp)/float64(n) + pageRankDamp*dangling/float64(n)
		delta := 0.0
		for i := range n {
			s := 0.0
			for _, j := range src[inCnt[i]:inCnt[i+1]] {
				s += contrib[j]
			}
			next[i] = base + pageRankDamp*s
			delta += math.Abs(next[i] - pr[i])
		}
		pr, next = next, pr
		if delta/float64(max(n, 1)) < pageRankTol {
			break
		}
	}
	ix.pr = make([]float32, n)
	for i := range pr {
		ix.pr[i] = float32(pr[i])
	}

	ix.prior = priors(ix.pr, ix.group)

	// --- Group-level undirected neighbours (all edge types), deduplicated.
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
			return cmpU32(x.a, y.a)
		}
		return cmpU32(x.b, y.b)
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

func (ix *Index) neighbours(i uint32) []uint32 {
	if int(i) >= ix.n {
		return nil
	}
	return ix.adj[ix.adjOff[i]:ix.adjOff[i+1]]
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// priors is the centrality prior of each group page: the PageRank mass of
// the group (file + its symbols), log-scaled to [0,1] so that it can only
// nudge, never dominate. It is derived, not stored.
func priors(pr []float32, group []uint32) []float32 {
	n := len(pr)
	mass := make([]float64, n)
	for i := range n {
		mass[group[i]] += float64(pr[i])
	}
	prior := make([]float32, n)
	maxL := 0.0
	for i := range n {
		if mass[i] > 0 {
			l := math.Log1p(mass[i] * float64(n))
			mass[i] = l
			maxL = max(maxL, l)
		}
	}
	if maxL > 0 {
		for i := range n {
			prior[i] = float32(mass[i] / maxL)
		}
	}
	return prior
}

// idHash is xxhash.Sum64String of page i's ID, without building the ID.
func (ix *Index) idHash(i uint32) uint64 {
	var d xxhash.Digest
	d.Reset() // the zero Digest is not a fresh one
	for _, part := range ix.idParts(i) {
		d.WriteString(part)
	}
	return d.Sum64()
}
