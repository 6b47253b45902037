package engine

import (
	"slices"
	"testing"
)

// TestSortHeadsMatchFullSort: sorting the groups head by head, as
// rankGroups and packStubs do (sortHead), gives the order sorting them
// all at once gives, with many ties (broken by ID, then index), for any
// budget and however far packing reaches.
func TestSortHeadsMatchFullSort(t *testing.T) {
	ix := NewIndex(testGraph(t))
	for _, budget := range []int{0, 300, 5000, MaxBudgetTokens} {
		for _, n := range []int{1, 63, 64, 65, 200, 1500} {
			r := queryRun{opt: Options{BudgetTokens: budget}, s: &scratch{}}
			rng := uint32(n*7 + budget)
			for i := range n {
				rng = rng*1664525 + 1013904223
				r.s.groups = append(r.s.groups, groupAcc{page: (rng >> 8) % uint32(ix.n), score: float64(rng>>28) / 4})
				r.s.order = append(r.s.order, i)
			}
			all := slices.Clone(r.s.order)
			ix.sortGroups(&r, all)
			order := slices.Clone(r.s.order)
			sorted := ix.sortHead(&r, order, 0)
			if n > 2*firstHead(r.opt) && sorted >= n {
				t.Fatalf("budget %d, %d groups: the first head sorted all", budget, n)
			}
			for sorted < n {
				next := ix.sortHead(&r, order, sorted)
				if next <= sorted {
					t.Fatalf("budget %d, %d groups: no progress at %d", budget, n, sorted)
				}
				sorted = next
			}
			if !slices.Equal(order, all) {
				t.Fatalf("budget %d, %d groups: head by head %v, all at once %v", budget, n, order[:min(n, 20)], all[:min(n, 20)])
			}
		}
	}
}
