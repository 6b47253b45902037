package engine

import (
	"bytes"
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
// "lower-cased name \t page ID \t line". Moby's is 0.3 MB compressed and
// decodes in about 2 ms, where the whole ranking index takes 25-35 ms.

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

// LookupNames returns the pages defining any of names (case-insensitive;
// for "a.b" the last part), test files last, at most max in all. b is a
// "names" blob as BuildBlobs stores it.
func LookupNames(b []byte, names []string, max int) []NameHit {
	var lines [][]byte
	if len(b) > 0 {
		lines = bytes.Split(b, []byte{'\n'})
	}
	var out, tests []NameHit
	for _, n := range names {
		if i := strings.LastIndexAny(n, ".:"); i >= 0 {
			n = n[i+1:]
		}
		key := []byte(strings.ToLower(n) + "\t")
		if len(key) < 4 {
			continue
		}
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
