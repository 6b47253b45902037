package graph_test

import (
	"path/filepath"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestNeighbourhoodEqualsGraph builds the fixtures in small segments and
// module shards, so that most edges cross segments and shards, and holds
// every page's view to the whole graph's.
func TestNeighbourhoodEqualsGraph(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	was := graph.ModuleShardPages
	graph.ModuleShardPages = 2
	t.Cleanup(func() { graph.ModuleShardPages = was })
	// Paths holding "#", "%", "?" and spaces: a symbol's ID cut at its
	// first "#" names no file.
	odd := t.TempDir()
	walktest.WriteTree(t, odd, map[string]string{
		"docs/odd name %#?.md": "# Odd name\n\nSee `Helper` in a#b.\n\n## Second\n\nMore.\n",
		"a#b/x#y.go":           "package ab\n\n// Helper helps.\nfunc Helper() int { return Other() }\n\n// Other is other.\nfunc Other() int { return 1 }\n",
		"a#b/z.go":             "package ab\n\nfunc Z() int { return Helper() }\n",
		"c/w.go":               "package c\n\nfunc W() {}\n",
		"c/v.go":               "package c\n\nfunc V() { W() }\n",
	})
	for _, fx := range []string{"odd", "polyglot", "languages", "resolution", "symbols", "ranking"} {
		t.Run(fx, func(t *testing.T) {
			var snap *graph.Snapshot
			if fx == "odd" {
				graphtest.Build(t, graph.BuildOptions{Root: odd})
				snap = graphtest.Open(t, filepath.Join(odd, graph.IndexDirName))
			} else {
				snap, _ = graphtest.BuildFixture(t, fx, graph.BuildOptions{})
			}
			m := graphtest.LiveManifest(t, snap.Dir)
			if m.FileSegments() < 2 || (fx != "symbols" && m.ModuleSegments() < 2) {
				t.Fatalf("%d file segments, %d modules segments: want several of each", m.FileSegments(), m.ModuleSegments())
			}
			if d := graphtest.CheckViews(t, snap); d != "" {
				t.Fatal(d)
			}
		})
	}
}
