package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestStatTable: a built index leaves a stat table that gives what the
// segments give; a table of another generation, of an index removed and
// built again, damaged, truncated or unsorted is not used (the stats come
// from the segments, the same ones).
func TestStatTable(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	build(t, root, false)
	s := open(t, root)
	want, err := s.segmentStats()
	if err != nil {
		t.Fatal(err)
	}
	got, _, ok := loadStatTable(dir, s.Generation, s.statTableKey())
	if !ok {
		t.Fatal("a full build left no stat table")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stat table %v, segments %v", got, want)
	}
	if _, _, ok := loadStatTable(dir, s.Generation+1, s.statTableKey()); ok {
		t.Error("the table was taken for another generation")
	}
	if _, _, ok := loadStatTable(dir, s.Generation, s.statTableKey()+1); ok {
		t.Error("the table was taken for another manifest of the same generation number")
	}
	path := filepath.Join(dir, statTableName)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// An index removed and built again numbers its generations from 1
	// again: the old table must not describe the new one.
	if err := os.RemoveAll(filepath.Join(dir, "gen")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "seg"))
	os.Remove(filepath.Join(dir, "CURRENT"))
	build(t, root, false)
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, root)
	if s2.Generation == s.Generation {
		if _, _, ok := loadStatTable(dir, s2.Generation, s2.statTableKey()); ok {
			t.Error("the table of a removed index was taken for the new one")
		}
	}
	// Damage of any kind: not used.
	unsorted := slices.Clone(want)
	unsorted[0], unsorted[1] = unsorted[1], unsorted[0]
	saveStatTable(dir, s.Generation, s.statTableKey(), unsorted)
	bad := map[string][]byte{"flipped": slices.Clone(good), "truncated": good[:len(good)/2], "empty": nil}
	bad["flipped"][len(good)/2] ^= 1
	bad["unsorted"], _ = os.ReadFile(path)
	for what, b := range bad {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := loadStatTable(dir, s.Generation, s.statTableKey()); ok {
			t.Errorf("a %s table was used", what)
		}
	}
}

// TestStatTableDelta: an incremental build writes a delta from the table
// the generation before was read from, not the whole table; the table
// with the delta laid over gives what the segments give, build after
// build; a delta that is damaged, of another generation or over another
// table is not used; a large change writes the whole table again.
func TestStatTableDelta(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	dir := filepath.Join(root, IndexDirName)
	build(t, root, false)
	table, err := os.ReadFile(filepath.Join(dir, statTableName))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		walktest.WriteFile(t, root, "go/inventory/delta.go", "package inventory\n\n// Delta"+string(rune('A'+i))+" is new.\nfunc Delta"+string(rune('A'+i))+"() {}\n")
		before := StatTableWrites()
		build(t, root, false)
		if got, _ := os.ReadFile(filepath.Join(dir, statTableName)); !slices.Equal(got, table) {
			t.Fatalf("edit %d rewrote the stat table", i)
		}
		delta, err := os.ReadFile(filepath.Join(dir, statDeltaName))
		if err != nil {
			t.Fatalf("edit %d left no delta: %v", i, err)
		}
		if w := StatTableWrites() - before; w != int64(len(delta)) || w*4 > int64(len(table)) {
			t.Errorf("edit %d wrote %d bytes of stat table (delta %d, table %d)", i, w, len(delta), len(table))
		}
		s := open(t, root)
		want, err := s.segmentStats()
		if err != nil {
			t.Fatal(err)
		}
		got, _, ok := loadStatTable(dir, s.Generation, s.statTableKey())
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("edit %d: table and delta give %v (ok %v), segments %v", i, got, ok, want)
		}
	}
	s := open(t, root)
	deltaPath := filepath.Join(dir, statDeltaName)
	good, _ := os.ReadFile(deltaPath)
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 1
	for what, b := range map[string][]byte{"flipped": flipped, "truncated": good[:len(good)/2]} {
		os.WriteFile(deltaPath, b, 0o644)
		if _, _, ok := loadStatTable(dir, s.Generation, s.statTableKey()); ok {
			t.Errorf("a %s delta was used", what)
		}
	}
	os.WriteFile(deltaPath, good, 0o644)
	if _, _, ok := loadStatTable(dir, s.Generation+1, s.statTableKey()); ok {
		t.Error("the delta was taken for another generation")
	}
	// Over another table (same generation number, another manifest).
	unsorted := slices.Clone(s.stats)
	saveStatTable(dir, 1, 12345, unsorted)
	os.WriteFile(deltaPath, good, 0o644)
	if _, _, ok := loadStatTable(dir, s.Generation, s.statTableKey()); ok {
		t.Error("the delta was laid over a table it was not made from")
	}
	// A large change: the whole table again, no delta.
	build(t, root, false) // the stats from the segments; writes a table
	table, _ = os.ReadFile(filepath.Join(dir, statTableName))
	for i := range 80 {
		walktest.WriteFile(t, root, fmt.Sprintf("many/m%d.go", i), fmt.Sprintf("package many\n\nfunc M%d() {}\n", i))
	}
	build(t, root, false)
	if got, _ := os.ReadFile(filepath.Join(dir, statTableName)); slices.Equal(got, table) {
		t.Error("80 new files left the table as it was")
	}
	if _, err := os.Stat(deltaPath); err == nil {
		t.Error("a delta stayed beside a whole table")
	}
}
