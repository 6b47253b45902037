// Package graphtest holds the test helpers that build and open an index:
// the tests of engine, engine/wiki, mcp and above share them. The helpers
// that import no package of the project (trees, fixtures, git, golden
// files) are in graph/walk/walktest; graph's own tests cannot import this
// package (it imports graph) and use walktest with Build and OpenSnapshot.
package graphtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// Build runs graph.Build with opt and fails the test on an error. To build
// the ranking index too, set opt.Segment to engine.BuildBlobs and
// opt.BlobsFormat to engine.Format.
func Build(t testing.TB, opt graph.BuildOptions) *graph.BuildInfo {
	t.Helper()
	info, err := graph.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// Open opens the live generation of the index in indexDir and closes it
// when the test ends.
func Open(t testing.TB, indexDir string) *graph.Snapshot {
	t.Helper()
	s, err := graph.OpenSnapshot(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// BuildFixture copies fixtures/name into a temporary directory, builds it
// with opt (its Root set to the copy; an empty IndexDir is the copy's
// .wikitoolkit) and opens the result.
func BuildFixture(t testing.TB, name string, opt graph.BuildOptions) (*graph.Snapshot, *graph.BuildInfo) {
	t.Helper()
	opt.Root = walktest.CopyFixture(t, name)
	dir := opt.IndexDir
	if dir == "" {
		dir = filepath.Join(opt.Root, graph.IndexDirName)
	}
	info := Build(t, opt)
	return Open(t, dir), info
}
