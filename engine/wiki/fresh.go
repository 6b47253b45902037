package wiki

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// freshness watches the repository for files that changed since the live
// generation was built. Checks run on a background goroutine, at most every
// Options.CheckEvery after a call, and, with LiveOptions.Watch, when saved
// files settle (watch.go); the walk they do takes about 20 ms on moby
// (graph/walk), too much to pay inside a call whose budget is a few
// milliseconds. A walk of the whole tree also waits for a pause in the
// calls (Live.Call, awaitQuiet): at 100k files it takes two seconds of
// both cores, and beside the calls after a server's start it doubled
// their latency.
type freshness struct {
	mu        sync.Mutex
	running   bool
	lastCheck time.Time
	changed   []string // paths added, changed or removed since the build (sorted, capped)
	nChanged  int
	checked   bool   // a check completed for the current generation
	trigger   uint64 // fingerprint of the change set a build was last started for
	building  bool
	buildErr  string
	lastBuilt time.Time
	done      chan struct{} // closed when the running build ends
	started   time.Time     // when the running build started
	walks     atomic.Int64  // checks that walked the whole tree (tests)
}

// watchSafetyEvery is the least time between two call-driven checks
// while file system events are watched.
const watchSafetyEvery = time.Minute

// maxStaleListed caps the stale paths kept for status.
const maxStaleListed = 50

// touch notes a call: start a check when the last one is old enough.
func (f *freshness) touch(s *Live) {
	if s.opt.CheckEvery < 0 {
		return
	}
	every := s.opt.CheckEvery
	switch s.Watching() {
	case WatchPartial, WatchPolling:
		// The watcher checks the whole tree every poll period, which
		// follows what a check takes: calls do not check more often (on
		// a 500k-file tree, checks every 3 s of calls and every 2 s of
		// polls kept a core busy).
		_, _, poll := s.WatchDetail()
		every = max(every, poll)
	case WatchFsnotify:
		// File system events start the checks; the call-driven one is a
		// safety net for file systems whose events stay silent, and on a
		// large repository its walk competes with the calls (100k files:
		// a 1.5 s walk every 3 s of calls tripled wiki_query's p50).
		every = max(every, watchSafetyEvery)
	}
	f.mu.Lock()
	if f.lastCheck.IsZero() && every == watchSafetyEvery {
		// The watcher walks the whole tree when it starts, and a new
		// generation was built from what its events named: the safety
		// net's clock starts now instead of walking the tree again at
		// once (on 100k files, a walk beside the first calls after a
		// start or after each save).
		f.lastCheck = s.nowFunc()
	}
	due := !f.running && s.nowFunc().Sub(f.lastCheck) >= every
	if due {
		f.running = true
		f.lastCheck = s.nowFunc()
	}
	f.mu.Unlock()
	if due {
		s.goBackground(func(ctx context.Context) {
			defer func() {
				f.mu.Lock()
				f.running = false
				f.mu.Unlock()
			}()
			f.check(ctx, s, false, nil, nil)
		})
	}
}

// kick starts a build at once (no index yet).
func (f *freshness) kick(s *Live) { f.startBuild(s, 1, nil) }

// newGeneration forgets the change set: it was measured against the old
// generation.
func (f *freshness) newGeneration() {
	f.mu.Lock()
	f.changed, f.nChanged, f.checked = nil, 0, false
	f.lastCheck = time.Time{}
	f.mu.Unlock()
}

// snapshot returns the stale paths seen by the last check and whether one ran.
func (f *freshness) snapshot() (paths []string, n int, checked bool, building bool, buildErr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed, f.nChanged, f.checked, f.building, f.buildErr
}

// buildState returns a channel closed when the running build ends (nil
// when none runs), when it started, and the last build's error.
func (f *freshness) buildState() (done <-chan struct{}, started time.Time, buildErr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.building {
		done = f.done
	}
	return done, f.started, f.buildErr
}

func (s *Live) goBackground(fn func(ctx context.Context)) {
	if s.closed.Load() {
		return
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		debug.SetPanicOnFault(true) // see addTool
		defer func() {
			if r := recover(); r != nil {
				s.logf("background panic: %v", r)
			}
		}()
		fn(s.bgCtx)
	}()
}

// checkResult is what a freshness check did.
type checkResult struct {
	ok      bool        // it compared the tree with a generation
	refused bool        // files changed, but another build ran: check them again after it
	root    string      // the root walked
	dirs    []string    // the directories the walk read (with listDirs)
	scope   *walk.Scope // the paths walked, when not the whole tree
	// walkTook is what the check of the whole tree took (not the wait
	// for the calls to pause): the watcher's poll period follows it.
	walkTook time.Duration
}

// check walks the repository — the paths given alone when not nil and
// they can be walked alone (graph.Snapshot.ChangesIn), else the whole tree
// — and compares it with the live generation, starting a build when files
// changed (of those paths only: WithChanged). With listDirs it also returns
// the root and the directories the walk read (for the watcher, watch.go);
// a check of the whole tree stats no directory watched names, nor its
// files (walk.Options.Watched; nil: all); ok is false when there was no
// generation to compare with or the walk failed.
func (f *freshness) check(ctx context.Context, s *Live, listDirs bool, paths []string, watched func(string) bool) checkResult {
	g, release, err := s.Acquire()
	if err != nil {
		return checkResult{}
	}
	wopt := s.WalkOptions()
	wopt.ListDirs = listDirs
	wopt.Watched = watched
	res := checkResult{root: s.Root(g)}
	var c *walk.Changes
	if paths != nil {
		c, err = g.Snap.ChangesIn(ctx, res.root, wopt, paths)
		if err == nil {
			sc, _ := walk.NewScope(paths)
			res.scope = &sc
		} else if errors.Is(err, walk.ErrWalkAll) {
			paths = nil
		}
	}
	if paths == nil {
		if s.callsBusy() {
			// The walk of the whole tree waits for a pause in the calls
			// (awaitQuiet), without holding the generation meanwhile.
			release()
			s.awaitQuiet(ctx)
			if g, release, err = s.Acquire(); err != nil {
				return checkResult{}
			}
			res.root = s.Root(g)
		}
		f.walks.Add(1)
		t0 := time.Now()
		c, err = g.Snap.Changes(ctx, res.root, wopt)
		res.walkTook = time.Since(t0)
	}
	release()
	if err != nil {
		s.logf("freshness check: %v", err)
		return checkResult{}
	}
	changed, n, sig := changeSet(c)
	if res.scope == nil {
		f.mu.Lock()
		f.changed, f.nChanged, f.checked = changed, n, true
		f.mu.Unlock()
	}
	if n > 0 {
		var only []string
		if res.scope != nil {
			only = paths
		}
		// sig|2: never 1, kick's fingerprint.
		if !f.startBuild(s, sig|2, only) && res.scope != nil {
			res.refused = true
		}
	}
	res.ok, res.dirs = true, c.Dirs
	return res
}

// noServerBuilds, set by WIKITOOLKIT_TEST_SERVER_BUILDS=off in the
// environment of a server's process, keeps the server from building what
// its checks find (it still checks, watches and answers builds' questions):
// a test whose builds ask a watching server then knows which build did
// the work, and that a path the server's answer left out cannot be built
// by the server instead. Under load the server's own build, 150 ms after
// the events, came first and the test's build found the work done.
var noServerBuilds = os.Getenv("WIKITOOLKIT_TEST_SERVER_BUILDS") == "off"

// startBuild runs Options.Build in the background — of the paths changed
// alone when not nil (WithChanged) — unless a build runs (it then returns
// false) or one for the same change set already ran (a file the build
// skips must not loop).
func (f *freshness) startBuild(s *Live, fingerprint uint64, changed []string) bool {
	if s.opt.Build == nil || noServerBuilds {
		return true
	}
	f.mu.Lock()
	if f.building {
		f.mu.Unlock()
		return false
	}
	if fingerprint == f.trigger && fingerprint != 1 {
		f.mu.Unlock()
		return true
	}
	if fingerprint == 1 && s.nowFunc().Sub(f.lastBuilt) < 10*time.Second && f.buildErr != "" {
		f.mu.Unlock()
		return true
	}
	f.building, f.trigger = true, fingerprint
	f.done, f.started = make(chan struct{}), time.Now()
	done := f.done
	f.mu.Unlock()
	s.goBackground(func(ctx context.Context) {
		start := time.Now()
		bctx := s.buildContext(ctx)
		if changed != nil {
			bctx = WithChanged(bctx, changed)
		}
		err := s.opt.Build(bctx)
		if err == nil {
			s.preopen()
		}
		f.mu.Lock()
		f.building, f.lastBuilt = false, time.Now()
		f.buildErr = ""
		if err != nil && !errors.Is(err, context.Canceled) {
			f.buildErr = err.Error()
		}
		f.mu.Unlock()
		if err != nil && changed != nil {
			// The paths were not built: the next check walks the tree.
			s.watch.notePath(time.Now(), "")
		}
		close(done)
		of := "the tree"
		if changed != nil {
			of = fmt.Sprintf("%d changed paths", len(changed))
		}
		if err != nil {
			s.logf("background build of %s failed after %s: %v", of, time.Since(start).Round(time.Millisecond), err)
		} else {
			s.logf("background build of %s done in %s, its generation opened", of, time.Since(start).Round(time.Millisecond))
		}
	})
	return true
}

// preopen opens the generation a background build made live, before a
// call asks for it, so that a call after that rarely waits for the open (a
// second at 100k files, where every segment is opened again); a call that
// comes during the open waits for it (Acquire), as the build is done and
// its answers must show it.
func (s *Live) preopen() {
	key, ok := statKey(filepath.Join(s.dir, "CURRENT"))
	if !ok || s.closed.Load() {
		return
	}
	s.preopening.Store(true) // before swapMu: see Acquire
	s.swapMu.Lock()
	s.swap(key)
	s.swapMu.Unlock()
	s.preopening.Store(false)
}

// changeSet lists the files added, modified or removed since the
// generation was built (graph.Snapshot.Changes; at most maxStaleListed
// paths, plus the count), with a signature of every change (path, size,
// mtime) so that a file changing again after a build started is a new
// change set.
func changeSet(c *walk.Changes) ([]string, int, uint64) {
	h := fnv.New64a()
	for _, list := range [][]walk.File{c.Added, c.Modified} {
		for _, fe := range list {
			fmt.Fprintf(h, "%s\x00%d\x00%d\x00", fe.Path, fe.Size, fe.ModTime)
		}
	}
	for _, p := range c.Removed {
		fmt.Fprintf(h, "%s\x00-1\x00-1\x00", p)
	}
	out := c.Paths()
	return out[:min(len(out), maxStaleListed)], c.Len(), h.Sum64()
}

// FileChanged reports whether the indexed file path changed since the
// generation was built (one stat; for marking answers).
func (g *Gen) FileChanged(root, path string) bool {
	st, ok := g.Snap.FileStat(path) // a binary search of the sorted stats: no map of 100k files beside them
	if !ok {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(path)))
	return err != nil || fi.Size() != st.Size || fi.ModTime().UnixNano() != st.ModTime
}

// Touch notes a call: it starts a freshness check in the background when
// the last one is old enough.
func (s *Live) Touch() { s.fresh.touch(s) }

// Freshness is what the last freshness check saw: the stale paths (sorted,
// at most maxStaleListed), their count, whether a check ran for the live
// generation, whether a background build runs, and the last one's error.
type Freshness struct {
	Stale      []string
	StaleCount int
	Checked    bool
	Building   bool
	BuildError string
}

// Freshness returns what the last freshness check saw.
func (s *Live) Freshness() Freshness {
	paths, n, checked, building, buildErr := s.fresh.snapshot()
	return Freshness{Stale: paths, StaleCount: n, Checked: checked, Building: building, BuildError: buildErr}
}
