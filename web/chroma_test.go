package web

import (
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestChromaCSS holds static/chroma.css to the CSS chroma writes for its
// github style (regenerate it with this test's want when chroma changes),
// and checks that the empty style the pages are formatted with gives the
// same HTML as github's: with classes the formatter reads no colour.
func TestChromaCSS(t *testing.T) {
	var want strings.Builder
	if err := chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&want, styles.Get("github")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("static/chroma.css")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("static/chroma.css differs from chroma's github CSS: write this test's want into it")
	}
	src := "def f(x):\n    # a comment\n    return \"s\" + 1\n"
	format := func(s *chroma.Style) string {
		it, err := lexers.Get("python").Tokenise(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := formatter(1).Format(&b, s, it); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if a, b := format(style), format(styles.Get("github")); a != b {
		t.Errorf("the empty style formats differently from github's:\n%s\nvs\n%s", a, b)
	}
}
