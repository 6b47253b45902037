package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestIncrementalEqualsFullDefinitions adds and removes definitions in
// files that stay, and files that define names others use, on a tree cut in segments
// of 2 files, so that the changed and the referencing files lie in
// different segments: each build resolves the changed files and their
// dependents in part (graph's resolvePartial: the references of names no
// definition of which changed keep their stored edges), and must give
// what a full build gives, edge attributes included. An unchanged file
// must gain the edge to a definition added elsewhere (Python's unique
// name, Go's package-qualified name), lose it when a second definition
// makes the name ambiguous or the definition is removed, and an edited
// file's references must follow its own edits.
func TestIncrementalEqualsFullDefinitions(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "2")
	root := walktest.CopyFixture(t, "polyglot")
	clock := time.Now().Add(-time.Hour).Truncate(time.Second)
	write := func(rel, content string) {
		walktest.WriteFile(t, root, rel, content)
		clock = clock.Add(time.Second)
		touchAt(t, filepath.Join(root, filepath.FromSlash(rel)), clock)
	}
	const (
		aGo  = "go/inventory/partial_a.go"
		cGo  = "go/partialc/c.go"
		use  = "python/bookstore/app/use.py"
		zPy  = "python/bookstore/lib/z.py"
		mPy  = "python/bookstore/lib/m1.py"
		nPy  = "python/bookstore/other/n.py"
		aSrc = "package inventory\n\n// PartialHelper is a helper.\nfunc PartialHelper() int { return 1 }\n"
		zSrc = "def z_fn():\n    return 1\n"
		mSrc = "def m_fn():\n    return 2\n"
	)
	write(aGo, aSrc)
	write(cGo, "package partialc\n\nimport \"example.com/bookstore/go/inventory\"\n\n// UseA uses the inventory.\nfunc UseA() int {\n\treturn inventory.PartialLater() + inventory.PartialHelper()\n}\n")
	write(use, "def use():\n    return later_fn() + z_fn()\n")
	write(zPy, zSrc)
	write(mPy, mSrc)
	for i := range 4 {
		write(fmt.Sprintf("python/bookstore/lib/m%d_fill.py", i), fmt.Sprintf("def fill_%d():\n    return %d\n", i, i))
	}
	ctx := context.Background()
	if _, err := Build(ctx, BuildOptions{Root: root}); err != nil {
		t.Fatal(err)
	}
	useID := graph.SymbolID(use, "use")
	useA := graph.SymbolID(cGo, "UseA")
	steps := []struct {
		name         string
		files        map[string]string
		want, absent [][2]string // edges (from, to) the incremental index must have, or not
	}{
		{"define later_fn in z.py and PartialLater in partial_a.go",
			map[string]string{zPy: zSrc + "\n\ndef later_fn():\n    return 3\n", aGo: aSrc + "\n// PartialLater is added.\nfunc PartialLater() int { return 2 }\n"},
			[][2]string{{useID, graph.SymbolID(zPy, "later_fn")}, {useA, graph.SymbolID(aGo, "PartialLater")}}, nil},
		{"define later_fn again in m1.py: ambiguous",
			map[string]string{mPy: mSrc + "\n\ndef later_fn():\n    return 4\n"},
			[][2]string{{useID, graph.SymbolID(zPy, "z_fn")}}, [][2]string{{useID, graph.SymbolID(zPy, "later_fn")}, {useID, graph.SymbolID(mPy, "later_fn")}}},
		{"remove later_fn from m1.py and PartialLater from partial_a.go",
			map[string]string{mPy: mSrc, aGo: aSrc},
			[][2]string{{useID, graph.SymbolID(zPy, "later_fn")}, {useA, graph.SymbolID(aGo, "PartialHelper")}}, [][2]string{{useA, graph.SymbolID(aGo, "PartialLater")}}},
		{"edit use.py: a call moved to a new function, one dropped",
			map[string]string{use: "def use():\n    return z_fn()\n\n\ndef use_later():\n    return later_fn() + m_fn()\n"},
			[][2]string{{graph.SymbolID(use, "use_later"), graph.SymbolID(zPy, "later_fn")}, {graph.SymbolID(use, "use_later"), graph.SymbolID(mPy, "m_fn")}},
			[][2]string{{useID, graph.SymbolID(zPy, "later_fn")}}},
		{"remove m1.py (a path removed)",
			map[string]string{mPy: ""},
			[][2]string{{graph.SymbolID(use, "use_later"), graph.SymbolID(zPy, "later_fn")}}, [][2]string{{graph.SymbolID(use, "use_later"), graph.SymbolID(mPy, "m_fn")}}},
		{"add n.py defining m_fn (a path added)",
			map[string]string{nPy: mSrc},
			[][2]string{{graph.SymbolID(use, "use_later"), graph.SymbolID(nPy, "m_fn")}}, nil},
		{"remove later_fn from z.py, rename z_fn",
			map[string]string{zPy: "def z_fn2():\n    return 1\n"},
			nil, [][2]string{{graph.SymbolID(use, "use_later"), graph.SymbolID(zPy, "later_fn")}, {useID, graph.SymbolID(zPy, "z_fn")}}},
	}
	for _, st := range steps {
		var paths []string
		for rel, src := range st.files {
			if src == "" {
				if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					t.Fatal(err)
				}
			} else {
				write(rel, src)
			}
			paths = append(paths, rel)
		}
		slices.Sort(paths)
		partial := graph.PartialResolves()
		res, err := Build(ctx, BuildOptions{Root: root, Changed: paths})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if res.Mode == "full" {
			t.Fatalf("%s: the build was full", st.name)
		}
		if graph.PartialResolves() == partial {
			t.Errorf("%s: no file was resolved in part: the step does not test it", st.name)
		}
		fullDir := filepath.Join(t.TempDir(), "full")
		if _, err := Build(ctx, BuildOptions{Root: root, IndexDir: fullDir, Full: true}); err != nil {
			t.Fatal(err)
		}
		inc := graphtest.Open(t, filepath.Join(root, graph.IndexDirName))
		full := graphtest.Open(t, fullDir)
		if diff := compareIndexes(ctx, inc, full); diff != "" {
			t.Fatalf("%s: incremental and full builds differ:\n%s", st.name, diff)
		}
		gi, err := inc.Graph()
		if err != nil {
			t.Fatal(err)
		}
		gf, err := full.Graph()
		if err != nil {
			t.Fatal(err)
		}
		ei, ef := attrEdgeLines(gi), attrEdgeLines(gf)
		if d := firstDiff("edge with attributes", ei, ef); d != "" {
			t.Fatalf("%s: %s", st.name, d)
		}
		has := map[[2]string]bool{}
		for _, e := range gi.Edges() {
			if e.Type == graph.References {
				has[[2]string{gi.Pages[e.From].ID, gi.Pages[e.To].ID}] = true
			}
		}
		for _, e := range st.want {
			if !has[e] {
				t.Errorf("%s: no edge %s → %s", st.name, e[0], e[1])
			}
		}
		for _, e := range st.absent {
			if has[e] {
				t.Errorf("%s: edge %s → %s, want none", st.name, e[0], e[1])
			}
		}
		inc.Close()
		full.Close()
	}
}

// attrEdgeLines is edgeLines with each reference's attribute (use and
// confidence).
func attrEdgeLines(g *graph.Graph) []string {
	out := make([]string, 0, len(g.Edges()))
	for _, e := range g.Edges() {
		out = append(out, fmt.Sprintf("%s -%s/%d-> %s", g.Pages[e.From].ID, e.Type, e.Attr, g.Pages[e.To].ID))
	}
	slices.Sort(out)
	return out
}

// touchAt gives p modification time at.
func touchAt(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}
