package engine

import (
	"errors"
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// BuildBlobs is graph.BuildOptions.Segment for the ranking index: it
// builds the ranking data of one segment's graph (ext: its links to other
// segments) and returns it as the "engine" blob, with the segment's name
// index beside it.
func BuildBlobs(g *graph.Graph, ext []graph.ExtLink) (map[string][]byte, error) {
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
	links := make([]ExtLink, len(ext))
	for i, x := range ext {
		links[i] = ExtLink{Page: x.Page, ID: x.ID}
	}
	b, err := BuildSegment(g, links)
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

// The ranking index compresses a frame per section at zstd's default
// level: moby's three took 2,230 KB so in 0.1 s of CPU, 2,235 KB as one
// frame at the better level in 0.8 s (2,265 KB as one frame at the
// default level). The name chunks, 10 % smaller at the better level for
// little more time, keep it.
func init() { graph.DefaultLevelBlob(indexBlob, indexCuts) }

// Blob names under which BuildBlobs stores the ranking and name indexes.
const (
	indexBlob    = "engine"
	namesBlob    = "names"
	namesDirBlob = namesBlob + ".dir" // the first name of each chunk (namesChunk)
)

// Load reads the ranking index of a generation: each segment's ranking
// data and page text, opened as one index over their live pages. A
// segment that an index open in this process shares with the generation
// (same stored segment, graph.SegmentView.Key) is not read again: the
// new index reuses its decoded data (OpenSegments). The error says what
// to do when the index has none or cannot read it.
func Load(snap *graph.Snapshot) (*Index, error) {
	ix, err := load(snap, true)
	if errors.Is(err, ErrStale) {
		ix, err = load(snap, false)
	}
	return ix, err
}

// load is Load, reusing open data when reuse is set.
func load(snap *graph.Snapshot, reuse bool) (*Index, error) {
	views := snap.SegmentViews()
	segs := make([]SegmentData, len(views))
	for i, v := range views {
		segs[i] = SegmentData{Dead: v.Dead, Key: v.Key(), DeadKey: v.DeadKey()}
		if reuse {
			segs[i].core = reusableCore(segs[i].Key, segs[i].DeadKey) // held from here on
		}
	}
	// The blobs of the segments not reused, read and decompressed on every
	// core: at 100k files they are 113 MB of zstd to decode, which took a
	// CLI query 0.36 s on one core.
	err := graph.OnCores(len(segs), func(i int) error {
		sd, v := &segs[i], views[i]
		if sd.core != nil {
			return nil
		}
		b, err := v.Blob(indexBlob)
		if err != nil {
			return fmt.Errorf("the index has no ranking data (%v); run 'wikitoolkit build --full'", err)
		}
		sd.Engine = b
		if sd.Text, err = v.Blob(graph.TextBlob); err != nil {
			return fmt.Errorf("read page text: %v; run 'wikitoolkit build --full'", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !reuse {
		for i := range segs {
			segs[i].Key = "" // decode every segment, and offer none for reuse
		}
	}
	ix, err := OpenSegments(segs)
	if errors.Is(err, ErrStale) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read ranking index: %w; run 'wikitoolkit build --full'", err)
	}
	return ix, nil
}

// LoadNames opens the name index of a generation, one per segment: their
// directories only; NameIndex.Lookup reads the chunks it needs.
func LoadNames(snap *graph.Snapshot) (*NameIndex, error) {
	views := snap.SegmentViews()
	segs := make([]NameSegment, 0, len(views))
	for _, v := range views {
		dir, err := v.Blob(namesDirBlob)
		if errors.Is(err, graph.ErrNotFound) {
			// No names (a segment of module pages only): BuildBlobs' empty
			// directory compresses to nothing and reads back as not
			// found. Every index has such segments; failing on them left
			// the hook's name lookup unused (it loaded the whole ranking
			// index instead: past its budget on moby, so no hits).
			dir, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		segs = append(segs, NameSegment{Dir: dir, Chunk: func(i int) ([]byte, error) { return v.Blob(namesChunk(i)) }, Dead: v.Dead})
	}
	return OpenNames(segs), nil
}
