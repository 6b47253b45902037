// Package graphtest holds the test helpers that build and open an index:
// the tests of engine, engine/wiki, mcp and above share them. The helpers
// that import no package of the project (trees, fixtures, git, golden
// files) are in graph/walk/walktest; graph's own tests cannot import this
// package (it imports graph) and use walktest with Build and OpenSnapshot.
package graphtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// Build runs graph.Build with opt and fails the test on an error. To build
// the ranking index too, set opt.Segment to engine.BuildBlobs and
// opt.BlobsFormat to engine.Format.
func Build(t testing.TB, opt graph.BuildOptions) *graph.BuildInfo {
	t.Helper()
	info, err := graph.Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// Open opens the live generation of the index in indexDir and closes it
// when the test ends.
func Open(t testing.TB, indexDir string) *graph.Snapshot {
	t.Helper()
	s, err := graph.OpenSnapshot(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// BuildFixture copies fixtures/name into a temporary directory, builds it
// with opt (its Root set to the copy; an empty IndexDir is the copy's
// .wikitoolkit) and opens the result.
func BuildFixture(t testing.TB, name string, opt graph.BuildOptions) (*graph.Snapshot, *graph.BuildInfo) {
	t.Helper()
	opt.Root = walktest.CopyFixture(t, name)
	dir := opt.IndexDir
	if dir == "" {
		dir = filepath.Join(opt.Root, graph.IndexDirName)
	}
	info := Build(t, opt)
	return Open(t, dir), info
}

// Manifest is the part of a generation's MANIFEST tests read: its
// segments, each with its kind and tombstones.
type Manifest struct {
	Segments []struct {
		ID   int      `json:"id"`
		Kind string   `json:"kind"`
		Dead []string `json:"dead"`
	} `json:"segments"`
}

// LiveManifest reads the manifest of the generation CURRENT names in
// the index directory indexDir.
func LiveManifest(t testing.TB, indexDir string) Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(indexDir, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("CURRENT holds %q", b)
	}
	b, err = os.ReadFile(filepath.Join(indexDir, "gen", fmt.Sprintf("%06d", n), "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("MANIFEST of generation %d: %v", n, err)
	}
	return m
}

// LiveSegments returns the segment numbers the live manifest names.
func LiveSegments(t testing.TB, indexDir string) []int {
	t.Helper()
	var out []int
	for _, sg := range LiveManifest(t, indexDir).Segments {
		out = append(out, sg.ID)
	}
	return out
}

// FileSegments counts the manifest's file segments.
func (m Manifest) FileSegments() int { return m.segments("files") }

// ModuleSegments counts the modules segments (shards) the manifest names.
func (m Manifest) ModuleSegments() int { return m.segments("modules") }

func (m Manifest) segments(kind string) int {
	n := 0
	for _, sg := range m.Segments {
		if sg.Kind == kind {
			n++
		}
	}
	return n
}

// DeadIn returns the ID of the segment whose tombstones name path, or 0.
func (m Manifest) DeadIn(path string) int {
	for _, sg := range m.Segments {
		if slices.Contains(sg.Dead, path) {
			return sg.ID
		}
	}
	return 0
}

// CheckViews compares, for every page of the index snap opens, the page
// views (Snapshot.Neighbourhood, PagesOf) with the whole graph: the same
// record, the same page. It returns the first difference, "" when none.
func CheckViews(t *testing.T, snap *graph.Snapshot) string {
	t.Helper()
	g, err := snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Pages {
		id := g.Pages[i].ID
		ng, err := snap.Neighbourhood([]string{id})
		if err != nil {
			return fmt.Sprintf("Neighbourhood(%s): %v", id, err)
		}
		j, ok := ng.Lookup(id)
		if !ok {
			return fmt.Sprintf("Neighbourhood(%s) lacks the page", id)
		}
		want, got := g.Record(uint32(i)), ng.Record(j)
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("record of %s:\n  view  %+v\n  graph %+v", id, got, want)
		}
		ps, err := snap.PagesOf([]string{id})
		if err != nil {
			return fmt.Sprintf("PagesOf(%s): %v", id, err)
		}
		if p := ps[id]; p == nil || !reflect.DeepEqual(*p, g.Pages[i]) {
			return fmt.Sprintf("PagesOf(%s) = %+v, graph %+v", id, p, g.Pages[i])
		}
	}
	// Page references: paths, PATH#NAME, PATH:LINE, names as typed,
	// qualified, in another case, mistyped.
	refs := []string{"_", "x", "no/such.go", "no/such.go#X", "no/such.go:3", "Nonsense", ".", "..", "../x"}
	for i := range g.Pages {
		p := &g.Pages[i]
		switch p.Kind {
		case graph.KindModule:
			refs = append(refs, p.Path, p.Path+"/")
		case graph.KindFile:
			refs = append(refs, p.Path, p.Name, p.Path+":1", p.Path+":7", p.Path+":1000", p.Path+"#nope")
		case graph.KindSymbol, graph.KindDoc:
			refs = append(refs, p.Name, p.Qualified, strings.ToUpper(p.Name), strings.ToLower(p.Qualified), p.Path+"#"+p.Qualified,
				p.Path+"#"+p.Name, fmt.Sprintf("%s:%d", p.Path, p.Line), strings.ReplaceAll(p.Qualified, ".", "::"), p.Qualified+"()")
			if len(p.Name) > 3 {
				refs = append(refs, p.Name[:len(p.Name)-1], p.Name[1:]+"x")
			}
			if d := path.Base(path.Dir(p.Path)); d != "." {
				refs = append(refs, d+"."+p.Name)
			}
		}
	}
	slices.Sort(refs)
	refs = slices.Compact(refs)
	for _, ref := range refs {
		for _, base := range []string{"", "src"} {
			want, werr := g.ResolveRef(ref, base)
			got, gerr := snap.ResolveRef(ref, base)
			if want != got || fmt.Sprint(werr) != fmt.Sprint(gerr) {
				return fmt.Sprintf("ResolveRef(%q, %q): view %q, %v; graph %q, %v", ref, base, got, gerr, want, werr)
			}
		}
	}
	// Near IDs (a missing page's hint): the IDs starting with a prefix.
	prefixes := []string{"module:", "file:", "symbol:", "doc:", "module:.", "file:no/", "symbol:no/such.go#"}
	for i := range g.Pages {
		id := g.Pages[i].ID
		if j := strings.IndexByte(id, '#'); j >= 0 {
			prefixes = append(prefixes, id[:j+1], id[:j])
		}
		if j := strings.LastIndexByte(id, '/'); j >= 0 {
			prefixes = append(prefixes, id[:j+1])
		}
		prefixes = append(prefixes, id[:min(len(id), 9)])
	}
	slices.Sort(prefixes)
	for _, pre := range slices.Compact(prefixes) {
		var want []string
		for i := range g.Pages {
			if strings.HasPrefix(g.Pages[i].ID, pre) {
				want = append(want, g.Pages[i].ID)
			}
		}
		slices.Sort(want)
		want = want[:min(len(want), 5)]
		if got := snap.PageIDs(pre, 5); !slices.Equal(got, want) {
			return fmt.Sprintf("PageIDs(%q): view %q, graph %q", pre, got, want)
		}
	}
	if d := checkFileCounts(snap, g); d != "" {
		return d
	}
	for _, id := range []string{"file:no/such.go", "symbol:no/such.go#X", "module:no/such", "nonsense"} {
		ng, err := snap.Neighbourhood([]string{id})
		if err != nil {
			return fmt.Sprintf("Neighbourhood(%s): %v", id, err)
		}
		if _, ok := ng.Lookup(id); ok {
			return fmt.Sprintf("Neighbourhood(%s) holds a page of no index", id)
		}
	}
	return ""
}

// FileCounts returns what Snapshot.FileCounts and ModulePaths answer,
// counted over the whole graph g: each file's symbols and references from
// other files, and the module directories, sorted.
func FileCounts(g *graph.Graph) (map[string]graph.FileCount, []string) {
	want := map[string]graph.FileCount{}
	var mods []string
	for i := range g.Pages {
		switch p := &g.Pages[i]; p.Kind {
		case graph.KindModule:
			mods = append(mods, p.Path)
		case graph.KindFile:
			want[p.Path] = want[p.Path]
		case graph.KindSymbol:
			fc := want[p.Path]
			fc.Symbols++
			want[p.Path] = fc
		}
	}
	for _, e := range g.Edges() {
		to, from := &g.Pages[e.To], &g.Pages[e.From]
		if e.Type == graph.References && to.Path != from.Path && to.Kind != graph.KindModule {
			fc := want[to.Path]
			fc.RefsIn++
			want[to.Path] = fc
		}
	}
	slices.Sort(mods)
	return want, mods
}

// checkFileCounts compares Snapshot.FileCounts and ModulePaths with the
// whole graph g.
func checkFileCounts(snap *graph.Snapshot, g *graph.Graph) string {
	want, mods := FileCounts(g)
	refs := 0
	for _, fc := range want {
		refs += fc.RefsIn
	}
	if refs == 0 {
		return "checkFileCounts: the graph has no reference between files: the check proves nothing"
	}
	got, err := snap.FileCounts()
	if err != nil {
		return fmt.Sprintf("FileCounts: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		for p, w := range want {
			if got[p] != w {
				return fmt.Sprintf("FileCounts[%s] = %+v, graph %+v", p, got[p], w)
			}
		}
		return fmt.Sprintf("FileCounts: %d files, graph %d", len(got), len(want))
	}
	if got, err := snap.ModulePaths(); err != nil || !slices.Equal(got, mods) {
		return fmt.Sprintf("ModulePaths = %q, %v; graph %q", got, err, mods)
	}
	return ""
}
