package wiki

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// diskFile is one file of an index folder: its size and the bytes it
// holds, the smaller of its size and what the file system allocated for
// it (Badger preallocates sparse files: a segment's DISCARD is 1 MiB long
// and holds one block).
type diskFile struct {
	size, alloc int64
	mtime       time.Time
}

// indexFiles lists the files under index's seg/ and gen/ folders by path
// relative to index.
func indexFiles(t *testing.T, index string) map[string]diskFile {
	t.Helper()
	out := map[string]diskFile{}
	for _, sub := range []string{"seg", "gen"} {
		err := filepath.WalkDir(filepath.Join(index, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(index, p)
			f := diskFile{size: fi.Size(), mtime: fi.ModTime()}
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				f.alloc = min(st.Blocks*512, fi.Size())
			}
			out[filepath.ToSlash(rel)] = f
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// segOf is the segment folder ("seg/000003") of a path under seg/, or "".
func segOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) < 3 || parts[0] != "seg" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// complexityStep is one incremental build of TestIncrementalCostFollowsChange.
type complexityStep struct {
	name        string
	change      func(t *testing.T, root string)
	wantDeltas  int // new file segments the change needs
	newSegs     []string
	alloc, size int64    // bytes held (diskFile.alloc) and apparent of the files the build created under seg/ and gen/
	mods        int64    // of alloc, the bytes of new modules segments
	opens       int64    // segment databases the build opened (graph.SegmentOpens)
	tableBytes  int64    // bytes of stat table it read (graph.StatTableBytes)
	paths       []string // what it changed, for a build given them (BuildOptions.Changed)
	cacheBytes  int64    // bytes of cache files it wrote (graph.CacheBytesWritten)
	dirsRead    int      // directories its walk read
}

// complexitySteps are the changes, the same on every tree: synth.Write
// gives file 0 (services/svc000/user/user_0.go) the same content at every
// size, and services/svc003/user/ two files.
func complexitySteps() []*complexityStep {
	edit := func(rel, old, new string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			p := filepath.Join(root, filepath.FromSlash(rel))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), old) {
				t.Fatalf("%s holds no %q", rel, old)
			}
			writeLater(t, p, strings.Replace(string(b), old, new, 1))
		}
	}
	return []*complexityStep{
		{name: "nothing changed", change: func(*testing.T, string) {}, wantDeltas: 0, paths: []string{}},
		{name: "edit a body", change: edit("services/svc000/user/user_0.go", "return a - b", "return a - b + 1"), wantDeltas: 1,
			paths: []string{"services/svc000/user/user_0.go"}},
		{name: "edit the body again", change: edit("services/svc000/user/user_0.go", "return a - b + 1", "return a - b + 2"), wantDeltas: 1,
			paths: []string{"services/svc000/user/user_0.go"}},
		{name: "add a function", change: edit("services/svc000/user/user_0.go", "func helper0(",
			"// Extra0 is a function the test adds.\nfunc Extra0() int { return helper0(1, 2) }\n\nfunc helper0("), wantDeltas: 1,
			paths: []string{"services/svc000/user/user_0.go"}},
		{name: "add a leaf function", change: edit("services/svc000/user/user_0.go", "func helper0(",
			"func addedFn1() int { return 1 }\n\nfunc helper0("), wantDeltas: 1,
			paths: []string{"services/svc000/user/user_0.go"}},
		{name: "remove a file", change: func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "services/svc003/user/user_3.go")); err != nil {
				t.Fatal(err)
			}
		}, wantDeltas: -1, paths: []string{"services/svc003/user/user_3.go"}},
		{name: "add a file in a new directory", change: func(t *testing.T, root string) {
			walktest.WriteFile(t, root, "services/svc000/user/zz_new/doc.go", "// Package zznew is a directory the test adds.\npackage zznew\n\nfunc New() int { return 1 }\n")
		}, wantDeltas: 1, paths: []string{"services/svc000/user/zz_new/doc.go"}},
		{name: "remove the new directory", change: func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, "services/svc000/user/zz_new")); err != nil {
				t.Fatal(err)
			}
		}, wantDeltas: -1, paths: []string{"services/svc000/user/zz_new/doc.go"}},
	}
}

// shardModules cuts the module pages of the test's builds into shards of
// 64 (graph.ModuleShardPages; 4,096 by default, which trees this small
// never reach): the 2,000-file tree then has more shards than the 500-file
// one, and a change must rewrite as few of them on each.
func shardModules(t *testing.T) {
	was := graph.ModuleShardPages
	graph.ModuleShardPages = 64
	t.Cleanup(func() { graph.ModuleShardPages = was })
}

// writeLater writes content to p with a modification time a second past
// its old one, so that no edit hides behind an unchanged stamp.
func writeLater(t *testing.T, p, content string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

// costOnTree builds a synthetic tree of files files in full, applies the
// steps one after another with an incremental build after each, and checks
// that each build wrote only the segments the change needs: wantDeltas new
// file segments (at most one when it is -1), every file segment of the
// full build still live and untouched. It fills in the steps' bytes and
// returns the bytes of the full build's file segments.
func costOnTree(t *testing.T, files int, steps []*complexityStep) (base int64) {
	return costOnTreeGiven(t, files, steps, false)
}

// costOnTreeGiven is costOnTree, each build given the step's paths
// (BuildOptions.Changed) when given is set.
func costOnTreeGiven(t *testing.T, files int, steps []*complexityStep, given bool) (base int64) {
	ctx := context.Background()
	root := t.TempDir()
	if _, err := synth.Write(root, synth.Options{Files: files, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(root, graph.IndexDirName)
	res, err := Build(ctx, BuildOptions{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "full" {
		t.Fatalf("first build: mode %q", res.Mode)
	}
	full := indexFiles(t, index)
	baseSegs := map[string]bool{}
	m := graphtest.LiveManifest(t, index)
	for _, sg := range m.Segments {
		if sg.Kind == "files" {
			baseSegs[fmt.Sprintf("seg/%06d", sg.ID)] = true
		}
	}
	for rel, f := range full {
		if baseSegs[segOf(rel)] {
			base += f.alloc
		}
	}
	for _, st := range steps {
		before := indexFiles(t, index)
		liveBefore := len(graphtest.LiveManifest(t, index).Segments)
		st.change(t, root)
		opens, table, cache := graph.SegmentOpens(), graph.StatTableBytes(), graph.CacheBytesWritten()
		var changed []string
		if given {
			changed = st.paths
		}
		res, err := Build(ctx, BuildOptions{Root: root, Changed: changed})
		st.opens, st.tableBytes = graph.SegmentOpens()-opens, graph.StatTableBytes()-table
		st.cacheBytes = graph.CacheBytesWritten() - cache
		if err == nil {
			st.dirsRead = res.DirsRead
		}
		if err != nil {
			t.Fatalf("%d files, %s: %v", files, st.name, err)
		}
		if res.Mode == "full" {
			t.Fatalf("%d files, %s: the build was full, not incremental", files, st.name)
		}
		after := indexFiles(t, index)
		m := graphtest.LiveManifest(t, index)
		kind := map[string]string{}
		for _, sg := range m.Segments {
			kind[fmt.Sprintf("seg/%06d", sg.ID)] = sg.Kind
		}
		for s := range baseSegs {
			if kind[s] != "files" {
				t.Errorf("%d files, %s: base segment %s is no longer live: the build rewrote it", files, st.name, s)
			}
		}
		newSegs := map[string]bool{}
		for rel, f := range after {
			if b, ok := before[rel]; ok {
				if s := segOf(rel); s != "" && (b.size != f.size || !b.mtime.Equal(f.mtime)) {
					t.Errorf("%d files, %s: %s of live segment changed (%d → %d bytes): segments are immutable", files, st.name, rel, b.size, f.size)
				}
				continue
			}
			st.alloc += f.alloc
			st.size += f.size
			if s := segOf(rel); s != "" {
				newSegs[s] = true
				if kind[s] == "modules" {
					st.mods += f.alloc
				}
			}
		}
		deltas := 0
		for s := range newSegs {
			st.newSegs = append(st.newSegs, s+"("+kind[s]+")")
			if kind[s] == "files" {
				deltas++
			}
		}
		slices.Sort(st.newSegs)
		if st.wantDeltas >= 0 && deltas != st.wantDeltas || st.wantDeltas < 0 && deltas > 1 {
			t.Errorf("%d files, %s: %d new file segments %v, want %d (-1: at most 1)", files, st.name, deltas, st.newSegs, st.wantDeltas)
		}
		// What the build read: the stats of the tree from the stat table
		// (one read; the build before wrote it), and no segment database
		// at all when nothing changed.
		if st.tableBytes == 0 {
			t.Errorf("%d files, %s: the build read no stat table (the stats came from the segments)", files, st.name)
		}
		if st.name == "nothing changed" && st.opens != 0 {
			t.Errorf("%d files, %s: the build opened %d segment databases, want none", files, st.name, st.opens)
		}
		if live := int64(max(len(m.Segments), liveBefore)); st.opens > live {
			t.Errorf("%d files, %s: the build opened %d segment databases, more than the %d live", files, st.name, st.opens, live)
		}
		t.Logf("%d files, %s: %d parsed, new %v, %d bytes written (%d apparent; %d of modules segments); %d segment databases opened, %d bytes of stat table read, %d of cache files written, %d directories read",
			files, st.name, res.FilesParsed, st.newSegs, st.alloc, st.size, st.mods, st.opens, st.tableBytes, st.cacheBytes, st.dirsRead)
	}
	return base
}

// TestIncrementalCostFollowsChange builds a 500- and a 2,000-file
// synthetic tree in full and then makes the same three changes to each
// (edit a function's body, add a function, remove a file), with an
// incremental build after each. Each build must write exactly the
// segments the change needs (one delta for an edit; no file segment of
// the full build rewritten), and the bytes it writes (the new files under
// seg/ and gen/) must not grow with the tree: on the 2,000-file tree
// within 1.5× + 4 KiB of the 500-file one, and below a tenth of the full
// build's file segments. The modules segments they rewrite count too: the
// module pages are cut into shards of 64 here (shardModules), and a change
// rewrites only the shards whose pages or doc candidates it alters (before
// shards, a removed file with a package doc rewrote every directory's
// page: 6 KB on 500 files, 11.7 KB on 2,000; now 3.8 and 3.5 KB), at most
// two. Nothing here measures time.
func TestIncrementalCostFollowsChange(t *testing.T) {
	shardModules(t)
	small, large := complexitySteps(), complexitySteps()
	baseSmall := costOnTree(t, 500, small)
	baseLarge := costOnTree(t, 2000, large)
	t.Logf("full build's file segments: 500 files %d bytes, 2000 files %d bytes", baseSmall, baseLarge)
	for i := range small {
		s, l := small[i], large[i]
		if sb, lb := s.alloc, l.alloc; float64(lb) > 1.5*float64(sb)+4<<10 {
			t.Errorf("%s: wrote %d bytes on 2,000 files, %d on 500: the cost grows with the tree", s.name, lb, sb)
		}
		for _, st := range []*complexityStep{s, l} {
			mods := 0
			for _, sg := range st.newSegs {
				if strings.HasSuffix(sg, "(modules)") {
					mods++
				}
			}
			if mods > 2 {
				t.Errorf("%s: wrote %d modules segments %v, want at most 2", st.name, mods, st.newSegs)
			}
		}
		if l.alloc*10 > baseLarge || s.alloc*10 > baseSmall {
			t.Errorf("%s: wrote %d / %d bytes, not far below the full build's %d / %d", s.name, s.alloc, l.alloc, baseSmall, baseLarge)
		}
	}
}

// TestIncrementalChangedCostFollowsChange makes the changes of
// TestIncrementalCostFollowsChange on a 500- and a 2,000-file tree, each
// build given the paths changed (BuildOptions.Changed, `build
// --changed`): besides what that test asks, the builds must read no
// directory, and the cache files they write beside the generation (the
// stat table, the walk's sketch) must not grow with the tree: within
// 1.5× + 1 KiB of the 500-file tree's, where rewriting the stat table and
// the sketch wrote a record per file and per directory of the tree.
func TestIncrementalChangedCostFollowsChange(t *testing.T) {
	// The module pages are not cut here: the seal-check cache lists every
	// segment's files, so its bytes follow the number of segments, which
	// shards of 64 pages make grow with the tree.
	small, large := complexitySteps(), complexitySteps()
	costOnTreeGiven(t, 500, small, true)
	costOnTreeGiven(t, 2000, large, true)
	for i := range small {
		s, l := small[i], large[i]
		if s.dirsRead != 0 || l.dirsRead != 0 {
			t.Errorf("%s: the builds given the paths read %d / %d directories, want none", s.name, s.dirsRead, l.dirsRead)
		}
		if float64(l.cacheBytes) > 1.5*float64(s.cacheBytes)+1<<10 {
			t.Errorf("%s: wrote %d bytes of cache files on 2,000 files, %d on 500: the cost grows with the tree", s.name, l.cacheBytes, s.cacheBytes)
		}
	}
}

// TestIncrementalOpensFollowChange makes the changes of
// TestIncrementalCostFollowsChange on a 500- and a 2,000-file tree cut in
// segments of 50 files (10 and 40 of them) and counts the segment
// databases each build opens. An edit of a function's body changes no
// definition and no reference but for its lines: the build must open a
// bounded number of segments, the same on both trees (the modules
// segment, the edited file's, at most one more), where it opened every
// one to look its names up. A segment is opened only when its name filter
// says it may hold a key the build asks (graph's segfilter.go), and the
// edited file keeps its stored edges instead of being resolved again. A
// function added or a file removed still resolves what the change names,
// and opens the segments that define or use those names (logged only:
// their count follows the names, which the synthetic files share). The
// same body edited again opens no more than the first edit: the copy the
// first left dead in its segment is not looked up. A function added that
// references nothing new opens a bounded number too: the edited file's
// other references keep their stored edges.
func TestIncrementalOpensFollowChange(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "50")
	small, large := complexitySteps(), complexitySteps()
	costOnTree(t, 500, small)
	costOnTree(t, 2000, large)
	for i := range small {
		s, l := small[i], large[i]
		t.Logf("%s: %d segment databases opened on 500 files (11 live), %d on 2,000 (41 live)", s.name, s.opens, l.opens)
		if s.name == "edit the body again" {
			// The copy the first edit left dead in the file's segment of
			// the full build is not asked for: the build opens what the
			// first edit's opened, not one more.
			first := slices.IndexFunc(small, func(c *complexityStep) bool { return c.name == "edit a body" })
			if s.opens > small[first].opens || l.opens > large[first].opens {
				t.Errorf("%s: opened %d / %d segment databases on 500 / 2,000 files, more than the first edit's %d / %d (a segment holding only a dead copy was opened)",
					s.name, s.opens, l.opens, small[first].opens, large[first].opens)
			}
			continue
		}
		if s.name == "add a leaf function" {
			// The new function's name and its references' (int) are
			// all the build looks up: the file's other references keep
			// their stored edges (graph's resolvePartial), where it
			// resolved them all again and opened the segments defining
			// their names (22 of 41 on 2,000 files). The modules
			// segment stands; the filters' false positives may add one.
			if l.opens > 4 || s.opens > 4 {
				t.Errorf("%s: opened %d segment databases on 2,000 files, %d on 500; want at most 4 on either", s.name, l.opens, s.opens)
			}
			continue
		}
		if s.name != "edit a body" {
			continue
		}
		if l.opens > s.opens+1 || l.opens > 3 || s.opens > 3 {
			t.Errorf("%s: opened %d segment databases on 2,000 files, %d on 500; want at most 3 on either", s.name, l.opens, s.opens)
		}
	}
}
