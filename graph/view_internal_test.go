package graph

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/dgraph-io/badger/v4"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestNameCandidatesHoldEveryExactMatch holds that the names a page view
// looks up (snapRefs.nameCandidates) find every page the whole graph
// ranks 0–2 for a name (matchName falls back to reading every page only
// when they find none), for names made of every symbol's name and
// qualified name, their parts and suffixes.
func TestNameCandidatesHoldEveryExactMatch(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	for _, fx := range []string{"languages", "polyglot", "resolution"} {
		snap, _ := buildOpen(t, BuildOptions{Root: walktest.CopyFixture(t, fx)})
		g, err := snap.Graph()
		if err != nil {
			t.Fatal(err)
		}
		v, err := snap.pageView()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for i := range g.Pages {
			p := &g.Pages[i]
			if p.Kind != KindSymbol && p.Kind != KindFile {
				continue
			}
			names = append(names, p.Name, p.Qualified)
			for s := p.Qualified; ; {
				j := strings.IndexAny(s, ".~ ")
				if j < 0 {
					break
				}
				s = s[j+1:]
				names = append(names, s)
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		checked := 0
		for _, name := range names {
			if name == "" {
				continue
			}
			q, qual, last := refName(name)
			var want []string
			for i := range g.Pages {
				if r := nameRank(&g.Pages[i], q, qual, last, name, ""); r >= 0 && r < 3 {
					want = append(want, g.Pages[i].ID)
				}
			}
			cands, _, err := snapRefs{v}.nameCandidates(q, name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range cands {
				if r := nameRank(&cands[i], q, qual, last, name, ""); r >= 0 && r < 3 {
					got = append(got, cands[i].ID)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			got = slices.Compact(got)
			if !slices.Equal(want, got) {
				t.Errorf("%s: name %q: candidates rank %v, the graph %v", fx, name, got, want)
			}
			checked++
		}
		t.Logf("%s: %d names", fx, checked)
	}
}

// TestNearSimilarIsSimilarity holds the bounded similarity of near names
// to similarity, on names near and far, of other cases and scripts.
func TestNearSimilarIsSimilarity(t *testing.T) {
	words := []string{"Invoice5001", "invoic5001", "INVOICE", "inv", "LoadWorker0", "loadworker", "worker", "x", "ab", "ba",
		"ΣΊΣΥΦΟΣ", "σίσυφος", "naïve", "NAIVE", "url_for", "url_fro", "for_url", "a.b.c", "c.b.a", "", "\xff\xfe", "Ünïcödé"}
	for _, q := range words {
		n := newNearNames(q, "")
		for _, name := range words {
			want := similarity(strings.ToLower(q), strings.ToLower(name))
			got, ok := n.similar(name)
			if ok != (want >= 0.5) || ok && got != want {
				t.Errorf("similar(%q, %q) = %v, %v; similarity %v", q, name, got, ok, want)
			}
		}
	}
}

// TestPartSizesStored holds every segment's stored part sizes (partsKey)
// to what iterating its keys counts, in an index whose full build copied
// segments (several batches: pass 2 copies a segment whose pieces stand
// with its weights replaced) and after an edit.
func TestPartSizesStored(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "4")
	t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", "4")
	root := walktest.CopyFixture(t, "polyglot")
	dir := t.TempDir()
	check := func() {
		snap, err := OpenSnapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer snap.Close()
		for _, sg := range snap.segs {
			b, err := sg.get(partsKey)
			if err != nil {
				t.Fatalf("segment %d has no %s: %v", sg.id, partsKey, err)
			}
			counted := map[string]int64{}
			_ = sg.db.View(func(txn *badger.Txn) error {
				it := txn.NewIterator(badger.IteratorOptions{})
				defer it.Close()
				for it.Rewind(); it.Valid(); it.Next() {
					k := string(it.Item().Key())
					counted[partOf(k)] += it.Item().ValueSize() + int64(len(k))
				}
				return nil
			})
			var stored map[string]int64
			if err := json.Unmarshal(b, &stored); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(stored, counted) {
				t.Errorf("segment %d: stored parts %v, counted %v", sg.id, stored, counted)
			}
		}
	}
	opt := BuildOptions{Root: root, IndexDir: dir,
		Segment: func(g *Graph, _ []ExtLink) (map[string][]byte, error) {
			return map[string][]byte{"x": []byte(fmt.Sprint(len(g.Pages)))}, nil
		},
		Weigh: func(segs []func(string) ([]byte, error)) (BlobsFunc, error) {
			return func(blob func(string) ([]byte, error)) (map[string][]byte, error) {
				b, err := blob("x")
				return map[string][]byte{"x": append([]byte(fmt.Sprint(len(segs))), b...)}, err
			}, nil
		},
	}
	if _, err := Build(t.Context(), opt); err != nil {
		t.Fatal(err)
	}
	check()
	f := filepath.Join(root, "go", "inventory", "store.go")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(b, "\n// Later is new.\nfunc Later() {}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(t.Context(), opt); err != nil {
		t.Fatal(err)
	}
	check()
}

// TestPassTwoKeepsEqualsResolving builds the fixtures in batches of two
// and three files (many partial generations, a pass 2 over most
// segments) with pass 2 keeping the batches no later one can change
// (stand.go) and resolving every one again, and requires the same graph
// and counts, and some segments kept.
func TestPassTwoKeepsEqualsResolving(t *testing.T) {
	// A tree where a later batch changes an earlier one's references only
	// through one tier each: a definition in the referring file's own
	// directory (Go: m/x.go, then m/z.go), in a directory it imports (TS:
	// d/sub/x.ts imports ../a, then d/z.ts), and one whose qualified name
	// continues the reference's qualifier (Python: Store.create, then
	// z/store.py). Each name has two definitions in the batches before,
	// so that the unique-anywhere tier sees none of them; and an import of
	// a directory that appears later (Go without go.mod: g/x.go imports
	// zz/util).
	tiers := t.TempDir()
	walktest.WriteTree(t, tiers, map[string]string{
		"a1/h.go": "package a1\n\nfunc Helper() {}\n", "a2/h.go": "package a2\n\nfunc Helper() {}\n",
		"m/x.go": "package m\n\nfunc X() { Helper() }\n", "m/z.go": "package m\n\nfunc Helper() {}\n",
		"b1/h.ts": "export function helper() {}\n", "b2/h.ts": "export function helper() {}\n",
		"d/a.ts": "export function a() {}\n", "d/sub/x.ts": "import { a } from \"../a\";\nexport function x() { a(); helper(); }\n",
		"d/z.ts":  "export function helper() {}\n",
		"c1/s.py": "class Shop:\n    def create(self):\n        pass\n", "c2/s.py": "class Shelf:\n    def create(self):\n        pass\n",
		"p/x.py": "def x():\n    Store.create()\n", "z/store.py": "class Store:\n    def create(self):\n        pass\n",
		// A package that appears later (no go.mod: an import path is a
		// directory of the tree, HasDir).
		"a1/f.go": "package a1\n\nfunc F() {}\n", "a2/f.go": "package a2\n\nfunc F() {}\n",
		"g/x.go": "package g\n\nimport \"zz/util\"\n\nfunc G() { util.F() }\n", "zz/util/f.go": "package util\n\nfunc F() {}\n",
	})
	// An import of another module's package whose path a directory that
	// appears later ends with (DirWithSuffix).
	suffix := t.TempDir()
	walktest.WriteTree(t, suffix, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"a1/f.go": "package a1\n\nfunc F() {}\n", "a2/f.go": "package a2\n\nfunc F() {}\n",
		"b/x.go":       "package b\n\nimport \"other.org/lib/zz/util\"\n\nfunc B() { util.F() }\n",
		"zz/util/f.go": "package util\n\nfunc F() {}\n",
	})
	kept := 0
	fixtures := []string{"tiers", "suffix", "polyglot", "resolution", "languages", "symbols"}
	if testing.Short() {
		fixtures = fixtures[:4]
	}
	for _, fx := range fixtures {
		for _, batch := range []string{"1", "2", "3"} {
			var root string
			switch fx {
			case "tiers":
				root = tiers
			case "suffix":
				root = suffix
			default:
				if batch == "1" {
					continue
				}
				root = walktest.CopyFixture(t, fx)
			}
			t.Setenv("WIKITOOLKIT_TEST_BATCH_FILES", batch)
			t.Setenv("WIKITOOLKIT_SEGMENT_FILES", batch)
			build := func(all string) (*Graph, *BuildInfo) {
				t.Setenv("WIKITOOLKIT_PASS2_RESOLVE_ALL", all)
				snap, info := buildOpen(t, BuildOptions{Root: root, Full: true})
				g, err := snap.Graph()
				if err != nil {
					t.Fatal(err)
				}
				return g, info
			}
			before := keptSegments.Load()
			g1, i1 := build("0")
			k := int(keptSegments.Load() - before)
			g2, i2 := build("1")
			if !slices.EqualFunc(g1.Pages, g2.Pages, func(a, b Page) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) || !slices.Equal(g1.Edges(), g2.Edges()) {
				t.Fatalf("%s in batches of %s: the graph kept differs from the graph resolved again", fx, batch)
			}
			if !maps.Equal(i1.Pages, i2.Pages) || !maps.Equal(i1.Edges, i2.Edges) || i1.Files != i2.Files {
				t.Fatalf("%s in batches of %s: counts %v %v, resolved again %v %v", fx, batch, i1.Pages, i1.Edges, i2.Pages, i2.Edges)
			}
			t.Logf("%s in batches of %s: %d segments kept", fx, batch, k)
			kept += k
		}
	}
	if kept == 0 {
		t.Fatal("pass 2 kept no segment: the test compared nothing")
	}
}

// buildOpen builds opt (its index in a temporary folder unless it names
// one) and opens the generation, closed when the test ends.
func buildOpen(t *testing.T, opt BuildOptions) (*Snapshot, *BuildInfo) {
	t.Helper()
	if opt.IndexDir == "" {
		opt.IndexDir = t.TempDir()
	}
	info, err := Build(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := OpenSnapshot(opt.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snap.Close() })
	return snap, info
}

// TestPageViewReadsItsNeighbourhood holds a page view to the segments its
// page touches: with the cache emptied before each, the view of every
// page of an index in segments of two files decodes at most one segment
// per file among the page's and its neighbours', never all of them.
func TestPageViewReadsItsNeighbourhood(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "2")
	snap, _ := buildOpen(t, BuildOptions{Root: walktest.CopyFixture(t, "polyglot")})
	g, err := snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	segs := len(snap.fileSegs())
	decodes := func() (graphs, exts int) {
		viewDecodes.Lock()
		defer viewDecodes.Unlock()
		return viewDecodes.graphs, viewDecodes.exts
	}
	total, totalExts := 0, 0
	for i := range g.Pages {
		p := &g.Pages[i]
		if p.Kind == KindModule {
			continue
		}
		files := map[string]bool{p.Path: true}
		rec := g.Record(uint32(i))
		for t := range rec.Out {
			for _, id := range append(append([]string{}, rec.Out[t]...), rec.In[t]...) {
				if j, ok := g.Lookup(id); ok && g.Pages[j].Kind != KindModule {
					files[g.Pages[j].Path] = true
				}
			}
		}
		for _, id := range append(append([]string{}, rec.LooseOut...), rec.LooseIn...) {
			if j, ok := g.Lookup(id); ok {
				files[g.Pages[j].Path] = true
			}
		}
		views.mu.Lock()
		views.lru.Init()
		views.at, views.bytes = nil, 0
		views.mu.Unlock()
		before, exts := decodes()
		if _, err := snap.Page(p.ID); err != nil {
			t.Fatal(err)
		}
		n, m := decodes()
		n, m = n-before, m-exts
		totalExts += m
		if n > len(files) {
			t.Errorf("the view of %s decoded %d segments; it touches %d files", p.ID, n, len(files))
		}
		total += n
	}
	if segs < 10 || total*4 > segs*len(g.Pages) || totalExts*2 > segs*len(g.Pages) {
		t.Fatalf("%d file segments; %d decodes and %d reads of external edges for %d pages: want several segments and a view reading few of them",
			segs, total, totalExts, len(g.Pages))
	}
	t.Logf("%d file segments; %d segment decodes and %d reads of external edges for %d pages", segs, total, totalExts, len(g.Pages))
}

// TestPageViewsConcurrent reads every page's view from several goroutines
// at once, with a cache too small to hold two segments (views evicted
// while others use them), and wants the whole graph's records (run with
// -race).
func TestPageViewsConcurrent(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "3")
	was := ViewCacheBytes
	ViewCacheBytes = 1
	t.Cleanup(func() { ViewCacheBytes = was })
	snap, _ := buildOpen(t, BuildOptions{Root: walktest.CopyFixture(t, "polyglot")})
	g, err := snap.Graph()
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 4)
	for w := range 4 {
		go func() {
			for i := w; i < len(g.Pages); i += 2 {
				id := g.Pages[i].ID
				rec, err := snap.Page(id)
				if err != nil || !reflect.DeepEqual(rec, g.Record(uint32(i))) {
					errs <- fmt.Sprintf("Page(%s): %v", id, err)
					return
				}
				if got, err := snap.ResolveRef(g.Pages[i].Name, ""); err == nil && got == "" {
					errs <- "ResolveRef gave no ID"
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}

// TestFileCountsRecountChangedSegments holds FileCounts to the segments
// an edit changed: with the previous generation open (as a server holds
// it while it opens the next), the counts of the next recount its new
// segment and those that gained tombstones, not the others, and equal
// the whole graph's.
func TestFileCountsRecountChangedSegments(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "2")
	root := walktest.CopyFixture(t, "polyglot")
	index := t.TempDir()
	snap, _ := buildOpen(t, BuildOptions{Root: root, IndexDir: index})
	segs := len(snap.fileSegs())
	if segs < 10 {
		t.Fatalf("%d file segments: want many", segs)
	}
	counted := func(s *Snapshot) int64 {
		before := segsCounted.Load()
		got, err := s.FileCounts()
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.Graph()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]FileCount{}
		for i := range g.Pages {
			if p := &g.Pages[i]; p.Kind == KindFile {
				want[p.Path] = want[p.Path]
			} else if p.Kind == KindSymbol {
				fc := want[p.Path]
				fc.Symbols++
				want[p.Path] = fc
			}
		}
		for _, e := range g.Edges() {
			to, from := &g.Pages[e.To], &g.Pages[e.From]
			if e.Type == References && to.Path != from.Path && to.Kind != KindModule {
				fc := want[to.Path]
				fc.RefsIn++
				want[to.Path] = fc
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("FileCounts differ from the whole graph's:\n  %v\n  %v", got, want)
		}
		return segsCounted.Load() - before
	}
	if n := counted(snap); n != int64(segs) {
		t.Fatalf("the first counts counted %d segments of %d", n, segs)
	}
	if n := counted(snap); n != 0 {
		t.Fatalf("the same generation's counts again counted %d segments", n)
	}
	// One file edited: a new segment, a tombstone in the old one.
	p := filepath.Join(root, "go", "inventory", "book.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, []byte("\n// Extra is new.\nfunc Extra() int { return 1 }\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	next, _ := buildOpen(t, BuildOptions{Root: root, IndexDir: index})
	if next.Generation == snap.Generation {
		t.Fatal("the edit made no generation")
	}
	if n := counted(next); n < 1 || n > 3 {
		t.Fatalf("after a one-file edit the counts counted %d segments of %d; want the new one and those with new tombstones", n, len(next.fileSegs()))
	}
}

// TestFileCountsKeepNoPageText: the per-segment counts FileCounts keeps
// (segCounts) are keyed by paths copied out of the segment's codec, not
// strings of its page text, which would keep the whole text alive with
// them (at 100k files, the web wiki's home page held every segment's page
// text: 109 MB).
func TestFileCountsKeepNoPageText(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "2")
	was := ViewCacheBytes
	ViewCacheBytes = 1 << 30 // countFiles then reads the codec the view holds
	t.Cleanup(func() { ViewCacheBytes = was })
	snap, _ := buildOpen(t, BuildOptions{Root: walktest.CopyFixture(t, "polyglot")})
	keys := 0
	for _, sg := range snap.fileSegs() {
		v, err := sg.view(true)
		if err != nil {
			t.Fatal(err)
		}
		recs := v.codec.recs
		base := uintptr(unsafe.Pointer(unsafe.StringData(recs)))
		inText := func(s string) bool {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			return len(s) > 0 && p >= base && p < base+uintptr(len(recs))
		}
		part, byID, err := sg.countFiles()
		if err != nil {
			t.Fatal(err)
		}
		for p := range part {
			keys++
			if inText(p) {
				t.Errorf("segment %d: the counts' key %q is a string of the segment's page text", sg.id, p)
			}
		}
		for k := range byID {
			if inText(k[0]) || inText(k[1]) {
				t.Errorf("segment %d: the counts' key %q is a string of the segment's page text", sg.id, k)
			}
		}
	}
	if keys == 0 {
		t.Fatal("no counts to check")
	}
}
