package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// writeLaterFile writes content to root/rel with a modification time a
// second past the file's old one (now, for a new file), so that no edit
// hides behind an unchanged stamp.
func writeLaterFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	mt := time.Now()
	if fi, err := os.Stat(p); err == nil {
		mt = fi.ModTime().Add(time.Second)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

// answer runs the binary with args and returns its JSON output decoded,
// without the fields that name the index or the build rather than the
// repository (index, generation, seconds, started).
func answer(t *testing.T, dir string, args ...string) any {
	t.Helper()
	var v any
	runJSON(t, dir, &v, args...)
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"index", "generation", "seconds", "started"} {
				delete(x, k)
			}
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	return v
}

func aliceSrc(name string) string {
	return fmt.Sprintf("// Package alpha computes.\npackage alpha\n\n// Helper00 helps.\nfunc Helper00() int { return 0 }\n\n// %s doubles x.\nfunc %s(x int) int { return 2 * x }\n", name, name)
}

func zetaSrc(i int, call string) string {
	return fmt.Sprintf("// Package zeta uses alpha.\npackage zeta\n\nimport \"example.com/ren/alpha\"\n\n// Use%02d calls alpha.\nfunc Use%02d() int { return alpha.%s(%d) }\n", i, i, call, i)
}

// TestRenameAcrossSegments renames a function defined in one segment and
// called from another: with segments of at most 16 files
// (WIKITOOLKIT_SEGMENT_FILES), alpha/'s 14 files and zeta/'s 14 fall into
// two file segments. Compute (alpha/f00.go) is called from zeta/u00-u06;
// one edit of several files renames it Reckon and changes the calls of
// u00-u05, leaving u06 calling the old name. After the incremental
// build, related --direction in of the new symbol lists exactly u00-u05,
// the old ID is gone, the tombstones fall in both segments, and query,
// page and related answer exactly as after a full build of the same tree.
func TestRenameAcrossSegments(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes; skipped with -short")
	}
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "16")
	repo := t.TempDir()
	writeLaterFile(t, repo, "go.mod", "module example.com/ren\n\ngo 1.22\n")
	writeLaterFile(t, repo, "alpha/f00.go", aliceSrc("Compute"))
	for i := 1; i < 14; i++ {
		writeLaterFile(t, repo, fmt.Sprintf("alpha/f%02d.go", i), fmt.Sprintf("package alpha\n\n// Helper%02d helps.\nfunc Helper%02d() int { return %d }\n", i, i, i))
	}
	for i := 0; i < 14; i++ {
		call := "Compute"
		if i > 6 {
			call = fmt.Sprintf("Helper%02d", i)
		}
		writeLaterFile(t, repo, fmt.Sprintf("zeta/u%02d.go", i), zetaSrc(i, call))
	}
	index := filepath.Join(repo, ".wikitoolkit")
	var first buildJSON
	runJSON(t, repo, &first, "--index", index, "build", "--json", repo)
	if m := graphtest.LiveManifest(t, index); m.FileSegments() < 2 {
		t.Fatalf("the full build wrote %d file segments, want 2 (is WIKITOOLKIT_SEGMENT_FILES read?)", m.FileSegments())
	}
	oldID, newID := "symbol:alpha/f00.go#Compute", "symbol:alpha/f00.go#Reckon"
	var rel struct {
		Neighbors []struct{ ID, Rel, Direction string } `json:"neighbors"`
	}
	runJSON(t, repo, &rel, "--index", index, "related", "--json", "--direction", "in", oldID)
	if n := len(rel.Neighbors); n != 8 { // its file and 7 callers
		t.Fatalf("before the rename %s has %d neighbours in, want 8: %+v", oldID, n, rel.Neighbors)
	}

	// One commit-like edit: the definition and six of its seven callers
	// (so that zeta's segment keeps more live files than dead and stays).
	writeLaterFile(t, repo, "alpha/f00.go", aliceSrc("Reckon"))
	for i := 0; i < 6; i++ {
		writeLaterFile(t, repo, fmt.Sprintf("zeta/u%02d.go", i), zetaSrc(i, "Reckon"))
	}
	var inc buildJSON
	runJSON(t, repo, &inc, "--index", index, "build", "--json", repo)
	if inc.Mode != "incremental" || inc.FilesParsed != 7 {
		t.Fatalf("the build after the rename: mode %q, %d files parsed, want incremental and 7", inc.Mode, inc.FilesParsed)
	}
	m := graphtest.LiveManifest(t, index)
	// u06, not edited, lost its call: its stored copy is replaced too.
	a, b, c := m.DeadIn("alpha/f00.go"), m.DeadIn("zeta/u00.go"), m.DeadIn("zeta/u06.go")
	if a == 0 || b == 0 || a == b || c != b {
		t.Fatalf("tombstones of alpha/f00.go in segment %d, of zeta/u00.go in %d, of zeta/u06.go in %d: want the first two different, the last two the same (manifest %+v)", a, b, c, m)
	}

	rel.Neighbors = nil
	runJSON(t, repo, &rel, "--index", index, "related", "--json", "--direction", "in", newID)
	var callers []string
	for _, n := range rel.Neighbors {
		if n.Rel == "references" {
			callers = append(callers, n.ID)
		}
	}
	slices.Sort(callers)
	var want []string
	for i := 0; i < 6; i++ {
		want = append(want, fmt.Sprintf("symbol:zeta/u%02d.go#Use%02d", i, i))
	}
	if !slices.Equal(callers, want) {
		t.Errorf("callers of %s after the rename: %v, want %v", newID, callers, want)
	}
	if _, errs, code := run(t, repo, "--index", index, "page", "--json", oldID); code == 0 {
		t.Errorf("page %s still answers after the rename", oldID)
	} else if strings.Contains(errs, "panic") {
		t.Errorf("page %s: %s", oldID, errs)
	}

	full := filepath.Join(t.TempDir(), "full")
	runJSON(t, repo, &first, "--index", full, "build", "--json", "--full", repo)
	if m := graphtest.LiveManifest(t, full); m.FileSegments() < 2 {
		t.Fatalf("the full build wrote %d file segments, want 2", m.FileSegments())
	}
	asks := [][]string{
		{"query", "--json", "reckon doubles x"},
		{"query", "--json", "compute"},
		{"query", "--json", "use calls alpha"},
		{"page", "--json", newID},
		{"page", "--json", "file:alpha/f00.go"},
		{"page", "--json", "file:zeta/u06.go"},
		{"page", "--json", "symbol:zeta/u05.go#Use05"},
		{"page", "--json", "module:alpha"},
		{"related", "--json", newID},
		{"related", "--json", "--direction", "in", newID},
		{"related", "--json", "symbol:zeta/u06.go#Use06"},
		{"related", "--json", "symbol:zeta/u03.go#Use03"},
		{"related", "--json", "module:zeta"},
	}
	for _, ask := range asks {
		got := answer(t, repo, append([]string{"--index", index}, ask...)...)
		wantAns := answer(t, repo, append([]string{"--index", full}, ask...)...)
		if !reflect.DeepEqual(got, wantAns) {
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(wantAns, "", " ")
			t.Errorf("%v: the incremental index answers\n%s\nthe full one\n%s", ask, g, w)
		}
	}
}
