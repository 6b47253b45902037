package engine

import (
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// BuildBlobs is graph.BuildOptions.Extra for the ranking index: it builds
// the index of a finished graph, warm-started from the previous
// generation's index when there is one, and returns it as the "engine" blob.
func BuildBlobs(g *graph.Graph, prev *graph.Snapshot) (map[string][]byte, error) {
	var prevIx *Index
	if prev != nil {
		if b, err := prev.Blob("engine"); err == nil {
			prevIx, _ = UnmarshalIndex(b) // an unreadable old index only costs a cold start
		}
	}
	b, err := NewIndex(g, prevIx).MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode ranking index: %w", err)
	}
	return map[string][]byte{"engine": b, "names": buildNames(g)}, nil
}

// Format names the stored form of the ranking index; graph.Build rebuilds
// an index written in another form instead of reusing it.
var Format = fmt.Sprintf("engine%d+names1", indexVersion)
