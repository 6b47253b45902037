package graph

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	err = w.setNames(&info, fs.g, fs.recs, fs.pieces, goMod)
	if err == nil {
		err = writeSegmentData(w, &info, fs.g, group, compressFacts(facts, cuts, small), fs.stats, fs.ext)
	}
	if err != nil {
		w.abort()
		return nil, info, NotWritable(dir, err)
	}
	return w, info, nil
}

// writeModulesSegment writes the module piece as segment id, with the
// doc candidates it was made from (docs).
func writeModulesSegment(dir string, id int, mods Piece, docs []docCandidate, extra SegmentFunc) (segInfo, error) {
	info := segInfo{ID: id, Kind: segModules}
	g := AssembleGraph(mods, nil)
	info.Pages = len(g.Pages)
	var blobs map[string][]byte
	if extra != nil {
		var err error
		if blobs, err = extra(g, nil); err != nil {
			return info, err
		}
	}
	w, err := newSegWriter(dir, id, len(g.Pages) < 2000)
	if err != nil {
		return info, NotWritable(dir, err)
	}
	err = writeSegmentData(w, &info, g, Groups(g), nil, nil, nil)
	if err == nil {
		err = w.setCompressedBlob(docsBlob, compress(encodeDocs(docs)))
	}
	return info, w.finish(err, blobs)
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
// segInfo.Langs and its qualified name), r/NAME the ordinals of the files
// whose references look NAME up (uvarint differences).
func (w *segWriter) setNames(info *segInfo, g *Graph, recs []*FileRecord, pieces []*segPiece, goMod string) error {
	ordinal := make(map[string]uint64, len(recs))
	for i, r := range recs {
		ordinal[r.Path] = uint64(i)
	}
	var langs strTable
	defs := map[string]*enc{}
	for i := range g.Pages {
		p := &g.Pages[i]
		if p.Kind != KindSymbol || p.Name == "" {
			continue
		}
		e := defs[p.Name]
		if e == nil {
			e = &enc{}
			defs[p.Name] = e
		}
		e.uint(ordinal[p.Path])
		l := langs.id(p.Lang) << 1
		if p.Local {
			l |= 1
		}
		e.uint(l)
		e.str(p.Qualified)
	}
	info.Langs = langs.strs
	// d/PATH: what a build must know of each file without decoding the
	// segment (fileSummary).
	for i, pc := range pieces {
		if err := w.set("d/"+pc.Path, encodeSummary(summarize(pc, recs[i]), &langs)); err != nil {
			return err
		}
	}
	info.Langs = langs.strs
	for name, e := range defs {
		if err := w.set("n/"+name, e.b); err != nil {
			return err
		}
	}
	refs := map[string]*enc{}
	last := map[string]uint64{}
	for i, r := range recs {
		if r.Facts == nil {
			continue
		}
		for _, name := range RefNames(r) {
			e := refs[name]
			if e == nil {
				e = &enc{}
				refs[name] = e
			}
			e.uint(uint64(i) - last[name])
			last[name] = uint64(i)
		}
	}
	for name, e := range refs {
		if err := w.set("r/"+name, e.b); err != nil {
			return err
		}
	}
	// i/KEY: the ordinals of the files whose imports ask KEY (ImportKeys).
	imps := map[string]*enc{}
	lastImp := map[string]uint64{}
	for i, r := range recs {
		if r.Facts == nil || len(r.Facts.Imports) == 0 {
			continue
		}
		for _, k := range ImportKeys(r, goMod) {
			e := imps[k]
			if e == nil {
				e = &enc{}
				imps[k] = e
			}
			e.uint(uint64(i) - lastImp[k])
			lastImp[k] = uint64(i)
		}
	}
	for k, e := range imps {
		if err := w.set("i/"+k, e.b); err != nil {
			return err
		}
	}
	return nil
}

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
