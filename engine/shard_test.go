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
		b, err := NewIndex(graph.NewGraph(append([]graph.Page(nil), pages...), append([]graph.Edge(nil), edges...))).MarshalBinary()
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

// TestHitShardsClean: no group crosses a cut between hit shards, whatever
// the order of files and their symbols.
func TestHitShardsClean(t *testing.T) {
	// Pages 0..99; page i is folded into group[i] when group[i] != i.
	group := make([]uint32, 100)
	for i := range group {
		group[i] = uint32(i)
	}
	for i := 11; i < 20; i++ {
		group[i] = 10 // a file and its symbols after it
	}
	for i := 40; i < 45; i++ {
		group[i] = 60 // symbols before their file, across the middle
	}
	group[99] = 30 // a last symbol of an early file
	folded := func(i int) bool { return group[i] != uint32(i) }
	for k := 1; k <= 9; k++ {
		shards := hitShards(group, folded, k)
		next := 0
		for _, sh := range shards {
			if sh.lo != next || sh.hi <= sh.lo {
				t.Fatalf("k=%d: shards %+v do not tile the pages", k, shards)
			}
			next = sh.hi
			for i := sh.lo; i < sh.hi; i++ {
				if g := int(group[i]); g < sh.lo || g >= sh.hi {
					t.Errorf("k=%d: page %d in [%d,%d) is grouped at %d", k, i, sh.lo, sh.hi, g)
				}
			}
		}
		if next != len(group) {
			t.Fatalf("k=%d: shards end at %d", k, next)
		}
	}
	group[99] = 99
	if shards := hitShards(group, folded, 2); len(shards) != 2 {
		t.Errorf("a clean cut exists, got %d shards", len(shards))
	}
}

// TestMergeTermsCapped: under the cap, merging the shards' dictionaries
// through shard 0's map gives mergeTerms' dictionary and IDs.
func TestMergeTermsCapped(t *testing.T) {
	words := []string{"a", "b", "ab", "ba", "parse", "config", "=parse", "/engine", "_get", "z", "int32", ""}
	for k := 1; k <= 4; k++ {
		var shards [][]shardTerm
		var dict map[string]uint32
		total := 0
		for w := range k {
			var terms []string
			d := map[string]uint32{}
			for i, x := range words {
				if (i+w)%(w+2) != 0 {
					d[x] = uint32(len(terms))
					terms = append(terms, x)
				}
			}
			if w == 0 {
				dict = d
			}
			total += len(terms)
			shards = append(shards, sortShardTerms(terms))
		}
		wantTerms, wantRemaps := mergeTerms(shards, total)
		gotTerms, gotRemaps := mergeTermsCapped(shards, dict)
		if fmt.Sprint(gotTerms, gotRemaps) != fmt.Sprint(wantTerms, wantRemaps) {
			t.Fatalf("%d shards: capped merge %q %v, merge %q %v", k, gotTerms, gotRemaps, wantTerms, wantRemaps)
		}
	}
}
