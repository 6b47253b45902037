package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"golang.org/x/sys/unix"
)

// manifestName is the file of a generation folder that names its segments.
const manifestName = "MANIFEST"

// manifest is a generation: the build that made it and the segments it is
// made of, each with the files of it that later segments replaced or the
// repository lost (tombstones).
type manifest struct {
	Info     BuildInfo     `json:"info"`
	Segments []manifestSeg `json:"segments"`
	// Touched holds the new modification times of files whose content
	// did not change (a touch, a checkout of the same bytes), so that the
	// next build does not read them again; merges fold them in.
	Touched map[string]int64 `json:"touched,omitempty"`
	// GoModule is the module path of the root's go.mod the generation
	// was resolved with.
	GoModule *string `json:"go_module,omitempty"`
}

type manifestSeg struct {
	ID   int      `json:"id"`
	Kind string   `json:"kind"`
	Dead []string `json:"dead,omitempty"` // sorted
	// From is the first directory a modules segment holds (modshard.go):
	// "" for the first, and for an index written before modules were
	// cut into shards.
	From string `json:"from,omitempty"`
}

// Snapshot is one generation opened read-only: its manifest and every
// segment it names. It is safe for concurrent use; Close it when done (its
// segments hold shared locks that keep them from being deleted).
type Snapshot struct {
	Dir        string // the index directory
	Generation int
	info       BuildInfo
	man        manifest
	segs       []*segment   // in manifest order
	pending    []pendingSeg // not opened yet (openGenerationLazy)
	opened     []*segment   // of pending, those segmentAt opened alone (nil: not yet)
	openMu     sync.Mutex
	genSeal    []sealFile // the manifest's seal, and how its files looked
	genSeen    []fileID

	verifyMu sync.Mutex
	damage   *DamagedError
	watch    *verifyWatch // nil: none (yet, or none to be had: watchTried)
	watched  []*segment   // the segments watch watches the folders of
	watchTry bool

	graphOnce sync.Once
	graph     *Graph
	graphErr  error
	statOnce  sync.Once
	stats     []FileStat
	statErr   error
	fromTable bool      // stats came from the stat table (stattable.go)
	statBase  *statBase // the stat table read, for the next build's delta

	viewOnce sync.Once // page views (view.go)
	view     *snapView
	viewErr  error
}

// ErrOtherVersion is matched (errors.Is) by the error of opening an index
// written by a version of wikitoolkit that stores it otherwise
// (FormatVersion); a build rebuilds it in full.
var ErrOtherVersion = errors.New("the index was written by another version of wikitoolkit")

// OpenSnapshot opens the live generation of the index directory dir
// read-only. It returns ErrNoIndex when nothing was built yet. A build that
// replaces CURRENT concurrently is harmless: the open retries with the new
// generation.
func OpenSnapshot(dir string) (*Snapshot, error) {
	var lastErr error
	for attempt := 0; attempt < 20; attempt++ {
		n, err := CurrentGeneration(dir)
		if err != nil {
			return nil, err
		}
		s, err := openGeneration(dir, n)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if m, _ := CurrentGeneration(dir); m == n {
			if errors.Is(err, ErrOtherVersion) {
				return nil, fmt.Errorf("open index %s: %w (run `wikitoolkit build` to rebuild it)", dir, err)
			}
			// Same generation and still failing: not a race with a build
			// (which never touches what CURRENT names).
			if attempt >= 3 || errors.Is(err, ErrDamaged) {
				break
			}
		}
		time.Sleep(time.Duration(attempt+1) * 10 * time.Millisecond)
	}
	if errors.Is(lastErr, ErrDamaged) {
		return nil, lastErr
	}
	return nil, fmt.Errorf("open index %s: %w (run `wikitoolkit build --full` to rebuild it)", dir, lastErr)
}

// readManifest reads and checks generation n's manifest.
func readManifest(dir string, n int) (manifest, error) {
	m, _, _, err := readManifestSealed(dir, n)
	return m, err
}

func readManifestSealed(dir string, n int) (manifest, []sealFile, []fileID, error) {
	gd := genDir(dir, n)
	var m manifest
	seal, seen, err := verifySeal(dir, gd)
	if err != nil {
		return m, nil, nil, err
	}
	b, err := os.ReadFile(filepath.Join(gd, manifestName))
	if err != nil {
		return m, nil, nil, damaged(dir, "cannot read %s: %v", relIndex(dir, filepath.Join(gd, manifestName)), err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, nil, nil, damaged(dir, "%s is unreadable (%v)", relIndex(dir, filepath.Join(gd, manifestName)), err)
	}
	return m, seal, seen, nil
}

func openGeneration(dir string, n int) (*Snapshot, error) {
	s, err := openGenerationLazy(dir, n)
	if err != nil {
		return nil, err
	}
	if want := fmt.Sprintf("graph%d/", FormatVersion); !strings.HasPrefix(s.info.Format, want) {
		// Its keys are not this version's to read (a build rebuilds it in
		// full: buildFrom).
		return nil, fmt.Errorf("%w: it is %q, this version reads %s…", ErrOtherVersion, s.info.Format, want)
	}
	if err := s.openSegments(); err != nil {
		return nil, err
	}
	return s, nil
}

// openGenerationLazy reads generation n's manifest and checks the seal of
// every segment it names (so that damage is found as by openGeneration),
// but opens their databases only when first asked (openSegments): a build
// that finds nothing changed needs none of them (its stats come from the
// stat table), and at 100k files opening 71 of them cost 30 ms.
func openGenerationLazy(dir string, n int) (*Snapshot, error) {
	m, seal, seen, err := readManifestSealed(dir, n)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: dir, Generation: n, man: m, info: m.Info, genSeal: seal, genSeen: seen}
	cache := loadSealCache(dir)
	for _, ms := range m.Segments {
		// Badger panics on a truncated or scribbled table, on goroutines
		// of its own where no recover reaches: the seal is checked before
		// Badger reads.
		sseal, sseen, err := cache.verify(segDir(dir, ms.ID))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, damaged(dir, "segment %d of generation %d is missing", ms.ID, n)
			}
			return nil, err
		}
		s.pending = append(s.pending, pendingSeg{ms: ms, seal: sseal, seen: sseen})
	}
	cache.save()
	s.info = overlayLastBuild(dir, n, s.info)
	return s, nil
}

// pendingSeg is a segment of a lazily opened generation, its seal checked.
type pendingSeg struct {
	ms   manifestSeg
	seal []sealFile
	seen []fileID
}

// openSegments opens the databases of the segments openGenerationLazy left
// closed (none left: nothing to do).
func (s *Snapshot) openSegments() error {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if s.pending == nil {
		return nil
	}
	// A few at a time: an open mostly waits (Badger reads its manifest
	// and syncs the folder), 3 ms each for the 71 segments of 100k files.
	segs := make([]*segment, len(s.pending))
	errs := make([]error, len(s.pending))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(4, len(s.pending)) {
		wg.Go(func() {
			for i := range next {
				ps := s.pending[i]
				segs[i], errs[i] = openSegmentSealed(s.Dir, ps.ms.ID, ps.ms.Dead, ps.seal, ps.seen)
			}
		})
	}
	for i := range s.pending {
		if i < len(s.opened) && s.opened[i] != nil {
			segs[i] = s.opened[i] // opened alone already (segmentAt)
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	s.segs = segs
	for i, err := range errs {
		if err == nil {
			continue
		}
		s.segs = nil
		for j, sg := range segs {
			if sg != nil && (j >= len(s.opened) || s.opened[j] != sg) {
				sg.close() // those opened alone stay, for Close
			}
		}
		if errors.Is(err, os.ErrNotExist) {
			return damaged(s.Dir, "segment %d of generation %d is missing", s.pending[i].ms.ID, s.Generation)
		}
		return err
	}
	s.pending, s.opened = nil, nil
	return nil
}

// segmentAt returns the i-th segment of the manifest, opening its
// database alone when the generation was opened lazily (an incremental
// build opens only the segments its change names: segRef).
func (s *Snapshot) segmentAt(i int) (*segment, error) {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if s.pending == nil {
		if i >= len(s.segs) {
			return nil, fmt.Errorf("segment %d of generation %d is not open", i, s.Generation)
		}
		return s.segs[i], nil
	}
	if s.opened == nil {
		s.opened = make([]*segment, len(s.pending))
	}
	if sg := s.opened[i]; sg != nil {
		return sg, nil
	}
	ps := s.pending[i]
	// Opened without the lock, so that segments open at once (segWorld's
	// lookups): an open syncs the segment's folder. The first of two opens
	// of one segment is kept.
	s.openMu.Unlock()
	sg, err := openSegmentSealed(s.Dir, ps.ms.ID, ps.ms.Dead, ps.seal, ps.seen)
	s.openMu.Lock()
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, damaged(s.Dir, "segment %d of generation %d is missing", ps.ms.ID, s.Generation)
		}
		return nil, err
	}
	if s.opened == nil {
		// Closed meanwhile.
		sg.close()
		return nil, fmt.Errorf("segment %d of generation %d: the generation was closed", ps.ms.ID, s.Generation)
	}
	if had := s.opened[i]; had != nil {
		sg.close()
		return had, nil
	}
	s.opened[i] = sg
	return sg, nil
}

// segSeal returns the seal and folder of the i-th segment of the manifest.
func (s *Snapshot) segSeal(i int) ([]sealFile, string) {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if s.pending != nil {
		return s.pending[i].seal, segDir(s.Dir, s.pending[i].ms.ID)
	}
	return s.segs[i].seal, s.segs[i].dir
}

// moduleShard is a modules segment of the manifest: its position in it.
type moduleShard struct {
	at   int // index in manifest.Segments
	id   int
	from string
}

// moduleShards lists the generation's modules segments in order, without
// opening them.
func (s *Snapshot) moduleShards() []moduleShard {
	var out []moduleShard
	for i, ms := range s.man.Segments {
		if ms.Kind == segModules {
			out = append(out, moduleShard{at: i, id: ms.ID, from: ms.From})
		}
	}
	return out
}

// Close releases the snapshot.
func (s *Snapshot) Close() error {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	var all []*segment
	for _, sg := range s.opened {
		if sg != nil {
			all = append(all, sg)
		}
	}
	s.pending, s.opened = nil, nil
	all = append(all, s.segs...)
	s.segs = nil
	s.closeWatch()
	return closeSegments(all)
}

// closeParallel is how many segment databases closeSegments closes at once.
const closeParallel = 8

// closeSegments closes segs, several at once. Badger syncs a database's
// folder when it opens and twice when it closes, read-only or not, and
// msyncs its mapped files: on a loaded disk each sync of a folder took
// 1.5 ms, and an edit at 100k files that adds a function closes the 28
// segments it looked names up in (139 ms of syncs, one after another). It
// returns the first error.
func closeSegments(segs []*segment) error {
	if len(segs) <= 1 {
		for _, sg := range segs {
			return sg.close()
		}
		return nil
	}
	errs := make([]error, len(segs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(closeParallel, len(segs)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(segs) {
					return
				}
				errs[i] = segs[i].close()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Info returns the build info of the generation.
func (s *Snapshot) Info() BuildInfo { return s.info }

// Verify reports whether the snapshot's segments are still the ones their
// builds sealed, as a *DamagedError when not. It costs one read of an
// inotify instance while nothing changed in the generation's and its
// open segments' folders since the last check (verifyWatch; a
// long-running server calls it before every read), else one stat per
// file; a file whose size, mtime or inode moved is hashed again.
func (s *Snapshot) Verify() error {
	s.verifyMu.Lock()
	defer s.verifyMu.Unlock()
	if s.damage != nil {
		return s.damage
	}
	if s.unchanged() {
		return nil
	}
	verifyStatPasses.Add(1)
	// The generation folder: read once at open, but while CURRENT names
	// it, damage there is damage to the index (a later generation
	// replacing it and deleting the folder is not).
	gd := genDir(s.Dir, s.Generation)
	for i, sf := range s.genSeal {
		fi, err := os.Stat(filepath.Join(gd, sf.name))
		if err == nil && statID(fi) == s.genSeen[i] {
			continue
		}
		if cur, cerr := CurrentGeneration(s.Dir); cerr == nil && cur != s.Generation {
			break
		}
		if _, _, err := verifySeal(s.Dir, gd); err != nil {
			var de *DamagedError
			if !errors.As(err, &de) {
				de = damaged(s.Dir, "%v", err)
			}
			s.damage = de
			return de
		}
		break
	}
	for _, sg := range s.segs {
		same := true
		for i, sf := range sg.seal {
			fi, err := os.Stat(filepath.Join(sg.dir, sf.name))
			if err != nil || statID(fi) != sg.seen[i] {
				same = false
				break
			}
		}
		if same {
			continue
		}
		seal, ids, err := verifySeal(s.Dir, sg.dir)
		if err == nil && len(seal) != len(sg.seal) {
			err = damaged(s.Dir, "the seal of %s changed", relIndex(s.Dir, sg.dir))
		}
		if err != nil {
			var de *DamagedError
			if !errors.As(err, &de) {
				de = damaged(s.Dir, "%v", err)
			}
			s.damage = de
			return de
		}
		sg.seen = ids
	}
	return nil
}

// fileSegs returns the segments holding files.
func (s *Snapshot) fileSegs() []*segment {
	var out []*segment
	for _, sg := range s.segs {
		if sg.info.Kind == segFiles {
			out = append(out, sg)
		}
	}
	return out
}

// modulesSegs returns the modules segments in order.
func (s *Snapshot) modulesSegs() []*segment {
	var out []*segment
	for _, sg := range s.segs {
		if sg.info.Kind == segModules {
			out = append(out, sg)
		}
	}
	return out
}

// Stats returns the stat of every indexed file, sorted by path.
func (s *Snapshot) Stats() ([]FileStat, error) {
	s.statOnce.Do(func() {
		if st, base, ok := loadStatTable(s.Dir, s.Generation, s.statTableKey()); ok {
			s.stats, s.fromTable, s.statBase = st, true, base
			return
		}
		if s.statErr = s.openSegments(); s.statErr != nil {
			return
		}
		s.stats, s.statErr = s.segmentStats()
	})
	return s.stats, s.statErr
}

// segmentStats is Stats decoded from the segments (m/stats), what the
// stat table caches.
func (s *Snapshot) segmentStats() ([]FileStat, error) {
	var all []FileStat
	for _, sg := range s.fileSegs() {
		st, err := sg.cachedStats() // shared with the incremental build's lookups
		if err != nil {
			return nil, err
		}
		for _, f := range st {
			if !sg.dead[f.Path] {
				if t, ok := s.man.Touched[f.Path]; ok {
					f.ModTime = t
				}
				all = append(all, f)
			}
		}
	}
	slices.SortFunc(all, func(a, b FileStat) int { return strings.Compare(a.Path, b.Path) })
	return all, nil
}

// FileStat returns the stat recorded for path at build time.
func (s *Snapshot) FileStat(path string) (FileStat, bool) {
	stats, _ := s.Stats()
	i, ok := sort.Find(len(stats), func(i int) int { return strings.Compare(path, stats[i].Path) })
	if !ok {
		return FileStat{}, false
	}
	return stats[i], true
}

// Graph assembles the generation's graph from its segments on first use
// and returns it; later calls share it. Its pages come in the order a full
// build makes them (modules, then each file in path order followed by its
// definitions), so that it does not matter how files fell into segments.
func (s *Snapshot) Graph() (*Graph, error) {
	s.graphOnce.Do(func() { s.graph, s.graphErr = s.readGraph() })
	return s.graph, s.graphErr
}

// Page returns the page with the given ID and its neighbours, or
// ErrNotFound. It reads only the pieces the page touches (a page view:
// view.go), not the whole graph.
func (s *Snapshot) Page(id string) (*PageRecord, error) {
	g, err := s.Neighbourhood([]string{id})
	if err != nil {
		return nil, err
	}
	i, ok := g.Lookup(id)
	if !ok {
		return nil, ErrNotFound
	}
	return g.Record(i), nil
}

// Names of the blobs Build writes itself (x/NAME, see the keys in segment.go).
const (
	factsBlob = "facts"
	graphBlob = "graph"
	// TextBlob holds the page records the graph and the ranking index share.
	TextBlob = "text"
)

// Blob returns the generation-wide blob stored under name (in the first
// modules segment), or ErrNotFound.
func (s *Snapshot) Blob(name string) ([]byte, error) {
	ms := s.modulesSegs()
	if len(ms) == 0 {
		return nil, ErrNotFound
	}
	return ms[0].blob(name)
}

// PartSizes returns the stored bytes of each blob of the generation by
// name ("engine", "graph", "facts", ...) summed over its segments, and of
// their other keys under "meta" (partOf): where an index's bytes go. A
// segment's sizes are stored with it (partsKey); one written before they
// were is counted once by iterating its keys.
func (s *Snapshot) PartSizes() map[string]int64 {
	out := map[string]int64{}
	for _, sg := range s.segs {
		for name, n := range sg.partSizes() {
			out[name] += n
		}
	}
	return out
}

// partSizes returns the segment's bytes by part.
func (o *openSeg) partSizes() map[string]int64 {
	o.partsOnce.Do(func() {
		if b, err := o.get(partsKey); err == nil && json.Unmarshal(b, &o.parts) == nil {
			return
		}
		o.parts = map[string]int64{}
		_ = o.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				k := string(it.Item().Key())
				o.parts[partOf(k)] += it.Item().ValueSize() + int64(len(k))
			}
			return nil
		})
	})
	return o.parts
}

// SizeBytes returns the bytes on disk of the live generation: its
// manifest and its segments.
func (s *Snapshot) SizeBytes() int64 {
	n := dirSize(genDir(s.Dir, s.Generation))
	for _, sg := range s.segs {
		n += dirSize(sg.dir)
	}
	return n
}

// Segments returns how many segments the generation has.
func (s *Snapshot) Segments() int { return len(s.segs) }

// PageIDs returns up to limit page IDs starting with prefix, sorted (the
// hint of a missing page). It reads the pages of the files whose paths
// the prefix names, not the whole graph: a file's, a symbol's or a doc
// section's ID names its path, a module's its directory.
func (s *Snapshot) PageIDs(prefix string, limit int) []string {
	v, err := s.pageView()
	if err != nil || limit <= 0 {
		return nil
	}
	kind, rest, ok := strings.Cut(prefix, ":")
	if !ok {
		return nil
	}
	var out []string
	switch kind {
	case "module":
		dirs := map[string]bool{}
		if strings.HasPrefix(".", rest) {
			dirs["."] = true
		}
		for _, p := range v.paths {
			for d := dirOf(p); d != "." && !dirs[d]; d = dirOf(d) {
				if strings.HasPrefix(d, rest) {
					dirs[d] = true
				}
			}
		}
		for d := range dirs {
			out = append(out, ModuleID(d))
		}
	case "file":
		i, _ := slices.BinarySearch(v.paths, rest)
		for ; i < len(v.paths) && strings.HasPrefix(v.paths[i], rest) && len(out) < limit; i++ {
			out = append(out, FileID(v.paths[i]))
		}
	case "symbol", "doc":
		// The files whose pages' IDs may start with prefix, in path order
		// (their IDs' order), until limit are found.
		path, _, _ := strings.Cut(rest, "#") // a path may hold "#" too
		i, _ := slices.BinarySearch(v.paths, path)
		for ; i < len(v.paths) && strings.HasPrefix(v.paths[i], path) && len(out) < limit; i++ {
			pages, err := s.FilePages(v.paths[i])
			if err != nil {
				return nil
			}
			var ids []string
			for k := range pages {
				if id := pages[k].ID; strings.HasPrefix(id, prefix) {
					ids = append(ids, id)
				}
			}
			slices.Sort(ids)
			out = append(out, ids...)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), limit)]
}

// segPiece is a file's piece with the record it was resolved from.
type segPiece struct {
	Piece
	rec *FileRecord
}

// readPieces decodes the live pieces of segment sg (records with their
// text restored when records is set).
func (sg *segment) readPieces(records bool) ([]*segPiece, error) {
	return sg.readPiecesWant(records, nil)
}

// readPiecesWant is readPieces of the live files want holds (every live
// file when want is nil): the segment's graph is decoded whole, but only
// the wanted pieces are assembled, and only their records are made.
func (sg *segment) readPiecesWant(records bool, want map[string]bool) ([]*segPiece, error) {
	// The records' blob and stats are read and decompressed on a goroutine
	// of their own while the graph decodes (moby's largest segment, one
	// file wanted: BenchmarkReadPiecesOf).
	var facts []byte
	var stats []FileStat
	var ferr error
	fetched := make(chan struct{})
	if records {
		go func() {
			defer close(fetched)
			if facts, ferr = sg.blob(factsBlob); ferr == nil {
				stats, ferr = sg.stats()
			}
		}()
	} else {
		close(fetched)
	}
	defer func() { <-fetched }()
	g, err := sg.graph()
	if err != nil {
		return nil, err
	}
	ext, err := sg.ext()
	if err != nil {
		return nil, err
	}
	out, err := sg.piecesFrom(g, ext, want)
	if err != nil {
		return nil, err
	}
	if records {
		recordsDecoded.Add(int64(len(out)))
		<-fetched
		if ferr != nil {
			return nil, ferr
		}
		b := facts
		byPath := make(map[string]*segPiece, len(out))
		for _, pc := range out {
			byPath[pc.Pages[0].Path] = pc
		}
		// The records of the pieces read, with their stats.
		keep := make(map[string]bool, len(out))
		statOf := make(map[string]FileStat, len(out))
		for _, st := range stats {
			if byPath[st.Path] != nil {
				keep[st.Path], statOf[st.Path] = true, st
			}
		}
		err = decodeFacts(b, stats, g, keep, false, func(rec *FileRecord) error {
			st := statOf[rec.Path]
			if pc := byPath[rec.Path]; pc != nil {
				rec.Size, rec.ModTime, rec.Hash = st.Size, st.ModTime, st.Hash
				restoreText(rec, g)
				restoreLiterals(pc, rec)
				pc.rec = rec
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// piecesFrom assembles, from sg's decoded graph g and external edges ext,
// the pieces of its live files that want holds (every live file when want
// is nil), in the segment's order: each file's pages (copied), the edges
// leaving them by target ID, and its module's contains edge to it
// (FromModule).
func (sg *segment) piecesFrom(g *Graph, ext []extEdge, want map[string]bool) ([]*segPiece, error) {
	var out []*segPiece
	owner := make([]int32, len(g.Pages)) // piece of each page, -1 dead
	local := make([]uint32, len(g.Pages))
	cur := int32(-1)
	for i := range g.Pages {
		p := &g.Pages[i]
		if p.Kind == KindFile {
			cur = -1
			if !sg.dead[p.Path] && (want == nil || want[p.Path]) {
				out = append(out, &segPiece{Piece: Piece{Path: p.Path}})
				cur = int32(len(out) - 1)
			}
		}
		owner[i] = cur
		if cur >= 0 {
			pc := out[cur]
			local[i] = uint32(len(pc.Pages))
			pc.Pages = append(pc.Pages, *p)
		}
	}
	for _, e := range g.Edges() {
		if o := owner[e.From]; o >= 0 {
			out[o].Edges = append(out[o].Edges, PieceEdge{From: local[e.From], To: g.Pages[e.To].ID, Type: e.Type, Attr: e.Attr})
		}
	}
	for _, x := range ext {
		if int(x.Local) >= len(owner) {
			return nil, fmt.Errorf("segment %d: ext edge from page %d of %d", sg.id, x.Local, len(owner))
		}
		o := owner[x.Local]
		if o < 0 {
			continue
		}
		if x.Out {
			out[o].Edges = append(out[o].Edges, PieceEdge{From: local[x.Local], To: x.ID, Type: x.Type, Attr: x.Attr})
		} else {
			// The module's contains edge to the file.
			out[o].Edges = append(out[o].Edges, PieceEdge{From: FromModule, To: out[o].Pages[0].ID, Type: x.Type})
		}
	}
	for _, pc := range out {
		pc.sortEdges()
	}
	return out, nil
}

// readModules decodes a modules segment's part of the module piece: its
// pages and the edges leaving them, to its own pages and (x/ext) to other
// shards'.
func (sg *segment) readModules() (Piece, error) {
	g, err := sg.graph()
	if err != nil {
		return Piece{}, err
	}
	ext, err := sg.ext()
	if err != nil {
		return Piece{}, err
	}
	pc := Piece{Pages: g.Pages}
	for _, e := range g.Edges() {
		pc.Edges = append(pc.Edges, PieceEdge{From: e.From, To: g.Pages[e.To].ID, Type: e.Type})
	}
	for _, x := range ext {
		if x.Out && int(x.Local) < len(g.Pages) {
			pc.Edges = append(pc.Edges, PieceEdge{From: x.Local, To: x.ID, Type: x.Type, Attr: x.Attr})
		}
	}
	pc.sortEdges()
	return pc, nil
}

// readGraph assembles the graph of the live pieces of every segment, in
// the order of a full build's graph (modules, then the files in path
// order), so that it does not matter how files fell into segments.
func (s *Snapshot) readGraph() (*Graph, error) {
	var shards []modShard
	for _, ms := range s.modulesSegs() {
		pc, err := ms.readModules()
		if err != nil {
			return nil, fmt.Errorf("read graph: %w (run `wikitoolkit build --full`)", err)
		}
		shards = append(shards, modShard{pc: pc})
	}
	mods, _ := joinModules(shards)
	var pieces []Piece
	for _, sg := range s.fileSegs() {
		ps, err := sg.readPieces(false)
		if err != nil {
			return nil, fmt.Errorf("read graph: %w (run `wikitoolkit build --full`)", err)
		}
		for _, pc := range ps {
			pieces = append(pieces, pc.Piece)
		}
	}
	slices.SortFunc(pieces, func(a, b Piece) int { return strings.Compare(a.Path, b.Path) })
	return AssembleGraph(mods, pieces), nil
}

// buildOnlyFiles are the files of the index folder that only a build, under
// the build lock, writes through a temporary file (removeStale).
var buildOnlyFiles = []string{"CURRENT", statTableName, statDeltaName, sketchName, sketchTagName, lastBuildName}

// generations lists the generation numbers present under dir/gen.
func generations(dir string) []int { return numberedDirs(filepath.Join(dir, "gen")) }

// removeStale deletes every generation but keep, every segment keep does
// not name that no process holds open, and leftovers of killed builds
// (partial generations and segments, the temporary files of CURRENT and
// of the caches only builds write). A segment still open read-only by a
// server stays until a later build finds it free; generation folders are
// read once at open and go at once.
func removeStale(dir string, keep int) {
	// Only builds write these, and this one holds the build lock: a
	// temporary file of theirs is a killed build's (a stat table's is the
	// size of the tree's listing). The seal cache's and the annotations'
	// are written by servers too, without the lock, and are left alone.
	for _, name := range buildOnlyFiles {
		if tmps, err := filepath.Glob(filepath.Join(dir, ".tmp-"+name+"-*")); err == nil {
			for _, p := range tmps {
				os.Remove(p)
			}
		}
	}
	live := map[string]bool{}
	if m, err := readManifest(dir, keep); err == nil {
		for _, ms := range m.Segments {
			live[fmt.Sprintf("%06d", ms.ID)] = true
		}
	} else {
		return // never delete segments without knowing which are live
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "gen"))
	for _, e := range ents {
		if e.Name() == fmt.Sprintf("%06d", keep) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, "gen", e.Name()))
	}
	ents, _ = os.ReadDir(filepath.Join(dir, "seg"))
	for _, e := range ents {
		name := e.Name()
		if live[name] {
			continue
		}
		path := filepath.Join(dir, "seg", name)
		if strings.HasPrefix(name, "trash-") {
			os.RemoveAll(path)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
			f.Close() // a reader holds it
			continue
		}
		trash := filepath.Join(dir, "seg", "trash-"+name)
		if os.Rename(path, trash) == nil {
			os.RemoveAll(trash)
		}
		f.Close()
	}
}

// EachFileRecord calls fn for every live file record, in path order, with
// its stat and its text restored.
func (s *Snapshot) EachFileRecord(fn func(*FileRecord) error) error {
	var recs []*FileRecord
	for _, sg := range s.fileSegs() {
		ps, err := sg.readPieces(true)
		if err != nil {
			return err
		}
		for _, pc := range ps {
			if pc.rec != nil {
				recs = append(recs, pc.rec)
			}
		}
	}
	slices.SortFunc(recs, func(a, b *FileRecord) int { return strings.Compare(a.Path, b.Path) })
	for _, r := range recs {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// restoreLiterals puts back on a piece's pages the identifiers and string
// literals the graph blob leaves to the facts (the ranking data needs them, readers of
// the graph do not), as addFilesAndSymbols sets them.
func restoreLiterals(pc *segPiece, rec *FileRecord) {
	if rec.Facts == nil {
		return
	}
	idents := identsByDef(rec.Facts.Refs, len(rec.Facts.Defs), maxIdents)
	pc.Pages[0].Idents = idents[0]
	for i := 1; i < len(pc.Pages) && i < len(idents); i++ {
		if pc.Pages[i].Kind == KindSymbol {
			pc.Pages[i].Idents = idents[i]
		}
	}
	lits := literalsByDef(rec.Facts, maxLiterals)
	if len(lits) == 0 {
		return
	}
	pc.Pages[0].Literals = lits[0]
	for i := 1; i < len(pc.Pages) && i < len(lits); i++ {
		if pc.Pages[i].Kind == KindSymbol {
			pc.Pages[i].Literals = lits[i]
		}
	}
}

// SegmentView is one segment of a generation as the ranking data reads
// it: its blobs, and which of its files are dead.
type SegmentView struct{ sg *segment }

// SegmentViews returns the generation's segments: the modules segments
// first, in order, then the file segments in manifest order.
func (s *Snapshot) SegmentViews() []SegmentView {
	var out []SegmentView
	for _, ms := range s.modulesSegs() {
		out = append(out, SegmentView{ms})
	}
	for _, sg := range s.fileSegs() {
		out = append(out, SegmentView{sg})
	}
	return out
}

// Blob returns the segment's blob name, or ErrNotFound.
func (v SegmentView) Blob(name string) ([]byte, error) { return v.sg.blob(name) }

// Key names the stored segment: its folder and the size and hash of each
// of its sealed files, so two views of the same Key (of two generations,
// or of the same one opened twice) hold the same blobs.
func (v SegmentView) Key() string { return v.sg.key }

// DeadKey names the segment's tombstones in this generation: two views
// of the same Key and DeadKey have the same dead files.
func (v SegmentView) DeadKey() string { return strings.Join(v.sg.deadList, "\x00") }

// Dead reports whether the page ID (a file's, "file:PATH") is tombstoned
// in this segment.
func (v SegmentView) Dead(id string) bool {
	if len(v.sg.dead) == 0 {
		return false
	}
	p, ok := strings.CutPrefix(id, "file:")
	return ok && v.sg.dead[p]
}
