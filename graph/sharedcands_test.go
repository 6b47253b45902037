package graph

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestSharedCandsEqualOwn: a full build in batches whose resolvers share
// the world's candidate sets (every name shared, every set indexed, so
// that sets and their indexes are extended as later batches add
// definitions, and read by two resolvers at once in the last batch and
// pass 2) gives the graph of a build whose resolvers build their own: the
// same pages and edges (with their uses and confidences), on a synthetic tree of three languages whose
// names are defined in many files.
func TestSharedCandsEqualOwn(t *testing.T) {
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: 200, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	writeCommonNames(t, root, 30)
	oldShared, oldIndex := sharedDefsMin, candIndexMin
	t.Cleanup(func() { sharedDefsMin, candIndexMin = oldShared, oldIndex })
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "40")
	graphOf := func(shared int32) ([]string, []string) {
		sharedDefsMin = shared
		s, _ := buildOpen(t, BuildOptions{Root: root, Full: true})
		pages, _ := graphLines(t, s)
		g, err := s.Graph()
		if err != nil {
			t.Fatal(err)
		}
		var edges []string // with their use and confidence
		for _, e := range g.Edges() {
			edges = append(edges, fmt.Sprintf("%s -%s %d-> %s", g.Pages[e.From].ID, e.Type, e.Attr, g.Pages[e.To].ID))
		}
		slices.Sort(edges)
		return pages, edges
	}
	for _, indexMin := range []int{2, 1 << 30} {
		candIndexMin = indexMin
		wantPages, wantEdges := graphOf(1 << 30)
		ext := sharedExtended.Load()
		pages, edges := graphOf(2)
		if sharedExtended.Load() == ext {
			t.Fatalf("candIndexMin %d: no shared set was extended by a later batch", indexMin)
		}
		if !slices.Equal(pages, wantPages) {
			t.Fatalf("candIndexMin %d: pages differ with shared sets", indexMin)
		}
		if !slices.Equal(edges, wantEdges) {
			var diff []string
			for _, e := range edges {
				if _, found := slices.BinarySearch(wantEdges, e); !found {
					diff = append(diff, "+"+e)
				}
			}
			for _, e := range wantEdges {
				if _, found := slices.BinarySearch(edges, e); !found {
					diff = append(diff, "-"+e)
				}
			}
			t.Fatalf("candIndexMin %d: %d edges with shared sets, %d without; first differences: %v", indexMin, len(edges), len(wantEdges), diff[:min(len(diff), 10)])
		}
		t.Logf("candIndexMin %d: %d pages, %d edges the same", indexMin, len(pages), len(edges))
	}
}

// writeCommonNames writes, in n directories of each of Go, Python and
// TypeScript, the same names defined again and referenced the ways
// resolution narrows them: from another file of the directory, through an
// import of the directory before, through a module's name, a qualifier,
// an imported name.
func writeCommonNames(t *testing.T, root string, n int) {
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	for i := range n {
		g := fmt.Sprintf("cg%03d", i)
		walktest.WriteFile(t, root, g+"/store.go", "package "+g+"\n\ntype Store struct{ n int }\n\nfunc New() *Store { return &Store{} }\n\nfunc (s *Store) Get() int { return s.n }\n\nfunc (s *Store) Close() error { return nil }\n")
		walktest.WriteFile(t, root, g+"/helper.go", "package "+g+"\n\nfunc helper() int { return 1 }\n\nfunc Close() {}\n")
		use := "package " + g + "\n\n"
		if i > 0 {
			use += fmt.Sprintf("import prev \"example.com/m/cg%03d\"\n\nfunc Chain() int { return prev.New().Get() + prev.Store{}.Get() }\n\n", i-1)
		}
		use += "func Use() int {\n\ts := New()\n\tdefer s.Close()\n\tClose()\n\treturn s.Get() + helper()\n}\n"
		walktest.WriteFile(t, root, g+"/use.go", use)
		p := fmt.Sprintf("cp%03d", i)
		walktest.WriteFile(t, root, p+"/__init__.py", "")
		walktest.WriteFile(t, root, p+"/util.py", "def get(x):\n    return x\n\n\ndef close():\n    pass\n\n\nclass Store:\n    def get(self):\n        return helper()\n\n    def close(self):\n        pass\n\n\ndef helper():\n    return 1\n")
		walktest.WriteFile(t, root, p+"/main.py", "from . import util\nfrom .util import Store, helper\n\n\ndef run():\n    util.get(1)\n    util.close()\n    Store().get()\n    Store.close(None)\n    return helper()\n")
		walktest.WriteFile(t, root, p+"/other.py", "def run2():\n    return get(2) + helper() + util.helper()\n\n\ndef get(y):\n    return y\n")
		ts := fmt.Sprintf("ct%03d", i)
		walktest.WriteFile(t, root, ts+"/store.ts", "export class Store {\n  get(): number { return 1; }\n  close(): void {}\n}\n\nexport function helper(): number { return 2; }\n")
		walktest.WriteFile(t, root, ts+"/main.ts", "import { Store, helper } from './store';\nimport * as store from './store';\n\nexport function run(): number {\n  const s = new Store();\n  s.close();\n  return s.get() + helper() + store.helper();\n}\n")
	}
}
