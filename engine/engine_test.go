package engine

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// testGraph is a small repository: a ranking package, a parser, tests and docs.
func testGraph(t testing.TB) *graph.Graph {
	t.Helper()
	var pages []graph.Page
	var edges []graph.Edge
	idx := map[string]uint32{}
	add := func(p graph.Page) uint32 {
		i := uint32(len(pages))
		idx[p.ID] = i
		pages = append(pages, p)
		return i
	}
	edge := func(from, to string, typ graph.EdgeType) {
		edges = append(edges, graph.Edge{From: idx[from], To: idx[to], Type: typ})
	}
	mod := func(dir, doc string) {
		add(graph.Page{ID: graph.ModuleID(dir), Kind: graph.KindModule, Title: dir, Name: dir[strings.LastIndexByte(dir, '/')+1:], Path: dir, Doc: doc})
	}
	file := func(path, doc string, idents ...string) {
		base := path[strings.LastIndexByte(path, '/')+1:]
		add(graph.Page{ID: graph.FileID(path), Kind: graph.KindFile, Title: path, Name: base, Path: path, Doc: doc, Idents: idents, Lang: "go", Test: strings.HasSuffix(path, "_test.go")})
		dir := "."
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			dir = path[:i]
		}
		edge(graph.ModuleID(dir), graph.FileID(path), graph.Contains)
	}
	sym := func(path, qual, kind, sig, doc string, line int, idents ...string) {
		name := qual[strings.LastIndexByte(qual, '.')+1:]
		add(graph.Page{ID: graph.SymbolID(path, qual), Kind: graph.KindSymbol, Title: sig, Name: name, Qualified: qual, SymKind: kind,
			Path: path, Line: line, EndLine: line + 10, Lang: "go", Doc: doc, Idents: idents, Test: strings.HasSuffix(path, "_test.go")})
		edge(graph.FileID(path), graph.SymbolID(path, qual), graph.Contains)
	}
	mod(".", "wikitoolkit answers questions about a repository")
	mod("engine", "Package engine ranks pages.")
	mod("parser", "Package parser extracts definitions.")
	edge(graph.ModuleID("."), graph.ModuleID("engine"), graph.Contains)
	edge(graph.ModuleID("."), graph.ModuleID("parser"), graph.Contains)
	file("engine/pack.go", "Packing of stubs into a token budget.", "strings")
	sym("engine/pack.go", "CountTokens", "func", "func CountTokens(s string) int", "CountTokens estimates how many tokens a tokenizer needs.", 20, "utf8", "DecodeRuneInString")
	sym("engine/pack.go", "packer.add", "method", "func (p *packer) add(s Stub)", "add appends a stub if it fits the budget.", 60, "CountTokens", "renderStub", "budget")
	sym("engine/pack.go", "renderStub", "func", "func renderStub(s *Stub) string", "renderStub renders one stub.", 90, "Builder", "WriteString")
	file("engine/rank.go", "Ranking of pages.", "sort")
	sym("engine/rank.go", "Ranker", "struct", "type Ranker struct", "Ranker scores pages for a query.", 10)
	sym("engine/rank.go", "Ranker.Query", "method", "func (r *Ranker) Query(q string) Result", "Query returns the best pages for q.", 30, "score", "CountTokens", "parseConfig")
	sym("engine/rank.go", "Ranker.score", "method", "func (r *Ranker) score(p Page) float64", "score is BM25F plus priors.", 80, "idf", "impact")
	file("engine/rank_test.go", "", "testing")
	sym("engine/rank_test.go", "TestRankerQuery", "func", "func TestRankerQuery(t *testing.T)", "", 5, "Ranker", "Query", "CountTokens")
	file("parser/config.go", "Parser configuration.", "yaml")
	sym("parser/config.go", "parseConfig", "func", "func parseConfig(b []byte) (Config, error)", "parseConfig reads a YAML configuration.", 12, "yaml", "Unmarshal")
	sym("parser/config.go", "Config", "struct", "type Config struct", "Config holds parser options.", 3)
	file("parser/parse.go", "Parsing of source files.", "treesitter")
	sym("parser/parse.go", "Parse", "func", "func Parse(path string, src []byte) Facts", "Parse extracts definitions, references and imports.", 40, "parseConfig", "Language")
	add(graph.Page{ID: graph.FileID("README.md"), Kind: graph.KindFile, Title: "README.md", Name: "README.md", Path: "README.md", Lang: "markdown"})
	edge(graph.ModuleID("."), graph.FileID("README.md"), graph.Contains)
	add(graph.Page{ID: graph.DocID("README.md", "token-budget"), Kind: graph.KindDoc, Title: "Token budget", Name: "Token budget", Qualified: "token-budget", Path: "README.md", Line: 30, Doc: "Answers fit a token budget: stubs are packed until the budget is spent."})
	edge(graph.FileID("README.md"), graph.DocID("README.md", "token-budget"), graph.Contains)
	edge(graph.SymbolID("engine/pack.go", "packer.add"), graph.SymbolID("engine/pack.go", "CountTokens"), graph.References)
	edge(graph.SymbolID("engine/rank.go", "Ranker.Query"), graph.SymbolID("engine/pack.go", "CountTokens"), graph.References)
	edge(graph.SymbolID("engine/rank.go", "Ranker.Query"), graph.SymbolID("parser/config.go", "parseConfig"), graph.References)
	edge(graph.SymbolID("parser/parse.go", "Parse"), graph.SymbolID("parser/config.go", "parseConfig"), graph.References)
	edge(graph.SymbolID("engine/rank_test.go", "TestRankerQuery"), graph.SymbolID("engine/rank.go", "Ranker.Query"), graph.References)
	edge(graph.FileID("engine/rank.go"), graph.ModuleID("parser"), graph.Imports)
	return graph.NewGraph(pages, edges)
}

func query(t testing.TB, ix *Index, q string, opt Options) Result {
	t.Helper()
	r, err := ix.Query(context.Background(), q, opt)
	if err != nil {
		t.Fatalf("Query(%q): %v", q, err)
	}
	return r
}

func topPath(r Result) string {
	for _, s := range r.Results {
		if s.Path != "" {
			return s.Path
		}
	}
	return ""
}

func TestQueryRanking(t *testing.T) {
	ix := NewIndex(testGraph(t))
	for q, want := range map[string]string{
		"how are tokens counted":                    "engine/pack.go",
		"parseConfig returns an error":              "parser/config.go",
		"fix Ranker.Query ordering":                 "engine/rank.go",
		"see engine/rank.go:30":                     "engine/rank.go",
		"parser: reads yaml":                        "parser/config.go",
		`File "engine/pack.go", line 61, in add`:    "engine/pack.go",
		"panic in engine.(*Ranker).Query(0x1, 0x2)": "engine/rank.go",
	} {
		r := query(t, ix, q, Options{Explain: true})
		if got := topPath(r); got != want {
			t.Errorf("%q: top %q, want %q\n%s", q, got, want, r.Render())
		}
	}
}

func TestQueryTestFilesDownWeighted(t *testing.T) {
	ix := NewIndex(testGraph(t))
	r := query(t, ix, "Ranker Query", Options{})
	if got := topPath(r); got != "engine/rank.go" {
		t.Fatalf("top %q, want engine/rank.go\n%s", got, r.Render())
	}
	found := false
	for _, s := range r.Results {
		found = found || s.Path == "engine/rank_test.go"
	}
	if !found {
		t.Errorf("test file excluded rather than down-weighted:\n%s", r.Render())
	}
}

func TestQueryGroupsSymbols(t *testing.T) {
	ix := NewIndex(testGraph(t))
	r := query(t, ix, "Ranker score Query", Options{})
	if len(r.Results) == 0 || r.Results[0].ID != "file:engine/rank.go" || len(r.Results[0].Symbols) < 2 {
		t.Fatalf("want file:engine/rank.go listing its symbols first:\n%s", r.Render())
	}
	for _, s := range r.Results[1:] {
		if s.Path == "engine/rank.go" {
			t.Errorf("engine/rank.go appears twice:\n%s", r.Render())
		}
	}
}

func TestQueryKindsFocusExtra(t *testing.T) {
	ix := NewIndex(testGraph(t))
	r := query(t, ix, "token budget", Options{Kinds: []graph.Kind{graph.KindDoc}})
	if len(r.Results) == 0 {
		t.Fatal("no doc results")
	}
	for _, s := range r.Results {
		if s.Kind != "doc" {
			t.Errorf("kind filter let %s through", s.ID)
		}
	}
	r = query(t, ix, "token budget", Options{Kinds: []graph.Kind{graph.KindSymbol}})
	for _, s := range r.Results {
		if s.Kind != "symbol" {
			t.Errorf("kind filter let %s through", s.ID)
		}
	}
	// Focus on the parser lifts parser files for an ambiguous question.
	plain := query(t, ix, "configuration options", Options{})
	focused := query(t, ix, "configuration options", Options{Focus: []string{"parser/parse.go"}, Explain: true})
	if topPath(focused) != "parser/config.go" {
		t.Errorf("focus: top %q\n%s\nwithout focus:\n%s", topPath(focused), focused.Render(), plain.Render())
	}
	mem := graph.Page{ID: graph.MemoryID("budget-rule"), Kind: graph.KindMemory, Title: "Budget rule", Doc: "The token budget is never exceeded; packing stops early."}
	r = query(t, ix, "token budget exceeded", Options{Extra: []graph.Page{mem}})
	found := false
	for _, s := range r.Results {
		found = found || s.ID == mem.ID
	}
	if !found {
		t.Errorf("memory page not ranked:\n%s", r.Render())
	}
}

func TestQueryBudgetAndDeterminism(t *testing.T) {
	ix := NewIndex(testGraph(t))
	for _, budget := range []int{1, 5, 10, 20, 40, 80, 2000, 50000} {
		r := query(t, ix, "tokens budget Ranker parse config stub", Options{BudgetTokens: budget, Explain: true})
		text := r.Render()
		if r.UsedTokens != CountTokens(text) {
			t.Errorf("budget %d: UsedTokens %d, rendered %d", budget, r.UsedTokens, CountTokens(text))
		}
		if r.UsedTokens > r.BudgetTokens {
			t.Errorf("budget %d: used %d", budget, r.UsedTokens)
		}
		r2 := query(t, ix, "tokens budget Ranker parse config stub", Options{BudgetTokens: budget, Explain: true})
		if !reflect.DeepEqual(r, r2) {
			t.Errorf("budget %d: answers differ", budget)
		}
	}
	if r := query(t, ix, "x", Options{BudgetTokens: 0}); r.BudgetTokens != DefaultBudgetTokens {
		t.Errorf("default budget %d", r.BudgetTokens)
	}
	if r := query(t, ix, "x", Options{BudgetTokens: 1 << 30}); r.BudgetTokens != MaxBudgetTokens {
		t.Errorf("capped budget %d", r.BudgetTokens)
	}
}

func TestQueryEmptyAndCanceled(t *testing.T) {
	ix := NewIndex(testGraph(t))
	r := query(t, ix, "", Options{})
	if len(r.Results) != 0 || r.Results == nil {
		t.Errorf("empty question: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Query(ctx, "tokens", Options{}); err == nil {
		t.Error("canceled context: no error")
	}
	empty := NewIndex(graph.NewGraph(nil, nil))
	if r := query(t, empty, "anything", Options{}); len(r.Results) != 0 {
		t.Errorf("empty index answered %v", r.Results)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	g := testGraph(t)
	ix := NewIndex(g)
	b, err := ix.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	ix2, err := UnmarshalIndex(bytes.Clone(b))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := ix2.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Error("re-encoding differs")
	}
	for _, q := range []string{"how are tokens counted", "parseConfig", "engine/rank.go:30"} {
		a, c := query(t, ix, q, Options{Explain: true}), query(t, ix2, q, Options{Explain: true})
		if !reflect.DeepEqual(a, c) {
			t.Errorf("%q: answers differ after round trip", q)
		}
	}
	// Truncations and corruptions are errors, never panics.
	for i := 0; i < len(b); i += max(1, len(b)/97) {
		if _, err := UnmarshalIndex(b[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
	}
	for i := 0; i < len(b); i += max(1, len(b)/211) {
		c := bytes.Clone(b)
		c[i] ^= 0xff
		if ix3, err := UnmarshalIndex(c); err == nil {
			query(t, ix3, "tokens Ranker parseConfig engine/rank.go", Options{Explain: true, Focus: []string{"engine/pack.go"}})
		}
	}
}

func TestQueryConcurrent(t *testing.T) {
	ix := NewIndex(testGraph(t))
	want := query(t, ix, "tokens budget", Options{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				r, _ := ix.Query(context.Background(), "tokens budget", Options{})
				if !reflect.DeepEqual(r, want) {
					t.Error("concurrent answer differs")
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestCommonTerms: with the common-term rule, a question that has a rare
// word keeps the answer it had, while words found in most pages no longer
// make every page a candidate; a question of common words only is unchanged.
func TestCommonTerms(t *testing.T) {
	g := synthGraph(6000)
	ix := NewIndex(g)
	// Words held by more than a tenth of the pages, and a rare exact name.
	var common []string
	sg := ix.segs[0]
	for t := range uint32(sg.numTerms) {
		if w := sg.term(t); ix.df(termRef{[]termLoc{{0, t}}}) > ix.n/10 && w != "" && w[0] >= 'a' && w[0] <= 'z' &&
			!strings.ContainsAny(w, "0123456789") { // "badivera0" of a question is code, not a plain word
			common = append(common, w)
		}
	}
	if len(common) < 2 {
		t.Fatalf("synthetic graph has %d common words", len(common))
	}
	var rare string
	for i := range g.Pages {
		if p := &g.Pages[i]; p.Kind == graph.KindSymbol && strings.Contains(p.Qualified, ".") {
			rare = p.Qualified
			break
		}
	}
	old := commonTermFloor
	t.Cleanup(func() { commonTermFloor = old })
	answer := func(q string) Result {
		r, err := ix.Query(context.Background(), q, Options{Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, q := range []string{rare + " " + common[0] + " " + common[1], common[0] + " " + common[1]} {
		commonTermFloor = 1 << 30
		exact := answer(q)
		commonTermFloor = 10
		got := answer(q)
		if q == common[0]+" "+common[1] {
			if !reflect.DeepEqual(exact, got) {
				t.Errorf("%q: a question of common words only changed", q)
			}
			continue
		}
		if len(got.Results) == 0 || got.Results[0].ID != exact.Results[0].ID {
			t.Fatalf("%q: top result changed", q)
		}
		if got.More >= exact.More {
			t.Errorf("%q: %d more matches with the rule, %d without: common words still make candidates", q, got.More, exact.More)
		}
		for _, s := range got.Results {
			if !slices.ContainsFunc(exact.Results, func(e Stub) bool { return e.ID == s.ID }) && exact.More == 0 {
				t.Errorf("%q: %s is new", q, s.ID)
			}
		}
	}
}

// TestQueryDataFilesDownWeighted: a CI workflow and a Makefile that repeat a
// question's words rank below the code that implements them, and still
// answer a question that names them.
func TestQueryDataFilesDownWeighted(t *testing.T) {
	g := testGraph(t)
	pages := append([]graph.Page(nil), g.Pages...)
	edges := g.Edges()
	addData := func(path, lang, doc string, idents ...string) {
		pages = append(pages, graph.Page{ID: graph.FileID(path), Kind: graph.KindFile, Title: path,
			Name: path[strings.LastIndexByte(path, '/')+1:], Path: path, Lang: lang, Doc: doc, Idents: idents})
	}
	addData(".github/workflows/tokens.yml", "yaml", "Count the tokens of a stub: count tokens of each stub, count the tokens of stubs.", "tokens", "count", "stub", "count", "tokens", "CountTokens")
	addData("Makefile", "make", "count tokens of the stubs", "tokens", "count", "stub")
	ix := NewIndex(graph.NewGraph(pages, edges))
	r := query(t, ix, "count tokens of a stub", Options{Explain: true})
	if got := topPath(r); got != "engine/pack.go" {
		t.Errorf("top %q, want engine/pack.go\n%s", got, r.Render())
	}
	r = query(t, ix, "Makefile count tokens", Options{})
	if got := topPath(r); got != "Makefile" {
		t.Errorf("a question naming the Makefile: top %q\n%s", got, r.Render())
	}
}

// TestIndexCuts: indexCuts finds, in an encoded segment, the section
// starts its encoder wrote (graph compresses the blob a zstd frame per
// section), and stops without panicking on a truncated one.
func TestIndexCuts(t *testing.T) {
	ix := NewIndex(testGraph(t))
	for _, records := range []bool{false, true} {
		b, want := ix.segs[0].encodeSections(records)
		if got := indexCuts(b); !slices.Equal(got, want) {
			t.Errorf("records %v: indexCuts %v, encoder's %v", records, got, want)
		}
		if len(want) != numIndexSections+1 {
			t.Errorf("records %v: %d cuts, want %d", records, len(want), numIndexSections+1)
		}
		for n := range len(b) {
			cuts := indexCuts(b[:n])
			if !slices.IsSorted(cuts) || len(cuts) > 0 && cuts[len(cuts)-1] > n {
				t.Fatalf("truncated to %d bytes: cuts %v", n, cuts)
			}
		}
	}
}
