// Package walk lists the files of a repository that a build indexes, and
// answers the questions about repository paths that every part asks the
// same way: Walk (ignore rules, git's tracked files, excluded and omitted
// folders, symlinks, size limits), ClassifyContent (binary, generated,
// minified), IsTest (the test-path conventions), Confine (a path a user
// gave, kept inside the root) and Diff (what changed since a build).
// WalkPaths walks a few paths alone, with Walk's rules (a watcher's
// paths, paths.go); a Sketch, taken by a walk, names the paths that may
// have changed since by the times of the directories (sketch.go), so that
// a build without a watcher need not read every directory either.
// It knows nothing of pages or of the index: the folders it omits and the
// languages it detects are options it is given.
package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// This file holds Walk, which lists the files of a repository that the
// builder indexes. It runs before every build, incremental or not, so its cost
// is paid even when nothing changed. It is bound by system calls: one fstatat
// per listed file (size and mtime feed the incremental build) and five per
// directory. On moby with vendor/ (13k files, 2.7k directories) it takes
// 36–42 ms on a 2-vCPU VM where `find -printf %s` takes 30 ms; without
// vendor/ (3.3k files) 7 ms. The costs it avoids: reading file contents (the
// builder does that, and classifies them with ClassifyContent), stat'ing files
// that Detect rejects, full-path lstat (fstatat on the open directory
// instead), os.Open's extra calls on directories, and regexp-based ignore
// matching (see ignore.go).

// DefaultMaxFileBytes is the size above which Walk skips a file when
// Options.MaxFileBytes is 0. Source files above 1 MiB are nearly always
// generated tables or bundled data, and parsing one costs more than a
// thousand ordinary files.
const DefaultMaxFileBytes = 1 << 20

// DefaultExcludeDirs are the directory names that Walk skips, at any depth,
// when Options.ExcludeDirs is nil: copies of other projects' code that
// would drown the repository's own pages. Do not modify it.
var DefaultExcludeDirs = []string{"vendor", "node_modules", "third_party"}

// Options configures Walk. The zero value means the defaults.
type Options struct {
	// MaxFileBytes is the largest file size listed; larger files are skipped
	// as "too large". 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// ExcludeDirs are directory base names skipped at any depth and reported
	// once each as "vendored directory". nil means DefaultExcludeDirs; an
	// empty non-nil slice excludes nothing.
	ExcludeDirs []string
	// Detect returns the language of a repo-relative slash path, or "" when
	// the file is not indexed (it is then counted in Result.Unsupported,
	// not listed). nil lists every file whose extension is not an obviously
	// binary one (images, archives, objects, fonts, …), with Lang "".
	// Walk calls Detect from several goroutines at once.
	Detect func(path string) string
	// OmitNames are file and directory base names omitted silently at any
	// depth, as .git always is: the index's own folder (graph.IndexDirName,
	// which graph.SourceWalk adds to every walk of a repository's source).
	OmitNames []string
	// OmitPaths are repo-relative slash paths omitted silently: the shared
	// notes folder at the root (annotate.SharedDirName), whose files are
	// pages already, which the service layer's walks name.
	OmitPaths []string
	// Reason says why Detect rejected a path ("binary (by extension)",
	// "license text"); the rejected files are counted by extension with it
	// (Result.NotIndexed). nil means "no language", or with a nil
	// Detect "binary (by extension)". Called from several goroutines.
	Reason func(path string) string
	// ListDirs fills Result.DirPaths: the directories the walk read, for a
	// watcher that must see every file a later walk would list.
	ListDirs bool
	// Sketch fills Result.Sketch (sketch.go): the directories the walk
	// read with their times, for a later build to find what changed
	// without reading them all. It costs an fstat per directory.
	Sketch bool
	// Watched, when not nil, names the directories whose changes file
	// system events report (a watcher that has watches for part of the
	// tree): Sketch.Since stats neither them nor their files, which a
	// check of the paths the events name covers. Called from several
	// goroutines.
	Watched func(dir string) bool
	// Listed, when not nil, counts the files the walk lists as it lists
	// them (a first build watches it to tell a large tree early).
	Listed *atomic.Int64
	// Hold, when not nil, is called by the goroutines of the walk before
	// each directory they read below the root: a first build holds the
	// walk while its first batch has the cores. It must return.
	Hold func()
}

// Omits reports whether a walk with opt leaves out the repo-relative slash
// path rel for its name or place, whatever the ignore rules say: a
// component is .git, one of OmitNames or (as a directory holding rel) one
// of ExcludeDirs (nil: DefaultExcludeDirs), or rel is or lies below one of
// OmitPaths. A file watcher asks it of each event's path.
func (opt Options) Omits(rel string) bool {
	exclude := opt.ExcludeDirs
	if exclude == nil {
		exclude = DefaultExcludeDirs
	}
	for _, p := range opt.OmitPaths {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	dir := path.Dir(rel)
	for c := range strings.SplitSeq(rel, "/") {
		if c == ".git" || slices.Contains(opt.OmitNames, c) {
			return true
		}
	}
	if dir == "." {
		return false
	}
	for c := range strings.SplitSeq(dir, "/") {
		if slices.Contains(exclude, c) {
			return true
		}
	}
	return false
}

// File is one file to index.
type File struct {
	Path    string // repo-relative, "/"-separated, clean
	Abs     string // the file to open: absolute, symlinks resolved (for a followed symlink, its target)
	Size    int64  // bytes
	ModTime int64  // modification time, Unix nanoseconds
	Lang    string // what Options.Detect returned
}

// Skip is a path that Walk left out for a reason worth telling the user:
// "too large (N bytes > limit M)", "vendored directory", "symlink outside the
// root", "symlink loop", "broken symlink", "unreadable: permission denied",
// "path too long", "not a regular file", …. Ignored and unsupported files are
// not Skips.
type Skip struct {
	Path   string `json:"path"` // repo-relative, "/"-separated
	Reason string `json:"reason"`
}

// Result is what Walk found.
type Result struct {
	Files       []File // sorted by Path
	Skipped     []Skip // sorted by Path
	Unsupported int    // files not ignored but rejected by Detect
	// rejected counts the Unsupported files by extension and reason.
	rejected map[notIndexedKey]int
	Dirs     int // directories read
	// DirPaths are the repo-relative slash paths of the directories read
	// ("" for the root), sorted; only with Options.ListDirs.
	DirPaths []string
	// Unwalked are the paths WalkPaths was given that exist but that Walk
	// lists nothing at or below, with why: omitted (ReasonOmitted), ignored
	// (ReasonIgnored), rejected by Detect ("not indexed: …") or below a
	// directory Walk does not read ("below DIR: REASON"). Sorted by Path;
	// Walk leaves it nil. A path that is gone is not among them.
	Unwalked []Skip
	// TrackedErr is why the tracked files that ignore rules exclude could
	// not be listed (git missing or failing); they were then left out. It is
	// nil when git succeeded or was not needed.
	TrackedErr error
	// Sketch is the shape of the tree the walk saw, with Options.Sketch
	// (nil when it met a symbolic link); sketch is what WalkPaths saw, for
	// Sketch.Update.
	Sketch *Sketch
	sketch *sketching
}

// Walk lists the files under root that the builder should index.
//
// It honours .gitignore files at every level, .git/info/exclude and an
// optional .wikitoolkitignore at the root, with git's semantics: the nearest
// .gitignore decides, the last matching line of a file wins, "!" re-includes,
// and nothing below an excluded directory can be re-included because the
// directory is not read. .wikitoolkitignore (gitignore syntax, relative to the
// root) is consulted before all of them, so it can also re-include what a
// .gitignore excludes. Global git excludes (core.excludesFile) are not read:
// they are one user's taste, and the index should not depend on who built it.
// .git and the names and paths of Options.OmitNames and OmitPaths are
// omitted. Ignored paths are omitted silently.
//
// Like git, Walk does not ignore tracked files: when the root lies in a git
// work tree and ignore rules (other than .wikitoolkitignore) excluded a path
// holding tracked files, it asks git for them and lists them as usual
// (git.go). Without a working git they stay ignored, and
// Result.TrackedErr says why.
//
// In-root file symlinks are listed under the link's path with Abs = target.
// In-root directory symlinks are followed once, after the real tree, unless
// they point at an ancestor ("symlink loop") or at a directory already walked.
// Anything Walk cannot or should not read becomes a Skip; only a root that
// cannot be read is an error. ctx is checked once per directory.
//
// Walk keeps no state between calls and is safe for concurrent use.
func Walk(ctx context.Context, root string, opt Options) (*Result, error) {
	resolved, err := resolveRoot(root)
	if err != nil {
		return nil, err
	}
	cfg := newWalkConfig(opt, resolved)
	base := cfg.loadRootIgnores()

	// The root alone, as its failure is the only fatal one.
	w := cfg.newWalker()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := w.readDir(dirTask{abs: resolved, ign: base, root: true}); err != nil {
		return nil, err
	}
	// The real tree, in parallel.
	if len(w.stack) > 0 {
		parts, err := cfg.parallel(ctx, w.stack, walkWorkers())
		if err != nil {
			return nil, err
		}
		w.stack = w.stack[:0]
		for _, p := range parts {
			w.merge(p)
		}
	}
	// Tracked files that ignore rules excluded, before the symlinks so that
	// a link to one of their directories is not walked in its stead.
	if err := w.walkTracked(ctx); err != nil {
		return nil, err
	}
	// Directory symlinks, one by one, now that every real directory is known.
	if err := w.followLinks(ctx); err != nil {
		return nil, err
	}
	w.sortResult(opt.ListDirs)
	if cfg.sk != nil {
		w.res.Sketch = cfg.sk.sketch(opt, resolved, cfg.askedGit.Load())
		w.res.sketch = cfg.sk // Links, MetDirLink
	}
	return w.res, nil
}

// newWalkConfig is the configuration of a walk of root (real path) with opt.
func newWalkConfig(opt Options, root string) *walkConfig {
	cfg := &walkConfig{opt: opt, root: root, exclude: opt.ExcludeDirs, git: inGitWorkTree(root)}
	if cfg.opt.MaxFileBytes <= 0 {
		cfg.opt.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.exclude == nil {
		cfg.exclude = DefaultExcludeDirs
	}
	if opt.Sketch {
		cfg.sk = &sketching{start: time.Now().UnixNano()}
	}
	return cfg
}

// walkWorkers is how many goroutines read directories: 8, whatever the
// cores. A walk whose directories and inodes are cached is bound by system
// calls, which scale with cores (on 2 vCPUs, 2 workers cut moby's walk from
// 42 to 36 ms), and more workers than cores cost it nothing measurable (the
// synthetic 100k-file tree on 2 vCPUs: 0.92–1.05 s with 2, 8 or 16; its
// one-file walked rebuild 336 ms with 2, 326 with 8, medians of 6). A cold
// walk, after a reboot or once the inodes left the cache, waits on the disk
// instead, one read per directory and inode block, and more reads in flight
// shorten it: the same tree on a freshly mounted loop device (direct I/O,
// benchmarks/cold.sh) walked in 9.9–11.0 s with 2 workers, 6.5–7.8 s with 8,
// 6.9–8.2 s with 16. Past 8, contention on the queue's lock and in the
// kernel's dentry cache is likely to outweigh the gain on a cached tree.
func walkWorkers() int { return 8 }

// Skip reasons that are compared or repeated.
const (
	reasonVendored    = "vendored directory"
	reasonOutside     = "symlink outside the root"
	reasonLoop        = "symlink loop"
	reasonBroken      = "broken symlink"
	reasonDenied      = "unreadable: permission denied"
	reasonTooLong     = "path too long"
	reasonNotRegular  = "not a regular file"
	reasonUnreadable  = "unreadable: "
	reasonWalkedAlias = "symlink to a directory already walked"
)

// walkConfig is what the goroutines of one Walk share; it is read-only once
// the walk starts.
type walkConfig struct {
	opt     Options
	root    string // absolute, symlinks resolved
	exclude []string
	extra   *ignoreList // .wikitoolkitignore, consulted first
	git     bool        // the root lies in a git work tree
	sk      *sketching  // with Options.Sketch
	// askedGit is set when the walk asked git for tracked files.
	askedGit atomic.Bool
}

// walker is the state of one goroutine of a Walk.
type walker struct {
	*walkConfig
	visited map[string]string // real path of every directory read → its Path
	stack   []dirTask         // directories still to read
	links   []dirLink         // directory symlinks, followed after the real tree
	res     *Result
	// gitIgnored are the paths that git ignore rules excluded, recorded
	// while collect is set (git.go).
	gitIgnored []ignoredPath
	collect    bool
}

func (c *walkConfig) newWalker() *walker {
	return &walker{walkConfig: c, visited: make(map[string]string), res: &Result{}, collect: c.git}
}

// merge moves what p found into w.
func (w *walker) merge(p *walker) {
	w.res.Files = append(w.res.Files, p.res.Files...)
	w.res.Skipped = append(w.res.Skipped, p.res.Skipped...)
	w.res.Unsupported += p.res.Unsupported
	for k, n := range p.res.rejected {
		if w.res.rejected == nil {
			w.res.rejected = map[notIndexedKey]int{}
		}
		w.res.rejected[k] += n
	}
	w.res.Dirs += p.res.Dirs
	w.links = append(w.links, p.links...)
	w.gitIgnored = append(w.gitIgnored, p.gitIgnored...)
	for k, v := range p.visited {
		w.visited[k] = v
	}
}

// dirTask is a directory to read.
type dirTask struct {
	abs  string      // real path
	rel  string      // repo-relative path, "" for the root
	ign  *ignoreList // ignore files of the enclosing directories
	root bool        // errors are fatal
	// keep, when not nil, restricts the task to the paths it holds, and
	// ignore rules other than .wikitoolkitignore do not apply to them: they
	// are tracked files and the directories on their way (git.go).
	keep   map[string]bool
	reread bool // the directory was read before; do not count it again
}

// dirLink is a symlink to an in-root directory, followed after the real tree
// so that a directory reached both ways is listed under its real path.
type dirLink struct {
	rel       string // the link's path
	target    string // real path of the target
	parentAbs string // real path of the directory holding the link
	ign       *ignoreList
}

// parallel reads the directories below seeds with n goroutines and returns
// the state of each. Below a real directory lies no directory already read,
// so the goroutines need not share their visited sets.
func (c *walkConfig) parallel(ctx context.Context, seeds []dirTask, n int) ([]*walker, error) {
	q := &dirQueue{tasks: slices.Clone(seeds)}
	q.cond.L = &q.mu
	parts := make([]*walker, n)
	var wg sync.WaitGroup
	for i := range parts {
		w := c.newWalker()
		parts[i] = w
		wg.Go(func() {
			for {
				t, ok := q.pop()
				if !ok {
					return
				}
				if c.opt.Hold != nil {
					c.opt.Hold()
				}
				if err := ctx.Err(); err != nil {
					q.fail(err)
					return
				}
				w.readDir(t) // cannot fail below the root
				q.finish(w.stack)
				w.stack = w.stack[:0]
			}
		})
	}
	wg.Wait()
	if q.err != nil {
		return nil, q.err
	}
	return parts, nil
}

// dirQueue hands directories to the goroutines of parallel. It is done when
// it is empty and no goroutine is reading a directory that may add more.
type dirQueue struct {
	mu     sync.Mutex
	cond   sync.Cond
	tasks  []dirTask
	active int // goroutines between pop and finish
	err    error
}

func (q *dirQueue) pop() (dirTask, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.tasks) == 0 && q.active > 0 && q.err == nil {
		q.cond.Wait()
	}
	if len(q.tasks) == 0 || q.err != nil {
		return dirTask{}, false
	}
	t := q.tasks[len(q.tasks)-1]
	q.tasks = q.tasks[:len(q.tasks)-1]
	q.active++
	return t, true
}

func (q *dirQueue) finish(more []dirTask) {
	q.mu.Lock()
	q.tasks = append(q.tasks, more...)
	q.active--
	if len(more) > 0 || q.active == 0 {
		q.cond.Broadcast()
	}
	q.mu.Unlock()
}

func (q *dirQueue) fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.active--
	q.cond.Broadcast()
	q.mu.Unlock()
}

// followLinks follows the queued directory symlinks and those found below
// them, in path order, so that which of two links to one directory wins does
// not depend on the order of directories on disk.
func (w *walker) followLinks(ctx context.Context) error {
	for len(w.links) > 0 {
		links := w.links
		w.links = nil
		slices.SortFunc(links, func(a, b dirLink) int { return strings.Compare(a.rel, b.rel) })
		for _, l := range links {
			w.followDirLink(l)
			if err := w.drain(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDir lists one directory, sorting its entries into files, skips and
// further tasks. Only a failure on the root is returned.
func (w *walker) readDir(t dirTask) error {
	if !t.reread {
		w.visited[t.abs] = t.rel
		w.res.Dirs++
	}
	d, err := openDir(t.abs)
	if err != nil {
		if t.root {
			return fmt.Errorf("walk %s: %w", t.abs, err)
		}
		w.skip(t.rel, SkipReason(err))
		return nil
	}
	defer d.close()
	if w.sk != nil && !t.reread {
		w.sk.dir(t.rel, d)
	}
	ents, err := d.f.ReadDir(-1)
	if err != nil {
		if t.root {
			return fmt.Errorf("walk %s: %w", t.abs, err)
		}
		// Keep what was read; the Skip says the listing is incomplete.
		w.skip(t.rel, SkipReason(err))
	}
	ign := t.ign
	for _, e := range ents {
		if e.Name() == ".gitignore" {
			if data, err := os.ReadFile(joinAbs(t.abs, ".gitignore")); err == nil {
				ign = parseIgnore(t.rel, data, ign)
			}
			if w.sk != nil {
				w.sk.ignore(path.Join(t.rel, ".gitignore"), joinAbs(t.abs, ".gitignore"))
			}
			break
		}
	}
	for _, e := range ents {
		name := e.Name()
		if name == ".git" || slices.Contains(w.opt.OmitNames, name) {
			continue
		}
		rel := name
		if t.rel != "" {
			rel = t.rel + "/" + name
		}
		if slices.Contains(w.opt.OmitPaths, rel) {
			continue
		}
		if t.keep != nil && !t.keep[rel] {
			continue
		}
		switch typ := e.Type(); {
		case typ.IsDir():
			w.dir(d, &t, ign, rel, name)
		case typ.IsRegular():
			w.file(d, &t, ign, rel, name)
		case typ&fs.ModeSymlink != 0:
			w.symlink(&t, ign, rel, name)
		default:
			if !w.ignored(&t, ign, rel, name, false) {
				w.skip(rel, reasonNotRegular)
			}
		}
	}
	return nil
}

func (w *walker) dir(d *dirHandle, t *dirTask, ign *ignoreList, rel, name string) {
	if w.ignored(t, ign, rel, name, true) {
		return
	}
	if slices.Contains(w.exclude, name) {
		w.skip(rel, reasonVendored)
		return
	}
	abs := joinAbs(t.abs, name)
	if len(abs) > pathMax {
		w.skip(rel, reasonTooLong)
		return
	}
	if checkDirAccess() {
		// Report a directory we may not list or search once, rather than
		// each of its entries.
		st, err := d.lstatAt(name)
		if err != nil {
			w.skip(rel, SkipReason(err))
			return
		}
		if !st.readable {
			w.skip(rel, reasonDenied)
			return
		}
	}
	if prev, ok := w.visited[abs]; ok {
		// Only possible below a followed symlink.
		w.skip(rel, reasonWalkedAlias+" ("+displayPath(prev)+")")
		return
	}
	w.stack = append(w.stack, dirTask{abs: abs, rel: rel, ign: ign, keep: t.keep})
}

func (w *walker) file(d *dirHandle, t *dirTask, ign *ignoreList, rel, name string) {
	if w.ignored(t, ign, rel, name, false) {
		return
	}
	lang, ok := w.detect(rel)
	if !ok {
		w.reject(rel)
		return
	}
	abs := joinAbs(t.abs, name)
	if len(abs) > pathMax {
		w.skip(rel, reasonTooLong)
		return
	}
	st, err := d.lstatAt(name)
	if err != nil {
		w.skip(rel, SkipReason(err))
		return
	}
	w.addFile(rel, abs, lang, st)
}

// addFile lists a regular file, or skips it when it is not one, cannot be
// read or is too large.
func (w *walker) addFile(rel, abs, lang string, st fileStat) {
	switch {
	case st.typ != 0:
		w.skip(rel, reasonNotRegular)
	case !st.readable:
		w.skip(rel, reasonDenied)
	case st.size > w.opt.MaxFileBytes:
		w.skip(rel, fmt.Sprintf("too large (%d bytes > limit %d)", st.size, w.opt.MaxFileBytes))
	default:
		w.res.Files = append(w.res.Files, File{Path: rel, Abs: abs, Size: st.size, ModTime: st.mtime, Lang: lang})
		if w.opt.Listed != nil {
			w.opt.Listed.Add(1)
		}
	}
}

func (w *walker) symlink(t *dirTask, ign *ignoreList, rel, name string) {
	// Like git, a symlink is not a directory for "dir/" patterns.
	if w.ignored(t, ign, rel, name, false) {
		return
	}
	if w.sk != nil {
		w.sk.linkAt(rel)
	}
	abs := joinAbs(t.abs, name)
	if len(abs) > pathMax {
		w.skip(rel, reasonTooLong)
		return
	}
	st, err := statPath(abs)
	if err != nil {
		switch {
		case errors.Is(err, syscall.ELOOP):
			w.skip(rel, reasonLoop)
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			w.skip(rel, reasonBroken)
		default:
			w.skip(rel, SkipReason(err))
		}
		return
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		w.skip(rel, reasonBroken)
		return
	}
	if !within(target, w.root) {
		w.skip(rel, reasonOutside)
		return
	}
	switch st.typ {
	case fs.ModeDir:
		if w.sk != nil {
			// A change below it moves no time of the tree. (A file
			// symlink is listed, and its stamp, the target's, never
			// matches its lstat: a sketch's Since names it every time.)
			w.sk.link()
		}
		// About to be read as a directory: "dir/" patterns apply too.
		if w.ignored(t, ign, rel, name, true) {
			return
		}
		if slices.Contains(w.exclude, name) {
			w.skip(rel, reasonVendored)
			return
		}
		w.links = append(w.links, dirLink{rel: rel, target: target, parentAbs: t.abs, ign: ign})
	case 0:
		lang, ok := w.detect(rel)
		if !ok {
			w.reject(rel)
			return
		}
		w.addFile(rel, target, lang, st)
	default:
		w.skip(rel, reasonNotRegular)
	}
}

// followDirLink queues the target of a directory symlink unless that would
// walk a directory twice or forever.
func (w *walker) followDirLink(l dirLink) {
	if within(l.parentAbs, l.target) {
		w.skip(l.rel, reasonLoop)
		return
	}
	if prev, ok := w.visited[l.target]; ok {
		w.skip(l.rel, reasonWalkedAlias+" ("+displayPath(prev)+")")
		return
	}
	w.stack = append(w.stack, dirTask{abs: l.target, rel: l.rel, ign: l.ign})
}

// ignored reports whether rel, an entry of the directory of t, is excluded
// by the ignore files in effect. A path that git ignore rules exclude is
// recorded, to be listed after all if git tracks files there.
func (w *walker) ignored(t *dirTask, l *ignoreList, rel, name string, isDir bool) bool {
	if w.extra != nil {
		if m, ign := w.extra.decide(rel, name, isDir); m {
			return ign
		}
	}
	if t.keep != nil {
		return false // tracked: git's rules do not apply
	}
	for ; l != nil; l = l.parent {
		if m, ign := l.decide(rel, name, isDir); m {
			if ign && w.collect {
				w.gitIgnored = append(w.gitIgnored, ignoredPath{rel: rel, parent: *t})
			}
			return ign
		}
	}
	return false
}

func (w *walker) detect(rel string) (lang string, ok bool) {
	if w.opt.Detect != nil {
		lang = w.opt.Detect(rel)
		return lang, lang != ""
	}
	return "", !parser.BinaryName(rel)
}

func (w *walker) skip(rel, reason string) {
	w.res.Skipped = append(w.res.Skipped, Skip{Path: displayPath(rel), Reason: reason})
}

// loadRootIgnores reads .git/info/exclude, which ranks below every
// .gitignore, and .wikitoolkitignore, which ranks above them. It returns the
// list the root directory starts with.
func (c *walkConfig) loadRootIgnores() *ignoreList {
	var base *ignoreList
	if p := gitInfoExclude(c.root); p != "" {
		if data, err := os.ReadFile(p); err == nil {
			base = parseIgnore("", data, nil)
		}
		if c.sk != nil {
			c.sk.ignore(p, p)
		}
	}
	if c.sk != nil {
		c.sk.ignore(".wikitoolkitignore", joinAbs(c.root, ".wikitoolkitignore"))
	}
	if data, err := os.ReadFile(joinAbs(c.root, ".wikitoolkitignore")); err == nil {
		c.extra = parseIgnore("", data, nil)
	}
	return base
}

// gitInfoExclude returns the path of the info/exclude file of the repository
// at root, following a ".git" file ("gitdir: …", as in worktrees and
// submodules) and a worktree's commondir. It returns "" when there is none.
func gitInfoExclude(root string) string {
	dotgit := joinAbs(root, ".git")
	st, err := statPath(dotgit)
	if err != nil {
		return ""
	}
	gitdir := dotgit
	if st.typ == 0 {
		data, err := os.ReadFile(dotgit)
		if err != nil {
			return ""
		}
		line, _, _ := strings.Cut(string(data), "\n")
		dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return ""
		}
		gitdir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitdir) {
			gitdir = filepath.Join(root, gitdir)
		}
		if data, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
			common := strings.TrimSpace(string(data))
			if !filepath.IsAbs(common) {
				common = filepath.Join(gitdir, common)
			}
			gitdir = common
		}
	}
	return filepath.Join(gitdir, "info", "exclude")
}

// SkipReason turns the error of reading one file or directory into a Skip
// reason: "unreadable: permission denied", "path too long", "symlink loop",
// or "unreadable: " and the system's message.
func SkipReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return reasonDenied
	case errors.Is(err, syscall.ENAMETOOLONG):
		return reasonTooLong
	case errors.Is(err, syscall.ELOOP):
		return reasonLoop
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return reasonUnreadable + err.Error()
}

// joinAbs joins a real directory path and a name without Join's cleaning,
// which the walk does not need and which costs an allocation per call.
func joinAbs(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// within reports whether p is dir or lies below it; both are clean paths.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return strings.HasPrefix(p, dir)
	}
	return len(p) > len(dir) && p[len(dir)] == filepath.Separator && strings.HasPrefix(p, dir)
}

// displayPath returns "." for the root's empty path.
func displayPath(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// fileStat is the part of a stat result that Walk uses.
type fileStat struct {
	typ      fs.FileMode // type bits only; 0 for a regular file
	size     int64
	mtime    int64 // Unix nanoseconds
	readable bool  // by permission bits, for this process
}

// drain reads the directories on the stack, and those they push, until none is left.
func (w *walker) drain(ctx context.Context) error {
	for len(w.stack) > 0 {
		t := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if err := ctx.Err(); err != nil {
			return err
		}
		w.readDir(t)
	}
	return nil
}

// resolveRoot returns root made absolute with its symbolic links resolved,
// or an error when it is not a readable directory.
func resolveRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("walk %s: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("walk %s: %w", root, err)
	}
	st, err := statPath(resolved)
	if err != nil {
		return "", fmt.Errorf("walk %s: %w", root, err)
	}
	if st.typ != fs.ModeDir {
		return "", fmt.Errorf("walk %s: not a directory", root)
	}
	return resolved, nil
}

// sortResult puts the walk's files and skips in path order and, when
// asked, lists the directories it read (Result.DirPaths), sorted.
func (w *walker) sortResult(listDirs bool) {
	slices.SortFunc(w.res.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(w.res.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	if listDirs {
		w.res.DirPaths = make([]string, 0, len(w.visited))
		for _, rel := range w.visited {
			w.res.DirPaths = append(w.res.DirPaths, rel)
		}
		slices.Sort(w.res.DirPaths)
	}
}
