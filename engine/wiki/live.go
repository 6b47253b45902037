package wiki

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
)

// LiveOptions configure a Live view. Only IndexDir is required.
type LiveOptions struct {
	// IndexDir is the index directory (<root>/.wikitoolkit).
	IndexDir string
	// Root is the repository root; "" means the root recorded by the last
	// build, or the parent of IndexDir.
	Root string
	// Build runs an incremental build of the index (usually Build with the
	// index's stored options); the view calls it in the background when
	// files changed or no index exists. nil disables automatic refresh.
	Build func(ctx context.Context) error
	// Walk are the build's walk options, used by the freshness check and
	// search; when Detect, ExcludeDirs and MaxFileBytes are all unset, the
	// options stored with the index by its last build (LoadWalkSettings),
	// read again at each check.
	Walk walk.Options
	// CheckEvery is the least time between two freshness checks; 0 means
	// 3 s, negative disables them.
	CheckEvery time.Duration
	// Logf receives the view's log lines (open failures, background
	// builds, panics). nil discards.
	Logf func(format string, a ...any)
	// Watch starts a watcher (watch.go) that notices saved files at once,
	// without waiting for a call, and runs the freshness check (and so
	// Build) when a burst of changes settles; where file watches run out
	// it watches the directories whose files changed last and polls for
	// the rest (watch.go). Needs Build to refresh anything.
	Watch bool

	// watchAdd replaces the watcher's fsnotify.Watcher.Add (tests: make
	// watches run out); it is given the watcher, to add the watches it
	// allows.
	watchAdd func(fw *fsnotify.Watcher, path string) error
	// eventDelay slows the watcher's handling of each event (tests: an
	// answer to a build must wait for the events before it).
	eventDelay time.Duration
	// beforeNoIndexWalk, when set, runs before the watcher walks a tree
	// that has no index yet (tests: a first build that starts meanwhile).
	beforeNoIndexWalk func()
}

// Live is the live view of one index for a long-running process: it holds
// one read-only generation (graph.Snapshot plus its ranking index) and, on
// each Acquire, stats the CURRENT file; when a build has made a new
// generation live it opens that one, swaps it in atomically, and closes the
// old one once the calls using it have returned. It also runs the
// freshness checks, background builds and the watcher (fresh.go,
// firstbuild.go, watch.go). Safe for concurrent use.
type Live struct {
	opt         LiveOptions
	dir         string
	annotations *annotate.Cache

	mu      sync.Mutex // guards cur, curKey, openErr and the refs of every gen
	cur     *Gen
	curKey  fileKey
	openErr error      // why the generation CURRENT names could not be opened (nil: it was, or there is none)
	swapMu  sync.Mutex // held while opening a new generation
	// preopening is set while a background build's preopen holds swapMu:
	// a call then waits for the generation it opens (the build is done,
	// so its answers must show it) instead of answering from the old one.
	preopening atomic.Bool
	fresh      freshness
	closed     atomic.Bool
	bgWG       sync.WaitGroup
	bgCtx      context.Context
	bgStop     context.CancelFunc
	nowFunc    func() time.Time

	calls    callGate      // the calls in flight (Call)
	watch    *watcher      // never nil after NewLive
	progress buildProgress // of the running background build
	// FirstWait overrides firstBuildWait when positive (tests).
	FirstWait time.Duration
}

// Gen is one open generation with its ranking index. refs counts the calls
// using it; a retired Gen is closed when its last call returns.
type Gen struct {
	Snap  *graph.Snapshot
	Index *engine.Index

	refs    int
	retired bool
}

// fileKey identifies a version of the CURRENT file: a build replaces it by
// rename, which changes the inode.
type fileKey struct {
	ino   uint64
	size  int64
	mtime int64
}

func statKey(path string) (fileKey, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileKey{}, false
	}
	k := fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.ino = uint64(st.Ino)
	}
	return k, true
}

// NewLive returns the live view of the index in opt.IndexDir. The index
// need not exist yet: Acquire then says so (and a build starts when
// opt.Build is set).
func NewLive(opt LiveOptions) (*Live, error) {
	if opt.IndexDir == "" {
		return nil, errors.New("wiki: no index directory")
	}
	dir, err := filepath.Abs(opt.IndexDir)
	if err != nil {
		return nil, err
	}
	if opt.CheckEvery == 0 {
		opt.CheckEvery = 3 * time.Second
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	l := &Live{opt: opt, dir: dir, annotations: annotate.NewCache(dir), nowFunc: time.Now}
	l.bgCtx, l.bgStop = context.WithCancel(context.Background())
	l.startWatch()
	return l, nil
}

// Close stops background work and releases the open generation. Calls in
// flight finish first.
func (s *Live) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.bgStop()
	s.bgWG.Wait()
	s.mu.Lock()
	g := s.cur
	s.cur = nil
	s.mu.Unlock()
	if g != nil {
		s.retire(g)
	}
	return nil
}

func (s *Live) logf(format string, a ...any) { s.opt.Logf(format, a...) }

// errNoIndex is what calls say before the first build finished, or while
// the index cannot be opened (err, e.g. damaged) and is being rebuilt.
func (s *Live) errNoIndex(err error) error {
	var de *graph.DamagedError
	if errors.As(err, &de) {
		if s.opt.Build != nil {
			return fmt.Errorf("the index is damaged (%s); it is being rebuilt in the background: retry in a few seconds (wiki_status shows progress; wiki_search and wiki_read work meanwhile)", de.Reason)
		}
		return fmt.Errorf("the index is damaged (%s); run `wikitoolkit build` in the repository, then retry", de.Reason)
	}
	if err != nil {
		if s.opt.Build != nil {
			return fmt.Errorf("the index cannot be opened (%v); it is being rebuilt in the background: retry in a few seconds", err)
		}
		return fmt.Errorf("the index cannot be opened (%v); run `wikitoolkit build` in the repository, then retry", err)
	}
	if s.opt.Build != nil {
		return errors.New(s.BuildingMessage())
	}
	return fmt.Errorf("no index in %s; run `wikitoolkit build` in the repository, then retry", s.dir)
}

// Acquire returns the live generation, swapping to a newer one first when
// CURRENT changed, and a release function the caller must call.
func (s *Live) Acquire() (*Gen, func(), error) {
	if s.closed.Load() {
		return nil, nil, errors.New("the server is shutting down")
	}
	key, ok := statKey(filepath.Join(s.dir, "CURRENT"))
	s.mu.Lock()
	g := s.cur
	stale := !ok || key != s.curKey || g == nil
	s.mu.Unlock()
	if stale && ok {
		// One caller opens the new generation; other callers keep using
		// the old one meanwhile, unless there is none, or the opener is a
		// finished background build (preopen): its generation is what the
		// call must see.
		switch {
		case g == nil || s.preopening.Load():
			s.swapMu.Lock()
			s.swap(key)
			s.swapMu.Unlock()
		case s.swapMu.TryLock():
			s.swap(key)
			s.swapMu.Unlock()
		case s.preopening.Load(): // set before preopen takes swapMu
			s.swapMu.Lock()
			s.swap(key)
			s.swapMu.Unlock()
		}
	}
	s.mu.Lock()
	g = s.cur
	openErr := s.openErr
	if g == nil {
		s.mu.Unlock()
		if !ok || openErr != nil {
			// No index, or one that cannot be opened: a build replaces
			// it (Build rebuilds a damaged index in full).
			s.fresh.kick(s)
		}
		return nil, nil, s.errNoIndex(openErr)
	}
	g.refs++
	s.mu.Unlock()
	// A few stats while nothing changed: a generation damaged under the
	// server is dropped before anything reads it (Badger would panic on a
	// goroutine of its own, or the process take a SIGBUS on its mmap).
	if err := g.Snap.Verify(); err != nil {
		s.logf("the live generation %d is damaged: %v", g.Snap.Generation, err)
		s.mu.Lock()
		mine := s.cur == g
		if mine {
			s.cur, s.openErr = nil, err
		}
		s.mu.Unlock()
		s.release(g)
		if mine {
			s.retire(g)
		}
		s.fresh.kick(s)
		return nil, nil, s.errNoIndex(err)
	}
	return g, func() { s.release(g) }, nil
}

// Preload opens the generation CURRENT names in the background, when
// there is one, so that a server's first call need not wait for the
// whole open (at 100k files about 1.5 s): a call arriving meanwhile waits
// for it as it would have opened it itself. No index: nothing happens
// (the first call starts the build).
func (s *Live) Preload() {
	if _, ok := statKey(filepath.Join(s.dir, "CURRENT")); !ok || s.closed.Load() {
		return
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		if _, release, err := s.Acquire(); err == nil {
			release()
		}
	}()
}

// swap opens the generation CURRENT names now, if it is not the open one.
func (s *Live) swap(key fileKey) {
	s.mu.Lock()
	if s.cur != nil && s.curKey == key {
		s.mu.Unlock()
		return
	}
	old := s.cur
	s.mu.Unlock()
	if old != nil {
		if n, err := graph.CurrentGeneration(s.dir); err == nil && n == old.Snap.Generation {
			s.mu.Lock()
			s.curKey = key
			s.mu.Unlock()
			return
		}
	}
	fail := func(err error) {
		s.mu.Lock()
		if s.cur == nil {
			s.openErr = err
		}
		s.mu.Unlock()
	}
	snap, err := graph.OpenSnapshot(s.dir)
	if err != nil {
		s.logf("open index: %v", err)
		fail(err)
		return
	}
	ix, err := engine.Load(snap)
	if err != nil {
		s.logf("generation %d has no readable ranking index: %v", snap.Generation, err)
		snap.Close()
		fail(fmt.Errorf("generation %d has no readable ranking index: %w", snap.Generation, err))
		return
	}
	ng := &Gen{Snap: snap, Index: ix}
	// Opening decoded every segment's stored bytes, which the index drops
	// once settled (engine.Index.Settled): hand that memory back rather
	// than keep it until the heap grows into it, and drop the table pages
	// the decoding mapped (graph.Snapshot.ReleaseMapped).
	if old == nil {
		// The first generation: the calls wait for it anyway, so they
		// wait until its background work is done (engine.Index.Warm) and
		// the memory given back, rather than compete with that work for
		// the cores (at 100k files the first 30 answers took up to 4
		// times as long).
		select {
		case <-ix.Warm():
			snap.ReleaseMapped()
			debug.FreeOSMemory()
		case <-s.bgCtx.Done():
		}
	}
	s.mu.Lock()
	if s.closed.Load() {
		s.mu.Unlock()
		snap.Close()
		return
	}
	s.cur, s.curKey, s.openErr = ng, key, nil
	s.mu.Unlock()
	if old != nil {
		s.retire(old)
	}
	s.fresh.newGeneration()
	if old == nil {
		return
	}
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		select {
		case <-ix.Settled():
			s.mu.Lock()
			live := s.cur == ng && !ng.retired
			if live {
				ng.refs++ // held while its mappings are released
			}
			s.mu.Unlock()
			if live {
				ng.Snap.ReleaseMapped()
				s.release(ng)
			}
			debug.FreeOSMemory()
		case <-s.bgCtx.Done():
		}
	}()
}

func (s *Live) release(g *Gen) {
	s.mu.Lock()
	g.refs--
	closeNow := g.retired && g.refs == 0
	s.mu.Unlock()
	if closeNow {
		g.Snap.Close()
	}
}

func (s *Live) retire(g *Gen) {
	s.mu.Lock()
	g.retired = true
	closeNow := g.refs == 0
	s.mu.Unlock()
	if closeNow {
		g.Snap.Close()
	}
}

// callQuiet is the pause in the calls a walk of the whole tree waits for
// (awaitQuiet): an agent's calls come seconds apart (a model's turn),
// a script's back to back, a few milliseconds apart (tens on a loaded
// machine).
const callQuiet = 250 * time.Millisecond

// maxCallDefer bounds how long a walk waits for a pause in the calls: a
// client that never pauses still has its saved files noticed, at most
// this much later. It matters before the watches exist (a start, when a
// save is found by such a walk): mcpbench's `saved`, polling every 50 ms
// on a loaded machine, found its first save after 17 s (7 s without the
// wait); with 2 s here, walks ran beside mcpbench's 120 queries again. A
// variable for tests.
var maxCallDefer = 10 * time.Second

// callGate counts the calls in flight (Live.Call), for the background
// walks of the whole tree, which wait for a pause in the calls
// (awaitQuiet): at 100k files the freshness check's walk is two seconds
// of both cores, and beside the calls that follow a server's start it
// doubled wiki_query's latency over MCP.
type callGate struct {
	mu       sync.Mutex
	inflight int
	lastEnd  time.Time     // when the last call returned
	idle     chan struct{} // closed when the calls in flight drop to none
	deferred atomic.Int64  // walks that waited for calls (tests)
}

// Call notes the start of a call (a tool call): it starts a freshness
// check in the background when one is due (Touch), and until the
// returned function is called, background walks of the whole tree wait
// (they start once no call ran for callQuiet, or after maxCallDefer).
// The returned function may be called more than once.
func (s *Live) Call() (end func()) {
	c := &s.calls
	c.mu.Lock()
	if c.inflight == 0 {
		c.idle = make(chan struct{})
	}
	c.inflight++
	c.mu.Unlock()
	s.Touch()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			c.inflight--
			c.lastEnd = time.Now()
			if c.inflight == 0 {
				close(c.idle)
			}
			c.mu.Unlock()
		})
	}
}

// callsBusy reports whether a call runs, or one returned less than
// callQuiet ago.
func (s *Live) callsBusy() bool {
	c := &s.calls
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inflight > 0 || time.Since(c.lastEnd) < callQuiet
}

// awaitQuiet waits until no call ran for callQuiet (Call), at most
// maxCallDefer, or until ctx ends.
func (s *Live) awaitQuiet(ctx context.Context) {
	c := &s.calls
	deadline := time.Now().Add(maxCallDefer)
	for counted := false; ; counted = true {
		c.mu.Lock()
		n, last, idle := c.inflight, c.lastEnd, c.idle
		c.mu.Unlock()
		now := time.Now()
		left := deadline.Sub(now)
		wait := left
		if n == 0 {
			idle = nil // nothing to wait for but the pause
			wait = min(left, callQuiet-now.Sub(last))
		}
		if wait <= 0 || ctx.Err() != nil {
			return
		}
		if !counted {
			c.deferred.Add(1)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-idle:
		case <-t.C:
		}
		t.Stop()
	}
}

// Root returns the repository root.
func (s *Live) Root(g *Gen) string {
	if s.opt.Root != "" {
		return s.opt.Root
	}
	if g != nil && g.Snap.Info().Root != "" {
		return g.Snap.Info().Root
	}
	return filepath.Dir(s.dir)
}

// RootNoIndex returns the root without needing a generation.
func (s *Live) RootNoIndex() string {
	if s.opt.Root != "" {
		return s.opt.Root
	}
	s.mu.Lock()
	g := s.cur
	s.mu.Unlock()
	return s.Root(g)
}

// Annotations returns the notes and memories, re-read only when another
// process changed them; a read error is logged and returned with what could
// be read.
func (s *Live) Annotations() (*annotate.Annotations, error) {
	a, err := s.annotations.Get()
	if err != nil {
		s.logf("read notes and memories: %v", err)
	}
	return a, err
}

// OpenGeneration returns the number of the open generation, 0 when none is
// open (it does not look for a newer one: Acquire does).
func (s *Live) OpenGeneration() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return 0
	}
	return s.cur.Snap.Generation
}

// WalkOptions returns the walk options of the freshness check: LiveOptions.Walk
// when set, or those the index's last build stored.
func (s *Live) WalkOptions() walk.Options {
	if w := s.opt.Walk; w.Detect != nil || w.ExcludeDirs != nil || w.MaxFileBytes != 0 {
		return w
	}
	return LoadWalkSettings(s.dir).WalkOptions()
}
