package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// benchPages is the synthetic graph size; WIKITOOLKIT_BENCH_PAGES overrides
// it (150000 ≈ a moby-size index).
func benchPages() int {
	if v, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_BENCH_PAGES")); err == nil && v > 100 {
		return v
	}
	return 50000
}

// synthGraph builds a deterministic repository-like graph of about n pages:
// ~14 symbols per file, 12 files per directory, identifiers drawn from a
// Zipf-distributed vocabulary, docs of a dozen words, references aimed at
// popular symbols more often than at rare ones.
func synthGraph(n int) *graph.Graph {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	syll := []string{"ra", "te", "no", "ki", "su", "lo", "pe", "ma", "di", "go", "ve", "xu", "ba", "ch", "fi", "qu"}
	for i := range vocab {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		vocab[i] = b.String() + strconv.Itoa(i%7)
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	word := func() string { return vocab[zipf.Uint64()] }
	ident := func() string {
		w := word()
		return w + strings.ToUpper(word()[:1]) + word()[1:]
	}
	var pages []graph.Page
	var edges []graph.Edge
	var syms []uint32
	nFiles := max(1, n/15)
	for f := 0; len(pages) < n && f < nFiles*2; f++ {
		dir := fmt.Sprintf("pkg%d/%s", f/12/20, vocab[(f/12)%len(vocab)])
		if f%12 == 0 {
			pages = append(pages, graph.Page{ID: graph.ModuleID(dir), Kind: graph.KindModule, Title: dir, Name: dir[strings.LastIndexByte(dir, '/')+1:], Path: dir, Doc: word() + " " + word()})
		}
		mod := uint32(len(pages) - 1 - (f%12)*0)
		path := fmt.Sprintf("%s/%s_%d.go", dir, word(), f)
		if f%9 == 0 {
			path = fmt.Sprintf("%s/%s_%d_test.go", dir, word(), f)
		}
		fi := uint32(len(pages))
		pages = append(pages, graph.Page{ID: graph.FileID(path), Kind: graph.KindFile, Title: path, Name: path[strings.LastIndexByte(path, '/')+1:], Path: path, Lang: "go",
			Doc: "Package " + word() + " " + word() + " " + word(), Idents: []string{ident(), ident()}, Test: strings.HasSuffix(path, "_test.go")})
		edges = append(edges, graph.Edge{From: mod, To: fi, Type: graph.Contains})
		recv := ident()
		for s := range 14 {
			name := ident()
			qual := name
			if s%2 == 1 {
				qual = recv + "." + name
			}
			var doc strings.Builder
			doc.WriteString(name)
			for range 4 + r.IntN(12) {
				doc.WriteString(" " + word())
			}
			ids := make([]string, 0, 12)
			for range 3 + r.IntN(12) {
				ids = append(ids, ident())
			}
			si := uint32(len(pages))
			pages = append(pages, graph.Page{ID: graph.SymbolID(path, qual), Kind: graph.KindSymbol, Title: "func " + qual + "(ctx context.Context, " + word() + " string) error",
				Name: name, Qualified: qual, SymKind: "func", Path: path, Line: 10 + s*20, EndLine: 28 + s*20, Lang: "go", Doc: doc.String(), Idents: ids, Test: strings.HasSuffix(path, "_test.go")})
			edges = append(edges, graph.Edge{From: fi, To: si, Type: graph.Contains})
			syms = append(syms, si)
			for range 3 {
				if len(syms) > 1 {
					t := syms[int(zipf.Uint64())%len(syms)]
					if t != si {
						edges = append(edges, graph.Edge{From: si, To: t, Type: graph.References})
					}
				}
			}
		}
	}
	return graph.NewGraph(pages, edges)
}

// benchQueries is a fixed mixed set: prose, identifiers, paths, traces, components.
func benchQueries(g *graph.Graph) []string {
	r := rand.New(rand.NewPCG(3, 4))
	var qs []string
	for len(qs) < 60 {
		p := &g.Pages[r.IntN(len(g.Pages))]
		switch len(qs) % 6 {
		case 0:
			qs = append(qs, "how does "+strings.Join(strings.Fields(p.Doc)[:min(4, len(strings.Fields(p.Doc)))], " ")+" work")
		case 1:
			if p.Kind == graph.KindSymbol {
				qs = append(qs, "fix "+p.Qualified+" when it fails")
			}
		case 2:
			if p.Path != "" {
				qs = append(qs, "see "+p.Path+":42 for the bug")
			}
		case 3:
			if p.Kind == graph.KindSymbol {
				qs = append(qs, fmt.Sprintf("panic: boom\n\t%s.%s(0x1)\n\t/src/%s:%d +0x1d", "pkg", p.Name, p.Path, p.Line))
			}
		case 4:
			if p.Kind == graph.KindModule {
				qs = append(qs, p.Name+": "+p.Doc)
			}
		case 5:
			if len(p.Idents) > 1 {
				qs = append(qs, "`"+p.Idents[0]+"` and "+p.Idents[1]+" error handling in the "+strings.Fields(p.Title)[0])
			}
		}
	}
	return qs
}

var benchOnce struct {
	sync.Once
	g   *graph.Graph
	ix  *Index
	bin []byte
}

func benchIndex(b *testing.B) (*graph.Graph, *Index, []byte) {
	benchOnce.Do(func() {
		benchOnce.g = synthGraph(benchPages())
		benchOnce.ix = NewIndex(benchOnce.g)
		benchOnce.bin, _ = benchOnce.ix.MarshalBinary()
	})
	return benchOnce.g, benchOnce.ix, benchOnce.bin
}

// BenchmarkQuery runs the fixed query set and reports latency percentiles,
// allocations and tokens per answer.
func BenchmarkQuery(b *testing.B) {
	g, ix, _ := benchIndex(b)
	qs := benchQueries(g)
	ctx := context.Background()
	var lat []time.Duration
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		q := qs[i%len(qs)]
		i++
		t0 := time.Now()
		r, err := ix.Query(ctx, q, Options{})
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		tokens += r.UsedTokens
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(tokens)/float64(i), "tokens/query")
	b.ReportMetric(float64(len(g.Pages)), "pages")
}

// BenchmarkOpenAndFirstQuery is what a fresh process pays: decode the stored
// index and answer one question.
func BenchmarkOpenAndFirstQuery(b *testing.B) {
	g, _, bin := benchIndex(b)
	q := benchQueries(g)[0]
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix, err := UnmarshalIndex(bin)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Query(context.Background(), q, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(bin)), "index-bytes")
}

// BenchmarkUnmarshalIndex measures decoding alone.
func BenchmarkUnmarshalIndex(b *testing.B) {
	_, _, bin := benchIndex(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(bin)))
	for b.Loop() {
		if _, err := UnmarshalIndex(bin); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewIndex measures building the index.
func BenchmarkNewIndex(b *testing.B) {
	g, _, _ := benchIndex(b)
	for b.Loop() {
		NewIndex(g)
	}
}

// segmentedBench splits the benchmark graph into k segments, 2 % of its
// files replaced by copies in a newer segment when k > 1.
func segmentedBench(b *testing.B, k int) segmented {
	g, _, _ := benchIndex(b)
	up := 0.0
	if k > 1 {
		up = 0.02
	}
	return splitSegments(b, g, k, 1, up, 0)
}

// BenchmarkOpenSegments measures opening the benchmark graph as 1 and as
// 20 segments (the 20 with replaced files: their impacts are computed at
// query time).
func BenchmarkOpenSegments(b *testing.B) {
	for _, k := range []int{1, 20} {
		b.Run(fmt.Sprintf("segments=%d", k), func(b *testing.B) {
			sd := segmentedBench(b, k)
			size := 0
			for _, s := range sd.segs {
				size += len(s.Engine)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := OpenSegments(sd.segs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size), "engine-bytes")
			b.ReportMetric(float64(len(sd.segs)), "segments")
		})
	}
}

// BenchmarkQuerySegments opens the benchmark graph as 1 and as 20
// segments and answers the query set twice: cold (the first time each
// term's impacts are needed) and warm (cached), reporting both latencies.
func BenchmarkQuerySegments(b *testing.B) {
	g, _, _ := benchIndex(b)
	qs := benchQueries(g)
	ctx := context.Background()
	for _, k := range []int{1, 20} {
		b.Run(fmt.Sprintf("segments=%d", k), func(b *testing.B) {
			sd := segmentedBench(b, k)
			var lat [2][]time.Duration
			for b.Loop() {
				ix, err := OpenSegments(sd.segs)
				if err != nil {
					b.Fatal(err)
				}
				for pass := range 2 {
					for _, q := range qs {
						t0 := time.Now()
						if _, err := ix.Query(ctx, q, Options{}); err != nil {
							b.Fatal(err)
						}
						lat[pass] = append(lat[pass], time.Since(t0))
					}
				}
			}
			for pass, name := range []string{"cold", "warm"} {
				l := lat[pass]
				slices.Sort(l)
				b.ReportMetric(float64(l[len(l)/2].Nanoseconds()), name+"-p50-ns")
				b.ReportMetric(float64(l[len(l)*99/100].Nanoseconds()), name+"-p99-ns")
			}
		})
	}
}
