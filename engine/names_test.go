package engine

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

func TestLookupNames(t *testing.T) {
	g := graph.NewGraph([]graph.Page{
		{ID: "file:a/stop.go", Kind: graph.KindFile, Name: "stop.go", Path: "a/stop.go", Line: 1},
		{ID: "symbol:a/stop.go#Daemon.ContainerStop", Kind: graph.KindSymbol, Name: "ContainerStop", Path: "a/stop.go", Line: 25},
		{ID: "symbol:a/stop_test.go#ContainerStop", Kind: graph.KindSymbol, Name: "ContainerStop", Path: "a/stop_test.go", Line: 3},
		{ID: "symbol:b/x.go#ContainerStart", Kind: graph.KindSymbol, Name: "ContainerStart", Path: "b/x.go", Line: 9},
	}, nil)
	b := buildNames(g)
	hits := LookupNames(b, []string{"containerstop"}, 5)
	if len(hits) != 2 || hits[0].ID != "symbol:a/stop.go#Daemon.ContainerStop" || hits[0].Line != 25 || hits[1].ID != "symbol:a/stop_test.go#ContainerStop" {
		t.Fatalf("hits = %+v (test files must come last)", hits)
	}
	if hits := LookupNames(b, []string{"Daemon.ContainerStart"}, 5); len(hits) != 1 || hits[0].ID != "symbol:b/x.go#ContainerStart" {
		t.Fatalf("qualified lookup = %+v", hits)
	}
	if hits := LookupNames(b, []string{"stop"}, 5); len(hits) != 1 || hits[0].ID != "file:a/stop.go" {
		t.Fatalf("file stem lookup = %+v", hits)
	}
	if hits := LookupNames(nil, []string{"x"}, 5); len(hits) != 0 {
		t.Fatal("empty blob found something")
	}
	if hits := LookupNames([]byte("garbage\twithout\n\t\t\n"), []string{"garbage"}, 5); len(hits) != 0 {
		t.Fatalf("garbage = %+v", hits)
	}
}

// TestNameIndexChunks: looking names up chunk by chunk finds what the whole
// table finds, also for names whose lines run across chunk boundaries, for
// several names at once in any order, and for names past either end.
func TestNameIndexChunks(t *testing.T) {
	g := synthGraph(3000)
	table := buildNames(g)
	var queries [][]string
	for i := 0; i < len(g.Pages); i += 7 {
		p := &g.Pages[i]
		queries = append(queries, []string{p.Name}, []string{strings.ToUpper(p.Name), g.Pages[len(g.Pages)-1-i].Name})
	}
	queries = append(queries, []string{"aaaa"}, []string{"zzzzzz"}, []string{"x.zzzz", "aaa.aaab"})
	for _, size := range []int{1, 200, 4096, namesChunkBytes} {
		dir, chunks := chunkNames(table, size)
		if got := bytes.Join(chunks, []byte{'\n'}); !bytes.Equal(got, table) {
			t.Fatalf("size %d: chunks do not rejoin into the table", size)
		}
		reads := 0
		x := &NameIndex{first: strings.Split(string(dir), "\n"), chunk: func(i int) ([]byte, error) { reads++; return chunks[i], nil }}
		for _, q := range queries {
			if want, got := LookupNames(table, q, 20), x.Lookup(q, 20); !reflect.DeepEqual(want, got) {
				t.Fatalf("size %d, %q:\n got %v\nwant %v", size, q, got, want)
			}
		}
		if size == namesChunkBytes && len(chunks) > 1 && reads > 3*len(queries) {
			t.Errorf("%d chunk reads for %d lookups", reads, len(queries))
		}
	}
}
