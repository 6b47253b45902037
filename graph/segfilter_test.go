package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestNameFilter: a filter holds every key added to it, rejects most
// others, and comes back from its file only whole and naming its seal.
func TestNameFilter(t *testing.T) {
	f := newNameFilter(5000, 12)
	for i := range 5000 {
		f.add(fmt.Sprintf("n/Name%d", i))
	}
	for i := range 5000 {
		if !f.may(fmt.Sprintf("n/Name%d", i)) {
			t.Fatalf("n/Name%d was added but the filter says it is not there", i)
		}
	}
	passed := 0
	for i := range 20000 {
		if f.may(fmt.Sprintf("r/Other%d", i)) {
			passed++
		}
	}
	if passed > 20000*3/100 {
		t.Errorf("%d of 20000 keys never added pass the filter, want under 3 %%", passed)
	}
	b := encodeFilter(f, 42)
	g, ok := decodeFilter(b, 42)
	if !ok || g.files != 12 || g.k != f.k || !slices.Equal(g.words, f.words) {
		t.Fatalf("the filter did not come back from its encoding (ok %v)", ok)
	}
	flipped := slices.Clone(b)
	flipped[len(b)/2] ^= 1
	for what, bad := range map[string][]byte{"of another seal": b, "flipped": flipped, "truncated": b[:len(b)-9], "empty": nil} {
		seal := uint64(42)
		if what == "of another seal" {
			seal = 43
		}
		if _, ok := decodeFilter(bad, seal); ok {
			t.Errorf("a filter %s was taken", what)
		}
	}
}

// segmentKeys returns the keys of segment folder sd that a filter holds.
func segmentKeys(t *testing.T, sd string) []string {
	t.Helper()
	db, err := badger.Open(segReadOptions(sd))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var keys []string
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if k := string(it.Item().Key()); filterKey(k) {
				keys = append(keys, k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// checkFilters asserts that every file segment of the live generation has
// a filter naming its seal that holds each of its name keys.
func checkFilters(t *testing.T, dir string) {
	t.Helper()
	s, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, sg := range s.fileSegs() {
		f, ok := loadFilter(sg.dir, sg.seal)
		if !ok {
			t.Errorf("segment %d has no usable filter", sg.id)
			continue
		}
		if f.files != sg.info.Files {
			t.Errorf("segment %d: the filter says %d files, the segment %d", sg.id, f.files, sg.info.Files)
		}
		keys := segmentKeys(t, sg.dir)
		if len(keys) == 0 {
			t.Errorf("segment %d has no name keys", sg.id)
		}
		for _, k := range keys {
			if !f.may(k) {
				t.Errorf("segment %d holds %q, which its filter rejects", sg.id, k)
				break
			}
		}
	}
}

// TestSegmentFilterRepair: every segment a build seals gets a filter of
// its keys; a filter missing, damaged or of another seal is made again
// from the segment by the next incremental build, which stays
// incremental, and written back.
func TestSegmentFilterRepair(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "4")
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	build(t, root, false)
	checkFilters(t, dir)
	m, err := readManifest(dir, mustCurrent(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var files []int
	for _, ms := range m.Segments {
		if ms.Kind == segFiles {
			files = append(files, ms.ID)
		}
	}
	if len(files) < 4 {
		t.Fatalf("the full build wrote %d file segments, want at least 4 (is WIKITOOLKIT_SEGMENT_FILES read?)", len(files))
	}
	filterOf := func(id int) string { return filepath.Join(segDir(dir, id), filterName) }
	if err := os.Remove(filterOf(files[0])); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filterOf(files[1]))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x10
	if err := os.WriteFile(filterOf(files[1]), b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The filter of another segment (another seal) in place of files[3]'s.
	other, err := os.ReadFile(filterOf(files[2]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filterOf(files[3]), other, 0o644); err != nil {
		t.Fatal(err)
	}
	// An edit, so that the build is incremental and reads the filters.
	var edited string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && edited == "" && !d.IsDir() && strings.HasSuffix(p, ".go") {
			edited = p
		}
		return err
	})
	if edited == "" {
		t.Fatal("the fixture has no .go file")
	}
	fi, err := os.Stat(edited)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(src, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Second)
	os.Chtimes(edited, later, later)
	before := filterRebuilds.Load()
	info := build(t, root, false)
	if info.Mode != "incremental" {
		t.Fatalf("the build after the damage was %q, want incremental", info.Mode)
	}
	if got := filterRebuilds.Load() - before; got != 3 {
		t.Errorf("the build made %d filters again, want 3 (one missing, one flipped, one of another seal)", got)
	}
	checkFilters(t, dir)
}

func mustCurrent(t *testing.T, dir string) int {
	t.Helper()
	n, err := CurrentGeneration(dir)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
