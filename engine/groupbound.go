package engine

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Rank-safe pruning of a question whose terms are all alike (prose): a
// bound on each group's score from its terms' group impacts.
//
// planPrune (prune.go) needs a few strong terms and a tail of weak ones;
// a prose question ("which handler schedules the worker") has three or
// four terms of about the same idf, each in tens of thousands of groups
// at 100k files, and none of them is a tail: every page of every group
// they reach was scored and folded, and the answer's ~30 places were
// taken from 70k groups.
//
// A term's group impact in a group is the most it can add to the
// group's text score (textScore): its impact on the group page, plus the
// shares of the group's best three members applied to its three largest
// member impacts, in that order (the members textScore takes are the best
// by total score, and by the rearrangement inequality no choice of three
// members weighs the term's impacts more). Summed over the question's
// terms, times idf × weight, it bounds the text score; times the group's
// kind and file-class factors (fixed per page: staticFactor) and the
// largest file-signal and neighbour factors, it bounds the group's score
// (its upper bound). The group impacts of a term in a segment are
// computed from its postings the first time a question needs them (on
// every core when there are many: groupImpactsOf) and kept with the
// segment (a group and its score per group the term reaches: about a
// third of its postings): with its decoded data when the index reads its
// postings as stored, so that the next generation's index shares them
// (segment.gimpMap), else with this index's view of it (dead pages left
// out, or impacts recomputed: the postings ix.impacts gives are the same
// bytes every time, so the offsets kept hold).
//
// planBound sums the upper bounds of the groups the question's terms
// reach (no page is scored), keeps the boundKeep groups of largest bound
// (and those a question signal names) marked, and sets the plan's bound
// to the largest upper bound left out: every term then scores only the
// pages of marked groups, as planPrune's tail terms do, and the same
// checks (boundHolds, pruneHolds) decide whether the answer is the exact
// one or the question runs again without pruning.

// boundKeep is how many groups of largest upper bound planBound marks, a
// variable so that tests can prune a small index. The answer's places
// and the groups whose names fileSignals reads (up to 125 at the default
// budget) must all score above the bound; 1024 of 70k candidate groups
// keep that for the prose questions at 100k files.
var boundKeep = 1024

// boundCommonShare: a question whose common terms hold more than this
// many times the postings of its other terms ("error handling for a
// negative count" at 100k files: 1.9M against 58k) is not bounded:
// computing the common terms' group impacts costs more than the exact
// run, and a bound made mostly of common words fails the checks.
const boundCommonShare = 16

// boundMargin widens every upper bound against float rounding: page
// scores are float32 sums, bounds are summed in float32 too.
const boundMargin = 1.0001

// groupImps is one term's postings in one segment folded by group: per
// group the term reaches (in page order), the group's ordinal in the
// segment, the term's group impact in it, and where its postings of the
// group start (the byte offset and the delta base), so that a question
// can decode the postings of chosen groups only (accumulateGroups).
// Ordinals and offsets are kept as differences from the previous
// group's, read in order: 8 bytes a group instead of 12, so that
// groupImpBudget holds half as many terms again.
type groupImps struct {
	ord0 uint32 // the first group's ordinal
	e    []groupImp
	// ck holds, for every groupCkStep-th group of e, its ordinal and
	// where its postings start, so that accumulateGroups can go to the
	// few groups a plan marks without reading every group before them.
	ck []groupCk
}

// groupCk is a checkpoint of a groupImps: the absolute ordinal and
// postings offset of the group e[i×groupCkStep].
type groupCk struct{ ord, off uint32 }

// groupCkStep is how many groups a checkpoint stands for: 0.5 bytes a
// group (6 % more), and a marked group is found reading at most as many.
const groupCkStep = 16

// groupImp is one group of a groupImps.
type groupImp struct {
	dOrd uint16 // its ordinal minus the previous group's (0 for the first)
	dOff uint16 // where its postings start minus where the previous group's did (0 for the first)
	v    uint16 // the group impact, in 1/groupImpScale impact units, rounded up
	rel  uint16 // the group's first posting's page, after the group page
}

// groupImpScale: group impacts are kept in 1/groupImpScale impact units
// (at most groupShareBound × impactQuantMax × groupImpScale < 65536).
const groupImpScale = 16

// groupImpBudget is the fewest bytes of group impacts an index keeps
// with its segments (groupImpLimit); past its limit, a question computes
// the group impacts it needs and drops them (server memory stays bounded
// whatever is asked).
var groupImpBudget int64 = 8 << 20

// groupImpTerms is how many terms' group impacts reaching every group an
// index keeps (groupImpLimit): 8 bytes a group each. mcpbench's 120
// questions at 100k files need about 17 MB of group impacts (prose words
// reach a third to half of the groups); with 8 MB they were computed
// three times over (15k computations against 4.9k), each a pass over the
// term's postings.
const groupImpTerms = 16

// groupImpLimit is the most bytes of group impacts ix keeps: room for
// groupImpTerms terms reaching every group, at least groupImpBudget (23
// MB at 100k files: 182k groups; 8 MB below 65k groups).
func (ix *Index) groupImpLimit() int64 {
	ix.groupOrdinals() // numbered by the open's background work too: wait for it, not race it
	return max(groupImpBudget, int64(len(ix.groupPages))*8*groupImpTerms)
}

// size is the bytes t holds.
func (t *groupImps) size() int64 { return int64(len(t.e))*8 + int64(len(t.ck))*8 }

// groupOrdinals numbers the groups (groupPages, segGroupBase), once.
func (ix *Index) groupOrdinals() {
	ix.ordOnce.Do(func() {
		ix.segGroupBase = make([]uint32, len(ix.segs))
		for si, sg := range ix.segs {
			ix.segGroupBase[si] = uint32(len(ix.groupPages))
			for p := range sg.n {
				if sg.group[p] == uint32(p) {
					ix.groupPages = append(ix.groupPages, sg.base+uint32(p))
				}
			}
		}
	})
}

// ordinalOf returns group page g's ordinal (groupOrdinals), false when g
// is not a group page.
func (ix *Index) ordinalOf(g uint32) (uint32, bool) {
	i, ok := slices.BinarySearch(ix.groupPages, g)
	return uint32(i), ok
}

// groupImpacts returns term t's group impacts in segment si, computing
// them on first use; nil when a posting's group page lies outside the
// segment. In a segment whose impacts are recomputed or whose dead pages
// are left out, they are computed from the postings ix.impacts gives,
// which are the same bytes every time (skipTable), so that the offsets
// kept hold for accumulateGroups. (Such segments once had none: one
// edited file, its old version dead in a segment and its new one in a
// small segment of recomputed impacts, turned planBound off for every
// term either held, and mcpbench's prose questions at 100k files ran
// exactly.)
func (ix *Index) groupImpacts(si int, t uint32) *groupImps {
	sg := ix.segs[si]
	gm, held := sg.gimpMap()
	if v, ok := gm.Load(t); ok && v != gimpsAskedOnce {
		return v.(*groupImps)
	}
	ix.groupOrdinals()
	ix.stats.groupImps.Add(1)
	ti := ix.impacts(sg, t)
	post := ti.post
	// A group per posting at most; most terms reach a third as many.
	c := ti.df/2 + 1
	gi := &groupImps{e: make([]groupImp, 0, c)}
	lastOrd, lastOff := 0, 0
	n := uint64(sg.n)
	last := uint64(0)
	cur := ^uint32(0)
	// own and top are the current group's impacts, kept in locals (no
	// closure captures them: the loop runs once per posting).
	var own, top0, top1, top2 float32
	seg := ix.groupPages[ix.segGroupBase[si]:]
	if si+1 < len(ix.segs) {
		seg = ix.groupPages[ix.segGroupBase[si]:ix.segGroupBase[si+1]]
	}
	b, off := post, 0
	o := 0 // the ordinal of the last group found: postings come in page order
	// end is the current group's end (the local page of the next group,
	// or n): groups are contiguous (groupsContiguous, which every caller
	// has checked), so a posting below it is in the current group, found
	// without reading the page's group (a cache miss a posting: they lie
	// a few dozen pages apart in a segment of 20k).
	end := uint64(0)
	base := uint64(sg.base)
	var g uint32 // the current group's local page
	for len(b) > 1 {
		var d uint64
		k := 1
		if b[0] < 0x80 { // one-byte delta, the common case
			d = uint64(b[0])
		} else if d, k = uvarint(b); k <= 0 || k >= len(b) {
			break
		}
		p := last + d
		if p >= n {
			break
		}
		imp := float32(b[k])
		if p >= end {
			if cur != ^uint32(0) {
				gi.e[len(gi.e)-1].v = groupImpOf(own, top0, top1, top2)
			}
			// The last group page at or before p: gallop forward from
			// the last group found, then search.
			gp := uint32(base + p)
			if o+1 < len(seg) && seg[o+1] <= gp {
				step := 1
				for o+step < len(seg) && seg[o+step] <= gp {
					o += step
					step *= 2
				}
				hi := min(o+step, len(seg))
				i, _ := slices.BinarySearch(seg[o:hi], gp+1)
				o += i - 1
			}
			if o >= len(seg) || seg[o] > gp {
				return nil
			}
			g = seg[o] - sg.base
			if p-uint64(g) > math.MaxUint16 {
				return nil // too long a group for rel
			}
			end = n
			if o+1 < len(seg) {
				end = uint64(seg[o+1] - sg.base)
			}
			if len(gi.e) == 0 {
				gi.ord0, lastOrd, lastOff = uint32(o), o, off
			}
			if o-lastOrd > math.MaxUint16 || off-lastOff > math.MaxUint16 {
				return nil // no bound: the question runs otherwise
			}
			if len(gi.e)%groupCkStep == 0 {
				gi.ck = append(gi.ck, groupCk{uint32(o), uint32(off)})
			}
			gi.e = append(gi.e, groupImp{dOrd: uint16(o - lastOrd), dOff: uint16(off - lastOff), rel: uint16(p - uint64(g))})
			lastOrd, lastOff = o, off
			cur, own, top0, top1, top2 = g, 0, 0, 0, 0
		}
		last = p
		b, off = b[k+1:], off+k+1
		switch {
		case uint32(p) == g:
			own = imp
		case imp > top0:
			top0, top1, top2 = imp, top0, top1
		case imp > top1:
			top1, top2 = imp, top1
		case imp > top2:
			top2 = imp
		}
	}
	if cur != ^uint32(0) {
		gi.e[len(gi.e)-1].v = groupImpOf(own, top0, top1, top2)
	}
	gi.e, gi.ck = slices.Clip(gi.e), slices.Clip(gi.ck)
	if ix.gimpBytes.Add(gi.size()) > ix.groupImpLimit() {
		ix.gimpBytes.Add(-gi.size())
		return gi
	}
	for {
		v, loaded := gm.LoadOrStore(t, gi)
		if !loaded {
			break
		}
		if v != gimpsAskedOnce {
			ix.gimpBytes.Add(-gi.size())
			return v.(*groupImps)
		}
		if gm.CompareAndSwap(t, gimpsAskedOnce, gi) {
			break
		}
	}
	if held != nil {
		held.Add(gi.size())
	}
	return gi
}

// keptGroupImpacts is groupImpacts for a term whose group impacts are
// worth keeping: those kept already, or, the second time a question asks
// for them, computed while the index keeps less than its limit; nil
// otherwise. Computing them costs more than decoding the term's postings
// once (a first question paid twice: "error handling for a negative
// count" took 0.6 s over MCP), and pays off only for a term asked again.
func (ix *Index) keptGroupImpacts(si int, t uint32) *groupImps {
	gm, _ := ix.segs[si].gimpMap()
	if v, ok := gm.Load(t); ok && v != gimpsAskedOnce {
		return v.(*groupImps)
	} else if !ok {
		gm.LoadOrStore(t, gimpsAskedOnce)
		return nil
	}
	if ix.gimpBytes.Load() >= ix.groupImpLimit() {
		return nil
	}
	return ix.groupImpacts(si, t)
}

// heldGroupImpacts returns term t's group impacts in segment si when the
// index keeps them already (computed for a bound or a tail term), nil
// otherwise: it computes nothing.
func (ix *Index) heldGroupImpacts(si int, t uint32) *groupImps {
	gm, _ := ix.segs[si].gimpMap()
	if v, ok := gm.Load(t); ok && v != gimpsAskedOnce {
		return v.(*groupImps)
	}
	return nil
}

// gimpsAskedOnce marks, in a segment's group impacts, a term whose group
// impacts keptGroupImpacts was asked for once and did not compute.
var gimpsAskedOnce any = &groupImps{}

// groupImpOf is a group's impact in 1/groupImpScale units, rounded up,
// from the term's impact on its group page and its three largest member
// impacts.
func groupImpOf(own, top0, top1, top2 float32) uint16 {
	v := shareScore(float64(own), [3]float32{top0, top1, top2})
	return uint16(min(math.Ceil(v*boundMargin*groupImpScale), math.MaxUint16))
}

// accumulateGroups is accumulate for a term of a planBound plan: only
// the postings of the groups pl marks are decoded, found through the
// term's group impacts. It returns the postings decoded and the groups
// passed over. When the plan marks few groups against those the term
// reaches (a path or two names at 100k files: a thousand against 680k),
// the marked groups are looked up through the checkpoints instead of
// every group being read (markedOrdinals).
func (ix *Index) accumulateGroups(ref termRef, tabs []*groupImps, w float64, restrict bool, pl *prunePlan, s *scratch) (decoded, skipped int) {
	entries := 0
	for _, gi := range tabs {
		entries += len(gi.e)
	}
	var ords []uint32
	if sparse := pl.markCount()*groupCkStep < entries; sparse {
		ords = pl.markedOrdinals(ix)
	}
	for li, l := range ref.locs {
		sg := ix.segs[l.seg]
		gi := tabs[li]
		post := ix.impacts(sg, l.id).post
		pages := ix.groupPages[ix.segGroupBase[l.seg]:]
		if ords == nil || len(gi.ck) == 0 {
			o, off := gi.ord0, 0
			for j, e := range gi.e {
				o, off = o+uint32(e.dOrd), off+int(e.dOff)
				if !pl.marked(pages[o]) {
					skipped++
					continue
				}
				decoded += ix.groupPostings(sg, post, gi, j, off, pages[o], w, restrict, s)
			}
			continue
		}
		// The marked ordinals in this segment, relative to its first.
		base := ix.segGroupBase[l.seg]
		lo, _ := slices.BinarySearch(ords, base)
		segEnd := uint32(len(ix.groupPages))
		if int(l.seg)+1 < len(ix.segs) {
			segEnd = ix.segGroupBase[l.seg+1]
		}
		hi, _ := slices.BinarySearch(ords, segEnd)
		ix.stats.ckSegs.Add(1)
		j, o, off := 0, gi.ord0, 0 // the entry read last, its ordinal and offset
		found := 0
		for _, t := range ords[lo:hi] {
			t -= base
			if t < o {
				continue
			}
			// Jump to the last checkpoint at or before t when it lies ahead.
			if c := sort.Search(len(gi.ck), func(c int) bool { return gi.ck[c].ord > t }) - 1; c >= 0 && c*groupCkStep > j {
				j, o, off = c*groupCkStep, gi.ck[c].ord, int(gi.ck[c].off)
			}
			for o < t && j+1 < len(gi.e) {
				j++
				o, off = o+uint32(gi.e[j].dOrd), off+int(gi.e[j].dOff)
			}
			if o != t {
				if o < t {
					break // past the term's last group
				}
				continue
			}
			found++
			decoded += ix.groupPostings(sg, post, gi, j, off, pages[o], w, restrict, s)
		}
		skipped += len(gi.e) - found
	}
	return decoded, skipped
}

// groupPostings adds w×impact of the postings of group entry j of gi (at
// off in post, its group page gp) to the scratch scores, as accumulate
// does; it returns the postings decoded.
func (ix *Index) groupPostings(sg *segment, post []byte, gi *groupImps, j, off int, gp uint32, w float64, restrict bool, s *scratch) (decoded int) {
	score, group := s.score, ix.group
	n, base := uint64(sg.n), sg.base
	end := len(post)
	if j+1 < len(gi.e) {
		end = off + int(gi.e[j+1].dOff)
	}
	b := post[off:end]
	last := uint64(gp-base) + uint64(gi.e[j].rel) // the first posting's page
	for first := true; len(b) > 1; first = false {
		var d uint64
		k := 1
		if b[0] < 0x80 {
			d = uint64(b[0])
		} else if d, k = uvarint(b); k <= 0 || k >= len(b) {
			break
		}
		if !first {
			last += d
		}
		if last >= n {
			break
		}
		p := base + uint32(last)
		decoded++
		if score[p] == 0 {
			if restrict && score[group[p]] == 0 {
				b = b[k+1:]
				continue
			}
			s.touched = append(s.touched, p)
		}
		score[p] += float32(w * float64(b[k]))
		b = b[k+1:]
	}
	return decoded
}

// staticFactors are applyFactors' factors of a group that no question
// signal names, by page kind and flags (computed once, from applyFactors
// itself, so that they follow it).
var staticFactors = sync.OnceValue(func() *[numKinds][256]float32 {
	var t [numKinds][256]float32
	for k := range numKinds {
		for f := range 256 {
			ix := &Index{kind: []uint8{uint8(k)}, flags: []uint8{uint8(f)}}
			g := groupAcc{score: 1}
			ix.applyFactors(&g, &groupSignals{}, nil)
			t[k][f] = float32(g.score * boundMargin)
		}
	}
	return &t
})

// laterFactorBound is the largest product of the factors applied after
// scoreGroups to a group no question signal names: the neighbour boost
// (boostNeighbours) and the file signals (fileSignals).
func laterFactorBound() (neighbour, file float64) {
	return 1 + max(0, neighbourBoost), max(1, nameFactor) * max(1, helperFactor) * max(1, headerFactor)
}

// planBound makes the group-bound plan for a question planPrune left
// alone (nil: not worth it, or no bound can be made). w are the terms'
// weights per impact unit (idf × weight / impactQuantMax), common which
// terms are common (scored only in groups the others reach).
func (ix *Index) planBound(r *queryRun, refs []termRef, dfs []int, w []float64, common []bool, keep int) *prunePlan {
	if r.opt.Explain || len(r.opt.Extra) > 0 || !ix.groupsContiguous() {
		return nil
	}
	vol, rare, pass0 := 0, 0, false
	for i, df := range dfs {
		vol += df
		if df > 0 && !common[i] {
			rare += df
			pass0 = true
		}
	}
	if vol < pruneMinPostings || pass0 && vol-rare > boundCommonShare*rare {
		return nil
	}
	s := r.s
	tabs, ok := ix.textBounds(s, refs, dfs, w, common, pass0)
	if !ok || len(s.ubGroups) <= keep {
		clearBounds(s)
		return nil
	}
	// The neighbour boost is left out: it applies to the neighbours of the
	// best group only, which neighbourHolds checks once that is known.
	sf := staticFactors()
	ub := s.ub
	vals := s.kth[:0]
	for _, o := range s.ubGroups {
		g := ix.groupPages[o]
		v := ub[o] * sf[min(int(ix.kind[g]), numKinds-1)][ix.flags[g]] * float32(boundMargin)
		ub[o] = v
		vals = append(vals, float64(v))
	}
	bound, preBound := ix.laterBound(r, vals, keep+1)
	s.kth = vals
	words := (ix.n + 63) / 64
	if cap(s.marks) < words {
		s.marks = make([]uint64, words)
	}
	// ub stays set for neighbourHolds; clearMarks clears it.
	pl := &prunePlan{tail: make([]bool, len(dfs)), bound: bound, preBound: preBound, marks: s.marks[:words], pass0: pass0, ub: ub, tabs: tabs}
	for i := range pl.tail {
		pl.tail[i] = true
	}
	for _, o := range s.ubGroups {
		if float64(ub[o]) > bound {
			pl.mark(ix.groupPages[o])
		}
	}
	ix.markSignalGroups(r, pl)
	return pl
}

// laterBound applies the file signals' largest factor (fileSignals: the
// name signal, laterFactorBound) to the upper bounds planBound set in
// s.ub for s.ubGroups (vals holds the same values, and is reordered), and
// returns the k-th largest (the plan's bound) and the largest bound left
// below it before the file signals (the plan's preBound).
//
// The name signal lifts only a file whose fact says it may apply
// (nameMayApply: its name words among the question's words): every
// other group keeps its bound. The facts are read only for the groups
// whose bound, lifted, exceeds b1, the k-th largest unlifted bound: the
// k-th lifted bound is at least b1, so that no other group can be among
// the k largest or above the bound. A prose question's best groups are
// seldom named by it, and the name factor's 1.2 no longer widens the
// bound of every group (a path question's bounded answer reached into
// that margin, 11.4 against 12.0, and ran twice more).
func (ix *Index) laterBound(r *queryRun, vals []float64, k int) (bound, preBound float64) {
	_, fb := laterFactorBound()
	s := r.s
	b1 := kthOf(vals, k)
	words := r.a.fileWords()
	if fb <= 1 || len(words) == 0 {
		// No name can apply: the bounds hold as they are.
		return b1, b1
	}
	proj := r.a.unnamed(ix.projectWords())
	qsig, psig := wordSig(words), wordSig(proj)
	var sw, scratch []string
	lifted := vals[:0]
	low := 0.0 // the largest unlifted bound of the groups left below b1 untouched
	for _, o := range s.ubGroups {
		v := float64(s.ub[o])
		if v*fb <= b1 {
			low = max(low, v)
			continue
		}
		g := ix.groupPages[o]
		if graph.Kind(ix.kind[g]) == graph.KindFile && nameMayApply(ix.fileFact(g, &sw, &scratch), qsig, psig) {
			s.ub[o] = float32(v * fb)
			v = float64(s.ub[o])
		}
		lifted = append(lifted, v)
	}
	bound = b1
	if len(lifted) >= k {
		bound = kthOf(lifted, k)
	}
	preBound = low
	for _, o := range s.ubGroups {
		// A group whose bound is at most preBound cannot raise it,
		// divided by the name factor or not: its facts are not read.
		if v := float64(s.ub[o]); v > preBound && v <= bound {
			// An unmarked group: its bound before the name factor.
			g := ix.groupPages[o]
			if graph.Kind(ix.kind[g]) == graph.KindFile && nameMayApply(ix.fileFact(g, &sw, &scratch), qsig, psig) {
				v /= fb
			}
			preBound = max(preBound, v)
		}
	}
	return bound, preBound
}

// textBounds sets s.ub, by group ordinal, to the sum of the question's
// terms' group impacts times their weights w (per impact unit): a bound
// on each group's text score. The groups set are listed in s.ubGroups. A
// common term counts only in groups another term reached when pass0 (the
// restrict rule). False when a term's group impacts cannot be had.
func (ix *Index) textBounds(s *scratch, refs []termRef, dfs []int, w []float64, common []bool, pass0 bool) (tabs [][]*groupImps, ok bool) {
	ix.groupOrdinals()
	if len(s.ub) != len(ix.groupPages) {
		s.ub = make([]float32, len(ix.groupPages))
	}
	ub := s.ub
	reached := s.ubGroups[:0]
	defer func() { s.ubGroups = reached }()
	tabs = make([][]*groupImps, len(dfs))
	all := ix.groupImpactsOf(termJobs(refs, func(i int) bool { return dfs[i] > 0 }), ix.groupImpacts)
	for pass := range 2 {
		next := 0 // all's first entry of term i
		for i, df := range dfs {
			if df == 0 {
				continue
			}
			gis := all[next : next+len(refs[i].locs)]
			next += len(refs[i].locs)
			if common[i] != (pass == 1) {
				continue
			}
			wi := float32(w[i] / groupImpScale)
			for li, l := range refs[i].locs {
				gi := gis[li]
				if gi == nil {
					return nil, false
				}
				tabs[i] = append(tabs[i], gi)
				base := ix.segGroupBase[l.seg]
				o := gi.ord0
				for _, e := range gi.e {
					o += uint32(e.dOrd)
					gp := base + o
					if ub[gp] == 0 {
						if pass == 1 && pass0 || e.v == 0 {
							continue
						}
						reached = append(reached, gp)
					}
					ub[gp] += wi * float32(e.v)
				}
			}
		}
	}
	return tabs, true
}

// gimpJob is one term's group impacts in one segment, for groupImpactsOf.
type gimpJob struct {
	seg int
	id  uint32
}

// termJobs lists the segments of every term i that want(i), in order.
func termJobs(refs []termRef, want func(i int) bool) []gimpJob {
	var jobs []gimpJob
	for i, ref := range refs {
		if want(i) {
			for _, l := range ref.locs {
				jobs = append(jobs, gimpJob{seg: int(l.seg), id: l.id})
			}
		}
	}
	return jobs
}

// parallelGimpPostings is the fewest postings of group impacts still to
// compute for groupImpactsOf to compute them on more than one core.
const parallelGimpPostings = 32 << 10

// groupImpactsOf returns get(seg, id) for every job, in order. Where the
// index does not keep them yet and they hold parallelGimpPostings
// postings or more, they are computed on every core, largest first: a
// question's first asking of common words computes the group impacts of
// each in every segment (planBound: 200k postings and more at 100k
// files), which took the larger part of its time on one core.
func (ix *Index) groupImpactsOf(jobs []gimpJob, get func(seg int, id uint32) *groupImps) []*groupImps {
	out := make([]*groupImps, len(jobs))
	var todo []int // jobs to compute, by index
	size := make([]uint64, len(jobs))
	work := uint64(0)
	for k, j := range jobs {
		if out[k] = ix.heldGroupImpacts(j.seg, j.id); out[k] != nil {
			continue
		}
		sg := ix.segs[j.seg]
		if c, n := uvarint(sg.post[sg.postOff[j.id]:sg.postOff[j.id+1]]); n > 0 {
			size[k] = c
			work += c
		}
		todo = append(todo, k)
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if work < parallelGimpPostings || workers < 2 {
		for _, k := range todo {
			out[k] = get(jobs[k].seg, jobs[k].id)
		}
		return out
	}
	slices.SortFunc(todo, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	var next atomic.Int64
	run := func() {
		for {
			t := int(next.Add(1) - 1)
			if t >= len(todo) {
				return
			}
			k := todo[t]
			out[k] = get(jobs[k].seg, jobs[k].id)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	return out
}

// clearBounds zeroes the upper bounds planBound set (scratch memory, kept
// clear).
func clearBounds(s *scratch) {
	for _, g := range s.ubGroups {
		s.ub[g] = 0
	}
	s.ubGroups = s.ubGroups[:0]
}

// neighbourBound raises the plan's bound, after scoreGroups, to what a
// group planBound left unmarked can score once boosted as a neighbour of
// one of the best groups (boostNeighbours: at most its score times the
// largest boost, and below the best score, then times the file signals).
// The groups scoring at least the neighbourTop-th best score are taken:
// those boostNeighbours boosts the neighbours of, and any tied with them.
func (r *queryRun) neighbourBound(ix *Index) {
	pl := r.prune
	if pl.ub == nil || neighbourBoost <= 0 {
		return
	}
	s := r.s
	scores := s.kth[:0]
	for i := range s.groups {
		if g := &s.groups[i]; g.extra == 0 && g.score > 0 {
			scores = append(scores, g.score)
		}
	}
	s.kth = scores
	if len(scores) == 0 {
		return
	}
	best := slices.Max(scores)
	th := kthOf(scores, min(neighbourTop, len(scores)))
	nb, fb := laterFactorBound()
	for i := range s.groups {
		g := &s.groups[i]
		if g.extra != 0 || g.score <= 0 || g.score < th {
			continue
		}
		for _, q := range ix.neighbours(g.page) {
			if o, ok := ix.ordinalOf(q); ok && !pl.marked(q) {
				pl.bound = max(pl.bound, min(float64(pl.ub[o])*nb, best*fb)*boundMargin)
				pl.boosted = append(pl.boosted, q)
			}
		}
	}
}

// unmarkedBound bounds the score unmarked group page gp has once the
// neighbour boost and the file signals applied, in the exact run: the
// plan's bound (then, neighbourBound raised it for the best groups'
// neighbours), or lower, for a planBound plan, the group's own upper
// bound, times the largest neighbour boost when it neighbours one of the
// best groups (pl.boosted; 0 when no term reaches it: it scores nothing).
func (pl *prunePlan) unmarkedBound(ix *Index, gp uint32, bound float64) float64 {
	if pl.ub == nil {
		return bound
	}
	o, ok := ix.ordinalOf(gp)
	if !ok {
		return bound
	}
	f := 1.0
	if slices.Contains(pl.boosted, gp) {
		f, _ = laterFactorBound()
	}
	return min(bound, float64(pl.ub[o])*f*boundMargin)
}

// kthOf returns the k-th largest of v (1-based; v is reordered), by
// quickselect.
func kthOf(v []float64, k int) float64 {
	lo, hi, want := 0, len(v)-1, k-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] > p {
				i++
			}
			for v[j] < p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case want <= j:
			hi = j
		case want >= i:
			lo = i
		default:
			return v[want]
		}
	}
	return v[want]
}
