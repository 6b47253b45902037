package graph

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// TestMemWorldBytesPerDefinition guards the memory of the World a full
// build holds whole while it parses and resolves every batch: bytes per
// definition, whatever the tree's size (a 100k-file tree has 1.2 M). The
// records stay alive while it is measured: the world keeps copies, not
// them (a full build drops each batch's records once written).
func TestMemWorldBytesPerDefinition(t *testing.T) {
	const files, defsPer = 20000, 10
	recs := make([]*FileRecord, files)
	for i := range recs {
		p := fmt.Sprintf("services/svc%03d/pkg/sub%02d/file%05d.go", i%300, i%17, i)
		facts := &parser.Facts{}
		for j := range defsPer {
			name := fmt.Sprintf("Handle%d", i*defsPer+j) // most names unique
			if j < 3 {
				name = []string{"New", "String", "Close"}[j]
			}
			facts.Defs = append(facts.Defs, parser.Def{Kind: parser.KindFunc, Name: name,
				Qualified: "Server." + name, Parent: -1, StartLine: j + 1, EndLine: j + 1})
		}
		recs[i] = &FileRecord{Path: p, Lang: "go", Facts: facts}
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	w := newMemWorld("")
	half := len(recs) / 2
	w.addBatch(recs[:half]) // warm: the maps' first growth
	recs = recs[half:]
	before := heap()
	w.addBatch(recs)
	n := len(recs) * defsPer
	after := heap()
	runtime.KeepAlive(recs)
	if got := w.Defs("New"); len(got) != files || got[0].Qualified != "Server.New" || got[0].Path == "" {
		t.Fatalf("Defs(New): %d definitions, first %+v; want %d", len(got), got[0], files)
	}
	per := float64(after-before) / float64(n)
	t.Logf("%.0f bytes per definition (%d definitions)", per, n)
	// About 200: the page ID (80), 32 bytes of chain, the name's map
	// entry, the file's share of its suffixes; a DefInfo per definition
	// with copied names and a path list per suffix held 297.
	if per > 240 {
		t.Fatalf("the world holds %.0f bytes per definition; want at most 240", per)
	}
	runtime.KeepAlive(w)
}
