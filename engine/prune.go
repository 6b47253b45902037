package engine

import (
	"math/bits"
	"slices"
	"sync/atomic"
)

// Rank-safe pruning of a question's weakest terms (MaxScore over answer
// groups).
//
// A page's text score is a sum over the question's terms of
// idf × weight × impact/impactQuantMax, so a term adds at most its
// idf × weight (its ceiling) to any page. A group's score is its own
// page's and its best three members' scores, weighted (groupShareBound),
// times the factors applied after accumulation, which for a group no
// question signal names (path, component, phrase, focus) are at most
// groupFactorBound. So a group that none of the question's stronger
// terms (the essential ones) reached scores at most
// groupShareBound × groupFactorBound × (the sum of the other terms'
// ceilings): the tail bound.
//
// Query picks the weakest terms whose tail bound is well below the best
// term's ceiling, marks the groups the essential terms reach (and those a
// question signal names), and lets the tail terms and the common terms
// score only pages of marked groups: the pages of other groups are
// neither touched nor folded. Marked groups are scored exactly (every
// term, in the same order, so float sums are bit-identical). Once the
// answer is packed, it is kept only if every group the packer reached
// scored above the tail bound, and, when the packer reached every group,
// the bound is also below the cut (minScoreShare of the best): then no
// unmarked group could have taken a place or changed a decision, and the
// answer is the exact one except for More, which no longer counts the
// unmarked groups above the cut (Result.MoreAtLeast). Otherwise the
// question runs again without pruning.

// groupFactorBound is the largest product of the factors applied to a
// group's score after accumulation (scoreGroups, fileSignals,
// boostNeighbours) for a group that no question signal names: every
// kind, file-class and file-signal factor that can exceed 1, and the
// neighbour boost. The path, component, phrase and focus factors are
// not in it: the groups they name are always scored exactly (marked).
// It must be updated with any factor added to those steps;
// TestGroupFactorBound fails when a factor exceeds it.
func groupFactorBound() float64 {
	kind := max(1, moduleFactor, docFactor, memoryFactor) // one kind factor per group
	class := max(1, auxFactor) * max(1, dataFactor) * max(1, testFactor) * max(1, docFactor)
	file := max(1, nameFactor) * max(1, helperFactor) * max(1, headerFactor)
	return kind * class * file * (1 + max(0, neighbourBoost))
}

// groupShareBound is the largest sum of the shares a group takes of its
// pages' text scores: its own page's and its best three members'.
const groupShareBound = groupFileShare + groupTop1Share + groupTop2Share + groupTop3Share

// pruneShare: terms are left out of the essential set while their tail
// bound stays below this share of the best term's ceiling (a group the
// best term reaches on its name usually scores well above it).
const pruneShare = 1.5

// pruneMinGroups: a question whose essential terms reach fewer groups
// than an answer usually holds (about 30 at the default budget) needs
// groups only its tail terms reach, and pruning it would only fail the
// check and run it again.
const pruneMinGroups = 24

// pruneMinPostings is the fewest postings the tail and common terms must
// hold for a question to be pruned, a variable so that tests can prune a
// small index. Below it (every question on moby, 35k pages) they cost
// less than running again the questions that fail the check (there, the
// answer's last places are mostly tail matches: 156 of 400 questions).
var pruneMinPostings = 50000

// queryStats counts what queries did, for tests asserting complexity
// (never time): postings decoded and pages scored (touched), questions
// pruned and those run again exactly.
type queryStats struct {
	postings, pages, pruned, rerun atomic.Int64
	skipped                        atomic.Int64 // postings blocks a common term skipped (skip.go)
	skippedGroups                  atomic.Int64 // groups whose postings accumulateGroups passed over (groupbound.go)
	foldHalved                     atomic.Int64 // dense folds on two cores (foldDenseHalves)
	signalsHalved                  atomic.Int64 // fileSignals run on two cores
	bounded                        atomic.Int64 // pruned questions whose plan was planBound's (groupbound.go)
	compTerms                      atomic.Int64 // path-segment terms componentHits scanned (compmemo.go)
	runs                           atomic.Int64 // runs of Query's steps (query): one per question, more when a pruned answer failed
	groupImps                      atomic.Int64 // terms' group impacts computed, per segment (groupImpacts; the rest were kept)
	rankTies                       atomic.Int64 // runs of tied groups sortGroups ordered by ID rank (idrank.go)
	ckSegs                         atomic.Int64 // a term's segments whose marked groups accumulateGroups found through checkpoints (groupbound.go)
	halved                         atomic.Int64 // terms whose postings were decoded on two cores (halves.go)
}

// prunePlan is one question's pruning: which terms are tail terms, the
// tail bound, and the marked groups (a bit per group page).
type prunePlan struct {
	tail  []bool // per analysis term
	bound float64
	// preBound bounds an unmarked group's score after scoreGroups, before
	// the neighbour boost and the file signals.
	preBound float64
	marks    []uint64
	// pass0: the question has a term that is not common, so that common
	// terms score only the pages of groups the others reached (exact
	// evaluation's restrict rule), even when no marked group holds one.
	pass0 bool
	// ub: planBound's upper bounds per group page, without the neighbour
	// boost (groupbound.go); nil for planPrune's plans.
	ub   []float32
	tabs [][]*groupImps // per analysis term, per segment of its termRef: its group impacts (planBound)
	// boosted: the unmarked groups neighbourBound found among the best
	// groups' neighbours, which boostNeighbours may lift (unmarkedBound).
	boosted []uint32
	// nMarks and ords are the marks counted and their groups' ordinals
	// in order, made when accumulateGroups first needs them and valid
	// while counted and ordsMade hold (mark clears them).
	nMarks            int
	ords              []uint32
	counted, ordsMade bool
}

// marked reports whether page p's group is marked.
func (pl *prunePlan) marked(gp uint32) bool { return pl.marks[gp>>6]&(1<<(gp&63)) != 0 }

func (pl *prunePlan) mark(gp uint32) {
	pl.marks[gp>>6] |= 1 << (gp & 63)
	pl.counted, pl.ordsMade = false, false
}

// markCount is the number of marked groups (popcount, once).
func (pl *prunePlan) markCount() int {
	if !pl.counted {
		pl.nMarks, pl.counted = pl.popcount(), true
	}
	return pl.nMarks
}

// markedOrdinals returns the ordinals (groupOrdinals) of the marked
// groups in increasing order, made once.
func (pl *prunePlan) markedOrdinals(ix *Index) []uint32 {
	if pl.ordsMade {
		return pl.ords
	}
	ords := make([]uint32, 0, pl.markCount())
	for wi, word := range pl.marks {
		for word != 0 {
			g := uint32(wi<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			if o, ok := ix.ordinalOf(g); ok {
				ords = append(ords, o)
			}
		}
	}
	pl.ords, pl.ordsMade = ords, true
	return ords
}

// planPrune decides a question's tail terms (nil: no pruning). terms are
// the question's terms as scoreTerms found them (df 0 when absent),
// ceil each one's ceiling (idf × weight), common whether it is a common
// term (restricted, pass 2).
func (ix *Index) planPrune(r *queryRun, dfs []int, ceil []float64, common []bool) *prunePlan {
	if r.opt.Explain || len(r.opt.Extra) > 0 {
		return nil
	}
	best, commonSum, commonDF := 0.0, 0.0, 0
	var cands []int // pass-1 terms that match
	for i, df := range dfs {
		if df == 0 {
			continue
		}
		best = max(best, ceil[i])
		if common[i] {
			commonSum += ceil[i]
			commonDF += df
		} else {
			cands = append(cands, i)
		}
	}
	if len(cands) < 2 {
		return nil
	}
	slices.SortStableFunc(cands, func(a, b int) int {
		switch {
		case ceil[a] < ceil[b]:
			return -1
		case ceil[a] > ceil[b]:
			return 1
		}
		return 0
	})
	k := groupShareBound * groupFactorBound()
	sum, vol := commonSum, commonDF
	tail := make([]bool, len(dfs))
	n := 0
	for _, i := range cands[:len(cands)-1] { // the strongest term stays essential
		if k*(sum+ceil[i]) >= pruneShare*best {
			break
		}
		sum += ceil[i]
		vol += dfs[i]
		tail[i] = true
		n++
	}
	if n == 0 || vol < pruneMinPostings {
		return nil
	}
	nb, fb := laterFactorBound()
	return &prunePlan{tail: tail, bound: k * sum, preBound: k * sum / (nb * fb)}
}

// markGroups marks the groups the essential terms reach and those the
// question's signals name; false when the essential terms reach no page
// (then the common-term rule would differ) or too few groups
// (pruneMinGroups): the question runs exactly.
func (ix *Index) markGroups(r *queryRun, pl *prunePlan, refs []termRef, dfs []int, common []bool) bool {
	s := r.s
	words := (ix.n + 63) / 64
	if cap(s.marks) < words {
		s.marks = make([]uint64, words)
	}
	pl.marks = s.marks[:words]
	reached := false
	var pages []uint32
	var imps []uint8
	for i, df := range dfs {
		if df == 0 || common[i] || pl.tail[i] {
			continue
		}
		pages, imps = ix.postings(refs[i], pages[:0], imps[:0])
		ix.stats.postings.Add(int64(len(pages)))
		for _, p := range pages {
			pl.mark(ix.group[p])
		}
		reached = reached || len(pages) > 0
	}
	if pl.popcount() < pruneMinGroups {
		return false // the answer would need the groups only tail terms reach
	}
	ix.markSignalGroups(r, pl)
	return reached
}

// groupTabsOff turns tailTabs and restrictPlan off, so that tests can
// exercise the postings blocks skipped otherwise (skip.go).
var groupTabsOff bool

// tailTabs gives planPrune's plan the group impacts of its tail and
// common terms, where the index keeps them (groupImpacts, within
// groupImpLimit), so that those terms decode only the postings of the
// marked groups (accumulateGroups) instead of all of theirs: a question
// naming two identifiers at 100k files ("CreateTemplate4 DeleteRouter7")
// marks a few hundred groups, and its tail words hold 300k postings. A
// term whose group impacts are not kept (or cannot be had) is
// accumulated as before. Either way each marked page gets the same
// additions in the same order: the scores are bit-identical.
//
// Every segment of every such term is asked, on every core
// (groupImpactsOf), even past a segment that has none: keptGroupImpacts
// computes a segment's the second time it is asked, and stopping at the
// first segment without them (before session 19) made a term held by 69
// segments wait 70 questions for all of its.
func (ix *Index) tailTabs(pl *prunePlan, refs []termRef, dfs []int, common []bool) {
	if groupTabsOff || !ix.groupsContiguous() {
		return
	}
	want := func(i int) bool { return dfs[i] > 0 && (pl.tail[i] || common[i]) }
	all := ix.groupImpactsOf(termJobs(refs, want), ix.keptGroupImpacts)
	for i := range dfs {
		if !want(i) {
			continue
		}
		gis := all[:len(refs[i].locs):len(refs[i].locs)]
		all = all[len(gis):]
		if !slices.Contains(gis, nil) { // a segment without them: the term is accumulated as before
			pl.setTabs(i, len(dfs), gis)
		}
	}
}

// termGroupTabs is a term's group impacts in every segment that holds it,
// as get gives them; nil when one segment has none.
func termGroupTabs(ref termRef, get func(seg int, id uint32) *groupImps) []*groupImps {
	var tabs []*groupImps
	for _, l := range ref.locs {
		gi := get(int(l.seg), l.id)
		if gi == nil {
			return nil
		}
		tabs = append(tabs, gi)
	}
	return tabs
}

// setTabs records term i's group impacts (of n terms) when it has them.
func (pl *prunePlan) setTabs(i, n int, tabs []*groupImps) {
	if tabs == nil {
		return
	}
	if pl.tabs == nil {
		pl.tabs = make([][]*groupImps, n)
	}
	pl.tabs[i] = tabs
}

// restrictPlan is the restrict rule of a run without pruning as marks,
// so that its common terms decode only the postings of the groups their
// rarer terms reached (accumulateGroups) where the index keeps their
// group impacts: a common term scores a page only when the page or its
// group page already scored, so every page it can score lies in a group
// holding a page touched by then, and no page of an unmarked group would
// have been scored. The marks are the groups of the touched pages (after
// pass 0, before any common term); nil when the index keeps no common
// term's group impacts (heldGroupImpacts: computed for a bound or a
// tail term; this computes none, as a common term's postings are many:
// computing them on a second asking made that asking twice as slow).
// "error handling for a negative count" at 100k files: handl reaches 58k
// pages, its four common words hold 1.9M postings.
func (ix *Index) restrictPlan(r *queryRun, refs []termRef, dfs []int, commonDF int) *prunePlan {
	if groupTabsOff || r.opt.Explain || len(r.opt.Extra) > 0 || !ix.groupsContiguous() {
		return nil
	}
	pl := &prunePlan{}
	for i, df := range dfs {
		if df <= commonDF {
			continue
		}
		pl.setTabs(i, len(dfs), termGroupTabs(refs[i], ix.heldGroupImpacts))
	}
	if pl.tabs == nil {
		return nil
	}
	s := r.s
	words := (ix.n + 63) / 64
	if cap(s.marks) < words {
		s.marks = make([]uint64, words)
	}
	pl.marks = s.marks[:words]
	for _, p := range s.touched {
		pl.mark(ix.group[p])
	}
	return pl
}

// markSignalGroups marks the groups of the pages the question's path,
// focus, component and phrase signals lift: those signals are not in
// any term's bound.
func (ix *Index) markSignalGroups(r *queryRun, pl *prunePlan) {
	for _, m := range []map[uint32]float64{r.sig.path, r.sig.focus} {
		for p := range m {
			pl.mark(ix.group[p])
		}
	}
	for p := range r.sig.comp {
		pl.mark(ix.group[p])
	}
	for p := range r.sig.phrase {
		pl.mark(ix.group[p])
	}
}

// clearMarks clears the plan's bitmap (scratch memory, kept clear).
func (pl *prunePlan) clearMarks(s *scratch) {
	if pl != nil {
		clear(pl.marks)
		if pl.ub != nil {
			clearBounds(s)
		}
	}
}

// pruneHolds reports whether a pruned answer is the exact one: every
// group the packer reached (order[:reached]) scored above the tail
// bound, and when it reached them all, the bound is below the cut.
func (r *queryRun) pruneHolds(order []int, reached int, cut float64) bool {
	pl := r.prune
	for _, gi := range order[:reached] {
		if r.s.groups[gi].score <= pl.bound {
			return false
		}
	}
	return reached < len(order) || pl.bound < cut
}

// holdsTopShared reports whether top, boostShared's best groups of the
// pruned run (at most sharedNeighbourTop), are the exact run's: no
// unmarked group, scoring at most the plan's bound, can be among them.
// With all sharedNeighbourTop places taken, the last must score above the
// bound; with fewer (every group of the answer's order is in top), the
// bound must be below the cut, so that no unmarked group enters the
// order at all (a file named by its path alone: one group above the cut).
func (pl *prunePlan) holdsTopShared(s *scratch, top []int, cut float64) bool {
	if len(top) < sharedNeighbourTop {
		return pl.bound < cut
	}
	return s.groups[top[len(top)-1]].score > pl.bound
}

// popcount is the number of marked groups.
func (pl *prunePlan) popcount() int {
	n := 0
	for _, w := range pl.marks {
		n += bits.OnesCount64(w)
	}
	return n
}

// pruneHoldsTop reports, after scoreGroups, whether the groups
// boostNeighbours takes as the best (neighbourTop of them) are the exact
// evaluation's: as many marked groups score above what an unmarked group
// can before the neighbour boost and the file signals.
func (r *queryRun) pruneHoldsTop() bool {
	return r.countAbove(r.prune.preBound) >= neighbourTop
}

// pruneMode is how a question may be pruned: tail, by planPrune; keep >
// 0, by planBound keeping that many groups. The zero value is no pruning.
type pruneMode struct {
	tail  bool
	keep  int
	retry bool // a pruned run failed already
}

// pruneOutcome is whether a pruned answer held, or why it might not be
// the exact one.
type pruneOutcome uint8

const (
	pruneHeld       pruneOutcome = iota // exact (pruned or not)
	pruneTailFailed                     // planPrune's plan failed a check
	pruneBoundTop                       // planBound's: the best group scores within the bound
	pruneBoundReach                     // planBound's: a group the packer reached scores within the bound
)

// failed is the outcome of pl failing a check (reach: pruneHolds).
func (pl *prunePlan) failed(reach bool) pruneOutcome {
	switch {
	case pl.ub == nil:
		return pruneTailFailed
	case reach:
		return pruneBoundReach
	}
	return pruneBoundTop
}

// firstPrune is the mode a question is first run in: planPrune's tail
// bound, then planBound's group bounds. A member-only question gets the
// tail bound alone, which answerMembers checks (memberprune.go):
// planBound's group bounds say nothing of a member's own score.
func firstPrune(opt Options) pruneMode {
	if memberOnly(kindMask(opt.Kinds)) {
		return pruneMode{tail: true}
	}
	return pruneMode{tail: true, keep: boundKeep}
}

// next is the mode to run a question again in after outcome po: a
// question planPrune failed is bounded (planBound); one whose bounded
// answer reached into planBound's bound keeps eight times as many groups,
// once, whether or not planPrune failed it first (a stack trace fails
// planPrune's tail bound, then reaches into the 1024 groups' bound, and
// holds with 8192: 25 ms at 100k files against 46 ms exact); otherwise it
// runs exactly.
func (pm pruneMode) next(po pruneOutcome) pruneMode {
	switch {
	case pm.keep == 0:
	case po == pruneTailFailed && !pm.retry:
		return pruneMode{keep: pm.keep, retry: true}
	case po == pruneBoundReach && pm.keep < boundWiden*boundKeep:
		return pruneMode{keep: boundWiden * pm.keep, retry: true}
	}
	return pruneMode{}
}

// boundWiden: a bounded question whose answer reached into the bound runs
// again keeping boundWiden times as many groups.
const boundWiden = 8

// countAbove is the number of groups scoring above b.
func (r *queryRun) countAbove(b float64) int {
	n := 0
	for i := range r.s.groups {
		if r.s.groups[i].score > b {
			n++
		}
	}
	return n
}
