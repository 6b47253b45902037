package graph

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestGoldenLanguages builds each repository under fixtures/languages (one
// per language or file kind, written for these tests) and compares every
// page and edge with testdata/languages/NAME.golden. Each fixture must yield
// at least one symbol or doc page: a language whose files come out empty is
// a regression, not a smaller golden file.
func TestGoldenLanguages(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("..", "fixtures", "languages"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		n++
		t.Run(d.Name(), func(t *testing.T) {
			s, _ := buildFixture(t, filepath.Join("languages", d.Name()))
			g := loadGraph(t, s)
			defs := 0
			for i := range g.Pages {
				if k := g.Pages[i].Kind; k == KindSymbol || k == KindDoc {
					defs++
				}
			}
			if defs == 0 {
				t.Errorf("fixtures/languages/%s yields no symbol or doc page", d.Name())
			}
			walktest.Golden(t, filepath.Join("languages", d.Name()+".golden"), dumpGraph(t, g))
		})
	}
	if n == 0 {
		t.Skip("no fixtures under fixtures/languages")
	}
}
