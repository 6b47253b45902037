package graph

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// dumpGraph renders every page and edge of a stored generation as stable text.
func dumpGraph(t *testing.T, g *Graph) string {
	var b strings.Builder
	for i := range g.Pages {
		p := &g.Pages[i]
		fmt.Fprintf(&b, "%s [%s", p.ID, p.Kind)
		if p.SymKind != "" {
			fmt.Fprintf(&b, " %s", p.SymKind)
		}
		if p.Test {
			b.WriteString(" test")
		}
		fmt.Fprintf(&b, "] L%d-%d %q", p.Line, p.EndLine, p.Title)
		if p.Doc != "" {
			doc := p.Doc
			if len(doc) > 60 {
				doc = doc[:60] + "…"
			}
			fmt.Fprintf(&b, " doc=%q", doc)
		}
		b.WriteByte('\n')
	}
	var edges []string
	for _, e := range g.Edges() {
		edges = append(edges, fmt.Sprintf("%s -%s-> %s", g.Pages[e.From].ID, e.Type, g.Pages[e.To].ID))
	}
	sort.Strings(edges)
	b.WriteString("\n")
	b.WriteString(strings.Join(edges, "\n"))
	b.WriteString("\n")
	return b.String()
}

// loadGraph rebuilds the in-memory graph from a snapshot's file records.
func loadGraph(t *testing.T, s *Snapshot) *Graph {
	g, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	var recs []*FileRecord
	if err := s.EachFileRecord(func(r *FileRecord) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	_ = recs
	return g
}

// buildFixture builds a copy of fixtures/name and opens it.
func buildFixture(t *testing.T, name string) (*Snapshot, *BuildInfo) {
	t.Helper()
	root := walktest.CopyFixture(t, name)
	info := build(t, root, false)
	return open(t, root), info
}

// TestGoldenPolyglot builds the twelve-language fixture and compares every
// page and edge with the golden file.
func TestGoldenPolyglot(t *testing.T) {
	s, info := buildFixture(t, "polyglot")
	for _, lang := range []string{"go", "python", "javascript", "typescript", "tsx", "rust", "java", "c", "cpp", "csharp", "ruby", "php", "markdown"} {
		if info.Languages[lang] == 0 {
			t.Errorf("fixture has no %s file indexed (languages: %v)", lang, info.Languages)
		}
	}
	g := loadGraph(t, s)
	// Every language must yield symbols with resolved references, not just files.
	refsByLang := map[string]int{}
	for _, e := range g.Edges() {
		if e.Type == References {
			refsByLang[g.Pages[e.From].Lang]++
		}
	}
	for _, lang := range []string{"go", "python", "javascript", "typescript", "rust", "java", "c", "cpp", "csharp", "ruby", "php"} {
		if refsByLang[lang] == 0 {
			t.Errorf("no reference edges from %s code", lang)
		}
	}
	if info.Pages["doc"] == 0 {
		t.Error("no doc pages from Markdown")
	}
	walktest.Golden(t, "polyglot.golden", dumpGraph(t, g))
	// Stored page records agree with the graph.
	for i := range g.Pages {
		rec, err := s.Page(g.Pages[i].ID)
		if err != nil {
			t.Fatalf("page %s: %v", g.Pages[i].ID, err)
		}
		if rec.Title != g.Pages[i].Title || rec.Line != g.Pages[i].Line {
			t.Fatalf("stored page %s differs: %+v", rec.ID, rec.Page)
		}
	}
}
