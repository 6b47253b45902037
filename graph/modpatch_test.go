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
	readShards, allShards := 0, 0
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
		// The same change on the module piece cut into shards of 1 to 4
		// pages, as an incremental build makes it: only the shards
		// holding a directory changedDirs names are read and patched.
		limit := 1 + round%4
		shards := cutModules(old, oldDocs, nil, limit)
		gone := map[string]bool{}
		for _, p := range changed {
			gone[p] = true
		}
		i, j := 0, 0
		for i < len(docs) || j < len(oldDocs) { // the files whose candidate changed
			switch {
			case j == len(oldDocs) || i < len(docs) && docs[i].Path < oldDocs[j].Path:
				gone[docs[i].Path] = true
				i++
			case i == len(docs) || oldDocs[j].Path < docs[i].Path:
				gone[oldDocs[j].Path] = true
				j++
			default:
				if docs[i] != oldDocs[j] {
					gone[docs[i].Path] = true
				}
				i, j = i+1, j+1
			}
		}
		froms := make([]string, len(shards))
		for k, sh := range shards {
			froms[k] = sh.from
		}
		hit := map[int]bool{}
		for d := range changedDirs(changed, gone, nil) {
			hit[shardOfDir(froms, d)] = true
		}
		var read, final []modShard
		for k, sh := range shards {
			if hit[k] {
				read = append(read, sh)
			} else {
				final = append(final, sh)
			}
		}
		readMods, readDocs := joinModules(read)
		var hitDocs []docCandidate // the candidates after the change in the shards read
		for _, c := range docs {
			if hit[shardOfDir(froms, dirOf(c.Path))] {
				hitDocs = append(hitDocs, c)
			}
		}
		write, stand := reshard(read, patchModules(readMods, newPaths, changed, hitDocs, readDocs), hitDocs, limit)
		for k, sh := range read {
			if stand[k] {
				final = append(final, sh)
			}
		}
		final = append(final, write...)
		slices.SortFunc(final, func(a, b modShard) int { return strings.Compare(a.from, b.from) })
		final[0].from = ""
		joined, joinedDocs := joinModules(final)
		if !reflect.DeepEqual(joined.Pages, want.Pages) || !slices.Equal(joined.Edges, want.Edges) || !slices.Equal(joinedDocs, docs) {
			t.Fatalf("round %d, shards of %d: %d old paths, changed %q, %d of %d shards read\njoined %d pages %v\nwant   %d pages %v",
				round, limit, len(oldPaths), changed, len(read), len(shards), len(joined.Pages), pagePaths(joined), len(want.Pages), pagePaths(want))
		}
		for k, sh := range final {
			if len(sh.pc.Pages) == 0 || len(sh.pc.Pages) > 2*limit && k > 0 {
				t.Fatalf("round %d: shard %d holds %d pages (limit %d)", round, k, len(sh.pc.Pages), limit)
			}
			for _, p := range sh.pc.Pages {
				if shardOfDir(shardFroms(final), p.Path) != k {
					t.Fatalf("round %d: %s is in shard %d, from %q", round, p.Path, k, sh.from)
				}
			}
			for _, c := range sh.docs {
				if shardOfDir(shardFroms(final), dirOf(c.Path)) != k {
					t.Fatalf("round %d: candidate %s is in shard %d, from %q", round, c.Path, k, sh.from)
				}
			}
		}
		readShards += len(read)
		allShards += len(shards)
	}
	if readShards*3 > allShards*2 {
		t.Errorf("the changes read %d shards of %d", readShards, allShards)
	}
	t.Logf("the changes read %d shards of %d", readShards, allShards)
}

func shardFroms(shards []modShard) []string {
	out := make([]string, len(shards))
	for k, sh := range shards {
		out[k] = sh.from
	}
	return out
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
