package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Options tune one query. The zero value asks for a 2000-token answer over
// every kind with no focus.
type Options struct {
	BudgetTokens int // 0 → 2000; capped at 20000
	// Kinds filters the answer's pages; nil = all. A filter leaving out
	// file and module pages (symbol only) ranks each allowed page by its
	// own score times its file's factors, one stub per page (memberOnly);
	// otherwise files rank as groups of their matching members.
	Kinds   []graph.Kind
	Focus   []string     // repo-relative paths the agent is working on: boost pages near them in the graph
	Explain bool         // fill Stub.Explain with score components
	Extra   []graph.Page // authored memory pages to rank in the same answer (scored with the same text model)
}

// Default and maximum answer budgets, in tokens of rendered text.
const (
	DefaultBudgetTokens = 2000
	MaxBudgetTokens     = 20000
)

// Result is one answer: stubs in rank order whose rendered text (Render)
// fits in BudgetTokens. Running out of budget is not an error: Truncated
// reports it and More says how many further matches did not fit.
type Result struct {
	Query        string `json:"query"`
	BudgetTokens int    `json:"budget_tokens"`
	UsedTokens   int    `json:"used_tokens"`
	Results      []Stub `json:"results"`
	Truncated    bool   `json:"truncated"`
	More         int    `json:"more,omitempty"` // how many more matched but did not fit (at least as many, with MoreAtLeast)
	// MoreAtLeast is set when More is a lower bound: the question's
	// weakest terms scored only the files its stronger terms found
	// (prune.go), so further weak matches were not counted.
	MoreAtLeast bool `json:"more_at_least,omitempty"`
	// ExactMatch is set when the question names identifiers (snake_case,
	// camelCase, dotted, backticked…): false when one of them, Unmatched,
	// is defined or used nowhere in the index, and then Note says so and
	// the results are only partial matches.
	ExactMatch *bool    `json:"exact_match,omitempty"`
	Unmatched  []string `json:"unmatched,omitempty"`
	Note       string   `json:"note,omitempty"`
	// Partial is set when the index answering is partial: published by a
	// first build that has parsed Files of Total files so far (or that
	// stopped there); the answer covers those files only.
	Partial *Partial `json:"partial,omitempty"`
}

// Partial is the progress of the first build behind a partial answer.
// Total is 0 while the tree is still being listed: a large tree's first
// batch is published before its walk is done.
type Partial struct {
	Files int `json:"files"`
	Total int `json:"total"`
}

// Stub is one compact result. Path and Line are empty/0 for modules and memories.
type Stub struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Title   string   `json:"title"`
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	Score   float64  `json:"score"`
	Snippet string   `json:"snippet"`
	Symbols []string `json:"symbols,omitempty"` // for a file stub: its matching symbols (grouping)
	// Copies are the places ("path:line", or "path" for a file) of the
	// stubs the answer folded into this one as its copies, in rank order:
	// the same key of another data file (moby's api/swagger.yaml and its
	// 31 versions under api/docs), or a data file of the same folder with
	// the same summary (packer.addFolding).
	Copies  []string `json:"copies,omitempty"`
	Explain string   `json:"explain,omitempty"`

	symLines []int // lines of Symbols, for Render
}

// scratch is the per-query working memory, pooled: a dense score array is
// ~4 bytes per page and faster than a map in the accumulation loop.
type scratch struct {
	score    []float32 // per page, zero outside touched
	slot     []int32   // per page: index+1 into groups, 0 when none
	next     []uint32  // per page: next matching member of its group + 1 (no per-group slices)
	touched  []uint32
	touched2 []uint32 // onHalves: the second half's first-scored pages
	pages    []uint32
	imps     []uint8
	groups   []groupAcc
	groups2  []groupAcc  // foldDenseHalves: the second half's groups, then appended to groups
	order    []int       // groups in rank order, reused by Query
	kth      []float64   // reused by kthLargest
	bits     []uint64    // foldDense's bitmap of touched pages, all clear between uses
	marks    []uint64    // prunePlan.marks: a bit per group page, all clear between uses
	ub       []float32   // planBound's upper bounds per group page, zero between uses
	ubGroups []uint32    // the group pages planBound set in ub
	shared   []sharedHit // reused by boostShared
	keys     []rankKey   // reused by sortGroups
	locs     []termLoc   // the question's terms' locations (scoreTerms), cleared by putScratch
	idKeys   []idKey     // reused by sortGroups
	rankIDs  []uint64    // reused by sortByRank
}

// groupAcc accumulates one answer group: a file with its matching members,
// or a standalone page.
// It holds no pointers (explain's factors live beside it, per query), so
// growing and reusing the slice of groups costs no write barriers or clearing.
type groupAcc struct {
	page    uint32 // the group page (file, or the page itself)
	topPage [3]uint32
	nMember int32
	head    uint32     // first matching member + 1 (a list threaded through scratch.next), 0 when none
	extra   int32      // index+1 into Options.Extra for memory pages given at query time
	top     [3]float32 // best member scores (page scores are float32, so this is exact)
	own     float64    // the group page's own text score
	score   float64
}

// getScratch takes the index's idle scratch, or makes one. An index keeps
// one idle scratch (Index.idle), not a pool: a scratch is 12 bytes a
// page (16 MB at 100k files), and a pool kept one per query that ever ran
// at the same time, until two garbage collections.
func (ix *Index) getScratch() *scratch {
	s := ix.idle.Swap(nil)
	if s == nil || len(s.score) != ix.n {
		s = &scratch{score: make([]float32, ix.n), slot: make([]int32, ix.n), next: make([]uint32, ix.n)}
	}
	return s
}

// warmScratch makes the index's idle scratch ahead of its first query
// (an opened index's background work, OpenSegments): 12 bytes a page,
// which a long-running process then counts in the live heap its
// collector paces by, instead of the first questions allocating it.
func (ix *Index) warmScratch() {
	ix.putScratch(ix.getScratch())
}

// putScratch zeroes what the query wrote and keeps s for the next. When
// it touched more than one page in denseClear, clearing whole arrays
// (sequential) costs less than a random write per touched page.
func (ix *Index) putScratch(s *scratch) {
	if len(s.touched) > len(s.score)/denseClear {
		clear(s.score)
		clear(s.next)
	} else {
		for _, p := range s.touched {
			s.score[p] = 0
			s.next[p] = 0
		}
	}
	if len(s.groups) > len(s.slot)/denseClear {
		clear(s.slot)
	} else {
		for i := range s.groups {
			if g := &s.groups[i]; g.extra == 0 && int(g.page) < len(s.slot) {
				s.slot[g.page] = 0
			}
		}
	}
	s.touched, s.pages, s.imps, s.locs = s.touched[:0], s.pages[:0], s.imps[:0], s.locs[:0]
	s.groups = s.groups[:0]
	ix.idle.CompareAndSwap(nil, s)
}

// denseClear: putScratch clears a whole array when more than one entry
// in denseClear was written.
const denseClear = 16

// termPostings is one query term's decoded postings, kept for --explain.
type termPostings struct {
	qt    queryTerm
	idf   float64
	pages []uint32
	imps  []uint8
}

// commonTermFloor is commonTermMinPages, a variable so that tests can
// exercise the common-term rule on a small index.
var commonTermFloor = commonTermMinPages

// Query returns the best pages for q whose rendered text fits in
// opt.BudgetTokens. An empty or unmatched question is an empty Result, not
// an error; the only error is ctx's. Query is safe for concurrent use.
func (ix *Index) Query(ctx context.Context, q string, opt Options) (Result, error) {
	budget := opt.BudgetTokens
	if budget <= 0 {
		budget = DefaultBudgetTokens
	}
	budget = min(budget, MaxBudgetTokens)
	res := Result{Query: q, BudgetTokens: budget, Results: []Stub{}}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if ix == nil || ix.live == 0 && len(opt.Extra) == 0 {
		res.UsedTokens = CountTokens(res.Render())
		return res, nil
	}
	a := analyze(q)
	ix.exactSignal(&res, a.idents, opt.Extra)
	ix.addSiblings(&a)
	ix.demoteForeign(&a)
	if memberOnly(kindMask(opt.Kinds)) {
		memberTerms(&a)
	}
	sig := ix.signals(a, opt)
	pm := firstPrune(opt)
	for {
		ix.stats.runs.Add(1)
		out, po, err := ix.query(ctx, q, opt, a, sig, res, pm)
		if po == pruneHeld || err != nil {
			return out, err
		}
		pm = pm.next(po)
		if pm == (pruneMode{}) {
			ix.stats.rerun.Add(1)
		}
	}
}

// query is Query's steps after the question's analysis and signals,
// pruning as pm lets it (prune.go, groupbound.go); po says whether the
// answer holds or which plan's pruned answer might not be the exact one
// (then it is to run again, pruned otherwise or not: pruneMode.next).
func (ix *Index) query(ctx context.Context, q string, opt Options, a analysis, sig groupSignals, res Result, pm pruneMode) (_ Result, po pruneOutcome, _ error) {
	r := queryRun{q: q, opt: opt, a: a, sig: sig}
	r.s = ix.getScratch()
	defer ix.putScratch(r.s)

	ix.scoreTerms(&r, pm)
	defer r.prune.clearMarks(r.s)
	if err := ctx.Err(); err != nil {
		return res, pruneHeld, err
	}
	ix.stats.pages.Add(int64(len(r.s.touched)))
	ix.foldGroups(r.s)
	ix.addMemories(&r)
	ix.scoreGroups(&r)
	if memberOnly(kindMask(r.opt.Kinds)) {
		if !ix.answerMembers(&r, &res) {
			return res, pruneTailFailed, nil
		}
		return res, pruneHeld, nil
	}
	if r.prune != nil {
		if !r.pruneHoldsTop() {
			return res, r.prune.failed(false), nil
		}
		r.neighbourBound(ix)
	}
	ix.boostNeighbours(&r)
	order, sorted, cut := ix.rankGroups(&r)
	if err := ctx.Err(); err != nil {
		return res, pruneHeld, err
	}
	reached := ix.packStubs(&r, &res, order, sorted)
	if r.prune != nil {
		if !r.pruneHolds(order, reached, cut) {
			return res, r.prune.failed(true), nil
		}
		ix.stats.pruned.Add(1)
		if r.prune.ub != nil {
			ix.stats.bounded.Add(1)
		}
		res.MoreAtLeast = res.More > 0
	}
	return res, pruneHeld, nil
}

// queryRun is the state one Query passes between its steps.
type queryRun struct {
	q       string
	opt     Options
	a       analysis
	s       *scratch
	tps     []termPostings // the question's terms with their idf (and postings for --explain)
	factors [][]string     // --explain: multiplicative factors applied, per group
	sig     groupSignals   // the question's signals, found before its terms are scored
	prune   *prunePlan     // the question's tail terms (prune.go); nil: every term scores every page
	// headFloor is the score that decided a member-only answer's reranked
	// head (rerankMembers), -1 without one; headCover its candidates'
	// coverage, for --explain.
	headFloor float64
	headCover []float64
}

// scoreTerms is step 1: accumulate text scores per page. At monorepo scale
// a word found in a large share of all pages only scores the pages the
// question's rarer words found (and the members of their files), as
// Lucene's CommonTermsQuery does: it still orders those, but no longer
// makes a quarter of a 700k-page index into candidates. Smaller indexes,
// and questions made only of common words, score every posting.
//
// As pm lets it, the question's weakest terms may be left to score only
// the groups its stronger terms reach (planPrune, prune.go), or every
// term only the groups of largest upper bound (planBound, groupbound.go):
// r.prune is set.
func (ix *Index) scoreTerms(r *queryRun, pm pruneMode) {
	s, opt := r.s, &r.opt
	N := float64(ix.live + len(opt.Extra))
	commonDF := max(commonTermFloor, int(commonTermShare*N))
	// Each term is looked up once, in every segment, for both passes.
	refs := make([]termRef, len(r.a.terms))
	if s.locs == nil {
		s.locs = make([]termLoc, 0, 8*len(ix.segs))
	}
	dfs := make([]int, len(r.a.terms))
	for i, qt := range r.a.terms {
		// A term of no weight adds nothing, and must not be looked up: the
		// accumulators take a page still at score 0 as untouched, so a
		// zero contribution would list the page twice.
		if qt.weight <= 0 {
			continue
		}
		var ref termRef
		if ref, s.locs = ix.lookupTermIn(qt.term, s.locs); len(ref.locs) > 0 {
			refs[i], dfs[i] = ref, ix.df(ref)
		}
	}
	if pm.tail || pm.keep > 0 {
		ceil, common := make([]float64, len(dfs)), make([]bool, len(dfs))
		for i, df := range dfs {
			ceil[i], common[i] = idf(N, df)*r.a.terms[i].weight, df > commonDF
		}
		if pl := ix.planPrune(r, dfs, ceil, common); pm.tail && pl != nil {
			if ix.markGroups(r, pl, refs, dfs, common) {
				r.prune = pl
				ix.tailTabs(pl, refs, dfs, common)
			} else {
				pl.clearMarks(r.s)
			}
		}
		if r.prune == nil && pm.keep > 0 {
			w := make([]float64, len(dfs))
			for i := range w {
				w[i] = ceil[i] / impactQuantMax
			}
			r.prune = ix.planBound(r, refs, dfs, w, common, pm.keep)
		}
	}
	var cand, marked [][2]uint32 // pass 1's and the marked groups' candidate intervals (skip.go), built when first needed
	candOK, markedOK := true, true
	var rp *prunePlan // an exact run's restrict rule as marks (restrictPlan)
	defer func() { rp.clearMarks(s) }()
	for pass := range 2 {
		restrict := pass == 1 && (len(s.touched) > 0 || r.prune != nil && r.prune.pass0)
		if restrict && r.prune == nil {
			rp = ix.restrictPlan(r, refs, dfs, commonDF)
		}
		for i, qt := range r.a.terms {
			id, df := refs[i], dfs[i]
			if df == 0 { // absent, or only on dead pages
				if pass == 0 && len(opt.Extra) > 0 {
					r.tps = append(r.tps, termPostings{qt: qt, idf: idf(N, 0)})
				}
				continue
			}
			if (df > commonDF) != (pass == 1) {
				continue
			}
			w := idf(N, df)
			if !opt.Explain {
				// Only --explain reads the decoded postings again: add them
				// up while decoding instead.
				r.tps = append(r.tps, termPostings{qt: qt, idf: w})
				var only *prunePlan // score only marked groups' pages
				if r.prune != nil && (pass == 1 || r.prune.tail[i]) {
					only = r.prune
				} else if rp != nil && pass == 1 {
					only = rp
				}
				if only != nil && only.tabs != nil && only.tabs[i] != nil && !skipOff {
					dec, sk := ix.accumulateGroups(id, only.tabs[i], w*(qt.weight/impactQuantMax), restrict, only, s)
					ix.stats.postings.Add(int64(dec))
					ix.stats.skippedGroups.Add(int64(sk))
					continue
				}
				if restrict && candOK && skipWorth(df, len(s.touched)) {
					if cand == nil {
						cand, candOK = ix.candidates(s)
					}
					if candOK {
						dec, sk := ix.accumulateSkip(id, w*(qt.weight/impactQuantMax), true, only, cand, s)
						ix.stats.postings.Add(int64(dec))
						ix.stats.skipped.Add(int64(sk))
						continue
					}
				}
				if !restrict && only != nil && markedOK && skipWorth(df, -1) {
					if marked == nil {
						marked, markedOK = ix.markedCandidates(only)
					}
					if markedOK {
						dec, sk := ix.accumulateSkip(id, w*(qt.weight/impactQuantMax), false, only, marked, s)
						ix.stats.postings.Add(int64(dec))
						ix.stats.skipped.Add(int64(sk))
						continue
					}
				}
				ix.stats.postings.Add(int64(ix.accumulate(id, w*(qt.weight/impactQuantMax), restrict, only, s)))
				continue
			}
			start := len(s.pages)
			s.pages, s.imps = ix.postings(id, s.pages, s.imps)
			pages, imps := s.pages[start:], s.imps[start:]
			r.tps = append(r.tps, termPostings{qt: qt, idf: w, pages: pages, imps: imps})
			w *= qt.weight / impactQuantMax
			for j, p := range pages {
				if s.score[p] == 0 {
					if restrict && s.score[ix.group[p]] == 0 {
						continue
					}
					s.touched = append(s.touched, p)
				}
				s.score[p] += float32(w * float64(imps[j]))
			}
		}
	}
}

// foldGroups is step 2: fold the scored pages into groups (a file with its
// matching members, or a standalone page), keeping each group's best three
// members.
//
// A broad question touches a large share of the pages (180k of 1.4M at
// 100k files) in the order its terms' postings came: folding them in that
// order is a random walk over score, slot and groups. Past one page in
// denseFold, the pages are folded in page order by scanning score instead
// (a file's members follow it, so the walk is sequential). The groups come
// out in another order, which no later step reads: ranking breaks ties by
// ID, a group's best members by page.
func (ix *Index) foldGroups(s *scratch) {
	if len(s.touched) > len(s.score)/denseFold {
		ix.foldDense(s)
		return
	}
	c := foldCache{gp: ^uint32(0)}
	for _, p := range s.touched {
		ix.foldPage(s, &s.groups, p, &c)
	}
}

// denseFold: foldGroups scans the score array when a query touched more
// than one page in denseFold.
const denseFold = 32

// foldDense is foldGroups over the touched pages in page order: a bitmap
// of them (a bit a page, 170 KB at 1.4M pages, left clear) is set, then
// read word by word.
func (ix *Index) foldDense(s *scratch) {
	words := (len(s.score) + 63) / 64
	if cap(s.bits) < words {
		s.bits = make([]uint64, words)
	}
	bm := s.bits[:words]
	for _, p := range s.touched {
		bm[p>>6] |= 1 << (p & 63)
	}
	if len(s.touched) >= foldHalvesMin && runtime.GOMAXPROCS(0) >= 2 && ix.groupsContiguous() {
		if cut := ix.foldCut(bm, len(s.touched)); cut > 0 {
			ix.foldDenseHalves(s, bm, cut)
			return
		}
	}
	ix.foldRange(s, &s.groups, bm, 0, uint32(len(bm))<<6)
}

// foldHalvesMin is the fewest touched pages foldDense folds on two cores:
// 180k pages take 5 ms on one ("error handling for a negative count" at
// 100k files), against a few microseconds to start and join a goroutine.
// A variable for tests.
var foldHalvesMin = 1 << 15

// foldRange folds the pages of bm in [lo, hi) in page order into
// *groups, clearing the words of bm that lie wholly in the range (the
// caller clears a word the range shares).
func (ix *Index) foldRange(s *scratch, groups *[]groupAcc, bm []uint64, lo, hi uint32) {
	c := foldCache{gp: ^uint32(0)}
	for w := lo >> 6; w < (hi+63)>>6 && int(w) < len(bm); w++ {
		b := bm[w]
		if b == 0 {
			continue
		}
		first, last := w<<6, w<<6+64
		if first >= lo && last <= hi {
			bm[w] = 0
		} else {
			if first < lo {
				b &^= 1<<(lo-first) - 1
			}
			if last > hi {
				b &= 1<<(hi-first) - 1
			}
		}
		for b != 0 {
			ix.foldPage(s, groups, w<<6+uint32(bits.TrailingZeros64(b)), &c)
			b &= b - 1
		}
	}
}

// foldCut returns a group page near the middle of the touched pages of
// bm (n of them) where foldDense can cut them into two halves, no group
// on both sides (the groups are contiguous: a file's members follow it),
// or 0 when there is none.
func (ix *Index) foldCut(bm []uint64, n int) uint32 {
	seen := 0
	for w, b := range bm {
		if seen += bits.OnesCount64(b); 2*seen >= n {
			for p := uint32(w) << 6; int(p) < len(ix.group); p++ {
				if ix.group[p] == p {
					return p
				}
			}
			return 0
		}
	}
	return 0
}

// foldDenseHalves is foldDense on two cores: the pages before cut fold
// into s.groups, those from cut on into s.groups2 on another goroutine,
// which then follow s.groups, their slots moved by as many. The groups
// come out as foldDense makes them, in page order: both halves fold
// disjoint groups (cut is a group page) and write disjoint slots, nexts
// and words of bm but the one they share, cleared once both are done.
func (ix *Index) foldDenseHalves(s *scratch, bm []uint64, cut uint32) {
	s.groups2 = s.groups2[:0]
	both(func() { ix.foldRange(s, &s.groups2, bm, cut, uint32(len(bm))<<6) },
		func() { ix.foldRange(s, &s.groups, bm, 0, cut) })
	bm[cut>>6] = 0
	off := int32(len(s.groups))
	for i := range s.groups2 {
		s.slot[s.groups2[i].page] += off
	}
	s.groups = append(s.groups, s.groups2...)
	ix.stats.foldHalved.Add(1)
}

// addMemories adds the memory pages given at query time as groups of their own.
func (ix *Index) addMemories(r *queryRun) {
	for i := range r.opt.Extra {
		sc := ix.scoreExtra(&r.opt.Extra[i], r.tps)
		if sc > 0 {
			r.s.groups = append(r.s.groups, groupAcc{own: sc, extra: int32(i + 1)})
		}
	}
}

// groupSignals are the per-query maps of multiplicative signals step 3
// applies to groups, by group page.
type groupSignals struct {
	phrase map[uint32]bool
	path   map[uint32]float64
	comp   map[uint32][2]float64
	focus  map[uint32]float64
}

// signals finds the question's signals (phrase, path, component, focus):
// once per question, not per run, as no run changes them and a question
// may run up to three times (pruned, bounded, exact: pruneMode.next). The
// maps are read only afterwards.
func (ix *Index) signals(a analysis, opt Options) groupSignals {
	return groupSignals{
		phrase: ix.phraseFiles(a.phrase),
		path:   ix.resolvePaths(a),
		comp:   ix.componentSignal(a.component),
		focus:  ix.focusBoosts(opt.Focus),
	}
}

// textScore is a group's text part: its file page's score plus shares of
// its three best members (scoreGroups multiplies it by the factors).
func (g *groupAcc) textScore() float64 { return shareScore(g.own, g.top) }

// shareScore is a group's text score from its page's own score and its
// best three members' (textScore; groupbound.go bounds it with the same
// shares).
func shareScore(own float64, top [3]float32) float64 {
	return groupFileShare*own + groupTop1Share*float64(top[0]) + groupTop2Share*float64(top[1]) + groupTop3Share*float64(top[2])
}

// scoreGroups is step 3: each group's score from its own and its best
// members' text scores, times the factors of its kind, flags and the
// question's signals.
func (ix *Index) scoreGroups(r *queryRun) {
	sig := r.sig
	if r.opt.Explain {
		r.factors = make([][]string, len(r.s.groups))
	}
	for i := range r.s.groups {
		g := &r.s.groups[i]
		g.score = g.textScore()
		if g.extra > 0 {
			g.score *= memoryFactor
			continue
		}
		var fs *[]string
		if r.opt.Explain {
			fs = &r.factors[i]
		}
		ix.applyFactors(g, &sig, fs)
	}
}

// applyFactors multiplies g's score by the factors that apply to it,
// naming each in *factors unless factors is nil.
func (ix *Index) applyFactors(g *groupAcc, sig *groupSignals, factors *[]string) {
	mul := func(name string, f float64) {
		if f != 1 {
			g.score *= f
			if factors != nil {
				*factors = append(*factors, fmt.Sprintf("%s×%.2f", name, f))
			}
		}
	}
	switch graph.Kind(ix.kind[g.page]) {
	case graph.KindModule:
		mul("module", moduleFactor)
	case graph.KindDoc:
		mul("doc", docFactor)
	case graph.KindMemory:
		mul("memory", memoryFactor)
	case graph.KindFile:
		if ix.flags[g.page]&flagDoc != 0 {
			mul("doc", docFactor)
		}
		if sig.phrase[g.page] {
			mul("phrase", phraseFactor)
		}
	}
	if ix.flags[g.page]&flagAux != 0 && ix.flags[g.page]&flagDoc == 0 {
		mul("aux", auxFactor)
	}
	if ix.flags[g.page]&flagData != 0 {
		mul("data", dataFactor)
	}
	if ix.flags[g.page]&flagTest != 0 {
		mul("test", testFactor)
	}
	if f, ok := sig.path[g.page]; ok {
		mul("path", f)
	}
	if f, ok := sig.comp[g.page]; ok {
		mul("component", f[0])
		mul("component-dir", f[1])
	}
	if f, ok := sig.focus[g.page]; ok {
		mul("focus", 1+f)
	}
}

// boostNeighbours is step 3b: graph neighbours of the best few groups share
// a little of their lead (a change's second file is often one its first
// file uses or is used by), never enough to pass the group they neighbour.
func (ix *Index) boostNeighbours(r *queryRun) {
	if neighbourBoost <= 0 {
		return
	}
	s := r.s
	rk := ix.ranks()
	var top [neighbourTop]int
	for k := range top {
		top[k] = -1
	}
	for i := range s.groups {
		g := &s.groups[i]
		if g.extra != 0 || g.score <= 0 {
			continue
		}
		for k := range top {
			// Ties go to the group rankGroups puts first (by ID), not to
			// the one whose page comes first in the index: an incremental
			// build moves pages to a delta segment, and the boost must
			// not move with them.
			if top[k] < 0 || g.score > s.groups[top[k]].score ||
				g.score == s.groups[top[k]].score && ix.compareIDs(rk, g.page, s.groups[top[k]].page) < 0 {
				copy(top[k+1:], top[k:len(top)-1])
				top[k] = i
				break
			}
		}
	}
	for k, bi := range top {
		if bi < 0 {
			break
		}
		bs := s.groups[bi].score
		f := 1 + neighbourBoost/float64(k+1)
		for _, q := range ix.neighbours(s.groups[bi].page) {
			if gi := s.slot[q]; gi > 0 && int(gi-1) != bi {
				g := &s.groups[gi-1]
				if g.score >= bs {
					continue
				}
				g.score = min(g.score*f, bs*0.999)
				if r.opt.Explain {
					r.factors[gi-1] = append(r.factors[gi-1], fmt.Sprintf("neighbour×%.2f", f))
				}
			}
		}
	}
}

// boostShared is step 4b: a file neighbouring at least two of the best
// sharedNeighbourTop groups (order, the groups scoring at least cut,
// after the file signals) is lifted by
// sharedNeighbourBoost, never above the weakest of the groups it
// neighbours. It runs after fileSignals so that no later factor carries a
// capped group past the ones it was capped below.
func (ix *Index) boostShared(r *queryRun, order []int, cut float64) {
	if sharedNeighbourBoost <= 0 {
		return
	}
	s := r.s
	rk := ix.ranks()
	var top [sharedNeighbourTop]int
	n := 0
	for _, gi := range order {
		g := &s.groups[gi]
		if g.extra != 0 || g.score <= 0 {
			continue
		}
		k := n
		for k > 0 && groupBefore(ix, rk, g, &s.groups[top[k-1]]) {
			k--
		}
		if k >= len(top) {
			continue
		}
		if n < len(top) {
			n++
		}
		copy(top[k+1:n], top[k:n-1])
		top[k] = gi
	}
	pl := r.prune
	if pl != nil && !pl.holdsTopShared(s, top[:n], cut) {
		// A group the pruned run left unscored could be one of the top
		// groups: the pruned answer cannot be shown to be the exact one.
		pl.bound = math.Inf(1)
		return
	}
	if n < 2 {
		return
	}
	// Each neighbour of the top groups, with how many it neighbours and
	// the weakest of them: the top groups' neighbour lists, concatenated
	// and sorted by page, in a slice the scratch keeps (a hub file's list
	// is long, and a map would allocate per question).
	hits := s.shared[:0]
	for _, bi := range top[:n] {
		bs := s.groups[bi].score
		for _, q := range ix.neighbours(s.groups[bi].page) {
			if q != s.groups[bi].page {
				hits = append(hits, sharedHit{q, 1, bs})
			}
		}
	}
	slices.SortFunc(hits, func(a, b sharedHit) int { return cmp.Compare(a.page, b.page) })
	k := 0
	for i, h := range hits {
		if i > 0 && h.page == hits[k-1].page {
			hits[k-1].count++
			hits[k-1].low = min(hits[k-1].low, h.low)
			continue
		}
		hits[k] = h
		k++
	}
	hits = hits[:k]
	s.shared = hits
	bound := 0.0
	if pl != nil {
		bound = pl.bound
	}
	for _, h := range hits {
		if h.count < 2 {
			continue
		}
		if pl != nil && !pl.marked(h.page) {
			// Left unscored, or partly scored, by the pruned run: the
			// exact run may lift it up to this.
			pl.bound = max(pl.bound, min(pl.unmarkedBound(ix, h.page, bound)*(1+sharedNeighbourBoost), h.low*0.999))
		}
		gi := int(s.slot[h.page]) - 1
		if gi < 0 {
			continue
		}
		g := &s.groups[gi]
		if g.extra != 0 || g.score <= 0 || g.score >= h.low {
			continue
		}
		g.score = min(g.score*(1+sharedNeighbourBoost), h.low*0.999)
		if r.opt.Explain {
			r.factors[gi] = append(r.factors[gi], fmt.Sprintf("shared×%.2f", 1+sharedNeighbourBoost))
		}
	}
}

// sharedHit is a neighbour of boostShared's top groups: how many of
// them it neighbours and the lowest score among those.
type sharedHit struct {
	page  uint32
	count int32
	low   float64
}

// groupBefore reports whether g ranks before h: higher score, then ID (as
// rankGroups orders them).
func groupBefore(ix *Index, rk idRanks, g, h *groupAcc) bool {
	return g.score > h.score || g.score == h.score && ix.compareIDs(rk, g.page, h.page) < 0
}

// rankGroups is step 4: the groups scoring at least minScoreShare of the
// best, in rank order (score, then ID). Only the head that can fit in an
// answer, order[:sorted], is sorted; the tail (all scoring below the head)
// is left for packStubs to sort if it reaches it. order is scratch memory.
func (ix *Index) rankGroups(r *queryRun) (order []int, sorted int, cut float64) {
	s := r.s
	order = s.order[:0]
	best := 0.0
	for i := range s.groups {
		if s.groups[i].score > 0 {
			order = append(order, i)
			best = max(best, s.groups[i].score)
		}
	}
	cut = best * minScoreShare
	order = slices.DeleteFunc(order, func(i int) bool { return s.groups[i].score < cut })
	ix.fileSignals(r, order)
	ix.boostShared(r, order, cut)
	s.order = order
	return order, ix.sortHead(r, order, 0), cut
}

// headerExts are C and C++ header extensions; implExts the extensions of
// the file that implements a header.
var (
	headerExts = []string{".h", ".hh", ".hpp", ".hxx", ".h++"}
	implExts   = []string{".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm"}
)

// fileSignals is step 4a, the signals read from a candidate file's path.
// Only the groups in order (those left after the cut) are checked, so a
// question decodes the paths of its candidates, not of every scored file.
//   - header: a C or C++ header ranks below its implementation (a file of
//     the same stem with a source extension): both name the same
//     functions, the header only declares them.
//   - name: a file whose name is made of the question's words ("how are
//     expressions composed" → Expression.kt; the central file of a
//     module, mod.rs or __init__.py, is named by its directory) is the
//     file the question is about. Inside BM25F that evidence saturates
//     with the rest of the file's text, so it is lifted here.
//   - helper: benches, mocks, fixtures, test utilities and helper crates
//     rank below the core source unless the question names them.
//
// The name and helper signals are read only for the groups that can reach
// as many places as the answer's budget can hold stubs (one per
// leanStubTokens, at most rankHead): those scoring at least the score of
// that place over nameFactor. A broad question on moby has tens of
// thousands of candidates, and reading every name made the median
// question twice as slow; a group below can only move among groups the
// answer does not reach.
func (ix *Index) fileSignals(r *queryRun, order []int) {
	words := r.a.fileWords()
	floor := 0.0
	if k := nameHead(r.opt); len(words) > 0 && len(order) > k {
		floor = kthLargest(r.s, order, k) / nameFactor
	}
	var proj []string
	var qsig, psig uint32
	if len(words) > 0 {
		proj = r.a.unnamed(ix.projectWords())
		qsig, psig = wordSig(words), wordSig(proj)
	}
	// The groups on two cores when they are many (58k for "error
	// handling for a negative count" at 100k files): each group's
	// signals are its own, read and multiplied once.
	if k := len(order) / 2; len(order) >= fileSignalsHalvesMin && runtime.GOMAXPROCS(0) >= 2 {
		both(func() { ix.fileSignalsOf(r, order[k:], words, proj, qsig, psig, floor) },
			func() { ix.fileSignalsOf(r, order[:k], words, proj, qsig, psig, floor) })
		ix.stats.signalsHalved.Add(1)
		return
	}
	ix.fileSignalsOf(r, order, words, proj, qsig, psig, floor)
}

// fileSignalsHalvesMin is the fewest groups fileSignals reads on two
// cores. A variable for tests.
var fileSignalsHalvesMin = 1 << 14

// fileSignalsOf is fileSignals over the groups of order.
func (ix *Index) fileSignalsOf(r *queryRun, order []int, words, proj []string, qsig, psig uint32, floor float64) {
	var sw, scratch []string
	for _, gi := range order {
		g := &r.s.groups[gi]
		if g.extra != 0 || graph.Kind(ix.kind[g.page]) != graph.KindFile {
			continue
		}
		// A path is decoded only for a group the name signals can move or
		// a header (known without decoding: isHeaderFile).
		named, header := len(words) > 0 && g.score >= floor, ix.isHeaderFile(g.page)
		if !named && !header {
			continue
		}
		// The file's facts say which name signals may apply at all.
		nameCan, helperCan := false, false
		if named {
			f := ix.fileFact(g.page, &sw, &scratch)
			nameCan, helperCan = nameMayApply(f, qsig, psig), f&factHelper != 0
			if !nameCan && !helperCan && !header {
				continue
			}
		}
		p := ix.path(g.page)
		if nameCan {
			sw, scratch = nameWords(sw[:0], fileStem(namePath(p)), scratch)
			if n := len(sw); n > 0 && allIn(sw, words) {
				if sw = dropWords(sw, proj); len(sw) > 0 {
					r.mulGroup(gi, "name", nameFactor)
				} else if r.opt.Explain {
					// Named only by words that name the project: say so.
					r.factors[gi] = append(r.factors[gi], "name×1 (project words)")
				}
			} else if n > 0 {
				// Some name word is missing from the question, unless
				// it is a project word ("axum" of axum-core).
				if sw = dropWords(sw, proj); len(sw) > 0 && len(sw) < n && allIn(sw, words) {
					r.mulGroup(gi, "name", nameFactor)
				}
			}
		}
		if helperCan && helperPath(p, words, scratch) {
			r.mulGroup(gi, "helper", helperFactor)
		}
		if header && ix.isHeaderWithImpl(p) {
			r.mulGroup(gi, "header", headerFactor)
		}
	}
}

// nameHead is how many places fileSignals reads names for: as many
// groups as the budget can hold stubs of leanStubTokens, at least 64, at
// most rankHead.
func nameHead(opt Options) int {
	budget := opt.BudgetTokens
	if budget <= 0 {
		budget = DefaultBudgetTokens
	}
	return min(rankHead, max(64, min(budget, MaxBudgetTokens)/leanStubTokens))
}

// projectWords are the words that name a large share of the repository's
// code: a word of the directory names (without a dot) on the paths of at
// least projectWordShare of its core code, counted in pages (a file and
// its definitions; test, doc, example and data files left out) — "pytest"
// of src/_pytest/ and src/pytest/ in pytest, "xarray" in xarray, "axum"
// of a workspace's axum-* crates. Such a word names the project, not a
// file: a question saying "pytest" does not name src/pytest.py, and "axum
// core" names axum-core by "core". Computed once per index from the
// postings of the path-segment terms.
func (ix *Index) projectWords() []string {
	ix.projOnce.Do(func() { ix.projWords = ix.wordsNaming(projectWordShare) })
	return ix.projWords
}

// wordsNaming returns the directory words on the paths of at least share
// of the core code's pages (projectWords), sorted.
func (ix *Index) wordsNaming(share float64) []string {
	var out []string
	const skip = flagTest | flagDoc | flagAux | flagData
	// weight: per core file page, its pages (itself and its members).
	weight := make([]int32, ix.n)
	total := 0
	for p := 0; p < ix.n; p++ {
		if ix.dead != nil && ix.dead[p] {
			continue
		}
		if g := ix.group[p]; int(g) < ix.n && ix.flags[g]&skip == 0 && graph.Kind(ix.kind[g]) == graph.KindFile {
			weight[g]++
			total++
		}
	}
	if total < projectWordMinPages {
		return nil
	}
	// idx: word → its place in counts. A map assignment to an existing
	// string key stores the key again, and the words alias the term,
	// which the walk rewrites: the map is only assigned new, cloned keys.
	idx := map[string]int{}
	var words []string
	var counts []int
	var ws, scratch []string
	var pages []uint32
	var imps []uint8
	segTerms := func(fn func(ref termRef, t string)) {
		ix.eachTermFrom(string(segPrefix), func(ref termRef, t string) bool {
			if len(t) == 0 || t[0] != segPrefix {
				return false
			}
			if strings.IndexByte(t, '.') < 0 { // a base name with its extension: its stem is a term too
				fn(ref, t)
			}
			return true
		})
	}
	// The names of directories: terms a module page holds (a file's
	// stem, "/part1" of part1.py, is not one). Segments hold different
	// pages, so this is a pass of its own.
	dirs := map[string]bool{}
	segTerms(func(ref termRef, t string) {
		pages, imps = ix.postings(ref, pages[:0], imps[:0])
		for _, p := range pages {
			if graph.Kind(ix.kind[p]) == graph.KindModule && (ix.dead == nil || !ix.dead[p]) {
				dirs[strings.Clone(t)] = true
				return
			}
		}
	})
	segTerms(func(ref termRef, t string) {
		if !dirs[t] {
			return
		}
		pages, imps = ix.postings(ref, pages[:0], imps[:0])
		c := 0
		for _, p := range pages {
			if ix.dead == nil || !ix.dead[p] {
				c += int(weight[p])
			}
		}
		if c == 0 {
			return
		}
		ws, scratch = nameWords(ws[:0], t[1:], scratch)
		for i, w := range ws {
			if slices.Contains(ws[:i], w) {
				continue
			}
			j, ok := idx[w]
			if !ok {
				j = len(counts)
				w = strings.Clone(w)
				idx[w] = j
				words = append(words, w)
				counts = append(counts, 0)
			}
			counts[j] += c
		}
	})
	for j, c := range counts {
		if float64(c) >= share*float64(total) {
			out = append(out, words[j])
		}
	}
	slices.Sort(out)
	return out
}

// dropWords removes from ws the words in drop, in place.
func dropWords(ws, drop []string) []string {
	if len(drop) == 0 {
		return ws
	}
	return slices.DeleteFunc(ws, func(w string) bool {
		_, ok := slices.BinarySearch(drop, w)
		return ok
	})
}

// mulGroup multiplies group gi's score by f, naming the factor for --explain.
func (r *queryRun) mulGroup(gi int, name string, f float64) {
	if f == 1 {
		return
	}
	r.s.groups[gi].score *= f
	if r.opt.Explain {
		r.factors[gi] = append(r.factors[gi], fmt.Sprintf("%s×%.2f", name, f))
	}
}

// isHeaderWithImpl reports whether p is a C or C++ header whose
// implementation (same stem, a source extension) is indexed.
func (ix *Index) isHeaderWithImpl(p string) bool {
	if !slices.Contains(headerExts, strings.ToLower(path.Ext(p))) {
		return false
	}
	stemName := fileStem(p)
	for _, ie := range implExts {
		if ref, ok := ix.lookupTerm(segTerm(stemName + ie)); ok && ix.df(ref) > 0 {
			return true
		}
	}
	return false
}

// centralStems are the stems of the file that stands for its directory: a
// Rust module's mod.rs and crate's lib.rs, a Python package's __init__.py,
// a JavaScript or TypeScript folder's index, a Lua module's init.lua.
var centralStems = map[string]bool{"mod": true, "lib": true, "__init__": true, "index": true, "init": true}

// namePath is the path whose last element names file p: p itself, or the
// directory of a central file (axum/src/extract/mod.rs is named "extract"),
// above a source root (axum-core/src/lib.rs is named "axum-core").
func namePath(p string) string {
	if centralStems[strings.ToLower(fileStem(p))] {
		d := path.Dir(p)
		if path.Base(d) == "src" {
			d = path.Dir(d)
		}
		if d != "." && d != "/" {
			return d
		}
	}
	return p
}

// nameWords appends to dst the words of a file or directory name as
// wordTerms makes them, without wordTerms's allocation per call (a
// question checks the name of each of its candidates).
func nameWords(dst []string, name string, scratch []string) ([]string, []string) {
	scratch = splitIdent(scratch[:0], name)
	return pieceTerms(dst, scratch), scratch
}

// allIn reports whether every word of ws is in set.
func allIn(ws, set []string) bool {
	for _, w := range ws {
		if !slices.Contains(set, w) {
			return false
		}
	}
	return true
}

// helperPath reports whether p lies in a directory of helper code —
// benches (bench*), mocks (mock*), fixtures (fixture*), test utilities
// (testutil, test_helpers, test-utils…), helper crates and packages
// (*-util, *-utils, *-test, *-tests, *-testing) — or is a mock file
// (mock_x.go, x_mock.go, mocks.py), and the question does not name that
// kind of helper ("bench", "mocks", "test utils": one of helperWords of
// the directory or file name is among its words).
func helperPath(p string, words, scratch []string) bool {
	sg, ok := helperSegment(p)
	if !ok {
		return false
	}
	var ws []string
	ws, _ = nameWords(nil, sg, scratch)
	for _, w := range ws {
		if helperWords[w] && slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// helperSegment returns the first element of path p (lower-cased) that
// makes it helper code: a helper directory or a mock file's stem.
func helperSegment(p string) (string, bool) {
	for rest := p; rest != ""; {
		sg := rest
		last := true
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			sg, rest, last = rest[:i], rest[i+1:], false
		} else {
			rest = ""
		}
		if hasUpperASCII(sg) {
			sg = strings.ToLower(sg) // rare: paths are mostly lower-case
		}
		if last {
			sg = fileStem(sg)
			if !strings.HasPrefix(sg, "mock") && !strings.HasSuffix(sg, "_mock") && !strings.HasSuffix(sg, "mocks") {
				continue
			}
		} else if !helperDir(sg) {
			continue
		}
		return sg, true
	}
	return "", false
}

// hasUpperASCII reports whether s holds an ASCII capital letter.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// helperWords are the stemmed words that say a directory or file is helper
// code; a question holding one of a helper's asks for it.
var helperWords = func() map[string]bool {
	ws, _ := wordTerms(nil, "bench benchmark mock fixture test testutil testhelpers util helper", nil)
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}()

// The prefixes and suffixes of helper directories' names (helperDir).
var (
	helperDirPrefixes = []string{"bench", "mock", "fixture"}
	helperDirSuffixes = []string{"-util", "-utils", "-test", "-tests", "-testing", "_test"}
)

// helperDir reports whether a lower-case directory name holds helper code.
func helperDir(sg string) bool {
	switch sg {
	case "testutil", "testutils", "test_helpers", "test-helpers", "testhelpers", "test_utils", "test-utils", "test_util":
		return true
	}
	for _, pre := range helperDirPrefixes {
		if strings.HasPrefix(sg, pre) {
			return true
		}
	}
	for _, suf := range helperDirSuffixes {
		if strings.HasSuffix(sg, suf) {
			return true
		}
	}
	return false
}

// sortGroups sorts order by rank: score, then ID. It sorts keys holding
// each group's score beside its index, not the indexes: comparing through
// the groups (80 bytes each, in no order) missed the cache at every step.
// The comparisons are the same, so is the order.
func (ix *Index) sortGroups(r *queryRun, order []int) {
	groups, extra := r.s.groups, r.opt.Extra
	keys := r.s.keys[:0]
	for _, gi := range order {
		keys = append(keys, rankKey{groups[gi].score, gi})
	}
	slices.SortFunc(keys, func(a, b rankKey) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.gi, b.gi)
	})
	// Runs of equal scores are put in ID order with each ID decoded once
	// (comparing decoded IDs at every step was most of the sort on moby).
	ids := r.s.idKeys
	rk := ix.ranks()
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].score == keys[i].score {
			j++
		}
		if j-i > 1 && rk != nil && ix.sortByRank(r.s, rk, keys[i:j]) {
			i = j
			continue
		}
		if j-i > 1 {
			ids = ids[:0]
			for _, k := range keys[i:j] {
				ids = append(ids, idKey{ix.groupID(&groups[k.gi], extra), k.gi})
			}
			slices.SortFunc(ids, func(a, b idKey) int {
				if c := compareParts(a.id, b.id); c != 0 {
					return c
				}
				return cmp.Compare(a.gi, b.gi)
			})
			for n, k := range ids {
				keys[i+n].gi = k.gi
			}
		}
		i = j
	}
	clear(ids) // they alias index memory
	r.s.idKeys = ids[:0]
	for i, k := range keys {
		order[i] = k.gi
	}
	r.s.keys = keys
}

// idKey is a group of a run of equal scores with its decoded ID.
type idKey struct {
	id [5]string
	gi int
}

// rankKey is a group to sort: its score and its index in scratch.groups.
type rankKey struct {
	score float64
	gi    int
}

// packStubs is step 5: stubs, packed in rank order until the budget is
// spent; order[sorted:] is sorted when packing reaches it. It returns how
// many groups of order it reached (the rest only count in More).
func (ix *Index) packStubs(r *queryRun, res *Result, order []int, sorted int) (reached int) {
	reached = len(order)
	allowed := kindMask(r.opt.Kinds)
	p := newPacker(res)
	for rank := range order {
		if rank == sorted {
			sorted = ix.sortHead(r, order, sorted)
		}
		g := &r.s.groups[order[rank]]
		if p.full() || p.skipped >= maxSkippedStubs {
			res.More += len(order) - rank
			res.Truncated = true
			reached = rank
			break
		}
		var fs []string
		if r.opt.Explain {
			fs = r.factors[order[rank]]
		}
		st, ok := ix.stub(g, fs, r.s, allowed, r.opt, r.a, r.tps)
		if !ok {
			continue
		}
		p.addFolding(st, ix.flags[g.page]&flagData != 0)
	}
	p.finish()
	return reached
}

// memberOnly reports whether a kind filter leaves out file and module
// pages (--kind symbol, MCP kind "symbol"): then the answer ranks the
// allowed pages by their own evidence (packMembers), not by the score of
// the file group they belong to. Without a filter, or with one allowing
// files or modules, files are ranked as groups (rankGroups, packStubs).
func memberOnly(allowed uint8) bool {
	return allowed&(1<<graph.KindFile|1<<graph.KindModule) == 0
}

// memberCand is one page packMembers ranks: a group's member or a
// standalone group page, with its score and its group.
type memberCand struct {
	score float64
	page  uint32
	gi    int32
}

// packMembers is steps 4 and 5 for a kind filter leaving out files and
// modules (memberOnly): each allowed page is ranked by its own text score
// times the factors of its group (the group's score over its text shares:
// class, path, component, focus and file-name signals; no neighbour boost,
// answerMembers), so a
// long file of near-identical definitions no longer carries its best
// member above the described symbol of a smaller file. One stub per page;
// pages scoring below minScoreShare of the best are noise; ties go by ID.
// It returns the candidates in rank order and how many of them the packer
// reached (memberPruneHolds reads both).
func (ix *Index) packMembers(r *queryRun, res *Result) (cands []memberCand, reached int) {
	s := r.s
	allowed := kindMask(r.opt.Kinds)
	var order []int
	for i := range s.groups {
		if s.groups[i].score > 0 {
			order = append(order, i)
		}
	}
	ix.fileSignals(r, order)
	n := 0
	for _, gi := range order {
		n += int(s.groups[gi].nMember) + 1
	}
	cands = make([]memberCand, 0, n) // grown by append, copying was a third of a broad question
	for _, gi := range order {
		g := &s.groups[gi]
		if g.extra > 0 {
			if allowed&(1<<graph.KindMemory) != 0 {
				cands = append(cands, memberCand{score: g.score, gi: int32(gi)})
			}
			continue
		}
		base := g.textScore()
		if base <= 0 {
			continue
		}
		mult := g.score / base
		if g.own > 0 && allowed&(1<<ix.kind[g.page]) != 0 {
			cands = append(cands, memberCand{score: g.own * mult, page: g.page, gi: int32(gi)})
		}
		for m := g.head; m != 0; m = s.next[m-1] {
			if p := m - 1; allowed&(1<<ix.kind[p]) != 0 && s.score[p] > 0 {
				cands = append(cands, memberCand{score: float64(s.score[p]) * mult, page: p, gi: int32(gi)})
			}
		}
	}
	best := 0.0
	for _, c := range cands {
		best = max(best, c.score)
	}
	cut := best * minScoreShare
	cands = slices.DeleteFunc(cands, func(c memberCand) bool { return c.score < cut })
	// By score; equal scores by ID, put in order only for the runs the
	// packer reaches (each candidate's ID decoded once): a broad question
	// at 100k files has tens of thousands of candidates, many tied, and
	// comparing decoded IDs inside the sort took seconds.
	slices.SortFunc(cands, func(x, y memberCand) int {
		if x.score != y.score {
			if x.score > y.score {
				return -1
			}
			return 1
		}
		if x.gi != y.gi {
			return cmp.Compare(x.gi, y.gi)
		}
		return cmp.Compare(x.page, y.page)
	})
	// A run of equal scores is put in ID order only as far as the packer
	// reads it: its IDs are decoded once into a heap, and each place
	// takes the smallest left (the synthetic 100k-file benchmark's broad
	// question ties 275k candidates at the best score, and sorting them
	// all by ID was most of its time).
	final := ix.rerankMembers(r, cands) // cands[:final] are in order (memberrank.go); cands[rank:final] come from the heap
	var run idHeap
	p := newPacker(res)
	reached = len(cands)
	for rank := range cands {
		if p.full() || p.skipped >= maxSkippedStubs {
			res.More += len(cands) - rank
			res.Truncated = true
			reached = rank
			break
		}
		if rank == final {
			end := rank + 1
			for end < len(cands) && cands[end].score == cands[rank].score {
				end++
			}
			if end-rank > 1 {
				run = slices.Grow(run[:0], end-rank)
				for _, c := range cands[rank:end] {
					run = append(run, candWithID{c, ix.candID(c, s, r.opt.Extra)})
				}
				run.init()
			}
			final = end
		}
		if len(run) > 0 {
			cands[rank] = run.pop()
		}
		c := cands[rank]
		g := s.groups[c.gi]
		var fs []string
		if r.opt.Explain {
			fs = r.factors[c.gi]
		}
		if g.extra == 0 {
			// The page as a group of its own: stub shows it, explain
			// gives its own text score times its group's factors.
			g = groupAcc{page: c.page, own: float64(s.score[c.page]), score: c.score}
			if c.page == s.groups[c.gi].page {
				g.own = s.groups[c.gi].own
			}
			if r.opt.Explain {
				fs = append([]string{"of " + ix.id(s.groups[c.gi].page)}, fs...)
				if rank < len(r.headCover) {
					fs = append(fs, fmt.Sprintf("words×%.2f", r.headCover[rank]))
				}
			}
		}
		st, ok := ix.stub(&g, fs, s, allowed, r.opt, r.a, r.tps)
		if !ok {
			continue
		}
		p.addFolding(st, ix.flags[s.groups[c.gi].page]&flagData != 0)
	}
	p.finish()
	return cands, reached
}

// candWithID is a packMembers candidate with its decoded ID.
type candWithID struct {
	c  memberCand
	id [5]string
}

// idHeap is a binary min-heap of candidates by ID (then group and page,
// for records that fail to decode).
type idHeap []candWithID

func (h idHeap) less(i, j int) bool {
	if c := compareParts(h[i].id, h[j].id); c != 0 {
		return c < 0
	}
	if h[i].c.gi != h[j].c.gi {
		return h[i].c.gi < h[j].c.gi
	}
	return h[i].c.page < h[j].c.page
}

func (h idHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h idHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop removes and returns the candidate of the smallest ID.
func (h *idHeap) pop() memberCand {
	old := *h
	c := old[0].c
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
	return c
}

// candID is the ID of a packMembers candidate as parts (see idParts).
func (ix *Index) candID(c memberCand, s *scratch, extra []graph.Page) [5]string {
	if g := &s.groups[c.gi]; g.extra > 0 {
		return ix.groupID(g, extra)
	}
	return ix.idParts(c.page)
}

// leanStubTokens is about the fewest tokens a stub usually takes (an ID,
// a path and a title line; answers average about 60): fileSignals reads
// the names of as many groups as a budget can hold stubs of that size.
const leanStubTokens = 16

// rankHead is how many groups are sorted before packing: more than a
// 20000-token answer holds (measured: sorting all ~40k matching groups of a
// broad question was a quarter of query time on 150k pages).
const rankHead = 512

// kthLargest returns the k-th largest group score among order (quickselect on a scratch copy).
func kthLargest(s *scratch, order []int, k int) float64 {
	v := s.kth[:0]
	for _, gi := range order {
		v = append(v, s.groups[gi].score)
	}
	s.kth = v
	return kthOf(v, k)
}

// idf is BM25's inverse document frequency, never negative.
func idf(n float64, df int) float64 {
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

func kindMask(kinds []graph.Kind) uint8 {
	if len(kinds) == 0 {
		return 0xff
	}
	var m uint8
	for _, k := range kinds {
		if k < 8 {
			m |= 1 << k
		}
	}
	return m
}

// groupID returns the ID of a group's page as parts (see idParts).
func (ix *Index) groupID(g *groupAcc, extra []graph.Page) [5]string {
	if g.extra > 0 {
		return [5]string{extra[g.extra-1].ID}
	}
	return ix.idParts(g.page)
}

// stub turns a group into its stub: a file listing its matching symbols
// when several match, else its single best member, else the page itself.
func (ix *Index) stub(g *groupAcc, factors []string, s *scratch, allowed uint8, opt Options, a analysis, tps []termPostings) (Stub, bool) {
	score := math.Round(g.score*1000) / 1000
	if g.extra > 0 {
		if allowed&(1<<graph.KindMemory) == 0 {
			return Stub{}, false
		}
		p := &opt.Extra[g.extra-1]
		st := Stub{ID: p.ID, Kind: p.Kind.String(), Title: p.Title, Path: p.Path, Line: p.Line, Score: score,
			Snippet: firstLine(p.Doc, snippetMaxBytes)}
		if opt.Explain {
			st.Explain = fmt.Sprintf("%.3f = memory text %.3f × memory %.2f", g.score, g.own, memoryFactor)
		}
		return st, true
	}
	gkind := graph.Kind(ix.kind[g.page])
	// Members worth listing.
	var room [groupListMax]uint32
	list := listMembers(g, s, room[:0])
	rep := g.page
	asFile := true
	switch {
	case len(list) == 1 && allowed&(1<<ix.kind[list[0]]) != 0:
		rep, asFile = list[0], false
	case allowed&(1<<gkind) == 0:
		if len(list) == 0 || allowed&(1<<ix.kind[list[0]]) == 0 {
			return Stub{}, false
		}
		rep, asFile = list[0], false
	}
	// A line named in the question picks the member holding it.
	r := ix.recordParts(rep)
	kind := graph.Kind(ix.kind[rep])
	st := Stub{Kind: kind.String(), Line: r.line, Score: score}
	if kind == graph.KindModule {
		st.Line = 0
	}
	var snip *record
	if !asFile {
		list = nil
	} else if len(list) > 0 && unmarkLen(r.snippet, r.name, r.marks&graph.TextSnippetMark != 0) == 0 {
		first := ix.recordParts(list[0]) // its snippet only
		snip = &first
	}
	ix.stubText(&st, &r, kind, list, snip)
	if opt.Explain {
		st.Explain = ix.explain(g, factors, rep, tps)
	}
	return st, true
}

// explain renders the score components of a group, zoekt-DebugScore style:
// the two channels summed — the group page's own BM25F, named by its kind
// ("file": its path, name, doc and its symbols' text), and "symbol", its
// best-matching members — then each factor by name (kind and class:
// test, doc, aux, data, module; question signals: path, component,
// phrase, focus, neighbour; file signals: name, helper, header), then
// each term's part.
func (ix *Index) explain(g *groupAcc, factors []string, rep uint32, tps []termPostings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.3f = %s %.3f", g.score, graph.Kind(ix.kind[g.page]), g.own)
	for k, t := range g.top {
		if t > 0 {
			fmt.Fprintf(&b, " + %.2f×symbol(%s) %.3f", [3]float64{groupTop1Share, groupTop2Share, groupTop3Share}[k], ix.id(g.topPage[k]), float64(t))
		}
	}
	for _, f := range factors {
		b.WriteString(" × " + f)
	}
	b.WriteString("; terms:")
	for _, tp := range tps {
		for _, p := range []uint32{g.page, rep} {
			if j, ok := slices.BinarySearch(tp.pages, p); ok {
				fmt.Fprintf(&b, " %s@%s=%.2f", tp.qt.term, graph.Kind(ix.kind[p]), tp.qt.weight*tp.idf*float64(tp.imps[j])/impactQuantMax)
			}
			if rep == g.page {
				break
			}
		}
	}
	return b.String()
}

// resolvePaths maps the files a question names to their boost.
func (ix *Index) resolvePaths(a analysis) map[uint32]float64 {
	if len(a.paths) == 0 {
		return nil
	}
	out := map[uint32]float64{}
	var pages []uint32
	var imps []uint8
	for _, pr := range a.paths {
		base := path.Base(pr.path)
		id, ok := ix.lookupTerm(segTerm(base))
		if !ok {
			continue
		}
		pages, imps = ix.postings(id, pages[:0], imps[:0])
		var exact, byBase []uint32
		for _, p := range pages {
			if graph.Kind(ix.kind[p]) != graph.KindFile {
				continue
			}
			fp := ix.path(p)
			if path.Base(fp) != base && !strings.EqualFold(path.Base(fp), base) {
				continue
			}
			if pr.bare {
				// "Makefile" names a file without an extension; "Context"
				// names no file context.go.
				if path.Ext(fp) == "" {
					byBase = append(byBase, p)
				}
				continue
			}
			if fp == pr.path || strings.HasSuffix(pr.path, "/"+fp) || strings.HasSuffix(fp, "/"+pr.path) {
				exact = append(exact, p)
			} else {
				byBase = append(byBase, p)
			}
		}
		if len(exact) == 0 && !strings.Contains(pr.path, "/") && len(byBase) == 1 && !pr.bare {
			exact, byBase = byBase, nil
		}
		for _, p := range exact {
			out[p] = max(out[p], pathExactBoost)
		}
		for _, p := range byBase {
			out[p] = max(out[p], pathBaseBoost)
		}
	}
	return out
}

// componentHits returns the files and modules a leading component boosts,
// with their factors (for its last part, for its parent parts). Candidates
// come from the path-segment terms that hold the last part or equal a
// parent part, so a question pays for the paths that can match rather than
// decoding the path of every scored file (100k of them in a 50k-file
// monorepo).
func (ix *Index) componentHits(m *componentMatch) map[uint32][2]float64 {
	if m == nil {
		return nil
	}
	var out map[uint32][2]float64
	var pages []uint32
	var imps []uint8
	scanned := 0
	defer func() { ix.stats.compTerms.Add(int64(scanned)) }()
	ix.eachTermFrom(string(segPrefix), func(t termRef, term string) bool { // segment terms sort together
		if term == "" || term[0] != segPrefix {
			return false
		}
		scanned++
		seg := term[1:]
		if !strings.Contains(seg, m.last) && len(term) < maxTermBytes && !slices.Contains(m.parents, seg) {
			return true
		}
		pages, imps = ix.postings(t, pages[:0], imps[:0])
		for _, p := range pages {
			k := graph.Kind(ix.kind[p])
			if k != graph.KindFile && k != graph.KindModule {
				continue
			}
			if _, done := out[p]; done {
				continue
			}
			if out == nil {
				out = map[uint32][2]float64{}
			}
			f, fd := m.factor(ix.path(p), k == graph.KindFile)
			out[p] = [2]float64{f, fd}
		}
		return true
	})
	return out
}

// componentMatch is the question's leading component, ready to match paths.
type componentMatch struct {
	last    string   // its last part ("types" of "ignore/types")
	parents []string // the parts before it
}

func newComponentMatch(c string) *componentMatch {
	if c == "" {
		return nil
	}
	m := &componentMatch{last: c}
	if i := strings.LastIndexByte(c, '/'); i >= 0 {
		m.last = c[i+1:]
		m.parents = strings.Split(strings.Trim(c[:i], "/"), "/")
	}
	if m.last == "" {
		return nil
	}
	return m
}

// factor returns the boost of a file or module path for the component's last
// part (the file stem, a directory, a directory or stem holding it), and for
// its parent parts (a directory on the path), 1 when none applies.
func (m *componentMatch) factor(p string, isFile bool) (f, parent float64) {
	f, parent = 1, 1
	lp := ""
	if containsFoldASCII(p, m.last) {
		lp = strings.ToLower(p)
		segs := strings.Split(lp, "/")
		for i, sg := range segs {
			if i == len(segs)-1 && isFile {
				st := strings.TrimSuffix(sg, path.Ext(sg))
				switch {
				case st == m.last || sg == m.last:
					f = max(f, componentStemBoost)
				case stemHasPiece(st, m.last):
					f = max(f, componentPartialBoost) // "types" → default_types.rs
				}
				continue
			}
			switch {
			case sg == m.last:
				f = max(f, componentDirBoost)
			case len(m.last) >= 3 && (strings.HasPrefix(sg, m.last) || strings.HasSuffix(sg, m.last)):
				f = max(f, componentPartialBoost) // "pki" → caddypki/, "tls" → caddytls/
			}
		}
	}
	if len(m.parents) > 0 {
		if lp == "" {
			lp = strings.ToLower(p)
		}
		if !isFile {
			lp += "/"
		}
		if i := strings.LastIndexByte(lp, '/'); i >= 0 && anyDirIs(lp[:i], m.parents) {
			parent = componentPartialBoost // "ignore" of "ignore/types:"
		}
	}
	return f, parent
}

// containsFoldASCII reports whether s contains the lower-case ASCII sub,
// ignoring ASCII case, without allocating.
func containsFoldASCII(s, sub string) bool {
	n := len(sub)
outer:
	for i := 0; i+n <= len(s); i++ {
		for j := 0; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// fileStem is a path's base name without its extension.
func fileStem(p string) string {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// anyDirIs reports whether one of the slash-separated segments of dirs is in names.
func anyDirIs(dirs string, names []string) bool {
	for _, sg := range strings.Split(dirs, "/") {
		if slices.Contains(names, sg) {
			return true
		}
	}
	return false
}

// stemHasPiece reports whether a lower-case file stem, split at "_", "-" and
// ".", has piece as one of its parts ("default_types" has "types").
func stemHasPiece(stem, piece string) bool {
	if len(piece) < 3 || !strings.Contains(stem, piece) {
		return false
	}
	for _, part := range strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if part == piece {
			return true
		}
	}
	return false
}

// focusBoosts maps the groups near the focus paths to their extra share.
func (ix *Index) focusBoosts(focus []string) map[uint32]float64 {
	if len(focus) == 0 {
		return nil
	}
	out := map[uint32]float64{}
	var frontier []uint32
	for _, f := range focus {
		f = strings.Trim(cleanRef(f), "/")
		if f == "" {
			f = "."
		}
		for _, id := range []string{graph.FileID(f), graph.ModuleID(f)} {
			if p, ok := ix.lookupID(id); ok {
				if _, seen := out[p]; !seen {
					out[p] = focusBoost0
					frontier = append(frontier, p)
				}
			}
		}
	}
	for _, w := range []float64{focusBoost1, focusBoost2} {
		var next []uint32
		for _, p := range frontier {
			for _, q := range ix.neighbours(p) {
				if _, seen := out[q]; !seen {
					out[q] = w
					next = append(next, q)
				}
			}
		}
		frontier = next
	}
	return out
}

// lookupID finds a file or module page by ID through its path-segment postings.
func (ix *Index) lookupID(id string) (uint32, bool) {
	_, p, _, err := graph.ParseID(id)
	if err != nil {
		return 0, false
	}
	seg := path.Base(p)
	t, ok := ix.lookupTerm(segTerm(seg))
	if !ok {
		return 0, false
	}
	pages, _ := ix.postings(t, nil, nil)
	for _, pg := range pages {
		if ix.id(pg) == id {
			return pg, true
		}
	}
	return 0, false
}

// scoreExtra scores a page given at query time with the index's text model.
func (ix *Index) scoreExtra(p *graph.Page, tps []termPostings) float64 {
	if len(tps) == 0 {
		return 0
	}
	var tf = map[string]*[numFields]uint32{}
	var lens [numFields]uint32
	pageTerms(p, func(t string, f field) {
		if t == "" {
			return
		}
		c := tf[t]
		if c == nil {
			c = new([numFields]uint32)
			tf[t] = c
		}
		c[f]++
		lens[f]++
	}, nil, nil)
	k := min(int(p.Kind), numKinds-1)
	sc := 0.0
	for _, tp := range tps {
		c := tf[tp.qt.term]
		if c == nil {
			continue
		}
		sc += tp.qt.weight * tp.idf * float64(impact(c, &lens, &ix.avgLen[k])) / impactQuantMax
	}
	return sc
}

// queryBigrams returns the pairs of adjacent words of a question (stemmed,
// stop words dropped), for the phrase factor: "plugin list" names
// update-plugin-list.py more precisely than "plugin" and "list" apart.
func queryBigrams(q string) [][2]string {
	ws, _ := wordTerms(nil, q, nil)
	if len(ws) > 24 {
		ws = ws[:24] // a pasted trace or paragraph: phrases are not its point
	}
	var out [][2]string
	for i := 1; i < len(ws); i++ {
		if ws[i] != ws[i-1] {
			out = append(out, [2]string{ws[i-1], ws[i]})
		}
	}
	return out
}

// stemWords are the words of a file's stem as the phrase factor sees them.
func stemWords(p string, scratch []string) ([]string, []string) {
	return wordTerms(nil, fileStem(p), scratch)
}

// phraseHashOf hashes a pair of words (FNV-1a, stable across processes).
func phraseHashOf(a, b string) uint32 {
	h := uint32(2166136261)
	for _, s := range [...]string{a, "\x00", b} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint32(s[i])) * 16777619
		}
	}
	return h
}

// buildPhrases lists each file's pairs of adjacent stem words.
func (ix *segment) buildPhrases(g *graph.Graph) {
	type entry struct{ h, p uint32 }
	var es []entry
	var ws, scratch []string
	for i := range g.Pages {
		if g.Pages[i].Kind != graph.KindFile {
			continue
		}
		ws, scratch = stemWords(g.Pages[i].Path, scratch)
		for k := 1; k < len(ws); k++ {
			if ws[k] != ws[k-1] {
				es = append(es, entry{phraseHashOf(ws[k-1], ws[k]), uint32(i)})
			}
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.p, b.p)) })
	es = slices.Compact(es)
	ix.phraseHash, ix.phrasePage = make([]uint32, len(es)), make([]uint32, len(es))
	for i, e := range es {
		ix.phraseHash[i], ix.phrasePage[i] = e.h, e.p
	}
}

// phraseFiles returns the files whose stem holds two adjacent words of the
// question next to each other, in either order (nil when none).
func (ix *Index) phraseFiles(q string) map[uint32]bool {
	var out map[uint32]bool
	var ws, scratch []string
	for _, bg := range queryBigrams(q) {
		for _, h := range [2]uint32{phraseHashOf(bg[0], bg[1]), phraseHashOf(bg[1], bg[0])} {
			for _, sg := range ix.segs {
				i, _ := slices.BinarySearch(sg.phraseHash, h)
				for ; i < len(sg.phraseHash) && sg.phraseHash[i] == h; i++ {
					p := sg.base + sg.phrasePage[i]
					if out[p] || ix.isDead(p) {
						continue
					}
					// A hash names candidates; the words decide.
					ws, scratch = stemWords(ix.path(p), scratch)
					for k := 1; k < len(ws); k++ {
						if ws[k-1] == bg[0] && ws[k] == bg[1] || ws[k-1] == bg[1] && ws[k] == bg[0] {
							if out == nil {
								out = map[uint32]bool{}
							}
							out[p] = true
							break
						}
					}
				}
			}
		}
	}
	return out
}

// exactSignal sets r's ExactMatch, Unmatched and Note for the identifiers
// a question names: an identifier matches when the index holds it as a
// name or an identifier used in code (for a.b, its last part), or a memory
// given at query time mentions it.
func (ix *Index) exactSignal(r *Result, idents []string, extra []graph.Page) {
	if len(idents) == 0 {
		return
	}
	found := true
	seen := map[string]bool{}
	for _, tok := range idents {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		last := tok
		if isQualified(tok) {
			parts := nameParts(tok)
			last = parts[len(parts)-1]
		}
		t := exactTerm(last)
		if t == "" {
			continue
		}
		if ref, ok := ix.lookupTerm(t); ok && ix.df(ref) > 0 {
			continue
		}
		if mentionedIn(extra, last) {
			continue
		}
		found = false
		r.Unmatched = append(r.Unmatched, tok)
	}
	r.ExactMatch = &found
	if !found {
		q := make([]string, len(r.Unmatched))
		for i, u := range r.Unmatched {
			q[i] = strconv.Quote(u)
		}
		r.Note = "nothing in the index is named " + strings.Join(q, " or ") + " exactly; these are partial matches"
	}
}

// mentionedIn reports whether one of the pages' text holds name (case-insensitive).
func mentionedIn(pages []graph.Page, name string) bool {
	name = strings.ToLower(name)
	for i := range pages {
		if strings.Contains(strings.ToLower(pages[i].Doc), name) || strings.Contains(strings.ToLower(pages[i].Title), name) {
			return true
		}
	}
	return false
}
