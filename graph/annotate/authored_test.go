package annotate

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

func TestAuthoredMemoriesAndNotes(t *testing.T) {
	dir := t.TempDir()
	a, err := Load(dir)
	if err != nil || len(a.Memories()) != 0 {
		t.Fatalf("empty store: %v, %d memories", err, len(a.Memories()))
	}
	id, err := AddMemory(dir, Memory{Text: "Retries are configured in engine/retry.go, not in the client.", Category: "architecture",
		Link: "file:engine/retry.go"})
	if err != nil {
		t.Fatal(err)
	}
	if id != "memory:retries-are-configured-in-engine-retry-go-not-in-the" {
		t.Errorf("id = %q", id)
	}
	id2, err := AddMemory(dir, Memory{Title: "Retries are configured in engine/retry.go, not in the", Text: "again"})
	if err != nil || id2 != id+"-2" {
		t.Errorf("second id = %q, %v; want %s-2", id2, err, id)
	}
	if _, err := AddNote(dir, "symbol:engine/retry.go#Retry", "  backoff doubles, capped at 30s  "); err != nil {
		t.Fatal(err)
	}
	if _, err := AddNote(dir, "symbol:engine/retry.go#Retry", "second"); err != nil {
		t.Fatal(err)
	}
	c := NewCache(dir)
	a, err = c.Get()
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Memories()) != 2 || len(a.MemoryPages()) != 2 {
		t.Fatalf("memories = %d", len(a.Memories()))
	}
	m, ok := a.Memory(strings.TrimPrefix(id, "memory:"))
	if !ok || m.Rel != DefaultRel || m.Category != "architecture" {
		t.Errorf("memory = %+v", m)
	}
	if p := a.MemoryPages()[0]; p.Kind != graph.KindMemory || p.ID != id || p.Doc == "" {
		t.Errorf("page = %+v", p)
	}
	if l := a.LinkedFrom("file:engine/retry.go"); len(l) != 1 || l[0].Slug != m.Slug {
		t.Errorf("linked from = %+v", l)
	}
	ns := a.Notes("symbol:engine/retry.go#Retry")
	if len(ns) != 2 || ns[0].Text != "backoff doubles, capped at 30s" || ns[1].Text != "second" {
		t.Errorf("notes = %+v", ns)
	}
	// The cache reloads after a write by anyone.
	if _, err := AddNote(dir, "file:main.go", "third"); err != nil {
		t.Fatal(err)
	}
	a2, _ := c.Get()
	if a2 == a || len(a2.Notes("file:main.go")) != 1 {
		t.Errorf("cache did not reload")
	}
	if a3, _ := c.Get(); a3 != a2 {
		t.Errorf("cache reloaded without a write")
	}
}

func TestAuthoredRejects(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"empty", func() error { _, err := AddMemory(dir, Memory{Text: "  "}); return err }()},
		{"huge", func() error {
			_, err := AddMemory(dir, Memory{Text: strings.Repeat("x", MaxAuthoredBytes+1)})
			return err
		}()},
		{"bad link", func() error { _, err := AddMemory(dir, Memory{Text: "x", Link: "file:../etc/passwd"}); return err }()},
		{"rel without link", func() error { _, err := AddMemory(dir, Memory{Text: "x", Rel: "calls"}); return err }()},
		{"bad note id", func() error { _, err := AddNote(dir, "/etc/passwd", "x"); return err }()},
		{"NUL", func() error { _, err := AddNote(dir, "file:a.go", "a\x00b"); return err }()},
		{"huge note", func() error { _, err := AddNote(dir, "file:a.go", strings.Repeat("x", MaxAuthoredBytes+1)); return err }()},
	} {
		if tc.err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	_, err := AddNote(dir, "file:a.go", strings.Repeat("x", MaxAuthoredBytes+1))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge note: %v, want ErrTooLarge", err)
	}
}

// TestAuthoredConcurrentWriters checks that writers contending for the
// directory lock all succeed and nothing is lost (in one process; the cli
// tests do it with real processes).
func TestAuthoredConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				_, err = AddMemory(dir, Memory{Title: "same title", Text: "fact"})
			} else {
				_, err = AddNote(dir, "file:a.go", "note")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	a, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Memories()) != 10 || len(a.Notes("file:a.go")) != 10 {
		t.Errorf("got %d memories, %d notes; want 10, 10", len(a.Memories()), len(a.Notes("file:a.go")))
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{"Hello, World!": "hello-world", "": "memory", "ünï": "n", "  a--b  ": "a-b"} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}
