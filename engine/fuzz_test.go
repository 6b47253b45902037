package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// FuzzPack proves the packer never exceeds its budget and that UsedTokens is
// exactly the count of the rendered answer, for any stubs and any budget.
func FuzzPack(f *testing.F) {
	f.Add("symbol:a.go#F\nfunc F()\nF does things", 3, 40)
	f.Add(strings.Repeat("x", 500), 50, 7)
	f.Add("\n\n\t\t€€€ \x00\xff", 9, 1)
	f.Add("a", 0, 0)
	f.Fuzz(func(t *testing.T, text string, nStubs, budget int) {
		nStubs = min(max(nStubs, 0)%200, 200)
		budget = max(budget, -5) % 30000
		r := Result{Query: text, BudgetTokens: budget, Results: []Stub{}}
		if r.BudgetTokens <= 0 {
			r.BudgetTokens = DefaultBudgetTokens
		}
		r.BudgetTokens = min(r.BudgetTokens, MaxBudgetTokens)
		p := newPacker(&r)
		parts := strings.Split(text, "\n")
		for i := range nStubs {
			part := func(k int) string { return parts[(i+k)%len(parts)] }
			s := Stub{ID: part(0), Kind: "symbol", Title: part(1), Path: part(2), Line: i, Snippet: part(3), Explain: part(4)}
			if i%3 == 0 {
				s.Symbols = strings.Fields(part(5))
				for range s.Symbols {
					s.symLines = append(s.symLines, i)
				}
			}
			if p.full() {
				r.More += nStubs - i
				r.Truncated = true
				break
			}
			p.add(s)
		}
		p.finish()
		out := r.Render()
		if got := CountTokens(out); got != r.UsedTokens || got > r.BudgetTokens {
			t.Fatalf("used %d, rendered %d, budget %d", r.UsedTokens, got, r.BudgetTokens)
		}
	})
}

// FuzzQuery runs whole queries over a graph built from fuzz input: no panics,
// never over budget.
func FuzzQuery(f *testing.F) {
	f.Add("parseConfig Ranker.Query engine/rank.go:12", "engine/rank.go Ranker Query parseConfig", 100)
	f.Add(`File "x.py", line 3, in f`, "x.py f g h", 5)
	f.Add("fix(tree): a::b", "tree.go a b", 2000)
	f.Fuzz(func(t *testing.T, q, names string, budget int) {
		if !utf8.ValidString(names) {
			names = strings.ToValidUTF8(names, "?")
		}
		words := strings.Fields(names)
		if len(words) > 200 {
			words = words[:200]
		}
		var pages []graph.Page
		var edges []graph.Edge
		for i, w := range words {
			path := strings.Trim(w, "/")
			if path == "" {
				path = "x"
			}
			pages = append(pages, graph.Page{ID: graph.FileID(path) + strings.Repeat("+", i), Kind: graph.KindFile, Title: path, Name: w, Path: path, Idents: words[i:min(len(words), i+3)]})
			pages = append(pages, graph.Page{ID: graph.SymbolID(path, w) + strings.Repeat("+", i), Kind: graph.KindSymbol, Title: "func " + w + "()", Name: w, Qualified: w, Path: path, Line: i, Doc: names})
			edges = append(edges, graph.Edge{From: uint32(2 * i), To: uint32(2*i + 1), Type: graph.Contains})
			if i > 0 {
				edges = append(edges, graph.Edge{From: uint32(2*i + 1), To: uint32(2*i - 1), Type: graph.References})
			}
		}
		ix := NewIndex(graph.NewGraph(pages, edges))
		b, err := ix.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if ix, err = UnmarshalIndex(b); err != nil {
			t.Fatal(err)
		}
		r, err := ix.Query(context.Background(), q, Options{BudgetTokens: budget, Explain: budget%2 == 0, Focus: words[:min(2, len(words))]})
		if err != nil {
			t.Fatal(err)
		}
		if got := CountTokens(r.Render()); got != r.UsedTokens || got > r.BudgetTokens {
			t.Fatalf("used %d, rendered %d, budget %d", r.UsedTokens, got, r.BudgetTokens)
		}
	})
}

// FuzzOpenSegments opens segments one of which is altered: an error is an
// ErrBadIndex, an index that opens answers without panicking.
func FuzzOpenSegments(f *testing.F) {
	sd := splitSegments(f, testGraph(f), 2, 1, 0.3, 0.2)
	for i, s := range sd.segs {
		f.Add(i, s.Engine)
	}
	f.Fuzz(func(t *testing.T, which int, b []byte) {
		segs := slices.Clone(sd.segs)
		segs[uint(which)%uint(len(segs))].Engine = b
		ix, err := OpenSegments(segs)
		if err != nil {
			if !errors.Is(err, ErrBadIndex) {
				t.Fatalf("error %v is not ErrBadIndex", err)
			}
			return
		}
		for _, q := range []string{"how are tokens counted", "parseConfig", "engine/rank.go:3", "parser: yaml"} {
			if _, err := ix.Query(context.Background(), q, Options{Explain: true, Focus: []string{"engine/pack.go"}}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
