package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// watchDeadline bounds every wait for the watcher; a pass takes well
// under a second, the margin is for a loaded machine.
const watchDeadline = 30 * time.Second

// watchRig is a built tree and a Live view over it with its Build counted.
// The tests never call Touch (nor anything else that starts the old
// call-driven check): only the watcher can make them pass.
type watchRig struct {
	t      *testing.T
	root   string
	live   *Live
	builds atomic.Int64
	// after, when set, runs inside Build after the real build, with the
	// build's number (1 for the first).
	after func(n int64)

	logMu sync.Mutex
	log   []string
	infos []*graph.BuildInfo // of every build, in order (under logMu)
}

func newWatchRig(t *testing.T, opt LiveOptions) *watchRig {
	t.Helper()
	r := &watchRig{t: t, root: t.TempDir()}
	walktest.WriteTree(t, r.root, map[string]string{
		".gitignore":   "gen/\n*_gen.go\n",
		"pay/pay.go":   "// Package pay charges cards.\npackage pay\n\n// Charge charges a card.\nfunc Charge(amount int) error { return nil }\n",
		"cart/cart.go": "package cart\n\n// Checkout pays for the cart.\nfunc Checkout(total int) error { return nil }\n",
		"README.md":    "# Shop\n\nA tiny shop.\n",
	})
	buildTree(t, r.root)
	opt.IndexDir = filepath.Join(r.root, ".wikitoolkit")
	opt.Build = func(ctx context.Context) error {
		n := r.builds.Add(1)
		res, err := Build(ctx, BuildOptions{Root: r.root})
		if err == nil {
			r.logMu.Lock()
			r.infos = append(r.infos, res.BuildInfo)
			r.logMu.Unlock()
		}
		if r.after != nil {
			r.after(n)
		}
		return err
	}
	opt.Logf = func(format string, a ...any) {
		r.logMu.Lock()
		r.log = append(r.log, fmt.Sprintf(format, a...))
		r.logMu.Unlock()
	}
	l, err := NewLive(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	r.live = l
	return r
}

func (r *watchRig) logText() string {
	r.logMu.Lock()
	defer r.logMu.Unlock()
	return strings.Join(r.log, "\n")
}

func (r *watchRig) write(rel, content string) {
	r.t.Helper()
	walktest.WriteTree(r.t, r.root, map[string]string{rel: content})
}

// has reports whether a query for name through the live view returns a
// page titled with it.
func (r *watchRig) has(name string) bool {
	r.t.Helper()
	g, release, err := r.live.Acquire()
	if err != nil {
		r.t.Fatal(err)
	}
	defer release()
	res, err := Query(context.Background(), g.Snap, g.Index, nil, name, engine.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	for _, st := range res.Results {
		if strings.Contains(st.Title, name) || strings.HasSuffix(st.ID, "#"+name) {
			return true
		}
	}
	return false
}

// waitFor polls cond until it holds, failing after watchDeadline with what.
func (r *watchRig) waitFor(what string, cond func() bool) {
	r.t.Helper()
	for deadline := time.Now().Add(watchDeadline); !cond(); {
		if time.Now().After(deadline) {
			r.t.Fatalf("%s: not after %s (watching %s, %d checks, %d builds); log:\n%s",
				what, watchDeadline, r.live.Watching(), r.live.watch.checks.Load(), r.builds.Load(), r.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *watchRig) waitIdle() {
	r.t.Helper()
	r.waitFor("the watcher goes idle", r.live.watch.idle)
}

// TestWatchNoticesSavedFiles: with the watcher on and no call made, a new
// file, an edit, a removal, a new directory and a new nested directory
// reach the live view's answers.
func TestWatchNoticesSavedFiles(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true})
	if got := r.live.Watching(); got != WatchFsnotify {
		t.Fatalf("Watching() = %q, want %q; log:\n%s", got, WatchFsnotify, r.logText())
	}
	r.waitIdle() // the first check has set up the watches
	r.write("pay/refund.go", "package pay\n\n// RefundWatchAlpha returns money.\nfunc RefundWatchAlpha(amount int) error { return nil }\n")
	r.waitFor("a new file's symbol is answered", func() bool { return r.has("RefundWatchAlpha") })

	r.write("pay/pay.go", "// Package pay charges cards.\npackage pay\n\n// ChargeWatchBeta charges a card twice.\nfunc ChargeWatchBeta(amount int) error { return nil }\n")
	r.waitFor("an edited file's new symbol is answered", func() bool { return r.has("ChargeWatchBeta") })

	if err := os.Remove(filepath.Join(r.root, "pay", "refund.go")); err != nil {
		t.Fatal(err)
	}
	r.waitFor("a removed file's symbol is no longer answered", func() bool { return !r.has("RefundWatchAlpha") })

	r.write("tax/vat.go", "package tax\n\n// VatWatchGamma adds the tax.\nfunc VatWatchGamma(net int) int { return net }\n")
	r.waitFor("a file in a new directory is answered", func() bool { return r.has("VatWatchGamma") })

	// mkdir -p: the directories below the first exist before any watch.
	r.write("deep/er/still/x.go", "package still\n\n// DeepWatchDelta is nested.\nfunc DeepWatchDelta() {}\n")
	r.waitFor("a file in new nested directories is answered", func() bool { return r.has("DeepWatchDelta") })
	r.waitIdle()
	// and the nested directory is watched now: a second file there.
	r.write("deep/er/still/y.go", "package still\n\n// DeepWatchEpsilon is nested too.\nfunc DeepWatchEpsilon() {}\n")
	r.waitFor("a second file in the nested directory is answered", func() bool { return r.has("DeepWatchEpsilon") })

	// A removed directory is no longer watched.
	if err := os.RemoveAll(filepath.Join(r.root, "deep")); err != nil {
		t.Fatal(err)
	}
	r.waitFor("a removed directory's symbols are no longer answered", func() bool { return !r.has("DeepWatchDelta") })
	r.waitIdle()
	for _, p := range r.live.watch.watchList() {
		if strings.Contains(p, "deep") {
			t.Errorf("still watching %s after it was removed", p)
		}
	}
}

// TestWatchWalksOnlyChanged: the checks and builds the watcher starts walk
// the paths its events named, not the tree — an edit reads no directory, a
// new directory its own — and the index they leave equals a full build's.
func TestWatchWalksOnlyChanged(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true})
	for i := range 20 {
		r.write(fmt.Sprintf("pkg%02d/p.go", i), fmt.Sprintf("package pkg%02d\n\n// Filler%02d fills the tree.\nfunc Filler%02d() {}\n", i, i, i))
	}
	r.waitFor("the filler packages are answered", func() bool { return r.has("Filler19") && r.has("Filler00") })
	r.waitIdle()
	last := func() *graph.BuildInfo {
		r.logMu.Lock()
		defer r.logMu.Unlock()
		return r.infos[len(r.infos)-1]
	}
	expect := func(what string, dirs int) {
		t.Helper()
		r.waitIdle()
		if got := last().DirsRead; got > dirs {
			t.Errorf("%s: the build read %d directories, want at most %d", what, got, dirs)
		}
		if got := r.live.watch.lastDirs.Load(); got > int64(dirs) {
			t.Errorf("%s: the last check read %d directories, want at most %d", what, got, dirs)
		}
	}
	r.write("pay/pay.go", "// Package pay charges cards.\npackage pay\n\n// ChargeOnlyAlpha charges a card.\nfunc ChargeOnlyAlpha(amount int) error { return nil }\n")
	r.waitFor("an edit is answered", func() bool { return r.has("ChargeOnlyAlpha") })
	expect("an edit", 0)

	r.write("tax/vat.go", "package tax\n\n// VatOnlyBeta adds the tax.\nfunc VatOnlyBeta(net int) int { return net }\n")
	r.waitFor("a file in a new directory is answered", func() bool { return r.has("VatOnlyBeta") })
	expect("a new directory", 1)

	if err := os.Rename(filepath.Join(r.root, "cart", "cart.go"), filepath.Join(r.root, "pkg03", "basket.go")); err != nil {
		t.Fatal(err)
	}
	r.waitFor("a renamed file is answered under its new path", func() bool {
		g, release, err := r.live.Acquire()
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		_, inNew := g.Snap.FileStat("pkg03/basket.go")
		_, inOld := g.Snap.FileStat("cart/cart.go")
		return inNew && !inOld
	})
	expect("a rename", 0)

	if err := os.RemoveAll(filepath.Join(r.root, "pkg07")); err != nil {
		t.Fatal(err)
	}
	r.waitFor("a removed directory's symbols are no longer answered", func() bool { return !r.has("Filler07") })
	expect("a removed directory", 0)

	builds := r.builds.Load()
	r.write("pay/refund_gen.go", "package pay\n\n// RefundOnlyIgnored is ignored.\nfunc RefundOnlyIgnored() {}\n")
	r.write("gen/x.go", "package gen\n\n// GenOnlyIgnored is ignored.\nfunc GenOnlyIgnored() {}\n")
	r.waitFor("a check runs for the ignored files", func() bool { return r.live.watch.checks.Load() > 0 && r.live.watch.idle() })
	time.Sleep(3 * watchQuiet)
	r.waitIdle()
	if n := r.builds.Load() - builds; n != 0 {
		t.Errorf("ignored files made %d builds, want 0", n)
	}

	// What the watcher's builds left equals a full build of the tree.
	fullDir := filepath.Join(t.TempDir(), "full")
	if _, err := Build(context.Background(), BuildOptions{Root: r.root, IndexDir: fullDir, Full: true}); err != nil {
		t.Fatal(err)
	}
	inc := graphtest.Open(t, filepath.Join(r.root, graph.IndexDirName))
	full := graphtest.Open(t, fullDir)
	defer inc.Close()
	defer full.Close()
	if diff := compareIndexes(context.Background(), inc, full); diff != "" {
		t.Fatalf("the watcher's builds and a full build differ:\n%s", diff)
	}
}

// watchList returns the watched directories (tests), or nil when polling.
func (w *watcher) watchList() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fw == nil {
		return nil
	}
	return w.fw.WatchList()
}

// TestWatchDebounce: a burst of 200 new files, saved one by one like a
// formatter would, makes at most three builds (and few checks: a check
// per event would walk the tree hundreds of times), and a file saved
// while a build runs makes exactly one more after it.
func TestWatchDebounce(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true})
	r.waitIdle()
	checks := r.live.watch.checks.Load()
	for i := range 200 {
		r.write(fmt.Sprintf("burst/f%03d.go", i), fmt.Sprintf("package burst\n\n// BurstWatch%03d is one of many.\nfunc BurstWatch%03d() {}\n", i, i))
		time.Sleep(3 * time.Millisecond) // a formatter's pace; without the debounce each gap would start a check
	}
	r.waitFor("the last file of the burst is answered", func() bool { return r.has("BurstWatch199") && r.has("BurstWatch000") })
	r.waitIdle()
	t.Logf("200 files in a burst: %d builds, %d checks", r.builds.Load(), r.live.watch.checks.Load()-checks)
	if n := r.builds.Load(); n < 1 || n > 3 {
		t.Errorf("200 files saved in a burst made %d builds, want 1 to 3", n)
	}
	if n := r.live.watch.checks.Load() - checks; n > 10 {
		t.Errorf("200 files saved in a burst made %d checks, want at most 10", n)
	}

	// A save after the build listed the files, before it returned.
	base := r.builds.Load()
	built, release := make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) }) // before Close waits for the build
	r.after = func(n int64) {
		if n == base+1 {
			close(built)
			<-release
		}
	}
	r.write("pay/late_one.go", "package pay\n\n// LateWatchOne starts a build.\nfunc LateWatchOne() {}\n")
	select {
	case <-built:
	case <-time.After(watchDeadline):
		t.Fatalf("no build after a save; log:\n%s", r.logText())
	}
	r.write("pay/late_two.go", "package pay\n\n// LateWatchTwo is saved during the build.\nfunc LateWatchTwo() {}\n")
	// The check it calls for is due (its burst settled) while the build
	// still runs: it must wait for the build, not run and be lost.
	r.waitFor("the save during the build is seen and its check due", func() bool {
		r.live.watch.mu.Lock()
		defer r.live.watch.mu.Unlock()
		return r.live.watch.pending && time.Since(r.live.watch.last) > 2*watchQuiet
	})
	releaseOnce.Do(func() { close(release) })
	r.waitFor("the file saved during the build is answered", func() bool { return r.has("LateWatchTwo") })
	r.waitIdle()
	if n := r.builds.Load() - base; n != 2 {
		t.Errorf("a save, then one during its build: %d builds, want 2", n)
	}
}

// TestWatchIgnoresScratch: events for editor scratch files and the index
// folder start no check, and a Go file the ignore rules exclude costs one
// check (the walk decides) but no build.
func TestWatchIgnoresScratch(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true})
	r.waitIdle()
	checks := r.live.watch.checks.Load()
	scratch := []string{"pay/.pay.go.swp", "pay/pay.go~", "pay/4913", "pay/#pay.go#", "pay/pay.go___jb_tmp___"}
	for _, p := range scratch {
		r.write(p, "scratch")
	}
	r.write(".wikitoolkit/stray.go", "package x\n")
	for _, p := range scratch {
		if err := os.Remove(filepath.Join(r.root, p)); err != nil {
			t.Fatal(err)
		}
	}
	// Were the scratch events relevant, a check would run in the quiet
	// time that ends their burst; this sleep makes that check come before
	// the next file's (it is not what the test passes on).
	time.Sleep(3 * watchQuiet)
	r.write("pay/money_gen.go", "package pay\n\n// GeneratedWatch is ignored.\nfunc GeneratedWatch() {}\n")
	r.waitFor("a check runs for the ignored Go file", func() bool { return r.live.watch.checks.Load() > checks })
	r.waitIdle()
	if n := r.live.watch.checks.Load() - checks; n != 1 {
		t.Errorf("scratch files, then an ignored Go file: %d checks, want 1; log:\n%s", n, r.logText())
	}
	if n := r.builds.Load(); n != 0 {
		t.Errorf("scratch and ignored files made %d builds, want 0", n)
	}
	if r.has("GeneratedWatch") {
		t.Error("an ignored file was indexed")
	}
}

// TestWatchRelevant: which events are worth a check.
func TestWatchRelevant(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "newdir"), 0o755)
	w := &watcher{root: root, dirs: map[string]bool{"": true, "pay": true}, wopt: graph.SourceWalk(LoadWalkSettings(filepath.Join(root, ".wikitoolkit")).WalkOptions())}
	for _, c := range []struct {
		rel  string
		op   fsnotify.Op
		want bool
	}{
		{"pay/pay.go", fsnotify.Write, true},
		{"pay/pay.go", fsnotify.Remove, true},
		{"pay/pay.go", fsnotify.Chmod, true},
		{"pay", fsnotify.Remove, true},           // a watched directory
		{"newdir", fsnotify.Create, true},        // a new directory
		{"gone", fsnotify.Remove, true},          // a text file, for all we know
		{"pay/logo.png", fsnotify.Remove, false}, // binary by its extension
		{".gitignore", fsnotify.Write, true},     // changes what is indexed
		{"pay/.pay.go.swp", fsnotify.Create, false},
		{"pay/.pay.go.swx", fsnotify.Create, false},
		{"pay/pay.go~", fsnotify.Create, false},
		{"pay/4913", fsnotify.Create, false},
		{"pay/#pay.go#", fsnotify.Create, false},
		{"pay/.#pay.go", fsnotify.Create, false},
		{"pay/pay.go___jb_tmp___", fsnotify.Create, false},
		{"pay/logo.png", fsnotify.Create, false},
		{"S.swift", fsnotify.Write, true},
		{".wikitoolkit/CURRENT", fsnotify.Create, false},
		{".git/index", fsnotify.Write, false},
		{"vendor/x/y.go", fsnotify.Write, false},
		{"node_modules/x/y.js", fsnotify.Create, false},
		{".wiki/notes.md", fsnotify.Write, false}, // the shared notes folder
	} {
		ev := fsnotify.Event{Name: filepath.Join(root, filepath.FromSlash(c.rel)), Op: c.op}
		if got := w.relevant(ev); got != c.want {
			t.Errorf("relevant(%s %s) = %v, want %v", c.op, c.rel, got, c.want)
		}
	}
}

// TestWatchPollingFallback: when watches run out (ENOSPC), the view polls,
// says so once, and still picks up a saved file without a call.
func TestWatchPollingFallback(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true, watchAdd: func(*fsnotify.Watcher, string) error { return syscall.ENOSPC }})
	r.waitFor("the view falls back to polling", func() bool { return r.live.Watching() == WatchPolling })
	r.write("pay/refund.go", "package pay\n\n// RefundPollAlpha returns money.\nfunc RefundPollAlpha(amount int) error { return nil }\n")
	r.waitFor("a saved file is answered while polling", func() bool { return r.has("RefundPollAlpha") })
	r.write("pay/refund.go", "package pay\n\n// RefundPollBeta returns money twice.\nfunc RefundPollBeta(amount int) error { return nil }\n")
	r.waitFor("an edit is answered while polling", func() bool { return r.has("RefundPollBeta") })
	log := r.logText()
	if n := strings.Count(log, "watches ran out"); n != 1 {
		t.Errorf("the log says %d times that watches ran out, want once:\n%s", n, log)
	}
	if !strings.Contains(log, "max_user_watches") {
		t.Errorf("the log does not say which limit to raise:\n%s", log)
	}
}

// TestWatchOff: without Watch nothing watches, and Watching says so.
func TestWatchOff(t *testing.T) {
	r := newWatchRig(t, LiveOptions{})
	if got := r.live.Watching(); got != WatchOff {
		t.Errorf("Watching() = %q, want %q", got, WatchOff)
	}
	if r.live.watch.checks.Load() != 0 {
		t.Error("a check ran without Watch and without a call")
	}
}

// TestWatchCallsDoNotWalk: while the watcher runs, calls after the start
// and after a save do not walk the whole tree again (on 100k files that
// walk beside the first calls doubled wiki_query's latency): the watcher's
// first walk and its events stand for the call-driven check until
// watchSafetyEvery has passed.
func TestWatchCallsDoNotWalk(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true})
	r.waitFor("the tree is answered", func() bool { return r.has("Charge") })
	r.waitIdle()
	walks := r.live.fresh.walks.Load()
	touch := func(what string) {
		t.Helper()
		for range 5 {
			r.live.Touch()
			r.has("Charge")
		}
		r.waitIdle()
		time.Sleep(3 * watchQuiet)
		r.waitIdle()

		if got := r.live.fresh.walks.Load(); got != walks {
			t.Errorf("%s: calls walked the whole tree %d times, want 0", what, got-walks)
		}
	}
	touch("after the start")
	r.write("pay/pay.go", "// Package pay charges cards.\npackage pay\n\n// ChargeOnlyGamma charges a card.\nfunc ChargeOnlyGamma(amount int) error { return nil }\n")
	r.waitFor("an edit is answered", func() bool { return r.has("ChargeOnlyGamma") })
	r.waitIdle()
	walks = r.live.fresh.walks.Load()
	touch("after a save")
}

// TestWatchEventsBeforeDeferredWalk: while a check of the whole tree is
// due (here: as after the watches were first added) and waits for calls
// in flight to pause, a file saved meanwhile is checked on its own and
// answered at once, not after the calls pause (up to maxCallDefer).
func TestWatchEventsBeforeDeferredWalk(t *testing.T) {
	defer func(d time.Duration) { maxCallDefer = d }(maxCallDefer)
	maxCallDefer = time.Hour
	r := newWatchRig(t, LiveOptions{Watch: true})
	r.waitFor("the tree is answered", func() bool { return r.has("Charge") })
	r.waitIdle()
	walks := r.live.fresh.walks.Load()
	end := r.live.Call()
	defer end()
	r.live.watch.notePath(time.Now(), "") // the next check walks the whole tree
	r.write("pay/refund.go", "package pay\n\n// RefundBeforeWalk returns money.\nfunc RefundBeforeWalk(amount int) error { return nil }\n")
	r.waitFor("the saved file is answered while the walk waits for the call", func() bool { return r.has("RefundBeforeWalk") })
	r.waitFor("the check of the whole tree waits for the call", func() bool { return r.live.calls.deferred.Load() > 0 })
	if w := r.live.fresh.walks.Load() - walks; w != 0 {
		t.Errorf("%d walks of the whole tree beside the call, want 0 (it waits)", w)
	}
}

// limitWatches is a watchAdd that runs out of watches (ENOSPC) once n
// directories of the tree are watched (the index folder's aside).
func limitWatches(n int) func(*fsnotify.Watcher, string) error {
	return func(fw *fsnotify.Watcher, p string) error {
		held := 0
		for _, q := range fw.WatchList() {
			if filepath.Base(q) != graph.IndexDirName {
				held++
			}
		}
		if held >= n {
			return syscall.ENOSPC
		}
		return fw.Add(p)
	}
}

// TestWatchPartial: when watches run out after some directories, the view
// keeps those (WatchPartial) rather than dropping them all for polling,
// polls for the others, and gives its watches to the directories whose
// files changed last: a directory saved in while unwatched is answered
// (by a poll) and then watched.
func TestWatchPartial(t *testing.T) {
	r := newWatchRig(t, LiveOptions{Watch: true, watchAdd: limitWatches(2)})
	r.waitFor("the view watches part of the tree", func() bool { return r.live.Watching() == WatchPartial })
	r.waitIdle()
	w := r.live.watch
	var unwatched []string
	for _, d := range []string{"", "pay", "cart"} {
		if !w.watchedDir(d) {
			unwatched = append(unwatched, d)
		}
	}
	if len(unwatched) != 1 {
		t.Fatalf("unwatched directories %q, want one of the three (2 watches)", unwatched)
	}
	if got, dirs, poll := r.live.WatchDetail(); got != 2 || dirs != 3 || poll < pollEvery {
		t.Errorf("WatchDetail() = %d of %d directories, poll %v; want 2 of 3, at least %v", got, dirs, poll, pollEvery)
	}
	cold := unwatched[0]
	file := strings.TrimPrefix(cold+"/partial.go", "/")
	r.write(file, "package x\n\n// PartialPolledAlpha is saved where no watch is.\nfunc PartialPolledAlpha() {}\n")
	r.waitFor("a file saved in an unwatched directory is answered (a poll)", func() bool { return r.has("PartialPolledAlpha") })
	r.waitFor("the directory saved in last is watched", func() bool { return w.watchedDir(cold) })
	if got, _, _ := r.live.WatchDetail(); got != 2 {
		t.Errorf("%d directories watched after the swap, want 2", got)
	}
	r.write(file, "package x\n\n// PartialWatchedBeta is saved where a watch is now.\nfunc PartialWatchedBeta() {}\n")
	r.waitFor("an edit there is answered", func() bool { return r.has("PartialWatchedBeta") })
	log := r.logText()
	if n := strings.Count(log, "watches ran out"); n != 1 {
		t.Errorf("the log says %d times that watches ran out, want once:\n%s", n, log)
	}
	if !strings.Contains(log, "max_user_watches") || !strings.Contains(log, "2 directories whose files changed last") {
		t.Errorf("the log does not say which limit to raise and what is watched:\n%s", log)
	}
}

// TestPollPeriod: the poll period follows what a check of the tree takes.
func TestPollPeriod(t *testing.T) {
	cores := time.Duration(min(runtime.GOMAXPROCS(0), 8))
	for _, c := range []struct{ took, want time.Duration }{
		{time.Millisecond, pollEvery},
		{time.Second / cores, pollCost * time.Second},
		{time.Minute, maxPollEvery},
	} {
		if got := pollPeriod(c.took); got != c.want {
			t.Errorf("pollPeriod(%v) = %v, want %v", c.took, got, c.want)
		}
	}
}

// TestWatchWaitsForFirstBuild: on a tree with no index, the watcher's
// walk of the whole tree gives way to the first build (a call's) instead
// of walking beside it, and once the build is done it watches the tree:
// a file saved then reaches the answers with no call.
func TestWatchWaitsForFirstBuild(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{
		"pay/pay.go":   "// Package pay charges cards.\npackage pay\n\n// Charge charges a card.\nfunc Charge(amount int) error { return nil }\n",
		"cart/cart.go": "package cart\n\n// Checkout pays for the cart.\nfunc Checkout(total int) error { return nil }\n",
	})
	walking, started, gate := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var builds, hooks atomic.Int64
	opt := LiveOptions{
		IndexDir: filepath.Join(root, ".wikitoolkit"),
		Watch:    true,
		Build: func(ctx context.Context) error {
			if builds.Add(1) == 1 {
				close(started)
				<-gate
			}
			_, err := Build(ctx, BuildOptions{Root: root})
			return err
		},
		beforeNoIndexWalk: func() {
			if hooks.Add(1) == 1 {
				close(walking)
				<-started // the first build starts as the watcher is about to walk
			}
		},
	}
	l, err := NewLive(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := &watchRig{t: t, root: root, live: l}
	<-walking
	first := make(chan struct{})
	go func() {
		defer close(first)
		l.WaitFirstBuild(context.Background())
	}()
	<-started
	// The build waits at the gate: the watcher, which found it running,
	// must not have walked the tree and watched it meanwhile.
	time.Sleep(100 * time.Millisecond)
	if n := len(l.watch.watchList()); n > 0 || l.watch.lastDirs.Load() > 0 {
		t.Errorf("the watcher watched %d directories (its last walk read %d) while the first build ran", n, l.watch.lastDirs.Load())
	}
	close(gate)
	<-first
	r.waitFor("the first build's symbols are answered", func() bool { return r.has("Checkout") })
	r.waitFor("the watcher watches the tree after the first build", func() bool { return len(l.watch.watchList()) >= 3 })
	r.waitIdle()
	r.write("pay/refund.go", "package pay\n\n// RefundAfterFirst returns money.\nfunc RefundAfterFirst(amount int) error { return nil }\n")
	r.waitFor("a file saved after the first build is answered with no call", func() bool { return r.has("RefundAfterFirst") })
	if hooks.Load() != 1 {
		t.Errorf("the watcher walked the tree without an index %d times, want once (deferred to the build)", hooks.Load())
	}
}
