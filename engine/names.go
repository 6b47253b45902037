package engine

import (
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
// define it. It is a sorted text table, one line per definition or file:
// "lower-cased name \t page ID \t line". It is stored in chunks of about
// namesChunkBytes, each compressed on its own, with a directory of each
// chunk's first name ("names.dir"), so a lookup reads one or two chunks:
// whole, a 50k-file monorepo's table is 52 MB of text that took 140 ms to
// decompress and split, where the hook has 30 ms. Moby's table is 2.2 MB
// (0.45 MB compressed in chunks), the ranking index 5.8 MB.

// maxNameHits bounds the definitions returned for one name.
const maxNameHits = 8

func buildNames(g *graph.Graph) []byte {
	lines := make([]string, 0, len(g.Pages))
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
		lines = append(lines, strings.ToLower(name)+"\t"+p.ID+"\t"+strconv.Itoa(p.Line))
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n"))
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
		name, _, _ := bytes.Cut(c, []byte{'\t'})
		if len(chunks) > 0 {
			dir = append(dir, '\n')
		}
		dir = append(dir, name...)
		chunks = append(chunks, c)
		table = bytes.TrimPrefix(table[n:], []byte{'\n'})
	}
	return dir, chunks
}

// NameIndex is a generation's name index, read a chunk at a time.
type NameIndex struct {
	first []string                    // each chunk's first name
	chunk func(i int) ([]byte, error) // reads chunk i
}

// Lookup is LookupNames over the chunks that can hold names.
func (x *NameIndex) Lookup(names []string, limit int) []NameHit {
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
	return LookupNames(table, names, limit)
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
		key := []byte(k)
		i := sort.Search(len(lines), func(i int) bool { return bytes.Compare(lines[i], key) >= 0 })
		for k := 0; i < len(lines) && bytes.HasPrefix(lines[i], key) && k < maxNameHits; i, k = i+1, k+1 {
			f := bytes.Split(lines[i], []byte{'\t'})
			if len(f) != 3 {
				continue
			}
			line, _ := strconv.Atoi(string(f[2]))
			h := NameHit{ID: string(f[1]), Line: line}
			if isTestPath(idPath(h.ID)) {
				tests = append(tests, h)
			} else {
				out = append(out, h)
			}
		}
	}
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
