package engine

import (
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Index is the ranking index of one graph generation: a BM25F text index
// over page fields with impact-ordered postings, per-page metadata for
// grouping and priors, a file-level neighbour graph for focus, and lazily
// decoded page records for rendering. An Index is immutable once built and
// safe for concurrent use; the zero value is not usable (use NewIndex or
// UnmarshalIndex).
//
// Layout (all integers little-endian, page numbers are indexes in
// graph.Graph.Pages): terms are sorted strings in one blob, found by binary
// search; each term's postings are a varint count, then (varint page delta,
// one impact byte) pairs; records are decoded only for the pages shown.
type Index struct {
	n      int
	kind   []uint8   // graph.Kind per page
	flags  []uint8   // flagTest, ...
	group  []uint32  // the page that groups this one in answers (its file, or itself)
	prior  []float32 // centrality prior p̂ in [0,1], per group page
	pr     []float32 // raw PageRank per page, kept to warm-start the next build
	recOff []uint32  // n+1 offsets into rec
	rec    []byte    // page records (see record.go)

	termOff  []uint32 // T+1 offsets into termBlob; terms sorted
	termBlob []byte
	postOff  []uint32 // T+1 offsets into post
	post     []byte

	adjOff []uint32 // n+1 offsets into adj: group-level neighbours (files, modules), undirected
	adj    []uint32

	// phraseHash (sorted) and phrasePage list each file's pairs of adjacent
	// stem words ("update-plugin-list" → plugin·list) by hash, so the phrase
	// factor finds its few files without looking at every candidate.
	phraseHash, phrasePage []uint32

	avgLen [numKinds][numFields]float32 // mean field length per page kind, for scoring Extra pages
}

const numKinds = 5 // graph.KindModule .. graph.KindMemory

const (
	flagTest = 1 << iota // a test file or test directory
	flagDoc              // documentation text: Markdown, reStructuredText, plain text
	flagAux              // code under a documentation or example directory
)

// NewIndex builds the ranking index of g. prev (may be nil) is the index of
// the previous build: its PageRank warm-starts this one, so a small rebuild
// converges in a few iterations instead of pageRankIters. g is only read.
func NewIndex(g *graph.Graph, prev *Index) *Index {
	n := len(g.Pages)
	ix := &Index{n: n, kind: make([]uint8, n), flags: make([]uint8, n), group: make([]uint32, n)}
	for i := range g.Pages {
		p := &g.Pages[i]
		ix.kind[i] = uint8(p.Kind)
		if p.Test || isTestPath(p.Path) {
			ix.flags[i] |= flagTest
		}
		ix.flags[i] |= docFlags(p)
		ix.group[i] = uint32(i)
		if (p.Kind == graph.KindSymbol || p.Kind == graph.KindDoc) && p.Path != "" {
			if f, ok := g.Lookup(graph.FileID(p.Path)); ok && int(f) < n {
				ix.group[i] = f
			}
		}
	}
	ix.buildText(g)
	ix.buildPhrases(g)
	ix.buildRecords(g)
	ix.buildGraph(g, prev)
	return ix
}

// tokenizeWorkers overrides the number of tokenizing shards (tests).
var tokenizeWorkers int

// tokenize turns every page's fields into (term, field) entries. Pages are
// split into contiguous shards tokenized on all cores, each with its own
// dictionary, then merged; term IDs are provisional (buildText sorts and
// renumbers them) and each page's entries are sorted later, so the result
// does not depend on the sharding. On moby tokenizing was 60 % of the
// ranking phase, which ran on one core while the other idled.
func (ix *Index) tokenize(g *graph.Graph) ([]string, [][]uint64) {
	n := ix.n
	entries := make([][]uint64, n)
	type member struct {
		page  uint32
		entry uint64
	}
	type shard struct {
		terms   []string
		members []member // symbol terms folded into a group page, maybe in another shard
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), 8, n/2000))
	if tokenizeWorkers > 0 {
		workers = tokenizeWorkers
	}
	shards := make([]shard, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh := &shards[w]
			dict := map[string]uint32{}
			intern := func(t string) uint32 {
				if id, ok := dict[t]; ok {
					return id
				}
				id := uint32(len(sh.terms))
				dict[t] = id
				sh.terms = append(sh.terms, t)
				return id
			}
			var scratch []string
			for i := lo; i < hi; i++ {
				p := &g.Pages[i]
				cur := &entries[i]
				scratch = pageTerms(p, func(t string, f field) {
					if t != "" {
						*cur = append(*cur, uint64(intern(t))<<8|uint64(f))
					}
				}, scratch)
				if gi := ix.group[i]; gi != uint32(i) && p.Kind == graph.KindSymbol {
					// The symbol's terms again, in its file's member fields.
					for _, e := range *cur {
						sh.members = append(sh.members, member{gi, e&^0xff | uint64(memberField[e&0xff])})
					}
				}
			}
		}()
	}
	wg.Wait()
	// Merge the shards' dictionaries and renumber their entries.
	// Each shard's own pages are renumbered first; members go in after, as
	// they may land on pages of a shard not yet renumbered.
	dict := map[string]uint32{}
	var terms []string
	remaps := make([][]uint32, workers)
	for w := range shards {
		sh := &shards[w]
		remap := make([]uint32, len(sh.terms))
		for j, t := range sh.terms {
			id, ok := dict[t]
			if !ok {
				id = uint32(len(terms))
				dict[t] = id
				terms = append(terms, t)
			}
			remap[j] = id
		}
		remaps[w] = remap
		lo, hi := n*w/workers, n*(w+1)/workers
		for i := lo; i < hi; i++ {
			for k, e := range entries[i] {
				entries[i][k] = uint64(remap[e>>8])<<8 | e&0xff
			}
		}
	}
	for w := range shards {
		for _, m := range shards[w].members {
			entries[m.page] = append(entries[m.page], uint64(remaps[w][m.entry>>8])<<8|m.entry&0xff)
		}
	}
	return terms, entries
}

// buildText tokenizes every page, folds symbols into their file, and writes
// the dictionary and the postings with precomputed BM25F impacts.
func (ix *Index) buildText(g *graph.Graph) {
	n := ix.n
	terms, entries := ix.tokenize(g)
	// Field lengths and their means per kind.
	var sum [numKinds][numFields]float64
	var cnt [numKinds][numFields]float64
	lens := make([][numFields]uint32, n)
	for i, es := range entries {
		for _, e := range es {
			lens[i][e&0xff]++
		}
		k := min(int(ix.kind[i]), numKinds-1)
		for f := range numFields {
			if lens[i][f] > 0 {
				sum[k][f] += float64(lens[i][f])
				cnt[k][f]++
			}
		}
	}
	for k := range numKinds {
		for f := range numFields {
			ix.avgLen[k][f] = 1
			if cnt[k][f] > 0 {
				ix.avgLen[k][f] = float32(sum[k][f] / cnt[k][f])
			}
		}
	}
	// Sort terms and remap IDs.
	order := make([]uint32, len(terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) })
	remap := make([]uint32, len(terms))
	ix.termOff = make([]uint32, 0, len(terms)+1)
	var blob []byte
	for newID, old := range order {
		remap[old] = uint32(newID)
		ix.termOff = append(ix.termOff, uint32(len(blob)))
		blob = append(blob, terms[old]...)
	}
	ix.termOff = append(ix.termOff, uint32(len(blob)))
	ix.termBlob = blob

	// Per page: distinct terms with per-field tf → impact; counted first so
	// postings can be laid out in place.
	type hit struct {
		page   uint32
		impact uint8
	}
	counts := make([]uint32, len(terms)+1)
	type pageHits struct {
		terms   []uint32
		impacts []uint8
	}
	ph := make([]pageHits, n)
	for i, es := range entries {
		if len(es) == 0 {
			continue
		}
		slices.Sort(es)
		k := min(int(ix.kind[i]), numKinds-1)
		var tf [numFields]uint32
		flush := func(term uint32) {
			imp := impact(&tf, &lens[i], &ix.avgLen[k])
			tf = [numFields]uint32{}
			if imp == 0 {
				return
			}
			nt := remap[term]
			ph[i].terms = append(ph[i].terms, nt)
			ph[i].impacts = append(ph[i].impacts, imp)
			counts[nt]++
		}
		curTerm := uint32(es[0] >> 8)
		for _, e := range es {
			t := uint32(e >> 8)
			if t != curTerm {
				flush(curTerm)
				curTerm = t
			}
			tf[e&0xff]++
		}
		flush(curTerm)
		entries[i] = nil
	}
	start := make([]uint32, len(terms)+1)
	for t := range terms {
		start[t+1] = start[t] + counts[t]
	}
	hits := make([]hit, start[len(terms)])
	fill := slices.Clone(start)
	for i := range ph {
		for j, t := range ph[i].terms {
			hits[fill[t]] = hit{uint32(i), ph[i].impacts[j]}
			fill[t]++
		}
	}
	ix.postOff = make([]uint32, len(terms)+1)
	post := make([]byte, 0, len(hits)*3)
	for t := range terms {
		ix.postOff[t] = uint32(len(post))
		hs := hits[start[t]:start[t+1]]
		post = appendUvarint(post, uint64(len(hs)))
		last := uint32(0)
		for _, h := range hs {
			post = appendUvarint(post, uint64(h.page-last))
			post = append(post, h.impact)
			last = h.page
		}
	}
	ix.postOff[len(terms)] = uint32(len(post))
	ix.post = post
}

// impact is the BM25F saturation tf~/(k1+tf~) of one term on one page,
// quantized to a byte; tf~ sums the fields' weighted, length-normalised tf.
// (Two saturations, one for names and one for content, measured no better
// on the evaluation and cost a byte per posting.)
func impact(tf, lens *[numFields]uint32, avg *[numFields]float32) uint8 {
	var t float64
	for f := range numFields {
		if tf[f] == 0 {
			continue
		}
		norm := 1 - fieldB[f] + fieldB[f]*float64(lens[f])/float64(avg[f])
		t += fieldWeight[f] * float64(tf[f]) / norm
	}
	if t <= 0 {
		return 0
	}
	q := math.Round(t / (bm25K1 + t) * impactQuantMax)
	return uint8(max(1, min(q, impactQuantMax)))
}

// isTestPath reports paths that conventionally hold tests, for pages the
// builder did not flag.
func isTestPath(p string) bool {
	if p == "" {
		return false
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"), base == "conftest.py",
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."),
		strings.HasSuffix(base, "_spec.rb"), strings.HasSuffix(base, "Test.java"), strings.HasSuffix(base, "Tests.java"):
		return true
	}
	for dir := range strings.SplitSeq(p[:max(0, strings.LastIndexByte(p, '/'))], "/") {
		switch dir {
		case "test", "tests", "testing", "testdata", "__tests__", "e2e", "integration-tests":
			return true
		}
	}
	return false
}

// docFlags classifies documentation files and code kept beside documentation.
func docFlags(p *graph.Page) uint8 {
	if p.Kind != graph.KindFile && p.Kind != graph.KindSymbol && p.Kind != graph.KindDoc {
		return 0
	}
	var f uint8
	switch strings.ToLower(path.Ext(p.Path)) {
	case ".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc":
		f |= flagDoc
	}
	if p.Lang == "markdown" {
		f |= flagDoc
	}
	dir := p.Path[:max(0, strings.LastIndexByte(p.Path, '/'))]
	for seg := range strings.SplitSeq(dir, "/") {
		switch strings.ToLower(seg) {
		case "doc", "docs", "documentation", "example", "examples", "_examples", "sample", "samples", "demo", "demos":
			f |= flagAux
		}
	}
	return f
}

// lookupTerm returns the term's ID or false, by binary search of the sorted dictionary.
func (ix *Index) lookupTerm(t string) (uint32, bool) {
	lo, hi := 0, len(ix.termOff)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ix.term(uint32(m)) < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ix.termOff)-1 && ix.term(uint32(lo)) == t {
		return uint32(lo), true
	}
	return 0, false
}

func (ix *Index) term(id uint32) string {
	b := ix.termBlob[ix.termOff[id]:ix.termOff[id+1]]
	return unsafeString(b)
}

// postings decodes term t's postings into pages and impacts (appending).
func (ix *Index) postings(t uint32, pages []uint32, imps []uint8) ([]uint32, []uint8) {
	b := ix.post[ix.postOff[t]:ix.postOff[t+1]]
	cnt, k := uvarint(b)
	if k <= 0 {
		return pages, imps
	}
	b = b[k:]
	last := uint64(0)
	for range cnt {
		d, k := uvarint(b)
		if k <= 0 || k >= len(b) {
			break
		}
		last += d
		if last >= uint64(ix.n) {
			break
		}
		pages = append(pages, uint32(last))
		imps = append(imps, b[k])
		b = b[k+1:]
	}
	return pages, imps
}

// accumulate adds w×impact of term t's postings to the scratch scores, as
// postings followed by the accumulation loop would, without materialising
// the postings.
//
// With restrict, a page no earlier term scored is skipped unless its group
// page (its file) was scored: see the common-term rule in Query.
func (ix *Index) accumulate(t uint32, w float64, restrict bool, s *scratch) {
	b := ix.post[ix.postOff[t]:ix.postOff[t+1]]
	cnt, k := uvarint(b)
	if k <= 0 {
		return
	}
	b = b[k:]
	score := s.score
	n := uint64(ix.n)
	last := uint64(0)
	for range cnt {
		var d uint64
		if len(b) > 1 && b[0] < 0x80 { // one-byte delta, the common case
			d, k = uint64(b[0]), 1
		} else {
			d, k = uvarint(b)
		}
		if k <= 0 || k >= len(b) {
			break
		}
		last += d
		if last >= n {
			break
		}
		p := uint32(last)
		if score[p] == 0 {
			if restrict && score[ix.group[p]] == 0 {
				b = b[k+1:]
				continue
			}
			s.touched = append(s.touched, p)
		}
		score[p] += float32(w * float64(b[k]))
		b = b[k+1:]
	}
}

// df is the number of pages holding term t.
func (ix *Index) df(t uint32) int {
	c, k := uvarint(ix.post[ix.postOff[t]:ix.postOff[t+1]])
	if k <= 0 {
		return 0
	}
	return int(c)
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// uvarint is binary.Uvarint without its overflow checks' cost in the hot loop.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	var s uint
	for i, c := range b {
		if i == 10 {
			return 0, -1
		}
		if c < 0x80 {
			return x | uint64(c)<<s, i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, 0
}

// firstLine returns the first non-empty line of s, at most max bytes, cut at a rune boundary.
func firstLine(s string, maxBytes int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > maxBytes {
		s = s[:maxBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}
