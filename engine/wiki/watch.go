package wiki

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// The watcher (LiveOptions.Watch) notices saved files without waiting for
// a call: it watches every directory the freshness check's walk reads
// (fsnotify; inotify on Linux), and a burst of events, once settled, runs
// the check a call would (freshness.check), which starts LiveOptions.Build
// when files changed. The events name the paths that changed, and the
// check and the build walk just those (graph.Snapshot.ChangesIn,
// BuildOptions.Changed through WithChanged): on a 100k-file tree a walk of
// the whole tree costs a second, twice per save (check and build), that
// of a saved file a few system calls. The walk of the paths, not the
// events, decides what changed there (the walker's rules applied to each
// path: ignore files, excluded folders, size limits), and the whole tree is
// walked again when the events cannot be trusted to name every change: at
// the first check, after events overflowed or a build failed, when an
// ignore file changed (its rules reach paths no event names), when more
// than maxWatchPaths paths piled up, when the paths cannot be walked alone
// (below a symbolic link: walk.ErrWalkAll), while polling, and in the
// call-driven check at most every watchSafetyEvery (fresh.go), the safety
// net for file systems whose events stay silent. Each check brings the
// watches in line with the directories its walk read (new ones added,
// gone ones dropped; a check of paths, those at or below them).
//
// On a tree with no index yet, the watches are set up by a walk of their
// own, which gives way to the first build (a call starts it): it is not
// begun, or is stopped, while that build runs, and the check after the
// build watches the tree (checkNow).
//
// When inotify's watches run out (fs.inotify.max_user_watches: ENOSPC) the
// watcher keeps what it could have, less a reserve for other programs
// (watchReserve), and gives them to the directories whose files changed
// last (by the live generation's stats; WatchPartial): a save there is
// noticed at once, and the check of the whole tree runs every poll period
// for the others (a poll's check stats neither the directories watched
// nor their files: walk.Options.Watched). When no watch can be had at all
// (ENOSPC at the first, no inotify instance left, out of file
// descriptors) it polls: the check of the whole tree every poll period.
// The poll period is pollCost times the CPU time of the last such check's
// walk, from pollEvery to maxPollEvery (pollPeriod): a tenth of a core.
// On a 500k-file tree (413k directories, 192k watches) polling every 2 s
// kept a core busy with stats (1.02 cores idle), and a save waited for
// them (3–14 s).

// Watching modes, as Status.Watching and Live.Watching report them.
const (
	WatchFsnotify = "fsnotify" // file system events
	WatchPartial  = "partial"  // events for the directories watched, the check of the tree every poll period for the rest
	WatchPolling  = "polling"  // the freshness check every poll period
	WatchOff      = "off"      // only calls start checks
)

const (
	// watchQuiet is how long events must pause before a check runs: a
	// `git checkout` or a formatter over many files becomes one build.
	watchQuiet = 150 * time.Millisecond
	// watchMaxWait bounds the wait from the first event of a burst that
	// does not pause.
	watchMaxWait = time.Second
	// pollEvery is the least period of the checks when watches ran out,
	// maxPollEvery the most; pollCost times the CPU time of the last
	// check's walk between them (pollPeriod).
	pollEvery    = 2 * time.Second
	maxPollEvery = 30 * time.Second
	pollCost     = 10
	// watchReserve is the most watches the watcher leaves to other
	// programs (an editor's, a build tool's) when they ran out: a tenth
	// of those it had, up to this.
	watchReserve = 1024
	// maxWatchPaths is the most changed paths a check walks one by one;
	// past it (a checkout, a generator) the whole tree is walked.
	maxWatchPaths = 2000
)

// watcher is the state of one Live's watching. Its loop (run) owns fw,
// root, dirs, wopt and the ticker; mu guards what calls and tests read.
type watcher struct {
	s      *Live
	fw     *fsnotify.Watcher
	ticker *time.Ticker // while polling
	root   string       // absolute root the watches are under
	dirs   map[string]bool
	wopt   walk.Options
	add    func(path string) error
	// capDirs, once watches ran out (WatchPartial), is the most
	// directories watched: those whose files changed last (preferred).
	capDirs int
	pref    *prefCache

	poll     atomic.Int64 // the poll period (ns) while polling
	nWatched atomic.Int64 // directories watched, of nDirs (WatchPartial)
	nDirs    atomic.Int64

	mode     atomic.Pointer[string]
	checks   atomic.Int64 // checks run (tests)
	lastDirs atomic.Int64 // directories the last check's walk read (tests)

	// journal numbers the paths of the events for builds in other
	// processes (journal.go); the index folder is watched for its cookies
	// (cookieDir, once it exists).
	journal       journal
	cookieDir     string
	cookieWatched atomic.Bool

	mu          sync.Mutex
	pending     bool      // a check is due once events settle and no build runs
	first, last time.Time // first and last event of the pending burst
	checking    bool
	// paths are the repo-relative paths the events of the pending burst
	// named; walkAll says the next check walks the whole tree instead.
	paths   map[string]bool
	walkAll bool
	// events are the files and directories the events of the pending
	// burst named, the first maxWatchPaths of them, even when walkAll
	// forgets paths: checked on their own first when the check of the
	// whole tree must wait for the calls to pause (checkNow).
	events map[string]bool
	// watched is a copy of dirs in WatchPartial (watchedFunc, tests).
	watched map[string]bool
	// polled says a poll asked for the next check of the whole tree,
	// mustWalk that something else did (notePath "" at a time): events
	// were lost, a build failed, the watches changed.
	polled, mustWalk bool
}

// startWatch starts the watcher of s, when LiveOptions.Watch asks for one.
func (s *Live) startWatch() {
	w := &watcher{s: s, dirs: map[string]bool{}}
	s.watch = w
	mode := WatchOff
	if s.opt.Watch {
		mode = WatchFsnotify
	}
	w.mode.Store(&mode)
	if !s.opt.Watch {
		return
	}
	// The first check, at once, of the whole tree: the first watches,
	// and what changed while no server ran.
	w.pending, w.walkAll = true, true
	s.goBackground(w.run)
	s.goBackground(w.serveJournal)
}

// Watching says how the view notices saved files: WatchFsnotify,
// WatchPolling (watches ran out; the check runs every 2 s) or WatchOff.
func (s *Live) Watching() string {
	if s.watch == nil {
		return WatchOff
	}
	return *s.watch.mode.Load()
}

func (w *watcher) setMode(m string) { w.mode.Store(&m) }

// WatchDetail says, while the view polls (Watching is WatchPartial or
// WatchPolling), how often it checks the whole tree, and in WatchPartial
// how many of the tree's directories are watched.
func (s *Live) WatchDetail() (watched, dirs int, poll time.Duration) {
	if s.watch == nil {
		return 0, 0, 0
	}
	return int(s.watch.nWatched.Load()), int(s.watch.nDirs.Load()), time.Duration(s.watch.poll.Load())
}

// pollPeriod is the period of the checks of the whole tree after one
// whose walk took d: pollCost times the CPU time it took (d on each core
// its stats ran on), from pollEvery to maxPollEvery, so that polling takes
// about a tenth of a core.
func pollPeriod(d time.Duration) time.Duration {
	cores := time.Duration(min(runtime.GOMAXPROCS(0), 8))
	return min(max(pollCost*cores*d, pollEvery), maxPollEvery)
}

// startPolling starts the checks of the whole tree every pollEvery (at
// first: pollAfter adapts it).
func (w *watcher) startPolling() {
	if w.ticker == nil {
		w.ticker = time.NewTicker(pollEvery)
		w.poll.Store(int64(pollEvery))
	}
}

// pollAfter sets the poll period after a check of the whole tree whose
// walk took d, while polling.
func (w *watcher) pollAfter(d time.Duration) {
	if w.ticker == nil || d <= 0 {
		return
	}
	p := pollPeriod(d)
	if old := time.Duration(w.poll.Load()); p < old*9/10 || p > old*11/10 {
		w.ticker.Reset(p)
		w.poll.Store(int64(p))
	}
}

// run is the watcher's loop, until the view closes.
func (w *watcher) run(ctx context.Context) {
	defer w.stop()
	w.wopt = graph.SourceWalk(w.s.WalkOptions())
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		w.fallback("cannot watch files (" + err.Error() + ")")
	} else {
		w.mu.Lock()
		w.fw = fw
		w.mu.Unlock()
		w.add = fw.Add
		if hook := w.s.opt.watchAdd; hook != nil {
			w.add = func(p string) error { return hook(fw, p) }
		}
		w.watchCookieDir()
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for ctx.Err() == nil {
		var events <-chan fsnotify.Event
		var errs <-chan error
		if w.fw != nil {
			events, errs = w.fw.Events, w.fw.Errors
		}
		var poll <-chan time.Time
		if w.ticker != nil {
			poll = w.ticker.C
		}
		var wake <-chan time.Time
		var buildDone <-chan struct{}
		w.mu.Lock()
		pending, due := w.pending, w.last.Add(watchQuiet)
		if m := w.first.Add(watchMaxWait); m.Before(due) {
			due = m
		}
		w.mu.Unlock()
		if pending {
			// Events during a build make one more check (and build)
			// after it, not one each.
			if done, _, _ := w.s.fresh.buildState(); done != nil {
				buildDone = done
			} else if d := time.Until(due); d <= 0 {
				w.checkNow(ctx)
				continue
			} else {
				timer.Reset(d)
				wake = timer.C
			}
		}
		select {
		case <-ctx.Done():
		case ev, ok := <-events:
			if w.s.opt.eventDelay > 0 {
				time.Sleep(w.s.opt.eventDelay)
			}
			if !ok {
				w.fallback("the file watcher stopped")
			} else if w.cookieDir != "" && filepath.Dir(ev.Name) == w.cookieDir {
				if base := filepath.Base(ev.Name); strings.HasPrefix(base, cookiePrefix) && ev.Has(fsnotify.Create) {
					w.journal.cookieSeen(base)
				}
			} else if rel, ok := w.relevantPath(ev); ok {
				if ev.Has(fsnotify.Rename) && w.dirs[rel] {
					// A watched directory renamed: events inside it would
					// come under its old name (and fsnotify keep its watches
					// there, which the next check could not move): drop them
					// and walk the whole tree, which watches it anew.
					w.forgetDir(rel)
					rel = ""
				} else if ev.Has(fsnotify.Remove) && w.dirs[rel] {
					w.forgetDir(rel) // its watch went with it: one made again under its name needs a new one
				} else if ev.Has(fsnotify.Create) && rel != "" && !w.dirs[rel] {
					w.watchNewDir(rel)
				}
				w.notePath(time.Now(), rel)
			}
		case err, ok := <-errs:
			switch {
			case !ok:
				w.fallback("the file watcher stopped")
			case errors.Is(err, fsnotify.ErrEventOverflow):
				w.notePath(time.Now(), "") // events were lost: the walk of the tree finds what they said
			default:
				w.s.logf("watching: %v", err)
			}
		case <-poll:
			w.mu.Lock()
			w.polled = true
			w.mu.Unlock()
			w.notePath(time.Time{}, "")
		case <-wake:
		case <-buildDone:
		}
		timer.Stop()
	}
}

// notePath records a relevant event at t (zero: due at once) for the
// repo-relative path rel ("": the whole tree is to be walked).
func (w *watcher) notePath(t time.Time, rel string) {
	w.mu.Lock()
	if b := path.Base(rel); rel == "" && !t.IsZero() || b == ".gitignore" || b == ".wikitoolkitignore" {
		w.mustWalk = true // not a poll's: every directory is looked at
	}
	if !w.pending {
		w.pending, w.first = true, t
	}
	w.last = t
	w.addPathLocked(rel)
	w.mu.Unlock()
	if b := path.Base(rel); rel == "" || b == ".gitignore" || b == ".wikitoolkitignore" {
		// What changed is not told by the paths (an ignore file's rules
		// reach others): the whole tree is walked next (addPathLocked),
		// and the journal starts again after it.
		w.journal.lose()
	} else {
		w.journal.note(rel)
	}
}

// maxNewDirs bounds the directories watchNewDir watches at once; past it
// the journal gives up until the check of the whole tree that follows.
const maxNewDirs = 10000

// watchNewDir watches directory rel (repo-relative), just made, and the
// directories already below it, at once rather than at the check after
// the burst: the journal (journal.go) names rel after this, so a build
// walks it whole once its watches exist, and every change in it after
// that has an event. Not a directory (a file made): nothing.
func (w *watcher) watchNewDir(rel string) {
	if w.fw == nil || w.root == "" {
		return
	}
	n := 0
	var add func(rel string) bool
	add = func(rel string) bool {
		abs := filepath.Join(w.root, filepath.FromSlash(rel))
		fi, err := os.Lstat(abs)
		if err != nil || !fi.IsDir() || w.wopt.Omits(rel) {
			return true // gone, a file, a link, or not walked
		}
		if n++; n > maxNewDirs {
			return false
		}
		if w.capDirs > 0 && len(w.dirs) >= w.capDirs {
			return true // as many as may be watched: the polls find what it holds
		}
		if err := w.add(abs); err != nil {
			return errors.Is(err, os.ErrNotExist) // gone meanwhile; else out of watches
		}
		w.dirs[rel] = true
		ents, _ := os.ReadDir(abs)
		for _, e := range ents {
			if e.IsDir() && !add(rel+"/"+e.Name()) {
				return false
			}
		}
		return true
	}
	if !add(rel) {
		w.notePath(time.Now(), "") // the check of the whole tree sorts the watches out
	}
}

// forgetDir forgets the watched directory rel, removed, and those below
// it (the kernel dropped their watches).
func (w *watcher) forgetDir(rel string) {
	for d := range w.dirs {
		if d == rel || strings.HasPrefix(d, rel+"/") {
			delete(w.dirs, d)
			w.fw.Remove(filepath.Join(w.root, filepath.FromSlash(d))) // already gone
		}
	}
}

// watchCookieDir watches the index folder, where the journal's cookies
// are made, once it exists.
func (w *watcher) watchCookieDir() {
	if w.cookieWatched.Load() || w.fw == nil {
		return
	}
	if err := w.fw.Add(w.s.dir); err == nil {
		w.cookieDir = w.s.dir
		w.cookieWatched.Store(true)
	}
}

// addPathLocked adds rel to the paths of the next check ("", an ignore
// file or one too many: the whole tree). w.mu is held.
func (w *watcher) addPathLocked(rel string) {
	base := path.Base(rel)
	ignoreFile := rel == "" || base == ".gitignore" || base == ".wikitoolkitignore"
	switch {
	case ignoreFile, len(w.paths) >= maxWatchPaths:
		w.walkAll, w.paths = true, nil
	case !w.walkAll:
		if w.paths == nil {
			w.paths = map[string]bool{}
		}
		w.paths[rel] = true
	}
	switch {
	case ignoreFile, len(w.events) >= maxWatchPaths: // the walk finds the rest
	default:
		if w.events == nil {
			w.events = map[string]bool{}
		}
		w.events[rel] = true
	}
}

// takePaths returns the paths of the pending burst to check, sorted, or
// nil when the check walks the whole tree, with the files and directories
// the events named meanwhile (events, sorted; nil when paths are given),
// and forgets them.
func (w *watcher) takePaths() (paths, events []string) {
	all, set, evs := w.walkAll, w.paths, w.events
	w.walkAll, w.paths, w.events = false, nil, nil
	if all || len(set) == 0 {
		return nil, sortedKeys(evs)
	}
	return sortedKeys(set), nil
}

func sortedKeys(set map[string]bool) []string {
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// checkEvents checks the paths events named on their own, before a check
// of the whole tree that waits for the calls to pause (awaitQuiet, up to
// maxCallDefer): an agent's back-to-back calls kept a file saved then out
// of the answers that long (a server at 100k files started on a stale
// index, the save a second or two after: 11 s). It returns false when a
// build runs (the check then comes again after it, the walk with it).
func (w *watcher) checkEvents(ctx context.Context, events []string) bool {
	res := w.s.fresh.check(ctx, w.s, true, events, nil)
	if res.refused {
		w.mu.Lock()
		w.walkAll, w.paths, w.pending = true, nil, true
		for _, p := range events {
			w.addPathLocked(p)
		}
		w.mu.Unlock()
		return false
	}
	if res.ok && res.scope != nil && ctx.Err() == nil {
		for _, d := range w.syncScope(res.root, *res.scope, res.dirs) {
			w.notePath(time.Now(), d)
		}
	}
	return true
}

// checkNow runs the freshness check and brings the watches in line with
// the directories its walk read.
func (w *watcher) checkNow(ctx context.Context) {
	w.mu.Lock()
	w.pending, w.first, w.last, w.checking = false, time.Time{}, time.Time{}, true
	// Only a check a poll asked for, with no other reason to walk the
	// whole tree (lost events, a failed build, an ignore file) and no
	// event of a watched directory pending, trusts the watches of
	// WatchPartial (watchedFunc).
	pollOnly := w.polled && !w.mustWalk
	w.polled, w.mustWalk = false, false
	paths, events := w.takePaths()
	pollOnly = pollOnly && paths == nil && len(events) == 0 // no event waits to be checked
	if w.fw == nil || w.root == "" {
		paths, events = nil, nil // polling, or no watches yet: the whole tree
	}
	w.mu.Unlock()
	walked := paths == nil // the whole tree (not when checkEvents defers it)
	defer func() {
		w.mu.Lock()
		w.checking = false
		w.mu.Unlock()
		if walked && w.fw != nil && w.ticker == nil {
			// A walk of the whole tree leaves its listing as garbage (at
			// 100k files a server's RSS rose from 315 to 414 MB after the
			// first checks, and stayed): hand it back. Not while polling,
			// whose walks come every pollEvery.
			debug.FreeOSMemory()
		}
	}()
	w.checks.Add(1)
	w.wopt = graph.SourceWalk(w.s.WalkOptions())
	if w.journal.optionsMoved(w.wopt.OptionsKey()) {
		// A build with other walk options ran: files anywhere may come
		// or go. A walk of the whole tree after this check starts the
		// journal again.
		w.notePath(time.Now(), "")
		pollOnly = false
	}
	var root string
	var dirs []string
	whole := false // the check walked the whole tree of an index
	if _, ok := statKey(filepath.Join(w.s.dir, "CURRENT")); ok {
		w.watchCookieDir()
		if paths == nil && len(events) > 0 && w.s.callsBusy() && !w.checkEvents(ctx, events) {
			walked = false
			return
		}
		var watched func(string) bool
		if pollOnly {
			watched = w.watchedFunc()
		}
		res := w.s.fresh.check(ctx, w.s, w.fw != nil, paths, watched)
		w.lastDirs.Store(int64(len(res.dirs)))
		if res.scope == nil {
			w.pollAfter(res.walkTook)
		}
		switch {
		case res.refused:
			// A build started elsewhere runs: check these paths after it.
			w.mu.Lock()
			for _, p := range paths {
				w.addPathLocked(p)
			}
			w.pending = true
			w.mu.Unlock()
			return
		case !res.ok:
			w.mu.Lock()
			w.walkAll, w.paths = true, nil // the next check cannot rely on these paths
			w.mu.Unlock()
			return
		case res.scope != nil:
			if w.fw != nil && ctx.Err() == nil {
				// Files made in a new directory between the walk and its
				// watch have no event: one more walk of it finds them.
				for _, d := range w.syncScope(res.root, *res.scope, res.dirs) {
					w.notePath(time.Now(), d)
				}
			}
			return
		}
		root, dirs, whole = res.root, res.dirs, true
	} else {
		// No index yet: the first build is a call's to start; keep the
		// watches right meanwhile. While it runs they wait for it (after
		// it, the check of the whole tree against its generation finds
		// what changed meanwhile and watches every directory): a walk of
		// the whole tree beside the build's own slowed the first build's
		// first answer down (100k files: 3.4–4.3 s against 2.0–2.4 s
		// without a watcher), and on a cold cache the two walks wait on
		// the same disk.
		if w.fw == nil {
			return
		}
		if hook := w.s.opt.beforeNoIndexWalk; hook != nil {
			hook()
		}
		if w.afterBuild() {
			walked = false
			return
		}
		root = w.s.RootNoIndex()
		opt := w.wopt
		opt.ListDirs = true
		wctx, stop := w.untilBuild(ctx)
		res, err := walk.Walk(wctx, root, opt)
		stop()
		if err != nil {
			if w.afterBuild() {
				walked = false // stopped early: a build started
			} else if ctx.Err() == nil {
				w.s.logf("watching: %v", err)
			}
			return
		}
		dirs = res.DirPaths
	}
	if w.fw != nil && ctx.Err() == nil {
		if added := w.sync(root, dirs); added > 0 && w.fw != nil {
			// Files made in a new directory between the walk and its
			// watch have no event: one more walk finds them.
			w.notePath(time.Now(), "")
		} else if whole && w.fw != nil && w.cookieWatched.Load() && w.capDirs == 0 {
			// Every directory was watched before this walk of the whole
			// tree began: from now on every change has its event.
			w.journal.start(w.root, w.wopt.OptionsKey())
		}
	}
}

// afterBuild reports whether a build of the view runs, and if so makes the
// check of the whole tree due once it ends (run waits for the build).
func (w *watcher) afterBuild() bool {
	if done, _, _ := w.s.fresh.buildState(); done == nil {
		return false
	}
	w.mu.Lock()
	w.pending, w.walkAll, w.mustWalk = true, true, true
	w.mu.Unlock()
	return true
}

// untilBuild returns a context of ctx that ends when a build of the view
// starts, and what releases it.
func (w *watcher) untilBuild(ctx context.Context) (context.Context, func()) {
	bctx, cancel := context.WithCancel(ctx)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-bctx.Done():
				return
			case <-tick.C:
				if done, _, _ := w.s.fresh.buildState(); done != nil {
					cancel()
					return
				}
			}
		}
	}()
	return bctx, cancel
}

// sync watches the directories dirs (repo-relative, "" the root) under
// root and drops the other watches, or in WatchPartial those of the
// capDirs directories whose files changed last. It returns how many it
// added (none in WatchPartial, whose polls find what a new directory
// holds). When watches run out it keeps what it has, less a reserve for
// other programs (watchReserve), for the directories whose files changed
// last (WatchPartial), or polls when it has none.
func (w *watcher) sync(root string, dirs []string) (added int) {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	want := dirs
	if w.capDirs > 0 && len(dirs) > w.capDirs {
		want = w.preferred(dirs, w.capDirs)
		if root == w.root && len(want) == len(w.dirs) && !slices.ContainsFunc(want, func(d string) bool { return !w.dirs[d] }) {
			// The same directories as at the last sync (a poll, no new
			// generation): nothing to add or drop.
			w.partial(false, "", len(dirs), false)
			return 0
		}
	}
	added, err := w.syncTo(root, want)
	if errors.Is(err, syscall.ENOSPC) {
		held := len(w.dirs)
		msg := "inotify watches ran out after " + strconv.Itoa(held) + " of " + strconv.Itoa(len(dirs)) + " directories (fs.inotify.max_user_watches" + watchLimit() +
			"; raise it with `sudo sysctl fs.inotify.max_user_watches=524288` and restart the server to watch them all)"
		if keep := held - min(held/10, watchReserve); keep > 0 {
			first := w.capDirs == 0
			w.capDirs = keep
			if _, err = w.syncTo(root, w.preferred(dirs, keep)); err == nil {
				w.partial(first, msg, len(dirs), true)
				return 0
			}
		}
		if errors.Is(err, syscall.ENOSPC) {
			w.fallback(msg)
			return 0
		}
	}
	if err != nil {
		w.fallback("cannot watch more directories (" + err.Error() + ")")
		return 0
	}
	if w.capDirs > 0 {
		w.partial(false, "", len(dirs), true)
		return 0
	}
	return added
}

// watchLimit is " = N", inotify's limit on watches, or "".
func watchLimit() string {
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches"); err == nil {
		return " = " + strings.TrimSpace(string(b))
	}
	return ""
}

// syncTo watches the directories want (repo-relative) under root, the
// absolute root, and drops the other watches; w.dirs becomes the
// directories watched. It returns how many it added and, when watches ran
// out (ENOSPC) or could not be had (EMFILE, ENOMEM), that error, w.dirs
// then holding those it watches.
func (w *watcher) syncTo(root string, want []string) (added int, _ error) {
	abs := func(d string) string { return filepath.Join(root, filepath.FromSlash(d)) }
	wantAbs := make(map[string]bool, len(want))
	w.dirs = make(map[string]bool, len(want))
	for _, d := range want {
		w.dirs[d] = true
		wantAbs[abs(d)] = true
	}
	moved := root != w.root
	w.root = root
	for _, p := range w.fw.WatchList() {
		if p == w.cookieDir {
			continue // the index folder, for the journal's cookies
		}
		if moved || !wantAbs[p] {
			w.fw.Remove(p) // already gone when its directory was removed
		} else {
			delete(wantAbs, p)
		}
	}
	todo := make([]string, 0, len(wantAbs))
	for _, d := range want {
		if wantAbs[abs(d)] {
			todo = append(todo, d)
		}
	}
	slices.Sort(todo) // parents first
	for i, d := range todo {
		err := w.add(abs(d))
		switch {
		case err == nil:
			added++
		case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENOMEM):
			for _, d := range todo[i:] {
				delete(w.dirs, d)
			}
			return added, err
		default:
			// Gone since the walk, or unreadable: the walk skips those too.
		}
	}
	return added, nil
}

// preferred returns the k of dirs (sorted) whose files changed last, by
// the live generation's stats (the latest modification time of the files
// each holds), in path order; those holding no indexed file come last, in
// path order.
func (w *watcher) preferred(dirs []string, k int) []string {
	gen := -1
	latest := map[string]int64{}
	if g, release, err := w.s.Acquire(); err == nil {
		gen = g.Snap.Generation
		if c := w.pref; c != nil && c.gen == gen && c.k == k && slices.Equal(c.dirs, dirs) {
			release()
			return c.out // the last answer: the stats are those of the same generation
		}
		if stats, err := g.Snap.Stats(); err == nil {
			for _, st := range stats {
				d := path.Dir(st.Path)
				if d == "." {
					d = ""
				}
				if t, ok := latest[d]; !ok || st.ModTime > t {
					latest[d] = st.ModTime
				}
			}
		}
		release()
	}
	type ranked struct {
		t int64
		i int
	}
	rs := make([]ranked, len(dirs))
	for i, d := range dirs {
		t, ok := latest[d]
		if !ok {
			t = math.MinInt64
		}
		rs[i] = ranked{t, i}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if c := cmp.Compare(b.t, a.t); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]string, 0, min(k, len(dirs)))
	for _, r := range rs[:min(k, len(rs))] {
		out = append(out, dirs[r.i])
	}
	slices.Sort(out)
	if gen >= 0 {
		w.pref = &prefCache{gen: gen, k: k, dirs: dirs, out: out}
	}
	return out
}

// prefCache is preferred's last answer: for generation gen, k and dirs.
type prefCache struct {
	gen, k    int
	dirs, out []string
}

// partial notes WatchPartial after a sync: the watches of w.dirs, of
// total directories, and the polls for the rest; synced says the sync
// changed them (else w.watched stands). The first time (first) it says
// so in the log, with why (msg).
func (w *watcher) partial(first bool, msg string, total int, synced bool) {
	w.journal.lose() // not every change has its event
	w.startPolling()
	w.setMode(WatchPartial)
	w.nWatched.Store(int64(len(w.dirs)))
	w.nDirs.Store(int64(total))
	if synced {
		shown := maps.Clone(w.dirs)
		w.mu.Lock()
		w.watched = shown
		w.mu.Unlock()
	}
	if first {
		w.s.logf("watching: %s; the %d directories whose files changed last are watched, and the tree is checked for the others every %s or more",
			msg, len(w.dirs), pollEvery)
	}
}

// watchedFunc returns, in WatchPartial, what tells the directories
// watched (walk.Options.Watched: a check of the whole tree need not stat
// them, their events tell), else nil. It is the list of the last sync: a
// directory watched since is stat'ed; one whose watch went since (it was
// removed) is not, which its event's check covers.
func (w *watcher) watchedFunc() func(string) bool {
	if *w.mode.Load() != WatchPartial {
		return nil
	}
	w.mu.Lock()
	set := w.watched
	w.mu.Unlock()
	if set == nil {
		return nil
	}
	return func(dir string) bool { return set[dir] }
}

// watchedDir reports whether directory rel is watched in WatchPartial
// (tests).
func (w *watcher) watchedDir(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.watched[rel]
}

// syncScope watches the directories dirs (repo-relative) that a check of
// the paths of sc read, and drops the watches at or below sc's paths that
// it did not read (removed directories). It returns the directories it
// added a watch for.
func (w *watcher) syncScope(root string, sc walk.Scope, dirs []string) (added []string) {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if root != w.root {
		w.notePath(time.Now(), "") // the root moved: walk it all, watch it all
		return nil
	}
	read := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		read[d] = true
	}
	for d := range w.dirs {
		if d != "" && sc.Contains(d) && !read[d] {
			delete(w.dirs, d)
			w.fw.Remove(filepath.Join(root, filepath.FromSlash(d))) // already gone when its directory was removed
		}
	}
	for _, d := range dirs { // sorted: parents first
		if w.dirs[d] {
			continue
		}
		if w.capDirs > 0 && len(w.dirs) >= w.capDirs {
			return added // as many as may be watched: the polls find the rest
		}
		err := w.add(filepath.Join(root, filepath.FromSlash(d)))
		switch {
		case err == nil:
			w.dirs[d] = true
			added = append(added, d)
		case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENOMEM):
			// The check of the whole tree that follows says so and falls
			// back to polling.
			w.notePath(time.Now(), "")
			return added
		}
	}
	return added
}

// fallback gives up on watches: the check runs every pollEvery instead.
// It says so once, in the log.
func (w *watcher) fallback(reason string) {
	w.journal.lose()
	w.cookieWatched.Store(false)
	w.closeWatches()
	w.startPolling()
	w.setMode(WatchPolling)
	w.s.logf("watching: %s; checking for changed files every %s or more instead (longer on a large tree)", reason, pollEvery)
}

// closeWatches drops every watch (w.fw is written under mu, for tests).
func (w *watcher) closeWatches() {
	w.mu.Lock()
	fw := w.fw
	w.fw = nil
	w.mu.Unlock()
	if fw != nil {
		fw.Close()
	}
}

func (w *watcher) stop() {
	w.closeWatches()
	if w.ticker != nil {
		w.ticker.Stop()
	}
}

// relevantPath is relevant, with the event's repo-relative path ("" for
// the root).
func (w *watcher) relevantPath(ev fsnotify.Event) (string, bool) {
	if !w.relevant(ev) {
		return "", false
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if w.root == "" || err != nil || rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// relevant reports whether an event may change what a build indexes: not
// for paths the walk omits (.git, the index folder, excluded and vendored
// directories), editor scratch files (swap files, backups ending in ~,
// vim's 4913) or files no language claims, unless a directory or an
// ignore file. A relevant event for a file the ignore rules exclude costs a
// walk, no build.
func (w *watcher) relevant(ev fsnotify.Event) bool {
	if w.root == "" {
		return true
	}
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		return true
	}
	if w.wopt.Omits(rel) {
		return false
	}
	base := path.Base(rel)
	if editorScratch(base) {
		return false
	}
	if base == ".gitignore" || base == ".wikitoolkitignore" || w.dirs[rel] {
		return true
	}
	detect := w.wopt.Detect
	if detect == nil {
		detect = parser.Detect
	}
	if detect(rel) != "" {
		return true
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// editorScratch reports whether a file's base name is an editor's scratch
// file rather than source: vim's swap files (.name.swp, .swo, .swx, …) and
// its write test 4913, backups ending in ~, Emacs's #name# and .#name
// locks, JetBrains's ___jb_tmp___ and ___jb_old___ copies.
func editorScratch(base string) bool {
	switch {
	case base == "4913", strings.HasSuffix(base, "~"), strings.HasPrefix(base, ".#"),
		len(base) > 1 && strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"),
		strings.HasSuffix(base, "___jb_tmp___"), strings.HasSuffix(base, "___jb_old___"):
		return true
	}
	ext := path.Ext(base) // vim: .swp, then .swo, .swn, … down to .swa; .swx, .swpx probes
	return len(ext) == 4 && strings.HasPrefix(ext, ".sw") && ext[3] >= 'a' && ext[3] <= 'p' || ext == ".swx" || ext == ".swpx"
}

// idle reports whether the watcher has nothing to do: no check pending
// or running and no build running (tests).
func (w *watcher) idle() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	done, _, _ := w.s.fresh.buildState()
	return !w.pending && !w.checking && done == nil
}
