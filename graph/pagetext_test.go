package graph

import (
	"reflect"
	"strings"
	"testing"
)

// TestGraphCodecRoundTrip checks that x/graph and x/text together give
// back every field of pages whose fields differ from every default, and
// docs of every shape splitDoc handles.
func TestGraphCodecRoundTrip(t *testing.T) {
	long := strings.Repeat("é", 150) + " tail\nsecond"
	docs := []string{"", "one line", "  indented first\n  second\n", "\n\nafter blank", long,
		"ends with…", strings.Repeat("x", 199) + "…", strings.Repeat("y", 300) + "…more", "   ", "a\tb\r\nc"}
	pages := []Page{
		{ID: "module:.", Kind: KindModule, Title: ".", Name: ".", Path: "."},
		{ID: "file:a.go", Kind: KindFile, Title: "custom title", Name: "other", Path: "a.go", Line: 1, Lang: "go", Hash: 7},
		{ID: "symbol:a.go#X", Kind: KindSymbol, Title: "X", Name: "Y", Qualified: "X", Path: "b.go", Line: 3, EndLine: 9, SymKind: "func", Lang: "go", Test: true, Hash: 1, BodyHash: 2},
		{ID: "symbol:a.go#T.m", Kind: KindSymbol, Title: "func (T) m()", Name: "m", Qualified: "T.m", Path: "a.go", Line: -2, EndLine: 4, SymKind: "method", Lang: "go", Hash: 1 << 31},
		{ID: "memory:retries", Kind: KindMemory, Title: "Retries", Name: "retries", Qualified: "config"},
		{ID: "symbol:a.go#Run", Kind: KindSymbol, Title: "func Run(\x00) Run", Name: "Run", Qualified: "Run", Path: "a.go", Doc: "Run runs Run.\x00"},
		{ID: "symbol:a.go#Z.Zz", Kind: KindSymbol, Title: "func (Zz) Zz() Zz", Name: "Zz", Qualified: "Z.Zz", Path: "a.go", Doc: "Zz is Zz"},
		{ID: "doc:a.go#weird", Kind: KindDoc, Title: "Weird", Name: "Weird", Qualified: "other", Path: "a.go"},
	}
	for i, d := range docs {
		p := Page{ID: SymbolID("a.go", "D"+string(rune('a'+i))), Kind: KindSymbol, Name: "D" + string(rune('a'+i)), Path: "a.go", Line: i + 5, EndLine: i + 5, Doc: d}
		p.Qualified, p.Title = p.Name, "sig "+p.Name
		pages = append(pages, p)
	}
	edges := []Edge{{0, 1, Contains, 0}, {1, 2, Contains, 0}, {1, 3, Contains, 0}, {2, 3, References, MakeAttr(UseCall, ConfTyped)},
		{2, 5, References, MakeAttr(UseType|UseSelector, ConfLoose)}, {3, 1, Imports, 0}, {6, 0, References, 0}}
	g := NewGraph(pages, edges)
	group := Groups(g)
	b, cuts := encodeGraph(g, group)
	if c, err := decompress(compressParts(b, cuts)); err != nil || string(c) != string(b) {
		t.Fatalf("compressParts round trip: %v", err)
	}
	got, err := decodeGraph(b, textBlob(EncodeText(g, group)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		want := pages[i]
		if !reflect.DeepEqual(got.Pages[i], want) {
			t.Errorf("page %d:\n got %+v\nwant %+v", i, got.Pages[i], want)
		}
	}
	if !reflect.DeepEqual(got.Edges(), g.Edges()) {
		t.Errorf("edges: got %v, want %v", got.Edges(), g.Edges())
	}
	for _, d := range docs {
		mode, pre, rest := splitDoc(d)
		if j := joinDoc(mode, pre, FirstLine(d, SnippetMaxBytes), rest); j != d {
			t.Errorf("doc %q came back as %q (mode %d)", d, j, mode)
		}
	}
}

// TestIsDefaultID checks isDefaultID against the IDs DefaultID builds.
func TestIsDefaultID(t *testing.T) {
	kinds := []Kind{KindModule, KindFile, KindSymbol, KindDoc, KindMemory, Kind(99)}
	parts := []string{"", "a", "a/b.go", "#", "b.go#x", "x"}
	for _, k := range kinds {
		for _, path := range parts {
			for _, name := range parts {
				for _, qual := range parts {
					want := DefaultID(k, path, name, qual)
					ids := []string{want, want + "x", "x" + want, "", "file:a", "symbol:a#x", "symbol:a/b.go##"}
					for _, id := range ids {
						if got := isDefaultID(id, k, path, name, qual); got != (id == want) {
							t.Fatalf("isDefaultID(%q, %v, %q, %q, %q) = %v, want %v", id, k, path, name, qual, got, id == want)
						}
					}
				}
			}
		}
	}
}
