package graph

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestResolveRef(t *testing.T) {
	pages := []Page{
		{ID: ModuleID("."), Kind: KindModule, Path: "."},
		{ID: ModuleID("src"), Kind: KindModule, Path: "src"},
		{ID: FileID("src/app.py"), Kind: KindFile, Path: "src/app.py", Name: "app.py"},
		{ID: SymbolID("src/app.py", "Flask"), Kind: KindSymbol, Path: "src/app.py", Name: "Flask", Qualified: "Flask", Line: 10, EndLine: 90},
		{ID: SymbolID("src/app.py", "Flask.url_for"), Kind: KindSymbol, Path: "src/app.py", Name: "url_for", Qualified: "Flask.url_for", Line: 40, EndLine: 50},
		{ID: FileID("src/helpers.py"), Kind: KindFile, Path: "src/helpers.py", Name: "helpers.py"},
		{ID: SymbolID("src/helpers.py", "url_for"), Kind: KindSymbol, Path: "src/helpers.py", Name: "url_for", Qualified: "url_for", Line: 5, EndLine: 9},
		{ID: FileID("tests/test_app.py"), Kind: KindFile, Path: "tests/test_app.py", Name: "test_app.py", Test: true},
		{ID: SymbolID("tests/test_app.py", "t.Flask"), Kind: KindSymbol, Path: "tests/test_app.py", Name: "Flask", Qualified: "t.Flask", Test: true},
	}
	for i := range 12 {
		f := fmt.Sprintf("gen/f%d.go", i)
		pages = append(pages, Page{ID: FileID(f), Kind: KindFile, Path: f},
			Page{ID: SymbolID(f, "Init"), Kind: KindSymbol, Path: f, Name: "Init", Qualified: "Init"})
	}
	g := NewGraph(pages, nil)
	for _, c := range []struct{ ref, base, want string }{
		{"src/app.py", "", "file:src/app.py"},
		{"app.py", "src", "file:src/app.py"},
		{"app.py", "", "file:src/app.py"}, // a file's base name
		{"src", "", "module:src"},
		{".", "src", "module:src"},
		{"src/app.py:45", "", "symbol:src/app.py#Flask.url_for"},
		{"src/app.py:12", "", "symbol:src/app.py#Flask"},
		{"src/app.py#Flask.url_for", "", "symbol:src/app.py#Flask.url_for"},
		{"Flask.url_for", "", "symbol:src/app.py#Flask.url_for"},
		{"Flask::url_for", "", "symbol:src/app.py#Flask.url_for"},
		{"Flask", "", "symbol:src/app.py#Flask"}, // the test class does not make it ambiguous
		{"helpers.url_for", "", "symbol:src/helpers.py#url_for"},
		{"file:nope.go", "", "file:nope.go"}, // IDs pass through
	} {
		got, err := g.ResolveRef(c.ref, c.base)
		if err != nil || got != c.want {
			t.Errorf("ResolveRef(%q, %q) = %q, %v; want %q", c.ref, c.base, got, err, c.want)
		}
	}
	_, err := g.ResolveRef("url_for", "")
	var re *RefError
	if !errors.As(err, &re) || !errors.Is(err, ErrAmbiguous) || len(re.Candidates) != 2 || re.Candidates[0] != "symbol:src/helpers.py#url_for" {
		t.Errorf("url_for: %v", err)
	}
	_, err = g.ResolveRef("Init", "")
	if !errors.As(err, &re) || re.Total != 12 || len(re.Candidates) != maxRefCandidates || !strings.Contains(err.Error(), "… 4 more") {
		t.Errorf("Init: %v", err)
	}
	_, err = g.ResolveRef("url_fro", "")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "did you mean:\n  symbol:") {
		t.Errorf("url_fro: %v", err)
	}
	for _, bad := range []string{"../x", "src/../../x", "/etc/passwd", "file:../x"} {
		if _, err := g.ResolveRef(bad, ""); !errors.Is(err, ErrBadID) {
			t.Errorf("%q: %v, want ErrBadID", bad, err)
		}
	}
	if _, err := g.ResolveRef("../../x", "src"); !errors.Is(err, ErrBadID) {
		t.Errorf("../../x from src: %v", err)
	}
}
