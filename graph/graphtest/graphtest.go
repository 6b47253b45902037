// Package graphtest holds the test helpers that build and open an index:
// the tests of engine, engine/wiki, mcp and above share them. The helpers
// that import no package of the project (trees, fixtures, git, golden
// files) are in graph/walk/walktest; graph's own tests cannot import this
// package (it imports graph) and use walktest with Build and OpenSnapshot.
package graphtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// Manifest is the part of a generation's MANIFEST tests read: its
// segments, each with its kind and tombstones.
type Manifest struct {
	Segments []struct {
		ID   int      `json:"id"`
		Kind string   `json:"kind"`
		Dead []string `json:"dead"`
	} `json:"segments"`
}

// LiveManifest reads the manifest of the generation CURRENT names in
// the index directory indexDir.
func LiveManifest(t testing.TB, indexDir string) Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(indexDir, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("CURRENT holds %q", b)
	}
	b, err = os.ReadFile(filepath.Join(indexDir, "gen", fmt.Sprintf("%06d", n), "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("MANIFEST of generation %d: %v", n, err)
	}
	return m
}

// LiveSegments returns the segment numbers the live manifest names.
func LiveSegments(t testing.TB, indexDir string) []int {
	t.Helper()
	var out []int
	for _, sg := range LiveManifest(t, indexDir).Segments {
		out = append(out, sg.ID)
	}
	return out
}

// FileSegments counts the manifest's file segments.
func (m Manifest) FileSegments() int { return m.segments("files") }

// ModuleSegments counts the modules segments (shards) the manifest names.
func (m Manifest) ModuleSegments() int { return m.segments("modules") }

func (m Manifest) segments(kind string) int {
	n := 0
	for _, sg := range m.Segments {
		if sg.Kind == kind {
			n++
		}
	}
	return n
}

// DeadIn returns the ID of the segment whose tombstones name path, or 0.
func (m Manifest) DeadIn(path string) int {
	for _, sg := range m.Segments {
		if slices.Contains(sg.Dead, path) {
			return sg.ID
		}
	}
	return 0
}
