package graph

import "strings"

// DefInfo is what resolution knows of one symbol definition: its page's
// ID and qualified name (with the "~n" of a repeated one), its file's path
// and language.
type DefInfo struct {
	ID, Qualified, Path, Lang string
	// page is 1 + the index of the page in the graph buildGraph lays
	// out, which then needs no lookup by ID; 0 elsewhere.
	page uint32
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
type MemWorld struct {
	byName   map[string][]DefInfo
	files    map[string]bool
	dirs     map[string]bool
	fileSfx  map[string][]string
	dirSfx   map[string][]string
	goModule string
}

// NewMemWorld describes the tree whose file records are all, with the Go
// module path goModule ("" if none).
func NewMemWorld(all []*FileRecord, goModule string) *MemWorld {
	w := newMemWorld(goModule)
	var pages []Page
	for _, f := range all {
		pages = filePages(f, pages[:0])
		w.addFile(f.Path, pages, -1)
	}
	w.addDirs(all)
	return w
}

func newMemWorld(goModule string) *MemWorld {
	return &MemWorld{
		byName:   map[string][]DefInfo{},
		files:    map[string]bool{},
		dirs:     map[string]bool{".": true},
		fileSfx:  map[string][]string{},
		dirSfx:   map[string][]string{},
		goModule: goModule,
	}
}

// addFile adds a file and the symbol pages among its pages (filePages'),
// which buildGraph lays out from index base (else base is -1).
func (w *MemWorld) addFile(p string, pages []Page, base int) {
	w.files[p] = true
	for s := p; ; {
		w.fileSfx[s] = append(w.fileSfx[s], p)
		j := strings.IndexByte(s, '/')
		if j < 0 {
			break
		}
		s = s[j+1:]
	}
	for i := range pages {
		if pg := &pages[i]; pg.Kind == KindSymbol && pg.Name != "" {
			w.byName[pg.Name] = append(w.byName[pg.Name], DefInfo{ID: pg.ID, Qualified: pg.Qualified, Path: pg.Path, Lang: pg.Lang, page: uint32(base + i + 1)})
		}
	}
}

// addDirs adds the directories of the files and their ancestors.
func (w *MemWorld) addDirs(all []*FileRecord) {
	for _, f := range all {
		for d := dirOf(f.Path); !w.dirs[d]; d = dirOf(d) {
			w.dirs[d] = true
			for s := d; ; {
				w.dirSfx[s] = append(w.dirSfx[s], d)
				j := strings.IndexByte(s, '/')
				if j < 0 {
					break
				}
				s = s[j+1:]
			}
		}
	}
}

// Defs implements World.
func (w *MemWorld) Defs(name string) []DefInfo { return w.byName[name] }

// HasFile implements World.
func (w *MemWorld) HasFile(p string) bool { return w.files[p] }

// HasDir implements World.
func (w *MemWorld) HasDir(d string) bool { return w.dirs[d] }

// FileWithSuffix implements World.
func (w *MemWorld) FileWithSuffix(s string) (string, int) {
	c := w.fileSfx[s]
	if len(c) == 0 {
		return "", 0
	}
	return shortest(c), len(c)
}

// DirWithSuffix implements World.
func (w *MemWorld) DirWithSuffix(s string) (string, bool) {
	c := w.dirSfx[s]
	if len(c) == 0 {
		return "", false
	}
	return shortest(c), true
}

// GoModule implements World.
func (w *MemWorld) GoModule() string { return w.goModule }
