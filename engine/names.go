package engine

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk"

	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// The name index is a small companion of the ranking index for callers
// that must answer within a few milliseconds of starting, such as the
// Claude hook: a Grep for an identifier is answered by the pages that
// define it. It is a text table, one line per definition or file:
// "name \t page ID \t line", sorted by lower-cased name (then page ID and
// line). When the page ID holds the name, the table leaves it out — "name \t
// ID before it \t *line" when the ID ends with it, else "name \t ID before
// it \t ID after it \t *line": names are the table's least compressible
// part, and zstd cannot match a name against its lower-cased sort key
// (moby: 0.47 → 0.38 MB). It is stored in chunks of about
// namesChunkBytes, each compressed on its own, with a directory of each
// chunk's first lower-cased name ("names.dir"), so a lookup reads one or
// two chunks: whole, a 50k-file monorepo's table is 52 MB of text that
// took 140 ms to decompress and split, where the hook has 30 ms. Moby's
// table is 2.2 MB, the ranking index 5.8 MB.

// maxNameHits bounds the definitions returned for one name.
const maxNameHits = 8

func buildNames(g *graph.Graph) []byte {
	type entry struct{ key, line string }
	entries := make([]entry, 0, len(g.Pages))
	for i := range g.Pages {
		p := &g.Pages[i]
		var name string
		switch p.Kind {
		case graph.KindSymbol:
			name = p.Name
		case graph.KindFile:
			name = strings.TrimSuffix(p.Name, "."+lastExt(p.Name))
		default:
			continue
		}
		if name == "" || strings.ContainsAny(name, "\t\n") || strings.ContainsAny(p.ID, "\t\n") {
			continue
		}
		line := strconv.Itoa(p.Line)
		key := strings.ToLower(name) + "\t" + p.ID + "\t" + line
		switch j := strings.LastIndex(p.ID, name); {
		case j < 0:
			entries = append(entries, entry{key, name + "\t" + p.ID + "\t" + line})
		case j+len(name) == len(p.ID):
			entries = append(entries, entry{key, name + "\t" + p.ID[:j] + "\t*" + line})
		default:
			entries = append(entries, entry{key, name + "\t" + p.ID[:j] + "\t" + p.ID[j+len(name):] + "\t*" + line})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	size := 0
	for _, e := range entries {
		size += len(e.line) + 1
	}
	b := make([]byte, 0, size)
	for i, e := range entries {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, e.line...)
	}
	return b
}

// lineKey is the lower-cased name of a table line.
func lineKey(line []byte) string {
	name, _, _ := bytes.Cut(line, []byte{'\t'})
	return strings.ToLower(string(name))
}

func lastExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return ""
}

// NameHit is one definition found by LookupNames.
type NameHit struct {
	ID   string
	Line int
}

// namesChunkBytes is the size of one stored chunk of the name table.
const namesChunkBytes = 128 << 10

// chunkNames splits a name table at line ends into chunks of about size
// bytes and returns them with the directory of their first names.
func chunkNames(table []byte, size int) (dir []byte, chunks [][]byte) {
	for len(table) > 0 {
		n := min(len(table), size)
		if i := bytes.IndexByte(table[n:], '\n'); i >= 0 {
			n += i
		} else {
			n = len(table)
		}
		c := table[:n]
		if len(chunks) > 0 {
			dir = append(dir, '\n')
		}
		dir = append(dir, lineKey(c)...)
		chunks = append(chunks, c)
		table = bytes.TrimPrefix(table[n:], []byte{'\n'})
	}
	return dir, chunks
}

// NameIndex is a generation's name index, read a chunk at a time: one
// table, or one per segment (OpenNames).
type NameIndex struct {
	first []string                    // each chunk's first name
	chunk func(i int) ([]byte, error) // reads chunk i
	segs  []nameSeg                   // when made of segments (first and chunk unused)
}

// nameSeg is one segment's name index and its dead group pages.
type nameSeg struct {
	x    *NameIndex
	dead func(id string) bool
}

// BuildNames returns the name index of g as BuildBlobs stores it: the
// directory (the "names.dir" blob) and the chunks ("names.0000", ...).
func BuildNames(g *graph.Graph) (dir []byte, chunks [][]byte) {
	return chunkNames(buildNames(g), namesChunkBytes)
}

// NameSegment is one segment's name index given to OpenNames: its
// directory and a reader of its chunks, as BuildNames made them, and its
// dead group pages (as SegmentData.Dead; nil: none).
type NameSegment struct {
	Dir   []byte
	Chunk func(i int) ([]byte, error)
	Dead  func(id string) bool
}

// OpenNames opens the name indexes of segments as one: Lookup answers as
// the name index of their live pages built in one go would.
func OpenNames(segs []NameSegment) *NameIndex {
	x := &NameIndex{segs: make([]nameSeg, len(segs))}
	for i, s := range segs {
		sx := &NameIndex{chunk: s.Chunk}
		if len(s.Dir) > 0 {
			sx.first = strings.Split(string(s.Dir), "\n")
		}
		x.segs[i] = nameSeg{sx, s.Dead}
	}
	return x
}

// Lookup is LookupNames over the chunks that can hold names.
func (x *NameIndex) Lookup(names []string, limit int) []NameHit {
	if x.segs != nil {
		return x.lookupSegments(names, limit)
	}
	return LookupNames(x.table(names), names, limit)
}

// lookupSegments is Lookup over segments: each name's lines of every
// segment, those of dead pages left out, in table order.
func (x *NameIndex) lookupSegments(names []string, limit int) []NameHit {
	tables := make([][][]byte, len(x.segs))
	for i, s := range x.segs {
		if b := s.x.table(names); len(b) > 0 {
			tables[i] = bytes.Split(b, []byte{'\n'})
		}
	}
	var out, tests []NameHit
	for _, n := range names {
		k, ok := nameKey(n)
		if !ok {
			continue
		}
		var all []nameLine
		for i, s := range x.segs {
			for _, l := range nameLines(tables[i], k) {
				if s.dead != nil {
					if g, ok := groupID(l.hit.ID); ok && s.dead(g) {
						continue
					}
				}
				all = append(all, l)
			}
		}
		slices.SortStableFunc(all, func(a, b nameLine) int { return strings.Compare(a.key, b.key) })
		out, tests = splitTests(all[:min(len(all), maxNameHits)], out, tests)
	}
	return capHits(out, tests, limit)
}

// table reads the chunks that can hold names, in order.
func (x *NameIndex) table(names []string) []byte {
	var need []int
	for _, n := range names {
		key, ok := nameKey(n)
		if !ok {
			continue
		}
		// Lines of one name are contiguous: they start in the last chunk
		// whose first name sorts before the name, and may run on through
		// chunks that start with it.
		c := max(0, sort.Search(len(x.first), func(i int) bool { return x.first[i]+"\t" >= key })-1)
		for ; c < len(x.first) && x.first[c]+"\t" <= key; c++ {
			need = append(need, c)
		}
	}
	// Read in chunk order, so that the table stays sorted.
	slices.Sort(need)
	var table []byte
	for i, c := range slices.Compact(need) {
		b, err := x.chunk(c)
		if err != nil {
			return nil
		}
		if i > 0 {
			table = append(table, '\n')
		}
		table = append(table, b...)
	}
	return table
}

func namesChunk(i int) string { return fmt.Sprintf("%s.%04d", namesBlob, i) }

// nameKey is the table key of a looked-up name: lower-cased, the last part
// of "a.b", then a tab; false when too short to look up.
func nameKey(n string) (string, bool) {
	if i := strings.LastIndexAny(n, ".:"); i >= 0 {
		n = n[i+1:]
	}
	key := strings.ToLower(n) + "\t"
	return key, len(key) >= 4
}

// LookupNames returns the pages defining any of names (case-insensitive;
// for "a.b" the last part), test files last, at most max in all. b is a
// name table as buildNames writes it (or consecutive chunks of one).
func LookupNames(b []byte, names []string, max int) []NameHit {
	var lines [][]byte
	if len(b) > 0 {
		lines = bytes.Split(b, []byte{'\n'})
	}
	var out, tests []NameHit
	for _, n := range names {
		k, ok := nameKey(n)
		if !ok {
			continue
		}
		ls := nameLines(lines, k)
		out, tests = splitTests(ls[:min(len(ls), maxNameHits)], out, tests)
	}
	return capHits(out, tests, max)
}

// nameLine is one line of a name table: its sort key and its hit.
type nameLine struct {
	key string
	hit NameHit
}

// nameLines returns the lines of a sorted table whose name has the key k
// (nameKey), in order.
func nameLines(lines [][]byte, k string) []nameLine {
	var out []nameLine
	i := sort.Search(len(lines), func(i int) bool { return lineKey(lines[i])+"\t" >= k })
	for key := k[:len(k)-1]; i < len(lines) && lineKey(lines[i]) == key; i++ {
		f := bytes.Split(lines[i], []byte{'\t'})
		var id string
		switch {
		case len(f) == 3 && bytes.HasPrefix(f[2], []byte{'*'}):
			id = string(f[1]) + string(f[0])
		case len(f) == 3:
			id = string(f[1])
		case len(f) == 4 && bytes.HasPrefix(f[3], []byte{'*'}):
			id = string(f[1]) + string(f[0]) + string(f[2])
		default:
			continue
		}
		ln := string(bytes.TrimPrefix(f[len(f)-1], []byte{'*'}))
		line, _ := strconv.Atoi(ln)
		out = append(out, nameLine{key + "\t" + id + "\t" + ln, NameHit{ID: id, Line: line}})
	}
	return out
}

// splitTests appends the lines' hits to out, those in test files to tests.
func splitTests(ls []nameLine, out, tests []NameHit) ([]NameHit, []NameHit) {
	for _, l := range ls {
		if walk.IsTest(idPath(l.hit.ID)) {
			tests = append(tests, l.hit)
		} else {
			out = append(out, l.hit)
		}
	}
	return out, tests
}

// capHits is out then tests, at most max.
func capHits(out, tests []NameHit, max int) []NameHit {
	out = append(out, tests...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// idPath is the path inside a file or symbol ID.
func idPath(id string) string {
	_, rest, _ := strings.Cut(id, ":")
	p, _, _ := strings.Cut(rest, "#")
	return p
}
