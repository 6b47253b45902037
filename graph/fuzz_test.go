package graph

import (
	"testing"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

func FuzzParseID(f *testing.F) {
	for _, s := range []string{"file:a/b.go", "symbol:a.go#T.M", "doc:README.md#intro", "module:.", "memory:x", "file:../etc/passwd", "file:/abs", "symbol:a#", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k, p, frag, err := ParseID(id)
		if err != nil {
			return
		}
		if k != KindMemory && CheckPath(p) != nil {
			t.Fatalf("ParseID(%q) accepted unsafe path %q", id, p)
		}
		_ = frag
	})
}

func FuzzRecordRoundTrip(f *testing.F) {
	f.Add("a.go", "Name", "sig", 3, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, path, name, sig string, line int, junk []byte) {
		r := &FileRecord{Path: path, Lang: "go", Size: 10, ModTime: 5, Hash: 99, Facts: &parser.Facts{
			Language: "go", Doc: sig,
			Defs:    []parser.Def{{Kind: parser.KindFunc, Name: name, Qualified: name, Parent: -1, StartLine: line, EndLine: line + 2, Signature: sig}},
			Refs:    []parser.Ref{{Name: name, Line: int32(line), Enclosing: 0}, {Name: sig, Qualifier: name, Kind: 7, Enclosing: -1}},
			Imports: []parser.Import{{Path: path, Line: 1}},
		}}
		stats := []FileStat{{Path: path}}
		var got *FileRecord
		b, _ := encodeFactsBlob([]*FileRecord{r})
		g := buildGraph([]*FileRecord{r}, "")
		err := decodeFactsBlob(b, stats, g, func(r *FileRecord) error { got = r; return nil })
		if err != nil || got.Path != path || got.Facts.Defs[0].Name != name || got.Facts.Defs[0].EndLine != line+2 ||
			got.Facts.Refs[0].Name != name || got.Facts.Imports[0].Path != path ||
			got.Facts.Refs[1] != (parser.Ref{Name: sig, Qualifier: name, Kind: 7, Enclosing: -1}) {
			t.Fatalf("round trip: %v %+v", err, got)
		}
		// Arbitrary bytes never panic the decoders.
		decodeFactsBlob(junk, stats, g, func(*FileRecord) error { return nil })
		decodeGraph(junk, junk)
	})
}
