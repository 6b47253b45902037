package engine

import (
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestRecordsDerive checks that the records, which store only what cannot
// be derived, give back every page's ID, title, path, name, qualified name,
// snippet and line, and that IDs compared as parts order like the IDs, on
// the hand-made graph and on the polyglot fixture (12 languages, Markdown).
func TestRecordsDerive(t *testing.T) {
	snap := polyglotSnapshot(t)
	poly, err := snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	odd := graph.NewGraph([]graph.Page{ // pages whose fields differ from the defaults
		{ID: "file:a.go", Kind: graph.KindFile, Title: "custom title", Name: "other", Path: "a.go"},
		{ID: "symbol:a.go#X", Kind: graph.KindSymbol, Title: "X", Name: "Y", Qualified: "X", Path: "b.go", Line: 3},
		{ID: "memory:retries", Kind: graph.KindMemory, Title: "Retries", Name: "retries", Qualified: "config", Doc: "Retries live in x.\nmore"},
		{ID: "doc:a.go#weird", Kind: graph.KindDoc, Title: "Weird", Name: "Weird", Qualified: "other", Path: "a.go"},
	}, nil)
	for _, g := range []*graph.Graph{testGraph(t), poly, odd} {
		ix := NewIndex(g)
		for i := range g.Pages {
			p := &g.Pages[i]
			r := ix.record(uint32(i))
			r.title, r.snippet, r.marks, r.idBuilt = r.titleCopy(), r.snippetCopy(), 0, false
			want := record{id: p.ID, title: p.Title, path: p.Path, name: p.Name, qual: p.Qualified, snippet: firstLine(p.Doc, snippetMaxBytes), line: max(0, p.Line)}
			if r != want {
				t.Errorf("page %d:\n got %+v\nwant %+v", i, r, want)
			}
			wantName := p.Qualified
			if wantName == "" {
				wantName = p.Name
			}
			if name, line := ix.symbolName(uint32(i)); name != wantName || line != max(0, p.Line) {
				t.Errorf("symbolName(%d) = %q, %d; want %q, %d", i, name, line, wantName, max(0, p.Line))
			}
			if got := ix.path(uint32(i)); got != p.Path {
				t.Errorf("path(%d) = %q, want %q", i, got, p.Path)
			}
			for j := range g.Pages {
				got := compareParts(ix.idParts(uint32(i)), ix.idParts(uint32(j)))
				if want := strings.Compare(p.ID, g.Pages[j].ID); sign(got) != want {
					t.Errorf("compare %s, %s = %d, want %d", p.ID, g.Pages[j].ID, got, want)
				}
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
