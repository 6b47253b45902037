package graph

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

// patchModules is modulesOf(newPaths, docs) made from old, the module
// piece of the tree before the change (modulesOf of the old paths and
// oldDocs, as the modules segment stores it), given the paths the change
// added or removed (changed) and the doc candidates before and after.
// Only the directories of those paths (with their ancestors) and of the
// candidates that differ are looked at again: a file in a new directory
// at 100k files made every module page anew from every path (82.5k
// directories, 260 ms) for one page and one edge. The pages and edges
// are the same as modulesOf's, in the same order (TestPatchModules).
// old may be some of the tree's module shards (modshard.go) if they hold
// every directory looked at: the result is then those shards' part of
// modulesOf's piece, edges to other shards' directories included.
func patchModules(old Piece, newPaths, changed []string, docs, oldDocs []docCandidate) Piece {
	look := map[string]bool{}
	addDirsOf(look, changed)
	redoc := map[string]bool{} // directories whose candidates differ
	i, j := 0, 0
	for i < len(docs) || j < len(oldDocs) {
		switch {
		case j == len(oldDocs) || i < len(docs) && docs[i].Path < oldDocs[j].Path:
			redoc[dirOf(docs[i].Path)] = true
			i++
		case i == len(docs) || oldDocs[j].Path < docs[i].Path:
			redoc[dirOf(oldDocs[j].Path)] = true
			j++
		default:
			if docs[i] != oldDocs[j] {
				redoc[dirOf(docs[i].Path)] = true
			}
			i, j = i+1, j+1
		}
	}
	for d := range redoc {
		look[d] = true
	}
	at := func(d string) (int, bool) {
		return slices.BinarySearchFunc(old.Pages, d, func(p Page, d string) int { return strings.Compare(p.Path, d) })
	}
	// What becomes of each directory looked at: dropped (nil), remade or
	// added (a page), or kept as it was (absent).
	now := map[string]*Page{}
	var added []string
	for d := range look {
		_, had := at(d)
		if d != "." && !hasDirIn(newPaths, d) {
			if had {
				now[d] = nil
			}
			continue
		}
		if had && !redoc[d] {
			continue
		}
		name := path.Base(d)
		if d == "." {
			name = "."
		}
		now[d] = &Page{ID: ModuleID(d), Kind: KindModule, Title: d, Name: name, Path: d, Doc: moduleDoc(d, docs), Test: d != "." && walk.IsTest(d+"/x")}
		if !had {
			added = append(added, d)
		}
	}
	sort.Strings(added)
	pc := Piece{Pages: make([]Page, 0, len(old.Pages)+len(added))}
	k := 0
	for _, p := range old.Pages {
		for k < len(added) && added[k] < p.Path {
			pc.Pages = append(pc.Pages, *now[added[k]])
			k++
		}
		if np, ok := now[p.Path]; ok {
			if np != nil {
				pc.Pages = append(pc.Pages, *np)
			}
			continue
		}
		pc.Pages = append(pc.Pages, p)
	}
	for ; k < len(added); k++ {
		pc.Pages = append(pc.Pages, *now[added[k]])
	}
	pc.Edges = make([]PieceEdge, 0, len(pc.Pages))
	find := func(pages []Page, d string) (int, bool) {
		return slices.BinarySearchFunc(pages, d, func(p Page, d string) int { return strings.Compare(p.Path, d) })
	}
	for i := range pc.Pages {
		d := pc.Pages[i].Path
		if d == "." {
			continue
		}
		// A parent outside the piece (old is some of the tree's module
		// shards) is in a shard the change does not touch, which holds
		// the edge: the parent of a directory looked at is looked at.
		if parent, ok := find(pc.Pages, dirOf(d)); ok {
			pc.Edges = append(pc.Edges, PieceEdge{From: uint32(parent), To: pc.Pages[i].ID, Type: Contains})
		}
	}
	// The edges of old to directories outside it stand (their targets are
	// not looked at, so neither is their parent's existence in doubt).
	for _, e := range old.Edges {
		to := strings.TrimPrefix(e.To, "module:")
		if _, in := find(old.Pages, to); in {
			continue
		}
		if from, ok := find(pc.Pages, old.Pages[e.From].Path); ok {
			e.From = uint32(from)
			pc.Edges = append(pc.Edges, e)
		}
	}
	pc.sortEdges()
	return pc
}

// addDirsOf adds to dirs the directory of each path and its ancestors.
func addDirsOf(dirs map[string]bool, paths []string) {
	for _, p := range paths {
		for d := dirOf(p); !dirs[d]; d = dirOf(d) {
			dirs[d] = true
			if d == "." {
				break
			}
		}
	}
}

// hasDirIn reports whether a path of the sorted paths lies below d.
func hasDirIn(paths []string, d string) bool {
	i, _ := slices.BinarySearch(paths, d+"/")
	return i < len(paths) && strings.HasPrefix(paths[i], d+"/")
}

// moduleDoc is the doc ModulePiece gives directory d's module page: of
// the candidates directly in d (docs is sorted by path), the first of the
// highest ModuleDocPriority.
func moduleDoc(d string, docs []docCandidate) string {
	lo := 0
	if d != "." {
		lo, _ = slices.BinarySearchFunc(docs, d+"/", func(c docCandidate, p string) int { return strings.Compare(c.Path, p) })
	}
	best, doc := 0, ""
	for _, c := range docs[lo:] {
		if d != "." && !strings.HasPrefix(c.Path, d+"/") {
			break
		}
		if dirOf(c.Path) != d {
			continue
		}
		if p := ModuleDocPriority(&FileRecord{Path: c.Path, Lang: c.Lang, Facts: &parser.Facts{Doc: c.Doc}}); p > best {
			best, doc = p, c.Doc
		}
	}
	return doc
}
