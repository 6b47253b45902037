package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
	"github.com/wikitoolkit/wikitoolkit/parser"
)

func build(t *testing.T, root string, full bool) *BuildInfo {
	t.Helper()
	info, err := Build(context.Background(), BuildOptions{Root: root, Full: full})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func open(t *testing.T, root string) *Snapshot {
	t.Helper()
	s, err := OpenSnapshot(filepath.Join(root, IndexDirName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func inRefs(t *testing.T, s *Snapshot, id string) []string {
	t.Helper()
	rec, err := s.Page(id)
	if err != nil {
		t.Fatalf("page %s: %v", id, err)
	}
	return rec.In[References]
}

func TestIncrementalBuild(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "lib/lib.go", "// Package lib helps.\npackage lib\n\n// Helper helps.\nfunc Helper() int { return 1 }\n")
	walktest.WriteFile(t, root, "app/main.go", "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { lib.Helper() }\n")
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	info := build(t, root, false)
	if info.Mode != "full" || info.FilesParsed != 3 { // go.mod is text
		t.Fatalf("first build: %+v", info)
	}
	s := open(t, root)
	if got := inRefs(t, s, "symbol:lib/lib.go#Helper"); !slices.Equal(got, []string{"symbol:app/main.go#main"}) {
		t.Fatalf("Helper callers = %v", got)
	}
	rec, _ := s.Page("file:app/main.go")
	if !slices.Contains(rec.Out[Imports], "module:lib") {
		t.Fatalf("main.go imports = %v", rec.Out[Imports])
	}
	s.Close()

	// No change: nothing parsed, no new generation.
	info = build(t, root, false)
	if info.Mode != "incremental" || info.FilesParsed != 0 || info.FilesUnchanged != 3 || info.Generation != 1 {
		t.Fatalf("no-change build: %+v", info)
	}
	// Touch without a content change: rehashed, not reparsed.
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(root, "lib/lib.go"), later, later)
	if info = build(t, root, false); info.FilesParsed != 0 || info.Generation != 1 {
		t.Fatalf("touch build: %+v", info)
	}

	// Rename the callee: the caller's edge must move without reparsing the caller.
	walktest.WriteFile(t, root, "lib/lib.go", "package lib\n\nfunc Other() int { return 2 }\n")
	info = build(t, root, false)
	if info.FilesParsed != 1 || info.FilesUnchanged != 2 {
		t.Fatalf("edit build: %+v", info)
	}
	s = open(t, root)
	if _, err := s.Page("symbol:lib/lib.go#Helper"); err != ErrNotFound {
		t.Fatalf("Helper still present: %v", err)
	}
	s.Close()
	// Restore: the unchanged caller's reference resolves again.
	walktest.WriteFile(t, root, "lib/lib.go", "package lib\n\nfunc Helper() int { return 3 }\n")
	build(t, root, false)
	s = open(t, root)
	if got := inRefs(t, s, "symbol:lib/lib.go#Helper"); !slices.Equal(got, []string{"symbol:app/main.go#main"}) {
		t.Fatalf("after restore, Helper callers = %v", got)
	}
	s.Close()

	// Remove a file.
	os.Remove(filepath.Join(root, "app/main.go"))
	info = build(t, root, false)
	if info.FilesRemoved != 1 {
		t.Fatalf("remove build: %+v", info)
	}
	s = open(t, root)
	if _, err := s.Page("file:app/main.go"); err != ErrNotFound {
		t.Fatalf("removed file still has a page: %v", err)
	}
	if got := inRefs(t, s, "symbol:lib/lib.go#Helper"); len(got) != 0 {
		t.Fatalf("callers after removal = %v", got)
	}
	s.Close()

	// Full: reparses everything; only the live generation remains.
	info = build(t, root, true)
	if info.Mode != "full" || info.FilesParsed != 2 { // and go.mod
		t.Fatalf("full build: %+v", info)
	}
	gens := generations(filepath.Join(root, IndexDirName))
	if len(gens) != 1 || gens[0] != info.Generation {
		t.Fatalf("generations left: %v (live %d)", gens, info.Generation)
	}
}

func TestGenerationKeptWhileOpen(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.py", "def f():\n    return 1\n")
	build(t, root, false)
	s := open(t, root) // a reader holds generation 1
	walktest.WriteFile(t, root, "a.py", "def g():\n    return 2\n")
	info := build(t, root, false)
	if info.Generation != 2 {
		t.Fatalf("generation %d", info.Generation)
	}
	if _, err := s.Page("symbol:a.py#f"); err != nil {
		t.Fatalf("open snapshot lost its page: %v", err)
	}
	s.Close()
	walktest.WriteFile(t, root, "a.py", "def h():\n    return 3\n")
	build(t, root, false)
	if gens := generations(filepath.Join(root, IndexDirName)); len(gens) != 1 {
		t.Fatalf("stale generations not removed: %v", gens)
	}
}

func TestDuplicateQualifiedNames(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "d.py", "def f():\n    pass\n\ndef f():\n    pass\n")
	build(t, root, false)
	s := open(t, root)
	for _, id := range []string{"symbol:d.py#f", "symbol:d.py#f~2"} {
		if _, err := s.Page(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

func TestFanOutCapped(t *testing.T) {
	root := t.TempDir()
	for i := range 10 {
		walktest.WriteFile(t, root, filepath.Join("p", string(rune('a'+i)), "x.go"), "package x\n\nfunc String() string { return \"\" }\n")
	}
	walktest.WriteFile(t, root, "q/use.go", "package q\n\nfunc Use() { String() }\n")
	build(t, root, false)
	s := open(t, root)
	rec, err := s.Page("symbol:q/use.go#Use")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Out[References]); n != 0 {
		t.Fatalf("ambiguous String resolved to %d definitions", n)
	}
}

// TestFileDeletedDuringBuild removes a file between the walk and its
// parse: the build reports it as skipped and goes on.
func TestFileDeletedDuringBuild(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc A() {}\n")
	walktest.WriteFile(t, root, "b.go", "package a\n\nfunc B() { A() }\n")
	w, err := walk.Walk(context.Background(), root, walk.Options{Detect: func(string) string { return "go" }})
	if err != nil || len(w.Files) != 2 {
		t.Fatalf("walk: %v %+v", err, w)
	}
	os.Remove(filepath.Join(root, "a.go"))
	res, err := parseFiles(context.Background(), w.Files, nil, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var skipped, parsed int
	for _, r := range res {
		switch {
		case r.skip != "":
			skipped++
			if r.entry.Path != "a.go" || r.skip != "unreadable: no such file or directory" {
				t.Errorf("skip %s: %q", r.entry.Path, r.skip)
			}
		case r.rec != nil:
			parsed++
		}
	}
	if skipped != 1 || parsed != 1 {
		t.Fatalf("skipped %d parsed %d", skipped, parsed)
	}
}

// TestFingerprints: an edit changes a symbol's Hash; a rename keeps its
// BodyHash; an unchanged file keeps its hashes across incremental builds.
func TestFingerprints(t *testing.T) {
	root := t.TempDir()
	body := "\tx := 1\n\treturn x + 1\n}\n"
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc Old() int {\n"+body)
	walktest.WriteFile(t, root, "b.go", "package a\n\nfunc Keep() int {\n\treturn 2\n}\n")
	build(t, root, false)
	s := open(t, root)
	old, _ := s.Page("symbol:a.go#Old")
	keep, _ := s.Page("symbol:b.go#Keep")
	s.Close()
	if old.Hash == 0 || old.BodyHash == 0 {
		t.Fatalf("no fingerprints: %+v", old.Page)
	}
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc New() int {\n"+body)
	build(t, root, false)
	s = open(t, root)
	renamed, err := s.Page("symbol:a.go#New")
	if err != nil {
		t.Fatal(err)
	}
	if renamed.BodyHash != old.BodyHash || renamed.Hash == old.Hash {
		t.Fatalf("rename: body %x→%x, hash %x→%x", old.BodyHash, renamed.BodyHash, old.Hash, renamed.Hash)
	}
	if k, _ := s.Page("symbol:b.go#Keep"); k.Hash != keep.Hash {
		t.Fatalf("unchanged file's hash moved: %x → %x", keep.Hash, k.Hash)
	}
	s.Close()
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc New() int {\n\treturn 3\n}\n")
	build(t, root, false)
	s = open(t, root)
	if edited, _ := s.Page("symbol:a.go#New"); edited.Hash == renamed.Hash || edited.BodyHash == renamed.BodyHash {
		t.Fatal("an edit left the fingerprints unchanged")
	}
}

// TestResolveIndexedSameAsScan: the candidate indexes that keep resolution
// linear in a large monorepo decide exactly as scanning every candidate
// does, for every tier (qualifier, same file, same module, imports, unique).
func TestResolveIndexedSameAsScan(t *testing.T) {
	tree := func(root string) {
		walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
		for i := range 40 {
			dir := fmt.Sprintf("p%02d", i)
			walktest.WriteFile(t, root, dir+"/a.go", fmt.Sprintf(`package %s

import "example.com/m/p%02d"

type Server struct{}

type Srv%02d struct{}

func New() *Server { return nil }

func (s *Server) Close() { s.flush(); New(); p%02d.New(); Helper%d(); Boot() }

func (s *Server) flush() { Server.Close(nil); Srv%02d.Stop(Srv%02d{}) }

func (Srv%02d) Stop() {}
`, dir, (i+1)%40, i, (i+1)%40, i%3, (i+1)%40, (i+1)%40, i))
			walktest.WriteFile(t, root, dir+"/b.go", fmt.Sprintf("package %s\n\nfunc Helper%d() { New(); Only() }\n", dir, i%3))
			if i%4 == 0 { // p(i-1) reaches Boot through its import
				walktest.WriteFile(t, root, dir+"/boot.go", fmt.Sprintf("package %s\n\nfunc Boot() {}\n", dir))
			}
			walktest.WriteFile(t, root, dir+"/c.py", "class Server:\n    def close(self):\n        self.flush()\n\n    def flush(self):\n        pass\n")
		}
		walktest.WriteFile(t, root, "z/only.go", "package z\n\nfunc Only() {}\n")
	}
	dump := func(min int) ([]string, int) {
		old := candIndexMin
		candIndexMin = min
		defer func() { candIndexMin = old }()
		root := t.TempDir()
		tree(root)
		build(t, root, true)
		g, err := open(t, root).Graph()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		refs := 0
		for _, e := range g.out {
			out = append(out, fmt.Sprintf("%s -%s-> %s", g.Pages[e.From].ID, e.Type, g.Pages[e.To].ID))
			if e.Type == References {
				refs++
			}
		}
		return out, refs
	}
	scan, refs := dump(1 << 30)
	indexed, _ := dump(1)
	if refs < 200 {
		t.Fatalf("only %d reference edges: the tree does not exercise resolution", refs)
	}
	if !slices.Equal(scan, indexed) {
		t.Fatalf("indexed resolution differs from scanning (%d vs %d edges)", len(indexed), len(scan))
	}
}

// TestLiteralsSurviveRebuild: the string literals of a file that an
// incremental build does not reparse come back from the stored facts.
func TestLiteralsSurviveRebuild(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "conf/keys.go", "package conf\n\nconst top = \"retry_backoff_limit\"\n\nfunc Load() string { return \"dns_challenge_override\" }\n")
	walktest.WriteFile(t, root, "other.py", "def f():\n    return 'first'\n")
	build(t, root, false)
	walktest.WriteFile(t, root, "other.py", "def f():\n    return 'second'\n")
	if info := build(t, root, false); info.FilesParsed != 1 {
		t.Fatalf("edit build: %+v", info)
	}
	s := open(t, root)
	got := map[string][]parser.Literal{}
	err := s.EachFileRecord(func(r *FileRecord) error {
		got[r.Path] = r.Facts.Literals
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []parser.Literal{{Text: "retry_backoff_limit", Enclosing: 0}, {Text: "dns_challenge_override", Enclosing: 1}}
	if !slices.Equal(got["conf/keys.go"], want) {
		t.Errorf("unchanged file's literals = %+v, want %+v", got["conf/keys.go"], want)
	}
	if want := []parser.Literal{{Text: "second", Enclosing: 0}}; !slices.Equal(got["other.py"], want) {
		t.Errorf("edited file's literals = %+v, want %+v", got["other.py"], want)
	}
}

// TestRemovalDecodesOnlyAffectedRecords removes a file whose struct field
// (Count) every other file's references name: each referencing file is a
// candidate of the change, and none is affected (the field is in another
// directory, not imported, not the only one of its name). The build
// decodes the candidates' references alone, not their whole records: at
// 100k files that was 33k records, 1.9 s and 1 GB for one file removed.
func TestRemovalDecodesOnlyAffectedRecords(t *testing.T) {
	t.Setenv("WIKITOOLKIT_SEGMENT_FILES", "2")
	root := t.TempDir()
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	const n = 20
	for i := range n {
		walktest.WriteFile(t, root, fmt.Sprintf("p%02d/x.go", i), fmt.Sprintf(
			"package p%02d\n\n// T%d counts.\ntype T%d struct{ Count int }\n\n// Use%d reads the count.\nfunc Use%d(x *T%d) int { return x.Count }\n", i, i, i, i, i, i))
	}
	walktest.WriteFile(t, root, "q/q.go", "package q\n\n// Q counts too.\ntype Q struct{ Count int }\n")
	build(t, root, false)
	records, refs := recordsDecoded.Load(), refsDecoded.Load()
	if err := os.Remove(filepath.Join(root, "q/q.go")); err != nil {
		t.Fatal(err)
	}
	info := build(t, root, false)
	if info.Mode != "incremental" || info.FilesRemoved != 1 {
		t.Fatalf("removal build: %+v", info)
	}
	records, refs = recordsDecoded.Load()-records, refsDecoded.Load()-refs
	if refs < n {
		t.Fatalf("%d candidates' references decoded, want ≥ %d: the change does not name Count", refs, n)
	}
	// A merge of the removed file's segment may read its neighbours.
	if records > 4 {
		t.Errorf("%d whole records decoded for a removal that affects no file (%d candidates)", records, refs)
	}
	s := open(t, root)
	for i := range n {
		from := fmt.Sprintf("symbol:p%02d/x.go#Use%d", i, i)
		if got := inRefs(t, s, fmt.Sprintf("symbol:p%02d/x.go#T%d.Count", i, i)); !slices.Equal(got, []string{from}) {
			t.Errorf("T%d.Count callers = %v, want [%s]", i, got, from)
		}
	}
}

// TestModulesSegmentFollowsDirectories adds and removes files: the
// modules segment (a page per directory of the tree, 82k at 100k files)
// is written again, and its pages remade at all, only when a directory
// appears or empties or a package comment changes, not when a file joins
// or leaves a directory that keeps files; the module pages are a full
// build's either way.
func TestModulesSegmentFollowsDirectories(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	walktest.WriteFile(t, root, "a/a.go", "package a\n\n// A is a.\nfunc A() int { return 1 }\n")
	walktest.WriteFile(t, root, "b/b.go", "package b\n\n// B is b.\nfunc B() int { return 2 }\n")
	build(t, root, false)
	modsID := func() int {
		s := open(t, root)
		defer s.Close()
		shards := s.moduleShards()
		if len(shards) != 1 {
			t.Fatalf("%d modules segments, want 1", len(shards))
		}
		return shards[0].id
	}
	steps := []struct {
		name    string
		do      func()
		rewrite bool
	}{
		{"a file added to a/", func() {
			walktest.WriteFile(t, root, "a/a2.go", "package a\n\n// A2 is more.\nfunc A2() int { return 3 }\n")
		}, false},
		{"a file removed from a/", func() { os.Remove(filepath.Join(root, "a/a2.go")) }, false},
		{"a file in a new directory c/d", func() {
			walktest.WriteFile(t, root, "c/d/d.go", "package d\n\n// D is new.\nfunc D() int { return 4 }\n")
		}, true},
		{"the only file of b/ removed", func() { os.Remove(filepath.Join(root, "b/b.go")) }, true},
		{"a package comment added to a/", func() { walktest.WriteFile(t, root, "a/doc.go", "// Package a does a.\npackage a\n") }, true},
	}
	for _, st := range steps {
		before, remade := modsID(), modulesRemade.Load()
		st.do()
		info := build(t, root, false)
		if info.Mode != "incremental" {
			t.Fatalf("%s: %s build", st.name, info.Mode)
		}
		if got := modsID() != before; got != st.rewrite {
			t.Errorf("%s: modules segment rewritten = %v, want %v", st.name, got, st.rewrite)
		}
		if got := modulesRemade.Load() != remade; got != st.rewrite {
			t.Errorf("%s: module pages remade = %v, want %v", st.name, got, st.rewrite)
		}
		inc := open(t, root)
		full := filepath.Join(t.TempDir(), "full")
		if _, err := Build(context.Background(), BuildOptions{Root: root, IndexDir: full, Full: true}); err != nil {
			t.Fatal(err)
		}
		fs, err := OpenSnapshot(full)
		if err != nil {
			t.Fatal(err)
		}
		gi, err1 := inc.Graph()
		gf, err2 := fs.Graph()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		var mi, mf []string
		for _, p := range gi.Pages {
			if p.Kind == KindModule {
				mi = append(mi, fmt.Sprintf("%s %q", p.ID, p.Doc))
			}
		}
		for _, p := range gf.Pages {
			if p.Kind == KindModule {
				mf = append(mf, fmt.Sprintf("%s %q", p.ID, p.Doc))
			}
		}
		if !slices.Equal(mi, mf) {
			t.Errorf("%s: module pages %v, a full build's %v", st.name, mi, mf)
		}
		fs.Close()
		inc.Close()
	}
}

// TestKilledBuildsTemporaryFilesGo: the next build removes the temporary
// files a killed build left of the files only builds write (a stat table
// is the size of the tree's listing), after an edit as after no change,
// and leaves those servers write without the build lock (the seal cache).
func TestKilledBuildsTemporaryFilesGo(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc A() {}\n")
	build(t, root, true)
	dir := filepath.Join(root, IndexDirName)
	plant := func(names ...string) {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, ".tmp-"+n+"-123"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, edit := range []bool{true, false} {
		plant(statTableName, statDeltaName, sketchName, sketchTagName, lastBuildName, "CURRENT", sealCacheName)
		if edit {
			walktest.WriteFile(t, root, "a.go", "package a\n\nfunc A() {}\n\nfunc B() {}\n")
		}
		build(t, root, false)
		left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
		if want := []string{filepath.Join(dir, ".tmp-"+sealCacheName+"-123")}; !slices.Equal(left, want) {
			t.Errorf("edit %v: left %q, want only the seal cache's %q", edit, left, want)
		}
	}
}
