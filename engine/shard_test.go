package engine

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestTokenizeShardsIdentical: the index is byte-identical whatever the
// number of tokenizing shards, including symbols whose file page lies in
// another shard.
func TestTokenizeShardsIdentical(t *testing.T) {
	var pages []graph.Page
	var edges []graph.Edge
	for f := 0; f < 300; f++ {
		path := fmt.Sprintf("pkg%d/file%d.go", f%17, f)
		fi := uint32(len(pages))
		pages = append(pages, graph.Page{ID: graph.FileID(path), Kind: graph.KindFile, Name: fmt.Sprintf("file%d.go", f), Path: path,
			Doc: fmt.Sprintf("File %d handles retries and backoff %d", f, f%5), Idents: []string{"Retry", fmt.Sprintf("helper%d", f%9)}})
		for s := 0; s < 7; s++ {
			name := fmt.Sprintf("Do%dThing%d", s, f%11)
			pages = append(pages, graph.Page{ID: graph.SymbolID(path, name), Kind: graph.KindSymbol, Name: name, Qualified: name,
				SymKind: "func", Path: path, Line: s*10 + 1, Title: "func " + name + "(ctx context.Context) error",
				Doc: fmt.Sprintf("%s parses config number %d", name, s), Idents: []string{"parseConfig", fmt.Sprintf("v%d", s)}})
			edges = append(edges, graph.Edge{From: fi, To: uint32(len(pages) - 1), Type: graph.Contains})
		}
	}
	var want []byte
	for _, w := range []int{1, 2, 3, 7} {
		tokenizeWorkers = w
		b, err := NewIndex(graph.NewGraph(append([]graph.Page(nil), pages...), append([]graph.Edge(nil), edges...)), nil).MarshalBinary()
		tokenizeWorkers = 0
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Fatalf("%d shards give a different index than 1", w)
		}
	}
}
