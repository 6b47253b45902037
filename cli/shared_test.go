package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

func mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errs, code := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("wikitoolkit %v: exit %d\n%s", args, code, errs)
	}
	return out
}

// gitRepo makes a repository with one commit of a small Go package.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	dir := filepath.Join(t.TempDir(), "origin")
	walktest.WriteFile(t, dir, "pay/retry.go", "package pay\n\n// Charge charges a card.\nfunc Charge(amount int) error {\n\terr := attempt(amount)\n\treturn err\n}\n\nfunc attempt(amount int) error { return nil }\n")
	walktest.Git(t, dir, "init", "-q", "-b", "main")
	walktest.Git(t, dir, "add", ".")
	walktest.Git(t, dir, "commit", "-q", "-m", "init")
	return dir
}

type notesDoc struct {
	Notes []struct {
		Kind, ID, Page, State, Text string
	} `json:"notes"`
}

// TestSharedFreshClone: memories and notes written in one clone and
// committed appear in a second clone after build, with their anchors.
func TestSharedFreshClone(t *testing.T) {
	origin := gitRepo(t)
	base := filepath.Dir(origin)
	a := filepath.Join(base, "a")
	walktest.Git(t, base, "clone", "-q", origin, a)
	mustRun(t, a, "build", "--quiet")
	mustRun(t, a, "remember", "--category", "gotcha", "--link", "symbol:pay/retry.go#Charge", "Charge never retries by itself; callers do.")
	mustRun(t, a, "remember", "The staging database is reset every night.")
	mustRun(t, a, "note", "symbol:pay/retry.go#Charge", "amount is in cents")
	if st := walktest.Git(t, a, "status", "--porcelain"); strings.Contains(st, ".wikitoolkit") || !strings.Contains(st, ".wiki/") {
		t.Fatalf("git status after writes:\n%s", st)
	}
	walktest.Git(t, a, "add", ".wiki")
	walktest.Git(t, a, "commit", "-q", "-m", "knowledge")
	walktest.Git(t, a, "push", "-q", "origin", "HEAD:refs/heads/shared")

	b := filepath.Join(base, "b")
	walktest.Git(t, base, "clone", "-q", "-b", "shared", origin, b)
	mustRun(t, b, "build", "--quiet")
	var doc notesDoc
	runJSON(t, b, &doc, "notes", "--json")
	if len(doc.Notes) != 3 {
		t.Fatalf("notes in the second clone (a note, a linked and an unlinked memory): %+v", doc.Notes)
	}
	for _, n := range doc.Notes {
		if n.ID == "memory:the-staging-database-is-reset-every-night" {
			if n.Page != "" || n.State != "fresh" {
				t.Errorf("unlinked memory %+v: want fresh, no page", n)
			}
			continue
		}
		if n.State != "fresh" || n.Page != "symbol:pay/retry.go#Charge" {
			t.Errorf("entry %+v: want fresh on Charge (anchors travel with the files)", n)
		}
	}
	out := mustRun(t, b, "query", "staging database reset")
	if !strings.Contains(out, "memory:the-staging-database-is-reset-every-night") {
		t.Errorf("query in the second clone:\n%s", out)
	}
	// Building again imports nothing new and changes no file.
	mustRun(t, b, "build", "--quiet")
	if st := walktest.Git(t, b, "status", "--porcelain"); st != "" {
		t.Errorf("the second clone's tree changed:\n%s", st)
	}
}

// TestSharedBranchMerge: two branches each add memories and notes (some on
// the same page); the merge has no conflict and loses nothing.
func TestSharedBranchMerge(t *testing.T) {
	origin := gitRepo(t)
	mustRun(t, origin, "build", "--quiet")
	mustRun(t, origin, "remember", "Base fact shared by both branches.")
	walktest.Git(t, origin, "add", ".wiki")
	walktest.Git(t, origin, "commit", "-q", "-m", "base knowledge")

	walktest.Git(t, origin, "checkout", "-q", "-b", "left")
	mustRun(t, origin, "remember", "--link", "symbol:pay/retry.go#Charge", "Left branch: Charge is idempotent.")
	mustRun(t, origin, "note", "symbol:pay/retry.go#Charge", "left note on Charge")
	walktest.Git(t, origin, "add", ".wiki")
	walktest.Git(t, origin, "commit", "-q", "-m", "left")

	walktest.Git(t, origin, "checkout", "-q", "main")
	mustRun(t, origin, "remember", "Right branch: amounts are cents.")
	mustRun(t, origin, "note", "symbol:pay/retry.go#Charge", "right note on Charge")
	mustRun(t, origin, "note", "file:pay/retry.go", "right note on the file")
	walktest.Git(t, origin, "add", ".wiki")
	walktest.Git(t, origin, "commit", "-q", "-m", "right")

	out := walktest.Git(t, origin, "merge", "--no-edit", "left")
	if strings.Contains(strings.ToLower(out), "conflict") {
		t.Fatalf("merge conflict:\n%s", out)
	}
	err := filepath.Walk(filepath.Join(origin, ".wiki"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), "<<<<<<<") || strings.Contains(string(b), ">>>>>>>") {
				t.Errorf("conflict markers in %s", p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A fresh clone of the merge has every entry.
	c := filepath.Join(filepath.Dir(origin), "c")
	walktest.Git(t, filepath.Dir(origin), "clone", "-q", origin, c)
	mustRun(t, c, "build", "--quiet")
	var doc notesDoc
	runJSON(t, c, &doc, "notes", "--json")
	want := []string{"left note on Charge", "right note on Charge", "right note on the file", "Left branch: Charge is idempotent."}
	for _, w := range want {
		found := false
		for _, n := range doc.Notes {
			found = found || n.Text == w
		}
		if !found {
			t.Errorf("lost %q after the merge: %+v", w, doc.Notes)
		}
	}
	for _, q := range []string{"Base fact shared", "amounts are cents", "Charge is idempotent"} {
		if out := mustRun(t, c, "query", "--kind", "memory", q); !strings.Contains(out, "memory:") {
			t.Errorf("memory %q missing after the merge:\n%s", q, out)
		}
	}
}

// TestNoteConfirmCLI: a note goes stale when its symbol's body changes,
// `note --confirm` clears it, and `notes --orphans` lists a note whose
// file is gone; status counts both.
func TestNoteConfirmCLI(t *testing.T) {
	repo := gitRepo(t)
	mustRun(t, repo, "build", "--quiet")
	const id = "symbol:pay/retry.go#Charge"
	mustRun(t, repo, "note", id, "returns attempt's error unchanged")
	src := filepath.Join(repo, "pay", "retry.go")
	os.WriteFile(src, []byte("package pay\n\n// Charge charges a card.\nfunc Charge(amount int) error {\n\terr := attempt(amount * 100)\n\treturn err\n}\n\nfunc attempt(amount int) error { return nil }\n"), 0o644)
	mustRun(t, repo, "build", "--quiet")
	var doc notesDoc
	runJSON(t, repo, &doc, "notes", "--stale", "--json")
	if len(doc.Notes) != 1 || doc.Notes[0].State != "stale" {
		t.Fatalf("after the edit: %+v", doc.Notes)
	}
	if out := mustRun(t, repo, "page", id); !strings.Contains(out, "possibly stale: written ") {
		t.Errorf("page does not flag the note:\n%s", out)
	}
	var st struct {
		StaleNotes int `json:"stale_notes"`
	}
	runJSON(t, repo, &st, "status", "--json")
	if st.StaleNotes != 1 {
		t.Errorf("status stale_notes = %d", st.StaleNotes)
	}
	if out := mustRun(t, repo, "note", "--confirm", id); !strings.Contains(out, "confirmed 1 notes") {
		t.Errorf("confirm: %s", out)
	}
	runJSON(t, repo, &doc, "notes", "--stale", "--json")
	if len(doc.Notes) != 0 {
		t.Errorf("still stale after confirm: %+v", doc.Notes)
	}
	os.Remove(src)
	mustRun(t, repo, "build", "--quiet")
	runJSON(t, repo, &doc, "notes", "--orphans", "--json")
	if len(doc.Notes) != 1 || doc.Notes[0].State != "orphan" {
		t.Errorf("after delete: %+v", doc.Notes)
	}
	if out := mustRun(t, repo, "status"); !strings.Contains(out, "1 on pages that no longer exist") {
		t.Errorf("status does not list the orphan:\n%s", out)
	}
}
