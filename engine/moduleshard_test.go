package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestModuleShardNeighbours builds one tree twice, its module pages in
// one modules segment and cut into shards of two pages
// (graph.ModuleShardPages), and wants every group page to have the same
// neighbours: a directory's contains edge to a subdirectory in another
// shard is an external link of its shard's ranking data.
func TestModuleShardNeighbours(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	neighbours := func(limit int) (map[string][]string, int) {
		was := graph.ModuleShardPages
		graph.ModuleShardPages = limit
		defer func() { graph.ModuleShardPages = was }()
		dir := filepath.Join(t.TempDir(), "index")
		opt := graph.BuildOptions{Root: root, IndexDir: dir, Full: true, Segment: BuildBlobs, Weigh: Weighed}
		if _, err := graph.Build(context.Background(), opt); err != nil {
			t.Fatal(err)
		}
		snap := graphtest.Open(t, dir)
		defer snap.Close()
		ix, err := Load(snap)
		if err != nil {
			t.Fatal(err)
		}
		name := func(p uint32) string { return fmt.Sprintf("%s:%s", graph.Kind(ix.kind[p]), ix.path(p)) }
		out := map[string][]string{}
		for p := range uint32(ix.n) {
			if ix.group[p] != p || ix.isDead(p) {
				continue
			}
			var ns []string
			for _, q := range ix.neighbours(p) {
				ns = append(ns, name(q))
			}
			slices.Sort(ns)
			out[name(p)] = ns
		}
		return out, snap.Segments()
	}
	one, segsOne := neighbours(1 << 30)
	many, segsMany := neighbours(2)
	if segsMany < segsOne+8 {
		t.Fatalf("%d segments with shards of two module pages, %d with one modules segment: the tree was not cut", segsMany, segsOne)
	}
	links := 0
	for id, ns := range one {
		if !slices.Equal(many[id], ns) {
			t.Errorf("%s: neighbours %q in one modules segment, %q in shards", id, ns, many[id])
		}
		links += len(ns)
	}
	if len(many) != len(one) || links == 0 {
		t.Errorf("%d group pages in shards, %d in one segment (%d neighbour links)", len(many), len(one), links)
	}
}
