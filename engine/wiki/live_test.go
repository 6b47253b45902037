package wiki

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestEditReusesOpenSegments: after an edit, the live view's new
// generation opens only the segment databases it does not share with the
// open one (the edit's new segment) and decodes the ranking data of only
// those and of the segment whose copy of the edited file became dead,
// reusing the others', and it answers as an index decoded whole would.
func TestEditReusesOpenSegments(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	root := t.TempDir()
	files := map[string]string{}
	for d := range 5 {
		for f := range 3 {
			files[fmt.Sprintf("dir%d/f%d.go", d, f)] = fmt.Sprintf("package dir%d\n\n// Work%d%d does work number %d.\nfunc Work%d%d(n int) int { return n + %d }\n", d, d, f, f, d, f, f)
		}
	}
	walktest.WriteTree(t, root, files)
	buildTree(t, root)
	index := filepath.Join(root, graph.IndexDirName)
	live, err := NewLive(LiveOptions{IndexDir: index, CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	acquire := func() (*Gen, func()) {
		t.Helper()
		g, release, err := live.Acquire()
		if err != nil {
			t.Fatal(err)
		}
		return g, release
	}
	d0 := engine.SegmentDecodes()
	g, release := acquire()
	select { // the first generation is published once its background work is done
	case <-g.Index.Warm():
	default:
		t.Fatal("the first generation was published before it was warm")
	}
	release()
	before := graphtest.LiveManifest(t, index)
	if got := engine.SegmentDecodes() - d0; got != int64(len(before.Segments)) {
		t.Fatalf("the first open decoded %d segments, want all %d", got, len(before.Segments))
	}
	if len(before.Segments) < 4 {
		t.Fatalf("%d segments: the fixture must make several", len(before.Segments))
	}

	qs := []string{"Work21", "work number", "Work03 Work41", "dir2/f1.go", "does work"}
	for d := range 5 {
		for f := range 3 {
			qs = append(qs, fmt.Sprintf("Work%d%d", d, f))
		}
	}
	compare := func(g *Gen, name string) { sameAsWhole(t, g, name, qs) }
	// Renames of the same length keep the mean field lengths, so the
	// stored impacts of the shared segments stand (meansTolerance). The
	// second edit's generation reuses the first's segment with a dead file.
	for i, dir := range []int{2, 4} {
		name := fmt.Sprintf("Wxrk%d1", dir)
		before := graphtest.LiveManifest(t, index)
		walktest.WriteTree(t, root, map[string]string{fmt.Sprintf("dir%d/f1.go", dir): fmt.Sprintf("package dir%d\n\n// %s does work number 1.\nfunc %s(n int) int { return n + 1 }\n", dir, name, name)})
		buildTree(t, root)
		after := graphtest.LiveManifest(t, index)
		old := map[int]string{}
		for _, sg := range before.Segments {
			old[sg.ID] = fmt.Sprint(sg.Dead)
		}
		want, deadShared, newSegs := 0, 0, 0
		for _, sg := range after.Segments {
			d, ok := old[sg.ID]
			if !ok {
				newSegs++
			}
			if !ok || d != fmt.Sprint(sg.Dead) {
				want++
			} else if len(sg.Dead) > 0 {
				deadShared++
			}
		}
		if want == 0 || want >= len(after.Segments) || i == 1 && deadShared == 0 {
			t.Fatalf("edit %d changed %d of %d segments, %d shared with dead files: the fixture must share some and change some", i, want, len(after.Segments), deadShared)
		}
		d1, o1 := engine.SegmentDecodes(), graph.SegmentOpens()
		g, release := acquire()
		if got := engine.SegmentDecodes() - d1; got != int64(want) {
			t.Errorf("edit %d: the generation decoded %d segments, want %d (new or with new dead files) of %d", i, got, want, len(after.Segments))
		}
		if got := graph.SegmentOpens() - o1; got != int64(newSegs) {
			t.Errorf("edit %d: the generation opened %d segment databases, want %d (its new segments) of %d", i, got, newSegs, len(after.Segments))
		}
		compare(g, name)
		release()
	}

	// An edit that moves the means past meansTolerance: the shared
	// segments' stored impacts no longer stand, so the open decodes them
	// again (engine.ErrStale), and still answers as a whole decode.
	var big strings.Builder
	big.WriteString("package dir1\n")
	for k := range 40 {
		fmt.Fprintf(&big, "\n// Extra%d is one of many functions added at once to move the means of every field.\nfunc Extra%d(a, b, c int) (int, error) { return a + b + c, nil }\n", k, k)
	}
	walktest.WriteTree(t, root, map[string]string{"dir1/f0.go": big.String()})
	buildTree(t, root)
	d1 := engine.SegmentDecodes()
	g, release = acquire()
	defer release()
	if got := engine.SegmentDecodes() - d1; got <= int64(len(graphtest.LiveManifest(t, index).Segments)) {
		t.Errorf("the big edit's generation decoded %d segments: the means did not move past the tolerance, so nothing tested the fallback", got)
	}
	compare(g, "Extra39")
}

// sameAsWhole checks that g's index answers the questions as the same
// generation decoded whole (no Key: nothing reused) does, and that name
// is answered as a symbol of its file.
func sameAsWhole(t *testing.T, g *Gen, name string, qs []string) {
	t.Helper()
	// The same generation decoded whole (no Key: nothing reused).
	var segs []engine.SegmentData
	for _, v := range g.Snap.SegmentViews() {
		eng, err := v.Blob("engine")
		if err != nil {
			t.Fatal(err)
		}
		text, err := v.Blob(graph.TextBlob)
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, engine.SegmentData{Engine: eng, Text: text, Dead: v.Dead})
	}
	whole, err := engine.OpenSegments(segs)
	if err != nil {
		t.Fatal(err)
	}
	qs = append(qs, name)
	found := false
	for _, q := range qs {
		a, err := g.Index.Query(context.Background(), q, engine.Options{Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := whole.Query(context.Background(), q, engine.Options{Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%q: reused segments answer\n%s\nwant (decoded whole)\n%s", q, ja, jb)
		}
		found = found || q == name && slices.ContainsFunc(a.Results, func(s engine.Stub) bool { return strings.HasSuffix(s.ID, "#"+name) })
	}
	if !found {
		t.Errorf("%s is not answered", name)
	}
}

// TestWalkWaitsForCalls: a freshness check's walk of the whole tree does
// not run while a call is in flight (at 100k files it is two seconds of
// both cores, which doubled the latency of the calls beside it): it waits
// for the calls to pause, and then finds what was saved meanwhile.
func TestWalkWaitsForCalls(t *testing.T) {
	r := newWatchRig(t, LiveOptions{CheckEvery: time.Nanosecond})
	end := r.live.Call() // the first call: a check is due at once
	r.waitFor("the check waits for the call", func() bool {
		return r.live.calls.deferred.Load() > 0 || r.live.fresh.walks.Load() > 0
	})
	if n := r.live.fresh.walks.Load(); n != 0 {
		t.Fatalf("%d walks of the whole tree ran while a call was in flight, want 0", n)
	}
	r.write("pay/refund.go", "package pay\n\n// RefundDuringCall returns money.\nfunc RefundDuringCall(amount int) error { return nil }\n")
	second := r.live.Call()
	end()
	end() // a second end is a no-op: the other call still runs
	if n := r.live.fresh.walks.Load(); n != 0 {
		t.Fatalf("%d walks ran while the second call was in flight, want 0", n)
	}
	second()
	r.waitFor("the check walks once the calls pause", func() bool { return r.live.fresh.walks.Load() == 1 })
	r.waitFor("the file saved during the call is answered", func() bool { return r.has("RefundDuringCall") })
}

// TestWalkWaitsAtMostMaxCallDefer: a client whose calls never pause still
// has its saved files noticed, after maxCallDefer.
func TestWalkWaitsAtMostMaxCallDefer(t *testing.T) {
	defer func(d time.Duration) { maxCallDefer = d }(maxCallDefer)
	maxCallDefer = 50 * time.Millisecond
	r := newWatchRig(t, LiveOptions{CheckEvery: time.Nanosecond})
	r.write("pay/refund.go", "package pay\n\n// RefundNoPause returns money.\nfunc RefundNoPause(amount int) error { return nil }\n")
	end := r.live.Call()
	defer end()
	r.waitFor("the walk runs beside a call that does not end", func() bool { return r.live.fresh.walks.Load() == 1 })
	if r.live.calls.deferred.Load() != 1 {
		t.Errorf("the walk did not wait for the call first (%d waits)", r.live.calls.deferred.Load())
	}
	r.waitFor("the saved file is answered", func() bool { return r.has("RefundNoPause") })
}

// TestPreloadOpensWithoutACall: Preload opens the live generation in the
// background, so that the first call finds it open (no decoding of its
// own); with no index it does nothing.
func TestPreloadOpensWithoutACall(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a.go": "package a\n\n// Alpha is the first.\nfunc Alpha() {}\n"})
	index := filepath.Join(root, graph.IndexDirName)

	var builds atomic.Int32
	empty, err := NewLive(LiveOptions{IndexDir: index, CheckEvery: -1,
		Build: func(context.Context) error { builds.Add(1); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	empty.Preload()
	empty.bgWG.Wait() // a build Acquire started would have run by now
	empty.Close()
	if n := builds.Load(); n != 0 {
		t.Fatalf("Preload with no index started %d builds; the first call starts it", n)
	}

	buildTree(t, root)
	live, err := NewLive(LiveOptions{IndexDir: index, CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	d0 := engine.SegmentDecodes()
	live.Preload()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		live.mu.Lock()
		open := live.cur != nil
		live.mu.Unlock()
		if open {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Preload did not open the index within 30 s")
		}
	}
	decoded := engine.SegmentDecodes() - d0
	g, release, err := live.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	release()
	if g == nil || engine.SegmentDecodes()-d0 != decoded {
		t.Fatalf("the first call after Preload decoded segments again (%d, then %d)", decoded, engine.SegmentDecodes()-d0)
	}
}
