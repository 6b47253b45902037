package graph

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBuildGraph resolves the file records of the index at
// WIKITOOLKIT_RESOLVE_INDEX (a .wikitoolkit directory, e.g. moby's) into a
// graph: the "resolve" phase of a full build, alone.
func BenchmarkBuildGraph(b *testing.B) {
	dir := os.Getenv("WIKITOOLKIT_RESOLVE_INDEX")
	if dir == "" {
		b.Skip("set WIKITOOLKIT_RESOLVE_INDEX to an index directory (ROOT/.wikitoolkit)")
	}
	s, err := OpenSnapshot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g, err := s.Graph()
	if err != nil {
		b.Fatal(err)
	}
	var recs []*FileRecord
	if err := s.EachFileRecord(g, func(r *FileRecord) error { recs = append(recs, r); return nil }); err != nil {
		b.Fatal(err)
	}
	goModule := goModulePath(filepath.Dir(dir))
	b.ReportMetric(float64(len(recs)), "files")
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		g = buildGraph(recs, goModule)
	}
	// CPU time, both cores and the collector included: steadier than wall
	// time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(g.Pages)), "pages")
	b.ReportMetric(float64(len(g.Edges())), "edges")
}
