package graph_test

import (
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// TestNeighbourhoodEqualsGraph builds the fixtures in small segments and
// module shards, so that most edges cross segments and shards, and holds
// every page's view to the whole graph's.
func TestNeighbourhoodEqualsGraph(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	was := graph.ModuleShardPages
	graph.ModuleShardPages = 2
	t.Cleanup(func() { graph.ModuleShardPages = was })
	for _, fx := range []string{"polyglot", "languages", "resolution", "symbols", "ranking"} {
		t.Run(fx, func(t *testing.T) {
			snap, _ := graphtest.BuildFixture(t, fx, graph.BuildOptions{})
			m := graphtest.LiveManifest(t, snap.Dir)
			if m.FileSegments() < 3 || (fx != "symbols" && m.ModuleSegments() < 2) {
				t.Fatalf("%d file segments, %d modules segments: want several of each", m.FileSegments(), m.ModuleSegments())
			}
			if d := graphtest.CheckViews(t, snap); d != "" {
				t.Fatal(d)
			}
		})
	}
}
