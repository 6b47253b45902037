package engine

import (
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
