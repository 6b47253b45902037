package benchmarks

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// queryCorpus is an indexed tree for the query benchmarks: the real
// repository of WIKITOOLKIT_BENCH_REPO, or a synthetic monorepo of
// WIKITOOLKIT_QUERY_FILES files (default 50,000), built once per process
// into a temporary index.
type queryCorpus struct {
	root, index string
}

var (
	qcOnce sync.Once
	qc     queryCorpus
	qcErr  error
)

func indexedCorpus(b *testing.B) queryCorpus {
	qcOnce.Do(func() {
		root, err := benchTree("WIKITOOLKIT_QUERY_FILES", 50000, 3)
		if err != nil {
			qcErr = err
			return
		}
		index, err := tempDir("wikitoolkit-qidx-")
		if err != nil {
			qcErr = err
			return
		}
		_, qcErr = graph.Build(context.Background(), graph.BuildOptions{Root: root, IndexDir: index, Full: true, Segment: engine.BuildBlobs, BlobsFormat: engine.Format})
		qc = queryCorpus{root: root, index: index}
	})
	if qcErr != nil {
		b.Fatal(qcErr)
	}
	return qc
}

// querySet derives a fixed, mixed set of at least 50 questions from the
// index itself, so the same code serves any repository deterministically:
// bare identifiers, qualified names, file paths with a line, natural-language
// phrases taken from doc comments, and stack-trace lines.
func querySet(g *graph.Graph) []string {
	var idents, quals, paths, prose, traces []string
	step := max(1, len(g.Pages)/400)
	for i := 0; i < len(g.Pages); i += step {
		p := &g.Pages[i]
		switch {
		case p.Kind == graph.KindSymbol && p.Test:
		case p.Kind == graph.KindSymbol && strings.Contains(p.Qualified, ".") && len(quals) < 10:
			quals = append(quals, p.Qualified)
		case p.Kind == graph.KindSymbol && len(p.Name) > 3 && len(idents) < 15:
			idents = append(idents, p.Name)
		case p.Kind == graph.KindFile && len(paths) < 8:
			paths = append(paths, fmt.Sprintf("%s:%d", p.Path, 1+i%40))
		}
		if p.Kind == graph.KindSymbol && p.Lang == "go" && strings.Contains(p.Qualified, ".") && len(traces) < 5 && i%3 == 0 {
			recv, m, _ := strings.Cut(p.Qualified, ".")
			traces = append(traces, fmt.Sprintf("panic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\nexample.com/x.(*%s).%s(...)\n\t/src/%s:%d +0x1d", recv, m, p.Path, p.Line+1))
		}
		if words := docWords(p.Doc, 5); words != "" && len(prose) < 17 {
			prose = append(prose, words)
		}
	}
	out := slices.Concat(idents, quals, paths, prose, traces)
	return out
}

// docWords returns the first n words of a doc comment's first sentence.
func docWords(doc string, n int) string {
	f := strings.FieldsFunc(doc, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(f) < n+1 {
		return ""
	}
	return strings.ToLower(strings.Join(f[1:n+1], " "))
}

// keywords are the words of a query as an agent would grep them.
func keywords(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if len(w) >= 3 && !slices.Contains(out, w) {
			out = append(out, w)
		}
		if len(out) == 6 {
			break
		}
	}
	return out
}

func pct(xs []time.Duration, p float64) time.Duration {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// openCorpus opens the indexed corpus and derives its query set; the
// snapshot is closed when the benchmark ends.
func openCorpus(b *testing.B) (queryCorpus, *engine.Index, []string) {
	c := indexedCorpus(b)
	snap, err := graph.OpenSnapshot(c.index)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { snap.Close() })
	ix, err := engine.Load(snap)
	if err != nil {
		b.Fatal(err)
	}
	g, err := snap.Graph()
	if err != nil {
		b.Fatal(err)
	}
	return c, ix, querySet(g)
}

// BenchmarkQuery answers the fixed query set in process and reports p50,
// p99, allocations and tokens per query.
func BenchmarkQuery(b *testing.B) {
	_, ix, qs := openCorpus(b)
	if len(qs) < 50 {
		b.Fatalf("only %d queries derived", len(qs))
	}
	ctx := context.Background()
	var lat []time.Duration
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		t := time.Now()
		res, err := ix.Query(ctx, q, engine.Options{})
		lat = append(lat, time.Since(t))
		if err != nil {
			b.Fatal(err)
		}
		tokens += res.UsedTokens
	}
	b.ReportMetric(float64(pct(lat, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(lat, 0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(tokens)/float64(len(lat)), "tokens/query")
	b.ReportMetric(float64(len(qs)), "queries")
}

// BenchmarkOpenAndFirstQuery opens the index from disk, decodes the ranking
// index and answers one query: what a fresh CLI or MCP process pays.
func BenchmarkOpenAndFirstQuery(b *testing.B) {
	c := indexedCorpus(b)
	for b.Loop() {
		snap, err := graph.OpenSnapshot(c.index)
		if err != nil {
			b.Fatal(err)
		}
		ix, err := engine.Load(snap)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Query(context.Background(), "where are retries configured", engine.Options{}); err != nil {
			b.Fatal(err)
		}
		snap.Close()
	}
}

// BenchmarkQueryVsRipgrep answers each query in process and greps its
// keywords with `rg -i -w` over the same tree, alternately, and reports the
// median ratio rg/wikitoolkit of the pairs.
func BenchmarkQueryVsRipgrep(b *testing.B) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("rg not installed (apt-get install ripgrep)")
	}
	c, ix, qs := openCorpus(b)
	var ratios []float64
	var wts, rgs []time.Duration
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		t := time.Now()
		if _, err := ix.Query(context.Background(), q, engine.Options{}); err != nil {
			b.Fatal(err)
		}
		wt := time.Since(t)
		args := []string{"-i", "-w", "-l", "--no-messages"}
		for _, k := range keywords(q) {
			args = append(args, "-e", k)
		}
		args = append(args, filepath.Clean(c.root))
		t = time.Now()
		exec.Command(rg, args...).Run() // exit 1 (no match) is fine
		rt := time.Since(t)
		wts, rgs = append(wts, wt), append(rgs, rt)
		ratios = append(ratios, rt.Seconds()/max(wt.Seconds(), 1e-9))
	}
	b.ReportMetric(median(ratios), "rg/wikitoolkit")
	b.ReportMetric(float64(pct(wts, 0.5).Microseconds())/1000, "wt-p50-ms")
	b.ReportMetric(float64(pct(rgs, 0.5).Microseconds())/1000, "rg-p50-ms")
}
