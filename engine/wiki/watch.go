package wiki

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
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
// the same check a call would (freshness.check), which starts
// LiveOptions.Build when files changed. The check's walk, not the events,
// decides what changed: events only say when to look, so a lost or
// misread event costs a walk, never a wrong index. Each check also brings
// the watches in line with the directories its walk read (new ones added,
// gone ones dropped). When watches cannot be had (inotify's
// fs.inotify.max_user_watches runs out: ENOSPC; no inotify instance left)
// the watcher polls instead: the check every pollEvery.

// Watching modes, as Status.Watching and Live.Watching report them.
const (
	WatchFsnotify = "fsnotify" // file system events
	WatchPolling  = "polling"  // the freshness check every pollEvery
	WatchOff      = "off"      // only calls start checks
)

const (
	// watchQuiet is how long events must pause before a check runs: a
	// `git checkout` or a formatter over many files becomes one build.
	watchQuiet = 150 * time.Millisecond
	// watchMaxWait bounds the wait from the first event of a burst that
	// does not pause.
	watchMaxWait = time.Second
	// pollEvery is the period of the checks when watches ran out.
	pollEvery = 2 * time.Second
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

	mode   atomic.Pointer[string]
	checks atomic.Int64 // checks run (tests)

	mu          sync.Mutex
	pending     bool      // a check is due once events settle and no build runs
	first, last time.Time // first and last event of the pending burst
	checking    bool
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
	// The first check, at once: the first watches, and what changed
	// while no server ran.
	w.pending = true
	s.goBackground(w.run)
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
		if w.s.opt.watchAdd != nil {
			w.add = w.s.opt.watchAdd
		}
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
			if !ok {
				w.fallback("the file watcher stopped")
			} else if w.relevant(ev) {
				w.note(time.Now())
			}
		case err, ok := <-errs:
			switch {
			case !ok:
				w.fallback("the file watcher stopped")
			case errors.Is(err, fsnotify.ErrEventOverflow):
				w.note(time.Now()) // events were lost: the walk finds what they said
			default:
				w.s.logf("watching: %v", err)
			}
		case <-poll:
			w.note(time.Time{})
		case <-wake:
		case <-buildDone:
		}
		timer.Stop()
	}
}

// note records a relevant event at t (zero: due at once).
func (w *watcher) note(t time.Time) {
	w.mu.Lock()
	if !w.pending {
		w.pending, w.first = true, t
	}
	w.last = t
	w.mu.Unlock()
}

// checkNow runs the freshness check and brings the watches in line with
// the directories its walk read.
func (w *watcher) checkNow(ctx context.Context) {
	w.mu.Lock()
	w.pending, w.first, w.last, w.checking = false, time.Time{}, time.Time{}, true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.checking = false
		w.mu.Unlock()
	}()
	w.checks.Add(1)
	w.wopt = graph.SourceWalk(w.s.WalkOptions())
	var root string
	var dirs []string
	if _, ok := statKey(filepath.Join(w.s.dir, "CURRENT")); ok {
		var ok bool
		root, dirs, ok = w.s.fresh.check(ctx, w.s, w.fw != nil)
		if !ok {
			return
		}
	} else {
		// No index yet: the first build is a call's to start (or is
		// running); keep the watches right meanwhile.
		if w.fw == nil {
			return
		}
		root = w.s.RootNoIndex()
		opt := w.wopt
		opt.ListDirs = true
		res, err := walk.Walk(ctx, root, opt)
		if err != nil {
			if ctx.Err() == nil {
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
			w.note(time.Now())
		}
	}
}

// sync watches the directories dirs (repo-relative, "" the root) under
// root and drops the other watches. It returns how many it added.
func (w *watcher) sync(root string, dirs []string) (added int) {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	want := make(map[string]bool, len(dirs))
	w.dirs = make(map[string]bool, len(dirs))
	for _, d := range dirs {
		w.dirs[d] = true
		want[filepath.Join(root, filepath.FromSlash(d))] = true
	}
	moved := root != w.root
	w.root = root
	for _, p := range w.fw.WatchList() {
		if moved || !want[p] {
			w.fw.Remove(p) // already gone when its directory was removed
		} else {
			delete(want, p)
		}
	}
	todo := make([]string, 0, len(want))
	for p := range want {
		todo = append(todo, p)
	}
	slices.Sort(todo) // parents first
	for _, p := range todo {
		err := w.add(p)
		switch {
		case err == nil:
			added++
		case errors.Is(err, syscall.ENOSPC):
			n := len(w.fw.WatchList())
			limit := ""
			if b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches"); err == nil {
				limit = " = " + strings.TrimSpace(string(b))
			}
			w.fallback("inotify watches ran out after " + strconv.Itoa(n) + " of " + strconv.Itoa(len(dirs)) + " directories (fs.inotify.max_user_watches" + limit +
				"; raise it with `sudo sysctl fs.inotify.max_user_watches=524288` and restart the server to watch again)")
			return 0
		case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENOMEM):
			w.fallback("cannot watch more directories (" + err.Error() + ")")
			return 0
		default:
			// Gone since the walk, or unreadable: the walk skips those too.
		}
	}
	return added
}

// fallback gives up on watches: the check runs every pollEvery instead.
// It says so once, in the log.
func (w *watcher) fallback(reason string) {
	w.closeWatches()
	if w.ticker == nil {
		w.ticker = time.NewTicker(pollEvery)
	}
	w.setMode(WatchPolling)
	w.s.logf("watching: %s; checking for changed files every %s instead", reason, pollEvery)
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
