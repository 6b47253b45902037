package graph

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// segWorld is the World of a tree whose derived data the segments of the
// live generation hold, with the records of the files a build changed laid
// over it: an incremental build resolves the files it must against it,
// reading only the keys each question names (n/NAME per segment) and the
// paths of the tree, never whole segments.
type segWorld struct {
	segs  []*segRef            // the live generation's file segments
	gone  map[string]bool      // stored copies that do not count (changed or removed files)
	over  map[string][]DefInfo // definitions of the new records, by name
	paths []string             // every file of the tree, sorted
	goMod string

	dirsOnce sync.Once
	dirs     map[string]bool // the tree's directories, made on first need

	mu       sync.Mutex
	defs     map[string][]DefInfo
	revFiles []string // paths reversed, sorted (suffix questions)
	revDirs  []string
	// Suffix questions answered by a scan so far (suffixScans).
	fileScans, dirScans int
}

// newSegWorld returns the World of paths (the tree's files, sorted) with
// the definitions of the stored segments, except of gone paths, and of
// over's records.
func newSegWorld(segs []*segRef, paths []string, gone map[string]bool, over []*FileRecord, goMod string) *segWorld {
	w := &segWorld{segs: segs, gone: gone, paths: paths, goMod: goMod, defs: map[string][]DefInfo{}}
	w.over = defsOf(over)
	return w
}

// dirSet returns the tree's directories ("." always).
func (w *segWorld) dirSet() map[string]bool {
	w.dirsOnce.Do(func() {
		w.dirs = map[string]bool{".": true}
		for _, p := range w.paths {
			for d := dirOf(p); !w.dirs[d]; d = dirOf(d) {
				w.dirs[d] = true
			}
		}
	})
	return w.dirs
}

func (w *segWorld) Defs(name string) []DefInfo {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ds, ok := w.defs[name]; ok {
		return ds
	}
	w.load([]string{name})
	return w.defs[name]
}

// prefetch answers Defs for names at once: one read of each segment, the
// keys in order (a resolution asks a file's hundreds of names one by one).
func (w *segWorld) prefetch(names []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var todo []string
	for _, n := range names {
		if _, ok := w.defs[n]; !ok {
			todo = append(todo, n)
		}
	}
	slices.Sort(todo)
	todo = slices.Compact(todo)
	w.load(todo)
}

// loadParallel is how many segments load asks at once.
const loadParallel = 4

// load reads the definitions of names (none known yet) from every segment
// whose filter may hold one, and adds the overlay's. Segments are asked
// loadParallel at once (each open syncs a folder: a function added at
// 100k files asks 28), their answers merged in segment order.
func (w *segWorld) load(names []string) {
	perSeg := make([]map[string][]DefInfo, len(w.segs))
	ask := func(k int) {
		r := w.segs[k]
		found := map[string][]DefInfo{}
		_ = r.lookup("n/", names, func(sg *segment, name string, v []byte) {
			stats, err := sg.cachedStats()
			if err != nil {
				return
			}
			out := found[name]
			defer func() { found[name] = out }()
			d := dec{b: v}
			for len(d.b) > 0 && d.err == nil {
				ord, langLocal, qual := d.uint(), d.uint(), d.qual(name)
				lang := langLocal >> 1
				if d.err != nil || ord >= uint64(len(stats)) || lang >= uint64(len(sg.info.Langs)) {
					return
				}
				p := stats[ord].Path
				if sg.dead[p] || w.gone[p] {
					continue
				}
				out = append(out, DefInfo{ID: SymbolID(p, qual), Qualified: qual, Path: p, Lang: sg.info.Langs[lang], Local: langLocal&1 != 0})
			}
		})
		perSeg[k] = found
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(loadParallel, len(w.segs)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(w.segs) {
					return
				}
				ask(k)
			}
		})
	}
	wg.Wait()
	for _, name := range names {
		var ds []DefInfo
		for _, found := range perSeg {
			ds = append(ds, found[name]...)
		}
		w.defs[name] = append(ds, w.over[name]...)
	}
}

func (w *segWorld) HasFile(p string) bool {
	_, ok := slices.BinarySearch(w.paths, p)
	return ok
}

// HasDir reports whether a file of the tree lies below d: a search of
// the sorted paths, not a set of every directory (60 ms at 100k files, on
// every edit that resolves an import).
func (w *segWorld) HasDir(d string) bool {
	return d == "." || hasDirIn(w.paths, d)
}
func (w *segWorld) GoModule() string { return w.goMod }

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// withSuffix returns, of the entries (reversed, sorted) whose path is s or
// ends in "/"+s, the shortest (the least on a tie) and how many, up to 2
// counted exactly... all of them counted.
func withSuffix(rev []string, s string) (best string, n int) {
	rs := reverse(s)
	i, _ := slices.BinarySearch(rev, rs)
	for ; i < len(rev) && strings.HasPrefix(rev[i], rs); i++ {
		r := rev[i]
		if len(r) != len(rs) && r[len(rs)] != '/' {
			continue
		}
		p := reverse(r)
		if n == 0 || len(p) < len(best) || len(p) == len(best) && p < best {
			best = p
		}
		n++
	}
	return best, n
}

// suffixScans is how many suffix questions of each kind a segWorld answers
// by a scan of the paths before it sorts them reversed: a file added or
// removed asks about 10 (changes: each suffix of its path and of the
// directories above), at 5 ms each at 100k files, where the sort costs
// 60–80 ms per kind and world; a resolution of many imports asks more.
const suffixScans = 16

// scanSuffix is withSuffix over paths, not reversed.
func scanSuffix(paths []string, s string) (best string, n int) {
	for _, p := range paths {
		if len(p) < len(s) || p[len(p)-len(s):] != s || len(p) > len(s) && p[len(p)-len(s)-1] != '/' {
			continue
		}
		if n == 0 || len(p) < len(best) || len(p) == len(best) && p < best {
			best = p
		}
		n++
	}
	return best, n
}

func (w *segWorld) FileWithSuffix(s string) (string, int) {
	w.mu.Lock()
	if w.revFiles == nil && w.fileScans < suffixScans {
		w.fileScans++
		w.mu.Unlock()
		return scanSuffix(w.paths, s)
	}
	if w.revFiles == nil {
		w.revFiles = make([]string, len(w.paths))
		for i, p := range w.paths {
			w.revFiles[i] = reverse(p)
		}
		slices.Sort(w.revFiles)
	}
	rev := w.revFiles
	w.mu.Unlock()
	return withSuffix(rev, s)
}

// dirScan is DirWithSuffix answered by a scan of the sorted paths, with
// no set of the directories (building one took 75 ms a world at 100k
// files, and a file in a new directory asks both worlds): a directory
// ending in s is a path's prefix that ends in s at a name boundary and
// is followed by '/', and a path's shortest is its first.
func dirScan(paths []string, s string) (best string, ok bool) {
	if s == "" {
		return "", false
	}
	for _, p := range paths {
		for from := 0; from < len(p); {
			i := strings.Index(p[from:], s)
			if i < 0 {
				break
			}
			i += from
			if end := i + len(s); (i == 0 || p[i-1] == '/') && end < len(p) && p[end] == '/' {
				if d := p[:end]; !ok || len(d) < len(best) || len(d) == len(best) && d < best {
					best, ok = d, true
				}
				break
			}
			from = i + 1
		}
	}
	return best, ok
}

func (w *segWorld) DirWithSuffix(s string) (string, bool) {
	w.mu.Lock()
	if w.revDirs == nil && w.dirScans < suffixScans {
		w.dirScans++
		w.mu.Unlock()
		return dirScan(w.paths, s)
	}
	if w.revDirs == nil {
		for d := range w.dirSet() {
			if d != "." {
				w.revDirs = append(w.revDirs, reverse(d))
			}
		}
		slices.Sort(w.revDirs)
	}
	rev := w.revDirs
	w.mu.Unlock()
	best, n := withSuffix(rev, s)
	return best, n > 0
}
