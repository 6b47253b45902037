package wiki

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// firstBuildWait bounds how long a call waits for the build of a repository
// that has no index yet. A small repository builds in well under a second,
// so the first wiki_query answers instead of saying "retry"; a large one
// gets the "being built" answer with its progress.
const firstBuildWait = 20 * time.Second

// buildProgress counts the files the running build parsed (graph.Progress).
type buildProgress struct{ total, done atomic.Int64 }

func (p *buildProgress) Start(total int) { p.total.Store(int64(total)); p.done.Store(0) }
func (p *buildProgress) Add(n int)       { p.done.Add(int64(n)) }
func (p *buildProgress) Finish()         {}

type progressKey struct{}

// BuildProgress returns the progress sink of a background build started by
// the server, for Options.Build to pass to graph.BuildOptions.Progress, or
// nil when ctx carries none.
func BuildProgress(ctx context.Context) graph.Progress {
	if p, ok := ctx.Value(progressKey{}).(*buildProgress); ok {
		return p
	}
	return nil
}

// buildContext is the context of a background build: it carries the
// server's progress counter, reset.
func (s *Live) buildContext(ctx context.Context) context.Context {
	s.progress.total.Store(0)
	s.progress.done.Store(0)
	return context.WithValue(ctx, progressKey{}, &s.progress)
}

// WaitFirstBuild starts the build of a repository without an index and
// waits until it publishes a generation (a partial one, after its first
// batch, on a large repository) or ends, at most firstBuildWait
// (Live.FirstWait in tests), until ctx ends or the server closes.
func (s *Live) WaitFirstBuild(ctx context.Context) {
	if s.opt.Build == nil || s.closed.Load() {
		return
	}
	if _, ok := statKey(filepath.Join(s.dir, "CURRENT")); ok {
		return
	}
	s.fresh.kick(s)
	done, _, _ := s.fresh.buildState()
	if done == nil {
		return
	}
	wait := firstBuildWait
	if s.FirstWait > 0 {
		wait = s.FirstWait
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	// The build publishes partial generations as it goes: the first one
	// live ends the wait (its answers say they are partial).
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			return
		case <-ctx.Done():
			return
		case <-s.bgCtx.Done():
			return
		case <-tick.C:
			if _, ok := statKey(filepath.Join(s.dir, "CURRENT")); ok {
				return
			}
		}
	}
}

// BuildingMessage is the answer of a call that found no index while the
// server builds one: how far the build is, or why the last one failed.
func (s *Live) BuildingMessage() string {
	done, started, buildErr := s.fresh.buildState()
	switch {
	case done != nil:
		note := fmt.Sprintf("started %s ago", s.nowFunc().Sub(started).Round(time.Second))
		if total := s.progress.total.Load(); total > 0 {
			note += fmt.Sprintf(", %d of %d files parsed", s.progress.done.Load(), total)
		}
		return "the index of this repository is being built (" + note + "); retry in a few seconds"
	case buildErr != "":
		return "building the index failed: " + buildErr + "; run `wikitoolkit build` in the repository to see why, then retry"
	}
	return "the index of this repository is being built; retry in a few seconds"
}
