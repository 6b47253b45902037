package graph

import (
	"context"
	"errors"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// Changes walks root with opt, as a build would (the parser's languages
// unless opt names others; the index and shared folders omitted), and
// compares what it lists with the files of s: walk.Diff, with the files the
// build that wrote s skipped or failed on left out of Added. The server's
// freshness check and status both ask this, so they agree.
//
// The sketch of the walk that made s (walksketch.go) names the paths that
// may have changed, as it does for a build, and only those are walked
// (ChangesIn): a stat of each directory and file, where a walk reads every
// directory (100k files: 0.3 s against 3.5 s of `status`). When opt asks
// for the directories read (ListDirs: a watching server's first check,
// which watches them all), they are the sketch's, updated with what the
// walk of those paths read: the same list a walk of the whole tree gives
// (100k files: the first check of a server that starts took 2.6 s of CPU,
// reading 82k directories, and now takes a stat pass). Without a sketch,
// or when it cannot answer (an ignore file or the walk options changed, a
// symbolic link to a directory), the whole tree is walked.
func (s *Snapshot) Changes(ctx context.Context, root string, opt walk.Options) (*walk.Changes, error) {
	stats, err := s.Stats()
	if err != nil {
		return nil, err
	}
	if root == s.info.Root {
		if c, ok, err := s.changesBySketch(ctx, root, opt, stats); ok {
			return c, err
		}
	}
	return s.changesByWalk(ctx, root, opt, stats)
}

// changesByWalk is Changes by a walk of the whole tree.
func (s *Snapshot) changesByWalk(ctx context.Context, root string, opt walk.Options, stats []FileStat) (*walk.Changes, error) {
	listed, err := walk.Walk(ctx, root, buildWalk(opt))
	if err != nil {
		return nil, err
	}
	indexed := make(map[string]walk.Stamp, len(stats))
	for _, st := range stats {
		indexed[st.Path] = walk.Stamp{Size: st.Size, ModTime: st.ModTime}
	}
	c := walk.Diff(listed.Files, indexed, s.leftOut(nil))
	c.Dirs = listed.DirPaths
	return c, nil
}

// changesBySketch is Changes through the sketch of the walk that made s;
// ok is false when there is none or it cannot answer.
func (s *Snapshot) changesBySketch(ctx context.Context, root string, opt walk.Options, stats []FileStat) (c *walk.Changes, ok bool, err error) {
	sk, _ := loadSketch(s.Dir, s.Generation)
	if sk == nil {
		return nil, false, nil
	}
	wo := buildWalk(opt)
	paths, moved, ok := sk.Since(ctx, root, wo, knownFiles(stats, s.Info()))
	if !ok {
		return nil, false, nil
	}
	if !opt.ListDirs {
		if len(paths) == 0 {
			return &walk.Changes{}, true, nil
		}
		c, err := s.ChangesIn(ctx, root, opt, paths)
		if errors.Is(err, walk.ErrWalkAll) {
			return nil, false, nil
		}
		return c, true, err
	}
	wo.Sketch = true
	listed, err := walk.WalkPaths(ctx, root, wo, paths)
	if errors.Is(err, walk.ErrWalkAll) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	next := sk.Update(paths, moved, listed)
	if next == nil {
		return nil, false, nil // the walk met a symbolic link to a directory
	}
	sc, _ := walk.NewScope(paths)
	c = walk.Diff(listed.Files, stamps(scopedStats(stats, sc)), s.leftOut(&sc))
	c.Dirs = make([]string, len(next.Dirs))
	for i, d := range next.Dirs {
		c.Dirs[i] = d.Rel
	}
	return c, true, nil
}

// ChangesIn is Changes at or below paths alone (a file watcher's; see
// BuildOptions.Changed): it walks them with walk.WalkPaths and compares
// with the files of s there; Dirs are the directories it read. It returns
// walk.ErrWalkAll when the paths cannot be walked alone: ask Changes.
func (s *Snapshot) ChangesIn(ctx context.Context, root string, opt walk.Options, paths []string) (*walk.Changes, error) {
	stats, err := s.Stats()
	if err != nil {
		return nil, err
	}
	listed, err := walk.WalkPaths(ctx, root, buildWalk(opt), paths)
	if err != nil {
		return nil, err
	}
	sc, _ := walk.NewScope(paths)
	c := walk.Diff(listed.Files, stamps(scopedStats(stats, sc)), s.leftOut(&sc))
	c.Dirs = listed.DirPaths
	return c, nil
}

// leftOut is the set of files the build that wrote s skipped or failed on
// (inside sc, when not nil).
func (s *Snapshot) leftOut(sc *walk.Scope) map[string]bool {
	info := s.Info()
	out := map[string]bool{}
	for _, list := range [][]walk.Skip{info.Skipped, info.Failed} {
		for _, sk := range list {
			if sc == nil || sc.Contains(sk.Path) {
				out[sk.Path] = true
			}
		}
	}
	return out
}
