package wiki

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resolved opens the live generation and resolves the authored store
// against it.
func resolved(t *testing.T, root string) (*Resolved, *Snapshot) {
	t.Helper()
	s := open(t, root)
	g, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	a, err := LoadAnnotations(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return a.Resolve(g, s.Info().Started), s
}

func authoring(t *testing.T, root string) AnnotationWriter {
	t.Helper()
	s := open(t, root)
	g, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	return AnnotationWriter{Index: s.Dir, Shared: SharedDir(root), Graph: g, Built: s.Info().Started}
}

func onlyNote(t *testing.T, r *Resolved) PlacedNote {
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
	write(t, root, "a.go", "package a\n\nfunc Retry() int {\n\tn := 1\n\treturn n * 2\n}\n")
	write(t, root, "b.go", "package a\n\nfunc Other() int {\n\treturn 2\n}\n")
	build(t, root, false)
	const id = "symbol:a.go#Retry"
	w := authoring(t, root)
	if _, err := w.Note(id, "Retry doubles n; callers rely on it."); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Remember(Memory{Text: "Retry is the only place that doubles.", Link: id}); err != nil {
		t.Fatal(err)
	}
	r, _ := resolved(t, root)
	if n := onlyNote(t, r); n.State != StateFresh || n.Hash == 0 || n.BodyHash == 0 || n.ShownOn != id {
		t.Fatalf("new note: %+v", n)
	}

	// Change the body: possibly stale, dated by the build that saw it.
	write(t, root, "a.go", "package a\n\nfunc Retry() int {\n\tn := 1\n\treturn n * 3 // tripled\n}\n")
	info := build(t, root, false)
	r, _ = resolved(t, root)
	n := onlyNote(t, r)
	if n.State != StateStale || !n.Changed.Equal(info.Started) {
		t.Fatalf("after an edit: %+v (build started %v)", n, info.Started)
	}
	if d := n.Describe(n.Time); !strings.Contains(d, "possibly stale: written ") || !strings.Contains(d, "the code changed "+info.Started.Local().Format("2006-01-02")) {
		t.Errorf("describe = %q", d)
	}
	if m := r.Memories()[0]; m.State != StateStale {
		t.Errorf("linked memory: %+v", m)
	}
	if got := r.Notes(id); len(got) != 1 || got[0].State != StateStale {
		t.Errorf("notes on the page: %+v", got)
	}
	// An unrelated rebuild keeps the date.
	write(t, root, "b.go", "package a\n\nfunc Other() int {\n\treturn 22\n}\n")
	build(t, root, false)
	r, _ = resolved(t, root)
	if n2 := onlyNote(t, r); n2.State != StateStale || !n2.Changed.Equal(info.Started) {
		t.Errorf("after an unrelated build: %+v, want changed %v", n2, info.Started)
	}

	// Confirm: fresh again, the file follows.
	w = authoring(t, root)
	notes, mems, added, err := w.Confirm(id, "")
	if err != nil || len(notes) != 1 || len(mems) != 1 || added != nil {
		t.Fatalf("confirm: %d notes, %d memories, %v, %v", len(notes), len(mems), added, err)
	}
	r, _ = resolved(t, root)
	if n := onlyNote(t, r); n.State != StateFresh {
		t.Fatalf("after confirm: %+v", n)
	}
	if m := r.Memories()[0]; m.State != StateFresh {
		t.Errorf("memory after confirm: %+v", m)
	}
	b, err := os.ReadFile(filepath.Join(SharedDir(root), "notes", notes[0].ID+".md"))
	if err != nil || !strings.Contains(string(b), "hash: "+hexHash(notes[0].Hash)) {
		t.Errorf("note file after confirm: %v\n%s", err, b)
	}

	// Delete the file: orphan, kept, shown nowhere.
	src, _ := os.ReadFile(filepath.Join(root, "a.go"))
	os.Remove(filepath.Join(root, "a.go"))
	build(t, root, false)
	r, _ = resolved(t, root)
	if n := onlyNote(t, r); n.State != StateOrphan || r.NoteCount(StateOrphan) != 1 || len(r.Notes(id)) != 0 {
		t.Fatalf("after delete: %+v", n)
	}
	if d := onlyNote(t, r).Describe(n.Time); !strings.Contains(d, "orphan: "+id+" is gone") {
		t.Errorf("describe = %q", d)
	}

	// Restore it: re-attached, fresh (same content as confirmed).
	write(t, root, "a.go", string(src))
	build(t, root, false)
	r, _ = resolved(t, root)
	if n := onlyNote(t, r); n.State != StateFresh || len(r.Notes(id)) != 1 {
		t.Fatalf("after restore: %+v", n)
	}

	// Rename without changing the body: the note follows and says so.
	write(t, root, "a.go", strings.Replace(string(src), "func Retry()", "func RetryTwice()", 1))
	build(t, root, false)
	r, _ = resolved(t, root)
	const moved = "symbol:a.go#RetryTwice"
	n = onlyNote(t, r)
	if n.State != StateMoved || n.ShownOn != moved || n.From != id || len(r.Notes(moved)) != 1 {
		t.Fatalf("after rename: %+v", n)
	}
	if d := n.Describe(n.Time); d != "moved from "+id {
		t.Errorf("describe = %q", d)
	}
	if l := r.LinkedFrom(moved); len(l) != 1 || l[0].State != StateMoved {
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
	r, _ = resolved(t, root)
	if ns := r.Notes(moved); len(ns) != 2 || ns[0].State != StateFresh || ns[0].From != "" {
		t.Errorf("after confirming the move: %+v", ns)
	}
}

// TestAnchorAmbiguousMove: a body shared by two pages is no evidence of a
// move; the note stays an orphan.
func TestAnchorAmbiguousMove(t *testing.T) {
	root := t.TempDir()
	body := "\tx := 1\n\treturn x + 1\n}\n"
	write(t, root, "a.go", "package a\n\nfunc Old() int {\n"+body)
	build(t, root, false)
	if _, err := authoring(t, root).Note("symbol:a.go#Old", "note"); err != nil {
		t.Fatal(err)
	}
	write(t, root, "a.go", "package a\n\nfunc New1() int {\n"+body+"\nfunc New2() int {\n"+body)
	build(t, root, false)
	r, _ := resolved(t, root)
	if n := onlyNote(t, r); n.State != StateOrphan {
		t.Errorf("ambiguous move: %+v", n)
	}
}

// TestSharedFolderNotIndexed: the shared folder is not walked as docs.
func TestSharedFolderNotIndexed(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.go", "package a\n")
	write(t, root, ".wiki/memories/x.md", "---\nid: memory:x\n---\n# Heading\ntext\n")
	write(t, root, "docs/.wiki/keep.md", "# Kept\n")
	build(t, root, false)
	s := open(t, root)
	if _, err := s.Page("file:.wiki/memories/x.md"); err == nil {
		t.Error("the shared folder was indexed")
	}
	if _, err := s.Page("file:docs/.wiki/keep.md"); err != nil {
		t.Error("a nested .wiki folder was skipped")
	}
	a, _ := LoadAnnotations(s.Dir)
	if m, ok := a.Memory("x"); !ok || m.Text != "# Heading\ntext" {
		t.Errorf("imported memory = %+v, %v", m, ok)
	}
}
