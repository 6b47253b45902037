package benchmarks

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

var (
	corpusOnce sync.Once
	corpusRoot string
	corpusErr  error
)

// corpus returns the tree to benchmark: WIKITOOLKIT_BENCH_REPO, or a
// synthetic monorepo of WIKITOOLKIT_BENCH_FILES files (default 3000),
// generated once per process.
func corpus(b *testing.B) string {
	corpusOnce.Do(func() { corpusRoot, corpusErr = benchTree("WIKITOOLKIT_BENCH_FILES", 3000, 1) })
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusRoot
}

type srcFile struct {
	path string
	src  []byte
}

// loadSources reads the files a build would parse (same walk and skip rules).
func loadSources(b *testing.B, root string) ([]srcFile, int64) {
	w, err := walk.Walk(context.Background(), root, graph.SourceWalk(walk.Options{Detect: parser.Detect}))
	if err != nil {
		b.Fatal(err)
	}
	var files []srcFile
	var total int64
	for _, fe := range w.Files {
		src, err := os.ReadFile(fe.Abs)
		if err != nil || walk.ClassifyContent(fe.Path, src) != "" {
			continue
		}
		files = append(files, srcFile{fe.Path, src})
		total += int64(len(src))
	}
	slices.SortFunc(files, func(a, b srcFile) int { return len(b.src) - len(a.src) })
	return files, total
}

// parseOnly parses every file with tree-sitter alone on `workers`
// goroutines: P2, the physical floor of a build on this machine.
func parseOnly(files []srcFile, workers int) {
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := parser.NewParser()
			defer p.Close()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(files) {
					return
				}
				p.ParseOnly(context.Background(), files[i].path, files[i].src)
			}
		}()
	}
	wg.Wait()
}

func fullBuild(b *testing.B, root, index string) *graph.BuildInfo {
	info, err := graph.Build(context.Background(), graph.BuildOptions{Root: root, IndexDir: index, Full: true, Segment: engine.BuildBlobs, BlobsFormat: engine.Format})
	if err != nil {
		b.Fatal(err)
	}
	return info
}

// BenchmarkParseOnly is P2: tree-sitter parsing alone, 2 workers.
func BenchmarkParseOnly(b *testing.B) {
	files, total := loadSources(b, corpus(b))
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		parseOnly(files, 2)
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkBuildFull is a full build (walk, read, parse, resolve, rank
// index, write a generation) with GOMAXPROCS workers.
func BenchmarkBuildFull(b *testing.B) {
	root := corpus(b)
	_, total := loadSources(b, root)
	index := b.TempDir()
	b.SetBytes(total)
	b.ReportAllocs()
	var info *graph.BuildInfo
	for b.Loop() {
		info = fullBuild(b, root, index)
	}
	b.ReportMetric(float64(info.FilesParsed)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkBuildVsParse alternates P2 and a full build on the same tree and
// reports the median of build/P2 per pair: on a shared, noisy 2-core machine
// only a ratio measured side by side means anything.
func BenchmarkBuildVsParse(b *testing.B) {
	root := corpus(b)
	files, total := loadSources(b, root)
	index := b.TempDir()
	var ratios, p2s, builds []float64
	for b.Loop() {
		runtime.GC()
		t0 := time.Now()
		parseOnly(files, 2)
		p2 := time.Since(t0)
		runtime.GC()
		t1 := time.Now()
		fullBuild(b, root, index)
		bd := time.Since(t1)
		ratios = append(ratios, bd.Seconds()/p2.Seconds())
		p2s = append(p2s, p2.Seconds())
		builds = append(builds, bd.Seconds())
	}
	b.ReportMetric(median(ratios), "build/P2")
	b.ReportMetric(median(p2s), "P2-s")
	b.ReportMetric(median(builds), "build-s")
	b.ReportMetric(float64(total)/1e6, "MB")
}

// BenchmarkRebuild measures incremental rebuilds after a full one: with no
// change, after touching one file (mtime only), and after editing one file.
func BenchmarkRebuild(b *testing.B) {
	root := corpus(b)
	index := b.TempDir()
	fullBuild(b, root, index)
	files, _ := loadSources(b, root)
	victim := filepath.Join(root, filepath.FromSlash(files[len(files)/2].path))
	orig, err := os.ReadFile(victim)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(victim, orig, 0o644)
	rebuild := func() {
		if _, err := graph.Build(context.Background(), graph.BuildOptions{Root: root, IndexDir: index, Segment: engine.BuildBlobs, BlobsFormat: engine.Format}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("nochange", func(b *testing.B) {
		for b.Loop() {
			rebuild()
		}
	})
	b.Run("touch", func(b *testing.B) {
		for b.Loop() {
			now := time.Now()
			os.Chtimes(victim, now, now)
			rebuild()
		}
	})
	b.Run("edit", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			os.WriteFile(victim, append(slices.Clone(orig), []byte("\n// edit "+strconv.Itoa(i)+"\n")...), 0o644)
			rebuild()
		}
	})
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
