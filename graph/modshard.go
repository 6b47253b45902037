package graph

import (
	"os"
	"slices"
	"strconv"
	"strings"
)

// Module shards. The module pages (one per directory) and the doc
// candidates they are made from are stored as one or more modules
// segments, each holding the directories of one range of paths: shard i
// holds every directory d with From(i) <= d < From(i+1) (the first one's
// From is "", the last one's range is open). A full build cuts the pages,
// in path order, every ModuleShardPages pages. An incremental build reads
// and rewrites only the shards holding a directory the change can alter:
// the directories of the files changed, added or removed and the
// ancestors of those added or removed (patchModules), so a file in a new
// directory of the 100k-file tree (82.5k directories) rewrites one shard
// of 4,096 pages, where it read and rewrote every module page (0.35 s of
// a 0.7 s edit, and 250 MB). A shard that grows past twice the limit is
// cut again; one left empty is dropped, its range joining the shard
// before. The edges leaving a shard's pages to pages of another shard (a
// directory's contains edge to a subdirectory) are stored as its external
// edges (x/ext) and ranking links, as a file segment's are, so readers
// see the same module piece however the directories fell into shards
// (readModules, joinModules).

// moduleShardPages is ModuleShardPages, unless the environment variable
// WIKITOOLKIT_MODULE_SHARD_PAGES (a test hook, like
// WIKITOOLKIT_SEGMENT_FILES, read at each call) sets a positive number:
// tests that run real build processes cut small trees into shards.
func moduleShardPages() int {
	if n, err := strconv.Atoi(os.Getenv("WIKITOOLKIT_MODULE_SHARD_PAGES")); err == nil && n > 0 {
		return n
	}
	return ModuleShardPages
}

// ModuleShardPages is the most module pages a full build puts in one
// modules segment. At 100k files a new directory given to `build
// --changed` took 0.15–0.17 s with 8,192 (11 shards), 0.11–0.12 s with
// 4,096 (21 shards), queries the same (BenchmarkQueryList p50 3.66 and
// 3.34 ms). Tests lower it, to cut small trees into shards.
var ModuleShardPages = 4096

// modShard is one modules segment's part of the module piece: its
// directories' pages, the edges leaving them (To by page ID, in or out of
// the shard), and the doc candidates of its directories (sorted by path).
type modShard struct {
	from string
	pc   Piece
	docs []docCandidate
}

// shardOfDir returns the index of the shard, of those starting at froms
// (sorted, the first ""), whose range holds directory d.
func shardOfDir(froms []string, d string) int {
	i, found := slices.BinarySearch(froms, d)
	if !found {
		i--
	}
	return max(i, 0)
}

// cutModules cuts the module piece mods (pages in path order) and the doc
// candidates into shards: the shards starting at froms (sorted, the first
// ""), each of them cut again when it holds more than 2×limit pages, and
// dropped when it holds none. With froms nil, every limit pages.
func cutModules(mods Piece, docs []docCandidate, froms []string, limit int) []modShard {
	limit = max(limit, 1)
	if froms == nil {
		froms = []string{""}
		for i := limit; i < len(mods.Pages); i += limit {
			froms = append(froms, mods.Pages[i].Path)
		}
	}
	// The pages of each range, then the cuts of the ranges too large.
	type span struct {
		from   string
		lo, hi int // pages [lo, hi)
	}
	var spans []span
	lo := 0
	for k := range froms {
		hi := len(mods.Pages)
		if k+1 < len(froms) {
			hi, _ = slices.BinarySearchFunc(mods.Pages[lo:], froms[k+1], func(p Page, d string) int { return strings.Compare(p.Path, d) })
			hi += lo
		}
		if hi-lo > 2*limit {
			for a := lo; a < hi; a += limit {
				from := froms[k]
				if a > lo {
					from = mods.Pages[a].Path
				}
				spans = append(spans, span{from, a, min(a+limit, hi)})
			}
		} else if hi > lo {
			spans = append(spans, span{froms[k], lo, hi})
		}
		lo = hi
	}
	if len(spans) == 0 && len(froms) == 1 && froms[0] == "" {
		spans = []span{{"", 0, 0}} // no directory at all: one empty shard
	}
	out := make([]modShard, len(spans))
	starts := make([]string, len(spans))
	for k, s := range spans {
		out[k] = modShard{from: s.from, pc: Piece{Pages: mods.Pages[s.lo:s.hi:s.hi]}}
		starts[k] = s.from
	}
	k := 0
	for _, e := range mods.Edges { // sorted by From
		for k+1 < len(spans) && int(e.From) >= spans[k].hi {
			k++
		}
		e.From -= uint32(spans[k].lo)
		out[k].pc.Edges = append(out[k].pc.Edges, e)
	}
	for _, c := range docs {
		k := shardOfDir(starts, dirOf(c.Path))
		out[k].docs = append(out[k].docs, c)
	}
	return out
}

// reshard cuts mods, patchModules' piece of the shards read (in order),
// and docs, their doc candidates after the change, back into shards over
// the ranges of read: write are the shards to write, and stand[i] tells
// whether read[i] is what it was (it stands; it is not in write).
func reshard(read []modShard, mods Piece, docs []docCandidate, limit int) (write []modShard, stand []bool) {
	froms := make([]string, len(read))
	for i, sh := range read {
		froms[i] = sh.from
	}
	stand = make([]bool, len(read))
	for _, sh := range cutModules(mods, docs, froms, limit) {
		if i, ok := slices.BinarySearch(froms, sh.from); ok && modsEqual(sh.pc, read[i].pc) && slices.Equal(sh.docs, read[i].docs) {
			stand[i] = true
			continue
		}
		write = append(write, sh)
	}
	return write, stand
}

// joinModules is the module piece of shards (in order) and their doc
// candidates, sorted by path.
func joinModules(shards []modShard) (Piece, []docCandidate) {
	var pc Piece
	var docs []docCandidate
	for _, sh := range shards {
		base := uint32(len(pc.Pages))
		pc.Pages = append(pc.Pages, sh.pc.Pages...)
		for _, e := range sh.pc.Edges {
			e.From += base
			pc.Edges = append(pc.Edges, e)
		}
		docs = append(docs, sh.docs...)
	}
	slices.SortFunc(docs, func(a, b docCandidate) int { return strings.Compare(a.Path, b.Path) })
	return pc, docs
}

// changedDirs returns the directories whose module pages or doc
// candidates a change can alter: those of the paths added or removed
// with their ancestors, and those of the files whose content changed
// (gone) or that were parsed.
func changedDirs(pathsChanged []string, gone map[string]bool, parsed []*FileRecord) map[string]bool {
	dirs := map[string]bool{}
	addDirsOf(dirs, pathsChanged)
	for p := range gone {
		dirs[dirOf(p)] = true
	}
	for _, r := range parsed {
		dirs[dirOf(r.Path)] = true
	}
	return dirs
}
