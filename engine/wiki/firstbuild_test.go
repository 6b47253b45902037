package wiki

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// partialProbe is a build's Progress: at each parsed file it opens the
// index live at that moment and, when it is a partial generation, asks it
// the incremental test's questions, checking that each answer is flagged
// partial with the generation's progress and names only files it holds.
type partialProbe struct {
	t    *testing.T
	dir  string
	mu   sync.Mutex
	gens map[int]int // partial generation → files
	bad  string
}

func (p *partialProbe) Start(int) {}
func (p *partialProbe) Finish()   {}
func (p *partialProbe) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bad != "" {
		return
	}
	snap, err := graph.OpenSnapshot(p.dir)
	if err != nil {
		return // no generation yet
	}
	defer snap.Close()
	info := snap.Info()
	if info.Mode != "partial" {
		p.bad = "a generation of mode " + info.Mode + " live during the first build"
		return
	}
	if _, ok := p.gens[snap.Generation]; ok {
		return
	}
	p.gens[snap.Generation] = info.Files
	stats, err := snap.Stats()
	if err != nil {
		p.bad = err.Error()
		return
	}
	held := map[string]bool{}
	for _, st := range stats {
		held[st.Path] = true
	}
	ix, err := engine.Load(snap)
	if err != nil {
		p.bad = "partial generation's ranking index: " + err.Error()
		return
	}
	for _, q := range incrQueries {
		res, err := Query(context.Background(), snap, ix, nil, q, engine.Options{})
		if err != nil {
			p.bad = err.Error()
			return
		}
		// The total is 0 in a first partial generation published before
		// the walk of the tree was done (graph's firstwalk.go).
		if res.Partial == nil || res.Partial.Files != info.Files || res.Partial.Total != info.FilesTotal || res.Partial.Total != 0 && res.Partial.Files >= res.Partial.Total {
			p.bad = "answer from a partial generation not flagged partial with its progress"
			return
		}
		small, err := Query(context.Background(), snap, ix, nil, q, engine.Options{BudgetTokens: 120})
		if err != nil {
			p.bad = err.Error()
			return
		}
		if n := engine.CountTokens(PartialLine(small.Partial) + small.Render()); n > 120 || small.UsedTokens > 120 || small.BudgetTokens != 120 {
			p.bad = "a partial answer's text with its first line exceeds the budget of 120 tokens"
			return
		}
		for _, st := range res.Results {
			if st.Path != "" && !held[st.Path] {
				p.bad = "partial answer names " + st.Path + ", a file not parsed yet"
				return
			}
		}
	}
}

// TestFirstBuildAnswersPartial builds the polyglot fixture in batches of at
// most 4 files: while it runs, the partial generations answer, flagged
// partial, from the files parsed so far; the final generation answers as a
// build in one batch does (pages, edges, query answers, related pages).
func TestFirstBuildAnswersPartial(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, graph.IndexDirName)
	ctx := context.Background()
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "4")
	probe := &partialProbe{t: t, dir: dir, gens: map[int]int{}}
	info, err := Build(ctx, BuildOptions{Root: root, Progress: probe})
	if err != nil {
		t.Fatal(err)
	}
	if probe.bad != "" {
		t.Fatal(probe.bad)
	}
	if len(probe.gens) < 3 {
		t.Fatalf("the build's partial generations answered %d times (%v): want at least 3", len(probe.gens), probe.gens)
	}
	if info.Mode != "full" {
		t.Fatalf("final build mode %q", info.Mode)
	}
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "")
	oneDir := filepath.Join(t.TempDir(), "one")
	if _, err := Build(ctx, BuildOptions{Root: root, IndexDir: oneDir, Full: true}); err != nil {
		t.Fatal(err)
	}
	batched := graphtest.Open(t, dir)
	one := graphtest.Open(t, oneDir)
	defer batched.Close()
	defer one.Close()
	if batched.Segments() <= one.Segments() {
		t.Fatalf("batched build has %d segments, one batch %d: the batches did not cut", batched.Segments(), one.Segments())
	}
	if diff := compareIndexes(ctx, batched, one); diff != "" {
		t.Fatalf("a build in batches and one in one batch differ (\"incremental\" is the batched one):\n%s", diff)
	}
	ix, err := engine.Load(batched)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Query(ctx, batched, ix, nil, incrQueries[0], engine.Options{})
	if err != nil || res.Partial != nil {
		t.Fatalf("final generation's answer: partial %v, err %v", res.Partial, err)
	}
}

func TestPartialLine(t *testing.T) {
	if got := PartialLine(&engine.Partial{Files: 12000, Total: 100000}); got != "index being built: 12,000 of 100,000 files so far; answers cover those\n" {
		t.Fatalf("PartialLine = %q", got)
	}
	// The first partial generation of a large tree, published before the
	// walk of the tree is done: no total yet.
	if got := PartialLine(&engine.Partial{Files: 380}); got != "index being built: 380 files so far, the rest of the tree still being listed; answers cover those\n" {
		t.Fatalf("PartialLine without a total = %q", got)
	}
	if PartialLine(nil) != "" || !strings.HasPrefix(thousands(1234567), "1,234,567") || thousands(999) != "999" {
		t.Fatal("PartialLine(nil) or thousands")
	}
}

// TestWaitFirstBuildEndsAtPartial: a server's first call on an unindexed
// repository waits for the first generation the build publishes, not for
// the build: with the build held after its first partial generation
// (WIKITOOLKIT_TEST_BUILD_GATE) and the wait bound set to an hour,
// WaitFirstBuild returns, and the live view answers partial.
func TestWaitFirstBuildEndsAtPartial(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "4")
	t.Setenv("WIKITOOLKIT_TEST_BUILD_GATE", gate)
	built := make(chan error, 1)
	l, err := NewLive(LiveOptions{IndexDir: filepath.Join(root, graph.IndexDirName), Root: root, CheckEvery: -1,
		Build: func(ctx context.Context) error {
			_, err := Build(ctx, BuildOptions{Root: root})
			built <- err
			return err
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	defer os.WriteFile(gate, nil, 0o644)
	l.FirstWait = time.Hour
	waited := make(chan struct{})
	go func() {
		l.WaitFirstBuild(context.Background())
		close(waited)
	}()
	select {
	case <-waited:
	case err := <-built:
		t.Fatalf("the build ended (%v) while held at its first partial generation", err)
	case <-time.After(time.Minute): // a deadline to fail by, not a bound asserted
		t.Fatal("WaitFirstBuild still waits with a partial generation live")
	}
	g, release, err := l.Acquire()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Query(context.Background(), g.Snap, g.Index, nil, incrQueries[0], engine.Options{})
	release()
	if err != nil || res.Partial == nil {
		t.Fatalf("first answer: partial %v, err %v", res.Partial, err)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-built; err != nil {
		t.Fatal(err)
	}
}

// TestRenderStatusPartial: status says how far a partial index is, and
// that the tree is not listed yet when its total is not known.
func TestRenderStatusPartial(t *testing.T) {
	for _, c := range []struct {
		p    engine.Partial
		want string
	}{
		{engine.Partial{Files: 1200, Total: 100000}, "partial    1,200 of 100,000 files indexed so far: "},
		{engine.Partial{Files: 380}, "partial    380 files indexed so far, the rest of the tree not listed yet: "},
	} {
		var sb strings.Builder
		RenderStatus(&sb, &Status{Partial: &c.p})
		if !strings.Contains(sb.String(), c.want) {
			t.Errorf("status of %+v:\n%s\nwant a line with %q", c.p, sb.String(), c.want)
		}
	}
}
