package wiki

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// buildTree runs the build pipeline (Build) on root.
func buildTree(t *testing.T, root string) *BuildResult {
	t.Helper()
	info, err := Build(context.Background(), BuildOptions{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func openTree(t *testing.T, root string) *graph.Snapshot {
	t.Helper()
	return graphtest.Open(t, filepath.Join(root, graph.IndexDirName))
}

// placed opens the live generation and places the authored store on it.
func placed(t *testing.T, root string) (*annotate.Placement, *graph.Snapshot) {
	t.Helper()
	s := openTree(t, root)
	a, err := annotate.Load(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return a.Place(s, s.Info().Started), s
}

func authoring(t *testing.T, root string) annotate.Writer {
	t.Helper()
	s := openTree(t, root)
	return annotate.Writer{Index: s.Dir, Shared: annotate.SharedDir(root), Pages: s, Built: s.Info().Started}
}

func onlyNote(t *testing.T, r *annotate.Placement) annotate.PlacedNote {
	t.Helper()
	all := r.AllNotes()
	if len(all) != 1 {
		t.Fatalf("%d notes, want 1: %+v", len(all), all)
	}
	return all[0]
}

// TestAnchorLifecycle walks a note through real rebuilds: written fresh;
// the symbol's body changes → possibly stale, with the date the build saw
// it, kept across later builds; confirmed → fresh; file deleted → orphan;
// file restored → re-attached; symbol renamed with the same body → the note
// follows and says so. A memory linked to the symbol goes the same way.
func TestAnchorLifecycle(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc Retry() int {\n\tn := 1\n\treturn n * 2\n}\n")
	walktest.WriteFile(t, root, "b.go", "package a\n\nfunc Other() int {\n\treturn 2\n}\n")
	buildTree(t, root)
	const id = "symbol:a.go#Retry"
	w := authoring(t, root)
	if _, err := w.Note(id, "Retry doubles n; callers rely on it."); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Remember(annotate.Memory{Text: "Retry is the only place that doubles.", Link: id}); err != nil {
		t.Fatal(err)
	}
	r, _ := placed(t, root)
	if n := onlyNote(t, r); n.State != annotate.StateFresh || n.Hash == 0 || n.BodyHash == 0 || n.ShownOn != id {
		t.Fatalf("new note: %+v", n)
	}

	// Change the body: possibly stale, dated by the build that saw it.
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc Retry() int {\n\tn := 1\n\treturn n * 3 // tripled\n}\n")
	info := buildTree(t, root)
	r, _ = placed(t, root)
	n := onlyNote(t, r)
	if n.State != annotate.StateStale || !n.Changed.Equal(info.Started) {
		t.Fatalf("after an edit: %+v (build started %v)", n, info.Started)
	}
	if d := n.Describe(n.Time); !strings.Contains(d, "possibly stale: written ") || !strings.Contains(d, "the code changed "+info.Started.Local().Format("2006-01-02")) {
		t.Errorf("describe = %q", d)
	}
	if m := r.Memories()[0]; m.State != annotate.StateStale {
		t.Errorf("linked memory: %+v", m)
	}
	if got := r.Notes(id); len(got) != 1 || got[0].State != annotate.StateStale {
		t.Errorf("notes on the page: %+v", got)
	}
	// An unrelated rebuild keeps the date.
	walktest.WriteFile(t, root, "b.go", "package a\n\nfunc Other() int {\n\treturn 22\n}\n")
	buildTree(t, root)
	r, _ = placed(t, root)
	if n2 := onlyNote(t, r); n2.State != annotate.StateStale || !n2.Changed.Equal(info.Started) {
		t.Errorf("after an unrelated build: %+v, want changed %v", n2, info.Started)
	}

	// Confirm: fresh again, the file follows.
	w = authoring(t, root)
	notes, mems, added, err := w.Confirm(id, "")
	if err != nil || len(notes) != 1 || len(mems) != 1 || added != nil {
		t.Fatalf("confirm: %d notes, %d memories, %v, %v", len(notes), len(mems), added, err)
	}
	r, _ = placed(t, root)
	if n := onlyNote(t, r); n.State != annotate.StateFresh {
		t.Fatalf("after confirm: %+v", n)
	}
	if m := r.Memories()[0]; m.State != annotate.StateFresh {
		t.Errorf("memory after confirm: %+v", m)
	}
	b, err := os.ReadFile(filepath.Join(annotate.SharedDir(root), "notes", notes[0].ID+".md"))
	if err != nil || !strings.Contains(string(b), fmt.Sprintf("hash: %08x", notes[0].Hash)) {
		t.Errorf("note file after confirm: %v\n%s", err, b)
	}

	// Delete the file: orphan, kept, shown nowhere.
	src, _ := os.ReadFile(filepath.Join(root, "a.go"))
	os.Remove(filepath.Join(root, "a.go"))
	buildTree(t, root)
	r, _ = placed(t, root)
	if n := onlyNote(t, r); n.State != annotate.StateOrphan || r.NoteCount(annotate.StateOrphan) != 1 || len(r.Notes(id)) != 0 {
		t.Fatalf("after delete: %+v", n)
	}
	if d := onlyNote(t, r).Describe(n.Time); !strings.Contains(d, "orphan: "+id+" is gone") {
		t.Errorf("describe = %q", d)
	}

	// Restore it: re-attached, fresh (same content as confirmed).
	walktest.WriteFile(t, root, "a.go", string(src))
	buildTree(t, root)
	r, _ = placed(t, root)
	if n := onlyNote(t, r); n.State != annotate.StateFresh || len(r.Notes(id)) != 1 {
		t.Fatalf("after restore: %+v", n)
	}

	// Rename without changing the body: the note follows and says so.
	walktest.WriteFile(t, root, "a.go", strings.Replace(string(src), "func Retry()", "func RetryTwice()", 1))
	buildTree(t, root)
	r, _ = placed(t, root)
	const moved = "symbol:a.go#RetryTwice"
	n = onlyNote(t, r)
	if n.State != annotate.StateMoved || n.ShownOn != moved || n.From != id || len(r.Notes(moved)) != 1 {
		t.Fatalf("after rename: %+v", n)
	}
	if d := n.Describe(n.Time); d != "moved from "+id {
		t.Errorf("describe = %q", d)
	}
	if l := r.LinkedFrom(moved); len(l) != 1 || l[0].State != annotate.StateMoved {
		t.Errorf("memory after rename: %+v", l)
	}
	// The notes of a page rank beside the code under its ID.
	found := false
	for _, p := range r.RankPages() {
		found = found || p.ID == moved && strings.Contains(p.Doc, "callers rely on it")
	}
	if !found {
		t.Errorf("no ranking page for the moved note: %+v", r.RankPages())
	}
	// Confirming on the new page re-anchors the note there.
	w = authoring(t, root)
	if notes, _, _, err := w.Confirm(moved, "renamed for clarity"); err != nil || len(notes) != 1 || notes[0].PageID != moved {
		t.Fatalf("confirm after move: %+v, %v", notes, err)
	}
	r, _ = placed(t, root)
	if ns := r.Notes(moved); len(ns) != 2 || ns[0].State != annotate.StateFresh || ns[0].From != "" {
		t.Errorf("after confirming the move: %+v", ns)
	}
}

// TestAnchorAmbiguousMove: a body shared by two pages is no evidence of a
// move; the note stays an orphan.
func TestAnchorAmbiguousMove(t *testing.T) {
	root := t.TempDir()
	body := "\tx := 1\n\treturn x + 1\n}\n"
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc Old() int {\n"+body)
	buildTree(t, root)
	if _, err := authoring(t, root).Note("symbol:a.go#Old", "note"); err != nil {
		t.Fatal(err)
	}
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc New1() int {\n"+body+"\nfunc New2() int {\n"+body)
	buildTree(t, root)
	r, _ := placed(t, root)
	if n := onlyNote(t, r); n.State != annotate.StateOrphan {
		t.Errorf("ambiguous move: %+v", n)
	}
}

// TestSharedFolderNotIndexed: the shared folder is not walked as docs.
func TestSharedFolderNotIndexed(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.go", "package a\n")
	walktest.WriteFile(t, root, ".wiki/memories/x.md", "---\nid: memory:x\n---\n# Heading\ntext\n")
	walktest.WriteFile(t, root, "docs/.wiki/keep.md", "# Kept\n")
	buildTree(t, root)
	s := openTree(t, root)
	if _, err := s.Page("file:.wiki/memories/x.md"); err == nil {
		t.Error("the shared folder was indexed")
	}
	if _, err := s.Page("file:docs/.wiki/keep.md"); err != nil {
		t.Error("a nested .wiki folder was skipped")
	}
	a, _ := annotate.Load(s.Dir)
	if m, ok := a.Memory("x"); !ok || m.Text != "# Heading\ntext" {
		t.Errorf("imported memory = %+v, %v", m, ok)
	}
}
