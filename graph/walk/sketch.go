package walk

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// This file holds the Sketch, what lets a build without a watcher find the
// changed paths of a large tree without reading every directory. A walk of
// a 100k-file tree (82k directories) is bound by the four system calls per
// directory (open, two getdents, close) and the stat per file: about a
// second; a stat of every directory and every indexed file by path, in
// parallel, a fifth of that. A directory's modification time moves when an
// entry is added, removed or renamed in it, its change time also when its
// permissions do; so a directory whose times stand holds the entries it
// held, and only the directories whose times moved are read again, and
// only their entries are walked (WalkPaths), with the files whose size or
// modification time moved.
//
// What the times do not tell, the sketch checks otherwise or gives up on:
// an ignore file edited in place (its own stamp is kept; a change means a
// walk of the whole tree), other walk options (a fingerprint), tracked
// files below ignored paths (the git index's stamp, when git was asked),
// and symbolic links to directories, below which a change moves no time
// of the tree (no sketch is taken of a tree with one; a file symlink is
// looked at again every time). File systems set times from a
// coarse clock (a few milliseconds), so a directory changed just after the
// walk read it may keep the time it was read with: directories whose time
// is less than RacyMargin older than the walk are read again next time,
// as git treats "racily clean" entries.

// RacyMargin is how much older than the walk a directory's times must be
// for the sketch to trust them (see above). Tests shorten it, to use
// sketches of trees they just made.
var RacyMargin = time.Second

// Sketch is what a walk saw of the shape of a tree: the directories it
// read with their times, and what else decides what it lists.
type Sketch struct {
	Options string     // fingerprint of the walk options (OptionsKey)
	Dirs    []DirStamp // sorted by Rel ("" the root)
	// Ignores are the ignore files the walk read: .gitignore files and
	// .wikitoolkitignore by repo-relative path, .git/info/exclude by its
	// absolute path.
	Ignores []FileStamp
	// GitIndex is the git index file and its stamp when the walk asked git
	// for tracked files below ignored paths ("" when not).
	GitIndex FileStamp
}

// DirStamp is a directory and its modification and change times (Unix
// nanoseconds; -1 when not to be trusted).
type DirStamp struct {
	Rel          string
	Mtime, Ctime int64
}

// FileStamp is a file and its size and modification time (-1, -1: absent).
type FileStamp struct {
	Path string
	Stamp
}

// OptionsKey is the fingerprint of the options that decide what a walk
// lists, as Sketch.Options records it.
func (opt Options) OptionsKey() string {
	max := opt.MaxFileBytes
	if max <= 0 {
		max = DefaultMaxFileBytes
	}
	exclude := opt.ExcludeDirs
	if exclude == nil {
		exclude = DefaultExcludeDirs
	}
	return fmt.Sprintf("%d|%q|%q|%q", max, exclude, opt.OmitNames, opt.OmitPaths)
}

// sketching is the state of a walk taking a sketch (Options.Sketch).
type sketching struct {
	mu      sync.Mutex
	start   int64 // Unix nanoseconds when the walk started
	dirs    []DirStamp
	ignores []FileStamp
	links   bool // a symbolic link to a directory was met: no sketch
	// linkPaths are the symbolic links met, to files and directories
	// (Result.Links).
	linkPaths []string
}

func (s *sketching) dir(rel string, d *dirHandle) {
	ds := DirStamp{Rel: rel, Mtime: -1, Ctime: -1}
	if m, c, ok := d.times(); ok {
		ds.Mtime, ds.Ctime = m, c
		if max(ds.Mtime, ds.Ctime) >= s.start-int64(RacyMargin) {
			ds.Mtime, ds.Ctime = -1, -1 // racy: read it again next time
		}
	}
	s.mu.Lock()
	s.dirs = append(s.dirs, ds)
	s.mu.Unlock()
}

// ignore records the ignore file abs under the name p (repo-relative, or
// abs for one outside the tree), present or not.
func (s *sketching) ignore(p, abs string) {
	fst := FileStamp{Path: p, Stamp: Stamp{Size: -1, ModTime: -1}}
	if fi, err := os.Lstat(abs); err == nil {
		fst.Size, fst.ModTime = fi.Size(), fi.ModTime().UnixNano()
	}
	s.mu.Lock()
	s.ignores = append(s.ignores, fst)
	s.mu.Unlock()
}

// MetDirLink reports whether a walk taking a sketch (Options.Sketch) met
// a symbolic link to a directory: no sketch of the tree holds then (Walk's
// Sketch is nil, and one that WalkPaths updates would miss changes below
// the link).
func (r *Result) MetDirLink() bool { return r.sketch != nil && r.sketch.links }

// Links returns the symbolic links a walk taking a sketch met (not
// ignored; followed, skipped or not indexed), sorted: a change of a
// link's target makes no event at the link, so engine/wiki's journal has
// a build look at each again every time.
func (r *Result) Links() []string {
	if r.sketch == nil {
		return nil
	}
	r.sketch.mu.Lock()
	defer r.sketch.mu.Unlock()
	out := slices.Clone(r.sketch.linkPaths)
	slices.Sort(out)
	return out
}

func (s *sketching) link() {
	s.mu.Lock()
	s.links = true
	s.mu.Unlock()
}

func (s *sketching) linkAt(rel string) {
	s.mu.Lock()
	s.linkPaths = append(s.linkPaths, rel)
	s.mu.Unlock()
}

// sketch is the Sketch of a finished walk, or nil when it met a symbolic
// link.
func (s *sketching) sketch(opt Options, root string, askedGit bool) *Sketch {
	if s == nil || s.links {
		return nil
	}
	sk := &Sketch{Options: opt.OptionsKey(), Dirs: s.dirs, Ignores: s.ignores}
	slices.SortFunc(sk.Dirs, func(a, b DirStamp) int { return strings.Compare(a.Rel, b.Rel) })
	slices.SortFunc(sk.Ignores, func(a, b FileStamp) int { return strings.Compare(a.Path, b.Path) })
	if askedGit {
		sk.GitIndex = stampOf(gitIndexPath(root))
	}
	return sk
}

// stampOf is the FileStamp of p (absent: -1, -1).
func stampOf(p string) FileStamp {
	fst := FileStamp{Path: p, Stamp: Stamp{Size: -1, ModTime: -1}}
	if fi, err := os.Stat(p); err == nil {
		fst.Size, fst.ModTime = fi.Size(), fi.ModTime().UnixNano()
	}
	return fst
}

// gitIndexPath is the index file of the git repository holding root, next
// to its info/exclude.
func gitIndexPath(root string) string {
	ex := gitInfoExclude(root)
	if ex == "" {
		return ""
	}
	return path.Join(path.Dir(path.Dir(ex)), "index")
}

// Since returns the paths (for WalkPaths) that may differ from what the
// walk that took sk saw, given the files that walk's build indexed or
// skipped (known, with their stamps; a skipped file's stamp may be -1, -1
// so that it is looked at again): the directories whose times moved, read
// again, give their entries, and the known files whose stamp moved. It
// reads the directories whose times moved and stats every directory and
// known file but those opt.Watched names. ok is false when the tree must
// be walked whole: other options, an ignore file or the git index
// changed, or more than maxSincePaths paths. dirs are the stamps of the
// directories, taken before they were read, for Update.
func (sk *Sketch) Since(ctx context.Context, root string, opt Options, known []FileStamp) (paths []string, dirs map[string]DirStamp, ok bool) {
	if sk == nil || sk.Options != opt.OptionsKey() {
		return nil, nil, false
	}
	start := time.Now().UnixNano()
	for _, ig := range sk.Ignores {
		p := ig.Path
		if !strings.HasPrefix(p, "/") {
			p = joinAbs(root, p)
		}
		if now := stampOf(p); now.Stamp != ig.Stamp {
			return nil, nil, false
		}
	}
	if sk.GitIndex.Path != "" && stampOf(sk.GitIndex.Path).Stamp != sk.GitIndex.Stamp {
		return nil, nil, false
	}
	// The directories and files, stat'ed on two goroutines. At 100k files
	// (82.5k directories) this is 182.9k stats (175.3k fstatat, 7.6k
	// anchors' fstat), each directory and file once (SinceCalls), and
	// 84 % of a no-change build's CPU: the kernel's path lookup is a third of
	// it and the syscall entry about a twentieth, so a cheaper call
	// (statx with a small mask) saves nothing measurable. The calls are raw
	// (lstatz_linux_amd64.go): on this project's 2-core VMs the scheduler's
	// bookkeeping around each call cost 0.6 µs, a quarter of the pass (a
	// no-change build at 100k files 245 → 205 ms, median of 6, alternated;
	// with two, four or eight busy loops or a full build beside it, not
	// slower: 0.48 → 0.42 s, 0.63 → 0.62 s, 1.13 → 1.03 s, 0.44 → 0.42 s). A session before had
	// measured the raw calls slower on a loaded machine (1.4 s against
	// 0.9 s); that did not come back. BenchmarkStatFloor (benchmarks/) is
	// the same stats with nothing else, the floor of this pass.
	type statted struct {
		moved bool
		ds    DirStamp
	}
	dirRes := make([]statted, len(sk.Dirs))
	fileMoved := make([]bool, len(known))
	statDir := func(i int, st timedStat, ok bool) {
		d := sk.Dirs[i]
		ds := DirStamp{Rel: d.Rel, Mtime: -1, Ctime: -1}
		if ok && st.typ == fs.ModeDir {
			ds.Mtime, ds.Ctime = st.mtime, st.ctime
			if max(ds.Mtime, ds.Ctime) >= start-int64(RacyMargin) {
				ds.Mtime, ds.Ctime = -1, -1
			}
		}
		dirRes[i] = statted{moved: d.Mtime < 0 || ds.Mtime != d.Mtime || ds.Ctime != d.Ctime, ds: ds}
	}
	statFile := func(j int, st timedStat, ok bool) {
		f := known[j]
		fileMoved[j] = !ok || st.typ != 0 || st.size != f.Size || st.mtime != f.ModTime
	}
	// A directory file system events watch, and its files, are not
	// stat'ed (Options.Watched).
	var watched func(rel string, dir bool) bool
	if opt.Watched != nil {
		watched = func(rel string, dir bool) bool {
			if !dir {
				if rel = path.Dir(rel); rel == "." {
					rel = ""
				}
			}
			return opt.Watched(rel)
		}
	}
	plan := planAnchors(sk.Dirs, known)
	n := walkWorkers()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			stt := newStatter(root)
			var kept []int32
			defer func() {
				stt.closeAnchor()
				sinceStats.Add(int64(stt.stats))
				sinceOpens.Add(int64(stt.opens))
			}()
			for {
				u := int(next.Add(1)) - 1
				if u >= len(plan.units) {
					return
				}
				items := plan.items[plan.start[u]:plan.start[u+1]]
				h := plan.units[u]
				if watched != nil {
					// Only what no watch covers; a unit with nothing
					// left is not opened.
					kept = kept[:0]
					for _, it := range items {
						if it >= 0 && !watched(sk.Dirs[it].Rel, true) || it < 0 && !watched(known[^it].Path, false) {
							kept = append(kept, it)
						}
					}
					items = kept
					if len(items) == 0 && (h < 0 || watched(sk.Dirs[h].Rel, true)) {
						continue
					}
				}
				anchored := false
				base := ""
				if h >= 0 {
					base = sk.Dirs[h].Rel
					st, ok := stt.openAnchor(base)
					if ok {
						anchored = true
						statDir(int(h), st, true)
					} else {
						st, ok = stt.lstat(base)
						statDir(int(h), st, ok)
					}
				}
				for _, it := range items {
					rel := ""
					if it >= 0 {
						rel = sk.Dirs[it].Rel
					} else {
						rel = known[^it].Path
					}
					var st timedStat
					var ok bool
					if anchored {
						sub := rel
						if base != "" {
							sub = rel[len(base)+1:]
						}
						st, ok = stt.lstatAt(sub)
					} else {
						st, ok = stt.lstat(rel)
					}
					if it >= 0 {
						statDir(int(it), st, ok)
					} else {
						statFile(int(^it), st, ok)
					}
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, false
	}
	isDir := func(rel string) bool { // sk.Dirs is sorted: no set of every directory
		_, ok := slices.BinarySearchFunc(sk.Dirs, rel, func(d DirStamp, rel string) int { return strings.Compare(d.Rel, rel) })
		return ok
	}
	dirs = map[string]DirStamp{}
	set := map[string]bool{}
	movedDirs := map[string]bool{}
	var children map[string][]string // known directories by parent (path.Dir)
	for i, d := range sk.Dirs {
		if !dirRes[i].moved {
			continue
		}
		dirs[d.Rel] = dirRes[i].ds
		movedDirs[d.Rel] = true
		if dirRes[i].ds.Mtime < 0 && dirRes[i].ds.Ctime < 0 {
			if _, err := os.Lstat(joinAbs(root, d.Rel)); err != nil {
				if d.Rel == "" {
					return nil, nil, false
				}
				set[d.Rel] = true // gone: everything below it goes
				continue
			}
		}
		ents, err := os.ReadDir(joinAbs(root, d.Rel))
		if err != nil {
			return nil, nil, false
		}
		present := map[string]bool{}
		for _, e := range ents {
			rel := e.Name()
			if d.Rel != "" {
				rel = d.Rel + "/" + rel
			}
			present[rel] = true
			if e.IsDir() && isDir(rel) {
				continue // its own times decide
			}
			set[rel] = true
		}
		// Known directories below it that are gone.
		if children == nil {
			// By parent, once: a scan of every directory per moved one
			// took minutes on a copied tree of 80k directories (all moved).
			children = map[string][]string{}
			for _, sub := range sk.Dirs {
				if sub.Rel != "" {
					children[path.Dir(sub.Rel)] = append(children[path.Dir(sub.Rel)], sub.Rel)
				}
			}
		}
		for _, sub := range children[orDot(d.Rel)] {
			if !present[sub] {
				set[sub] = true
			}
		}
		if len(set) > maxSincePaths {
			return nil, nil, false
		}
	}
	for i, f := range known {
		if fileMoved[i] || movedDirs[parentRel(f.Path)] {
			set[f.Path] = true
		}
	}
	if len(set) > maxSincePaths {
		return nil, nil, false
	}
	// An ignore file the sketch holds had its stamp checked above: it is
	// named again only because its directory moved, and stands. A new one
	// changes what is ignored anywhere below it.
	knownIgnore := map[string]bool{}
	for _, ig := range sk.Ignores {
		knownIgnore[ig.Path] = true
	}
	for p := range set {
		if b := path.Base(p); b == ".gitignore" || b == ".wikitoolkitignore" {
			if !knownIgnore[p] {
				return nil, nil, false // a new ignore file
			}
			delete(set, p)
		}
	}
	paths = make([]string, 0, len(set))
	for p := range set {
		if !set[parentRel(p)] || parentRel(p) == "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, dirs, true
}

// sinceStats and sinceOpens count the stats and anchor opens of every
// Since (SinceCalls).
var sinceStats, sinceOpens atomic.Int64

// SinceCalls returns how many stats (of a directory or file, by path or
// relative to an anchor, or an anchor's own) and anchor opens the Since
// calls of this process made: one stat per directory of the sketch and
// per known file, and one open per anchor. Safe for concurrent use; for
// tests.
func SinceCalls() (stats, opens int64) { return sinceStats.Load(), sinceOpens.Load() }

// anchorMin is how many entries (known files and directories) a directory
// must have for Since to open it and stat them relative to it: the open,
// fstat and close cost three system calls where an lstat by path costs one,
// and each entry's stat saves the resolution of the path down to it.
const anchorMin = 4

// anchorPlan is how Since stats a sketch's directories and known files:
// in units, each a directory opened once (an anchor: the root, or a
// directory with at least anchorMin entries) and the directories and files
// below it down to the next anchors, stat'ed relative to it, so that most
// stats resolve one or two path components instead of the whole path.
// Entries whose parent the sketch does not hold are stat'ed by path (the
// unit -1).
type anchorPlan struct {
	units []int32 // index in Dirs of each unit's anchor; -1: by path
	start []int32 // items[start[u]:start[u+1]] are unit u's entries
	items []int32 // an index in Dirs, or ^index in known
}

func planAnchors(dirs []DirStamp, known []FileStamp) anchorPlan {
	// The parent of an entry is found in dirs (sorted) by a binary search,
	// after a look at the parent found last and the directories after it:
	// entries come sorted, so their parents mostly come in order too (a
	// map of the directories, at 100k files 82k of them, cost 40 ms of an
	// edit to build and ask).
	last := int32(-1)
	parent := func(rel string) int32 {
		pr := parentRel(rel)
		for k := max(last, 0); k < last+3 && int(k) < len(dirs); k++ {
			if dirs[k].Rel == pr {
				last = k
				return k
			}
		}
		i, ok := slices.BinarySearchFunc(dirs, pr, func(d DirStamp, rel string) int { return strings.Compare(d.Rel, rel) })
		if !ok {
			return -1
		}
		last = int32(i)
		return last
	}
	dpar := make([]int32, len(dirs))
	fpar := make([]int32, len(known))
	count := make([]int32, len(dirs))
	for i, d := range dirs {
		dpar[i] = -1
		if d.Rel != "" {
			if dpar[i] = parent(d.Rel); dpar[i] >= 0 {
				count[dpar[i]]++
			}
		}
	}
	for j, f := range known {
		if fpar[j] = parent(f.Path); fpar[j] >= 0 {
			count[fpar[j]]++
		}
	}
	// unit[i] is the unit of directory i's entries: i's own when it is an
	// anchor, else its parent's (dirs is sorted: a parent comes first).
	unit := make([]int32, len(dirs))
	anchor := make([]bool, len(dirs))
	var p anchorPlan
	p.units = []int32{-1}
	for i, d := range dirs {
		switch {
		case d.Rel == "" || count[i] >= anchorMin:
			anchor[i] = true
			unit[i] = int32(len(p.units))
			p.units = append(p.units, int32(i))
		case dpar[i] < 0:
			unit[i] = 0
		default:
			unit[i] = unit[dpar[i]]
		}
	}
	// An entry is stat'ed in its parent's unit; an anchor by its own (the
	// fstat of its descriptor).
	of := func(par int32) int32 {
		if par < 0 {
			return 0
		}
		return unit[par]
	}
	p.start = make([]int32, len(p.units)+1)
	for i := range dirs {
		if !anchor[i] {
			p.start[of(dpar[i])+1]++
		}
	}
	for j := range known {
		p.start[of(fpar[j])+1]++
	}
	for u := range p.units {
		p.start[u+1] += p.start[u]
	}
	fill := slices.Clone(p.start[:len(p.units)])
	p.items = make([]int32, p.start[len(p.units)])
	for i := range dirs {
		if !anchor[i] {
			u := of(dpar[i])
			p.items[fill[u]] = int32(i)
			fill[u]++
		}
	}
	for j := range known {
		u := of(fpar[j])
		p.items[fill[u]] = ^int32(j)
		fill[u]++
	}
	return p
}

// maxSincePaths is the most paths Since returns; past it a walk of the
// whole tree costs less than walking them one by one.
const maxSincePaths = 20000

func orDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// parentRel is the repo-relative directory of rel ("" the root).
func parentRel(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return rel[:i]
}

// Update returns the sketch of the tree after a walk of paths (the
// Result of WalkPaths with Options.Sketch) found what changed: sk with the
// directories at or below paths replaced by those the walk read, the
// stamps of the directories read again (dirs, from Since) put in, and
// the ignore files the walk read added. It returns nil when the walk met
// a symbolic link.
func (sk *Sketch) Update(paths []string, dirs map[string]DirStamp, walked *Result) *Sketch {
	if walked.sketch == nil || walked.sketch.links {
		return nil
	}
	sc, ok := NewScope(paths)
	if !ok {
		return nil
	}
	out := &Sketch{Options: sk.Options, GitIndex: sk.GitIndex}
	// sk.Dirs is sorted, and so are those kept: the few the walk read are
	// merged in, not the 82k directories of a 100k-file tree sorted again
	// (a file added cost 20 ms in Update, appending and sorting).
	read := slices.Clone(walked.sketch.dirs)
	slices.SortFunc(read, func(a, b DirStamp) int { return strings.Compare(a.Rel, b.Rel) })
	out.Dirs = make([]DirStamp, 0, len(sk.Dirs)+len(read))
	for _, d := range sk.Dirs {
		if d.Rel != "" && sc.Contains(d.Rel) {
			continue
		}
		if ds, ok := dirs[d.Rel]; ok {
			d = ds
		}
		for len(read) > 0 && read[0].Rel < d.Rel {
			out.Dirs, read = append(out.Dirs, read[0]), read[1:]
		}
		out.Dirs = append(out.Dirs, d)
	}
	out.Dirs = append(out.Dirs, read...)
	for _, ig := range sk.Ignores {
		if strings.HasPrefix(ig.Path, "/") || !sc.Contains(ig.Path) {
			out.Ignores = append(out.Ignores, ig)
		}
	}
	out.Ignores = append(out.Ignores, walked.sketch.ignores...)
	slices.SortFunc(out.Ignores, func(a, b FileStamp) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Same reports whether Update(paths, dirs, walked) would return sk as it
// is: no directory's times moved (dirs empty), the walk of paths read no
// directory and no ignore file, and sk holds none at or below paths. A
// file's content changed is such a change, which saves a build encoding
// the sketch again (82k directories at 100k files).
func (sk *Sketch) Same(paths []string, dirs map[string]DirStamp, walked *Result) bool {
	if walked.sketch == nil || walked.sketch.links || len(dirs) > 0 || len(walked.sketch.dirs) > 0 || len(walked.sketch.ignores) > 0 {
		return false
	}
	sc, ok := NewScope(paths)
	if !ok {
		return false
	}
	for _, p := range sc.Paths() {
		// Sorted, the directories at or below p are p and a run after
		// the names starting with p+"/".
		if _, found := slices.BinarySearchFunc(sk.Dirs, p, func(d DirStamp, p string) int { return strings.Compare(d.Rel, p) }); found {
			return false
		}
		i, _ := slices.BinarySearchFunc(sk.Dirs, p+"/", func(d DirStamp, p string) int { return strings.Compare(d.Rel, p) })
		if i < len(sk.Dirs) && strings.HasPrefix(sk.Dirs[i].Rel, p+"/") {
			return false
		}
	}
	for _, ig := range sk.Ignores {
		if !strings.HasPrefix(ig.Path, "/") && sc.Contains(ig.Path) {
			return false
		}
	}
	return true
}

// Untrust returns sk with the directories holding paths, and those at or
// below them, to be read again: what a build of a watcher's paths leaves
// (the changes it took in moved those directories' times).
func (sk *Sketch) Untrust(paths []string) *Sketch {
	sc, ok := NewScope(paths)
	if !ok {
		return nil
	}
	parents := map[string]bool{}
	for _, p := range sc.Paths() {
		parents[parentRel(p)] = true
	}
	out := *sk
	out.Dirs = slices.Clone(sk.Dirs)
	for i, d := range out.Dirs {
		if parents[d.Rel] || (d.Rel != "" && sc.Contains(d.Rel)) {
			out.Dirs[i].Mtime, out.Dirs[i].Ctime = -1, -1
		}
	}
	return &out
}
