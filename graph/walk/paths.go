package walk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// This file holds WalkPaths, the walk of a watcher's paths: what Walk would
// list at or below a few paths, without reading the rest of the tree. A
// server that watches the repository knows which paths changed; walking a
// 100k-file tree to find them costs a second (82k directories: an open, two
// getdents and a close each, and a stat per file), walking the changed
// paths a few system calls each. The rules are Walk's own, applied to each
// path on its way down from the root: the directories above it must be ones
// Walk reads (not omitted, excluded or ignored; the .gitignore files met on
// the way apply), and the path itself is then classified as readDir
// classifies an entry, a directory read in full.
//
// What a partial walk cannot decide it does not guess: a path below a
// symbolic link, a directory symlink met on the way (Walk lists its target's
// files under the link's path only when no real directory holds them, which
// takes the whole tree to know), an ignore file among the paths (its rules
// reach files outside the paths), the root itself, and a path below a
// directory that git ignore rules exclude in a git work tree (tracked files
// may lie there). WalkPaths then returns ErrWalkAll and the caller walks the
// whole tree.

// ErrWalkAll is WalkPaths' answer when its paths cannot be walked alone
// (see above): walk the whole tree with Walk instead.
var ErrWalkAll = errors.New("the changed paths need a walk of the whole tree")

// Scope is a set of repo-relative slash paths, each standing for itself and
// everything below it: the part of a tree a WalkPaths call looked at.
type Scope struct {
	paths []string // clean, sorted, none below another
}

// NewScope returns the scope of paths (repo-relative, "/"-separated). Empty
// paths, "." and paths climbing out of the root make ok false: they cannot
// be scoped (the root is the whole tree).
func NewScope(paths []string) (sc Scope, ok bool) {
	clean := make([]string, 0, len(paths))
	for _, p := range paths {
		p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
		if p == "." || p == "" || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			return Scope{}, false
		}
		clean = append(clean, p)
	}
	slices.Sort(clean)
	clean = slices.Compact(clean)
	// Drop the paths below another: sorted, a path's descendants follow it
	// (after other names that share its prefix, as "a-b" sorts before "a/").
	out := clean[:0]
	for _, p := range clean {
		if len(out) > 0 && below(p, out) {
			continue
		}
		out = append(out, p)
	}
	return Scope{paths: out}, true
}

// below reports whether p lies below one of the sorted paths of kept.
func below(p string, kept []string) bool {
	for q := p; ; {
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			return false
		}
		q = q[:i]
		if _, found := slices.BinarySearch(kept, q); found {
			return true
		}
	}
}

// Paths returns the scope's paths, sorted, none below another.
func (sc Scope) Paths() []string { return sc.paths }

// Contains reports whether the repo-relative path p is one of the scope's
// paths or lies below one.
func (sc Scope) Contains(p string) bool {
	if _, found := slices.BinarySearch(sc.paths, p); found {
		return true
	}
	return below(p, sc.paths)
}

// WalkPaths lists what Walk(ctx, root, opt) would list at or below each of
// paths (repo-relative slash paths of files or directories, present or
// gone), reading only the directories at or below them and opening those
// above them: Files, Skipped, Unsupported and the not-indexed counts of that
// part of the tree, Dirs the directories read (DirPaths with
// Options.ListDirs). A path that is gone, omitted or ignored lists nothing.
// When the paths cannot be walked alone it returns ErrWalkAll (see above).
func WalkPaths(ctx context.Context, root string, opt Options, paths []string) (*Result, error) {
	sc, ok := NewScope(paths)
	if !ok {
		return nil, ErrWalkAll
	}
	for _, p := range sc.paths {
		if b := path.Base(p); b == ".gitignore" || b == ".wikitoolkitignore" {
			return nil, ErrWalkAll
		}
	}
	resolved, err := resolveRoot(root)
	if err != nil {
		return nil, err
	}
	cfg := newWalkConfig(opt, resolved)
	sk := cfg.sk
	cfg.sk = nil // the root's ignore files are not the paths'
	base := cfg.loadRootIgnores()
	cfg.sk = sk
	w := cfg.newWalker()
	// The directories above the paths: whether Walk reads each, and the
	// ignore rules in force below it (nil entry: not read).
	top := &dirTask{abs: resolved, ign: base}
	if data, err := os.ReadFile(joinAbs(resolved, ".gitignore")); err == nil {
		top.ign = parseIgnore("", data, base)
	}
	above := map[string]reached{"": {t: top}}
	var pending []string    // paths git ignore rules exclude: tracked or not, walkTracked decides
	var belowIgnored []Skip // paths below directories git ignore rules exclude
	for _, p := range sc.paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		parent, err := w.reach(above, path.Dir(p))
		if err != nil {
			return nil, err
		}
		if parent.t == nil {
			switch {
			case parent.git:
				belowIgnored = append(belowIgnored, Skip{Path: p, Reason: parent.why})
			case parent.why != "": // else gone: a removal
				w.res.Unwalked = append(w.res.Unwalked, Skip{Path: p, Reason: parent.why})
			}
			continue // below a directory Walk does not read
		}
		why, git, err := w.entry(parent.t, path.Base(p))
		if err != nil {
			return nil, err
		}
		switch {
		case git:
			pending = append(pending, p)
		case why != "":
			w.res.Unwalked = append(w.res.Unwalked, Skip{Path: p, Reason: why})
		}
		if err := w.drain(ctx); err != nil {
			return nil, err
		}
		if len(w.links) > 0 {
			return nil, ErrWalkAll
		}
	}
	if len(w.gitIgnored) > 0 {
		// Ignored here, perhaps tracked: as Walk does.
		if err := w.walkTracked(ctx); err != nil {
			return nil, err
		}
		if len(w.links) > 0 {
			return nil, ErrWalkAll
		}
	}
	if len(belowIgnored) > 0 {
		// Walk would list the tracked files below those directories: when
		// git tracks none at or below the paths, they are ignored.
		if len(belowIgnored) > maxGitPathspecs {
			return nil, ErrWalkAll
		}
		specs := make([]string, len(belowIgnored))
		for i, s := range belowIgnored {
			specs[i] = s.Path
		}
		w.askedGit.Store(true)
		tracked, err := gitTracked(ctx, w.root, specs)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil || len(tracked) > 0 {
			return nil, ErrWalkAll
		}
		w.res.Unwalked = append(w.res.Unwalked, belowIgnored...)
	}
	for _, p := range pending {
		if !w.listedAt(p) {
			w.res.Unwalked = append(w.res.Unwalked, Skip{Path: p, Reason: ReasonIgnored})
		}
	}
	w.sortResult(opt.ListDirs)
	slices.SortFunc(w.res.Unwalked, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	if cfg.sk != nil && cfg.askedGit.Load() {
		cfg.sk.link() // git answered for paths below ignored ones: take a new sketch by a walk of the tree
	}
	w.res.sketch = cfg.sk
	return w.res, nil
}

// Why WalkPaths lists nothing for a path it was given that exists
// (Result.Unwalked); a path below a directory Walk does not read has the
// reason of that directory, "below DIR: REASON".
const (
	// ReasonOmitted: .git, the index folder or the shared notes folder
	// (Options.OmitNames, OmitPaths).
	ReasonOmitted = "omitted (.git, the index folder or the shared notes folder)"
	// ReasonIgnored: .gitignore, .git/info/exclude or .wikitoolkitignore
	// rules exclude it, and git does not track it.
	ReasonIgnored = "ignored (.gitignore, .git/info/exclude or .wikitoolkitignore)"
)

// reached is what reach found of a directory: its task, or nil with why
// Walk does not read it ("" when it is gone or no directory).
type reached struct {
	t   *dirTask
	why string
	git bool // git ignore rules exclude it: git may track files below it
}

// reach returns the task of the directory rel ("." the root) as Walk would
// read it — its real path and the ignore rules of its entries — or nil when
// Walk does not read it, with why (Result.Unwalked; "" when it is gone or
// no directory). above caches the answers by path.
func (w *walker) reach(above map[string]reached, rel string) (reached, error) {
	if rel == "." {
		rel = ""
	}
	if r, ok := above[rel]; ok {
		return r, nil
	}
	parentRel := path.Dir(rel)
	parent, err := w.reach(above, parentRel)
	if err != nil || parent.t == nil {
		above[rel] = reached{why: parent.why, git: parent.git}
		return above[rel], err
	}
	name := path.Base(rel)
	r, err := w.subdir(parent.t, rel, name)
	if err != nil {
		return reached{}, err
	}
	if r.why != "" {
		r.why = "below " + rel + ": " + r.why
	}
	above[rel] = r
	return r, nil
}

// subdir decides, as readDir and dir do, whether Walk reads the directory
// entry name of parent (at rel), and returns its task with the ignore rules
// of its entries (its .gitignore read), or no task with why not ("" when
// it is gone or no directory; git when git ignore rules exclude it, below
// which git may track files).
func (w *walker) subdir(parent *dirTask, rel, name string) (reached, error) {
	if name == ".git" || slices.Contains(w.opt.OmitNames, name) || slices.Contains(w.opt.OmitPaths, rel) {
		return reached{why: ReasonOmitted}, nil
	}
	d, err := openDir(parent.abs)
	if err != nil {
		return reached{why: SkipReason(err)}, nil // unreadable: Walk reads nothing below it either
	}
	st, err := d.lstatAt(name)
	d.close()
	switch {
	case err != nil:
		return reached{}, nil // gone
	case st.typ == fs.ModeSymlink:
		return reached{}, ErrWalkAll
	case st.typ != fs.ModeDir:
		return reached{}, nil
	}
	if gitIgnoredBefore := len(w.gitIgnored); w.ignored(parent, parent.ign, rel, name, true) {
		if len(w.gitIgnored) > gitIgnoredBefore {
			// git may track files below it: WalkPaths asks git of the
			// paths below it, not of the whole directory.
			w.gitIgnored = w.gitIgnored[:gitIgnoredBefore]
			return reached{why: ReasonIgnored, git: true}, nil
		}
		return reached{why: ReasonIgnored}, nil
	}
	if slices.Contains(w.exclude, name) {
		return reached{why: reasonVendored}, nil
	}
	if !st.readable {
		return reached{why: reasonDenied}, nil
	}
	abs := joinAbs(parent.abs, name)
	if len(abs) > pathMax {
		return reached{why: reasonTooLong}, nil
	}
	t := &dirTask{abs: abs, rel: rel, ign: parent.ign}
	if data, err := os.ReadFile(joinAbs(abs, ".gitignore")); err == nil {
		t.ign = parseIgnore(rel, data, t.ign)
	}
	return reached{t: t}, nil
}

// entry classifies the entry name of the directory of t as readDir does,
// queueing it when it is a directory to read. why says why it lists
// nothing (Result.Unwalked) when it exists and is neither listed, skipped
// nor to be read; git that git ignore rules exclude it, for walkTracked to
// decide.
func (w *walker) entry(t *dirTask, name string) (why string, git bool, err error) {
	rel := name
	if t.rel != "" {
		rel = t.rel + "/" + name
	}
	if name == ".git" || slices.Contains(w.opt.OmitNames, name) || slices.Contains(w.opt.OmitPaths, rel) {
		return ReasonOmitted, false, nil
	}
	d, err := openDir(t.abs)
	if err != nil {
		return "", false, nil
	}
	defer d.close()
	st, err := d.lstatAt(name)
	if err != nil {
		return "", false, nil // gone
	}
	files, skips, rejected, stack, gitIgnored := len(w.res.Files), len(w.res.Skipped), w.res.Unsupported, len(w.stack), len(w.gitIgnored)
	switch st.typ {
	case fs.ModeDir:
		w.dir(d, t, t.ign, rel, name)
		if len(w.gitIgnored) > gitIgnored {
			// git ignore rules exclude it: Walk would ask git for the
			// tracked files below it, and so does walkTracked.
			return "", true, nil
		}
	case 0:
		w.file(d, t, t.ign, rel, name)
	case fs.ModeSymlink:
		w.symlink(t, t.ign, rel, name)
	default:
		if !w.ignored(t, t.ign, rel, name, false) {
			w.skip(rel, reasonNotRegular)
		}
	}
	switch {
	case len(w.gitIgnored) > gitIgnored:
		return "", true, nil
	case w.res.Unsupported > rejected:
		r, _ := w.rejectReason(rel)
		return "not indexed: " + r, false, nil
	case len(w.res.Files) == files && len(w.res.Skipped) == skips && len(w.stack) == stack && len(w.links) == 0:
		return ReasonIgnored, false, nil
	}
	return "", false, nil
}

// listedAt reports whether the walk listed a file at or below rel.
func (w *walker) listedAt(rel string) bool {
	for _, f := range w.res.Files {
		if f.Path == rel || strings.HasPrefix(f.Path, rel+"/") {
			return true
		}
	}
	return false
}
