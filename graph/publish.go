package graph

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"unsafe"
)

// Segment sizes. A full build cuts the files, in path order, into
// segments of at most segMaxFiles files or segMaxBytes of source,
// preferring a cut where the directory changes, so that neighbours stay
// together; an incremental build writes the files it re-derived as one
// small segment (a delta). When more than maxDeltas deltas pile up, or a
// segment's dead files outnumber its live ones, the build merges them into
// one segment.
const (
	segFilesDefault = 2000
	segMaxBytes     = 24 << 20
	maxDeltas       = 8
)

// segMaxFiles is the most files a full segment holds: segFilesDefault,
// unless the environment variable WIKITOOLKIT_SEGMENT_FILES (a test hook,
// like WIKITOOLKIT_CRASH_AT, read at each call) sets a smaller positive
// number, so that tests spread a small tree over several segments and make
// merges happen within a few builds. A delta is a segment of fewer than
// segMaxFiles()/8 files.
func segMaxFiles() int {
	if n, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_SEGMENT_FILES")); err == nil && n > 0 && n < segFilesDefault {
		return n
	}
	return segFilesDefault
}

// cutSegments groups pieces (in path order) into runs for full segments.
func cutSegments(pieces []*segPiece) [][]*segPiece {
	var out [][]*segPiece
	for _, r := range cutRuns(len(pieces), func(i int) (int64, string) {
		var size int64
		if pieces[i].rec != nil {
			size = pieces[i].rec.Size
		}
		return size, pieces[i].Pages[0].Path
	}) {
		out = append(out, pieces[r[0]:r[1]])
	}
	return out
}

// cutRecords groups records (in path order) as cutSegments groups their
// pieces.
func cutRecords(recs []*FileRecord) [][]*FileRecord {
	var out [][]*FileRecord
	for _, r := range cutRuns(len(recs), func(i int) (int64, string) { return recs[i].Size, recs[i].Path }) {
		out = append(out, recs[r[0]:r[1]])
	}
	return out
}

// cutRuns cuts n files (in path order; file i's size and path) into the
// runs of full segments: [lo, hi) index ranges.
func cutRuns(n int, file func(i int) (int64, string)) [][2]int {
	var out [][2]int
	lo := 0
	var bytes int64
	segMaxFiles := segMaxFiles()
	for i := range n {
		size, path := file(i)
		bytes += size
		k := i + 1 - lo
		full := k >= segMaxFiles || bytes >= segMaxBytes
		// Past three quarters of a segment, cut where the directory changes.
		soft := false
		if (k >= segMaxFiles*3/4 || bytes >= segMaxBytes*3/4) && i+1 < n {
			_, nextPath := file(i + 1)
			soft = dirOf(nextPath) != dirOf(path)
		}
		if full || soft {
			out = append(out, [2]int{lo, i + 1})
			lo, bytes = i+1, 0
		}
	}
	if lo < n {
		out = append(out, [2]int{lo, n})
	}
	return out
}

// writeFileSegment writes pieces (in path order) as segment id.
func writeFileSegment(dir string, id int, pieces []*segPiece, small bool, extra SegmentFunc, goMod string) (segInfo, error) {
	fs, err := prepareFileSegment(id, pieces)
	if err != nil {
		return fs.info, err
	}
	var blobs map[string][]byte
	if extra != nil {
		if blobs, err = extra(fs.g, fs.links()); err != nil {
			return fs.info, err
		}
	}
	return fs.write(dir, small, blobs, goMod)
}

// fileSeg is a file segment laid out, not yet written: its pages and the
// edges among them (g), its other edges (ext), its files' records and
// stats.
type fileSeg struct {
	info   segInfo
	pieces []*segPiece
	g      *Graph
	ext    []extEdge
	recs   []*FileRecord
	stats  []FileStat
	sums   []fileSummary // summarize's of pieces, or nil
}

// prepareFileSegment lays pieces (in path order) out as segment id.
func prepareFileSegment(id int, pieces []*segPiece) (*fileSeg, error) {
	fs := &fileSeg{info: segInfo{ID: id, Kind: segFiles, Files: len(pieces)}, pieces: pieces}
	// The pages and edges are counted first: appended to slices grown by
	// doubling, a moby run's pages cost 2.5 times their size (33 MB of the
	// full build's 711 MB allocated, in the tail's heap).
	np, ne := 0, 0
	for _, pc := range pieces {
		np += len(pc.Pages)
		ne += len(pc.Edges)
	}
	pages := make([]Page, 0, np)
	start := make([]uint32, len(pieces))
	for i, pc := range pieces {
		start[i] = uint32(len(pages))
		pages = append(pages, pc.Pages...)
	}
	byID := make(map[string]uint32, len(pages))
	for i := range pages {
		byID[pages[i].ID] = uint32(i)
	}
	edges := make([]Edge, 0, ne)
	var ext []extEdge
	for i, pc := range pieces {
		for _, e := range pc.Edges {
			if e.From == FromModule {
				ext = append(ext, extEdge{Local: start[i], ID: ModuleID(dirOf(pc.Path)), Type: e.Type})
				continue
			}
			from := start[i] + e.From
			if t, ok := byID[e.To]; ok {
				edges = append(edges, Edge{From: from, To: t, Type: e.Type, Attr: e.Attr})
			} else {
				ext = append(ext, extEdge{Local: from, ID: e.To, Type: e.Type, Attr: e.Attr, Out: true})
			}
		}
	}
	slices.SortStableFunc(ext, func(a, b extEdge) int { return int(a.Local) - int(b.Local) })
	fs.g, fs.ext = newGraphIndexed(pages, edges, byID), ext
	fs.info.Pages = len(fs.g.Pages)
	fs.recs = make([]*FileRecord, len(pieces))
	fs.stats = make([]FileStat, len(pieces))
	for i, pc := range pieces {
		r := pc.rec
		if r == nil {
			return fs, fmt.Errorf("segment %d: no record for %s", id, pc.Pages[0].Path)
		}
		fs.recs[i] = r
		fs.stats[i] = FileStat{Path: r.Path, Size: r.Size, ModTime: r.ModTime, Hash: r.Hash}
		fs.info.Bytes += r.Size
	}
	return fs, nil
}

// links are the segment's edges to other segments, as a SegmentFunc takes them.
func (fs *fileSeg) links() []ExtLink {
	links := make([]ExtLink, 0, len(fs.ext))
	for _, x := range fs.ext {
		if !x.Attr.Loose() { // loose references are no neighbours
			links = append(links, ExtLink{Page: x.Local, ID: x.ID})
		}
	}
	return links
}

// write writes the segment with blobs (a SegmentFunc's).
func (fs *fileSeg) write(dir string, small bool, blobs map[string][]byte, goMod string) (segInfo, error) {
	w, info, err := fs.encode(dir, small, goMod)
	if err != nil {
		return info, err
	}
	return info, w.finish(nil, blobs)
}

// encode lays out every key of the segment but the blobs of a SegmentFunc
// in a writer (nothing is committed): the segment's pages, records and
// pieces are not needed by the writer's finish.
func (fs *fileSeg) encode(dir string, small bool, goMod string) (*segWriter, segInfo, error) {
	info := fs.info
	group := Groups(fs.g)
	facts, cuts := encodeFactsBlob(fs.recs)
	w, err := newSegWriter(dir, info.ID, small)
	if err != nil {
		return nil, info, NotWritable(dir, err)
	}
	w.fast = small
	err = w.setNames(&info, fs.g, fs.recs, fs.pieces, fs.sums, goMod)
	if err == nil {
		err = writeSegmentData(w, &info, fs.g, group, compressFacts(facts, cuts, small), fs.stats, fs.ext)
	}
	if err != nil {
		w.abort()
		return nil, info, NotWritable(dir, err)
	}
	return w, info, nil
}

// writeModulesSegment writes a module shard as segment id: its pages,
// the edges among them, its edges to other shards' pages (x/ext) and
// the doc candidates of its directories.
func writeModulesSegment(dir string, id int, sh modShard, extra SegmentFunc) (segInfo, error) {
	info := segInfo{ID: id, Kind: segModules}
	g := AssembleGraph(sh.pc, nil) // drops the edges to other shards
	var ext []extEdge
	var links []ExtLink
	for _, e := range sh.pc.Edges {
		if _, in := g.Lookup(e.To); !in {
			ext = append(ext, extEdge{Local: e.From, ID: e.To, Type: e.Type, Attr: e.Attr, Out: true})
			links = append(links, ExtLink{Page: e.From, ID: e.To})
		}
	}
	info.Pages = len(g.Pages)
	var blobs map[string][]byte
	if extra != nil {
		var err error
		if blobs, err = extra(g, links); err != nil {
			return info, err
		}
	}
	w, err := newSegWriter(dir, id, len(g.Pages) < 2000)
	if err != nil {
		return info, NotWritable(dir, err)
	}
	err = writeSegmentData(w, &info, g, Groups(g), nil, nil, ext)
	if err == nil {
		err = w.setCompressedBlob(docsBlob, compress(encodeDocs(sh.docs)))
	}
	return info, w.finish(err, blobs)
}

// shardEntries numbers shards id, id+1, ...: their manifest entries.
func shardEntries(id int, shards []modShard) []manifestSeg {
	out := make([]manifestSeg, len(shards))
	for k, sh := range shards {
		out[k] = manifestSeg{ID: id + k, Kind: segModules, From: sh.from}
	}
	return out
}

// writeModuleShards writes each shard as the segment its entry names,
// two at a time (Badger syncs a folder on every open and close).
func writeModuleShards(dir string, ents []manifestSeg, shards []modShard, extra SegmentFunc) error {
	return twoAtATime(len(shards), func(k int) error {
		_, err := writeModulesSegment(dir, ents[k].ID, shards[k], extra)
		return err
	})
}

func writeSegmentData(w *segWriter, info *segInfo, g *Graph, group []uint32, facts []byte, stats []FileStat, ext []extEdge) error {
	js, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := w.set("m/seg", js); err != nil {
		return err
	}
	if facts != nil {
		if err := w.setCompressedBlob(factsBlob, facts); err != nil {
			return err
		}
		if err := w.setStats(stats); err != nil {
			return err
		}
	}
	gb, cuts := encodeGraph(g, group)
	if err := w.setCompressedBlob(graphBlob, compressPartsFor(gb, cuts, w.fast)); err != nil {
		return err
	}
	text, cut := textBlobCut(EncodeText(g, group))
	var ct []byte
	if w.fast {
		ct = compressFor(text, true)
	} else {
		ct = compressParts(text, []int{cut})
	}
	if err := w.setCompressedBlob(TextBlob, ct); err != nil {
		return err
	}
	if len(ext) > 0 {
		if err := w.setCompressedBlob(extBlob, compressFor(encodeExt(ext), w.fast)); err != nil {
			return err
		}
	}
	return nil
}

// setNames writes the segment's name keys, so that an incremental build
// finds the definitions of a name and the files that look it up without
// reading whole segments: n/NAME lists the symbol pages named NAME (each
// its file's ordinal in the segment, its language's number in
// segInfo.Langs and its qualified name as appendQual writes it beside
// NAME), r/NAME the ordinals of the files
// whose references look NAME up (uvarint differences). sums, unless nil,
// are summarize's of pieces (a full build has made them already).
//
// The lists of a key are chained in flat arrays (keyLists) and written
// into one buffer, their keys into another: a map, an enc and a key
// string per name, each file's sorted RefNames and a map per file for
// its ImportKeys were moby's 0.16 s of a build's CPU; this is 0.08 s.
func (w *segWriter) setNames(info *segInfo, g *Graph, recs []*FileRecord, pieces []*segPiece, sums []fileSummary, goMod string) error {
	ordinal := make(map[string]uint64, len(recs))
	for i, r := range recs {
		ordinal[r.Path] = uint64(i)
	}
	var langs strTable
	var defs keyLists
	defs.init(len(g.Pages), len(g.Pages))
	type defEnt struct {
		ord, lang uint64
		qual      string
	}
	ents := make([]defEnt, 0, len(g.Pages))
	lastPath, lastOrd := "", uint64(0)
	lastLang, lastLangID := "", uint64(0)
	for i := range g.Pages {
		p := &g.Pages[i]
		if p.Kind != KindSymbol || p.Name == "" {
			continue
		}
		// The pages of a file are together, all of one language: one
		// lookup each per file.
		if p.Path != lastPath {
			lastPath, lastOrd = p.Path, ordinal[p.Path]
		}
		if p.Lang != lastLang || len(langs.strs) == 0 {
			lastLang, lastLangID = p.Lang, langs.id(p.Lang)
		}
		l := lastLangID << 1
		if p.Local {
			l |= 1
		}
		defs.add(defs.key(p.Name), len(ents))
		ents = append(ents, defEnt{lastOrd, l, p.Qualified})
	}
	info.Langs = langs.strs
	keys := newKeyArena()
	w.kvs = slices.Grow(w.kvs, len(pieces)+len(defs.keys))
	// d/PATH: what a build must know of each file without decoding the
	// segment (fileSummary).
	for i, pc := range pieces {
		var s fileSummary
		if sums != nil {
			s = sums[i]
		} else {
			s = summarize(pc, recs[i])
		}
		if err := w.set(keys.key("d/", pc.Path), encodeSummary(s, &langs)); err != nil {
			return err
		}
	}
	info.Langs = langs.strs
	size := 0
	for _, e := range ents {
		size += uvarintLen(e.ord) + uvarintLen(e.lang) + uvarintLen(uint64(len(e.qual))) + len(e.qual)
	}
	vals := make([]byte, 0, size)
	for k, name := range defs.keys {
		lo := len(vals)
		for x := defs.first[k]; x >= 0; x = defs.next[x] {
			e := &ents[defs.val[x]]
			vals = binary.AppendUvarint(vals, e.ord)
			vals = binary.AppendUvarint(vals, e.lang)
			vals = appendQual(vals, e.qual, name)
		}
		if err := w.set(keys.key("n/", name), vals[lo:len(vals):len(vals)]); err != nil {
			return err
		}
	}
	// A run's files look up about as many names as they define, and
	// half their references repeat a name of the same file.
	nrefs := 0
	for _, r := range recs {
		if r.Facts != nil {
			nrefs += len(r.Facts.Refs)
		}
	}
	var refs keyLists
	refs.init(len(defs.keys), nrefs/2)
	for i, r := range recs {
		if r.Facts == nil {
			continue
		}
		prev := ""
		for j := range r.Facts.Refs {
			name := r.Facts.Refs[j].Name
			if name == prev && j > 0 {
				continue
			}
			prev = name
			refs.addOrd(refs.key(name), i)
		}
	}
	if err := refs.set(w, &keys, "r/"); err != nil {
		return err
	}
	// i/KEY: the ordinals of the files whose imports ask KEY (ImportKeys).
	var imps keyLists
	imps.init(len(recs), 2*len(recs))
	ask := &keyAsker{goModule: goMod, l: &imps}
	for i, r := range recs {
		if r.Facts == nil || len(r.Facts.Imports) == 0 {
			continue
		}
		ask.ord = i
		for _, im := range r.Facts.Imports {
			resolveImport(ask, r, im.Path)
		}
	}
	return imps.set(w, &keys, "i/")
}

// keyLists holds, per key (a name, an import key), a list of ints in the
// order added, chained through flat arrays rather than a slice per key.
type keyLists struct {
	idx         map[string]int32
	keys        []string
	first, tail []int32 // per key: its first and last entry
	last        []int   // per key: the value added last (addOrd)
	val         []int   // per entry
	next        []int32 // per entry: the key's next, or -1
}

// init sizes l for about keys keys and vals values.
func (l *keyLists) init(keys, vals int) {
	l.idx = make(map[string]int32, keys)
	l.keys = make([]string, 0, keys)
	l.first = make([]int32, 0, keys)
	l.tail = make([]int32, 0, keys)
	l.last = make([]int, 0, keys)
	l.val = make([]int, 0, vals)
	l.next = make([]int32, 0, vals)
}

// key returns the number of key s, which must not change (not a buffer
// reused).
func (l *keyLists) key(s string) int32 {
	k, ok := l.idx[s]
	if !ok {
		k = l.newKey(s)
	}
	return k
}

// keyBytes is key for the bytes of b, copied when new.
func (l *keyLists) keyBytes(b []byte) int32 {
	k, ok := l.idx[string(b)] // no copy made to look up
	if !ok {
		k = l.newKey(string(b))
	}
	return k
}

func (l *keyLists) newKey(s string) int32 {
	k := int32(len(l.keys))
	l.idx[s] = k
	l.keys = append(l.keys, s)
	l.first = append(l.first, -1)
	l.tail = append(l.tail, -1)
	l.last = append(l.last, -1)
	return k
}

// add appends v to key k's list.
func (l *keyLists) add(k int32, v int) {
	x := int32(len(l.val))
	l.val = append(l.val, v)
	l.next = append(l.next, -1)
	if t := l.tail[k]; t >= 0 {
		l.next[t] = x
	} else {
		l.first[k] = x
	}
	l.tail[k] = x
	l.last[k] = v
}

// addOrd adds file ordinal ord to key k's list unless it is there already
// (the ordinals are added in ascending order).
func (l *keyLists) addOrd(k int32, ord int) {
	if l.last[k] != ord {
		l.add(k, ord)
	}
}

// set writes each key's list of ordinals (uvarint differences) as
// prefix+key.
func (l *keyLists) set(w *segWriter, keys *keyArena, prefix string) error {
	size := 0
	for k := range l.keys {
		prev := 0
		for x := l.first[k]; x >= 0; x = l.next[x] {
			size += uvarintLen(uint64(l.val[x] - prev))
			prev = l.val[x]
		}
	}
	vals := make([]byte, 0, size)
	w.kvs = slices.Grow(w.kvs, len(l.keys))
	for k, key := range l.keys {
		lo, prev := len(vals), 0
		for x := l.first[k]; x >= 0; x = l.next[x] {
			vals = binary.AppendUvarint(vals, uint64(l.val[x]-prev))
			prev = l.val[x]
		}
		if err := w.set(keys.key(prefix, key), vals[lo:len(vals):len(vals)]); err != nil {
			return err
		}
	}
	return nil
}

// keyAsker is a World with no files and no definitions that adds the
// import keys it is asked (ImportKeys') to the file ord's in l.
type keyAsker struct {
	goModule string
	l        *keyLists
	ord      int
	buf      []byte
}

func (k *keyAsker) ask(prefix, s string) {
	k.buf = append(append(k.buf[:0], prefix...), s...)
	k.l.addOrd(k.l.keyBytes(k.buf), k.ord)
}

func (k *keyAsker) Defs(string) []DefInfo                 { return nil }
func (k *keyAsker) HasFile(p string) bool                 { k.ask(keyFile, p); return false }
func (k *keyAsker) HasDir(d string) bool                  { k.ask(keyDir, d); return false }
func (k *keyAsker) FileWithSuffix(s string) (string, int) { k.ask(keyFileSfx, s); return "", 0 }
func (k *keyAsker) DirWithSuffix(s string) (string, bool) { k.ask(keyDirSfx, s); return "", false }
func (k *keyAsker) GoModule() string                      { k.ask(keyGoMod, ""); return k.goModule }

// keyArena makes key strings in shared blocks: a segment's keys stay
// together until its writer commits.
type keyArena struct{ b []byte }

func newKeyArena() keyArena { return keyArena{} }

// key returns prefix+s.
func (a *keyArena) key(prefix, s string) string {
	n := len(prefix) + len(s)
	if cap(a.b)-len(a.b) < n {
		a.b = make([]byte, 0, max(n, 64<<10))
	}
	lo := len(a.b)
	a.b = append(append(a.b, prefix...), s...)
	return unsafe.String(&a.b[lo], n)
}

// uvarintLen is the length of v's uvarint.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// nextSegmentID returns a segment number above every one present or named
// by the live generation.
func nextSegmentID(dir string, prev *Snapshot) int {
	next := 1
	if ids := segmentIDs(dir); len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	if prev != nil {
		for _, ms := range prev.man.Segments {
			next = max(next, ms.ID+1)
		}
	}
	return next
}

// commitGeneration writes generation n's manifest and seal and makes it
// live. Its segments are committed (synced) already. Crash points:
// manifest-*, seal-*, gen-dir-synced, current-*.
func commitGeneration(dir string, n int, m manifest) error {
	gd := genDir(dir, n)
	if err := os.RemoveAll(gd); err != nil {
		return err
	}
	if err := os.MkdirAll(gd, 0o755); err != nil {
		return err
	}
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(gd, manifestName), js, "manifest"); err != nil {
		return err
	}
	if err := writeSeal(gd, "seal"); err != nil {
		return err
	}
	if err := syncDir(filepath.Join(dir, "gen")); err != nil {
		return err
	}
	crashPoint("gen", "dir-synced")
	return writeFileAtomic(filepath.Join(dir, "CURRENT"), []byte(strconv.Itoa(n)+"\n"), "current")
}

// piecesEqual reports whether two pieces of the same file carry the same
// pages and edges.
func piecesEqual(a, b *segPiece) bool {
	if len(a.Pages) != len(b.Pages) || len(a.Edges) != len(b.Edges) {
		return false
	}
	for i := range a.Pages {
		if !pageEqual(&a.Pages[i], &b.Pages[i]) {
			return false
		}
	}
	ea, eb := slices.Clone(a.Edges), slices.Clone(b.Edges)
	slices.SortFunc(ea, comparePieceEdge)
	slices.SortFunc(eb, comparePieceEdge)
	return slices.Equal(ea, eb)
}

func pageEqual(a, b *Page) bool {
	return a.ID == b.ID && a.Kind == b.Kind && a.Title == b.Title && a.Name == b.Name && a.Qualified == b.Qualified &&
		a.Path == b.Path && a.Line == b.Line && a.EndLine == b.EndLine && a.Lang == b.Lang && a.Doc == b.Doc &&
		a.SymKind == b.SymKind && a.Test == b.Test && a.Hash == b.Hash && a.BodyHash == b.BodyHash &&
		slices.Equal(a.Idents, b.Idents) && slices.Equal(a.Literals, b.Literals)
}

func modsEqual(a, b Piece) bool {
	if len(a.Pages) != len(b.Pages) || !slices.Equal(a.Edges, b.Edges) {
		return false
	}
	for i := range a.Pages {
		if !pageEqual(&a.Pages[i], &b.Pages[i]) {
			return false
		}
	}
	return true
}

// finish stores the blobs and commits the segment unless err (an earlier
// write's failure); on any failure it drops the segment. Errors say the
// index is not writable.
func (w *segWriter) finish(err error, blobs map[string][]byte) error {
	return w.finishCompressed(err, compressAll(blobs, w.fast))
}

// finishCompressed is finish with the blobs compressed already
// (compressAll's).
func (w *segWriter) finishCompressed(err error, blobs map[string][]byte) error {
	for name, b := range blobs {
		if err == nil {
			err = w.setCompressedBlob(name, b)
		}
	}
	if err == nil {
		err = w.commit()
	} else {
		w.abort()
	}
	if err != nil {
		return NotWritable(w.dir, err)
	}
	return nil
}
