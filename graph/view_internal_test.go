package graph

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
		root := walktest.CopyFixture(t, fx)
		dir := t.TempDir()
		if _, err := Build(t.Context(), BuildOptions{Root: root, IndexDir: dir}); err != nil {
			t.Fatal(err)
		}
		snap, err := OpenSnapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer snap.Close()
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
