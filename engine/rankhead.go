package engine

// Ranking sorts only the head of the groups an answer can reach: a broad
// question on moby has a thousand or more groups above the cut, and an
// answer at the default budget shows thirty to fifty stubs. rankGroups
// sorts the first head (firstHead groups, with every group tied with the
// last of them); packStubs sorts the next one when packing reaches its
// end, each head as large as all the heads before it, so a question that
// packs far pays O(n log n) over the groups it reaches and O(n) a head to
// select it. A group of the tail scores below every group of the head,
// and each head is put in rank order (score, then ID) by sortGroups,
// whose order is total: the order packed is the one sorting all would give.

// firstHead is how many groups rankGroups sorts before packing: about
// twice the stubs of lean answers (leanStubTokens) the budget holds, at
// least 64, at most rankHead.
func firstHead(opt Options) int {
	budget := opt.BudgetTokens
	if budget <= 0 {
		budget = DefaultBudgetTokens
	}
	return min(rankHead, max(64, min(budget, MaxBudgetTokens)/(2*leanStubTokens)))
}

// sortHead sorts the next head of order, which is sorted up to from, and
// returns where the sorted part now ends: the head is the k groups of
// order[from:] of largest score (k: firstHead, or from when larger) and
// every group tied with the k-th, moved to the front of order[from:].
func (ix *Index) sortHead(r *queryRun, order []int, from int) int {
	rest := order[from:]
	k := max(firstHead(r.opt), from)
	if len(rest) <= k {
		ix.sortGroups(r, rest)
		return len(order)
	}
	groups := r.s.groups
	th := kthLargest(r.s, rest, k)
	n := 0
	for i, gi := range rest {
		if groups[gi].score >= th {
			rest[n], rest[i] = rest[i], rest[n]
			n++
		}
	}
	ix.sortGroups(r, rest[:n])
	return from + n
}
