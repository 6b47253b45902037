package engine

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk"

	"encoding/binary"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// Index is the ranking index of one graph generation: a BM25F text index
// over page fields, per-page metadata for grouping, a file-level neighbour
// graph for focus, and lazily decoded page records for rendering. It is
// made of segments (segment.go), each the derived data of a set of files,
// some of whose pages may be dead (tombstoned); it answers as an index
// built in one go over exactly the live pages would: document frequencies
// and mean field lengths are the live pages', and each posting's BM25F
// impact is computed from its stored term frequencies with those
// statistics when a query first needs it. An Index is immutable once
// built and safe for concurrent use; the zero value is not usable (use
// NewIndex, UnmarshalIndex or OpenSegments).
//
// Page numbers are global: the segments' pages concatenated in order.
type Index struct {
	n     int      // pages of all segments, dead ones included
	live  int      // pages not dead
	kind  []uint8  // graph.Kind per page
	flags []uint8  // flagTest, ...
	group []uint32 // the page that groups this one in answers (its file, or itself)
	dead  []bool   // per page, nil when none is dead
	segs  []*segment

	avgLen [numKinds][numFields]float32 // mean field length per page kind over the live pages

	// Group-level neighbours (files, modules), undirected, across
	// segments: built on first use unless the index is one segment
	// without external links or dead pages (then its own lists serve).
	adjOnce     sync.Once
	adjOff, adj []uint32

	recs  recCache                // decoded chunks of segments' member records
	idle  atomic.Pointer[scratch] // a query's working memory, kept for the next (getScratch)
	stats queryStats              // what queries did (prune.go)

	contigOnce sync.Once // sets contig
	contig     bool      // every group's members follow its page (groupsContiguous, skip.go)

	ordOnce      sync.Once    // sets groupPages, segGroupBase
	groupPages   []uint32     // the group pages in page order: a group's ordinal is its place here (groupbound.go)
	segGroupBase []uint32     // per segment, the ordinal of its first group
	gimpBytes    atomic.Int64 // bytes of group impacts kept with the segments (groupImpLimit)

	hdrOnce sync.Once // sets hdrBits
	hdrBits []uint64  // a bit per header file page, nil when none (isHeaderFile)

	projOnce  sync.Once // sets projWords
	projWords []string  // words that name a large share of the paths (projectWords)

	factOnce sync.Once       // makes facts
	facts    []atomic.Uint32 // per page, its file facts once computed (filefacts.go)

	comps compMemo // componentHits per leading component (compmemo.go)

	idRank atomic.Pointer[idRanks] // the group pages' ID ranks, once built (idrank.go)

	// fromSegments: made by OpenSegments, whose segments keep only what
	// queries read (detach, chunkRecords), so it does not encode.
	fromSegments bool
	// settled is closed when OpenSegments's background work is done (nil:
	// there is none); warm once the rest of it is done too (Warm).
	settled chan struct{}
	warm    chan struct{}
}

// Settled returns a channel closed once the work an opened index does in
// the background (neighbour lists, compressing page records) is done and
// the stored bytes it was opened from are no longer referenced: a
// long-running process may then give the memory they held back to the
// system.
func (ix *Index) Settled() <-chan struct{} {
	if ix.settled == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return ix.settled
}

// Warm returns a channel closed once the opened index's background work
// is all done: Settled, then the ties' ID ranks (idrank.go), every file
// page's fact (filefacts.go), whether groups are contiguous, which file
// pages are headers, and the idle scratch made. A query before
// then gives the same answer, but may compete with that work for the
// cores and take several times as long (at 100k files, 0.6 s of CPU on
// both cores after an open).
func (ix *Index) Warm() <-chan struct{} {
	if ix.warm == nil {
		return ix.Settled()
	}
	return ix.warm
}

const numKinds = 5 // graph.KindModule .. graph.KindMemory

const (
	flagTest = 1 << iota // a test file or test directory
	flagDoc              // documentation text: Markdown, reStructuredText, plain text
	flagAux              // code under a documentation or example directory
	flagData             // configuration, build or CI file, or plain text (dataLangs)
)

// dataLangs are the languages of files that configure, build or describe a
// project rather than implement it.
var dataLangs = map[string]bool{"yaml": true, "json": true, "toml": true, "make": true, "dockerfile": true, "text": true}

// NewIndex builds the ranking index of g: one segment, nothing dead. g is
// only read.
func NewIndex(g *graph.Graph) *Index {
	ix, err := openSegments([]*segment{buildSegment(g, nil, true)})
	if err != nil { // a built segment is consistent
		panic(err)
	}
	return ix
}

// buildSegment builds the ranking data of g's pages, with page records
// only if records: a build stores the graph's (graph.EncodeText) and the
// index reads those once loaded. ext are g's links to pages outside it.
func buildSegment(g *graph.Graph, ext []ExtLink, records bool) *segment {
	n := len(g.Pages)
	ix := &segment{segCore: &segCore{n: n, kind: make([]uint8, n), flags: make([]uint8, n), group: graph.Groups(g)}}
	for i := range g.Pages {
		p := &g.Pages[i]
		ix.kind[i] = uint8(p.Kind)
		if p.Test || walk.IsTest(p.Path) {
			ix.flags[i] |= flagTest
		}
		ix.flags[i] |= docFlags(p)
	}
	// The text index is the largest part and partly serial; the rest
	// builds on another core meanwhile (they share only the fields above).
	both(func() {
		ix.buildPhrases(g)
		if records {
			ix.buildRecords(g)
		}
		ix.buildNeighbours(g)
		ix.buildExt(ext)
	}, func() { ix.buildText(g) })
	return ix
}

// tokenizeWorkers overrides the number of tokenizing shards (tests).
var tokenizeWorkers int

// A tokenized entry is one occurrence of a term in a field of a page,
// termID<<entryFieldBits | field, in 32 bits: a 64-bit entry made the
// entries the largest thing alive in a build (50k-file synthetic repo:
// 20M entries).
const (
	entryFieldBits = 4
	entryFieldMask = 1<<entryFieldBits - 1
	// maxEntryTerms bounds the dictionary. Reaching it would take 2^28
	// distinct terms, over 8 GB of dictionary while tokenizing; a term past
	// it is left out of the index rather than widening every entry.
	maxEntryTerms = 1 << (32 - entryFieldBits)
	noTerm        = math.MaxUint32
)

// The fields must fit in an entry.
var _ [1<<entryFieldBits - int(numFields)]struct{}

// entryChunk is the size in entries of the blocks that hold pages' entries:
// each page takes an exact-size piece of a block instead of a slice grown by
// appending, whose spare capacity was a third of the entries' memory.
const entryChunk = 1 << 16

// keepEntries stores es (a page's entries, reused by the caller) in the
// current block, starting a new block when it is full.
func keepEntries(block, es []uint32) (kept, _ []uint32) {
	switch {
	case len(es) == 0:
		return nil, block
	case len(es) > entryChunk/8:
		return slices.Clone(es), block
	case cap(block)-len(block) < len(es):
		block = make([]uint32, 0, entryChunk)
	}
	k := len(block)
	block = append(block, es...)
	return block[k:len(block):len(block)], block
}

// tokenize turns every page's own fields into (term, field) entries (see
// entryFieldBits). Pages are split into contiguous shards tokenized on all
// cores, each with its own dictionary, then merged into the segment's,
// sorted, whose term IDs the entries carry; nothing later depends on the
// order of a page's entries, so the result does not depend on the
// sharding. On moby
// tokenizing was 60 % of the ranking phase, which ran on one core while
// the other idled. A symbol's terms folded into its file (memberField) are
// not copied here: buildText reads them from the symbol's entries.
func (ix *segment) tokenize(g *graph.Graph) ([]string, [][]uint32) {
	n := ix.n
	entries := make([][]uint32, n)
	workers := tokenizeShards(n)
	shardTerms := make([][]shardTerm, workers)
	shardDict := make([]map[string]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The maps are made at about the size they reach, estimated
			// from moby's shards (a term per page, per two literals and per
			// ten identifiers; an identifier in six, a literal in two new),
			// rather than grown: growing them was 0.05 s of a build's CPU.
			var idents, lits int
			for i := lo; i < hi; i++ {
				idents += len(g.Pages[i].Idents)
				lits += len(g.Pages[i].Literals)
			}
			var terms []string
			dict := make(map[string]uint32, (hi-lo)+lits/2+idents/10)
			var cur, block []uint32
			// termID numbers t in the shard's dictionary; false when the
			// dictionary is full and t new.
			termID := func(t string) (uint32, bool) {
				id, ok := dict[t]
				if !ok {
					if len(terms) == maxEntryTerms {
						return 0, false
					}
					id = uint32(len(terms))
					dict[t] = id
					terms = append(terms, t)
				}
				return id, true
			}
			emit := func(t string, f field) {
				if t == "" {
					return
				}
				if id, ok := termID(t); ok {
					cur = append(cur, id<<entryFieldBits|uint32(f))
				}
			}
			var scratch []string
			// An identifier's or literal's entries, once tokenized: "err",
			// "ctx" and their like recur on most pages (moby: tokenizing was
			// ~⅓ faster). The cached entries, and a token's term IDs, are
			// kept in blocks (keepEntries) rather than a slice each: those
			// were a sixth of the tokenizing's allocations.
			var cacheBlock []uint32
			// A token's terms, once worked out, for the text of a page
			// (signatures and docs repeat their words) and for the tokens of
			// an identifier or literal not yet in its cache: those went
			// through splitIdent, stem and the dictionary each time (moby:
			// tokenize 0.49 → 0.40 s of a build's CPU, 3 profiles a side).
			tokIndex := make(map[string]int32, (hi-lo)*3/2)
			var toks []tokEntry
			var tokScratch, tokWords []string
			var tokIDs []uint32
			tokEntryOf := func(tok string) *tokEntry {
				if i, ok := tokIndex[tok]; ok {
					return &toks[i]
				}
				tokScratch = splitIdent(tokScratch[:0], tok)
				e := tokEntry{exact: exactUnknown}
				for _, p := range tokScratch {
					if len(p) >= 2 && stopWords[p] {
						e.stops = stopsPending
						break
					}
				}
				if len(tokScratch) == 1 && allDigits(tokScratch[0]) && len(tokScratch[0]) <= maxJoinDigits {
					// textPieceTerms' lone number, which pieceTerms drops:
					// it takes its ID when a page's text has it, not before,
					// lest the dictionary hold a term no page has.
					e.num = numPending
				} else {
					tokWords = pieceTerms(tokWords[:0], tokScratch)
					tokIDs = tokIDs[:0]
					for _, t := range tokWords {
						if t != "" {
							if id, ok := termID(t); ok {
								tokIDs = append(tokIDs, id)
							}
						}
					}
					e.ids, cacheBlock = keepEntries(cacheBlock, tokIDs)
				}
				tokIndex[tok] = int32(len(toks))
				toks = append(toks, e)
				return &toks[len(toks)-1]
			}
			// words appends the word entries of s's tokens (wordTerms) in field f.
			words := func(s string, f field) {
				eachIdentToken(s, func(tok string) {
					if e := tokEntryOf(tok); e.num == numNone {
						for _, id := range e.ids {
							cur = append(cur, id<<entryFieldBits|uint32(f))
						}
					}
				})
			}
			identCache, litCache := make(map[string][]uint32, idents/6), make(map[string][]uint32, lits/2)
			// identTerms and literalTerms by the token entries.
			ident := func(id string) {
				if es, ok := identCache[id]; ok {
					cur = append(cur, es...)
					return
				}
				start := len(cur)
				words(id, fIdents)
				emit(exactTerm(id), fIdentExact)
				identCache[id], cacheBlock = keepEntries(cacheBlock, cur[start:])
			}
			var exacts []uint32
			literal := func(lit string) {
				if es, ok := litCache[lit]; ok {
					cur = append(cur, es...)
					return
				}
				start := len(cur)
				exacts = exacts[:0]
				eachIdentToken(lit, func(tok string) {
					e := tokEntryOf(tok)
					if e.num == numNone {
						for _, id := range e.ids {
							cur = append(cur, id<<entryFieldBits|uint32(fStr))
						}
					}
					if e.exact == exactUnknown {
						e.exact = noTerm
						if looksLikeIdent(tok) {
							if t := exactTerm(tok); t != "" {
								if id, ok := termID(t); ok {
									e.exact = id
								}
							}
						}
					}
					if e.exact != noTerm {
						exacts = append(exacts, e.exact<<entryFieldBits|uint32(fStr))
					}
				})
				cur = append(cur, exacts...)
				litCache[lit], cacheBlock = keepEntries(cacheBlock, cur[start:])
			}
			// tokenEntry appends the entries of token tok in field f
			// (textPieceTerms) by its entry e.
			tokenEntry := func(e *tokEntry, tok string, f field) {
				if e.num == numPending {
					e.num = numDone
					if id, ok := termID(tokScratchNum(tok)); ok {
						e.ids, cacheBlock = keepEntries(cacheBlock, []uint32{id})
					}
				}
				for _, id := range e.ids {
					cur = append(cur, id<<entryFieldBits|uint32(f))
				}
			}
			// stopsOf works out the stop terms of e, token tok's entry.
			stopsOf := func(e *tokEntry, tok string) *tokEntry {
				e.stops = stopsDone
				tokScratch = splitIdent(tokScratch[:0], tok)
				tokIDs = tokIDs[:0]
				for _, p := range tokScratch {
					if len(p) >= 2 && stopWords[p] {
						if id, ok := termID(stopTerm(p)); ok {
							tokIDs = append(tokIDs, id)
						}
					}
				}
				e.stopIDs, cacheBlock = keepEntries(cacheBlock, tokIDs)
				return e
			}
			// name is token in fName for each of a name's tokens, then
			// nameStopWords by the token entries: nameStopWords split the
			// name a second time and looked up each piece (moby: a name's
			// words and stop words 0.064 → 0.046 s of a build's CPU, 8
			// profiles a side).
			var stops []uint32
			name := func(s string) {
				stops = stops[:0]
				eachIdentToken(s, func(tok string) {
					e := tokEntryOf(tok)
					tokenEntry(e, tok, fName)
					if e.stops == stopsPending {
						e = stopsOf(e, tok)
					}
					for _, id := range e.stopIDs {
						stops = append(stops, id<<entryFieldBits|uint32(fName))
					}
				})
				cur = append(cur, stops...)
			}
			token := func(tok string, f field) { tokenEntry(tokEntryOf(tok), tok, f) }
			hooks := &termHooks{ident: ident, literal: literal, token: token, name: name}
			for i := lo; i < hi; i++ {
				cur = cur[:0]
				scratch = pageTerms(&g.Pages[i], emit, hooks, scratch)
				entries[i], block = keepEntries(block, cur)
			}
			shardTerms[w], shardDict[w] = sortShardTerms(terms), dict
		}()
	}
	wg.Wait()
	// Merge the shards' sorted dictionaries into the segment's, and
	// renumber every shard's entries to its term IDs, on all cores.
	total := 0
	for _, st := range shardTerms {
		total += len(st)
	}
	var terms []string
	var remaps [][]uint32
	if total <= maxEntryTerms {
		terms, remaps = mergeTerms(shardTerms, total)
	} else {
		terms, remaps = mergeTermsCapped(shardTerms, shardDict[0])
	}
	shardTerms, shardDict = nil, nil
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			remap := remaps[w]
			for i := lo; i < hi; i++ {
				es := entries[i][:0]
				for _, e := range entries[i] {
					if id := remap[e>>entryFieldBits]; id != noTerm {
						es = append(es, id<<entryFieldBits|e&entryFieldMask)
					}
				}
				entries[i] = es
			}
		}()
	}
	wg.Wait()
	return terms, entries
}

// A tokEntry is a token's terms in a tokenizing shard.
type tokEntry struct {
	ids   []uint32 // term IDs of its words (pieceTerms; textPieceTerms when num is numDone)
	num   uint8    // numNone, or the token is a lone number (textPieceTerms)
	exact uint32   // a literal's exact term ID for it: exactUnknown, noTerm or the ID
	// stops says whether a piece of it is a stop word (stopsPending) and
	// stopIDs are then, once a name has it, their stop terms' IDs
	// (nameStopWords).
	stops   uint8
	stopIDs []uint32
}

const (
	stopsNone    = iota // no piece is a stop word
	stopsPending        // a piece is, stopIDs not yet worked out
	stopsDone           // stopIDs worked out
)

const (
	numNone    = iota // not a lone number: ids are pieceTerms'
	numPending        // a lone number no page's text has had yet: no ids
	numDone           // a lone number, ids its textPieceTerms term
)

// exactUnknown marks a tokEntry's exact term not yet worked out.
const exactUnknown = noTerm - 1

// tokScratchNum is the term of a token splitIdent cuts to one number of
// at most maxJoinDigits digits (textPieceTerms).
func tokScratchNum(tok string) string { return splitIdent(nil, tok)[0] }

// A shardTerm is a term of a tokenizing shard's dictionary with its ID there.
type shardTerm struct {
	t  string
	id uint32
}

// sortShardTerms returns a shard's dictionary (terms by ID) sorted by term.
func sortShardTerms(terms []string) []shardTerm {
	out := make([]shardTerm, len(terms))
	for i, t := range terms {
		out[i] = shardTerm{t, uint32(i)}
	}
	slices.SortFunc(out, func(a, b shardTerm) int { return strings.Compare(a.t, b.t) })
	return out
}

// mergeTerms merges the shards' sorted dictionaries (sortShardTerms),
// total terms in all, into the segment's, sorted, and returns it with
// each shard's map from its term IDs to the segment's. Each shard sorts
// its own on its core: a merge by map lookups, then one sort of the
// merged dictionary, was 0.047 s of a build's CPU on one core (moby);
// the shards' sorts, this merge and the renumbering are 0.033 s, most of
// it on both cores.
func mergeTerms(shards [][]shardTerm, total int) ([]string, [][]uint32) {
	terms := make([]string, 0, total)
	remaps := make([][]uint32, len(shards))
	for w, st := range shards {
		remaps[w] = make([]uint32, len(st))
	}
	pos := make([]int, len(shards))
	for {
		least := -1
		for w, st := range shards {
			if pos[w] < len(st) && (least < 0 || st[pos[w]].t < shards[least][pos[least]].t) {
				least = w
			}
		}
		if least < 0 {
			break
		}
		t, id := shards[least][pos[least]].t, uint32(len(terms))
		terms = append(terms, t)
		for w, st := range shards {
			if pos[w] < len(st) && st[pos[w]].t == t {
				remaps[w][st[pos[w]].id] = id
				pos[w]++
			}
		}
	}
	return terms, remaps
}

// mergeTermsCapped is mergeTerms when the shards hold more than
// maxEntryTerms terms between them, which would take 8 GB of dictionary:
// shard 0's terms (dict, its dictionary) and the others' new ones in
// shard and ID order are kept up to maxEntryTerms, the rest map to
// noTerm.
func mergeTermsCapped(shards [][]shardTerm, dict map[string]uint32) ([]string, [][]uint32) {
	local := func(st []shardTerm) []string {
		ts := make([]string, len(st))
		for _, x := range st {
			ts[x.id] = x.t
		}
		return ts
	}
	terms := local(shards[0])
	remaps := make([][]uint32, len(shards))
	remaps[0] = make([]uint32, len(terms))
	for j := range remaps[0] {
		remaps[0][j] = uint32(j)
	}
	for w := 1; w < len(shards); w++ {
		remap := make([]uint32, len(shards[w]))
		for j, t := range local(shards[w]) {
			id, ok := dict[t]
			if !ok {
				id = noTerm
				if len(terms) < maxEntryTerms {
					id = uint32(len(terms))
					dict[t] = id
					terms = append(terms, t)
				}
			}
			remap[j] = id
		}
		remaps[w] = remap
	}
	st := sortShardTerms(terms)
	rank := make([]uint32, len(st))
	sorted := make([]string, len(st))
	for r, x := range st {
		rank[x.id] = uint32(r)
		sorted[r] = x.t
	}
	for _, remap := range remaps {
		for j, id := range remap {
			if id != noTerm {
				remap[j] = rank[id]
			}
		}
	}
	return sorted, remaps
}

// buildText tokenizes every page, folds symbols into their file, and writes
// the dictionary and the postings with precomputed BM25F impacts.
func (ix *segment) buildText(g *graph.Graph) {
	n := ix.n
	terms, entries := ix.tokenize(g)
	// A symbol's terms also count in its group page's (its file's) member
	// fields: memOff/mem list the symbols folded into each page.
	folded := func(i int) bool { return ix.group[i] != uint32(i) && g.Pages[i].Kind == graph.KindSymbol }
	memOff := make([]uint32, n+1)
	for i := range n {
		if folded(i) {
			memOff[ix.group[i]+1]++
		}
	}
	for i := range n {
		memOff[i+1] += memOff[i]
	}
	mem := make([]uint32, memOff[n])
	fillMem := slices.Clone(memOff[:n])
	for i := range n {
		if folded(i) {
			gi := ix.group[i]
			mem[fillMem[gi]] = uint32(i)
			fillMem[gi]++
		}
	}
	// Field lengths and their means per kind. A number (textPieceTerms)
	// and a name's stop word (nameStopWords) do not count: only a
	// member-only question asks for them, and a docstring's
	// ".. versionchanged:: 2.3" made its doc longer, moving the answers
	// of questions that say no number. (No other term is all digits or
	// starts with stopPrefix.)
	number := make([]bool, len(terms))
	for id, t := range terms {
		number[id] = allDigits(t) || len(t) > 1 && t[0] == stopPrefix
	}
	lens := make([][numFields]uint32, n)
	for i, es := range entries {
		for _, e := range es {
			if !number[e>>entryFieldBits] {
				lens[i][e&entryFieldMask]++
			}
		}
		if folded(i) {
			gl := &lens[ix.group[i]]
			for _, e := range es {
				if !number[e>>entryFieldBits] {
					gl[memberField[e&entryFieldMask]]++
				}
			}
		}
	}
	// Per kind, the sum of each field's lengths and the number of pages
	// where it is not empty (their quotient is the mean an open index
	// scores with), and each page's lengths (segment.go).
	for i := range lens {
		k := min(int(ix.kind[i]), numKinds-1)
		for f := range numFields {
			if lens[i][f] > 0 {
				ix.sum[k][f] += uint64(lens[i][f])
				ix.cnt[k][f]++
			}
		}
	}
	ix.lenOff, ix.lens = encodeLens(lens)
	ix.impSum, ix.impCnt = ix.sum, ix.cnt
	ix.avgLen = meanLens(&ix.impSum, &ix.impCnt)
	numTerms := len(terms)
	ix.numTerms = numTerms
	ix.termBlk, ix.termBlob = encodeTerms(terms)

	// Per page: distinct terms with their per-field tf, page by page
	// into flat lists, on both cores: shards of whole groups, so that a
	// shard alone reads and frees its pages' entries.
	shards := hitShards(ix.group, folded, tokenizeShards(n))
	var wg sync.WaitGroup
	for _, sh := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh.hits(ix, entries, mem, memOff, lens, numTerms, folded)
		}()
	}
	wg.Wait()
	counts := shards[0].counts
	for _, sh := range shards[1:] {
		for t, c := range sh.counts {
			counts[t] += c
		}
		sh.counts = nil
	}

	// Postings: a term's are its count, then (page delta, impact) pairs
	// in page order, the impacts under the segment's own statistics (what
	// a query reads when they are the open index's); its term frequencies
	// (appendTF), in the same order, are in tfs. Their sizes are summed
	// first so that every term's postings are written in place, in one
	// exact-size buffer.
	last := make([]uint32, numTerms)
	ix.postOff = make([]uint32, numTerms+1)
	ix.tfOff = make([]uint32, numTerms+1)
	for _, sh := range shards {
		tfb := sh.tf
		for i := sh.lo; i < sh.hi; i++ {
			for _, t := range sh.term[sh.off[i-sh.lo]:sh.off[i-sh.lo+1]] {
				k := tfLen(tfb)
				tfb = tfb[k:]
				ix.postOff[t+1] += uint32(uvarintLen(uint64(uint32(i)-last[t])) + 1)
				ix.tfOff[t+1] += uint32(k)
				last[t] = uint32(i)
			}
		}
	}
	for t := range numTerms {
		ix.postOff[t+1] += ix.postOff[t] + uint32(uvarintLen(uint64(counts[t])))
		ix.tfOff[t+1] += ix.tfOff[t]
	}
	post := make([]byte, ix.postOff[numTerms])
	tfs := make([]byte, ix.tfOff[numTerms])
	pos := counts // reused: the write position of each term's next posting
	tfPos := slices.Clone(ix.tfOff[:numTerms])
	var buf [binary.MaxVarintLen64]byte
	for t := range numTerms {
		k := copy(post[ix.postOff[t]:], appendUvarint(buf[:0], uint64(counts[t])))
		pos[t] = ix.postOff[t] + uint32(k)
		last[t] = 0
	}
	for _, sh := range shards {
		tfb := sh.tf
		for i := sh.lo; i < sh.hi; i++ {
			for j := sh.off[i-sh.lo]; j < sh.off[i-sh.lo+1]; j++ {
				t := sh.term[j]
				d := appendUvarint(buf[:0], uint64(uint32(i)-last[t]))
				p := pos[t]
				p += uint32(copy(post[p:], d))
				post[p] = sh.imp[j]
				pos[t] = p + 1
				k := tfLen(tfb)
				tfPos[t] += uint32(copy(tfs[tfPos[t]:], tfb[:k]))
				tfb = tfb[k:]
				last[t] = uint32(i)
			}
		}
		sh.tf, sh.imp = nil, nil
	}
	ix.post, ix.tfs = post, tfs
}

// A hitShard is the pages [lo, hi) with, per page i, its distinct terms
// and their impacts at term[off[i-lo]:off[i-lo+1]], their term
// frequencies one after the other in tf (appendTF), and how many pages of
// the shard hold each term.
type hitShard struct {
	lo, hi int
	off    []uint32
	term   []uint32
	imp    []uint8
	tf     []byte
	counts []uint32
}

// tokenizeShards is the number of shards for n pages: the tokenizing
// workers'.
func tokenizeShards(n int) int {
	if tokenizeWorkers > 0 {
		return tokenizeWorkers
	}
	return max(1, min(runtime.GOMAXPROCS(0), 8, n/2000))
}

// hitShards splits the pages into about k ranges that no group crosses
// (every page of a range has its group page in the range), or one.
func hitShards(group []uint32, folded func(int) bool, k int) []*hitShard {
	n := len(group)
	// A cut before page b is clean when no page before b is grouped at or
	// after b, and no page from b on is grouped before b.
	reach := make([]bool, n+1) // reach[b]: a page before b is grouped at >= b
	hi := 0
	for b := 1; b <= n; b++ {
		i := b - 1
		if folded(i) {
			hi = max(hi, int(group[i]))
		}
		reach[b] = hi >= b
	}
	low := n // min group of folded pages from b on
	clean := make([]bool, n+1)
	clean[0], clean[n] = true, true
	for b := n - 1; b >= 1; b-- {
		if folded(b) {
			low = min(low, int(group[b]))
		}
		clean[b] = !reach[b] && low >= b
	}
	var out []*hitShard
	lo := 0
	for w := 1; w < k; w++ {
		b := max(n*w/k, lo+1)
		for b < n && !clean[b] {
			b++
		}
		if b >= n {
			break
		}
		out = append(out, &hitShard{lo: lo, hi: b})
		lo = b
	}
	return append(out, &hitShard{lo: lo, hi: n})
}

// hits fills the shard's lists from the pages' entries (and their folded
// members'), freeing the entries it has used. A page's terms are tallied
// in the order they first occur, not sorted: no output depends on the
// order of a page's terms in the lists (a term's postings are in page
// order either way), and sorting each page's entries was a third of hits
// (moby: hits 0.15 → 0.10 s of a build's CPU).
func (sh *hitShard) hits(ix *segment, entries [][]uint32, mem, memOff []uint32, lens [][numFields]uint32, numTerms int, folded func(int) bool) {
	sh.counts = make([]uint32, numTerms)
	sh.off = make([]uint32, sh.hi-sh.lo+1)
	slot := make([]int32, numTerms) // per term, 1 + its place in acc for the page at hand; 0 when it has none
	var acc []termTF
	for i := sh.lo; i < sh.hi; i++ {
		sh.off[i-sh.lo] = uint32(len(sh.term))
		acc = acc[:0]
		for _, e := range entries[i] {
			acc = tally(acc, slot, e>>entryFieldBits, field(e&entryFieldMask))
		}
		for _, m := range mem[memOff[i]:memOff[i+1]] {
			for _, e := range entries[m] {
				acc = tally(acc, slot, e>>entryFieldBits, memberField[e&entryFieldMask])
			}
			if m < uint32(i) {
				entries[m] = nil // its own page and its file are done
			}
		}
		if !folded(i) || ix.group[i] < uint32(i) {
			entries[i] = nil
		}
		if len(acc) == 0 {
			continue
		}
		k := min(int(ix.kind[i]), numKinds-1)
		var norm [numFields]float64
		fieldNorms(&norm, &lens[i], &ix.avgLen[k])
		var once [numFields]uint8 // the impact of a term met once, in field f; 0 until needed
		for j := range acc {
			a := &acc[j]
			slot[a.term] = 0
			nt := a.term
			sh.term = append(sh.term, nt)
			// Never 0: every field weighs more than nothing.
			if a.n == 1 {
				// Most terms of a page occur once: their impact is one of
				// 14 per page, and their tf one byte (appendTF's) (moby:
				// hits 0.10 → 0.07 s of a build's CPU).
				if once[a.f] == 0 {
					once[a.f] = max(1, impactNormed(&a.tf, &norm))
				}
				sh.imp = append(sh.imp, once[a.f])
				sh.tf = append(sh.tf, byte(a.f)<<3)
			} else {
				sh.imp = append(sh.imp, max(1, impactNormed(&a.tf, &norm)))
				sh.tf = appendTF(sh.tf, &a.tf)
			}
			sh.counts[nt]++
		}
	}
	sh.off[sh.hi-sh.lo] = uint32(len(sh.term))
}

// A termTF is a term of one page with its frequency in each field, its
// number of occurrences n and the field f of the last.
type termTF struct {
	term uint32
	n    uint32
	f    field
	tf   [numFields]uint32
}

// tally counts one occurrence of term t in field f into acc, the page's
// terms so far, where slot says which of them t is.
func tally(acc []termTF, slot []int32, t uint32, f field) []termTF {
	s := slot[t]
	if s == 0 {
		acc = append(acc, termTF{term: t})
		s = int32(len(acc))
		slot[t] = s
	}
	a := &acc[s-1]
	a.tf[f]++
	a.n++
	a.f = f
	return acc
}

// uvarintLen is the length of appendUvarint's encoding of v.
func uvarintLen(v uint64) int {
	k := 1
	for v >= 0x80 {
		v >>= 7
		k++
	}
	return k
}

// impact is the BM25F saturation tf~/(k1+tf~) of one term on one page,
// quantized to impactQuantMax levels; tf~ sums the fields' weighted,
// length-normalised tf.
// (Two saturations, one for names and one for content, measured no better
// on the evaluation and cost a byte per posting.)
func impact(tf, lens *[numFields]uint32, avg *[numFields]float32) uint8 {
	var t float64
	for f := range numFields {
		if tf[f] == 0 {
			continue
		}
		t += fieldWeight[f] * float64(tf[f]) / fieldNorm(f, lens[f], avg[f])
	}
	return saturate(t)
}

// fieldNorm is BM25F's length normalisation of field f of a page whose
// length in it is n, under the mean avg.
func fieldNorm(f field, n uint32, avg float32) float64 {
	return 1 - fieldB[f] + fieldB[f]*float64(n)/float64(avg)
}

// fieldNorms sets norm to fieldNorm of each field of a page: impactNormed
// of each of its terms then divides by them instead of working them out
// again per term (moby: impact in hits and Reweight was 0.1 s of a
// build's CPU, the norms' divisions most of it). The quotients are the
// same float64s, so the impacts are bit for bit impact's.
func fieldNorms(norm *[numFields]float64, lens *[numFields]uint32, avg *[numFields]float32) {
	for f := range numFields {
		norm[f] = fieldNorm(f, lens[f], avg[f])
	}
}

// impactNormed is impact with the page's fieldNorms.
func impactNormed(tf *[numFields]uint32, norm *[numFields]float64) uint8 {
	var t float64
	for f := range numFields {
		if tf[f] == 0 {
			continue
		}
		t += fieldWeight[f] * float64(tf[f]) / norm[f]
	}
	return saturate(t)
}

// saturate quantizes the saturation of a term's summed field scores t.
func saturate(t float64) uint8 {
	if t <= 0 {
		return 0
	}
	q := math.Round(t / (bm25K1 + t) * impactQuantMax)
	return uint8(max(1, min(q, impactQuantMax)))
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
	if p.Lang == "markdown" || p.Lang == "rst" || p.Lang == "asciidoc" {
		f |= flagDoc
	}
	if dataLangs[p.Lang] && f&flagDoc == 0 {
		f |= flagData
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
func firstLine(s string, maxBytes int) string { return graph.FirstLine(s, maxBytes) }
