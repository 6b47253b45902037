package engine

import (
	"os"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// TestSizeReport logs the engine blob's size, raw and zstd-compressed as
// the store keeps it, for the polyglot fixture and a 300-file synthetic
// tree. Set WIKITOOLKIT_SIZE_REPORT=1 to run it.
func TestSizeReport(t *testing.T) {
	if os.Getenv("WIKITOOLKIT_SIZE_REPORT") == "" {
		t.Skip("set WIKITOOLKIT_SIZE_REPORT=1")
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1))
	report := func(name string, snap *graph.Snapshot) {
		b, err := snap.Blob(indexBlob)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: engine blob %d bytes, %d compressed", name, len(b), len(enc.EncodeAll(b, nil)))
	}
	report("polyglot", polyglotSnapshot(t))
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	graphtest.Build(t, graph.BuildOptions{Root: root, IndexDir: root + "/.wikitoolkit", Segment: BuildBlobs, BlobsFormat: Format})
	report("synth300", graphtest.Open(t, root+"/.wikitoolkit"))
}
