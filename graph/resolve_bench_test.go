package graph

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resolveIndexRecords reads the file records of the index at
// WIKITOOLKIT_RESOLVE_INDEX (a .wikitoolkit directory, e.g. moby's) and
// the Go module of its tree, or skips tb when the variable is unset.
func resolveIndexRecords(tb testing.TB) ([]*FileRecord, string) {
	dir := resolveIndexDir(tb)
	s, err := OpenSnapshot(dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	return indexRecords(tb, s), goModulePath(filepath.Dir(dir))
}

// resolveIndexDir is WIKITOOLKIT_RESOLVE_INDEX, or skips tb when it is
// unset.
func resolveIndexDir(tb testing.TB) string {
	dir := os.Getenv("WIKITOOLKIT_RESOLVE_INDEX")
	if dir == "" {
		tb.Skip("set WIKITOOLKIT_RESOLVE_INDEX to an index directory (ROOT/.wikitoolkit)")
	}
	return dir
}

// BenchmarkBuildGraph resolves the file records of the index at
// WIKITOOLKIT_RESOLVE_INDEX (a .wikitoolkit directory, e.g. moby's) into a
// graph: the "resolve" phase of a full build, alone.
func BenchmarkBuildGraph(b *testing.B) {
	recs, goModule := resolveIndexRecords(b)
	b.ReportMetric(float64(len(recs)), "files")
	b.ResetTimer()
	cpu0 := cpuTime()
	var g *Graph
	for range b.N {
		g = buildGraph(recs, goModule)
	}
	// CPU time, both cores and the collector included: steadier than wall
	// time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(g.Pages)), "pages")
	b.ReportMetric(float64(len(g.Edges())), "edges")
}

// TestDependentsReport logs, for the index at WIKITOOLKIT_RESOLVE_INDEX,
// how many files typical edits of WIKITOOLKIT_DEPENDENTS_FILE (default
// daemon/daemon.go, moby's) make re-resolve: a body-only edit, a new
// function Close, a new method Daemon.Close. It measures; it asserts only
// that a body-only edit has none.
func TestDependentsReport(t *testing.T) {
	target := os.Getenv("WIKITOOLKIT_DEPENDENTS_FILE")
	if target == "" {
		target = "daemon/daemon.go"
	}
	recs, gm := resolveIndexRecords(t)
	var old *FileRecord
	for _, r := range recs {
		if r.Path == target {
			old = r
		}
	}
	if old == nil || old.Facts == nil {
		t.Fatalf("no parsed %s in the index", target)
	}
	was := NewMemWorld(recs, gm)
	ri := newReverseIndex(recs, gm)
	before := ResolvePieces(recs, was)
	for _, edit := range []struct {
		what string
		def  *parser.Def
	}{
		{"body-only edit", nil},
		{"add func Close", &parser.Def{Kind: parser.KindFunc, Name: "Close", Qualified: "Close", Parent: -1, StartLine: 9000, EndLine: 9001}},
		{"add method Daemon.Close", &parser.Def{Kind: parser.KindMethod, Name: "Close", Qualified: "Daemon.Close", Parent: -1, StartLine: 9000, EndLine: 9001}},
		{"add func NewDaemon (exists)", &parser.Def{Kind: parser.KindFunc, Name: "NewDaemon", Qualified: "NewDaemon~x", Parent: -1, StartLine: 9000, EndLine: 9001}},
	} {
		nw := cloneRecord(old)
		nw.Hash++
		if edit.def != nil {
			nw.Facts.Defs = append(nw.Facts.Defs, *edit.def)
		}
		all := slices.Clone(recs)
		for i := range all {
			if all[i].Path == target {
				all[i] = nw
			}
		}
		t0 := time.Now()
		now := NewMemWorld(all, gm)
		worldTime := time.Since(t0)
		t0 = time.Now()
		c := Changes([]*FileRecord{old}, []*FileRecord{nw}, was, now)
		cand := map[string]bool{}
		for n := range c.Names {
			for _, p := range ri.byName[n] {
				cand[p] = p != target
			}
		}
		dep := map[string]bool{}
		for _, r := range all {
			if cand[r.Path] && c.Affects(r, now) {
				dep[r.Path] = true
			}
		}
		redo := []*FileRecord{nw}
		for _, r := range all {
			if dep[r.Path] {
				redo = append(redo, r)
			}
		}
		ResolvePieces(redo, now)
		incrTime := time.Since(t0)
		if edit.def == nil && len(dep) != 0 {
			t.Errorf("a body-only edit of %s has %d dependents", target, len(dep))
		}
		// Every other piece that moves must be a dependent's.
		moved := 0
		after := ResolvePieces(all, now)
		for i := range after {
			if p := after[i].Path; p != target && !reflect.DeepEqual(before[i], after[i]) {
				moved++
				if !dep[p] {
					t.Errorf("%s: the piece of %s changed, but it is not a dependent", edit.what, p)
				}
			}
		}
		t.Logf("%s of %s: names %v, %d files use them, %d dependents, %d pieces moved; in-memory world %v, changes+dependents+resolve %v",
			edit.what, target, ChangedNames([]*FileRecord{old}, []*FileRecord{nw}), len(cand), len(dep), moved, worldTime.Round(time.Millisecond), incrTime.Round(time.Microsecond))
	}
}

// TestIncrementalPiecesReal runs the random changes of
// TestIncrementalPiecesEqualFull on the index at WIKITOOLKIT_RESOLVE_INDEX
// (WIKITOOLKIT_RESOLVE_STEPS of them, default 25).
func TestIncrementalPiecesReal(t *testing.T) {
	dir := os.Getenv("WIKITOOLKIT_RESOLVE_INDEX")
	if dir == "" {
		t.Skip("set WIKITOOLKIT_RESOLVE_INDEX to an index directory (ROOT/.wikitoolkit)")
	}
	n := 25
	if v, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_RESOLVE_STEPS")); err == nil {
		n = v
	}
	s, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs := indexRecords(t, s)
	st := checkIncremental(t, dir, recs, goModulePath(filepath.Dir(dir)), n, 1)
	t.Logf("%d files: %d changes, %d dependents re-resolved (at most %d for one change), %d of them needed; %d changes moved other files' pieces",
		len(recs), st.steps, st.deps, st.maxDeps, st.needed, st.naiveWrong)
}

// indexRecords returns every file record of a snapshot.
func indexRecords(tb testing.TB, s *Snapshot) []*FileRecord {
	tb.Helper()
	var recs []*FileRecord
	if err := s.EachFileRecord(func(r *FileRecord) error { recs = append(recs, r); return nil }); err != nil {
		tb.Fatal(err)
	}
	return recs
}
