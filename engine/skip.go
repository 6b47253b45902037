package engine

import (
	"math/bits"
	"slices"
	"sort"
)

// Skipping the blocks of a common term's postings that hold no candidate.
//
// A common term (held by more than commonTermShare of the pages) only
// scores pages that the question's rarer terms scored, or members of the
// groups they scored (the restrict rule in scoreTerms). At 100k files
// such a term has hundreds of thousands of postings of which a few
// thousand are candidates, and decoding them all (a random read of the
// score array per posting) was the largest part of accumulating. A skip
// table, built for a long postings list the first time a query needs it
// and kept with the segment, divides it into blocks of skipBlock postings
// with each block's byte offset and first and last page; accumulateSkip
// decodes only the blocks whose page range meets a candidate interval.
// The postings it skips are exactly those the restrict rule would have
// passed over, so scores are bit-identical (TestSkipEqualsFull).

// skipBlock is the number of postings per skip-table block.
const skipBlock = 128

// skipMinPostings is the fewest postings a term needs in a segment for a
// skip table: shorter lists are decoded whole.
const skipMinPostings = 4 * skipBlock

// skipEntry is one block of a term's postings in a segment.
type skipEntry struct {
	off         uint32 // byte offset of the block's first posting in the postings (after the count)
	prev        uint32 // the local page before the block's first (the delta base)
	first, last uint32 // the block's first and last local pages
}

// skipTable returns term t's skip table in sg, building it on first use,
// or an empty one when the term's postings are too short. post is the
// term's postings as ix.impacts gives them: the stored bytes, or, in a
// segment whose impacts are recomputed or whose dead pages are left out,
// the bytes computed from them, which are the same every time (kept in
// the segment's cache, or computed again the same way), so that the
// table's offsets hold for every later call.
func (ix *Index) skipTable(sg *segment, t uint32, post []byte) []skipEntry {
	if v, ok := sg.skipMap().Load(t); ok {
		return v.([]skipEntry)
	}
	var tab []skipEntry
	n := uint64(sg.n)
	last, count := uint64(0), 0
	var cur skipEntry
	b, off := post, 0
	for len(b) > 1 {
		d, k := uvarint(b)
		if k <= 0 || k >= len(b) {
			break
		}
		p := last + d
		if p >= n {
			break
		}
		if count%skipBlock == 0 {
			if count > 0 {
				tab = append(tab, cur)
			}
			cur = skipEntry{off: uint32(off), prev: uint32(last), first: uint32(p)}
		}
		cur.last = uint32(p)
		last = p
		count++
		b, off = b[k+1:], off+k+1
	}
	if count < skipMinPostings {
		tab = []skipEntry{} // remembered as too short
	} else {
		tab = append(tab, cur)
	}
	sg.skipMap().Store(t, tab)
	return tab
}

// candidates returns the global page intervals [start, end) holding every
// page the restrict rule lets a common term score: each scored page, and
// the pages of each scored group (whose members follow it, see
// groupsContiguous). ok is false when groups are not contiguous.
func (ix *Index) candidates(s *scratch) (iv [][2]uint32, ok bool) {
	if !ix.groupsContiguous() {
		return nil, false
	}
	iv = make([][2]uint32, 0, len(s.touched))
	n := uint32(len(ix.group))
	for _, p := range s.touched {
		if s.score[p] == 0 {
			continue
		}
		end := p + 1
		if ix.group[p] == p {
			for end < n && ix.group[end] == p {
				end++
			}
		}
		iv = append(iv, [2]uint32{p, end})
	}
	slices.SortFunc(iv, func(a, b [2]uint32) int { return int(a[0]) - int(b[0]) })
	out := iv[:0]
	for _, v := range iv {
		if k := len(out); k > 0 && v[0] <= out[k-1][1] {
			out[k-1][1] = max(out[k-1][1], v[1])
			continue
		}
		out = append(out, v)
	}
	return out, true
}

// markedCandidates returns the global page intervals [start, end) of the
// groups pl marks: all the pages a tail term may score (prune.go). ok is
// false when groups are not contiguous.
func (ix *Index) markedCandidates(pl *prunePlan) (iv [][2]uint32, ok bool) {
	if !ix.groupsContiguous() {
		return nil, false
	}
	n := uint32(len(ix.group))
	for wi, word := range pl.marks {
		for word != 0 {
			g := uint32(wi<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			if g >= n {
				break
			}
			end := g + 1
			for end < n && ix.group[end] == g {
				end++
			}
			if k := len(iv); k > 0 && g <= iv[k-1][1] {
				iv[k-1][1] = max(iv[k-1][1], end)
				continue
			}
			iv = append(iv, [2]uint32{g, end})
		}
	}
	return iv, true
}

// groupsContiguous reports whether every group's members follow its
// group page without a gap (the order segments store pages in), which
// candidates relies on; computed once.
func (ix *Index) groupsContiguous() bool {
	ix.contigOnce.Do(func() {
		ok := true
		for i, g := range ix.group {
			if g == uint32(i) {
				continue
			}
			if g > uint32(i) || i == 0 || (ix.group[i-1] != g && uint32(i-1) != g) {
				ok = false
				break
			}
		}
		ix.contig = ok
	})
	return ix.contig
}

// accumulateSkip is accumulate with the candidate intervals cand
// (candidates under restrict, markedCandidates under only): blocks of a
// long postings list whose pages meet no interval are not decoded. It returns the postings decoded and
// the blocks skipped.
func (ix *Index) accumulateSkip(ref termRef, w float64, restrict bool, only *prunePlan, cand [][2]uint32, s *scratch) (decoded, skipped int) {
	return ix.onHalves(ref.locs, s, func(locs []termLoc, touched []uint32) ([]uint32, int, int) {
		return ix.accumulateSkipLocs(locs, w, restrict, only, cand, s.score, touched)
	})
}

// accumulateSkipLocs is accumulateSkip over the segments of locs,
// appending the pages it scores first to touched.
func (ix *Index) accumulateSkipLocs(locs []termLoc, w float64, restrict bool, only *prunePlan, cand [][2]uint32, score []float32, touched []uint32) (_ []uint32, decoded, skipped int) {
	group := ix.group
	for _, l := range locs {
		sg := ix.segs[l.seg]
		post := ix.impacts(sg, l.id).post
		tab := ix.skipTable(sg, l.id, post)
		n, base := uint64(sg.n), sg.base
		bi := 0 // the next block of tab
		b := post
		last := uint64(0)
		left := -1 // postings left in the current block; -1: no table
		if len(tab) > 0 {
			left = 0
		}
		for len(b) > 1 {
			if left == 0 {
				// At a block boundary: skip the blocks no candidate meets.
				for bi < len(tab) && !meets(cand, base+tab[bi].first, base+tab[bi].last) {
					bi++
					skipped++
				}
				if bi == len(tab) {
					break
				}
				e := tab[bi]
				b, last = post[e.off:], uint64(e.prev)
				left = skipBlock
				bi++
			}
			var d uint64
			k := 1
			if b[0] < 0x80 {
				d = uint64(b[0])
			} else if d, k = uvarint(b); k <= 0 || k >= len(b) {
				break
			}
			last += d
			if last >= n {
				break
			}
			if left > 0 {
				left--
			}
			p := base + uint32(last)
			decoded++
			if score[p] == 0 {
				if restrict && score[group[p]] == 0 || only != nil && !only.marked(group[p]) {
					b = b[k+1:]
					continue
				}
				touched = append(touched, p)
			}
			score[p] += float32(w * float64(b[k]))
			b = b[k+1:]
		}
	}
	return touched, decoded, skipped
}

// meets reports whether a page in [lo, hi] lies in one of the sorted,
// disjoint intervals iv.
func meets(iv [][2]uint32, lo, hi uint32) bool {
	i := sort.Search(len(iv), func(i int) bool { return iv[i][1] > lo })
	return i < len(iv) && iv[i][0] <= hi
}

// skipWorth reports whether a common term of df postings is worth the
// candidate intervals over touched pages: sorting them costs about what
// decoding as many postings does.
func skipWorth(df, touched int) bool {
	if touched < 0 { // a tail term: the marked groups bound what it scores
		return !skipOff && df >= skipMinPostings
	}
	return !skipOff && df >= skipMinPostings && df > 4*touched
}

// skipOff turns skipping off, for tests comparing with the full decode.
var skipOff bool
