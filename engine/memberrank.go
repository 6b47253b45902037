package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Reranking the head of a member-only answer (packMembers).
//
// A member's text score sums, over the question's terms it holds, the
// term's weight × idf × its BM25F impact, each impact saturated on its
// own (k1 1.2, and a name word weighs wName 4.0): a definition holding a
// few of the sentence's words many times (Context.Value's doc says
// "value" and "key" three times each) outscored the one whose doc says
// every word of the sentence once (Context.GetString: "returns the value
// associated with the key as a string"). A plain BM25 over the members'
// own text, with each of its terms saturating sooner against the whole
// text, ranked the second first (docstring → symbol Acc@1 .817 against
// .780, TUNING.md). Here the best candidates (the head: those scoring at
// least memberHeadShare of the best, at most memberHead) are rescored by
// the share of the question's term mass (weight × idf) they hold, their
// coverage: score × coverage, times a share (ownShare) of their own-text
// BM25 over the head's best (ownScores: the name, signature and doc line
// their record holds, each term saturating against that whole text);
// ties by ID, as before. (Ties going first to
// the member whose name holds fewer words the question does not say,
// GetInt before GetInt64, changed no docsym answer: not kept.)
//
// The impacts of the head's pages are read from the terms' postings
// (impactsOf), through the skip tables of long lists.

// memberHead is the most candidates a member-only answer reranks (more
// than a default budget's answer lists).
const memberHead = 64

// memberHeadShare: a candidate joins the head when it scores at least
// this share of the best (measured 0.5 and the first memberHead alone:
// the same docstring → symbol answers; the share keeps the score that
// decides the head high, so that pruning holds as often as without a
// rerank, TestMemberPrunedEqualsExact).
const memberHeadShare = 0.5

// memberHeadRunMax bounds the head when a tie run crosses its end: the
// whole run joins the head, unless the head would then be longer than
// this; then the head ends before it.
const memberHeadRunMax = 256

// headCand is one candidate of the head with what its rerank reads.
type headCand struct {
	c      memberCand
	id     [5]string
	cover  float64   // the share of the question's term mass it holds
	own    float64   // its own-text BM25 (ownScores)
	ownTF  []float32 // the counts of the question's terms (r.tps) in its own text
	ownLen int       // the length of its own text, -1 until read
	rerank float64
}

// rerankMembers rescores and orders cands' head (cands sorted by score)
// and returns its length; cands[:head] are then in their final order. The
// head is the candidates scoring at least memberHeadShare of the best, at
// most memberHead of them (a tie run crossing that end joins whole, or
// not at all when it is long). It sets r.headFloor to the score that
// decided the head (-1 when there is none): the pruned answer is the
// exact one only if that score is above the member bound, so that no
// candidate of an unmarked group could have joined the head
// (answerMembers, headHolds).
func (ix *Index) rerankMembers(r *queryRun, cands []memberCand) int {
	r.headFloor, r.headCover = -1, nil
	n := len(cands)
	if n < 2 || memberHead <= 0 {
		return 0
	}
	floor := cands[0].score * memberHeadShare
	head := 0
	for head < n && cands[head].score >= floor {
		head++
	}
	capped := false
	if head > memberHead {
		head, floor, capped = headEnd(cands, memberHead)
	}
	if head < 2 {
		return 0
	}
	for _, c := range cands[:head] {
		if r.s.groups[c.gi].extra > 0 {
			return 0 // a memory page given at query time: no postings
		}
	}
	hc := make([]headCand, 0, head)
	for {
		for _, c := range cands[len(hc):head] {
			hc = append(hc, headCand{c: c, ownLen: -1})
		}
		if !ix.coverHead(r, hc) {
			return 0
		}
		least := hc[0].rerank
		for i := range hc {
			least = min(least, hc[i].rerank)
		}
		// A candidate after the head scores at most its own score once
		// reranked (coverage ≤ 1): only one scoring above the least
		// reranked score of the head can take a place in it.
		if capped || head == n || cands[head].score <= least {
			floor = min(floor, least)
			break
		}
		end := head
		for end < n && cands[end].score > least {
			if r.s.groups[cands[end].gi].extra > 0 {
				return 0
			}
			end++
		}
		if end > memberHeadRunMax {
			end, floor, capped = headEnd(cands, memberHeadRunMax)
			if end <= head {
				capped, floor = true, cands[head-1].score
				break
			}
		}
		head = end
	}
	slices.SortFunc(hc, func(a, b headCand) int {
		if a.rerank != b.rerank {
			return cmp.Compare(b.rerank, a.rerank)
		}
		if c := compareParts(a.id, b.id); c != 0 {
			return c
		}
		if a.c.gi != b.c.gi {
			return cmp.Compare(a.c.gi, b.c.gi)
		}
		return cmp.Compare(a.c.page, b.c.page)
	})
	r.headFloor = floor
	r.headCover = r.headCover[:0]
	for i := range hc {
		cands[i] = hc[i].c
		cands[i].score = hc[i].rerank
		if r.opt.Explain {
			r.headCover = append(r.headCover, hc[i].cover)
		}
	}
	// A head cut at its most candidates (capped) may end below the score
	// of a candidate after it, never reranked: that one is shown at the
	// head's last score, so that the scores shown follow the order.
	last := hc[len(hc)-1].rerank
	for i := len(hc); i < n && cands[i].score > last; i++ {
		cands[i].score = last
	}
	return len(hc)
}

// headEnd cuts a head of sorted cands at k candidates: a tie run crossing
// that end joins whole, unless the head would then be longer than
// memberHeadRunMax, then the head ends before it. It returns the head's
// length and the score that decided it (its last one).
func headEnd(cands []memberCand, k int) (head int, floor float64, capped bool) {
	head = min(k, len(cands))
	floor = cands[head-1].score
	end := head
	for end < len(cands) && cands[end].score == floor {
		end++
	}
	if end > memberHeadRunMax {
		for head > 0 && cands[head-1].score == floor {
			head--
		}
	} else {
		head = end
	}
	return head, floor, true
}

// coverHead sets the coverage and reranked score of hc's candidates (the
// share of the question's term mass, weight × idf, each holds, read from
// the terms' postings for their pages) and decodes their IDs for the
// ties; false when the question has no term mass.
func (ix *Index) coverHead(r *queryRun, hc []headCand) bool {
	pages := make([]uint32, 0, len(hc))
	for i := range hc {
		pages = append(pages, hc[i].c.page)
	}
	slices.Sort(pages)
	pages = slices.Compact(pages)
	imps := make([]uint8, len(pages))
	held := make([]float64, len(hc))
	total := 0.0
	for _, tp := range r.tps {
		if tp.qt.weight <= 0 {
			continue
		}
		ref, ok := ix.lookupTerm(tp.qt.term)
		if !ok {
			continue
		}
		clear(imps)
		ix.impactsOf(ref, pages, imps)
		w := tp.qt.weight * tp.idf
		total += w
		for i := range hc {
			if j, _ := slices.BinarySearch(pages, hc[i].c.page); imps[j] > 0 {
				held[i] += w
			}
		}
	}
	if total <= 0 {
		return false
	}
	ix.ownScores(r, hc)
	best := 0.0
	for i := range hc {
		best = max(best, hc[i].own)
	}
	for i := range hc {
		h := &hc[i]
		h.cover = held[i] / total
		h.rerank = h.c.score * h.cover
		if best > 0 {
			h.rerank *= 1 - ownShare + ownShare*h.own/best
		}
		if h.id == ([5]string{}) {
			h.id = ix.candID(h.c, r.s, r.opt.Extra)
		}
	}
	return true
}

// impactsOf sets imps[i] to term ref's impact on pages[i] (sorted,
// distinct global pages; left 0 where the term is absent). A long
// postings list is read only in the skip-table blocks that may hold one
// of the pages.
func (ix *Index) impactsOf(ref termRef, pages []uint32, imps []uint8) {
	for _, l := range ref.locs {
		sg := ix.segs[l.seg]
		lo, _ := slices.BinarySearch(pages, sg.base)
		hi, _ := slices.BinarySearch(pages, sg.base+uint32(sg.n))
		if lo >= hi {
			continue
		}
		post := ix.impacts(sg, l.id).post
		n := uint64(sg.n)
		i := lo
		// merge decodes up to max postings from b (after page last) and
		// sets the impacts of the pages it meets.
		merge := func(b []byte, last uint64, max int) {
			for ; max > 0 && i < hi && len(b) > 1; max-- {
				d, k := uvarint(b)
				if k <= 0 || k >= len(b) {
					return
				}
				last += d
				if last >= n {
					return
				}
				for i < hi && uint64(pages[i]-sg.base) < last {
					i++
				}
				if i < hi && uint64(pages[i]-sg.base) == last {
					imps[i] = b[k]
					i++
				}
				b = b[k+1:]
			}
		}
		tab := ix.skipTable(sg, l.id, post)
		if len(tab) == 0 {
			merge(post, 0, math.MaxInt)
			continue
		}
		for _, e := range tab {
			for i < hi && pages[i]-sg.base < e.first {
				i++
			}
			if i >= hi {
				break
			}
			if pages[i]-sg.base <= e.last {
				merge(post[e.off:], uint64(e.prev), skipBlock)
			}
		}
	}
}

// ownShare is the share of a head candidate's reranked score its own-text
// BM25 decides (ownScores): rerank = score × coverage × (1 − ownShare +
// ownShare × own / the head's best own), at most score × coverage, so
// that a candidate after the head still reranks at most its score.
// Docstring → symbol Acc@1 / MRR (600 questions, TUNING.md): 0 (the
// coverage alone) .823/.878, 0.3 .825/.881, 0.5 .833/.887, 0.7 .837/.888,
// 0.8 .837/.888, 0.9 .840/.891, 0.95 .838/.890, 1 .840/.891.
const ownShare = 0.9

// ownK1 and ownB are the own-text BM25's saturation and length
// normalisation, the plain BM25's (b 0.5, 0.9 and k1 0.9, 2: no better).
const (
	ownK1 = 1.2
	ownB  = 0.75
)

// ownScores sets the own-text score of hc's candidates: a plain BM25 of
// the question's terms over what the page's record holds of it (name
// pieces and the name's stop words, its title — a signature — and the
// doc's first line), each term saturating against that whole text (k1
// ownK1, length normalised by ownB against the head's mean length), idf
// from the index. The impacts saturate each field on its own and weigh a
// name word wName: of two near-twins (QueryMap and GetQueryMap) the one
// whose doc says the question's words and little else lost to the one
// whose name, doc and body say some of them more often. A candidate's
// term counts are read once (ownLen ≥ 0), as the head grows.
func (ix *Index) ownScores(r *queryRun, hc []headCand) {
	var qi map[string]int
	var scratch, ws []string
	sum := 0
	for i := range hc {
		h := &hc[i]
		if h.ownLen < 0 {
			if qi == nil {
				qi = make(map[string]int, len(r.tps))
				for k, tp := range r.tps {
					if _, ok := qi[tp.qt.term]; !ok {
						qi[tp.qt.term] = k
					}
				}
			}
			h.ownTF = make([]float32, len(r.tps))
			h.ownLen = 0
			count := func(t string, _ field) {
				h.ownLen++
				if k, ok := qi[t]; ok {
					h.ownTF[k]++
				}
			}
			rec := ix.recordParts(h.c.page)
			sn := rec.snippet
			if rec.marks&graph.TextSnippetMark != 0 {
				sn = graph.UnmarkName(sn, rec.name)
			}
			texts := [3]string{rec.name, rec.title, sn}
			if rec.title == rec.name {
				texts[1] = ""
			}
			for _, text := range texts {
				ws, scratch = textWordTerms(ws[:0], text, scratch)
				for _, w := range ws {
					count(w, fDoc)
				}
			}
			scratch = nameStopWords(rec.name, count, scratch)
		}
		sum += h.ownLen
	}
	avg := max(1, float64(sum)/float64(len(hc)))
	for i := range hc {
		h := &hc[i]
		norm := ownK1 * (1 - ownB + ownB*float64(h.ownLen)/avg)
		h.own = 0
		for k, tp := range r.tps {
			if f := float64(h.ownTF[k]); f > 0 && tp.qt.weight > 0 {
				h.own += tp.qt.weight * tp.idf * f * (ownK1 + 1) / (f + norm)
			}
		}
	}
}
