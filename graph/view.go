package graph

import (
	"bytes"
	"container/list"
	"fmt"
	"maps"
	pathpkg "path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dgraph-io/badger/v4"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// Page views: a page's answer read from the segments it touches, not from
// the whole graph.
//
// `page`, `related`, a page reference and the placement of notes used to
// read the whole graph (Snapshot.Graph: every segment decoded and
// assembled): at 100k files, 6.3 s and 1.7 GB on the first call, kept for
// the server's life, and paid by every query once a note existed. A page
// view reads instead (Snapshot.Neighbourhood):
//
//   - the page's own file piece, from the segment its file is live in (the
//     segments' name filters hold d/PATH), or, for a module page, the
//     module shard holding its directory (modshard.go);
//   - the pieces of the files its edges lead to (a page ID names its
//     file) and the shards of the directories they name;
//   - the pieces of the files with edges into it. Only a file whose
//     references look its name up (r/NAME) can reference a symbol, only
//     one whose imports ask a question its path answers (i/KEY: HasFile
//     or FileWithSuffix of the file, HasDir or DirWithSuffix of the
//     directory; resolveImport) can import a file or module, and a
//     module's contains edges come from its parent's shard and from its
//     files' pieces (FromModule). A segment whose filter may hold such a
//     key is decoded only when its external edges (x/ext) name the page,
//     or when it holds the page's file, live or replaced (its own edges
//     may lead to the old copy's ID, which the live copy answers).
//
// Those pieces and shards assembled (AssembleGraph) are a graph in which
// the page's record is the whole graph's — its neighbours in the same
// order, with the same attributes and counts — because the whole graph's
// pages come as modules (in path order) then files in path order, which
// any subset keeps; every edge of a subset's pieces is an edge of the
// whole graph, and every edge into or out of the page is in the subset
// (TestNeighbourhoodEqualsGraph compares every page of several indexes,
// edited ones among them). A file segment is read through a segCodec
// (graphskim.go), which decodes the pieces of the files a view wants and
// not the rest; the codecs (the segment's graph and page text
// decompressed, and an index of them) are kept in a process-wide cache
// bounded by ViewCacheBytes (an LRU), shared by the generations that
// share a segment, as a server's successive generations do.

// ViewCacheBytes bounds, roughly, the memory of the decoded segments page
// views keep for later views (all snapshots of the process together).
var ViewCacheBytes int64 = 16 << 20

// segView is what page views keep of a stored segment: its external
// edges; once a view needed them, its pages and own edges (a file
// segment, through its codec); or its part of the module piece (a
// modules segment).
type segView struct {
	ext   []extEdge
	codec *segCodec
	mods  *Piece
	size  int64
}

type viewItem struct {
	o *openSeg
	v *segView
}

// views is the process-wide cache of segment views, most recent first.
var views struct {
	mu    sync.Mutex
	lru   list.List
	at    map[*openSeg]*list.Element
	bytes int64
}

// viewDecodes counts the segments page views decoded (tests).
var viewDecodes struct {
	sync.Mutex
	graphs, exts, modules int
}

func cachedView(o *openSeg) *segView {
	views.mu.Lock()
	defer views.mu.Unlock()
	if el := views.at[o]; el != nil {
		views.lru.MoveToFront(el)
		return el.Value.(*viewItem).v
	}
	return nil
}

// keepView caches v as o's view, dropping the least recently used views
// beyond ViewCacheBytes (never v itself).
func keepView(o *openSeg, v *segView) {
	views.mu.Lock()
	defer views.mu.Unlock()
	if views.at == nil {
		views.at = map[*openSeg]*list.Element{}
	}
	if el := views.at[o]; el != nil {
		it := el.Value.(*viewItem)
		views.bytes += v.size - it.v.size
		it.v = v
		views.lru.MoveToFront(el)
	} else {
		views.at[o] = views.lru.PushFront(&viewItem{o, v})
		views.bytes += v.size
	}
	for views.bytes > ViewCacheBytes && views.lru.Len() > 1 {
		el := views.lru.Back()
		it := el.Value.(*viewItem)
		views.lru.Remove(el)
		delete(views.at, it.o)
		views.bytes -= it.v.size
	}
}

// dropView forgets o's view (o closes).
func dropView(o *openSeg) {
	views.mu.Lock()
	defer views.mu.Unlock()
	if el := views.at[o]; el != nil {
		views.bytes -= el.Value.(*viewItem).v.size
		views.lru.Remove(el)
		delete(views.at, o)
	}
}

// view returns sg's view: its external edges, and its codec too when
// pages is set (a file segment).
func (sg *segment) view(pages bool) (*segView, error) {
	o := sg.openSeg
	o.viewMu.Lock()
	defer o.viewMu.Unlock()
	old := cachedView(o)
	if old != nil && (!pages || old.codec != nil) && old.mods == nil {
		return old, nil
	}
	v := &segView{}
	if old != nil && old.mods == nil {
		*v = *old
	} else {
		ext, err := sg.ext()
		if err != nil {
			return nil, err
		}
		v.ext = ext
		viewDecodes.Lock()
		viewDecodes.exts++
		viewDecodes.Unlock()
	}
	if pages {
		b, err := sg.blob(graphBlob)
		if err != nil {
			return nil, fmt.Errorf("read segment %d graph: %w", sg.id, err)
		}
		text, err := sg.blob(TextBlob)
		if err != nil {
			return nil, fmt.Errorf("read segment %d page text: %v", sg.id, err)
		}
		if v.codec, err = newSegCodec(b, text); err != nil {
			return nil, fmt.Errorf("segment %d: %w", sg.id, err)
		}
		viewDecodes.Lock()
		viewDecodes.graphs++
		viewDecodes.Unlock()
	}
	sg.releaseMapped() // the table pages the decoding read
	v.size = viewSize(v)
	keepView(o, v)
	return v, nil
}

// moduleView returns the module piece part of sg, a modules segment.
func (sg *segment) moduleView() (*Piece, error) {
	o := sg.openSeg
	o.viewMu.Lock()
	defer o.viewMu.Unlock()
	if v := cachedView(o); v != nil && v.mods != nil {
		return v.mods, nil
	}
	pc, err := sg.readModules()
	if err != nil {
		return nil, err
	}
	sg.releaseMapped()
	viewDecodes.Lock()
	viewDecodes.modules++
	viewDecodes.Unlock()
	v := &segView{mods: &pc}
	v.size = viewSize(v)
	keepView(o, v)
	return v.mods, nil
}

// viewSize estimates the bytes a view holds.
func viewSize(v *segView) int64 {
	n := int64(unsafe.Sizeof(*v))
	pageSize := func(p *Page) int64 {
		return int64(unsafe.Sizeof(*p)) + int64(len(p.ID)+len(p.Title)+len(p.Name)+len(p.Qualified)+len(p.SymKind)+len(p.Path)+len(p.Lang)+len(p.Doc))
	}
	for _, x := range v.ext {
		n += int64(unsafe.Sizeof(x)) + int64(len(x.ID))
	}
	if c := v.codec; c != nil {
		n += int64(len(c.recs) + 4*len(c.off) + len(c.kf) + 4*len(c.group) + 4*len(c.files) + len(c.ck)*int(unsafe.Sizeof(codecCk{})))
		for _, col := range c.cols {
			n += int64(len(col))
		}
	}
	if v.mods != nil {
		for i := range v.mods.Pages {
			n += pageSize(&v.mods.Pages[i])
		}
		for _, e := range v.mods.Edges {
			n += int64(unsafe.Sizeof(e)) + int64(len(e.To))
		}
	}
	return n
}

// snapView is what a snapshot's page views share: its file segments with
// their filters, the paths of its live files, and its module shards.
type snapView struct {
	s      *Snapshot
	refs   []*segRef
	paths  []string // live files, sorted
	shards []moduleShard
	froms  []string // the shards' first directories

	mu    sync.Mutex
	live  map[string]*segRef // file → the segment it is live in (nil: none)
	world *segWorld          // symbol names (ResolveRef)
}

// pageView returns the snapshot's page view state, made on first use.
func (s *Snapshot) pageView() (*snapView, error) {
	s.viewOnce.Do(func() {
		if err := s.openSegments(); err != nil {
			s.viewErr = err
			return
		}
		v := &snapView{s: s, live: map[string]*segRef{}}
		if v.refs, s.viewErr = s.fileRefs(); s.viewErr != nil {
			return
		}
		stats, err := s.Stats()
		if err != nil {
			s.viewErr = err
			return
		}
		v.paths = make([]string, len(stats))
		for i := range stats {
			v.paths[i] = stats[i].Path
		}
		v.shards = s.moduleShards()
		for _, sh := range v.shards {
			v.froms = append(v.froms, sh.from)
		}
		s.view = v
	})
	return s.view, s.viewErr
}

func (v *snapView) hasFile(p string) bool {
	_, ok := slices.BinarySearch(v.paths, p)
	return ok
}

func (v *snapView) hasModule(d string) bool { return d == "." || hasDirIn(v.paths, d) }

// liveSeg returns the file segment that holds file p live, nil when the
// generation has no such file.
func (v *snapView) liveSeg(p string) (*segRef, error) {
	v.mu.Lock()
	r, ok := v.live[p]
	v.mu.Unlock()
	if ok {
		return r, nil
	}
	if v.hasFile(p) {
		key := "d/" + p
		// The newest first: an edited file lives in a later segment.
		for k := len(v.refs) - 1; k >= 0; k-- {
			c := v.refs[k]
			if c.dead[p] || !c.filter.may(key) {
				continue
			}
			sg, err := c.open()
			if err != nil {
				return nil, err
			}
			stats, err := sg.cachedStats() // its files, in path order
			if err != nil {
				return nil, err
			}
			if _, found := slices.BinarySearchFunc(stats, p, func(st FileStat, p string) int { return strings.Compare(st.Path, p) }); found {
				r = c
				break
			}
		}
	}
	// The key is a copy: p is often a string of a segment's page text (a
	// neighbour's path), and a key kept for the generation's life would
	// keep that whole text (the web wiki at 100k files grew by 2 MB a
	// page viewed, 300 MB of page text after 240 views).
	v.mu.Lock()
	v.live[strings.Clone(p)] = r
	v.mu.Unlock()
	return r, nil
}

// filePieces adds to into the pieces of the live files of paths that it
// does not hold yet.
func (v *snapView) filePieces(paths map[string]bool, into map[string]*Piece) error {
	bySeg := map[*segRef]map[string]bool{}
	var order []*segRef
	for p := range paths {
		if into[p] != nil {
			continue
		}
		r, err := v.liveSeg(p)
		if err != nil {
			return err
		}
		if r == nil {
			continue
		}
		if bySeg[r] == nil {
			bySeg[r] = map[string]bool{}
			order = append(order, r)
		}
		bySeg[r][p] = true
	}
	slices.SortFunc(order, func(a, b *segRef) int { return a.i - b.i })
	// The segments decoded on every core (a view decodes each it does
	// not keep: a codec of a 100k-file tree's segment is 10–15 ms).
	got := make([][]*segPiece, len(order))
	err := OnCores(len(order), func(k int) error {
		sg, err := order[k].open()
		if err != nil {
			return err
		}
		sv, err := sg.view(true)
		if err != nil {
			return err
		}
		got[k] = sg.piecesOf(sv.codec, sv.ext, bySeg[order[k]])
		return nil
	})
	if err != nil {
		return err
	}
	for _, pcs := range got {
		for _, pc := range pcs {
			into[pc.Path] = &pc.Piece
		}
	}
	return nil
}

// OnCores calls fn(k) for each k in [0, n) on GOMAXPROCS goroutines and
// returns the first error (the calls not yet started are then skipped).
func OnCores(n int, fn func(k int) error) error {
	if n == 1 {
		return fn(0)
	}
	var next atomic.Int64
	var failed atomic.Bool
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for !failed.Load() {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				if err := fn(k); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return first
}

// shardOf returns the index (in v.shards) of the module shard holding
// directory d, -1 when there is none.
func (v *snapView) shardOf(d string) int {
	if len(v.shards) == 0 {
		return -1
	}
	return shardOfDir(v.froms, d)
}

// shardPiece returns module shard k's part of the module piece.
func (v *snapView) shardPiece(k int) (*Piece, error) {
	sg, err := v.s.segmentAt(v.shards[k].at)
	if err != nil {
		return nil, err
	}
	return sg.moduleView()
}

// filesIn returns the live files directly in directory d.
func (v *snapView) filesIn(d string) []string {
	var out []string
	if d == "." {
		for _, p := range v.paths {
			if !strings.Contains(p, "/") {
				out = append(out, p)
			}
		}
		return out
	}
	pre := d + "/"
	i, _ := slices.BinarySearch(v.paths, pre)
	for ; i < len(v.paths) && strings.HasPrefix(v.paths[i], pre); i++ {
		if !strings.Contains(v.paths[i][len(pre):], "/") {
			out = append(out, v.paths[i])
		}
	}
	return out
}

// pathSuffixes returns p and each suffix of it that starts after a "/".
func pathSuffixes(p string) []string {
	out := []string{p}
	for s := p; ; {
		j := strings.IndexByte(s, '/')
		if j < 0 {
			return out
		}
		s = s[j+1:]
		out = append(out, s)
	}
}

// refTarget is a page whose referrers a view looks for: its ID, its
// file's path ("" for a module page), and the filter keys (r/NAME,
// i/KEY) of the files that may hold an edge to it.
type refTarget struct {
	id, path string
	keys     []string
}

// referrers adds to files the live files with an edge to one of the pages
// ts: of the segments holding a target's file (live or replaced) any; of
// the others, those whose filter may hold one of a target's keys and
// whose external edges name it. Each segment is asked once for all of
// them.
func (v *snapView) referrers(ts []refTarget, files map[string]bool) error {
	lives := make([]*segRef, len(ts))
	for k, t := range ts {
		if t.path != "" {
			var err error
			if lives[k], err = v.liveSeg(t.path); err != nil {
				return err
			}
		}
	}
	// The segments asked on every core, each adding to a list of its own.
	found := make([][]string, len(v.refs))
	err := OnCores(len(v.refs), func(si int) error {
		r := v.refs[si]
		named := map[string]bool{} // targets whose IDs its external edges may name
		var held []refTarget       // targets whose file it holds
		for k, t := range ts {
			if t.path != "" && (lives[k] == r || r.dead[t.path]) {
				held = append(held, t)
			} else if slices.ContainsFunc(t.keys, r.filter.may) {
				named[t.id] = true
			}
		}
		if len(held) == 0 && len(named) == 0 {
			return nil
		}
		sg, err := r.open()
		if err != nil {
			return err
		}
		sv, err := sg.view(false)
		if err != nil {
			return err
		}
		for _, t := range held {
			named[t.id] = true
		}
		if len(held) == 0 && !slices.ContainsFunc(sv.ext, func(x extEdge) bool { return x.Out && named[x.ID] }) {
			return nil
		}
		if sv, err = sg.view(true); err != nil {
			return err
		}
		c := sv.codec
		add := func(i uint32) { // the live file holding page i
			if f := c.fileOf(int(i)); f >= 0 {
				if p := c.path(f); !sg.dead[p] {
					found[si] = append(found[si], p)
				}
			}
		}
		for _, x := range sv.ext {
			if x.Out && named[x.ID] && int(x.Local) < c.n {
				add(x.Local)
			}
		}
		// The segment's own edges to the pages of a file it holds.
		targets := map[uint32]bool{}
		for _, t := range held {
			if lo, hi, ok := c.fileRange(t.path); ok {
				for i := lo; i < hi; i++ {
					if c.id(i) == t.id {
						targets[uint32(i)] = true
					}
				}
			}
		}
		if len(targets) > 0 {
			c.edges(0, c.n, func(e Edge) {
				if targets[e.To] {
					add(e.From)
				}
			})
		}
		return nil
	})
	for _, ps := range found {
		for _, p := range ps {
			files[p] = true
		}
	}
	return err
}

// pagePaths returns the kind of page id and where it may be: for a
// module page its directory, for a file's, a symbol's or a doc section's
// the live files it may belong to (a path may hold "#": each cut of a
// symbol's or section's ID before a "#" that names a live file). None
// for an ID of no page.
func (v *snapView) pagePaths(id string) (Kind, []string) {
	kind, p, _, err := ParseID(id)
	if err != nil {
		return kind, nil
	}
	switch kind {
	case KindModule:
		if v.hasModule(p) {
			return kind, []string{p}
		}
	case KindFile:
		if v.hasFile(p) {
			return kind, []string{p}
		}
	case KindSymbol, KindDoc:
		rest := id[len(kind.String())+1:]
		var out []string
		for j := range len(rest) {
			if rest[j] == '#' && v.hasFile(rest[:j]) {
				out = append(out, rest[:j])
			}
		}
		return kind, out
	}
	return kind, nil
}

// Neighbourhood returns a graph holding the pages ids name, every page
// with an edge to or from one of them, and all of those edges: its
// Record of each of ids (Lookup, then Record) is the whole graph's. It
// holds too the pages also names (with the pages of their files or
// module shards, and the edges among all these pages), not their
// neighbours: a page's holders up to the root, the pages an answer
// lists. IDs of no page are left out.
func (s *Snapshot) Neighbourhood(ids []string, also ...string) (*Graph, error) {
	v, err := s.pageView()
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	dirs := map[string]bool{}
	// target adds the place of page to: its file, or its module's directory.
	target := func(to string) {
		kind, ps := v.pagePaths(to)
		for _, p := range ps {
			if kind == KindModule {
				dirs[p] = true
			} else {
				files[p] = true
			}
		}
	}
	for _, id := range ids {
		target(id)
	}
	pieces := map[string]*Piece{}
	shards := map[int]*Piece{}
	loadDirs := func() error {
		for d := range dirs {
			k := v.shardOf(d)
			if k < 0 || shards[k] != nil {
				continue
			}
			pc, err := v.shardPiece(k)
			if err != nil {
				return err
			}
			shards[k] = pc
		}
		return nil
	}
	if err := v.filePieces(files, pieces); err != nil {
		return nil, err
	}
	if err := loadDirs(); err != nil {
		return nil, err
	}
	// The neighbours of each page, and the files with edges into it.
	var ts []refTarget
	for _, id := range ids {
		kind, ps := v.pagePaths(id)
		for _, p := range ps {
			ts = v.around(id, kind, p, pieces, shards, files, dirs, target, ts)
		}
	}
	if err := v.referrers(ts, files); err != nil {
		return nil, err
	}
	for _, id := range also {
		target(id)
	}
	if err := v.filePieces(files, pieces); err != nil {
		return nil, err
	}
	if err := loadDirs(); err != nil {
		return nil, err
	}
	return assembleView(shards, pieces), nil
}

// around adds to files and dirs (through target) the places of the
// neighbours of page id, of kind, in file or directory p, and returns ts
// with the search for its referrers.
func (v *snapView) around(id string, kind Kind, p string, pieces map[string]*Piece, shards map[int]*Piece, files, dirs map[string]bool,
	target func(string), ts []refTarget) []refTarget {
	// The page in pc, and the targets of its edges there.
	at := func(pc *Piece) int {
		if pc == nil {
			return -1
		}
		i := slices.IndexFunc(pc.Pages, func(pg Page) bool { return pg.ID == id })
		for _, e := range pc.Edges {
			if i >= 0 && e.From == uint32(i) {
				target(e.To)
			}
		}
		return i
	}
	switch kind {
	case KindModule:
		if at(shards[v.shardOf(p)]) < 0 {
			return ts
		}
		if p != "." {
			dirs[dirOf(p)] = true // the parent's contains edge
		}
		for _, f := range v.filesIn(p) {
			files[f] = true // FromModule edges
		}
		var keys []string
		for _, sfx := range pathSuffixes(p) {
			keys = append(keys, "i/"+keyDirSfx+sfx)
		}
		keys = append(keys, "i/"+keyDir+p)
		ts = append(ts, refTarget{id: id, keys: keys})
	case KindFile, KindSymbol, KindDoc:
		pc := pieces[p]
		i := at(pc)
		if i < 0 {
			return ts
		}
		var keys []string
		switch kind {
		case KindFile:
			dirs[dirOf(p)] = true // FromModule
			for _, sfx := range pathSuffixes(p) {
				keys = append(keys, "i/"+keyFileSfx+sfx)
			}
			keys = append(keys, "i/"+keyFile+p)
		case KindSymbol:
			if n := pc.Pages[i].Name; n != "" {
				keys = append(keys, "r/"+n)
			}
		}
		ts = append(ts, refTarget{id: id, path: p, keys: keys})
	}
	return ts
}

// assembleView assembles module shards (by index) and file pieces (by
// path) in the whole graph's order.
func assembleView(shards map[int]*Piece, pieces map[string]*Piece) *Graph {
	ks := slices.Sorted(maps.Keys(shards))
	parts := make([]modShard, len(ks))
	for i, k := range ks {
		parts[i].pc = *shards[k]
	}
	mods, _ := joinModules(parts)
	paths := slices.Sorted(maps.Keys(pieces))
	list := make([]Piece, len(paths))
	for i, p := range paths {
		list[i] = *pieces[p]
	}
	return AssembleGraph(mods, list)
}

// PagesOf returns the pages ids name (without their edges), by ID; IDs of
// no page are left out.
func (s *Snapshot) PagesOf(ids []string) (map[string]*Page, error) {
	v, err := s.pageView()
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	want := map[string]bool{}
	ks := map[int]bool{}
	for _, id := range ids {
		kind, ps := v.pagePaths(id)
		for _, p := range ps {
			if kind != KindModule {
				files[p], want[id] = true, true
			} else if k := v.shardOf(p); k >= 0 {
				ks[k], want[id] = true, true
			}
		}
	}
	out := map[string]*Page{}
	pieces := map[string]*Piece{}
	if err := v.filePieces(files, pieces); err != nil {
		return nil, err
	}
	for _, pc := range pieces {
		for i := range pc.Pages {
			if want[pc.Pages[i].ID] {
				out[pc.Pages[i].ID] = &pc.Pages[i]
			}
		}
	}
	for k := range ks {
		pc, err := v.shardPiece(k)
		if err != nil {
			return nil, err
		}
		for i := range pc.Pages {
			if want[pc.Pages[i].ID] {
				p := pc.Pages[i]
				out[p.ID] = &p
			}
		}
	}
	return out, nil
}

// FilePages returns the pages of file p (its file page, then its symbols
// and doc sections in definition order), nil when the generation has no
// such file.
func (s *Snapshot) FilePages(p string) ([]Page, error) {
	v, err := s.pageView()
	if err != nil {
		return nil, err
	}
	pieces := map[string]*Piece{}
	if err := v.filePieces(map[string]bool{p: true}, pieces); err != nil {
		return nil, err
	}
	if pc := pieces[p]; pc != nil {
		return pc.Pages, nil
	}
	return nil, nil
}

// eachPage calls fn with every page of the generation, segment by
// segment, decoding each (not kept in the cache beyond ViewCacheBytes):
// the slow path of page views (a body hash searched for, a name matched
// regardless of case). Module pages first, then each file segment's live
// pages in its order.
func (s *Snapshot) eachPage(fn func(*Page) error) error {
	v, err := s.pageView()
	if err != nil {
		return err
	}
	for k := range v.shards {
		pc, err := v.shardPiece(k)
		if err != nil {
			return err
		}
		for i := range pc.Pages {
			if err := fn(&pc.Pages[i]); err != nil {
				return err
			}
		}
	}
	for _, r := range v.refs {
		sg, err := r.open()
		if err != nil {
			return err
		}
		// Decoded anew unless cached: a scan does not push out the
		// segments later views will want.
		var pages []Page
		if sv := cachedView(sg.openSeg); sv != nil && sv.codec != nil {
			pages = sv.codec.pages(0, sv.codec.n)
		} else if g, err := sg.graph(); err != nil {
			return err
		} else {
			pages = g.Pages
		}
		dead := false
		for i := range pages {
			p := &pages[i]
			if p.Kind == KindFile {
				dead = sg.dead[p.Path]
			}
			if dead {
				continue
			}
			if err := fn(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// FileCount is what Snapshot.FileCounts counts of a live file.
type FileCount struct {
	Symbols int // its symbol pages
	// RefsIn counts the references into its pages from pages of other
	// files (loose ones too): the edges of the whole graph of type
	// References whose ends lie in two files, this one the target.
	RefsIn int
}

// FileCounts returns the counts of every live file (the web wiki's home
// page: the symbols under each module, the most referenced files) from
// one pass over the file segments that decodes their pages' kinds and
// edges but no page text beyond the files' paths, and keeps no segment
// beyond the page views' cache: at 100k files the whole graph is 1.7 GB.
func (s *Snapshot) FileCounts() (map[string]FileCount, error) {
	v, err := s.pageView()
	if err != nil {
		return nil, err
	}
	out := make(map[string]FileCount, len(v.paths))
	for _, p := range v.paths {
		out[p] = FileCount{}
	}
	// References to a page whose ID does not tell its file (its path
	// holds "#"), by (target, referring file).
	byID := map[[2]string]int{}
	// The segments on every core, each counted apart, then added up.
	var mu sync.Mutex
	err = OnCores(len(v.refs), func(k int) error {
		part, ids, err := v.refs[k].fileCounts()
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for p, fc := range part {
			o := out[p]
			o.Symbols += fc.Symbols
			o.RefsIn += fc.RefsIn
			out[p] = o
		}
		for k, n := range ids {
			byID[k] += n
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(byID) > 0 {
		ids := make([]string, 0, len(byID))
		for k := range byID {
			ids = append(ids, k[0])
		}
		pages, err := s.PagesOf(ids)
		if err != nil {
			return nil, err
		}
		for k, n := range byID {
			if p := pages[k[0]]; p != nil && p.Path != k[1] {
				fc := out[p.Path]
				fc.RefsIn += n
				out[p.Path] = fc
			}
		}
	}
	return out, nil
}

// segCounts is a segment's part of FileCounts under the tombstones
// deadKey names (SegmentView.DeadKey): a segment is immutable and its
// part changes only with the files dead in it, so the counts of a
// generation an edit makes recount its new segment and those that gained
// tombstones, and read the rest (100k files: 1.1 s on two cores for
// every segment).
type segCounts struct {
	deadKey string
	part    map[string]FileCount
	byID    map[[2]string]int
}

// fileCounts counts what FileCounts does over the live files of one
// segment, and the references to IDs that do not tell their file. The
// maps are shared with later calls: not to be modified.
func (r *segRef) fileCounts() (map[string]FileCount, map[[2]string]int, error) {
	sg, err := r.open()
	if err != nil {
		return nil, nil, err
	}
	o := sg.openSeg
	key := strings.Join(sg.deadList, "\x00")
	o.countsMu.Lock()
	defer o.countsMu.Unlock()
	if sc := o.counts; sc != nil && sc.deadKey == key {
		return sc.part, sc.byID, nil
	}
	out, byID, err := sg.countFiles()
	if err != nil {
		return nil, nil, err
	}
	segsCounted.Add(1)
	o.counts = &segCounts{deadKey: key, part: out, byID: byID}
	return out, byID, nil
}

// segsCounted counts the segments fileCounts counted (tests).
var segsCounted atomic.Int64

// countFiles counts a segment's part of FileCounts (fileCounts).
func (sg *segment) countFiles() (map[string]FileCount, map[[2]string]int, error) {
	out := map[string]FileCount{}
	byID := map[[2]string]int{}
	c, ext, err := sg.scanCodec()
	if err != nil {
		return nil, nil, err
	}
	// The paths are copied out of the codec: they key the counts kept
	// with the segment (segCounts), and a string of the codec's page text
	// keeps all of it (at 100k files the web wiki's home page held 109 MB
	// of page text, every segment's, for its counts).
	paths := make(map[int]string) // file page → path ("" for a dead file)
	fileAt := func(i int) string {
		f := c.fileOf(i)
		p, ok := paths[f]
		if !ok {
			if f >= 0 {
				if p = c.path(f); sg.dead[p] {
					p = ""
				} else {
					p = strings.Clone(p)
				}
			}
			paths[f] = p
		}
		return p
	}
	for i := range c.n {
		if c.kind(i) == KindSymbol {
			if p := fileAt(i); p != "" {
				fc := out[p]
				fc.Symbols++
				out[p] = fc
			}
		}
	}
	c.edges(0, c.n, func(e Edge) {
		if e.Type != References {
			return
		}
		from := fileAt(int(e.From))
		if from == "" {
			return
		}
		// A target in a dead file is its live copy's page (the same ID).
		f := c.fileOf(int(e.To))
		if f < 0 {
			return
		}
		to, ok := paths[f]
		if !ok || to == "" {
			to = c.path(f)
		}
		if to != from {
			fc, ok := out[to]
			if !ok {
				to = strings.Clone(to) // the first time: the map keeps this key
			}
			fc.RefsIn++
			out[to] = fc
		}
	})
	for _, x := range ext {
		if !x.Out || x.Type != References {
			continue
		}
		from := fileAt(int(x.Local))
		if from == "" {
			continue
		}
		kind, to, _, err := ParseID(x.ID)
		switch {
		case err != nil || kind == KindModule || kind == KindMemory:
		case (kind == KindSymbol || kind == KindDoc) && strings.Count(x.ID, "#") > 1:
			k := [2]string{x.ID, from}
			if _, ok := byID[k]; !ok {
				k[0] = strings.Clone(x.ID)
			}
			byID[k]++
		case to != from:
			fc, ok := out[to]
			if !ok {
				to = strings.Clone(to)
			}
			fc.RefsIn++
			out[to] = fc
		}
	}
	return out, byID, nil
}

// scanCodec returns sg's codec and external edges for one pass: the page
// views' if cached, else decoded and not cached (a pass over every
// segment does not push out the segments later views will want).
func (sg *segment) scanCodec() (*segCodec, []extEdge, error) {
	if sv := cachedView(sg.openSeg); sv != nil && sv.codec != nil {
		return sv.codec, sv.ext, nil
	}
	b, err := sg.blob(graphBlob)
	if err != nil {
		return nil, nil, fmt.Errorf("read segment %d graph: %w", sg.id, err)
	}
	text, err := sg.blob(TextBlob)
	if err != nil {
		return nil, nil, fmt.Errorf("read segment %d page text: %w", sg.id, err)
	}
	c, err := newSegCodec(b, text)
	if err != nil {
		return nil, nil, fmt.Errorf("segment %d: %w", sg.id, err)
	}
	ext, err := sg.ext()
	if err != nil {
		return nil, nil, err
	}
	sg.releaseMapped()
	return c, ext, nil
}

// ModulePaths returns the directories that have a module page, sorted.
func (s *Snapshot) ModulePaths() ([]string, error) {
	v, err := s.pageView()
	if err != nil {
		return nil, err
	}
	var out []string
	for k := range v.shards {
		pc, err := v.shardPiece(k)
		if err != nil {
			return nil, err
		}
		for i := range pc.Pages {
			if pc.Pages[i].Kind == KindModule {
				out = append(out, pc.Pages[i].Path)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// snapRefs is refPages over a snapshot's page views.
type snapRefs struct{ v *snapView }

func (r snapRefs) hasFile(p string) bool   { return r.v.hasFile(p) }
func (r snapRefs) hasModule(d string) bool { return r.v.hasModule(d) }

func (r snapRefs) filePages(p string) ([]Page, error) { return r.v.s.FilePages(p) }

// eachNamePage reads the names (n/ keys) of every segment and the paths
// of the files, not the pages: the symbols with a name and the files, the
// pages it passes with no ID (SymbolID of their path and qualified name)
// and with what matchName reads alone. A name of underscores only (the
// qualified name pageQual gives a symbol with no name) reads every page.
func (r snapRefs) eachNamePage(q string, fn func(*Page) error) error {
	v := r.v
	if base, _, _ := strings.Cut(q, "~"); strings.Trim(base, "_") == "" {
		return v.s.eachPage(fn)
	}
	var p Page
	for _, path := range v.paths {
		p = Page{ID: FileID(path), Kind: KindFile, Title: path, Name: pathpkg.Base(path), Path: path, Test: walk.IsTest(path)}
		if err := fn(&p); err != nil {
			return err
		}
	}
	for _, r := range v.refs {
		sg, err := r.open()
		if err != nil {
			return err
		}
		stats, err := sg.cachedStats()
		if err != nil {
			return err
		}
		tests := make([]int8, len(stats)) // 0 unknown, 1 test, -1 not
		err = sg.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("n/")})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				name := string(it.Item().Key()[2:])
				err := it.Item().Value(func(val []byte) error {
					d := dec{b: val}
					for len(d.b) > 0 && d.err == nil {
						ord, _, qual := d.uint(), d.uint(), d.qual(name)
						if d.err != nil || ord >= uint64(len(stats)) {
							return nil
						}
						path := stats[ord].Path
						if sg.dead[path] {
							continue
						}
						if tests[ord] == 0 {
							tests[ord] = -1
							if walk.IsTest(path) {
								tests[ord] = 1
							}
						}
						p = Page{Kind: KindSymbol, Name: name, Qualified: qual, Path: path, Test: tests[ord] > 0}
						if err := fn(&p); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// nameCandidates looks names up (n/NAME) rather than reading pages. A
// symbol's name ends its qualified name (but for the "~2" pageQual adds to
// a repeated one): so a symbol whose qualified name is q or ends in "."+q,
// or whose name is q's last part, has a name that is a suffix of q (or
// of q without "~N"), or that ends in "."+q (a name holding dots: a
// Clojure namespace, a CSS selector), which the names of the segments
// holding dots (dottedNames) tell.
func (r snapRefs) nameCandidates(q, name string) ([]Page, bool, error) {
	v := r.v
	qs := []string{q}
	if i := strings.LastIndexByte(q, '~'); i > 0 {
		qs = append(qs, q[:i])
	}
	seen := map[string]bool{}
	var names []string
	for _, s := range qs {
		for i := range len(s) {
			if n := s[i:]; !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	dotted, err := v.dottedNames()
	if err != nil {
		return nil, false, err
	}
	for _, dn := range dotted {
		for _, s := range qs {
			if !seen[dn] && strings.HasSuffix(dn, "."+s) {
				seen[dn] = true
				names = append(names, dn)
			}
		}
	}
	v.mu.Lock()
	if v.world == nil {
		v.world = newSegWorld(v.refs, v.paths, nil, nil, "")
	}
	w := v.world
	v.mu.Unlock()
	w.prefetch(names)
	var out []Page
	for _, n := range names {
		for _, d := range w.Defs(n) {
			out = append(out, Page{ID: d.ID, Kind: KindSymbol, Name: n, Qualified: d.Qualified, Path: d.Path, Lang: d.Lang,
				Local: d.Local, Test: walk.IsTest(d.Path)})
		}
	}
	for _, p := range v.paths {
		if pathpkg.Base(p) == name {
			out = append(out, Page{ID: FileID(p), Kind: KindFile, Title: p, Name: name, Path: p, Test: walk.IsTest(p)})
		}
	}
	return out, false, nil
}

// dottedNames returns the symbol names holding a dot, of every file
// segment (a scan of its n/ keys, once per stored segment).
func (v *snapView) dottedNames() ([]string, error) {
	var out []string
	for _, r := range v.refs {
		sg, err := r.open()
		if err != nil {
			return nil, err
		}
		ns, err := sg.dotted()
		if err != nil {
			return nil, err
		}
		out = append(out, ns...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// dotted returns the names of the segment's n/ keys holding a dot.
func (o *openSeg) dotted() ([]string, error) {
	o.dottedOnce.Do(func() {
		o.dottedErr = o.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("n/")})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				if k := it.Item().Key()[2:]; bytes.IndexByte(k, '.') >= 0 {
					o.dottedNames = append(o.dottedNames, string(k))
				}
			}
			return nil
		})
	})
	return o.dottedNames, o.dottedErr
}

// PageSource reads pages by ID, without their edges: the whole graph
// (*Graph), or a snapshot (*Snapshot), whose page views read only the
// segments the IDs name. The notes' placement reads pages through it.
type PageSource interface {
	// PagesOf returns the pages ids name, by ID; IDs of no page are left
	// out.
	PagesOf(ids []string) (map[string]*Page, error)
	// PagesWithBody returns, for each body hash want holds, the IDs of
	// the pages with that BodyHash (a note's moved page).
	PagesWithBody(want map[uint32]bool) (map[uint32][]string, error)
}

// PagesOf is PageSource's on the whole graph.
func (g *Graph) PagesOf(ids []string) (map[string]*Page, error) {
	out := make(map[string]*Page, len(ids))
	for _, id := range ids {
		if i, ok := g.Lookup(id); ok {
			out[id] = &g.Pages[i]
		}
	}
	return out, nil
}

// PagesWithBody is PageSource's on the whole graph.
func (g *Graph) PagesWithBody(want map[uint32]bool) (map[uint32][]string, error) {
	return pagesWithBody(want, func(fn func(*Page) error) error {
		for i := range g.Pages {
			if err := fn(&g.Pages[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// PagesWithBody is PageSource's: a read of every segment, one at a time
// (a noted page gone from its place is looked for by its body).
func (s *Snapshot) PagesWithBody(want map[uint32]bool) (map[uint32][]string, error) {
	return pagesWithBody(want, s.eachPage)
}

func pagesWithBody(want map[uint32]bool, each func(func(*Page) error) error) (map[uint32][]string, error) {
	out := map[uint32][]string{}
	if len(want) == 0 {
		return out, nil
	}
	err := each(func(p *Page) error {
		if b := p.BodyHash; b != 0 && want[b] {
			out[b] = append(out[b], p.ID)
		}
		return nil
	})
	return out, err
}

// piecesOf is piecesFrom through a codec: the pieces of the live files of
// want the segment holds, each decoded alone.
func (sg *segment) piecesOf(c *segCodec, ext []extEdge, want map[string]bool) []*segPiece {
	var out []*segPiece
	for p := range want {
		lo, hi, ok := c.fileRange(p)
		if !ok || sg.dead[p] {
			continue
		}
		pc := &segPiece{Piece: Piece{Path: p, Pages: c.pages(lo, hi)}}
		c.edges(lo, hi, func(e Edge) {
			pc.Edges = append(pc.Edges, PieceEdge{From: e.From - uint32(lo), To: c.id(int(e.To)), Type: e.Type, Attr: e.Attr})
		})
		for _, x := range ext {
			if int(x.Local) < lo || int(x.Local) >= hi {
				continue
			}
			if x.Out {
				pc.Edges = append(pc.Edges, PieceEdge{From: x.Local - uint32(lo), To: x.ID, Type: x.Type, Attr: x.Attr})
			} else {
				pc.Edges = append(pc.Edges, PieceEdge{From: FromModule, To: pc.Pages[0].ID, Type: x.Type}) // the module's contains edge to the file
			}
		}
		pc.sortEdges()
		out = append(out, pc)
	}
	return out
}
