package engine

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// A segment is the ranking data of one set of pages (files with their
// symbol and doc pages, or module pages): its own term dictionary and
// postings, with per-field term frequencies, each page's field lengths,
// and per-kind sums of them. Scores need the statistics of all live pages
// (document frequency, mean field lengths), which only the Index that
// opens the segments knows. The postings hold impacts under the
// segment's own statistics, which an index of this one segment (or of
// segments whose statistics add up to the same means, nothing dead)
// reads as they are; otherwise the index computes a term's impacts in a
// segment from the term frequencies when a query first needs them and
// keeps them (termImpacts), so that how files fell into segments never
// changes a score.
type segment struct {
	// segCore is the segment's data, the same in every index that opens
	// the same stored segment with the same dead pages: an index of the
	// next generation reuses it (coreCache) instead of decoding the
	// stored bytes again.
	*segCore

	base uint32 // the global number of its first page
	// exact: post's impacts are the open index's (its means within
	// meansTolerance of those they were computed under), so queries read
	// them as they are, leaving out dead pages' postings.
	exact bool
	dead  []bool // local view of Index.dead; nil when none of its pages is dead
	cache sync.Map
	// skips and gimps are the skip tables and group impacts of a segment
	// whose postings are not the stored bytes (not exact, or dead pages
	// left out); a pure one's are its data's (segCore.pure), shared by
	// every index that opens it (skipMap, gimpMap).
	skips sync.Map // term → []skipEntry (skip.go)
	gimps sync.Map // term → *groupImps (groupbound.go)
}

// pureCaches are the skip tables and group impacts of a segment's stored
// postings: every index that reads them as stored (exact, nothing dead)
// shares them, so that a server's next generation (one file edited) does
// not compute again those of the segments it kept.
type pureCaches struct {
	skips     sync.Map     // term → []skipEntry
	gimps     sync.Map     // term → *groupImps
	gimpBytes atomic.Int64 // the bytes of gimps' group impacts
}

// pure reports whether sg's postings are its stored bytes in this index.
func (sg *segment) pure() bool { return sg.exact && sg.dead == nil }

// skipMap is where sg's skip tables are kept in this index.
func (sg *segment) skipMap() *sync.Map {
	if sg.pure() {
		return &sg.segCore.pure.skips
	}
	return &sg.skips
}

// gimpMap is where sg's group impacts are kept in this index, and the
// shared count of their bytes (nil: the index's alone).
func (sg *segment) gimpMap() (*sync.Map, *atomic.Int64) {
	if sg.pure() {
		return &sg.segCore.pure.gimps, &sg.segCore.pure.gimpBytes
	}
	return &sg.gimps, nil
}

// segCore is a segment's data as decoded. Once an index opened from it
// is settled it changes no more, but for loadFreqs and the record
// compression, each done once and under its own guard.
type segCore struct {
	n     int
	kind  []uint8
	flags []uint8
	group []uint32 // local page numbers

	// idOrder is the group pages (local numbers) in ID order, made once
	// (segIDOrder, idrank.go).
	idOrderOnce sync.Once
	idOrder     []uint32

	recOff []uint32 // n+1 offsets into rec; empty until attachRecords
	rec    []byte
	// recs is what record readers read: rec, until OpenSegments's
	// background work compresses it (recchunks.go) and drops rec.
	recs atomic.Pointer[recView]

	termDict
	postOff []uint32 // numTerms+1 offsets into post
	post    []byte   // per term: count, then (page delta, impact under avgLen) per page
	tfOff   []uint32 // numTerms+1 offsets into tfs
	tfs     []byte   // per term: each posting's term frequencies (appendTF), in post's order

	lenOff []uint32 // n+1 offsets into lens
	lens   []byte   // per page: its field lengths (encodeLens)
	// tfOffRaw and lenOffRaw are tfOff and lenOff as stored (putOffsets),
	// until loadFreqs decodes them.
	tfOffRaw, lenOffRaw []byte
	sum                 [numKinds][numFields]uint64
	cnt                 [numKinds][numFields]uint64 // pages of the kind whose field is not empty
	// impSum and impCnt are the statistics post's impacts were computed
	// under (the segment's own, or a generation's: Reweight), avgLen
	// their means.
	impSum, impCnt [numKinds][numFields]uint64
	avgLen         [numKinds][numFields]float32

	adjOff, adj []uint32  // group-level neighbours inside the segment, local, undirected
	adjOut      []byte    // bit j: adj[j] is the target of an edge from its list's page
	ext         []extLink // group-level links to pages outside it

	phraseHash, phrasePage []uint32 // see buildPhrases; local pages

	pure pureCaches // skip tables and group impacts of the stored postings

	freqMu    sync.Mutex // guards loadFreqs
	chunkOnce sync.Once  // chunkRecords

	// key is the stored segment's SegmentData.Key ("" when none), and
	// the dead fields what an index found dead in it under deadKey
	// (deadKnown): an index of the same dead pages reuses them without
	// asking Dead about every page, or reading the dead pages' lengths
	// (which a detached core no longer holds).
	key              string
	deadMu           sync.Mutex
	deadKnown        bool
	deadKey          string
	deadLocal        []bool // nil: none dead
	deadSum, deadCnt [numKinds][numFields]uint64
	deadPages        int

	hdrOnce sync.Once
	hdr     []uint32 // local file pages with a C or C++ header extension (headerPages)
	// detached: the segment no longer holds its term frequencies and page
	// lengths (detach), so it cannot be encoded again.
	detached bool
}

// ExtLink is an edge of a segment's page to a page outside the segment,
// by the target's ID; for neighbours it is undirected, between the two
// pages' group pages (for a symbol or doc section, its file: graph.ParseID).
type ExtLink struct {
	Page uint32 // a page of the segment's graph
	ID   string // the page it links to
}

// extLink is an ExtLink between group pages: the segment's local group
// page and the ID of the target's ("file:a.go", "module:pkg").
type extLink struct {
	page uint32
	id   string
}

// groupID is the ID of the group page of the page id names: a symbol's or
// doc section's file, else the page itself; false for an ID that is bad or
// names a memory.
func groupID(id string) (string, bool) {
	k, p, _, err := graph.ParseID(id)
	if err != nil {
		return "", false
	}
	switch k {
	case graph.KindSymbol, graph.KindDoc, graph.KindFile:
		return graph.FileID(p), true
	case graph.KindModule:
		return graph.ModuleID(p), true
	}
	return "", false
}

// buildExt reduces ext to sorted, distinct links between group pages.
func (sg *segment) buildExt(ext []ExtLink) {
	out := make([]extLink, 0, len(ext))
	for _, e := range ext {
		if int(e.Page) >= sg.n {
			continue
		}
		if id, ok := groupID(e.ID); ok {
			out = append(out, extLink{sg.group[e.Page], id})
		}
	}
	slices.SortFunc(out, func(a, b extLink) int { return cmp.Or(cmp.Compare(a.page, b.page), cmp.Compare(a.id, b.id)) })
	sg.ext = slices.Compact(out)
}

// BuildSegment encodes the ranking data of one segment: g holds only the
// segment's pages (file pages with their symbol and doc pages, or module
// pages) and the edges among them; ext lists its edges to pages outside
// it. The page records are not part of it: they are graph.EncodeText of g,
// stored beside it and given back to OpenSegments as SegmentData.Text.
// The name index of the segment is BuildNames(g).
func BuildSegment(g *graph.Graph, ext []ExtLink) ([]byte, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: nil graph", ErrBadIndex)
	}
	return buildSegment(g, ext, false).encode(false), nil
}

// SegmentData is one segment given to OpenSegments.
type SegmentData struct {
	// Engine is BuildSegment's bytes, aliased (they must not change while
	// the Index is in use) unless the segment's stored impacts stand: then
	// OpenSegments copies out what queries read (detach).
	Engine []byte
	// Text is the segment's page records as stored (graph.EncodeText of its
	// graph, the x/text form graph.DecodeText reads); aliased. It may be nil
	// when Engine holds its records (MarshalBinary's form).
	Text []byte
	// Dead reports a group page (a file, a module, or a page outside any
	// file) that is tombstoned, by its ID ("file:a.go", "module:pkg"): a
	// newer segment holds it, or it was removed. Its pages and those it
	// groups (a file's symbols and sections) are left out of every answer
	// and statistic. It is called once per group page at open; nil: none.
	Dead func(id string) bool
	// Key, when not empty, names the stored segment: two SegmentData of
	// the same Key hold the same bytes (graph.SegmentView.Key). DeadKey
	// names the set of its pages Dead reports (graph.SegmentView.DeadKey).
	// While an index opened with a Key is in use, OpenSegments reuses its
	// decoded data for the same Key instead of decoding Engine and Text,
	// which may then be nil (while that data is open), and asks Dead nothing
	// when DeadKey is the same too.
	Key, DeadKey string

	core *segCore // the reused data (OpenSegments)
}

// ErrStale is what OpenSegments returns when it reused a segment's data
// for a SegmentData without Engine that turned out not to serve the new
// index: open again with every segment's Engine and Text.
var ErrStale = errors.New("engine: reused segment data does not serve this index")

// segmentDecodes counts the segments decoded from stored bytes (tests).
var segmentDecodes atomic.Int64

// SegmentDecodes returns how many segments this process decoded from
// their stored bytes (OpenSegments, UnmarshalIndex); a segment reused
// from an open index is not counted. For tests and diagnostics.
func SegmentDecodes() int64 { return segmentDecodes.Load() }

// OpenSegments opens the segments as one Index, their pages numbered in
// the order given. It answers as an index built in one go over exactly
// their live pages would (scores equal up to float rounding). Data it
// cannot read is an ErrBadIndex.
func OpenSegments(segs []SegmentData) (*Index, error) {
	segs = slices.Clone(segs)
	for i := range segs {
		if segs[i].core == nil {
			segs[i].core = reusableCore(segs[i].Key, segs[i].DeadKey)
		}
		if segs[i].core == nil && segs[i].Engine == nil && segs[i].Key != "" {
			// Engine left out for reused data, but the index holding it is gone.
			return nil, fmt.Errorf("segment %d: %w", i, ErrStale)
		}
	}
	ix, err := openSegmentData(segs)
	if errors.Is(err, ErrStale) {
		for i := range segs {
			if segs[i].core != nil && segs[i].Engine == nil {
				return nil, err
			}
			segs[i].core = nil
		}
		ix, err = openSegmentData(segs)
	}
	if err == nil {
		// The group impacts held already in data this index reuses count
		// against its limit (groupImpLimit).
		for _, sg := range ix.segs {
			if _, held := sg.gimpMap(); held != nil {
				ix.gimpBytes.Add(held.Load())
			}
		}
	}
	return ix, err
}

// openSegmentData is OpenSegments with the reused data chosen: a
// SegmentData with core set reuses it, the others are decoded.
func openSegmentData(segs []SegmentData) (*Index, error) {
	out := make([]*segment, len(segs))
	for i, sd := range segs {
		if sd.core != nil {
			out[i] = &segment{segCore: sd.core}
			continue
		}
		sg, err := decodeSegment(sd.Engine)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", i, err)
		}
		if len(sg.recOff) == 0 {
			if err := sg.attachRecords(sd.Text); err != nil {
				return nil, fmt.Errorf("segment %d: %w", i, err)
			}
		}
		out[i] = sg
	}
	ix, err := openSegments(out)
	if err != nil {
		return nil, err
	}
	if err := ix.markDead(segs); err != nil {
		return nil, err
	}
	for i, sg := range ix.segs {
		if segs[i].core != nil {
			// Reused: it changes no more (another index reads it).
			if !sg.exact {
				if sg.detached {
					return nil, fmt.Errorf("segment %d: %w", i, ErrStale)
				}
				if err := sg.loadFreqs(); err != nil {
					return nil, fmt.Errorf("segment %d: %w", i, err)
				}
			}
			continue
		}
		if !sg.exact {
			if err := sg.loadFreqs(); err != nil {
				return nil, fmt.Errorf("segment %d: %w", i, err)
			}
		} else {
			sg.detach(ix.kind[sg.base:int(sg.base)+sg.n], ix.flags[sg.base:int(sg.base)+sg.n])
		}
		if segs[i].Key != "" {
			sg.key = segs[i].Key
			storeCore(sg.segCore)
		}
	}
	ix.fromSegments = true
	ix.settled, ix.warm = make(chan struct{}), make(chan struct{})
	go func() {
		// Nearly every query reads neighbours (the neighbour boost): the
		// lists build on another core while the first query scores text,
		// and so do the project words every query's name signal reads
		// (a walk of the path terms: ~50 ms at 100k files); then the
		// member records are compressed (recchunks.go). Once settled,
		// the group pages' IDs are ranked (idrank.go): that reads only
		// the group pages' records, kept apart from the stored bytes,
		// and the memory those held is not kept for it.
		// The neighbour lists and the project words on two cores: the
		// first query of a generation waits for both (an edit's at 100k
		// files: ~100 and ~50 ms of CPU).
		var words sync.WaitGroup
		words.Go(func() { ix.projectWords() })
		if !ix.ownNeighbours() {
			ix.adjOnce.Do(ix.buildAdj)
		}
		words.Wait()
		for _, sg := range ix.segs {
			sg.headKeys() // term lookups' keys (termheads.go)
		}
		chunkAll(ix.segs)
		close(ix.settled)
		ix.buildIDRanks()
		ix.warmFileFacts()
		// What the first question that reads them would compute: 11 ms
		// of CPU at 100k files ("error handling for a negative count"
		// asked first after Warm: 41 ms of CPU, asked again 21).
		ix.groupsContiguous()
		ix.isHeaderFile(0)
		ix.warmScratch()
		close(ix.warm)
	}()
	return ix, nil
}

// coreCache holds the decoded data of the segments open indexes use, by
// SegmentData.Key, weakly: the data goes when no index uses it.
var coreCache struct {
	mu sync.Mutex
	m  map[string]weak.Pointer[segCore]
}

// reusableCore returns the decoded data of the stored segment key that
// an open index uses, when it can serve an index whose dead pages in it
// are deadKey: the same dead pages, or data that still holds the page
// lengths marking others needs; else nil.
func reusableCore(key, deadKey string) *segCore {
	if key == "" {
		return nil
	}
	coreCache.mu.Lock()
	c := coreCache.m[key].Value()
	coreCache.mu.Unlock()
	if c == nil {
		return nil
	}
	c.deadMu.Lock()
	ok := c.deadKnown && c.deadKey == deadKey || !c.detached
	c.deadMu.Unlock()
	if !ok {
		return nil
	}
	return c
}

// storeCore makes c the data reused for its key, and forgets the data
// no index uses any more.
func storeCore(c *segCore) {
	coreCache.mu.Lock()
	defer coreCache.mu.Unlock()
	if coreCache.m == nil {
		coreCache.m = map[string]weak.Pointer[segCore]{}
	}
	for k, wp := range coreCache.m {
		if wp.Value() == nil {
			delete(coreCache.m, k)
		}
	}
	coreCache.m[c.key] = weak.Make(c)
}

// detach makes an exact segment independent of the bytes it was decoded
// from, keeping only what queries read: its term dictionary, postings and
// neighbour directions are copied out, and its page kinds and flags are
// the index's (kind, flags). Its term frequencies and page lengths, which
// only a segment whose impacts are recomputed reads (and markDead, done by
// now), are dropped. The stored bytes can then be freed: at 100,000 files
// they are 113 MB of engine blobs, of which queries read 69.
func (sg *segment) detach(kind, flags []uint8) {
	sg.termBlob = slices.Clone(sg.termBlob)
	sg.post = slices.Clone(sg.post)
	sg.adjOut = slices.Clone(sg.adjOut)
	sg.kind, sg.flags = kind, flags
	for i := range sg.ext {
		sg.ext[i].id = strings.Clone(sg.ext[i].id)
	}
	sg.tfOffRaw, sg.tfs, sg.lenOffRaw, sg.lens = nil, nil, nil, nil
	sg.tfOff, sg.lenOff = nil, nil
	sg.detached = true
}

// openSegments concatenates the segments' page arrays and sums their
// statistics, nothing dead.
func openSegments(segs []*segment) (*Index, error) {
	n := 0
	for _, sg := range segs {
		n += sg.n
	}
	if n > 1<<31 {
		return nil, fmt.Errorf("%w: %d pages", ErrBadIndex, n)
	}
	ix := &Index{n: n, live: n, segs: segs}
	if len(segs) == 1 {
		ix.kind, ix.flags, ix.group = segs[0].kind, segs[0].flags, segs[0].group
	} else {
		ix.kind, ix.flags, ix.group = make([]uint8, 0, n), make([]uint8, 0, n), make([]uint32, 0, n)
		for _, sg := range segs {
			base := uint32(len(ix.kind))
			ix.kind = append(ix.kind, sg.kind...)
			ix.flags = append(ix.flags, sg.flags...)
			for _, g := range sg.group {
				ix.group = append(ix.group, base+g)
			}
		}
	}
	base := uint32(0)
	for _, sg := range segs {
		sg.base = base
		base += uint32(sg.n)
		if sg.recs.Load() == nil { // not reused data, whose records readers read already
			sg.recs.Store(&recView{rec: sg.rec})
		}
	}
	ix.setAvgLen(nil, nil)
	return ix, nil
}

// meanLens is the mean length of each field per kind, 1 where no page
// has the field.
func meanLens(sum, cnt *[numKinds][numFields]uint64) (avg [numKinds][numFields]float32) {
	for k := range numKinds {
		for f := range numFields {
			avg[k][f] = 1
			if cnt[k][f] > 0 && sum[k][f] > 0 {
				avg[k][f] = float32(float64(sum[k][f]) / float64(cnt[k][f]))
			}
		}
	}
	return avg
}

// setAvgLen sets the mean field lengths from the segments' sums less the
// dead pages' lengths, subSum and subCnt (nil: none), and marks the
// segments whose stored impacts are exact.
func (ix *Index) setAvgLen(subSum, subCnt *[numKinds][numFields]uint64) {
	var sum, cnt [numKinds][numFields]uint64
	for _, sg := range ix.segs {
		for k := range numKinds {
			for f := range numFields {
				sum[k][f] += sg.sum[k][f]
				cnt[k][f] += sg.cnt[k][f]
			}
		}
	}
	if subSum != nil {
		for k := range numKinds {
			for f := range numFields {
				sum[k][f] -= min(sum[k][f], subSum[k][f])
				cnt[k][f] -= min(cnt[k][f], subCnt[k][f])
			}
		}
	}
	ix.avgLen = meanLens(&sum, &cnt)
	for _, sg := range ix.segs {
		sg.exact = sameMeans(sg, &ix.avgLen)
	}
}

// meansTolerance is how far (relative) an open index's mean field length
// may be from the one a segment's impacts were computed under for the
// stored impacts to stand. A full build computes every segment's under the
// generation's means (Reweight), so they are exact; an edit of one file
// among 100,000 moves the means by ~1e-7, so a segment keeps reading its
// stored impacts for hundreds of edits, and then about one posting in a
// few hundred differs by one quantization step (of impactQuantMax) from
// what recomputing would give. Past the tolerance the impacts are
// recomputed from the stored term frequencies when a query first needs
// a term (and cached).
const meansTolerance = 1e-4

// sameMeans reports whether the segment's impacts were computed under
// means within meansTolerance of avg wherever it has pages with the field:
// an impact reads only those (a field a posting holds is not empty on its
// page).
func sameMeans(sg *segment, avg *[numKinds][numFields]float32) bool {
	for k := range numKinds {
		for f := range numFields {
			if sg.cnt[k][f] == 0 {
				continue
			}
			a, b := float64(sg.avgLen[k][f]), float64(avg[k][f])
			if a != b && math.Abs(a-b) > meansTolerance*math.Max(a, b) {
				return false
			}
		}
	}
	return true
}

// markDead asks each segment's Dead about its group pages, marks them and
// the pages they group, and takes their lengths out of the means. A
// segment whose data another index marked under the same DeadKey reuses
// what that one found.
func (ix *Index) markDead(segs []SegmentData) error {
	any := false
	for _, sd := range segs {
		any = any || sd.Dead != nil
	}
	if !any {
		return nil
	}
	dead := make([]bool, ix.n)
	var subSum, subCnt [numKinds][numFields]uint64
	var lens [numFields]uint32
	for si, sd := range segs {
		sg := ix.segs[si]
		if sd.Dead == nil {
			continue
		}
		local := dead[sg.base : int(sg.base)+sg.n]
		if sd.Key != "" && sg.key == sd.Key {
			c := sg.segCore
			c.deadMu.Lock()
			known := c.deadKnown && c.deadKey == sd.DeadKey
			if known {
				copy(local, c.deadLocal)
				for k := range numKinds {
					for f := range numFields {
						subSum[k][f] += c.deadSum[k][f]
						subCnt[k][f] += c.deadCnt[k][f]
					}
				}
				if c.deadPages > 0 {
					sg.dead = local
					ix.live -= c.deadPages
				}
			}
			c.deadMu.Unlock()
			if known {
				continue
			}
		}
		var segSum, segCnt [numKinds][numFields]uint64
		nd := 0
		for i := range sg.n {
			if g := sg.group[i]; g == uint32(i) && sd.Dead(ix.id(sg.base+g)) {
				local[i] = true
			}
		}
		for i := range sg.n {
			if !local[i] && local[sg.group[i]] {
				local[i] = true
			}
		}
		for i := range sg.n {
			if !local[i] {
				continue
			}
			if nd == 0 {
				if sg.detached {
					return fmt.Errorf("segment %d: %w", si, ErrStale)
				}
				if err := sg.loadFreqs(); err != nil {
					return fmt.Errorf("segment %d: %w", si, err)
				}
			}
			nd++
			if !sg.pageLens(uint32(i), &lens) {
				return fmt.Errorf("%w: segment %d: page lengths", ErrBadIndex, si)
			}
			k := min(int(sg.kind[i]), numKinds-1)
			for f := range numFields {
				if lens[f] > 0 {
					segSum[k][f] += uint64(lens[f])
					segCnt[k][f]++
				}
			}
		}
		for k := range numKinds {
			for f := range numFields {
				subSum[k][f] += segSum[k][f]
				subCnt[k][f] += segCnt[k][f]
			}
		}
		if nd > 0 {
			sg.dead = local
			ix.live -= nd
		}
		if sd.Key != "" {
			c := sg.segCore
			c.deadMu.Lock()
			c.deadKnown, c.deadKey, c.deadPages = true, sd.DeadKey, nd
			c.deadSum, c.deadCnt = segSum, segCnt
			c.deadLocal = nil
			if nd > 0 {
				c.deadLocal = slices.Clone(local)
			}
			c.deadMu.Unlock()
		}
	}
	ix.dead = dead
	ix.setAvgLen(&subSum, &subCnt)
	return nil
}

// Pages is the number of live pages.
func (ix *Index) Pages() int { return ix.live }

// isDead reports whether global page p is dead.
func (ix *Index) isDead(p uint32) bool { return ix.dead != nil && ix.dead[p] }

// segOf returns the segment holding global page p, which must be < ix.n.
func (ix *Index) segOf(p uint32) *segment {
	if len(ix.segs) == 1 {
		return ix.segs[0]
	}
	i := sort.Search(len(ix.segs), func(i int) bool { return ix.segs[i].base > p }) - 1
	return ix.segs[max(0, i)]
}

// headerPages returns the segment's local file pages whose path has a
// C or C++ header extension (headerExts, any case), sorted; computed on
// first use from the group pages' records, which are never compressed.
func (sg *segment) headerPages() []uint32 {
	sg.hdrOnce.Do(func() {
		v := sg.recs.Load()
		for i := range uint32(sg.n) {
			if graph.Kind(sg.kind[i]) != graph.KindFile || sg.group[i] != i || int(i)+1 >= len(sg.recOff) {
				continue
			}
			var b []byte
			if v.chunks != nil {
				b = v.chunks.grp[v.chunks.grpOff[i]:v.chunks.grpOff[i+1]]
			} else {
				b = v.rec[sg.recOff[i]:sg.recOff[i+1]]
			}
			rr := recReader{b: b}
			if flags := rr.uint(); rr.bad || flags&recPath == 0 {
				continue
			}
			if p := rr.str(); !rr.bad && slices.Contains(headerExts, strings.ToLower(path.Ext(p))) {
				sg.hdr = append(sg.hdr, i)
			}
		}
	})
	return sg.hdr
}

// isHeaderFile reports whether global page p is a file page whose path
// has a C or C++ header extension, without decoding its path: on 100k
// files, the header demotion decoded the paths of every candidate (a quarter of
// a query's time) to find none. The header pages of all segments are
// a bitmap (a bit a page, made once; nil without headers): a search per
// candidate in its segment's list was 3% of moby's median query.
func (ix *Index) isHeaderFile(p uint32) bool {
	if int(p) >= ix.n {
		return false
	}
	ix.hdrOnce.Do(func() {
		for _, sg := range ix.segs {
			for _, i := range sg.headerPages() {
				if ix.hdrBits == nil {
					ix.hdrBits = make([]uint64, (ix.n+63)/64)
				}
				if g := sg.base + i; int(g) < ix.n {
					ix.hdrBits[g>>6] |= 1 << (g & 63)
				}
			}
		}
	})
	return ix.hdrBits != nil && ix.hdrBits[p>>6]&(1<<(p&63)) != 0
}

// --- term frequencies and field lengths ---

// appendTF encodes a posting's per-field term frequencies: a byte per
// field that holds the term, in field order, (more << 7 | field << 3 |
// min(tf-1, 7)), a uvarint of tf-8 after it when tf > 7; more is set on
// all but the last. Most postings are one byte.
func appendTF(b []byte, tf *[numFields]uint32) []byte {
	last := -1
	for f := range numFields {
		if tf[f] > 0 {
			last = int(f)
		}
	}
	for f := 0; f <= last; f++ {
		c := tf[f]
		if c == 0 {
			continue
		}
		h := byte(f) << 3
		if f != last {
			h |= 0x80
		}
		if c-1 < 7 {
			b = append(b, h|byte(c-1))
		} else {
			b = appendUvarint(append(b, h|7), uint64(c-8))
		}
	}
	return b
}

// tfLen is the length of the appendTF encoding at the start of b (as much
// of b as it can read).
func tfLen(b []byte) int {
	i := 0
	for i < len(b) {
		h := b[i]
		i++
		if h&7 == 7 {
			_, k := uvarint(b[i:])
			if k <= 0 {
				return len(b)
			}
			i += k
		}
		if h&0x80 == 0 {
			break
		}
	}
	return i
}

// decodeTF reads an appendTF encoding into tf (which must be zero) and
// returns its length, 0 when corrupt, and the last field it sets.
func decodeTF(b []byte, tf *[numFields]uint32) (int, field) {
	i := 0
	for i < len(b) {
		h := b[i]
		i++
		f := field(h >> 3 & 0xf)
		if f >= numFields {
			return 0, 0
		}
		c := uint64(h&7) + 1
		if h&7 == 7 {
			d, k := uvarint(b[i:])
			if k <= 0 || d > 1<<31 {
				return 0, 0
			}
			c, i = d+8, i+k
		}
		tf[f] = uint32(c)
		if h&0x80 == 0 {
			return i, f
		}
	}
	return 0, 0
}

// encodeLens writes each page's field lengths: a uvarint mask of the
// fields that are not empty, then their lengths (uvarints).
func encodeLens(lens [][numFields]uint32) (off []uint32, b []byte) {
	off = make([]uint32, 0, len(lens)+1)
	b = make([]byte, 0, 4*len(lens))
	for i := range lens {
		off = append(off, uint32(len(b)))
		mask := uint64(0)
		for f := range numFields {
			if lens[i][f] > 0 {
				mask |= 1 << f
			}
		}
		b = appendUvarint(b, mask)
		for f := range numFields {
			if lens[i][f] > 0 {
				b = appendUvarint(b, uint64(lens[i][f]))
			}
		}
	}
	return append(off, uint32(len(b))), b
}

// pageLens decodes local page p's field lengths; false when corrupt.
func (sg *segment) pageLens(p uint32, lens *[numFields]uint32) bool {
	return sg.pageLensTo(p, lens, numFields-1)
}

// pageLensTo is pageLens for the fields up to hi (the others left zero).
func (sg *segment) pageLensTo(p uint32, lens *[numFields]uint32, hi field) bool {
	*lens = [numFields]uint32{}
	if int(p)+1 >= len(sg.lenOff) {
		return false
	}
	b := sg.lens[sg.lenOff[p]:sg.lenOff[p+1]]
	mask, k := uvarint(b)
	if k <= 0 || mask >= 1<<numFields {
		return false
	}
	b = b[k:]
	for f := range hi + 1 {
		if mask&(1<<f) == 0 {
			continue
		}
		v, k := uvarint(b)
		if k <= 0 || v > 1<<31 {
			return false
		}
		lens[f], b = uint32(v), b[k:]
	}
	return true
}

// --- impacts ---

// termImpacts are one term's postings in a segment as a query reads them:
// its live pages, (local page delta uvarint, impact byte) pairs, and
// their number.
type termImpacts struct {
	df   int
	post []byte
}

// cacheMinPostings is the fewest postings whose impacts a segment keeps
// once computed; rarer terms cost less to recompute than to keep.
const cacheMinPostings = 8

// impacts returns term t's impacts in segment sg under the index's
// statistics.
func (ix *Index) impacts(sg *segment, t uint32) termImpacts {
	b := sg.post[sg.postOff[t]:sg.postOff[t+1]]
	cnt, k := uvarint(b)
	if k <= 0 {
		return termImpacts{}
	}
	b = b[k:]
	if sg.exact && sg.dead == nil {
		return termImpacts{df: int(cnt), post: b}
	}
	if v, ok := sg.cache.Load(t); ok {
		return v.(termImpacts)
	}
	if sg.exact {
		// The stored impacts stand: only the dead pages' postings go.
		ti := sg.liveImpacts(b, cnt)
		if cnt >= cacheMinPostings {
			sg.cache.Store(t, ti)
		}
		return ti
	}
	ti := sg.recompute(t, b, cnt, &ix.avgLen)
	if cnt >= cacheMinPostings {
		sg.cache.Store(t, ti)
	}
	return ti
}

// recompute returns term t's live postings (cnt stored ones in b) with
// impacts computed under the means avg from the stored term frequencies
// and page lengths; with avg nil, with the stored impacts (t unused).
func (sg *segment) recompute(t uint32, b []byte, cnt uint64, avg *[numKinds][numFields]float32) termImpacts {
	var tfb []byte
	if avg != nil {
		tfb = sg.tfs[sg.tfOff[t]:sg.tfOff[t+1]]
	}
	out := make([]byte, 0, len(b))
	var tf, lens [numFields]uint32
	df := 0
	last, lastLive := uint64(0), uint64(0)
	n := uint64(sg.n)
	for range cnt {
		d, k := uvarint(b)
		if k <= 0 || k >= len(b) {
			break
		}
		last += d
		if last >= n {
			break
		}
		imp := b[k] // the stored impact, under the segment's statistics
		b = b[k+1:]
		p := uint32(last)
		if avg != nil {
			tf = [numFields]uint32{}
			var hi field
			if k, hi = decodeTF(tfb, &tf); k == 0 {
				break
			}
			tfb = tfb[k:]
			if sg.dead != nil && sg.dead[p] || !sg.pageLensTo(p, &lens, hi) {
				continue
			}
			imp = max(1, impact(&tf, &lens, &avg[min(int(sg.kind[p]), numKinds-1)]))
		} else if sg.dead != nil && sg.dead[p] {
			continue
		}
		out = append(appendUvarint(out, last-lastLive), imp)
		lastLive = last
		df++
	}
	return termImpacts{df: df, post: out}
}

// liveImpacts is a term's stored postings (cnt of them, in b) without the
// dead pages', their impacts as stored.
func (sg *segment) liveImpacts(b []byte, cnt uint64) termImpacts {
	return sg.recompute(0, b, cnt, nil)
}

// termRef is a term found in one or more segments.
type termRef struct{ locs []termLoc }

type termLoc struct {
	seg int32
	id  uint32
}

// lookupTerm finds a term in every segment; false when none holds it.
func (ix *Index) lookupTerm(t string) (termRef, bool) {
	ref, _ := ix.lookupTermIn(t, nil)
	return ref, len(ref.locs) > 0
}

// lookupTermIn is lookupTerm appending the term's locations to buf (a
// question's terms share one), returned grown; with a nil buf the
// locations take one allocation of their size, not append's several.
func (ix *Index) lookupTermIn(t string, buf []termLoc) (termRef, []termLoc) {
	var own [8]termLoc
	locs := buf
	if locs == nil {
		locs = own[:0]
	}
	start := len(locs)
	for si, sg := range ix.segs {
		if id, ok := sg.lookupTerm(t); ok {
			locs = append(locs, termLoc{int32(si), id})
		}
	}
	found := locs[start:len(locs):len(locs)]
	switch {
	case len(found) == 0:
		return termRef{}, buf
	case buf == nil:
		return termRef{locs: slices.Clone(found)}, nil
	}
	return termRef{locs: found}, locs
}

// eachTermFrom calls fn with each segment's terms from the first not
// below prefix on, segment by segment, until fn returns false for one.
// ref is valid only during the call.
func (ix *Index) eachTermFrom(prefix string, fn func(ref termRef, term string) bool) {
	ref := termRef{locs: make([]termLoc, 1)}
	for si, sg := range ix.segs {
		sg.eachTermFrom(prefix, func(id uint32, term string) bool {
			ref.locs[0] = termLoc{int32(si), id}
			return fn(ref, term)
		})
	}
}

// df is the number of live pages holding the term.
func (ix *Index) df(ref termRef) int {
	n := 0
	for _, l := range ref.locs {
		sg := ix.segs[l.seg]
		if sg.dead == nil { // every posting counts
			if c, k := uvarint(sg.post[sg.postOff[l.id]:sg.postOff[l.id+1]]); k > 0 {
				n += int(c)
			}
			continue
		}
		n += ix.impacts(sg, l.id).df
	}
	return n
}

// postings decodes the term's live postings into global pages and
// impacts (appending), in page order.
func (ix *Index) postings(ref termRef, pages []uint32, imps []uint8) ([]uint32, []uint8) {
	for _, l := range ref.locs {
		sg := ix.segs[l.seg]
		b := ix.impacts(sg, l.id).post
		last := uint64(0)
		for len(b) > 0 {
			d, k := uvarint(b)
			if k <= 0 || k >= len(b) {
				break
			}
			last += d
			if last >= uint64(sg.n) {
				break
			}
			pages = append(pages, sg.base+uint32(last))
			imps = append(imps, b[k])
			b = b[k+1:]
		}
	}
	return pages, imps
}

// accumulate adds w×impact of the term's postings to the scratch scores,
// as postings followed by the accumulation loop would, without
// materialising the postings.
//
// With restrict, a page no earlier term scored is skipped unless its group
// page (its file) was scored: see the common-term rule in Query. With only
// set, a page whose group it does not mark is skipped (prune.go). It
// returns the number of postings decoded.
func (ix *Index) accumulate(ref termRef, w float64, restrict bool, only *prunePlan, s *scratch) (decoded int) {
	// tab[i] is float32(w×i), the contribution of impact i, computed once
	// a term rather than a posting (the same rounding, so the same sums).
	var tab [256]float32
	for i := range tab {
		tab[i] = float32(w * float64(i))
	}
	decoded, _ = ix.onHalves(ref.locs, s, func(locs []termLoc, touched []uint32) ([]uint32, int, int) {
		touched, n := ix.accumulateLocs(locs, &tab, restrict, only, s.score, touched)
		return touched, n, 0
	})
	return decoded
}

// accumulateLocs is accumulate over the segments of locs, appending the
// pages it scores first to touched.
func (ix *Index) accumulateLocs(locs []termLoc, tab *[256]float32, restrict bool, only *prunePlan, score []float32, touched []uint32) (_ []uint32, decoded int) {
	group := ix.group
	for _, l := range locs {
		sg := ix.segs[l.seg]
		b := ix.impacts(sg, l.id).post
		n, base := uint64(sg.n), sg.base
		last := uint64(0)
		for len(b) > 1 {
			var d uint64
			k := 1
			if b[0] < 0x80 { // one-byte delta, the common case
				d = uint64(b[0])
			} else if d, k = uvarint(b); k <= 0 || k >= len(b) {
				break
			}
			last += d
			if last >= n {
				break
			}
			p := base + uint32(last)
			decoded++
			imp := b[k]
			b = b[k+1:]
			if score[p] == 0 {
				if restrict && score[group[p]] == 0 || only != nil && !only.marked(group[p]) {
					continue
				}
				touched = append(touched, p)
			}
			score[p] += tab[imp]
		}
	}
	return touched, decoded
}

// --- neighbours ---

// neighbours returns global group page i's group-level neighbours.
func (ix *Index) neighbours(i uint32) []uint32 {
	if int(i) >= ix.n {
		return nil
	}
	if ix.ownNeighbours() {
		sg := ix.segs[0]
		return sg.adj[sg.adjOff[i]:sg.adjOff[i+1]]
	}
	ix.adjOnce.Do(ix.buildAdj)
	return ix.adj[ix.adjOff[i]:ix.adjOff[i+1]]
}

// ownNeighbours reports an index of one segment, nothing dead and no
// external link: its segment's neighbour lists are the index's.
func (ix *Index) ownNeighbours() bool {
	return len(ix.segs) == 1 && ix.dead == nil && len(ix.segs[0].ext) == 0
}

// buildAdj makes the global neighbour lists: each segment's own, and its
// external links resolved by ID to live group pages, undirected and
// deduplicated. A link from a dead page is dropped (its live copy holds
// its own); a link to a dead page goes to the live page of the same ID
// (the newer copy of the file it links to), or is dropped when there is
// none.
func (ix *Index) buildAdj() {
	// Live group pages by ID, as kind and path (aliasing index memory):
	// building the IDs cost a string each.
	type key struct {
		kind graph.Kind
		path string
	}
	var ids map[key]uint32
	needIDs := ix.dead != nil
	for _, sg := range ix.segs {
		needIDs = needIDs || len(sg.ext) > 0
	}
	if needIDs {
		// Sized first: grown from empty, the map's rehashing was a third
		// of buildAdj (100k files: 180k pages).
		idPage := func(p uint32) bool {
			k := graph.Kind(ix.kind[p])
			return ix.group[p] == p && (k == graph.KindFile || k == graph.KindModule) && !ix.isDead(p)
		}
		n := 0
		for p := range uint32(ix.n) {
			if idPage(p) {
				n++
			}
		}
		ids = make(map[key]uint32, n)
		for p := range uint32(ix.n) {
			if idPage(p) {
				ids[key{graph.Kind(ix.kind[p]), ix.path(p)}] = p
			}
		}
	}
	// resolve finds the live group page of an external link's ID, which
	// groupID made: "file:PATH" or "module:PATH".
	resolve := func(id string) (uint32, bool) {
		kind, p, _ := strings.Cut(id, ":")
		k := graph.KindFile
		if kind == "module" {
			k = graph.KindModule
		}
		g, ok := ids[key{k, p}]
		return g, ok
	}
	var pairs []uint64 // a<<32 | b
	for _, sg := range ix.segs {
		for a := range uint32(sg.n) {
			ga := sg.base + a
			if ix.isDead(ga) {
				continue
			}
			for j := sg.adjOff[a]; j < sg.adjOff[a+1]; j++ {
				if sg.adjOut[j/8]&(1<<(j%8)) == 0 {
					continue // the edge from the other page counts
				}
				gb := sg.base + sg.adj[j]
				if ix.isDead(gb) {
					var ok bool
					if gb, ok = ids[key{graph.Kind(ix.kind[gb]), ix.path(gb)}]; !ok || gb == ga {
						continue
					}
				}
				pairs = append(pairs, uint64(ga)<<32|uint64(gb), uint64(gb)<<32|uint64(ga))
			}
		}
		for _, e := range sg.ext {
			ga := sg.base + e.page
			gb, ok := resolve(e.id)
			if ix.isDead(ga) || !ok || gb == ga {
				continue
			}
			pairs = append(pairs, uint64(ga)<<32|uint64(gb), uint64(gb)<<32|uint64(ga))
		}
	}
	slices.Sort(pairs)
	pairs = slices.Compact(pairs)
	off := make([]uint32, ix.n+1)
	adj := make([]uint32, len(pairs))
	for i, p := range pairs {
		off[p>>32+1]++
		adj[i] = uint32(p)
	}
	for i := range ix.n {
		off[i+1] += off[i]
	}
	ix.adjOff, ix.adj = off, adj
}
