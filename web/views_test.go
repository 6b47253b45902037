package web

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestPagesFromViewsEqualWholeGraph renders every page, every graph
// picture and every result line of an index in many segments and module
// shards from page views (what the server reads) and from the whole graph
// (what an export reads), and wants the same HTML; and the home page's
// counts from one pass over the pieces equal to those of the whole graph.
// Then again after edits, when replaced copies of files lie in older
// segments.
func TestPagesFromViewsEqualWholeGraph(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	was := graph.ModuleShardPages
	graph.ModuleShardPages = 2
	t.Cleanup(func() { graph.ModuleShardPages = was })
	root := fixtureRoot(t)
	// A Markdown file whose links name sections, files and folders of
	// other segments, and a symbol named from far away.
	walktest.WriteFile(t, root, "zz/guide.md", "# Guide\n\nSee [the ledger](../"+longFile+"), [odd](../"+strings.ReplaceAll(oddFile, " ", "%20")+
		"#odd-name), [the go folder](../go), [nothing](../no/such.go) and [up](../../x).\n\n## Next\n\nMore [here](#next).\n")
	// Paths holding "#": a symbol's ID cut at its first "#" names no file.
	walktest.WriteFile(t, root, "sharp#dir/x#y.go", "package sharp\n\n// Helper helps.\nfunc Helper() int { return Other() }\n\n// Other is other.\nfunc Other() int { return 1 }\n")
	walktest.WriteFile(t, root, "sharp#dir/z.go", "package sharp\n\nfunc Z() int { return Helper() + Other() }\n\nfunc Z2() int { return Helper() }\n")
	build(t, root)
	index := filepath.Join(root, ".wikitoolkit")
	if m := graphtest.LiveManifest(t, index); m.FileSegments() < 3 || m.ModuleSegments() < 2 {
		t.Fatalf("%d file segments, %d modules segments: want several of each", m.FileSegments(), m.ModuleSegments())
	}
	compareViews(t, root)

	walktest.WriteFile(t, root, longFile, "package inventory\n\n// Ledger keeps entries.\ntype Ledger struct{ entries []int }\n\nfunc (l *Ledger) Entry1() int { return 1 }\n")
	walktest.WriteFile(t, root, "zz/more.go", "package zz\n\nimport \"fmt\"\n\n// More uses the ledger.\nfunc More() { fmt.Println(Ledger{}) }\n")
	build(t, root)
	dead := 0
	for _, sg := range graphtest.LiveManifest(t, index).Segments {
		dead += len(sg.Dead)
	}
	if dead == 0 {
		t.Fatal("no tombstone after the edits: the test proves nothing about replaced copies")
	}
	compareViews(t, root)
}

func compareViews(t *testing.T, root string) {
	t.Helper()
	srv := newServer(t, root)
	g, release, err := srv.Live().Acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	a, _ := srv.Live().Annotations()
	whole, err := g.Snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	pl := wiki.PlaceAnnotations(g.Snap, a)
	docs := 0
	for i := range whole.Pages {
		id := whole.Pages[i].ID
		want, err := srv.buildPage(g, a, id, 1, serverLinks, whole)
		if err != nil {
			t.Fatalf("%s from the whole graph: %v", id, err)
		}
		got, err := srv.buildPage(g, a, id, 1, serverLinks, nil)
		if err != nil {
			t.Fatalf("%s from its neighbourhood: %v", id, err)
		}
		var wb, gb bytes.Buffer
		if err := render(&wb, "page", want); err != nil {
			t.Fatal(err)
		}
		if err := render(&gb, "page", got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb.Bytes(), gb.Bytes()) {
			t.Fatalf("page %s differs:\n%s", id, firstDiff(gb.String(), wb.String()))
		}
		if want.Markdown != "" {
			docs++
		}
		ng, err := pageGraph(g.Snap, id)
		if err != nil {
			t.Fatal(err)
		}
		if w, gp := drawGraph(whole, pl, id, serverLinks, true), drawGraph(ng, pl, id, serverLinks, true); w != gp {
			t.Fatalf("graph picture of %s differs:\n%s", id, firstDiff(string(gp), string(w)))
		}
		rg, err := g.Snap.Neighbourhood(nil, id)
		if err != nil {
			t.Fatal(err)
		}
		if w, d := describe(whole, pl, id, serverLinks), describe(rg, pl, id, serverLinks); !reflect.DeepEqual(w, d) {
			t.Fatalf("result line of %s: %+v, whole graph %+v", id, d, w)
		}
	}
	if docs == 0 {
		t.Fatal("no page rendered Markdown")
	}
	st, err := computeStats(g.Snap)
	if err != nil {
		t.Fatal(err)
	}
	if want := wholeStats(whole); !reflect.DeepEqual(st, want) {
		t.Fatalf("home stats from the pieces:\n  %+v\nfrom the whole graph:\n  %+v", st, want)
	}
	if len(st.topFiles) == 0 || !slices.Contains(st.topFiles, "sharp#dir/x#y.go") {
		t.Fatalf("top files %q: want sharp#dir/x#y.go among them (references to symbols of a path holding #)", st.topFiles)
	}
}

// wholeStats is computeStats over the whole graph, as the home page
// counted before page views (graphtest.CheckViews holds FileCounts to the
// graph file by file).
func wholeStats(g *graph.Graph) *repoStats {
	counts, mods := graphtest.FileCounts(g)
	return statsOf(mods, counts)
}

// firstDiff shows where got and want part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-200)
	return "view:  …" + got[lo:min(len(got), i+200)] + "\nwhole: …" + want[lo:min(len(want), i+200)]
}
