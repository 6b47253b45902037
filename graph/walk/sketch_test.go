package walk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// sketched writes files under root and returns a walk of it with its
// sketch (taken once the tree's times are older than RacyMargin), and the
// options it used.
func sketched(t *testing.T, root string, files map[string]string) (*Result, Options) {
	t.Helper()
	walktest.WriteTree(t, root, files)
	opt := Options{Detect: testDetect, Sketch: true}
	time.Sleep(60 * time.Millisecond)
	res := mustWalk(t, root, opt)
	if res.Sketch == nil {
		t.Fatal("no sketch")
	}
	return res, opt
}

// known is what a build indexed of res: its files with their stamps.
func known(res *Result) []FileStamp {
	var out []FileStamp
	for _, f := range res.Files {
		out = append(out, FileStamp{Path: f.Path, Stamp: Stamp{Size: f.Size, ModTime: f.ModTime}})
	}
	for _, s := range res.Skipped {
		out = append(out, FileStamp{Path: s.Path, Stamp: Stamp{Size: -1, ModTime: -1}})
	}
	return out
}

// TestSketchSince: after random edits, additions, removals and renames of
// files and directories, the paths a sketch's Since names, walked alone
// (WalkPaths), and the files it does not name, as they were, are exactly
// what a walk of the whole tree lists; twice in a row, the second from the
// sketch Update made of the first. Since stats directories, and reads only
// those whose times moved.
func TestSketchSince(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	settle := func() { time.Sleep(3 * RacyMargin) }
	answered := 0
	for seed := range 12 {
		t.Run(fmt.Sprintf("random%d", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 23))
			root := t.TempDir()
			files := randomTree(r)
			for i := range 40 { // more directories, deeper
				files[fmt.Sprintf("t%d/u%d/v%d/f%d.go", i%4, i%7, i, i)] = "package x\n"
			}
			walktest.WriteTree(t, root, files)
			opt := Options{Detect: testDetect, Sketch: true, MaxFileBytes: 200}
			settle()
			prev := mustWalk(t, root, opt)
			sk := prev.Sketch
			if sk == nil {
				t.Fatal("no sketch of a tree without symlinks")
			}
			clock := time.Now().Add(time.Hour)
			for round := range 2 {
				// Random changes.
				var all []string
				for _, f := range mustWalk(t, root, opt).Files {
					all = append(all, f.Path)
				}
				if len(all) == 0 {
					t.Skip("the ignore rules exclude every file")
				}
				for range 1 + r.IntN(5) {
					clock = clock.Add(time.Second)
					p := all[r.IntN(len(all))]
					abs := filepath.Join(root, filepath.FromSlash(p))
					switch r.IntN(7) {
					case 0: // edit
						os.WriteFile(abs, []byte("package y // edited\n"), 0o644)
						os.Chtimes(abs, clock, clock)
					case 1: // a new file beside it
						walktest.WriteFile(t, root, path.Dir(p)+fmt.Sprintf("/n%d.go", r.IntN(1000)), "package n\n")
					case 2: // a new directory of files
						d := path.Join(path.Dir(p), fmt.Sprintf("nd%d", r.IntN(1000)))
						walktest.WriteFile(t, root, d+"/a.go", "package a\n")
						walktest.WriteFile(t, root, d+"/sub/b.py", "x = 1\n")
					case 3: // remove
						os.Remove(abs)
					case 4: // remove its directory
						if d := path.Dir(p); d != "." {
							os.RemoveAll(filepath.Join(root, filepath.FromSlash(d)))
						}
					case 5: // rename into another directory
						to := path.Join(path.Dir(all[r.IntN(len(all))]), fmt.Sprintf("m%d.go", r.IntN(1000)))
						os.Rename(abs, filepath.Join(root, filepath.FromSlash(to)))
					case 6: // grow past the size limit
						os.WriteFile(abs, make([]byte, 300), 0o644)
					}
				}
				paths, dirs, ok := sk.Since(context.Background(), root, opt, known(prev))
				full := mustWalk(t, root, opt)
				if !ok {
					t.Logf("round %d: Since gave up", round)
					sk, prev = full.Sketch, full
					settle()
					continue
				}
				answered++
				sc, _ := NewScope(paths)
				walked, err := WalkPaths(context.Background(), root, opt, paths)
				if err != nil {
					t.Fatalf("WalkPaths(%q): %v", paths, err)
				}
				wantIn, _ := scoped(full, sc)
				if !slices.Equal(walked.Files, wantIn) {
					t.Errorf("round %d: WalkPaths(%q) = %v, want %v", round, paths, walked.Files, wantIn)
				}
				before := map[string]File{}
				for _, f := range prev.Files {
					before[f.Path] = f
				}
				now := map[string]bool{}
				for _, f := range full.Files {
					now[f.Path] = true
					if !sc.Contains(f.Path) && before[f.Path] != f {
						t.Errorf("round %d: %s changed (%v → %v) but Since did not name it (paths %q)", round, f.Path, before[f.Path], f, paths)
					}
				}
				for _, f := range prev.Files {
					if !now[f.Path] && !sc.Contains(f.Path) {
						t.Errorf("round %d: %s is gone but Since did not name it (paths %q)", round, f.Path, paths)
					}
				}
				same := sk.Same(paths, dirs, walked)
				next := sk.Update(paths, dirs, walked)
				if next == nil {
					t.Fatal("Update gave no sketch")
				}
				if same && !reflect.DeepEqual(next, sk) {
					t.Errorf("round %d: Same says the sketch stands after %q, but Update changed it", round, paths)
				}
				if !slices.IsSortedFunc(next.Dirs, func(a, b DirStamp) int { return strings.Compare(a.Rel, b.Rel) }) {
					t.Errorf("round %d: Update(%q) left the directories out of order", round, paths)
				}
				sk = next
				prev = full
				settle()
			}
		})
	}
	if answered < 12 {
		t.Errorf("Since answered %d of 24 rounds: it gives up too often to test", answered)
	}
}

// TestSketchSame: after a file's content changed, Since names the file
// alone, moves no directory, and the sketch stands (Same, and Update gives
// it back); after a file added beside it, it does not.
func TestSketchSame(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a/b/x.go": "package b\n", "a/b/y.go": "package b\n", "a/c/z.go": "package c\n", "top.go": "package top\n"})
	opt := Options{Detect: testDetect, Sketch: true}
	time.Sleep(3 * RacyMargin)
	prev := mustWalk(t, root, opt)
	sk := prev.Sketch
	step := func(name string, change func(), wantSame bool) {
		t.Helper()
		change()
		time.Sleep(3 * RacyMargin) // the directories' new times are not racy
		paths, dirs, ok := sk.Since(context.Background(), root, opt, known(prev))
		if !ok {
			t.Fatalf("%s: Since gave up", name)
		}
		walked, err := WalkPaths(context.Background(), root, opt, paths)
		if err != nil {
			t.Fatal(err)
		}
		next := sk.Update(paths, dirs, walked)
		if got := sk.Same(paths, dirs, walked); got != wantSame {
			t.Errorf("%s: Same(%q, %d dirs moved) = %v, want %v", name, paths, len(dirs), got, wantSame)
		}
		if wantSame && !reflect.DeepEqual(next, sk) {
			t.Errorf("%s: Update changed the sketch", name)
		}
		sk, prev = next, mustWalk(t, root, opt)
		time.Sleep(3 * RacyMargin)
	}
	clock := time.Now().Add(time.Hour)
	step("content edited", func() {
		abs := filepath.Join(root, "a", "b", "x.go")
		os.WriteFile(abs, []byte("package b // edited\n"), 0o644)
		os.Chtimes(abs, clock, clock)
	}, true)
	step("file added", func() { walktest.WriteFile(t, root, "a/b/w.go", "package b\n") }, false)
	step("top file edited", func() {
		abs := filepath.Join(root, "top.go")
		os.WriteFile(abs, []byte("package top // edited\n"), 0o644)
		os.Chtimes(abs, clock.Add(time.Second), clock.Add(time.Second))
	}, true)
}

// TestSketchGivesUp: an edited ignore file, other options and a symbolic
// link make a walk of the whole tree.
func TestSketchGivesUp(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a/.gitignore": "*.txt\n", "a/x.go": "", "b/y.go": ""})
	opt := Options{Detect: testDetect, Sketch: true}
	time.Sleep(60 * time.Millisecond)
	res := mustWalk(t, root, opt)
	if _, _, ok := res.Sketch.Since(context.Background(), root, opt, known(res)); !ok {
		t.Fatal("Since gave up on an unchanged tree")
	}
	paths, _, _ := res.Sketch.Since(context.Background(), root, opt, known(res))
	if len(paths) != 0 {
		t.Errorf("Since of an unchanged tree = %q, want none", paths)
	}
	if _, _, ok := res.Sketch.Since(context.Background(), root, Options{Detect: testDetect, MaxFileBytes: 7}, known(res)); ok {
		t.Error("Since answered for other options")
	}
	later := time.Now().Add(time.Hour)
	os.WriteFile(filepath.Join(root, "a", ".gitignore"), []byte("*.md\n"), 0o644)
	os.Chtimes(filepath.Join(root, "a", ".gitignore"), later, later)
	if _, _, ok := res.Sketch.Since(context.Background(), root, opt, known(res)); ok {
		t.Error("Since answered after an ignore file changed")
	}
	os.WriteFile(filepath.Join(root, "a", ".gitignore"), []byte("*.txt\n"), 0o644)
	// A file symlink is named every time, so that its target's edits show.
	os.Symlink(filepath.Join(root, "b", "y.go"), filepath.Join(root, "a", "flink.go"))
	time.Sleep(60 * time.Millisecond)
	res = mustWalk(t, root, opt)
	if res.Sketch == nil {
		t.Fatal("no sketch of a tree with a file symlink")
	}
	time.Sleep(60 * time.Millisecond)
	later = later.Add(time.Hour)
	os.WriteFile(filepath.Join(root, "b", "y.go"), []byte("package b\n"), 0o644)
	os.Chtimes(filepath.Join(root, "b", "y.go"), later, later)
	if paths, _, ok := res.Sketch.Since(context.Background(), root, opt, known(res)); !ok || !slices.Contains(paths, "a/flink.go") || !slices.Contains(paths, "b/y.go") {
		t.Errorf("Since after a symlinked file's target changed = %q, %v; want a/flink.go and b/y.go", paths, ok)
	}
	os.Symlink(filepath.Join(root, "b"), filepath.Join(root, "a", "link"))
	if res := mustWalk(t, root, opt); res.Sketch != nil {
		t.Error("a sketch of a tree with a directory symlink")
	}
}

// TestPlanAnchors: every directory and known file of a sketch is stat'ed
// exactly once, an anchor by its own unit and any other entry in a unit
// whose anchor holds it (or by path when no known directory holds it), and
// the directories with anchorMin entries are anchors.
func TestPlanAnchors(t *testing.T) {
	dirs := []DirStamp{{Rel: ""}, {Rel: "a"}, {Rel: "a-b"}, {Rel: "a/b"}, {Rel: "a/b/c"}, {Rel: "a/d"}, {Rel: "lone/x"}}
	var known []FileStamp
	for _, f := range []string{"r.go", "a/1.go", "a/2.go", "a/b/c/1.go", "a/b/c/2.go", "a/b/c/3.go", "a/b/c/4.go", "a/d/1.go", "lone/x/1.go", "gone/1.go"} {
		known = append(known, FileStamp{Path: f})
	}
	p := planAnchors(dirs, known)
	seenDir := make([]int, len(dirs))
	seenFile := make([]int, len(known))
	var anchors []string
	for u, h := range p.units {
		base := ""
		if h >= 0 {
			seenDir[h]++
			base = dirs[h].Rel
			anchors = append(anchors, base)
		}
		for _, it := range p.items[p.start[u]:p.start[u+1]] {
			rel := ""
			if it >= 0 {
				seenDir[it]++
				rel = dirs[it].Rel
			} else {
				seenFile[^it]++
				rel = known[^it].Path
			}
			if h >= 0 && base != "" && !strings.HasPrefix(rel, base+"/") {
				t.Errorf("%s is stat'ed relative to %s", rel, base)
			}
		}
	}
	for i, n := range seenDir {
		if n != 1 {
			t.Errorf("directory %q stat'ed %d times", dirs[i].Rel, n)
		}
	}
	for j, n := range seenFile {
		if n != 1 {
			t.Errorf("file %q stat'ed %d times", known[j].Path, n)
		}
	}
	if want := []string{"", "a", "a/b/c"}; !slices.Equal(anchors, want) {
		t.Errorf("anchors %q, want %q", anchors, want)
	}
}

// TestSketchSinceAnchors: a file edited below an anchor (a directory of
// many entries) through a directory that is not one, and an anchor
// replaced by a symbolic link or removed, are named by Since.
func TestSketchSinceAnchors(t *testing.T) {
	old := RacyMargin
	RacyMargin = 20 * time.Millisecond
	t.Cleanup(func() { RacyMargin = old })
	for _, change := range []string{"edit", "symlink", "remove"} {
		t.Run(change, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{}
			for i := range 6 {
				files[fmt.Sprintf("hub/f%d.go", i)] = "package h\n"
				files[fmt.Sprintf("other/f%d.go", i)] = "package o\n"
			}
			files["hub/thin/deep/x.go"] = "package x\n"
			res, opt := sketched(t, root, files)
			var want string
			switch change {
			case "edit":
				abs := filepath.Join(root, "hub/thin/deep/x.go")
				os.WriteFile(abs, []byte("package x // edited\n"), 0o644)
				later := time.Now().Add(-time.Hour)
				os.Chtimes(abs, later, later)
				want = "hub/thin/deep/x.go"
			case "symlink":
				os.Rename(filepath.Join(root, "hub"), filepath.Join(root, "moved"))
				if err := os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "hub")); err != nil {
					t.Skip(err)
				}
				want = "hub"
			case "remove":
				os.RemoveAll(filepath.Join(root, "other"))
				want = "other"
			}
			paths, _, ok := res.Sketch.Since(context.Background(), root, opt, known(res))
			if !ok {
				t.Fatal("Since gave up")
			}
			if !slices.Contains(paths, want) {
				t.Errorf("Since named %q, not %q", paths, want)
			}
		})
	}
}

// TestWalkLinks holds Links and MetDirLink (what the watcher's journal
// reads of a build's walk) for a walk of the tree and of paths: every
// symbolic link met, to a file or a directory, and whether one led to a
// directory.
func TestWalkLinks(t *testing.T) {
	root := t.TempDir()
	for p, src := range map[string]string{"a/x.go": "package a\n", "b/y.go": "package b\n"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(src), 0o644)
	}
	os.Symlink(filepath.Join("..", "a", "x.go"), filepath.Join(root, "b", "link.go"))
	opt := Options{Sketch: true, Detect: func(p string) string {
		if strings.HasSuffix(p, ".go") {
			return "go"
		}
		return ""
	}}
	res, err := Walk(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Links(); !slices.Equal(got, []string{"b/link.go"}) || res.MetDirLink() {
		t.Fatalf("walk with a file link: Links %q, MetDirLink %v", got, res.MetDirLink())
	}
	os.Symlink("a", filepath.Join(root, "alias"))
	if res, err = Walk(context.Background(), root, opt); err != nil {
		t.Fatal(err)
	}
	if got := res.Links(); !slices.Equal(got, []string{"alias", "b/link.go"}) || !res.MetDirLink() {
		t.Fatalf("walk with a directory link too: Links %q, MetDirLink %v", got, res.MetDirLink())
	}
	if res, err = WalkPaths(context.Background(), root, opt, []string{"b"}); err != nil {
		t.Fatal(err)
	}
	if got := res.Links(); !slices.Equal(got, []string{"b/link.go"}) || res.MetDirLink() {
		t.Fatalf("walk of b: Links %q, MetDirLink %v", got, res.MetDirLink())
	}
	if res, err = WalkPaths(context.Background(), root, opt, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if got := res.Links(); len(got) != 0 || res.MetDirLink() {
		t.Fatalf("walk of a: Links %q, MetDirLink %v", got, res.MetDirLink())
	}
}
