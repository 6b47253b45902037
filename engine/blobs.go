package engine

import (
	"fmt"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// BuildBlobs is graph.BuildOptions.Blobs for the ranking index: it builds
// the index of a finished graph and returns it as the "engine" blob, with
// the name index beside it. It does not read the previous generation.
func BuildBlobs(g *graph.Graph, _ *graph.Snapshot) (map[string][]byte, error) {
	// The name table builds on another core meanwhile.
	type named struct {
		dir    []byte
		chunks [][]byte
	}
	names := make(chan named, 1)
	go func() {
		dir, chunks := BuildNames(g)
		names <- named{dir, chunks}
	}()
	b, err := BuildSegment(g, nil)
	nm := <-names
	if err != nil {
		return nil, fmt.Errorf("encode ranking index: %w", err)
	}
	dir, chunks := nm.dir, nm.chunks
	blobs := map[string][]byte{indexBlob: b, namesDirBlob: dir}
	for i, c := range chunks {
		blobs[namesChunk(i)] = c
	}
	return blobs, nil
}

// Format names the stored form of the ranking index; graph.Build rebuilds
// an index written in another form instead of reusing it.
var Format = fmt.Sprintf("engine%d+names3", indexVersion)

// Blob names under which BuildBlobs stores the ranking and name indexes.
const (
	indexBlob    = "engine"
	namesBlob    = "names"
	namesDirBlob = namesBlob + ".dir" // the first name of each chunk (namesChunk)
)

// Load reads the ranking index of a generation. The error says what to do
// when the index has none or cannot read it.
func Load(snap *graph.Snapshot) (*Index, error) {
	b, err := snap.Blob(indexBlob)
	if err != nil {
		return nil, fmt.Errorf("the index has no ranking data (%v); run 'wikitoolkit build --full'", err)
	}
	sd := SegmentData{Engine: b}
	if sd.Text, err = snap.Blob(graph.TextBlob); err != nil {
		sd.Text = nil // the engine blob may hold its records
	}
	ix, err := OpenSegments([]SegmentData{sd})
	if err != nil {
		return nil, fmt.Errorf("read ranking index: %w; run 'wikitoolkit build --full'", err)
	}
	return ix, nil
}

// LoadNames opens the name index of a generation: its directory only;
// NameIndex.Lookup reads the chunks it needs.
func LoadNames(snap *graph.Snapshot) (*NameIndex, error) {
	dir, err := snap.Blob(namesDirBlob)
	if err != nil {
		return nil, err
	}
	x := &NameIndex{chunk: func(i int) ([]byte, error) { return snap.Blob(namesChunk(i)) }}
	if len(dir) > 0 {
		x.first = strings.Split(string(dir), "\n")
	}
	return x, nil
}
