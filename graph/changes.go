package graph

import (
	"context"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// Changes walks root with opt, as a build would (the parser's languages
// unless opt names others; the index and shared folders omitted), and
// compares what it lists with the files of s: walk.Diff, with the files the
// build that wrote s skipped or failed on left out of Added. The server's
// freshness check and status both ask this, so they agree.
func (s *Snapshot) Changes(ctx context.Context, root string, opt walk.Options) (*walk.Changes, error) {
	stats, err := s.Stats()
	if err != nil {
		return nil, err
	}
	listed, err := walk.Walk(ctx, root, buildWalk(opt))
	if err != nil {
		return nil, err
	}
	info := s.Info()
	leftOut := make(map[string]bool, len(info.Skipped)+len(info.Failed))
	for _, sk := range info.Skipped {
		leftOut[sk.Path] = true
	}
	for _, sk := range info.Failed {
		leftOut[sk.Path] = true
	}
	indexed := make(map[string]walk.Stamp, len(stats))
	for _, st := range stats {
		indexed[st.Path] = walk.Stamp{Size: st.Size, ModTime: st.ModTime}
	}
	c := walk.Diff(listed.Files, indexed, leftOut)
	c.Dirs = listed.DirPaths
	return c, nil
}
