package engine

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// TestLanguageQueries asks, for each fixture under fixtures/languages, the
// questions in testdata/languages/NAME.queries and requires the named page
// among the first three results. A line is "QUESTION<TAB>PAGE-ID"; lines that
// start with # are comments. The questions are written from a definition's
// doc comment (a word or phrase of it, not its name), so each language's
// docs, names and kinds are shown to reach the ranking index.
func TestLanguageQueries(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "languages", "*.queries"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no testdata/languages/*.queries")
	}
	for _, qf := range files {
		name := strings.TrimSuffix(filepath.Base(qf), ".queries")
		t.Run(name, func(t *testing.T) {
			ix, err := Load(fixtureSnapshot(t, filepath.Join("languages", name)))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(qf)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			asked := 0
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				q, want, ok := strings.Cut(line, "\t")
				if !ok {
					t.Fatalf("%s: line %q has no tab", qf, line)
				}
				asked++
				res, err := ix.Query(context.Background(), q, Options{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for i, r := range res.Results {
					if i == 3 {
						break
					}
					got = append(got, r.ID)
				}
				found := false
				for _, id := range got {
					found = found || id == want
				}
				if !found {
					t.Errorf("%q: want %s in the top 3, got %v", q, want, got)
				}
			}
			if asked == 0 {
				t.Fatalf("%s asks nothing", qf)
			}
		})
	}
}

// fixtureSnapshot indexes a copy of fixtures/NAME with the ranking index and
// opens it.
func fixtureSnapshot(t *testing.T, name string) *graph.Snapshot {
	t.Helper()
	snap, _ := graphtest.BuildFixture(t, name, graph.BuildOptions{Segment: BuildBlobs, BlobsFormat: Format})
	return snap
}
