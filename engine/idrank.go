package engine

import (
	"cmp"
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

// buildIDRanks ranks the group pages' IDs (a record read per group
// page, then a sort: 0.24 s of CPU at 100k files, in the background)
// and publishes the ranks.
func (ix *Index) buildIDRanks() {
	ix.groupOrdinals()
	type key struct {
		id  [5]string
		ord uint32
	}
	keys := make([]key, len(ix.groupPages))
	for o, p := range ix.groupPages {
		keys[o] = key{ix.idParts(p), uint32(o)}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(compareParts(a.id, b.id), cmp.Compare(a.ord, b.ord))
	})
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
	ix.idRank.Store(&ranks)
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
