package engine

// Rank-safe pruning of a member-only question (a kind filter leaving out
// files and modules: memberOnly, packMembers).
//
// The terms are pruned as for a file answer (planPrune, markGroups in
// prune.go): the weakest terms score only the pages of the groups the
// stronger terms reach or a question signal names (marked), and a marked
// group is scored exactly. A page of an unmarked group was reached by
// none of the essential terms, so its exact text score is at most the sum
// of the other terms' ceilings, and its group's factors are at most
// groupFactorBound without the neighbour boost, which member-only answers
// skip (no path, component, phrase or focus signal names an unmarked
// group): as a member it scores at most those factors × that sum, the
// member bound (memberBound). A group it belongs to scores at most the
// group bound (prunePlan.bound).
//
// packMembers' answer is the exact one when:
//   - fileSignals' name and helper factors apply to the same groups: its
//     floor (the nameHead-th best group score over nameFactor) may be
//     lower than the exact one, which is at most the larger of the pruned
//     nameHead-th score and the group bound, over nameFactor; a group
//     scoring between the two (the band) must have kept its score
//     through fileSignals (named in neither answer);
//   - every candidate the packer reached scored above the member bound,
//     and when it reached them all, the member bound is below the cut
//     (minScoreShare of the best): no candidate of an unmarked group could
//     have come before one of them, or been listed at all.
//
// Otherwise the question runs again without pruning. More then counts
// only the candidates of marked groups (Result.MoreAtLeast).

// memberBoundSlack widens the member bound for the float rounding of page
// scores (float32 sums) and of the factors read back from group scores.
const memberBoundSlack = 1 + 1e-4

// answerMembers is steps 4 and 5 for a member-only question
// (packMembers). It skips the neighbour boost (step 3b): a file's graph
// neighbours are evidence for a file answer (a change's second file), and
// here it lifted every member of the best file's neighbours together
// over the one definition the question describes (docstring → symbol
// Acc@1 .642 → .667, TUNING.md). With a pruned question (r.prune), it
// reports whether the answer is the exact one (then the question needs no
// second run); without, true.
func (ix *Index) answerMembers(r *queryRun, res *Result) bool {
	pl := r.prune
	var band []bandGroup
	if pl != nil {
		band = ix.nameBand(r, pl.bound)
	}
	cands, reached := ix.packMembers(r, res)
	if pl == nil {
		return true
	}
	for _, b := range band {
		if r.s.groups[b.gi].score != b.score {
			return false
		}
	}
	if !memberPruneHolds(cands, reached, memberBound(pl)) || !headHolds(r, memberBound(pl)) {
		return false
	}
	ix.stats.pruned.Add(1)
	res.MoreAtLeast = res.More > 0
	return true
}

// memberBound is the most a member of a group pl left unmarked can score
// in a member-only answer: the group bound over the group's shares of its
// pages (groupShareBound) and over the neighbour boost (not applied),
// widened for rounding.
func memberBound(pl *prunePlan) float64 {
	return pl.bound / groupShareBound / (1 + max(0, neighbourBoost)) * memberBoundSlack
}

// bandGroup is a group of the name band with its score before fileSignals.
type bandGroup struct {
	gi    int
	score float64
}

// nameBand returns the groups whose names fileSignals may read in the
// pruned answer and not in the exact one, or the other way round: those
// scoring at least the pruned floor and below the highest floor the exact
// answer can have (max(pruned nameHead-th score, bound) / nameFactor).
func (ix *Index) nameBand(r *queryRun, bound float64) []bandGroup {
	if len(r.a.fileWords()) == 0 {
		return nil // fileSignals reads no name
	}
	s := r.s
	order := s.order[:0]
	for i := range s.groups {
		if s.groups[i].score > 0 {
			order = append(order, i)
		}
	}
	s.order = order
	lo, kth := 0.0, 0.0
	if k := nameHead(r.opt); len(order) >= k {
		kth = kthLargest(s, order, k)
		if len(order) > k {
			lo = kth / nameFactor
		}
	}
	hi := max(kth, bound) / nameFactor
	var band []bandGroup
	for _, gi := range order {
		if sc := s.groups[gi].score; sc >= lo && sc < hi {
			band = append(band, bandGroup{gi, sc})
		}
	}
	return band
}

// memberPruneHolds reports whether every candidate the packer reached
// (cands[:reached], in rank order) scored above the member bound, and,
// when it reached them all, the bound is below the cut: no candidate of
// an unmarked group could have taken a place.
func memberPruneHolds(cands []memberCand, reached int, bound float64) bool {
	for _, c := range cands[:reached] {
		if c.score <= bound {
			return false
		}
	}
	if reached < len(cands) {
		return true
	}
	best := 0.0
	for _, c := range cands {
		best = max(best, c.score)
	}
	return bound < best*minScoreShare
}

// headHolds reports whether the reranked head (rerankMembers) is the
// exact answer's: the score that decided it is above the member bound, so
// no candidate of an unmarked group could have joined it.
func headHolds(r *queryRun, bound float64) bool {
	return r.headFloor < 0 || r.headFloor > bound
}
