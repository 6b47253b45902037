package parser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// matchesViaCursor returns what the matcher should: q's matches over root,
// read through go-tree-sitter's own query cursor, as a record.
func matchesViaCursor(q *sitter.Query, root *sitter.Node) []uint32 {
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	var rec []uint32
	qc.Exec(q, root)
	for m, ok := qc.NextMatch(); ok; m, ok = qc.NextMatch() {
		rec = append(rec, uint32(len(m.Captures)))
		for _, c := range m.Captures {
			rec = append(rec, c.Index, c.Node.StartByte(), c.Node.EndByte())
		}
	}
	return rec
}

// TestMatcherAgrees checks the C matcher against go-tree-sitter's query
// cursor on the parse cases and their truncations, in every language; and
// collect, used for Markdown, against the equivalent query.
func TestMatcherAgrees(t *testing.T) {
	p := NewParser()
	defer p.Close()
	var srcs []string
	for _, tc := range parseCases {
		srcs = append(srcs, tc.src, tc.src[:len(tc.src)/2], tc.src[len(tc.src)/3:])
	}
	for _, lang := range Languages() {
		s, err := p.spec("x" + extByLang[lang][0])
		if err != nil {
			t.Fatal(err)
		}
		q := fullQuery(t, s)
		if s.nodes != nil {
			var b strings.Builder
			for typ, capt := range s.nodes {
				fmt.Fprintf(&b, "(%s) @%s\n", typ, capt)
			}
			if q, err = sitter.NewQuery([]byte(b.String()), s.lang); err != nil {
				t.Fatal(err)
			}
			defer q.Close()
		}
		for i, src := range srcs {
			tree, _, err := p.parseTree(context.Background(), s, []byte(src))
			if errors.Is(err, sitter.ErrOperationLimit) {
				continue // the grammar gave up (Swift on some broken input)
			}
			if err != nil {
				t.Fatal(err)
			}
			root := tree.RootNode()
			want := matchesViaCursor(q, root)
			var got []uint32
			if s.nodes != nil {
				// collect's capture indexes are roles; map the query's.
				for j := 0; j < len(want); j += 4 {
					want[j+1] = uint32(roleByName[q.CaptureNameForId(want[j+1])])
				}
				got = p.mt.collect(root, s.nodeRoles)
			} else {
				got = p.mt.run(q, root)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s source %d: matcher\n%v\nquery cursor\n%v", lang, i, got, want)
			}
			tree.Close()
		}
	}
}

// normalMatches returns a record's matches as sorted strings, each with
// its captures sorted: the order of matches (and of captures in one) is
// not part of the contract.
func normalMatches(rec []uint32, remap []uint32) []string {
	var out []string
	for {
		caps, rest, ok := nextMatch(rec)
		if !ok {
			break
		}
		rec = rest
		var cs []string
		for _, c := range caps {
			idx := c.index
			if remap != nil {
				idx = remap[idx]
			}
			cs = append(cs, fmt.Sprintf("%d:%d-%d", idx, c.start, c.end))
		}
		slices.Sort(cs)
		out = append(out, strings.Join(cs, " "))
	}
	slices.Sort(out)
	return out
}

// agreeSources returns sources for the program tests: the parse cases,
// their truncations and a few hostile shapes.
func agreeSources() []string {
	var srcs []string
	for _, tc := range parseCases {
		srcs = append(srcs, tc.src, tc.src[:len(tc.src)/2], tc.src[len(tc.src)/3:], tc.src[len(tc.src)/5:len(tc.src)*3/4])
	}
	for _, tc := range parseCases {
		srcs = append(srcs, tc.src+"\n"+strings.Repeat("(", 40)+tc.src[:len(tc.src)/3])
	}
	// Spliced and corrupted snippets, as TestParseMutations makes them:
	// error recovery builds odd trees.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		a := parseCases[rng.IntN(len(parseCases))].src
		b := parseCases[rng.IntN(len(parseCases))].src
		src := []byte(a[:rng.IntN(len(a)+1)] + b[rng.IntN(len(b)+1):])
		for k := rng.IntN(8); k > 0 && len(src) > 0; k-- {
			const junk = "(){}[];,.\"'`:=<>#@\n x"
			src[rng.IntN(len(src))] = junk[rng.IntN(len(junk))]
		}
		srcs = append(srcs, string(src))
	}
	// Anchors: last and first children, comments between, extra arguments.
	srcs = append(srcs,
		"const a = require('a', 'b'); const b = require('b'); const c = require(/* x */ 'c'); import('d', 'e'); import('f')\n",
		"class A { java.util.List<String> x; Map.Entry<K, V> e; a.b.C<D>.E f; }\n",
		"def f():\n    # comment\n    \"\"\"doc\"\"\"\n\ndef g():\n    \"\"\"doc\"\"\"\n    pass\nclass C:\n    x = 1\n    \"\"\"not doc\"\"\"\n",
		"require 'a', 'b'\nrequire('c')\nload 'd'\nrequire_relative \"e\"\n",
		"import a \"x\"\nimport (\n . \"y\"\n _ \"z\"\n \"w\"\n)\ntype T struct { a, b int; c string }\nvar x, y = 1, 2\nconst p, q = 1, 2\n",
	)
	return srcs
}

// TestProgramAgrees checks the tree walker against tree-sitter's query
// cursor running the same query, in every language: the same matches,
// each once.
func TestProgramAgrees(t *testing.T) {
	p := NewParser()
	defer p.Close()
	srcs := agreeSources()
	for _, lang := range Languages() {
		s, err := p.spec("x" + extByLang[lang][0])
		if err != nil {
			t.Fatal(err)
		}
		if s.prog == nil {
			continue // Markdown: node types, not a query
		}
		if s.prog.residual != nil {
			t.Errorf("%s: patterns left to tree-sitter; the walker should run all of our queries", lang)
		}
		for i, src := range srcs {
			tree, _, err := p.parseTree(context.Background(), s, []byte(src))
			if errors.Is(err, sitter.ErrOperationLimit) {
				continue // the grammar gave up (Swift on some broken input)
			}
			if err != nil {
				t.Fatal(err)
			}
			root := tree.RootNode()
			if i == 0 && !walksInternal(root) {
				t.Errorf("%s: the walker falls back to the public cursor (unknown language ABI?)", lang)
			}
			want := normalMatches(matchesViaCursor(fullQuery(t, s), root), nil)
			// Both walks: over the tree's own data, and with the cursor.
			for _, cw := range []bool{false, true} {
				cursorWalk = cw
				got := normalMatches(p.mt.exec(s.prog, root), nil)
				cursorWalk = false
				if msg := agree(got, want); msg != "" {
					t.Errorf("%s source %d (cursor walk %v): %s\nwalker\n%v\nquery cursor\n%v", lang, i, cw, msg, got, want)
				}
			}
			tree.Close()
		}
	}
}

// TestProgramResidual checks that patterns the walker does not support go
// to tree-sitter, and that the two parts together find what the whole
// query does.
func TestProgramResidual(t *testing.T) {
	p := NewParser()
	defer p.Close()
	s, err := p.spec("x.go")
	if err != nil {
		t.Fatal(err)
	}
	src := `
(function_declaration name: (identifier) @name) @def.func
(call_expression function: (identifier) @ref.call (#eq? @ref.call "helper"))
(argument_list (identifier)* @ref.sel)
(call_expression function: (selector_expression field: (field_identifier) @ref.call))
[(int_literal) (float_literal)] @qual
`
	q, err := sitter.NewQuery([]byte(src), s.lang)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	names, err := captureNames(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := queryCaptureNames(q); !slices.Equal(names, want) {
		t.Fatalf("capture names %v, tree-sitter's %v", names, want)
	}
	prog, err := compileProgram(src, s.lang, names)
	if err != nil {
		t.Fatal(err)
	}
	if prog.residual == nil || prog.residual.PatternCount() != 3 {
		t.Fatalf("residual query: %v, want the 3 unsupported patterns", prog.residual)
	}
	code := []byte("package x\nfunc f() { helper(a, b); other(c); x.y(1, 2.5) }\n")
	tree, err := p.ts.ParseCtx(context.Background(), nil, code)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	root := tree.RootNode()
	// The query cursor does not apply predicates; neither does the
	// residual run: compare the raw matches.
	want := normalMatches(matchesViaCursor(q, root), nil)
	got := normalMatches(p.mt.exec(prog, root), nil)
	got = append(got, normalMatches(matchesViaCursor(prog.residual, root), prog.remap)...)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("walker + residual\n%v\nwhole query\n%v", got, want)
	}
}

// TestProgramAgreesOnTree compares the walker and the query cursor on
// every file of a real tree: WIKITOOLKIT_AGREE_ROOT=/path go test -run
// OnTree ./parser.
func TestProgramAgreesOnTree(t *testing.T) {
	root := os.Getenv("WIKITOOLKIT_AGREE_ROOT")
	if root == "" {
		t.Skip("WIKITOOLKIT_AGREE_ROOT not set")
	}
	p := NewParser()
	defer p.Close()
	files, bad := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || Detect(path) == "" || Detect(path) == "markdown" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || len(src) > 1<<20 {
			return nil
		}
		s, err := p.spec(path)
		if err != nil {
			return nil
		}
		tree, err := p.ts.ParseCtx(context.Background(), nil, src)
		if err != nil {
			return nil
		}
		defer tree.Close()
		files++
		want := normalMatches(matchesViaCursor(fullQuery(t, s), tree.RootNode()), nil)
		got := normalMatches(p.mt.exec(s.prog, tree.RootNode()), nil)
		if msg := agree(got, want); msg != "" {
			bad++
			if bad <= 5 {
				t.Errorf("%s: %s", path, msg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files compared, %d differ", files, bad)
}

// agree compares the walker's matches with the query cursor's (both
// normalised) and returns what is wrong, or "". They must be equal, but
// for one known difference: where a field holds several nodes (Go's
// `const a, b = 1, 2` has three children under name:), the query cursor
// sometimes matches only the first of them (its parse-table guess that no
// later sibling can have the field is wrong there; for `var a, b = 1, 2`
// it matches all), while the walker matches each. So every match of the
// cursor must be the walker's, and every other match of the walker must
// differ from one of the cursor's in exactly one capture, of the same
// capture index: a later node of the same field.
func agree(walker, cursor []string) string {
	has := make(map[string]bool, len(walker))
	for _, m := range walker {
		has[m] = true
	}
	for _, m := range cursor {
		if !has[m] {
			return fmt.Sprintf("the walker misses %q", m)
		}
	}
	if len(walker) == len(cursor) {
		return ""
	}
	in := make(map[string]bool, len(cursor))
	for _, m := range cursor {
		in[m] = true
	}
	for _, w := range walker {
		if in[w] {
			continue
		}
		wc := strings.Fields(w)
		sibling := false
		for _, c := range cursor {
			cc := strings.Fields(c)
			if len(cc) != len(wc) {
				continue
			}
			diff, same := 0, true
			for _, x := range wc {
				if !slices.Contains(cc, x) {
					diff++
					idx, _, _ := strings.Cut(x, ":")
					found := false
					for _, y := range cc {
						if !slices.Contains(wc, y) && strings.HasPrefix(y, idx+":") {
							found = true
						}
					}
					same = same && found
				}
			}
			if diff == 1 && same {
				sibling = true
				break
			}
		}
		if !sibling {
			return fmt.Sprintf("the walker has %q, not a sibling of any of the cursor's matches", w)
		}
	}
	return ""
}

// fullQueries caches fullQuery's compiles, by language name.
var fullQueries sync.Map

// fullQuery compiles the language's whole query with tree-sitter, which
// load no longer does: the tests compare the walker against it.
func fullQuery(t testing.TB, s *langSpec) *sitter.Query {
	t.Helper()
	if q, ok := fullQueries.Load(s.name); ok {
		return q.(*sitter.Query)
	}
	src, err := s.querySource()
	if err != nil {
		t.Fatal(err)
	}
	q, err := sitter.NewQuery([]byte(src), s.lang)
	if err != nil {
		t.Fatalf("compile %s query: %v", s.name, err)
	}
	q2, _ := fullQueries.LoadOrStore(s.name, q)
	return q2.(*sitter.Query)
}

// queryCaptureNames lists q's capture names by index.
func queryCaptureNames(q *sitter.Query) []string {
	var names []string
	for i := uint32(0); i < q.CaptureCount(); i++ {
		names = append(names, q.CaptureNameForId(i))
	}
	return names
}

// TestCaptureNames checks that captureNames numbers every language's
// captures as tree-sitter does, and that the whole query still compiles
// with tree-sitter (load no longer compiles it).
func TestCaptureNames(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, lang := range Languages() {
		s, err := p.spec("x" + extByLang[lang][0])
		if err != nil {
			t.Fatal(err)
		}
		if s.nodes != nil {
			continue // Markdown: node types, not a query
		}
		src, err := s.querySource()
		if err != nil {
			t.Fatal(err)
		}
		got, err := captureNames(src)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if want := queryCaptureNames(fullQuery(t, s)); !slices.Equal(got, want) {
			t.Errorf("%s: capture names\n%v\ntree-sitter's\n%v", lang, got, want)
		}
	}
	// Strings and comments hold no captures; names take tree-sitter's
	// characters.
	src := "; @no\n(a \"@no\\\" @no\") @x.y? (#eq? @x.y? \"@no\") @z-1! @x.y?"
	got, err := captureNames(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"x.y?", "z-1!"}; !slices.Equal(got, want) {
		t.Errorf("captureNames(%q) = %q, want %q", src, got, want)
	}
}
