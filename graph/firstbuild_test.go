package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// writeChainTree writes n Go files in n/4 directories: each file's function
// calls the function of the file after it in path order, so that a batch's
// references mostly name files of later batches (pass 2 must add them).
func writeChainTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	name := func(i int) string { return fmt.Sprintf("Fn%04d", i) }
	for i := range n {
		dir := fmt.Sprintf("d%03d", i/4)
		body := "return 0"
		if i+1 < n {
			body = fmt.Sprintf("return %s.%s()", fmt.Sprintf("d%03d", (i+1)/4), name(i+1))
			if (i+1)/4 == i/4 {
				body = "return " + name(i+1) + "()"
			}
		}
		imp := ""
		if (i+1)/4 != i/4 && i+1 < n {
			imp = fmt.Sprintf("import \"example.com/m/d%03d\"\n\n", (i+1)/4)
		}
		src := fmt.Sprintf("package d%03d\n\n%s// %s chains to the next file.\nfunc %s() int { %s }\n", i/4, imp, name(i), name(i), body)
		walktest.WriteFile(t, root, fmt.Sprintf("%s/f%04d.go", dir, i), src)
	}
	return root
}

func graphLines(t *testing.T, s *Snapshot) (pages, edges []string) {
	t.Helper()
	g, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range g.Pages {
		pages = append(pages, fmt.Sprintf("%s %s %q %d-%d %q", p.ID, p.Kind, p.Title, p.Line, p.EndLine, p.Doc))
	}
	for _, e := range g.Edges() {
		edges = append(edges, fmt.Sprintf("%s -%s-> %s", g.Pages[e.From].ID, e.Type, g.Pages[e.To].ID))
	}
	slices.Sort(pages)
	slices.Sort(edges)
	return pages, edges
}

// TestFirstBuildPartialGenerations builds a 41-file tree in batches of at
// most 6 files: after each batch a partial generation is live that holds
// exactly the files parsed so far (a prefix in path order), says so, and
// opens; the final generation equals the build of the same tree in one
// batch, pages, edges and counts.
func TestFirstBuildPartialGenerations(t *testing.T) { firstBuildPartialGenerations(t, 0) }

// TestFirstBuildPartialGenerationsShards is the same with the module
// pages of the batched build's generations cut into shards of three
// (ModuleShardPages): each partial generation and the final one must read
// as the build in one batch and one modules segment.
func TestFirstBuildPartialGenerationsShards(t *testing.T) { firstBuildPartialGenerations(t, 3) }

func firstBuildPartialGenerations(t *testing.T, shardPages int) {
	if shardPages > 0 {
		was := ModuleShardPages
		ModuleShardPages = shardPages
		defer func() { ModuleShardPages = was }()
	}
	root := writeChainTree(t, 40) // and go.mod
	dir := filepath.Join(root, IndexDirName)
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "6")
	var seen []int
	batchHook = func(info *BuildInfo) {
		t.Helper()
		s, err := OpenSnapshot(dir)
		if err != nil {
			t.Errorf("open partial generation: %v", err)
			return
		}
		defer s.Close()
		si := s.Info()
		// The first may be published before the walk is done, its total
		// then not known (firstwalk.go).
		total := si.FilesTotal == 41 || len(seen) == 0 && si.FilesTotal == 0
		if si.Mode != "partial" || !total || si.Files != info.Files || si.Generation != info.Generation {
			t.Errorf("partial generation %d: mode %q, %d of %d files (build says %d)", si.Generation, si.Mode, si.Files, si.FilesTotal, info.Files)
		}
		stats, err := s.Stats()
		if err != nil {
			t.Error(err)
			return
		}
		var paths []string
		for _, st := range stats {
			paths = append(paths, st.Path)
		}
		slices.Sort(paths)
		want := allPaths(root)[:si.Files]
		if !slices.Equal(paths, want) {
			t.Errorf("partial generation of %d files holds %v, want the first in path order %v", si.Files, paths, want)
		}
		pages, _ := graphLines(t, s)
		for _, p := range pages {
			if strings.HasPrefix(p, "file:") && !slices.Contains(want, strings.Fields(strings.TrimPrefix(p, "file:"))[0]) {
				t.Errorf("partial generation has the page %s of a file not parsed yet", p)
			}
		}
		seen = append(seen, si.Files)
	}
	defer func() { batchHook = nil }()
	info := build(t, root, true)
	if t.Failed() {
		t.FailNow()
	}
	if len(seen) < 3 || !slices.IsSorted(seen) || seen[0] >= 41 {
		t.Fatalf("partial generations held %v files: want at least 3, growing", seen)
	}
	if info.Mode != "full" || info.FilesTotal != 0 || info.Files != 41 || info.FilesParsed != 41 {
		t.Fatalf("final build info: %+v", info)
	}
	batched := open(t, root)
	if got := inRefs(t, batched, "symbol:d009/f0036.go#Fn0036"); !slices.Equal(got, []string{"symbol:d008/f0035.go#Fn0035"}) {
		t.Fatalf("Fn0036 callers = %v: a reference to a later batch was not resolved", got)
	}

	batchHook = nil
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "")
	if shardPages > 0 {
		if n := len(batched.moduleShards()); n < 3 {
			t.Fatalf("%d modules segments with shards of %d pages, want several", n, shardPages)
		}
		was := ModuleShardPages
		ModuleShardPages = 1 << 30
		defer func() { ModuleShardPages = was }()
	}
	one, s1 := buildOneBatch(t, root)
	pb, eb := graphLines(t, batched)
	p1, e1 := graphLines(t, s1)
	if !slices.Equal(pb, p1) {
		t.Fatalf("batched build's pages differ from one batch's:\n%v\n%v", pb, p1)
	}
	if !slices.Equal(eb, e1) {
		t.Fatalf("batched build's edges differ from one batch's:\n%v\n%v", eb, e1)
	}
	bi := batched.Info()
	if fmt.Sprint(bi.Pages, bi.Edges, bi.Languages, bi.Files, bi.SourceBytes) != fmt.Sprint(one.Pages, one.Edges, one.Languages, one.Files, one.SourceBytes) {
		t.Fatalf("counts: batched %v %v %v, one batch %v %v %v", bi.Pages, bi.Edges, bi.Languages, one.Pages, one.Edges, one.Languages)
	}
	if batched.Segments() <= s1.Segments() {
		t.Fatalf("batched build wrote %d segments, one batch %d", batched.Segments(), s1.Segments())
	}
}

// buildOneBatch builds the tree at root in full and in one batch (no
// test batch size) into a folder of its own, and opens it.
func buildOneBatch(t *testing.T, root string) (*BuildInfo, *Snapshot) {
	t.Helper()
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "")
	dir := filepath.Join(t.TempDir(), "one")
	info, err := Build(t.Context(), BuildOptions{Root: root, IndexDir: dir, Full: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return info, s
}

func allPaths(root string) []string {
	var out []string
	out = append(out, "go.mod")
	for i := range 40 {
		out = append(out, fmt.Sprintf("d%03d/f%04d.go", i/4, i))
	}
	slices.Sort(out)
	return out
}

// TestFirstBuildRecordsBounded asserts that a full build holds at most two
// batches of file records at once (one writing, one parsing), whatever the
// size of the tree.
func TestFirstBuildRecordsBounded(t *testing.T) {
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "8")
	for _, n := range []int{40, 160} {
		root := writeChainTree(t, n)
		liveRecords.now, liveRecords.peak = 0, 0
		info := build(t, root, true)
		if info.Files != n+1 {
			t.Fatalf("%d files: built %d", n+1, info.Files)
		}
		if liveRecords.now != 0 || liveRecords.peak == 0 || liveRecords.peak > 16 {
			t.Fatalf("a %d-file build held %d records at once (%d at the end): want at most two batches, 16", n+1, liveRecords.peak, liveRecords.now)
		}
	}
}

// TestFirstBuildAfterPartial: a partial generation left by a stopped first
// build is built again in full, not taken for a complete index.
func TestFirstBuildAfterPartial(t *testing.T) {
	root := writeChainTree(t, 20)
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "6")
	ctx, cancel := context.WithCancel(t.Context())
	batchHook = func(*BuildInfo) { cancel() }
	if _, err := Build(ctx, BuildOptions{Root: root}); !errors.Is(err, context.Canceled) {
		t.Fatalf("build stopped after its first partial generation: %v", err)
	}
	batchHook = nil
	s, err := OpenSnapshot(filepath.Join(root, IndexDirName))
	if err != nil {
		t.Fatalf("no partial generation live after the stop: %v", err)
	}
	if s.Info().Mode != "partial" || s.Info().Files >= 21 {
		t.Fatalf("after the stop: %+v", s.Info())
	}
	s.Close()
	info := build(t, root, false)
	if info.Mode != "full" || info.Files != 21 || info.FilesParsed != 21 {
		t.Fatalf("build after a partial generation: %+v", info)
	}
}

// TestFullRebuildKeepsCompleteIndex: `build --full` over a complete index
// publishes no partial generation: the complete one answers until the new
// one is whole.
func TestFullRebuildKeepsCompleteIndex(t *testing.T) {
	root := writeChainTree(t, 40)
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "6")
	build(t, root, true)
	published := 0
	batchHook = func(*BuildInfo) { published++ }
	defer func() { batchHook = nil }()
	info := build(t, root, true)
	if published != 0 || info.Mode != "full" || info.Files != 41 {
		t.Fatalf("a full rebuild published %d partial generations (%+v)", published, info)
	}
	if got := inRefs(t, open(t, root), "symbol:d009/f0036.go#Fn0036"); !slices.Equal(got, []string{"symbol:d008/f0035.go#Fn0035"}) {
		t.Fatalf("Fn0036 callers = %v", got)
	}
}

// TestLastBatchReleasesRecordsByRun asserts that the last batch of a full
// build lets each segment's records go once it is encoded: before its k-th
// segment the build holds only the records of that one and the ones after,
// and none once all are encoded.
func TestLastBatchReleasesRecordsByRun(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "8")
	root := writeChainTree(t, 20) // 21 files with go.mod: segments of 8, 8 and 5, one batch (smallTree)
	var held []int
	// The records of the runs encoded so far must be unreachable, not only
	// uncounted: weak pointers to them are nil after a collection.
	var done []weak.Pointer[FileRecord]
	reachable := 0
	runHook = func(n int, run []*FileRecord) {
		held = append(held, n)
		runtime.GC()
		for _, p := range done {
			if p.Value() != nil {
				reachable++
			}
		}
		for _, r := range run {
			done = append(done, weak.Make(r))
		}
	}
	defer func() { runHook = nil }()
	liveRecords.now, liveRecords.peak = 0, 0
	info := build(t, root, true)
	if info.Files != 21 {
		t.Fatalf("built %d files, want 21", info.Files)
	}
	if want := []int{21, 13, 5}; !slices.Equal(held, want) {
		t.Fatalf("records held before each segment of the last batch: %v, want %v", held, want)
	}
	if reachable > 0 {
		t.Fatalf("%d records of segments already encoded were still reachable at the next segment", reachable)
	}
	if liveRecords.now != 0 {
		t.Fatalf("%d records held after the build", liveRecords.now)
	}
}

// TestLastBatchWeighError: the last batch's runs are weighed while the run
// before commits (finishLast); a run whose blobs fail to weigh fails the
// build with Weigh's error, no generation is published, and the next build
// succeeds (the runs committed before it are removed as leftovers).
func TestLastBatchWeighError(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "8")
	root := writeChainTree(t, 20) // three segments, one batch
	var calls int
	boom := errors.New("weigh failed on purpose")
	opt := BuildOptions{
		Root: root, Full: true,
		Segment: func(g *Graph, _ []ExtLink) (map[string][]byte, error) {
			return map[string][]byte{"x": []byte(fmt.Sprint(len(g.Pages)))}, nil
		},
		Weigh: func(segs []func(string) ([]byte, error)) (BlobsFunc, error) {
			return func(blob func(string) ([]byte, error)) (map[string][]byte, error) {
				calls++
				if calls == 2 {
					return nil, boom
				}
				b, err := blob("x")
				return map[string][]byte{"x": append([]byte("w"), b...)}, err
			}, nil
		},
	}
	if _, err := Build(context.Background(), opt); !errors.Is(err, boom) {
		t.Fatalf("build with a failing weigh: %v, want %v", err, boom)
	}
	if calls != 2 {
		t.Fatalf("weighed %d segments, want 2 (none after the failure)", calls)
	}
	if _, err := OpenSnapshot(filepath.Join(root, IndexDirName)); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("after the failed build: %v, want ErrNoIndex", err)
	}
	calls = -100 // no failure now
	info, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if info.Files != 21 {
		t.Fatalf("built %d files, want 21", info.Files)
	}
	s := open(t, root)
	segs := s.fileSegs()
	if len(segs) != 3 {
		t.Fatalf("%d file segments, want 3", len(segs))
	}
	for _, sg := range segs {
		b, err := sg.blob("x")
		if err != nil || len(b) == 0 || b[0] != 'w' {
			t.Fatalf("segment %d's blob: %q, %v; want it weighed (\"w...\")", sg.id, b, err)
		}
	}
	ents, err := os.ReadDir(filepath.Join(root, IndexDirName, "seg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(s.man.Segments) {
		t.Fatalf("%d segment folders, want the generation's %d (leftovers of the failed build removed)", len(ents), len(s.man.Segments))
	}
}

// TestPaceTail checks that a full build's tail runs under a memory limit
// above the live heap, at a GC percentage of 100, and that both settings
// are restored after; a process's own lower limit is kept.
func TestPaceTail(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: paceTail leaves the collector to lowerGC")
	}
	oldPct := debug.SetGCPercent(100)
	defer debug.SetGCPercent(oldPct)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(oldLimit)

	restore := paceTail()
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 || limit < tailLimit(heapLive()) || limit < tailHeadroom {
		t.Errorf("memory limit in the tail %d: want about %d (1.3 × live + headroom)", limit, tailLimit(heapLive()))
	}
	if pct := debug.SetGCPercent(100); pct != 100 {
		t.Errorf("GC percentage in the tail %d, want 100", pct)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit after the tail %d, want it restored (no limit)", got)
	}

	// A lower limit of the process's own stays; the percentage is lowered.
	debug.SetMemoryLimit(1 << 20)
	restore = paceTail()
	if got := debug.SetMemoryLimit(-1); got != 1<<20 {
		t.Errorf("memory limit %d, want the process's own 1 MiB kept", got)
	}
	if pct := debug.SetGCPercent(-1); pct != tailGCPercent {
		t.Errorf("GC percentage %d under a low limit, want %d", pct, tailGCPercent)
	}
	debug.SetGCPercent(tailGCPercent)
	restore()
	if pct := debug.SetGCPercent(100); pct != 100 {
		t.Errorf("GC percentage after the tail %d, want 100 restored", pct)
	}
	debug.SetMemoryLimit(math.MaxInt64)
}

// TestPaceParse checks that a full build's parsing runs with the
// percentage off under a memory limit never below twice the live heap nor
// below parseHeadroom, kept up to date while it runs, and that the
// settings are restored after.
func TestPaceParse(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: paceParse leaves the collector alone")
	}
	for _, live := range []uint64{0, 10 << 20, 500 << 20} {
		if got := parseLimit(live); got < int64(2*live) || got < int64(live+live*3/10+parseHeadroom) {
			t.Errorf("parseLimit(%d) = %d: below twice the live heap or 1.3 × it + headroom", live, got)
		}
	}
	oldPct := debug.SetGCPercent(100)
	defer debug.SetGCPercent(oldPct)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(oldLimit)

	stop := paceParse()
	if pct := debug.SetGCPercent(-1); pct != -1 {
		t.Errorf("GC percentage while parsing %d, want -1 (off, the limit paces)", pct)
	}
	hold := make([]byte, 64<<20) // live heap the pacer must follow
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < parseLimit(64<<20) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < parseLimit(64<<20) {
		t.Errorf("memory limit %d with 64 MiB live, want ≥ %d (the pacer follows the live heap)", got, parseLimit(64<<20))
	}
	runtime.KeepAlive(hold)
	stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit after parsing %d, want it restored (no limit)", got)
	}
	if pct := debug.SetGCPercent(100); pct != 100 {
		t.Errorf("GC percentage after parsing %d, want 100 restored", pct)
	}
}

// TestSplitFirst: a large tree's first batch is cut to about
// firstBatchFiles files, at a directory change past three quarters of them
// where there is one, so that the first partial generation (a server's
// first answer with no index) comes early; a first batch under twice that
// stays whole, and no file is lost or moved.
func TestSplitFirst(t *testing.T) {
	tree := func(perDir, n int) []walk.File {
		var fs []walk.File
		for i := range n {
			fs = append(fs, walk.File{Path: fmt.Sprintf("d%05d/f%05d.go", i/perDir, i)})
		}
		return fs
	}
	for _, tc := range []struct {
		name          string
		files         []walk.File
		first, second int // files of the first two batches
	}{
		{"a directory change past three quarters", tree(10, 9000), (firstBatchFiles*3/4 + 9) / 10 * 10, 0},
		{"one directory", tree(9000, 9000), firstBatchFiles, 0},
		{"a directory change at the limit", tree(firstBatchFiles, 9000), firstBatchFiles, 0},
		{"a first batch under twice the size", tree(10, 900), 900, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := [][]walk.File{tc.files[:min(len(tc.files), 1500)]}
			if len(tc.files) > 1500 {
				in = append(in, tc.files[1500:])
			}
			out := splitFirst(in)
			if got := len(out[0]); got != tc.first {
				t.Errorf("the first batch has %d files, want %d", got, tc.first)
			}
			if len(tc.files) > 2*firstBatchFiles && len(tc.files) >= 1500 && len(out) != len(in)+1 {
				t.Errorf("%d batches, want %d", len(out), len(in)+1)
			}
			var all []walk.File
			for _, b := range out {
				all = append(all, b...)
			}
			if !slices.Equal(all, tc.files) {
				t.Errorf("the batches hold %d files, not the %d given in order", len(all), len(tc.files))
			}
		})
	}
}

// TestFirstBuildEarlyBatch holds the walk of a first build once it has
// listed the tree: the first batch, listed by walk.Prefix, must be parsed,
// written and published as a partial generation meanwhile, its total not
// known yet; the build then goes on, and its index equals a build of the
// tree in one batch.
func TestFirstBuildEarlyBatch(t *testing.T) { firstBuildEarlyBatch(t, false) }

// TestFirstBuildEarlyBatchMoved is the same when the walk's first files
// are not the early batch's (a file changed in between): the build starts
// again from the walk's list, and its index still equals a build in one
// batch, with no segment of the first try left.
func TestFirstBuildEarlyBatchMoved(t *testing.T) { firstBuildEarlyBatch(t, true) }

func firstBuildEarlyBatch(t *testing.T, moved bool) {
	root := writeChainTree(t, 40) // and go.mod
	dir := filepath.Join(root, IndexDirName)
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "4") // a tree of more than 12 files is large
	published := make(chan struct{})
	var first *BuildInfo
	var files []int // of each partial generation
	batchHook = func(info *BuildInfo) {
		if first == nil {
			first = cloneInfo(info)
			close(published)
		}
		files = append(files, info.Files)
	}
	walkHook = func(res *walk.Result) {
		select {
		case <-published:
		case <-time.After(20 * time.Second):
			t.Errorf("no partial generation was published while the walk was held: the first batch waited for the walk")
		}
		if moved {
			res.Files[1].ModTime++ // as if the second file was saved after Prefix stat'ed it
		}
	}
	defer func() { batchHook, walkHook = nil, nil }()
	info := build(t, root, true)
	batchHook, walkHook = nil, nil
	if t.Failed() {
		t.FailNow()
	}
	if first.Mode != "partial" || first.FilesTotal != 0 || first.Files == 0 || first.Files > 4 {
		t.Fatalf("first partial generation: mode %q, %d files of %d; want partial, 1–4 files of 0 (not known yet)", first.Mode, first.Files, first.FilesTotal)
	}
	if info.Mode != "full" || info.Files != 41 || info.FilesParsed != 41 || info.DirsRead == 0 {
		t.Fatalf("final build info: mode %q, %d files, %d parsed, %d directories read", info.Mode, info.Files, info.FilesParsed, info.DirsRead)
	}
	batched := open(t, root)
	_, s1 := buildOneBatch(t, root)
	pb, eb := graphLines(t, batched)
	p1, e1 := graphLines(t, s1)
	if !slices.Equal(pb, p1) || !slices.Equal(eb, e1) {
		t.Fatalf("the build with an early batch differs from one batch's:\npages %d vs %d, edges %d vs %d", len(pb), len(p1), len(eb), len(e1))
	}
	ents, err := os.ReadDir(filepath.Join(dir, "seg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(batched.man.Segments) {
		t.Fatalf("%d segment folders, want the generation's %d", len(ents), len(batched.man.Segments))
	}
	// The partial generations grow, unless the build started again.
	if restarted := !slices.IsSorted(files) || slices.Contains(files[1:], files[0]); restarted != moved {
		t.Fatalf("partial generations of %v files: restarted %v, want %v", files, restarted, moved)
	}
	if again := build(t, root, false); again.FilesParsed != 0 {
		t.Fatalf("a build after it parsed %d files, want none", again.FilesParsed)
	}
}
