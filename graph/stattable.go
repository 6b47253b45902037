package graph

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// The stat table: the stats of every live file of a generation (what
// Snapshot.Stats returns), in one flat file of the index folder, so that a
// build finds what it knows of the tree in one read instead of decoding
// the m/stats key of every segment, merging and sorting them (100 ms of
// CPU at 100k files, most of an edit's cost after the stats of the tree).
// Like the walk's sketch it is a cache: it names the generation and the
// hash of that generation's sealed MANIFEST, carries a checksum, and a
// reader that finds it missing, damaged or of another generation decodes
// the segments as before. It is written after the generation is live,
// without fsync, by the build that made the generation (from the table of
// the generation before and the files it wrote) or by the next build that
// found it missing.
//
// Layout (little-endian): "wkstat2\n", generation u64, manifest hash u64,
// then the stats as a segment's m/stats holds them (encodeStats: paths
// front-coded, numbers as varints), then xxhash64 of all that precedes
// it. Paths are sorted. Front-coding halves the table (moby: 283 → 130
// KB; it is counted in the index's size); decoding lays the paths out in
// a few chunks, not a string each.

const (
	statTableName  = "stat-table"
	statTableMagic = "wkstat2\n"
)

// statTableKey is what names generation s: its number and the hash of its
// manifest (a manifest records when its build started, so an index removed
// and built again never matches a table left behind).
func (s *Snapshot) statTableKey() uint64 {
	for _, sf := range s.genSeal {
		if sf.name == manifestName {
			return sf.hash
		}
	}
	return 0
}

// statTableBytes counts the bytes of stat tables read (StatTableBytes).
var statTableBytes atomic.Int64

// StatTableBytes returns how many bytes of stat tables this process read;
// for tests and diagnostics.
func StatTableBytes() int64 { return statTableBytes.Load() }

// loadStatTable returns the stats of generation gen with manifest hash
// key from dir's stat table, or ok false.
func loadStatTable(dir string, gen int, key uint64) (stats []FileStat, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, statTableName))
	if err != nil || len(b) < len(statTableMagic)+16+8 || string(b[:len(statTableMagic)]) != statTableMagic {
		return nil, false
	}
	body := b[:len(b)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(b[len(b)-8:]) {
		return nil, false
	}
	h := body[len(statTableMagic):]
	if binary.LittleEndian.Uint64(h) != uint64(gen) || binary.LittleEndian.Uint64(h[8:]) != key {
		return nil, false
	}
	statTableBytes.Add(int64(len(b)))
	stats, err = decodeStats(h[16:])
	if err != nil {
		return nil, false
	}
	for i := 1; i < len(stats); i++ {
		if stats[i].Path <= stats[i-1].Path {
			return nil, false // not sorted: not a table this package wrote
		}
	}
	return stats, true
}

// saveStatTable writes stats (sorted by path) as the stat table of
// generation gen with manifest hash key. Best effort: without it the next
// build decodes the segments.
func saveStatTable(dir string, gen int, key uint64, stats []FileStat) {
	enc := encodeStats(stats)
	b := make([]byte, 0, len(statTableMagic)+16+len(enc)+8)
	b = append(b, statTableMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(gen))
	b = binary.LittleEndian.AppendUint64(b, key)
	b = append(b, enc...)
	b = binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
	writeCacheFile(filepath.Join(dir, statTableName), b)
}

// nextStats returns the stats of the generation an incremental build
// writes: those of the generation before (old, sorted) less the files
// whose stored copies no longer count (gone) and those of the new
// segments (written, any order), plus the new segments' files, with the
// modification times of touched files (the manifest's Touched) laid over.
func nextStats(old []FileStat, gone map[string]bool, written []FileStat, touched map[string]int64) []FileStat {
	slices.SortFunc(written, func(a, b FileStat) int { return strings.Compare(a.Path, b.Path) })
	out := make([]FileStat, 0, len(old)+len(written))
	j := 0
	for _, st := range old {
		for j < len(written) && written[j].Path < st.Path {
			out = append(out, written[j])
			j++
		}
		if j < len(written) && written[j].Path == st.Path {
			continue // the new segment's copy replaces it
		}
		if !gone[st.Path] {
			out = append(out, st)
		}
	}
	out = append(out, written[j:]...)
	for i := range out {
		if t, ok := touched[out[i].Path]; ok {
			out[i].ModTime = t
		}
	}
	return out
}

// saveStatTableOf writes the stat table of generation gen from its
// segments: what a full build leaves, so that the first build after it
// reads one table.
func saveStatTableOf(dir string, gen int) {
	s, err := openGenerationLazy(dir, gen)
	if err != nil {
		return
	}
	defer s.Close()
	if err := s.openSegments(); err != nil {
		return
	}
	if stats, err := s.segmentStats(); err == nil {
		saveStatTable(dir, gen, s.statTableKey(), stats)
	}
}
