package wiki

import (
	"context"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// TestFullBuildWeighsSegments: a full build of several batches weighs
// every segment under the statistics of them all, so that the index reads
// every segment's stored impacts and recomputes none.
func TestFullBuildWeighsSegments(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "40")
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "40")
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: 300, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Build(ctx, BuildOptions{Root: root}); err != nil {
		t.Fatal(err)
	}
	check := func(when string, want int) {
		t.Helper()
		snap := graphtest.Open(t, root+"/"+graph.IndexDirName)
		ix, err := engine.Load(snap)
		if err != nil {
			t.Fatal(err)
		}
		stored, segs := ix.StoredImpacts()
		if segs < 5 {
			t.Fatalf("%s: %d segments: the test needs several batches", when, segs)
		}
		if stored < segs-want {
			t.Fatalf("%s: %d of %d segments read their stored impacts; want all but %d", when, stored, segs, want)
		}
		snap.Close()
	}
	check("after the full build", 0)
}
