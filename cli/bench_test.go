package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
)

// benchQueries are questions of the kinds agents ask.
var benchQueries = []string{"container restart policy", "how are images pulled from a registry", "NewClient",
	"network sandbox cleanup", "volume mount options", "parse config file", "logging driver", "healthcheck timeout",
	"cmd/dockerd/main.go", "ErrNotFound", "retry with backoff", "build cache prune"}

// BenchmarkMCPQueryStdio measures the round trip of wiki_query through a
// real `wikitoolkit mcp` process over stdio: client marshal, pipe, server
// decode, query, encode, pipe, client decode. The index is
// $WIKITOOLKIT_BENCH_INDEX, else /tmp/moby/.wikitoolkit when it exists,
// else a synthetic repository of 2,000 files. It reports the median.
func BenchmarkMCPQueryStdio(b *testing.B) {
	index := os.Getenv("WIKITOOLKIT_BENCH_INDEX")
	if index == "" {
		if _, err := os.Stat("/tmp/moby/.wikitoolkit/CURRENT"); err == nil {
			index = "/tmp/moby/.wikitoolkit"
		}
	}
	if index == "" {
		root := b.TempDir()
		if _, err := synth.Write(root, synth.Options{Files: 2000}); err != nil {
			b.Fatal(err)
		}
		os.Mkdir(filepath.Join(root, ".git"), 0o755)
		cmd := exec.Command(binPath, "build", "--quiet", root)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build: %v %s", err, out)
		}
		index = filepath.Join(root, ".wikitoolkit")
	}
	b.Logf("index %s", index)
	// --refresh=false: the benchmark must not rebuild someone else's index.
	cmd := exec.Command(binPath, "--index", index, "mcp", "--refresh=false")
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	ctx := context.Background()
	call := func(q string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": q}})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("wiki_query %q: %v %v", q, err, res)
		}
		return d
	}
	call("warm up") // opens the generation and loads the ranking index
	var ds []time.Duration
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		ds = append(ds, call(benchQueries[i%len(benchQueries)]))
		i++
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(ds[len(ds)*9/10].Microseconds())/1000, "p90-ms")
}
