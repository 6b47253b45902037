package walk

import (
	"context"
	"slices"
	"strings"
)

// Prefix lists the first files of the tree at root in path order, as Walk
// with opt would list them, reading only the directories that hold them
// and those before them: a first build starts on them while Walk lists the
// rest of a large tree (graph's firstwalk.go).
//
// It reads directories one at a time, depth first in path order, until at
// least min files lie before the bound, the least path below which it has
// not read everything: an unread directory D bounds it at D+"/", as does a
// symbolic link to a directory (Walk follows those after the tree, and
// whether it does depends on the whole tree). Paths that git ignore rules
// excluded are asked of git, as Walk asks, before the files are returned;
// should that fail, they bound the prefix too. Of the files Walk lists on
// the tree as it stands, files are exactly those whose paths sort before
// bound; the skips, directories and sketch of the walk are left to Walk.
// complete reports that Prefix read the whole tree: bound is then "" and
// files are all of Walk's. Only a root that cannot be read is an error,
// and ctx's.
func Prefix(ctx context.Context, root string, opt Options, min int) (files []File, bound string, complete bool, err error) {
	resolved, err := resolveRoot(root)
	if err != nil {
		return nil, "", false, err
	}
	opt.Sketch, opt.ListDirs, opt.Watched, opt.Listed, opt.Hold = false, false, nil, nil, nil
	cfg := newWalkConfig(opt, resolved)
	base := cfg.loadRootIgnores()
	w := cfg.newWalker()
	if err := ctx.Err(); err != nil {
		return nil, "", false, err
	}
	if err := w.readDir(dirTask{abs: resolved, ign: base, root: true}); err != nil {
		return nil, "", false, err
	}
	// pending holds the directories not read yet, the least (by D+"/")
	// last.
	var pending []dirTask
	push := func() {
		pending = append(pending, w.stack...)
		w.stack = w.stack[:0]
		slices.SortFunc(pending, func(a, b dirTask) int { return strings.Compare(b.rel+"/", a.rel+"/") })
	}
	push()
	// linkBound is the least bound the directory symlinks met set.
	linkBound := func() string {
		b := ""
		for _, l := range w.links {
			if k := l.rel + "/"; b == "" || k < b {
				b = k
			}
		}
		return b
	}
	before := func(b string) int { // the files listed whose paths sort before b ("": all)
		n := 0
		for _, f := range w.res.Files {
			if b == "" || f.Path < b {
				n++
			}
		}
		return n
	}
	boundNow := func() string {
		b := linkBound()
		if len(pending) > 0 {
			if k := pending[len(pending)-1].rel + "/"; b == "" || k < b {
				b = k
			}
		}
		return b
	}
	for len(pending) > 0 {
		lb := linkBound()
		next := pending[len(pending)-1]
		if lb != "" && next.rel+"/" >= lb {
			break // nothing read from here on can come before the link's files
		}
		if before(boundNow()) >= min {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, "", false, err
		}
		pending = pending[:len(pending)-1]
		w.readDir(next) // cannot fail below the root
		push()
	}
	// Tracked files below the paths ignore rules excluded, as Walk lists
	// them; should git fail, such a path bounds the prefix (it may be a
	// tracked file itself).
	gitBound := ""
	if len(w.gitIgnored) > 0 {
		ignored := w.gitIgnored
		if err := w.walkTracked(ctx); err != nil {
			return nil, "", false, err
		}
		push() // walkTracked reads all it queues: nothing, normally
		if w.res.TrackedErr != nil {
			for _, e := range ignored {
				if gitBound == "" || e.rel < gitBound {
					gitBound = e.rel
				}
			}
		}
	}
	bound = boundNow()
	if gitBound != "" && (bound == "" || gitBound < bound) {
		bound = gitBound
	}
	complete = bound == ""
	for _, f := range w.res.Files {
		if complete || f.Path < bound {
			files = append(files, f)
		}
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, bound, complete, nil
}
