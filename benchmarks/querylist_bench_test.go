package benchmarks

import (
	"bufio"
	"cmp"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// BenchmarkQueryList answers the questions of WIKITOOLKIT_BENCH_QUESTIONS
// (one a line, mcpbench.py's list for instance) in process over the index
// already built in WIKITOOLKIT_BENCH_INDEX (a .wikitoolkit directory, opened
// read-only: a 100k-file tree is not indexed again), each question once per
// round, and reports p50 and p99 over every answer. With -test.v it logs the
// slowest distinct questions by their median time, to find what to profile.
// Timing starts once the index settled (engine.Index.Settled).
func BenchmarkQueryList(b *testing.B) {
	dir, list := os.Getenv("WIKITOOLKIT_BENCH_INDEX"), os.Getenv("WIKITOOLKIT_BENCH_QUESTIONS")
	if dir == "" || list == "" {
		b.Skip("set WIKITOOLKIT_BENCH_INDEX (an index directory) and WIKITOOLKIT_BENCH_QUESTIONS (a file of questions)")
	}
	qs, err := readLines(list)
	if err != nil || len(qs) == 0 {
		b.Fatalf("questions %s: %v (%d read)", list, err, len(qs))
	}
	snap, err := graph.OpenSnapshot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer snap.Close()
	ix, err := engine.Load(snap)
	if err != nil {
		b.Fatal(err)
	}
	// The index's background work (neighbour lists, record compression)
	// would otherwise share the cores with the first questions, and a
	// profile would charge its preemptions and collections to them: wait
	// for it unless WIKITOOLKIT_BENCH_UNSETTLED is set (a fresh server's
	// first questions).
	if os.Getenv("WIKITOOLKIT_BENCH_UNSETTLED") == "" {
		<-ix.Settled()
		b.ResetTimer()
	}
	ctx := context.Background()
	per := map[string][]time.Duration{}
	var all []time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := i % len(qs)
		t := time.Now()
		if _, err := ix.Query(ctx, qs[k], engine.Options{}); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t)
		per[qs[k]] = append(per[qs[k]], d)
		all = append(all, d)
	}
	b.ReportMetric(float64(pct(all, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(all, 0.99).Microseconds())/1000, "p99-ms")
	type slow struct {
		q     string
		d, lo time.Duration
		n     int
	}
	var ss []slow
	for q, ds := range per {
		ss = append(ss, slow{q, pct(ds, 0.5), slices.Min(ds), len(ds)})
	}
	slices.SortFunc(ss, func(x, y slow) int { return cmp.Or(int(y.d-x.d), strings.Compare(x.q, y.q)) })
	for _, s := range ss[:min(len(ss), 100)] {
		b.Logf("%8.2f ms (least %.2f of %d)  %q", float64(s.d.Microseconds())/1000, float64(s.lo.Microseconds())/1000, s.n, s.q)
	}
}

// readLines returns the non-blank lines of the file at p.
func readLines(p string) ([]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}
