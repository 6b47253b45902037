package graph

import (
	"testing"
)

// BenchmarkEncodeRuns resolves, lays out and encodes the file records of
// the index at WIKITOOLKIT_RESOLVE_INDEX (a .wikitoolkit directory, e.g.
// moby's) run by run, as a full build's encodeLast does, short of
// committing the segments: graph's share of a build's tail, alone.
func BenchmarkEncodeRuns(b *testing.B) {
	recs, goModule := resolveIndexRecords(b)
	w := NewMemWorld(recs, goModule)
	runs := cutRecords(recs)
	out := b.TempDir()
	b.ReportMetric(float64(len(recs)), "files")
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		for i, run := range runs {
			resolved := resolveHalves(run, w)
			pcs := make([]*segPiece, len(resolved))
			for j := range resolved {
				pcs[j] = &segPiece{Piece: resolved[j], rec: run[j]}
			}
			sums := summaries(pcs)
			fs, err := prepareFileSegment(i+1, pcs)
			if err != nil {
				b.Fatal(err)
			}
			fs.sums = sums
			sw, _, err := fs.encode(out, false, goModule)
			if err != nil {
				b.Fatal(err)
			}
			sw.abort()
		}
	}
	// CPU time, both cores and the collector included: steadier than wall
	// time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkEncodeText is EncodeText of a saved index's whole graph.
func BenchmarkEncodeText(b *testing.B) {
	recs, goModule := resolveIndexRecords(b)
	g := buildGraph(recs, goModule)
	group := Groups(g)
	b.ReportMetric(float64(len(g.Pages)), "pages")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		EncodeText(g, group)
	}
}

// BenchmarkReadPiecesOf reads one file's stored piece and record from the
// largest file segment of the index at WIKITOOLKIT_RESOLVE_INDEX, as the
// first edit of a file since a full build does (reuseEdges): the
// segment's blobs decoded for one file. Each read opens the segment anew,
// as a build's process does.
func BenchmarkReadPiecesOf(b *testing.B) {
	dir := resolveIndexDir(b)
	cur, err := CurrentGeneration(dir)
	if err != nil {
		b.Fatal(err)
	}
	m, err := readManifest(dir, cur)
	if err != nil {
		b.Fatal(err)
	}
	var id, files int
	var path string
	for _, ms := range m.Segments {
		if ms.Kind != segFiles {
			continue
		}
		sg, err := openSegment(dir, ms.ID, nil)
		if err != nil {
			b.Fatal(err)
		}
		stats, err := sg.stats()
		sg.close()
		if err != nil {
			b.Fatal(err)
		}
		if len(stats) > files {
			id, files, path = ms.ID, len(stats), stats[len(stats)/2].Path
		}
	}
	if files == 0 {
		b.Skip("no file segment")
	}
	b.ReportMetric(float64(files), "files")
	b.ReportAllocs()
	for b.Loop() {
		sg, err := openSegment(dir, id, nil)
		if err != nil {
			b.Fatal(err)
		}
		pcs, err := sg.readPiecesOf([]string{path})
		sg.close()
		if err != nil || len(pcs) != 1 || pcs[0].rec == nil {
			b.Fatalf("%s: %d pieces, %v", path, len(pcs), err)
		}
	}
}
