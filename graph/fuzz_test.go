package graph

import (
	"reflect"
	"slices"
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
		// The references and imports alone, without the graph.
		whole := got
		got = nil
		err = decodeFactsRefs(b, stats, map[string]bool{path: true}, func(r *FileRecord) error { got = r; return nil })
		if err != nil || got == nil || got.Path != path || got.Facts.Defs != nil ||
			!slices.Equal(got.Facts.Refs, whole.Facts.Refs) || !slices.Equal(got.Facts.Imports, whole.Facts.Imports) {
			t.Fatalf("references alone: %v %+v", err, got)
		}
		// Arbitrary bytes never panic the decoders.
		decodeFactsBlob(junk, stats, g, func(*FileRecord) error { return nil })
		decodeFactsRefs(junk, stats, map[string]bool{path: true}, func(*FileRecord) error { return nil })
		decodeGraph(junk, junk)
	})
}

// TestDecodeFactsRefsSkipsOthers decodes, of records with every kind of
// fact (derived and stored definitions, literals, imports, diagnostics),
// every other one's references and imports, and then every other one
// whole: the records passed over must
// leave each section where the next record starts, so that the wanted
// ones read as a whole decode reads them.
func TestDecodeFactsRefsSkipsOthers(t *testing.T) {
	var recs []*FileRecord
	var stats []FileStat
	for i := range 6 {
		p := string(rune('a'+i)) + ".py"
		f := &parser.Facts{Language: "python",
			Defs: []parser.Def{
				{Kind: parser.KindFunc, Name: "f", Qualified: "f", Parent: -1, StartLine: 1, EndLine: 3},
				{Kind: parser.KindFunc, Name: "f", Qualified: "f", Parent: -1, StartLine: 5, EndLine: 6 + i}, // repeated: stored
			},
			Refs:        []parser.Ref{{Name: "g", Enclosing: 0}, {Name: "h", Qualifier: "self", Type: "T", Kind: 2, Selected: true, Enclosing: 1}},
			Literals:    []parser.Literal{{Text: "lit" + p, Enclosing: 0}},
			Imports:     []parser.Import{{Path: "os", Line: 1}, {Path: "m" + p, Alias: "x", Line: 2}},
			Diagnostics: []parser.Diagnostic{{Line: 3, Column: 4, Message: "oops " + p}},
		}
		if i%3 == 2 {
			f.Defs, f.Literals, f.Diagnostics = nil, nil, nil
		}
		recs = append(recs, &FileRecord{Path: p, Lang: "python", Facts: f})
		stats = append(stats, FileStat{Path: p})
	}
	b, _ := encodeFactsBlob(recs)
	want := map[string]bool{}
	for i, r := range recs {
		if i%2 == 1 {
			want[r.Path] = true
		}
	}
	g := buildGraph(recs, "")
	whole := map[string]*FileRecord{}
	if err := decodeFactsBlob(b, stats, g, func(r *FileRecord) error { whole[r.Path] = r; return nil }); err != nil {
		t.Fatal(err)
	}
	var got []*FileRecord
	if err := decodeFactsRefs(b, stats, want, func(r *FileRecord) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	// Whole records of the wanted ones only (readPiecesOf).
	n := 0
	if err := decodeFacts(b, stats, g, want, false, func(r *FileRecord) error {
		n++
		if w := whole[r.Path]; !want[r.Path] || !reflect.DeepEqual(r, w) {
			t.Errorf("%s: whole record %+v, want %+v", r.Path, r.Facts, w.Facts)
		}
		return nil
	}); err != nil || n != len(want) {
		t.Fatalf("%d whole records (%v), want %d", n, err, len(want))
	}
	for _, r := range got {
		orig := whole[r.Path]
		if !want[r.Path] || r.Lang != orig.Lang || r.Facts.Language != orig.Facts.Language ||
			!slices.Equal(r.Facts.Refs, orig.Facts.Refs) || !slices.Equal(r.Facts.Imports, orig.Facts.Imports) {
			t.Errorf("%s: got %+v, want refs %+v imports %+v", r.Path, r.Facts, orig.Facts.Refs, orig.Facts.Imports)
		}
	}
}

// FuzzKeyCodecs: the summaries, the n/ values' qualified names and the
// stats round-trip whatever their strings, and arbitrary bytes never
// panic their decoders.
func FuzzKeyCodecs(f *testing.F) {
	f.Add("Server.Run", "Run", "a/b.go", "a/c.go", int64(5), []byte{3, 1, 2})
	f.Add("x", "y", "", "z", int64(-1), []byte{200, 1})
	f.Fuzz(func(t *testing.T, qual, name, p1, p2 string, n int64, junk []byte) {
		langs := &strTable{}
		s := fileSummary{Lang: "go", Size: n, Resolved: true,
			Defs: []defName{{name, qual}, {qual, name}, {name, name + qual}, {"", qual}}}
		if got, ok := decodeSummary(encodeSummary(s, langs), langs.strs); !ok || !reflect.DeepEqual(got, s) {
			t.Fatalf("summary: %+v (ok %v), want %+v", got, ok, s)
		}
		d := dec{b: appendQual(appendQual(nil, qual, name), name, qual)}
		if a, b := d.qual(name), d.qual(qual); a != qual || b != name || d.err != nil || len(d.b) != 0 {
			t.Fatalf("qual: %q %q %v", a, b, d.err)
		}
		stats := []FileStat{{Path: p1, Size: n, ModTime: n * 3, Hash: uint64(n)}, {Path: p2, Size: -n, ModTime: -n, Hash: 1}}
		if got, err := decodeStats(encodeStats(stats)); err != nil || !slices.Equal(got, stats) {
			t.Fatalf("stats: %+v %v", got, err)
		}
		decodeSummary(junk, langs.strs)
		decodeStats(junk)
		d = dec{b: junk}
		for len(d.b) > 0 && d.err == nil {
			d.qual(name)
		}
		var fs frontStrs
		d = dec{b: junk}
		for len(d.b) > 0 && d.err == nil {
			fs.next(&d)
		}
	})
}
