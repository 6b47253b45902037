package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// TestWordTermsDigits guards pieceTerms: a digit run is also a word joined
// to the letters before it, in the index and in the question alike, so
// "h3" of a question meets send_h3_frames and int32 is not int64.
func TestWordTermsDigits(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GetInt32Slice", "int int32 slic"},
		{"send_h3_frames", "send h3 fram"},
		{"utf8Decode", "utf utf8 decod"},
		{"x509 certificates", "x509 certificat"},
		{"rfc7231 and 405", "rfc rfc7231"},
		{"sha1234567", "sha"}, // a long run (a hash, a generated suffix) stays out
		{"3des", "des"},       // digits before letters join nothing
	} {
		ws, _ := wordTerms(nil, tc.in, nil)
		if got := strings.Join(ws, " "); got != tc.want {
			t.Errorf("wordTerms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	a := analyze("disable h3 for `GetInt32Slice`")
	ts := terms(a)
	for _, w := range []string{"h3", "int32"} {
		if _, ok := ts[w]; !ok {
			t.Errorf("the question's terms lack %q: %v", w, a.terms)
		}
	}
}

// TestSiblings guards addSiblings: a code name the index does not hold
// lends its weight to the names sharing its leading pieces, unless more
// than maxSiblings share them or the start is shorter than minSiblingHead.
func TestSiblings(t *testing.T) {
	file := func(p string, idents ...string) graph.Page {
		return graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: p, Path: p, Lang: "python", Idents: idents}
	}
	var many []string
	for i := range maxSiblings + 1 {
		many = append(many, fmt.Sprintf("fetch_thing%d", i))
	}
	ix := NewIndex(graph.NewGraph([]graph.Page{
		file("runner.py", "last_type", "last_value", "cut_a", "cut_b"),
		file("other.py", many...),
	}, nil))
	sibs := func(q string) []string {
		a := analyze(q)
		n := len(a.terms)
		ix.addSiblings(&a)
		var out []string
		for _, qt := range a.terms[n:] {
			out = append(out, qt.term)
		}
		slices.Sort(out)
		return out
	}
	if got := sibs("add `sys.last_exc`"); !slices.Equal(got, []string{"=last_type", "=last_value"}) {
		t.Errorf("siblings of sys.last_exc = %v, want =last_type =last_value", got)
	}
	if got := sibs("add `last_type`"); len(got) != 0 {
		t.Errorf("a name the index holds has siblings %v", got)
	}
	if got := sibs("add `fetch_other`"); len(got) != 0 {
		t.Errorf("a start shared by more than %d names gave %v", maxSiblings, got)
	}
	if got := sibs("add `cut_c`"); len(got) != 0 {
		t.Errorf("a start shorter than %d bytes gave %v", minSiblingHead, got)
	}
}

// TestTextWordTermsNumbers: a page's own text keeps a number of at most
// maxJoinDigits digits written as a word ("an integer 64", "RFC 7231"),
// not a longer one (a date) and not a name's digit piece, which
// pieceTerms joins to its letters; a question's words (wordTerms) keep
// none.
func TestTextWordTermsNumbers(t *testing.T) {
	for _, c := range []struct {
		in         string
		page, ques []string
	}{
		{"as an integer 64", []string{"integer", "64"}, []string{"integer"}},
		{"GetInt64 of RFC 7231, 20240101", []string{"int", "int64", "rfc", "7231"}, []string{"int", "int64", "rfc"}},
		{"utf-8 and 5", []string{"utf", "8", "5"}, []string{"utf"}},
	} {
		page, _ := textWordTerms(nil, c.in, nil)
		ques, _ := wordTerms(nil, c.in, nil)
		if !slices.Equal(page, c.page) || !slices.Equal(ques, c.ques) {
			t.Errorf("%q: page %q question %q, want %q and %q", c.in, page, ques, c.page, c.ques)
		}
	}
}
