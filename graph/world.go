package graph

import (
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// DefInfo is what resolution knows of one symbol definition: its page's
// ID and qualified name (with the "~n" of a repeated one), its file's path
// and language.
type DefInfo struct {
	ID, Qualified, Path, Lang string
	Local                     bool // Page.Local
	// page is 1 + the index of the page in the graph buildGraph lays
	// out, which then needs no lookup by ID; 0 elsewhere.
	page uint32
	// file is the definition's file (its path, language, directory and
	// walk.IsTest) when the World keeps one (a MemWorld's): the resolver
	// works it out otherwise.
	file *memFile
}

// World is the repository that references and imports resolve against.
// Every method answers one key (a name, a path, a path suffix), so a store
// can serve each from keys of its own without loading the repository;
// ResolvePieces asks each name's Defs once per call. Answers must describe
// one tree: the files being resolved included.
type World interface {
	// Defs returns every symbol page with a non-empty name equal to name,
	// in any order. The caller does not modify the slice.
	Defs(name string) []DefInfo
	// HasFile reports a file of the tree at that path.
	HasFile(path string) bool
	// HasDir reports a directory holding a file of the tree, at any
	// depth ("." always).
	HasDir(dir string) bool
	// FileWithSuffix returns, of the files whose path is s or ends in
	// "/"+s, the shortest path (the least on a tie) and how many there
	// are; the count may stop at 2.
	FileWithSuffix(s string) (shortest string, n int)
	// DirWithSuffix does the same for directories other than ".".
	DirWithSuffix(s string) (shortest string, ok bool)
	// GoModule is the module path in the root's go.mod, or "".
	GoModule() string
}

// MemWorld is a World held in memory, built from every file record of a
// tree. It is safe for concurrent reads once built.
//
// It is compact, as a full build holds it whole while it parses and
// resolves every batch (firstbuild.go; 1.2 M definitions on a 100k-file
// tree): a definition is its page ID (bytes in an arena, of which the
// qualified name and the path are substrings), its file's number and its
// page, in a chain per name, none of it a pointer for the collector to
// follow; a path suffix keeps the shortest path ending in it and
// a count that stops at 2, not the list of them. Defs builds the DefInfo
// slice of a name at each call (ResolvePieces calls it once per name),
// except for the names of many definitions, whose candidate sets it keeps
// for every resolver (sharedCands).
type MemWorld struct {
	byName   map[string]defChain
	defs     chunked[memDef]
	ids      byteArena
	fileTab  chunked[memFile]
	files    map[string]struct{}
	dirs     map[string]struct{}
	fileSfx  map[string]sfxBest
	dirSfx   map[string]sfxBest
	quals    map[int32]string // qualified names not found in their page ID (none from filePages)
	goModule string
	// shared holds the candidate sets of the names of at least
	// sharedDefsMin definitions, for every resolver (sharedCands).
	sharedMu sync.Mutex
	shared   map[string]*sharedName
}

// defChain is the first and last definition of a name in MemWorld.defs,
// and how many it has.
type defChain struct{ head, tail, n int32 }

// A full build resolves each batch with a resolver of its own, against the
// world as it stands (firstbuild.go). A name defined in thousands of places
// (New, String, Close; a synthetic tree's _check) had its candidate list and
// indexes built again by every batch that referenced it: work that grew as
// batches × definitions, the square of the tree (a 500k-file tree: 104 of
// 787 CPU-s in resolution, against 5 of 115 at 100k). The world keeps those
// names' sets instead, and extends them with the definitions added since
// they were last asked for: each definition is added once, and each index
// built once and then kept up to date (500k files: resolution 102 → 14
// CPU-s; 100k: 4.7 → 2.4 CPU-s, for 34 MB more live heap until pass 2).

// sharedDefsMin is the number of definitions from which a name's candidate
// sets are the world's rather than each resolver's. Below it a set costs
// little to build again; above it are the few names that hold most of the
// definitions of a large tree (100k files: 300k of 1.2M definitions in
// names of more than 16k each). A variable for tests.
var sharedDefsMin int32 = 512

// sharedExtended counts the times a shared name's sets were extended
// after a first use (tests: the sets outlived a resolver).
var sharedExtended atomic.Int64

// sharedName is a name's candidate sets kept by a MemWorld: its sets by
// family, made of the definitions up to last (n of them), and the lock
// under which they are extended and their indexes built.
type sharedName struct {
	mu   sync.Mutex
	fams []*famSet
	last int32 // the last definition added, -1 none
	n    int32
}

// dropShared lets the shared candidate sets go (sharedCands builds them
// again when asked).
func (w *MemWorld) dropShared() {
	w.sharedMu.Lock()
	w.shared = nil
	w.sharedMu.Unlock()
}

// sharedCands returns name's candidate sets by family, extended with the
// definitions added since they were last asked for; false when the name
// has fewer than sharedDefsMin definitions (the caller builds its own).
// It is safe to call from several resolvers at once; the world must not
// grow meanwhile, nor while a resolver reads the sets.
func (w *MemWorld) sharedCands(name string) ([]*famSet, bool) {
	c, ok := w.byName[name]
	if !ok || c.n < sharedDefsMin {
		return nil, false
	}
	w.sharedMu.Lock()
	if w.shared == nil {
		w.shared = map[string]*sharedName{}
	}
	sn := w.shared[name]
	if sn == nil {
		sn = &sharedName{last: -1}
		w.shared[name] = sn
	}
	w.sharedMu.Unlock()
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if sn.n < c.n {
		from := c.head
		if sn.last >= 0 {
			from = w.defs.at(int(sn.last)).next
			sharedExtended.Add(1)
		}
		sn.fams = appendCands(sn.fams, w.defsFrom(from, int(c.n-sn.n)), nil, &sn.mu)
		sn.last, sn.n = c.tail, c.n
	}
	return sn.fams, true
}

// memDef is one definition of a MemWorld.
type memDef struct {
	id   arenaRef // the page ID: SymbolID(path, qualified)
	file uint32   // index in fileTab
	page uint32   // DefInfo.page
	next int32    // the name's next definition, or -1
}

// memFile is a file of a MemWorld: its path, language, directory
// (dirOf, a substring of the path) and walk.IsTest, worked out once
// rather than by every resolver for every definition (a 500k-file tree:
// each batch's resolver looked up the file of each of the thousands of
// definitions of a common name, 26 s of CPU). A resolver's candidates
// point at theirs (cand), or at one it makes for a World that keeps none.
type memFile struct {
	path, lang, dir string
	test            bool
}

func newMemFile(path, lang string) memFile {
	return memFile{path: path, lang: lang, dir: dirOf(path), test: walk.IsTest(path)}
}

// memLocal marks a Local definition in memDef.page (no graph holds 2³¹ pages).
const memLocal = 1 << 31

// sfxBest is what a MemWorld keeps of the paths ending in a suffix: the
// shortest (the least on a tie) and how many, up to 2.
type sfxBest struct {
	best string
	n    uint8
}

func (b *sfxBest) add(p string) {
	if b.n == 0 || len(p) < len(b.best) || len(p) == len(b.best) && p < b.best {
		b.best = p
	}
	b.n = min(b.n+1, 2)
}

// NewMemWorld describes the tree whose file records are all, with the Go
// module path goModule ("" if none).
func NewMemWorld(all []*FileRecord, goModule string) *MemWorld {
	w := newMemWorld(goModule)
	var pages []Page
	for _, f := range all {
		pages = namePages(f, pages[:0])
		w.addFile(f.Path, pages, -1, false)
	}
	w.addDirs(all)
	return w
}

func newMemWorld(goModule string) *MemWorld {
	return &MemWorld{
		byName:   map[string]defChain{},
		files:    map[string]struct{}{},
		dirs:     map[string]struct{}{".": {}},
		fileSfx:  map[string]sfxBest{},
		dirSfx:   map[string]sfxBest{},
		goModule: goModule,
	}
}

// addFile adds a file and the symbol pages among its pages (filePages'),
// which buildGraph lays out from index base (else base is -1). With copy,
// the strings it keeps are copies (a full build's batches go once
// written); else it keeps p and the pages' strings as they are.
func (w *MemWorld) addFile(p string, pages []Page, base int, copy bool) {
	if copy {
		p = strings.Clone(p)
	}
	w.files[p] = struct{}{}
	addSuffixes(w.fileSfx, p)
	file := uint32(w.fileTab.len())
	added := false
	for i := range pages {
		pg := &pages[i]
		if pg.Kind != KindSymbol || pg.Name == "" {
			continue
		}
		if !added {
			lang := pg.Lang
			w.fileTab.add(newMemFile(p, lang))
			added = true
		}
		di := int32(w.defs.len())
		page := uint32(base + i + 1)
		if pg.Local {
			page |= memLocal
		}
		w.defs.add(memDef{id: w.ids.add(pg.ID), file: file, page: page, next: -1})
		if pg.Path != p || !isSymbolID(pg.ID, p, pg.Qualified) || pg.Lang != w.fileTab.at(int(file)).lang {
			w.odd(di, pg)
		}
		if c, ok := w.byName[pg.Name]; ok {
			w.defs.at(int(c.tail)).next = di
			c.tail = di
			c.n++
			w.byName[pg.Name] = c
		} else if copy {
			w.byName[strings.Clone(pg.Name)] = defChain{di, di, 1}
		} else {
			w.byName[pg.Name] = defChain{di, di, 1}
		}
	}
}

// addSuffixes records p under each of its path suffixes ("a/b/c", "b/c",
// "c") in m.
func addSuffixes(m map[string]sfxBest, p string) {
	for s := p; ; {
		b := m[s]
		b.add(p)
		m[s] = b
		j := strings.IndexByte(s, '/')
		if j < 0 {
			return
		}
		s = s[j+1:]
	}
}

// isSymbolID reports id == SymbolID(path, qual), without making it.
func isSymbolID(id, path, qual string) bool {
	const pre = "symbol:"
	return len(id) == len(pre)+len(path)+1+len(qual) && id[:len(pre)] == pre &&
		id[len(pre):len(pre)+len(path)] == path && id[len(pre)+len(path)] == '#' && id[len(pre)+len(path)+1:] == qual
}

// odd keeps a definition whose page does not follow filePages' form (its
// ID SymbolID(path, qualified), its path and language its file's) as it
// is: in a file table entry of its own and quals.
func (w *MemWorld) odd(di int32, pg *Page) {
	w.fileTab.add(newMemFile(strings.Clone(pg.Path), pg.Lang))
	w.defs.at(int(di)).file = uint32(w.fileTab.len() - 1)
	if w.quals == nil {
		w.quals = map[int32]string{}
	}
	w.quals[di] = strings.Clone(pg.Qualified)
}

// addDirs adds the directories of the files and their ancestors.
func (w *MemWorld) addDirs(all []*FileRecord) {
	for _, f := range all {
		for d := dirOf(f.Path); !w.HasDir(d); d = dirOf(d) {
			d = strings.Clone(d)
			w.dirs[d] = struct{}{}
			addSuffixes(w.dirSfx, d)
		}
	}
}

// Defs implements World.
func (w *MemWorld) Defs(name string) []DefInfo {
	c, ok := w.byName[name]
	if !ok {
		return nil
	}
	return w.defsFrom(c.head, int(c.n))
}

// defsFrom returns the n definitions of a chain from definition i on.
func (w *MemWorld) defsFrom(i int32, n int) []DefInfo {
	out := make([]DefInfo, 0, n)
	for ; i >= 0 && len(out) < n; i = w.defs.at(int(i)).next {
		d := w.defs.at(int(i))
		f := w.fileTab.at(int(d.file))
		id := w.ids.get(d.id)
		qual, ok := w.quals[i]
		if !ok {
			qual = id[len("symbol:")+len(f.path)+1:]
		}
		out = append(out, DefInfo{ID: id, Qualified: qual, Path: f.path, Lang: f.lang, page: d.page &^ memLocal, Local: d.page&memLocal != 0,
			file: f})
	}
	return out
}

// names is the number of distinct names with definitions.
func (w *MemWorld) names() int { return len(w.byName) }

// HasFile implements World.
func (w *MemWorld) HasFile(p string) bool { _, ok := w.files[p]; return ok }

// HasDir implements World.
func (w *MemWorld) HasDir(d string) bool { _, ok := w.dirs[d]; return ok }

// FileWithSuffix implements World.
func (w *MemWorld) FileWithSuffix(s string) (string, int) {
	b := w.fileSfx[s]
	return b.best, int(b.n)
}

// DirWithSuffix implements World.
func (w *MemWorld) DirWithSuffix(s string) (string, bool) {
	b := w.dirSfx[s]
	return b.best, b.n > 0
}

// GoModule implements World.
func (w *MemWorld) GoModule() string { return w.goModule }

// chunked is a slice grown in chunks of chunkLen that never move: a
// MemWorld's million definitions are not copied as they grow, and no
// doubled array is held beside the old one.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 1 << 14

func (c *chunked[T]) len() int { return c.n }

func (c *chunked[T]) add(v T) {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

func (c *chunked[T]) at(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

// byteArena holds strings as bytes in chunks that are appended to, never
// rewritten nor moved, so that a string made over its bytes stays valid.
type byteArena struct{ chunks [][]byte }

// arenaRef locates a string in a byteArena.
type arenaRef struct{ chunk, off, n uint32 }

const arenaChunk = 256 << 10

func (a *byteArena) add(s string) arenaRef {
	last := len(a.chunks) - 1
	if last < 0 || cap(a.chunks[last])-len(a.chunks[last]) < len(s) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(s))))
		last++
	}
	c := a.chunks[last]
	r := arenaRef{uint32(last), uint32(len(c)), uint32(len(s))}
	a.chunks[last] = append(c, s...)
	return r
}

// get returns the string at r, sharing the arena's bytes.
func (a *byteArena) get(r arenaRef) string {
	if r.n == 0 {
		return ""
	}
	return unsafe.String(&a.chunks[r.chunk][r.off], r.n)
}
