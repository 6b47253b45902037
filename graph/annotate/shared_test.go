package annotate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedRoundTrip: export → import into an empty store gives the same
// entries; exporting again changes no byte; import is idempotent, takes a
// file's edit, and never deletes.
func TestSharedRoundTrip(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	shared := filepath.Join(t.TempDir(), "wiki")
	w := Writer{Index: a, Shared: shared}
	if _, err := w.Remember(Memory{Title: "Odd: title #1", Text: "line one\n---\nline three", Category: "gotcha", Link: "file:a.go"}); err != nil {
		t.Fatal(err)
	}
	n, err := w.Note("symbol:a.go#F", "a note\nwith two lines")
	if err != nil {
		t.Fatal(err)
	}
	snap := func() map[string][]byte {
		out := map[string][]byte{}
		filepath.Walk(shared, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				out[p], _ = os.ReadFile(p)
			}
			return err
		})
		return out
	}
	before := snap()
	if len(before) != 3 { // README + 1 memory + 1 note
		t.Fatalf("files: %v", before)
	}
	if _, _, err := ExportShared(a, shared); err != nil {
		t.Fatal(err)
	}
	for p, c := range snap() {
		if !bytes.Equal(c, before[p]) {
			t.Errorf("export rewrote %s:\n%s\nwas\n%s", p, c, before[p])
		}
	}
	res, err := ImportShared(b, shared, "")
	if err != nil || res.Memories != 1 || res.Notes != 1 || len(res.Errors) != 0 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	got, _ := Load(b)
	want, _ := Load(a)
	if !sameMemory(got.Memories()[0], want.Memories()[0]) || got.Memories()[0].Text != "line one\n---\nline three" {
		t.Errorf("memory: %+v\nwant %+v", got.Memories()[0], want.Memories()[0])
	}
	if ns := got.Notes("symbol:a.go#F"); len(ns) != 1 || !sameNote(ns[0], n) {
		t.Errorf("note: %+v", ns)
	}
	if res, _ := ImportShared(b, shared, ""); res.Memories+res.Notes != 0 {
		t.Errorf("second import changed %+v", res)
	}
	// An edit in the file wins; a removed file removes nothing.
	np := filepath.Join(shared, "notes", n.ID+".md")
	c, _ := os.ReadFile(np)
	os.WriteFile(np, bytes.Replace(c, []byte("a note"), []byte("an edited note"), 1), 0o644)
	os.Remove(filepath.Join(shared, "memories", want.Memories()[0].Slug+".md"))
	if res, err := ImportShared(b, shared, ""); err != nil || res.Notes != 1 {
		t.Fatalf("import edit: %+v %v", res, err)
	}
	got, _ = Load(b)
	if ns := got.Notes("symbol:a.go#F"); len(ns) != 1 || !strings.HasPrefix(ns[0].Text, "an edited note") {
		t.Errorf("edited note: %+v", ns)
	}
	if len(got.Memories()) != 1 {
		t.Errorf("a removed file removed the memory")
	}
	// A broken file is reported, not fatal.
	os.WriteFile(filepath.Join(shared, "notes", "bad.md"), []byte("no front matter"), 0o644)
	if res, err := ImportShared(b, shared, ""); err != nil || len(res.Errors) != 1 || res.Errors[0].Path != "notes/bad.md" {
		t.Errorf("bad file: %+v %v", res, err)
	}
}
