package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

func TestSplitIdent(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"parseConfig", "parse config"},
		{"ParseHTTPRequest2", "parse http request 2"},
		{"snake_case_name", "snake case name"},
		{"__init__", "init"},
		{"HTTPServer", "http server"},
		{"utf8Decode", "utf 8 decode"},
		{"kebab-case", "kebab case"},
		{"getURLsFromHTML", "get urls from html"},
		{"trustedCIDRs", "trusted cidrs"},
		{"XMLHttpRequest", "xml http request"},
		{"a::b", "a b"},
		{"ÜberName", "über name"},
		{"", ""},
	} {
		got := strings.Join(splitIdent(nil, tc.in), " ")
		if got != tc.want {
			t.Errorf("splitIdent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStem(t *testing.T) {
	for _, group := range [][]string{
		{"fixture", "fixtures"},
		{"parse", "parsing", "parsed", "parses"},
		{"match", "matches", "matched", "matching"},
		{"policy", "policies"},
		{"run", "running"},
		{"call", "calls", "calling"},
	} {
		want := stem(group[0])
		for _, w := range group[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, want %q (as stem(%q))", w, got, want, group[0])
			}
		}
	}
	for _, w := range []string{"is", "as", "bus", "go", "class", "status"} {
		if stem(w) == "" {
			t.Errorf("stem(%q) is empty", w)
		}
	}
}

func terms(a analysis) map[string]queryTerm {
	m := map[string]queryTerm{}
	for _, t := range a.terms {
		m[t.term] = t
	}
	return m
}

func TestAnalyzeIdentifiers(t *testing.T) {
	a := analyze("fix: data race with trustedCIDRs in `parseConfig` and pkg.Func, Class.method, a::b::c, max_len")
	m := terms(a)
	for _, want := range []string{"=trustedcidrs", "=parseconfig", "=pkg.func", "=func", "=class.method", "=method", "=b.c", "=max_len", "trust", "cidr", "pars", "config", "data", stem("race")} {
		if _, ok := m[want]; !ok {
			t.Errorf("missing term %q in %v", want, a.terms)
		}
	}
	if m["=parseconfig"].weight <= m["data"].weight {
		t.Errorf("an identifier must weigh more than a prose word: %v vs %v", m["=parseconfig"], m["data"])
	}
	if _, ok := m["with"]; ok {
		t.Error("stop word kept")
	}
	if a.component != "" {
		t.Errorf("commit type taken as component: %q", a.component)
	}
}

func TestAnalyzeComponent(t *testing.T) {
	for q, want := range map[string]string{
		"reverseproxy: Fix `health_port` being ignored": "reverseproxy",
		"fix(tree): wrong when wildcard follows":        "tree",
		"perf(recovery): optimize line reading":         "recovery",
		"feat: add thing":                               "",
		"fixtures: fix tracebacks":                      "fixtures",
		"[refactor] Start using match case":             "",
		"_pytest._py.path: remove fspath compat":        "_pytest._py.path",
		"what does this do":                             "",
	} {
		if got := analyze(q).component; got != want {
			t.Errorf("component of %q = %q, want %q", q, got, want)
		}
	}
}

func TestAnalyzePathsAndTraces(t *testing.T) {
	q := `Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/_pytest/runner.py", line 341, in from_call
    result = func()
  File "src/_pytest/fixtures.py", line 12, in getfixturevalue
panic: runtime error
goroutine 1 [running]:
github.com/x/y/engine.(*Ranker).Query(0xc000, 0x1)
	/home/u/y/engine/rank.go:123 +0x1d
    at renderPage (web/src/page.ts:3:9)
see engine/pack.go:41 and score.go`
	a := analyze(q)
	var paths []string
	for _, p := range a.paths {
		paths = append(paths, p.path)
	}
	for _, want := range []string{"/usr/lib/python3/site-packages/_pytest/runner.py", "src/_pytest/fixtures.py", "web/src/page.ts", "/home/u/y/engine/rank.go", "engine/pack.go", "score.go"} {
		if !slices.Contains(paths, want) {
			t.Errorf("path %q not found in %q", want, paths)
		}
	}
	m := terms(a)
	for _, want := range []string{"=from_call", "=getfixturevalue", "=ranker.query", "=renderpage", "/rank.go", "/fixtures.py"} {
		if _, ok := m[want]; !ok {
			t.Errorf("missing term %q", want)
		}
	}
	for _, p := range a.paths {
		if p.path == "engine/pack.go" && p.line != 41 {
			t.Errorf("line of engine/pack.go = %d, want 41", p.line)
		}
	}
}

func TestAnalyzeHostile(t *testing.T) {
	for _, q := range []string{"", " ", "::::", "`", "```", strings.Repeat("a.", 10000), "\x00\xff\xfe", strings.Repeat("File \"x.py\", line 1, in f\n", 500), "((((", "a:b:c"} {
		a := analyze(q)
		if len(a.terms) > maxQueryTerms {
			t.Errorf("%d terms for %q", len(a.terms), q[:min(20, len(q))])
		}
	}
}

func TestPhraseFiles(t *testing.T) {
	var pages []graph.Page
	for _, p := range []string{"scripts/update-plugin-list.py", "src/_pytest/config/__init__.py", "src/plugin.py", "pkg/rateLimiter.go", "list/plugin.go"} {
		pages = append(pages, graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: path.Base(p), Path: p})
	}
	ix := NewIndex(graph.NewGraph(pages, nil))
	b, err := ix.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if ix, err = UnmarshalIndex(b); err != nil {
		t.Fatal(err)
	}
	files := func(q string) []string {
		var out []string
		for p := range ix.phraseFiles(q) {
			out = append(out, ix.path(p))
		}
		slices.Sort(out)
		return out
	}
	for q, want := range map[string][]string{
		"Add `logot` to plugin list":           {"scripts/update-plugin-list.py"}, // not plugin.py, not list/plugin.go (a directory is no stem)
		"where is the limiter rate configured": {"pkg/rateLimiter.go"},            // camelCase stems and either word order
		"retry":                                nil,                               // one word has no pair
		"list the plugin":                      {"scripts/update-plugin-list.py"}, // stop words between do not break the pair
	} {
		if got := files(q); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}

// TestAnalyzeLongQuestion: in a question of several lines (an issue), the
// title weighs as a one-line question, the body's names above its prose,
// and a code block's plain words least; the phrase factor reads the title.
func TestAnalyzeLongQuestion(t *testing.T) {
	q := "Header rows fail in restructured output\n" +
		"When writing a table the writer ignores `header_rows` and the output is wrong.\n" +
		"```python\n" +
		">>> tbl.write(sys.stdout, format=\"ascii.rst\", header_rows=[\"name\"])\n" +
		"collected items platform darwin\n" +
		"```\n"
	a := analyze(q)
	m := terms(a)
	one := terms(analyze("header rows fail in restructured output"))
	if m["header"].weight <= one["header"].weight*0.99 {
		t.Errorf("a title word weighs %v, less than in a one-line question (%v)", m["header"].weight, one["header"].weight)
	}
	if m[stem("writing")].weight >= m[stem("restructured")].weight {
		t.Errorf("a body prose word (%v) must weigh less than a title word (%v)", m[stem("writing")], m[stem("restructured")])
	}
	if m["=header_rows"].weight <= m[stem("writing")].weight {
		t.Errorf("a named thing of the body (%v) must weigh more than its prose (%v)", m["=header_rows"], m[stem("writing")])
	}
	if m["platform"].weight >= m[stem("writing")].weight {
		t.Errorf("a plain word in a code block (%v) must weigh less than body prose (%v)", m["platform"], m[stem("writing")])
	}
	if a.phrase != "Header rows fail in restructured output" {
		t.Errorf("phrase text = %q, want the title", a.phrase)
	}
	if s := analyze("format a price"); s.phrase != "format a price" {
		t.Errorf("phrase text of a one-line question = %q", s.phrase)
	}
}

// TestAnalyzeCompounds: adjacent plain words also ask for the name they
// spell written together, camel or snake; a stop word, punctuation or a
// code token between ends the run, and a long question's body spells none.
func TestAnalyzeCompounds(t *testing.T) {
	m := terms(analyze("type adapter factory for the event loop, json. element"))
	for _, want := range []string{"=typeadapter", "=adapterfactory", "=typeadapterfactory", "=type_adapter_factory", "=eventloop", "=event_loop"} {
		if _, ok := m[want]; !ok {
			t.Errorf("missing compound %q", want)
		}
	}
	for _, not := range []string{"=factoryevent", "=factorythe", "=loopjson", "=jsonelement"} {
		if _, ok := m[not]; ok {
			t.Errorf("compound %q across a break", not)
		}
	}
	if m["=eventloop"].weight <= m["=event"].weight {
		t.Errorf("a compound (%v) must weigh more than a plain word as a name (%v)", m["=eventloop"], m["=event"])
	}
	long := terms(analyze("Loop hangs\nthe event loop never wakes"))
	if _, ok := long["=eventloop"]; ok {
		t.Error("compound from a long question's body")
	}
}

// TestAnalyzeBareFileNames: a capitalised word may name a file without an
// extension (Makefile, Dockerfile); lower-case and short words do not.
func TestAnalyzeBareFileNames(t *testing.T) {
	var bare []string
	for _, p := range analyze("Makefile target for the Dockerfile and make").paths {
		if p.bare {
			bare = append(bare, p.path)
		}
	}
	if !slices.Equal(bare, []string{"Makefile", "Dockerfile"}) {
		t.Errorf("bare file names %q, want Makefile and Dockerfile", bare)
	}
}

// TestQueryClassFactors: of two pages with the same text, the core source
// file ranks above code under examples/ (auxFactor), a YAML file (dataFactor) and a directory's module page
// (moduleFactor), though they match the question a little better; each
// pair fails with its factor switched off.
func TestQueryClassFactors(t *testing.T) {
	const doc = "Retry the upload with exponential backoff"
	core := graph.Page{ID: graph.FileID("pkg/upload.go"), Kind: graph.KindFile, Title: "pkg/upload.go", Name: "upload.go", Path: "pkg/upload.go", Lang: "go", Doc: doc}
	for name, other := range map[string]graph.Page{
		"aux":    {ID: graph.FileID("examples/upload.go"), Kind: graph.KindFile, Title: "examples/upload.go", Name: "upload.go", Path: "examples/upload.go", Lang: "go", Doc: doc},
		"data":   {ID: graph.FileID("ci/upload.yml"), Kind: graph.KindFile, Title: "ci/upload.yml", Name: "upload.yml", Path: "ci/upload.yml", Lang: "yaml", Doc: doc},
		"module": {ID: graph.ModuleID("upload/retry"), Kind: graph.KindModule, Title: "upload/retry", Name: "retry", Path: "upload/retry", Doc: doc},
	} {
		ix := NewIndex(graph.NewGraph([]graph.Page{core, other}, nil))
		r := query(t, ix, "upload retry backoff", Options{})
		if len(r.Results) == 0 || r.Results[0].ID != core.ID {
			t.Errorf("%s: top is not the core file\n%s", name, r.Render())
		}
	}
}

// TestQueryDocAndMemoryFactors guards the two kind factors the class test
// cannot: a Markdown section whose text matches a little better than a
// source file's still ranks below it (docFactor: code questions want code
// first), and a memory whose text matches a little worse than a file's
// ranks above it (memoryFactor: authored facts are few and deliberate).
// Each pair's raw text scores lie within the factor, so switching the
// factor to 1 flips the order.
func TestQueryDocAndMemoryFactors(t *testing.T) {
	file := graph.Page{ID: graph.FileID("pkg/transfer.go"), Kind: graph.KindFile, Title: "pkg/transfer.go", Name: "transfer.go", Path: "pkg/transfer.go", Lang: "go",
		Doc: "Retry the upload with exponential backoff after a failed request", Literals: []string{"backoff"}}
	section := graph.Page{ID: graph.DocID("docs/guide.md", "retry-uploads"), Kind: graph.KindDoc, Title: "Retry uploads", Name: "Retry uploads", Path: "docs/guide.md", Lang: "markdown",
		Doc: "Retry the upload with exponential backoff: retry, backoff, upload"}
	memory := graph.Page{ID: "memory:client-retries", Kind: graph.KindMemory, Title: "client notes", Name: "client notes",
		Doc: "Retry the upload in the client when a request fails: the backoff doubles each time, up to a minute, and the client gives up after ten tries"}
	for _, tc := range []struct {
		name       string
		other      graph.Page
		wantFirst  string
		factorName string
	}{
		{"doc", section, file.ID, "docFactor"},
		{"memory", memory, memory.ID, "memoryFactor"},
	} {
		ix := NewIndex(graph.NewGraph([]graph.Page{file, tc.other}, nil))
		r := query(t, ix, "upload retry backoff", Options{Explain: true})
		if len(r.Results) < 2 || r.Results[0].ID != tc.wantFirst {
			t.Errorf("%s: %s first, want %s (%s)\n%s", tc.name, firstID(r), tc.wantFirst, tc.factorName, r.Render())
		}
		for _, res := range r.Results {
			t.Logf("%s: %s %s", tc.name, res.ID, res.Explain)
		}
	}
}

func firstID(r Result) string {
	if len(r.Results) == 0 {
		return "nothing"
	}
	return r.Results[0].ID
}

// TestQueryHelperFactor guards helperFactor: a bench, mock, fixture, test
// utility or helper crate holding the same text as the core file ranks
// below it (its path sorts first, so without the factor the tie would put
// it on top), unless the question names it.
func TestQueryHelperFactor(t *testing.T) {
	const doc = "Retry the upload with exponential backoff"
	file := func(p string) graph.Page {
		return graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: path.Base(p), Path: p, Lang: "go", Doc: doc}
	}
	core := file("src/upload.go")
	for _, p := range []string{"benches/upload.go", "mocks/upload.go", "fixtures/upload.go", "testutil/upload.go",
		"net-util/upload.go", "net-test/upload.go", "src/mock_upload.go"} {
		ix := NewIndex(graph.NewGraph([]graph.Page{core, file(p)}, nil))
		r := query(t, ix, "upload retry backoff", Options{Explain: true})
		if len(r.Results) < 2 || r.Results[0].ID != core.ID || !strings.Contains(r.Results[1].Explain, "helper×") {
			t.Errorf("%s: top is %s, want the core file above the helper\n%s", p, firstID(r), explainAll(r))
		}
	}
	// A question naming the helper does not demote it.
	ix := NewIndex(graph.NewGraph([]graph.Page{core, file("benches/upload.go")}, nil))
	r := query(t, ix, "upload retry backoff bench", Options{Explain: true})
	if len(r.Results) < 2 || r.Results[0].ID != graph.FileID("benches/upload.go") {
		t.Errorf("a question naming the bench: top is %s\n%s", firstID(r), explainAll(r))
	}
}

// TestQueryNameFactor guards nameFactor: a file whose name is made of the
// question's words (or, for a central file such as mod.rs, whose
// directory's name is) ranks above a file whose text matches a little
// better; the leading component does not count (the component boosts match
// it). Each pair's raw scores lie within the factor, so switching it to 1
// flips the order.
func TestQueryNameFactor(t *testing.T) {
	page := func(p, doc string) graph.Page {
		return graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: path.Base(p), Path: p, Lang: "rust", Doc: doc}
	}
	for _, tc := range []struct {
		name, q      string
		named, other graph.Page
	}{
		{"stem", "how formatter turns records into lines",
			page("src/formatter.rs", "Turns records into lines"),
			graph.Page{ID: graph.FileID("src/writer.rs"), Kind: graph.KindFile, Title: "src/writer.rs", Name: "writer.rs", Path: "src/writer.rs", Lang: "rust",
				Doc: "The formatter turns records into lines: records, lines", Idents: []string{"formatter", "turn", "records", "lines"}, Literals: []string{"formatter"}}},
		{"central", "how extract parses request parts",
			page("axum/src/extract/mod.rs", "Parses request parts"),
			page("axum/src/extract/query.rs", "Extract parses request parts: parts of the request")},
	} {
		ix := NewIndex(graph.NewGraph([]graph.Page{tc.named, tc.other}, nil))
		r := query(t, ix, tc.q, Options{Explain: true})
		if len(r.Results) < 2 || r.Results[0].ID != tc.named.ID || !strings.Contains(r.Results[0].Explain, "name×") {
			t.Errorf("%s: top is %s, want %s\n%s", tc.name, firstID(r), tc.named.ID, explainAll(r))
		}
	}
	// The leading component is not a name the question gives its answer.
	ix := NewIndex(graph.NewGraph([]graph.Page{page("src/formatter.rs", "Turns records into lines")}, nil))
	r := query(t, ix, "formatter: turn records into lines", Options{Explain: true})
	if len(r.Results) == 0 || strings.Contains(r.Results[0].Explain, "name×") {
		t.Errorf("the component named the file\n%s", explainAll(r))
	}
}

func explainAll(r Result) string {
	var b strings.Builder
	for _, res := range r.Results {
		b.WriteString(res.ID + ": " + res.Explain + "\n")
	}
	return b.String()
}

// TestProjectWords guards projectWords: a directory word on the paths of a
// large share of the core code names the project (so "shop" does not name
// shop/shop.py), a word of a few files does not, and test files do not
// count towards the share.
func TestProjectWords(t *testing.T) {
	var pages []graph.Page
	file := func(p string) {
		pages = append(pages, graph.Page{ID: graph.FileID(p), Kind: graph.KindFile, Title: p, Name: path.Base(p), Path: p, Lang: "python", Doc: "some text"})
	}
	for _, d := range []string{"shop", "tools", "tests"} {
		pages = append(pages, graph.Page{ID: graph.ModuleID(d), Kind: graph.KindModule, Title: d, Name: d, Path: d})
	}
	for i := range 30 {
		file(fmt.Sprintf("shop/part%d.py", i))
	}
	for i := range 5 {
		file(fmt.Sprintf("tools/tool%d.py", i))
	}
	for i := range 60 {
		file(fmt.Sprintf("tests/test_cart%d.py", i)) // test files: not core code
	}
	ix := NewIndex(graph.NewGraph(pages, nil))
	got := ix.projectWords()
	if !slices.Equal(got, []string{"shop"}) {
		t.Errorf("project words %q, want shop alone (not the stems part and tool, nor test and cart of the tests)", got)
	}
	// The name signal: a file named by the project word alone is not named
	// by the question; one named by it and other words is named by those.
	named := append(slices.Clone(pages), graph.Page{ID: graph.FileID("shop/shop.py"), Kind: graph.KindFile, Title: "shop/shop.py", Name: "shop.py", Path: "shop/shop.py", Lang: "python", Doc: "the shop's main"},
		graph.Page{ID: graph.FileID("shop/shop_cart.py"), Kind: graph.KindFile, Title: "shop/shop_cart.py", Name: "shop_cart.py", Path: "shop/shop_cart.py", Lang: "python", Doc: "the cart's main"})
	nix := NewIndex(graph.NewGraph(named, nil))
	for q, want := range map[string]string{"the shop main": "name×1 (project words)", "the cart main": "name×1.20"} {
		r := query(t, nix, q, Options{Explain: true})
		if len(r.Results) == 0 || !strings.Contains(r.Results[0].Explain, want) {
			t.Errorf("%q: want %q in the top result's explain\n%s", q, want, explainAll(r))
		}
	}
	// A project word written as a qualifier names its module; as a bare
	// word or command it does not.
	for q, want := range map[string]int{"Remove `pytest.Instance`": 0, "run `pytest --fixtures`": 1, "a pytest bug": 1} {
		a := analyze(q)
		if got := a.unnamed([]string{"pytest"}); len(got) != want {
			t.Errorf("%q: unnamed project words %q, want %d", q, got, want)
		}
	}
	// A small index has none.
	small := NewIndex(graph.NewGraph(pages[:8], nil))
	if got := small.projectWords(); len(got) != 0 {
		t.Errorf("a five-file index has project words %q", got)
	}
}
