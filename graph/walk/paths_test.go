package walk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// scoped is what res lists at or below the paths of sc.
func scoped(res *Result, sc Scope) (files []File, skipped []Skip) {
	for _, f := range res.Files {
		if sc.Contains(f.Path) {
			files = append(files, f)
		}
	}
	for _, s := range res.Skipped {
		if sc.Contains(s.Path) {
			skipped = append(skipped, s)
		}
	}
	return files, skipped
}

// checkPaths compares WalkPaths of paths with Walk of the whole tree
// restricted to the paths. It reports whether WalkPaths answered (rather
// than ErrWalkAll).
func checkPaths(t *testing.T, root string, opt Options, paths []string) bool {
	t.Helper()
	if opt.Detect == nil {
		opt.Detect = testDetect
	}
	full := mustWalk(t, root, opt)
	got, err := WalkPaths(context.Background(), root, opt, paths)
	if errors.Is(err, ErrWalkAll) {
		return false
	}
	if err != nil {
		t.Fatalf("WalkPaths(%q): %v", paths, err)
	}
	sc, _ := NewScope(paths)
	wantFiles, wantSkipped := scoped(full, sc)
	if !slices.Equal(got.Files, wantFiles) {
		t.Errorf("WalkPaths(%q) files:\n got  %v\n want %v", paths, got.Files, wantFiles)
	}
	if !slices.Equal(got.Skipped, wantSkipped) {
		t.Errorf("WalkPaths(%q) skipped:\n got  %v\n want %v", paths, got.Skipped, wantSkipped)
	}
	return true
}

func TestNewScope(t *testing.T) {
	sc, ok := NewScope([]string{"a/b", "a", "a-b/c", "x/./y", "a/b/c", "a-b"})
	if !ok {
		t.Fatal("NewScope refused clean paths")
	}
	if want := []string{"a", "a-b", "x/y"}; !slices.Equal(sc.Paths(), want) {
		t.Errorf("Paths = %q, want %q", sc.Paths(), want)
	}
	for p, want := range map[string]bool{"a": true, "a/z": true, "a-b/c": true, "ab": false, "x": false, "x/y/z": true, "b": false} {
		if sc.Contains(p) != want {
			t.Errorf("Contains(%q) = %v, want %v", p, !want, want)
		}
	}
	for _, bad := range []string{"", ".", "..", "../x", "/abs"} {
		if _, ok := NewScope([]string{"a", bad}); ok {
			t.Errorf("NewScope accepted %q", bad)
		}
	}
}

// TestWalkPathsMatchesWalk: on random trees with random ignore files, with
// and without git (tracked ignored files), WalkPaths of random paths —
// files, directories, gone paths — lists exactly what Walk lists there.
func TestWalkPathsMatchesWalk(t *testing.T) {
	answered := 0
	for seed := range 10 {
		for _, withGit := range []bool{false, true} {
			t.Run(fmt.Sprintf("random%d-git%v", seed, withGit), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(seed), 13))
				files := randomTree(r)
				root := t.TempDir()
				walktest.WriteTree(t, root, files)
				if withGit {
					walktest.Git(t, root, "init", "-q")
					var tracked []string
					for p := range files {
						if r.IntN(4) == 0 {
							tracked = append(tracked, p)
						}
					}
					slices.Sort(tracked)
					if len(tracked) > 0 {
						walktest.Git(t, root, append([]string{"--literal-pathspecs", "add", "-f", "--"}, tracked...)...)
					}
				}
				var cands []string
				for p := range files {
					if path.Base(p) == ".gitignore" {
						continue
					}
					cands = append(cands, p, path.Dir(p), p+".gone", path.Dir(p)+"/new")
				}
				slices.Sort(cands)
				opt := Options{ExcludeDirs: []string{"dd"}}
				for range 30 {
					var paths []string
					for range 1 + r.IntN(3) {
						if c := cands[r.IntN(len(cands))]; c != "." {
							paths = append(paths, c)
						}
					}
					if len(paths) > 0 && checkPaths(t, root, opt, paths) {
						answered++
					}
				}
			})
		}
	}
	if answered < 300 {
		t.Errorf("WalkPaths answered %d of 600 calls: it gives up too often to test", answered)
	}
}

// TestWalkPathsSkips: the skips of the paths walked (too large, vendored,
// not regular, unreadable) are Walk's; a directory symlink, a path below
// one, an ignore file and the root are refused with ErrWalkAll.
func TestWalkPathsSkips(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{
		"a/big.go": strings.Repeat("x", 300), "a/ok.go": "package a", "a/vendor/v.go": "", "a/b/c/d.go": "",
		"a/b/note.png": "", "real/x.go": "", ".gitignore": "*.gen.go\n", "a/z.gen.go": "", "a/.gitignore": "/b/c/\n",
	})
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "a", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a", "ok.go"), filepath.Join(root, "a", "flink.go")); err != nil {
		t.Fatal(err)
	}
	opt := Options{MaxFileBytes: 100}
	for _, paths := range [][]string{{"a/big.go"}, {"a/vendor"}, {"a/vendor/v.go"}, {"a/ok.go", "a/b"}, {"a/b/c"}, {"a/b/c/d.go"},
		{"a/z.gen.go"}, {"a/flink.go"}, {"a/b/note.png"}, {"nope/x.go"}, {"a/ok.go/x"}} {
		if !checkPaths(t, root, opt, paths) {
			t.Errorf("WalkPaths(%q) gave up", paths)
		}
	}
	for _, paths := range [][]string{{"a/link"}, {"a/link/x.go"}, {"a"}, {".gitignore"}, {"a/.gitignore"}, {"."}, {""}} {
		if _, err := WalkPaths(context.Background(), root, Options{Detect: testDetect}, paths); !errors.Is(err, ErrWalkAll) {
			t.Errorf("WalkPaths(%q) = %v, want ErrWalkAll", paths, err)
		}
	}
	// Only the directories at or below the paths are read.
	res, err := WalkPaths(context.Background(), root, Options{Detect: testDetect}, []string{"a/b", "a/ok.go"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dirs != 1 {
		t.Errorf("WalkPaths read %d directories, want 1 (a/b; a/b/c is ignored)", res.Dirs)
	}
}

// TestWalkPathsUnwalked: the paths that exist but that Walk lists nothing
// at or below are Unwalked, with why (omitted, ignored, not indexed, below
// an excluded, ignored or omitted directory); a gone path, a listed file, a
// skipped one and a directory read are not.
func TestWalkPathsUnwalked(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{
		"a/ok.go": "package a", "a/vendor/v.go": "", "a/note.png": "", ".gitignore": "*.gen.go\nscratch/\n", "a/z.gen.go": "",
		"scratch/s.go": "", "scratch/deep/d.go": "", ".wikitoolkit/x.go": "", "a/big.go": strings.Repeat("x", 300), "b/c.go": "",
	})
	opt := Options{MaxFileBytes: 100, Detect: testDetect, OmitNames: []string{".wikitoolkit"}}
	res, err := WalkPaths(context.Background(), root, opt, []string{
		"a/ok.go", "a/vendor/v.go", "a/note.png", "a/z.gen.go", "scratch/s.go", "scratch/deep", ".wikitoolkit/x.go", "a/big.go", "gone.go", "b"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range res.Unwalked {
		got[s.Path] = s.Reason
	}
	want := map[string]string{
		"a/vendor/v.go":     "below a/vendor: " + reasonVendored,
		"a/note.png":        "not indexed: ",
		"a/z.gen.go":        ReasonIgnored,
		"scratch/s.go":      "below scratch: " + ReasonIgnored,
		"scratch/deep":      "below scratch: " + ReasonIgnored,
		".wikitoolkit/x.go": "below .wikitoolkit: " + ReasonOmitted,
	}
	for p, w := range want {
		if !strings.HasPrefix(got[p], w) {
			t.Errorf("Unwalked[%s] = %q, want %q", p, got[p], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Unwalked = %v, want just %v", res.Unwalked, want)
	}
	if len(res.Files) != 2 || len(res.Skipped) != 1 {
		t.Errorf("files %v, skipped %v: want a/ok.go and b/c.go, and a/big.go skipped", res.Files, res.Skipped)
	}
}
