package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/parser"
)

// TestPatchModules: over random trees and random changes (files added in
// new and existing directories, files and whole directories removed, doc
// candidates added, changed and dropped, the root's included),
// patchModules of the old module piece is exactly modulesOf of the new
// tree: every page and edge, in order.
func TestPatchModules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"a", "b", "lib", "util", "test", "cmd", "x-y", "z.d"}
	files := []string{"main.go", "doc.go", "README.md", "__init__.py", "x.go", "y_test.go", "index.ts"}
	randPath := func() string {
		var el []string
		for range rng.IntN(4) {
			el = append(el, names[rng.IntN(len(names))])
		}
		return strings.Join(append(el, files[rng.IntN(len(files))]), "/")
	}
	cand := func(p string) (docCandidate, bool) {
		r := &FileRecord{Path: p, Lang: "go"}
		if strings.HasSuffix(p, ".md") {
			r.Lang = "markdown"
		}
		c := docCandidate{Path: p, Lang: r.Lang, Doc: fmt.Sprintf("Package %d", rng.IntN(3))}
		r.Facts = &parser.Facts{Doc: c.Doc}
		return c, ModuleDocPriority(r) > 0
	}
	for round := range 300 {
		set := map[string]bool{}
		for range 5 + rng.IntN(60) {
			set[randPath()] = true
		}
		oldPaths := slices.Sorted(mapKeys(set))
		var oldDocs []docCandidate
		for _, p := range oldPaths {
			if c, ok := cand(p); ok && rng.IntN(3) > 0 {
				oldDocs = append(oldDocs, c)
			}
		}
		// The change.
		newSet := map[string]bool{}
		for _, p := range oldPaths {
			newSet[p] = true
		}
		var changed []string
		for range rng.IntN(6) {
			switch rng.IntN(3) {
			case 0: // a file added, maybe in a new directory
				if p := randPath() + fmt.Sprint(round); !newSet[p] {
					newSet[p] = true
					changed = append(changed, p)
				}
			case 1: // a file removed
				if len(oldPaths) > 0 {
					if p := oldPaths[rng.IntN(len(oldPaths))]; newSet[p] {
						delete(newSet, p)
						changed = append(changed, p)
					}
				}
			case 2: // a whole directory removed
				if len(oldPaths) > 0 {
					d := dirOf(oldPaths[rng.IntN(len(oldPaths))])
					for p := range newSet {
						if d == "." || strings.HasPrefix(p, d+"/") {
							delete(newSet, p)
							changed = append(changed, p)
						}
					}
				}
			}
		}
		newPaths := slices.Sorted(mapKeys(newSet))
		var docs []docCandidate
		for _, c := range oldDocs {
			if newSet[c.Path] && rng.IntN(8) > 0 {
				if rng.IntN(5) == 0 {
					c.Doc += " changed"
				}
				docs = append(docs, c)
			}
		}
		for _, p := range newPaths {
			if c, ok := cand(p); ok && !slices.ContainsFunc(docs, func(d docCandidate) bool { return d.Path == p }) && rng.IntN(4) == 0 {
				docs = append(docs, c)
			}
		}
		slices.SortFunc(docs, func(a, b docCandidate) int { return strings.Compare(a.Path, b.Path) })
		old := modulesOf(oldPaths, oldDocs)
		got := patchModules(old, newPaths, changed, docs, oldDocs)
		want := modulesOf(newPaths, docs)
		if !reflect.DeepEqual(got.Pages, want.Pages) || !reflect.DeepEqual(got.Edges, want.Edges) {
			t.Fatalf("round %d: %d old paths, changed %q\npatched %d pages %v\nwant    %d pages %v", round, len(oldPaths), changed,
				len(got.Pages), pagePaths(got), len(want.Pages), pagePaths(want))
		}
	}
}

func mapKeys(m map[string]bool) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func pagePaths(pc Piece) []string {
	var out []string
	for _, p := range pc.Pages {
		out = append(out, p.Path+"="+p.Doc)
	}
	return out
}
