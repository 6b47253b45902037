package engine

import (
	"cmp"
	"container/heap"
	"slices"
)

// Ties broken by a rank of the group pages' IDs.
//
// Groups of equal score rank by ID (rankGroups, boostNeighbours,
// boostShared), and comparing two IDs decodes two records. A question
// whose words every file holds ties tens of thousands of groups: "error
// handling for a negative count" at 100k files ties 58k groups at the
// head's last score, and sorting them, and finding the best few for the
// neighbour boosts, decoded their IDs a few times over (a third of the
// question's CPU). An opened index ranks its group pages' IDs once, in
// the background once settled (OpenSegments), and compares ranks: the
// order is the one comparing the IDs gives (equal IDs, equal ranks), so
// answers are the same whether the ranks are there yet or not.

// idRanks is, per page, the rank of a group page's ID among all group
// pages' IDs, equal IDs ranked equal; noRank for the other pages. Per
// page rather than per group ordinal, so that a comparison reads two
// words instead of searching groupPages twice: 4 bytes a page (5.6 MB
// at 100k files).
type idRanks []uint32

// noRank is the rank of a page that is no group page.
const noRank = ^uint32(0)

// buildIDRanks ranks the group pages' IDs and publishes the ranks. Each
// segment's group pages are put in ID order once per decoded segment
// (segIDOrder: a generation an edit makes reuses all but its new ones),
// and the segments' orders are merged: at 100k files a sort of all 180k
// IDs took 135 ms of CPU for every generation, in the background.
func (ix *Index) buildIDRanks() {
	ix.groupOrdinals()
	ranks := make(idRanks, ix.n)
	for i := range ranks {
		ranks[i] = noRank
	}
	orders := make([][]uint32, len(ix.segs))
	h := make(idMergeHeap, 0, len(ix.segs))
	for si, sg := range ix.segs {
		orders[si] = ix.segIDOrder(sg)
		if len(orders[si]) > 0 {
			h = append(h, idMergeHead{ix.idParts(sg.base + orders[si][0]), si, 0})
		}
	}
	heap.Init(&h)
	r := uint32(0)
	var prev [5]string
	for n := 0; len(h) > 0; n++ {
		top := h[0]
		if n > 0 && compareParts(prev, top.parts) != 0 {
			r++
		}
		sg := ix.segs[top.seg]
		ranks[sg.base+orders[top.seg][top.pos]] = r
		prev = top.parts
		if next := top.pos + 1; next < len(orders[top.seg]) {
			h[0] = idMergeHead{ix.idParts(sg.base + orders[top.seg][next]), top.seg, next}
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	ix.idRank.Store(&ranks)
}

// segIDOrder returns sg's group pages (local numbers) in the order of
// their IDs, equal IDs in page order, computed once per decoded segment:
// its records, and so its IDs, never change, whichever index reads it.
func (ix *Index) segIDOrder(sg *segment) []uint32 {
	sg.idOrderOnce.Do(func() {
		type key struct {
			id [5]string
			p  uint32
		}
		var keys []key
		for p := range uint32(sg.n) {
			if sg.group[p] == p {
				keys = append(keys, key{ix.idParts(sg.base + p), p})
			}
		}
		slices.SortFunc(keys, func(a, b key) int { return cmp.Or(compareParts(a.id, b.id), cmp.Compare(a.p, b.p)) })
		sg.idOrder = make([]uint32, len(keys))
		for i, k := range keys {
			sg.idOrder[i] = k.p
		}
	})
	return sg.idOrder
}

// idMergeHead is the next group page of one segment's ID order in
// buildIDRanks's merge.
type idMergeHead struct {
	parts    [5]string
	seg, pos int
}

// idMergeHeap is a min-heap of idMergeHeads by ID (container/heap).
type idMergeHeap []idMergeHead

func (h idMergeHeap) Len() int           { return len(h) }
func (h idMergeHeap) Less(i, j int) bool { return compareParts(h[i].parts, h[j].parts) < 0 }
func (h idMergeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *idMergeHeap) Push(x any)        { *h = append(*h, x.(idMergeHead)) }
func (h *idMergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// idRanksOff makes compareIDs decode IDs, so that tests can compare
// answers with and without the ranks.
var idRanksOff bool

// ranks returns the index's ID ranks, nil until buildIDRanks is done.
func (ix *Index) ranks() idRanks {
	if idRanksOff {
		return nil
	}
	if r := ix.idRank.Load(); r != nil {
		return *r
	}
	return nil
}

// compareIDs compares the IDs of group pages p and q (as compareParts
// compares them decoded), by rank when rk (ix.ranks()) is not nil.
func (ix *Index) compareIDs(rk idRanks, p, q uint32) int {
	if rk != nil {
		if a, b := rk[p], rk[q]; a != noRank && b != noRank {
			return cmp.Compare(a, b)
		}
	}
	return compareParts(ix.idParts(p), ix.idParts(q))
}

// sortByRank puts run, keys of equal score, in the order sortGroups
// gives them by decoded ID (ID, then group index), by rank; false, with
// run untouched, when a group of it has no rank (a memory given at query
// time).
func (ix *Index) sortByRank(s *scratch, rk idRanks, run []rankKey) bool {
	ids := s.rankIDs[:0]
	for _, k := range run {
		g := &s.groups[k.gi]
		if g.extra != 0 {
			return false
		}
		if rk[g.page] == noRank {
			return false
		}
		ids = append(ids, uint64(rk[g.page])<<32|uint64(uint32(k.gi)))
	}
	slices.Sort(ids)
	ix.stats.rankTies.Add(1)
	for i, v := range ids {
		run[i].gi = int(uint32(v))
	}
	s.rankIDs = ids
	return true
}
