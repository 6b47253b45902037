package graph

import (
	"encoding/binary"
	"maps"
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
// Layout (little-endian): "wkstat3\n", generation u64, manifest hash u64,
// then the stats as a segment's m/stats holds them (encodeStats: paths
// front-coded, the columns of numbers after them), compressed as one zstd
// frame at its fastest level, then xxhash64 of all that precedes it.
// Paths are sorted. Front-coding halved the table (moby: 283 → 130 KB;
// it is counted in the index's size), columns and zstd took it to 50 KB
// (100k files: 4.1 → 1.3 MB, 30 ms to compress once a full build is
// done, 7 ms to decompress); decoding lays the paths out in a few chunks,
// not a string each.

const (
	statTableName  = "stat-table"
	statTableMagic = "wkstat3\n"
)

// The delta: an edit changes the stats of a few files, and rewriting the
// table (100k entries: 2.6 MB encoded, 15–20 ms of CPU) cost as much as
// the rest of an edit given its paths. So an incremental build writes,
// beside the table of an older generation (the base), the stats that
// differ from it: stat-table.delta, naming its own generation and manifest
// hash and the base's, with the paths gone and the stats new or changed
// since the base. Each build's delta holds all the differences from the
// base, not from the generation before, so one delta file suffices; once
// it holds more than maxStatDelta entries (or a 64th of the table) the
// build writes a whole table instead and removes the delta. A reader
// takes the table when it names the generation, else the delta laid over
// the table when the delta names the generation and the table as its
// base; anything else is no table. A build killed between the writes
// leaves files that name other generations: the next build decodes the
// segments, as without a table.
//
// Delta layout (little-endian): "wkstatd2", generation u64, manifest
// hash u64, base generation u64, base manifest hash u64, the count and
// the paths gone (uvarint length, bytes), the stats new or changed
// (encodeStats), then xxhash64 of all that precedes it.
const (
	statDeltaName  = "stat-table.delta"
	statDeltaMagic = "wkstatd2"
	maxStatDelta   = 4096
)

// statBase is the stat table a snapshot's stats were read from: the
// generation and manifest hash it names and its stats (sorted), for the
// next build's delta (saveNextStatTable).
type statBase struct {
	gen   int
	key   uint64
	stats []FileStat
	// gone and changed are the delta the snapshot's stats were read with
	// (nil: the table named the snapshot's generation).
	gone    []string
	changed []FileStat
}

// statTableWrites counts the bytes of stat tables and deltas written
// (StatTableWrites).
var statTableWrites atomic.Int64

// StatTableWrites returns how many bytes of stat tables and deltas this
// process wrote; for tests.
func StatTableWrites() int64 { return statTableWrites.Load() }

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
// key from dir's stat table, or its delta laid over it, or ok false; base
// is the table read.
func loadStatTable(dir string, gen int, key uint64) (stats []FileStat, base *statBase, ok bool) {
	tgen, tkey, tstats, ok := readStatTable(dir)
	if !ok {
		return nil, nil, false
	}
	base = &statBase{gen: tgen, key: tkey, stats: tstats}
	if tgen == gen && tkey == key {
		return tstats, base, true
	}
	gone, changed, ok := readStatDelta(dir, gen, key, tgen, tkey)
	if !ok {
		return nil, nil, false
	}
	base.gone, base.changed = gone, changed
	return applyStatDelta(tstats, gone, changed), base, true
}

// readStatTable decodes dir's stat table: the generation and manifest
// hash it names, and its stats.
func readStatTable(dir string) (gen int, key uint64, stats []FileStat, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, statTableName))
	if err != nil || len(b) < len(statTableMagic)+16+8 || string(b[:len(statTableMagic)]) != statTableMagic {
		return 0, 0, nil, false
	}
	body := b[:len(b)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(b[len(b)-8:]) {
		return 0, 0, nil, false
	}
	h := body[len(statTableMagic):]
	statTableBytes.Add(int64(len(b)))
	raw, err := decompress(h[16:])
	if err != nil {
		return 0, 0, nil, false
	}
	stats, err = decodeStats(raw)
	if err != nil || !sortedStats(stats) {
		return 0, 0, nil, false // not sorted: not a table this package wrote
	}
	return int(binary.LittleEndian.Uint64(h)), binary.LittleEndian.Uint64(h[8:]), stats, true
}

func sortedStats(stats []FileStat) bool {
	for i := 1; i < len(stats); i++ {
		if stats[i].Path <= stats[i-1].Path {
			return false
		}
	}
	return true
}

// readStatDelta reads dir's delta when it names generation gen (manifest
// hash key) and the table of generation bgen (hash bkey) as its base.
func readStatDelta(dir string, gen int, key uint64, bgen int, bkey uint64) (gone []string, changed []FileStat, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, statDeltaName))
	if err != nil || len(b) < len(statDeltaMagic)+32+8 || string(b[:len(statDeltaMagic)]) != statDeltaMagic {
		return nil, nil, false
	}
	body := b[:len(b)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(b[len(b)-8:]) {
		return nil, nil, false
	}
	h := body[len(statDeltaMagic):]
	le := binary.LittleEndian
	if le.Uint64(h) != uint64(gen) || le.Uint64(h[8:]) != key || le.Uint64(h[16:]) != uint64(bgen) || le.Uint64(h[24:]) != bkey {
		return nil, nil, false
	}
	statTableBytes.Add(int64(len(b)))
	d := dec{b: h[32:]}
	n := d.count()
	gone = make([]string, 0, n)
	for range n {
		gone = append(gone, d.str())
	}
	if d.err != nil {
		return nil, nil, false
	}
	changed, err = decodeStats(d.b)
	if err != nil || !sortedStats(changed) || !slices.IsSorted(gone) {
		return nil, nil, false
	}
	return gone, changed, true
}

// applyStatDelta returns base (sorted) less the paths gone, with changed
// (sorted) replacing or joining its entries.
func applyStatDelta(base []FileStat, gone []string, changed []FileStat) []FileStat {
	out := make([]FileStat, 0, len(base)+len(changed))
	i, j := 0, 0
	for _, st := range base {
		for j < len(changed) && changed[j].Path < st.Path {
			out = append(out, changed[j])
			j++
		}
		if j < len(changed) && changed[j].Path == st.Path {
			out = append(out, changed[j])
			j++
			continue
		}
		for i < len(gone) && gone[i] < st.Path {
			i++
		}
		if i < len(gone) && gone[i] == st.Path {
			continue
		}
		out = append(out, st)
	}
	return append(out, changed[j:]...)
}

// statDelta returns what turns base into next (both sorted): the paths
// of base not in next, and the stats of next not in base as they are.
func statDelta(base, next []FileStat) (gone []string, changed []FileStat) {
	i := 0
	for _, st := range next {
		for i < len(base) && base[i].Path < st.Path {
			gone = append(gone, base[i].Path)
			i++
		}
		if i < len(base) && base[i].Path == st.Path {
			if base[i] != st {
				changed = append(changed, st)
			}
			i++
			continue
		}
		changed = append(changed, st)
	}
	for ; i < len(base); i++ {
		gone = append(gone, base[i].Path)
	}
	return gone, changed
}

// saveStatDelta writes the delta from the table of base to stats (sorted)
// of generation gen with manifest hash key, or the whole table when the
// delta would be large.
func saveStatDelta(dir string, gen int, key uint64, base *statBase, stats []FileStat) {
	if base == nil {
		saveStatTable(dir, gen, key, stats)
		return
	}
	gone, changed := statDelta(base.stats, stats)
	if bigStatDelta(len(gone)+len(changed), len(stats)) {
		saveStatTable(dir, gen, key, stats)
		return
	}
	writeStatDelta(dir, gen, key, base, gone, changed)
}

// bigStatDelta reports whether a delta of n entries over a table of about
// files stats is to be a whole table instead.
func bigStatDelta(n, files int) bool { return n > maxStatDelta || n > files/64+64 }

// statDeltaNext returns the delta from base to the stats
// nextStats(old, gone, written, touched), where old are base with its
// delta laid over: base's delta changed at the paths gone, written and
// touched alone, which are all that can differ between old and the next
// stats. ok is false when that delta is big (bigStatDelta).
func statDeltaNext(base *statBase, old []FileStat, gone map[string]bool, written []FileStat, touched map[string]int64) (dgone []string, dchanged []FileStat, ok bool) {
	find := func(stats []FileStat, p string) (FileStat, bool) {
		i, found := slices.BinarySearchFunc(stats, p, func(s FileStat, p string) int { return strings.Compare(s.Path, p) })
		if !found {
			return FileStat{}, false
		}
		return stats[i], true
	}
	goneSet := make(map[string]bool, len(base.gone))
	for _, p := range base.gone {
		goneSet[p] = true
	}
	changedSet := make(map[string]FileStat, len(base.changed))
	for _, st := range base.changed {
		changedSet[st.Path] = st
	}
	byPath := make(map[string]FileStat, len(written))
	for _, st := range written {
		byPath[st.Path] = st
	}
	set := func(p string) {
		delete(goneSet, p)
		delete(changedSet, p)
		now, present := byPath[p]
		if !present && !gone[p] {
			now, present = find(old, p)
		}
		if present {
			if t, ok := touched[p]; ok {
				now.ModTime = t
			}
		}
		was, inBase := find(base.stats, p)
		switch {
		case !present && inBase:
			goneSet[p] = true
		case present && (!inBase || was != now):
			changedSet[p] = now
		}
	}
	for p := range gone {
		set(p)
	}
	for p := range byPath {
		set(p)
	}
	for p := range touched {
		set(p)
	}
	if bigStatDelta(len(goneSet)+len(changedSet), len(old)) {
		return nil, nil, false
	}
	dgone = slices.Sorted(maps.Keys(goneSet))
	dchanged = make([]FileStat, 0, len(changedSet))
	for _, st := range changedSet {
		dchanged = append(dchanged, st)
	}
	slices.SortFunc(dchanged, func(a, b FileStat) int { return strings.Compare(a.Path, b.Path) })
	return dgone, dchanged, true
}

// writeStatDelta writes the delta (gone, changed: sorted) from the table
// of base as the stat table of generation gen with manifest hash key.
func writeStatDelta(dir string, gen int, key uint64, base *statBase, gone []string, changed []FileStat) {
	e := enc{}
	e.b = append(e.b, statDeltaMagic...)
	e.b = binary.LittleEndian.AppendUint64(e.b, uint64(gen))
	e.b = binary.LittleEndian.AppendUint64(e.b, key)
	e.b = binary.LittleEndian.AppendUint64(e.b, uint64(base.gen))
	e.b = binary.LittleEndian.AppendUint64(e.b, base.key)
	e.uint(uint64(len(gone)))
	for _, p := range gone {
		e.str(p)
	}
	e.b = append(e.b, encodeStats(changed)...)
	e.b = binary.LittleEndian.AppendUint64(e.b, xxhash.Sum64(e.b))
	statTableWrites.Add(int64(len(e.b)))
	writeCacheFile(filepath.Join(dir, statDeltaName), e.b)
}

// saveStatTable writes stats (sorted by path) as the stat table of
// generation gen with manifest hash key. Best effort: without it the next
// build decodes the segments.
func saveStatTable(dir string, gen int, key uint64, stats []FileStat) {
	enc := smallEncoder().EncodeAll(encodeStats(stats), nil)
	b := make([]byte, 0, len(statTableMagic)+16+len(enc)+8)
	b = append(b, statTableMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(gen))
	b = binary.LittleEndian.AppendUint64(b, key)
	b = append(b, enc...)
	b = binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
	statTableWrites.Add(int64(len(b)))
	writeCacheFile(filepath.Join(dir, statTableName), b)
	os.Remove(filepath.Join(dir, statDeltaName)) // its base is gone
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
