package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

func runRemember(e *env, args []string) error {
	fs := newFlags(e, "remember")
	category := fs.String("category", "", "kind of fact: decision, convention, gotcha, how-to, …")
	title := fs.String("title", "", "short title (default: the fact's first words)")
	link := fs.String("link", "", "the page the fact is about: ID, path or symbol name")
	rel := fs.String("rel", "", "relation to that page (default relates_to)")
	asJSON := fs.Bool("json", false, "print {\"id\": …} as JSON")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	fact := strings.TrimSpace(strings.Join(pos, " "))
	if fact == "" {
		return usagef(`remember needs a FACT, e.g. wikitoolkit remember --category gotcha "tests need CGO_ENABLED=1"`)
	}
	w, done, err := e.authoring(*link != "")
	if err != nil {
		return err
	}
	defer done()
	if *link != "" {
		if *link, err = checkPage(e, w.Index, *link); err != nil {
			return err
		}
	}
	id, err := w.Remember(annotate.Memory{Text: fact, Category: *category, Title: *title, Link: *link, Rel: *rel})
	if err = warnNotMirrored(e, err); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, map[string]string{"id": id})
	}
	fmt.Fprintf(e.stdout, "saved %s\n", id)
	return nil
}

func runNote(e *env, args []string) error {
	fs := newFlags(e, "note")
	asJSON := fs.Bool("json", false, "print the note as JSON")
	confirm := fs.Bool("confirm", false, "mark the page's possibly stale notes and linked memories still true (re-anchor them to the current code); TEXT is then optional")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 && !(*confirm && len(pos) == 1) {
		return usagef(`note needs a page ID and TEXT, e.g. wikitoolkit note file:main.go "flags are parsed twice" (or --confirm ID [TEXT])`)
	}
	id, text := pos[0], strings.TrimSpace(strings.Join(pos[1:], " "))
	w, done, err := e.authoring(true)
	if err != nil {
		return err
	}
	defer done()
	if id, err = checkPage(e, w.Index, id); err != nil {
		return err
	}
	if *confirm {
		notes, mems, n, err := w.Confirm(id, text)
		if err = warnNotMirrored(e, err); err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, map[string]any{"page_id": id, "confirmed_notes": len(notes), "confirmed_memories": len(mems), "note": n})
		}
		fmt.Fprintf(e.stdout, "confirmed %d notes and %d memories on %s\n", len(notes), len(mems), id)
		if n != nil {
			fmt.Fprintf(e.stdout, "note added to %s\n", id)
		}
		return nil
	}
	n, err := w.Note(id, text)
	if err = warnNotMirrored(e, err); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, n)
	}
	fmt.Fprintf(e.stdout, "note added to %s\n", id)
	return nil
}

// warnNotMirrored prints a failed shared-folder write as a warning (the
// entry is saved in the index) and passes other errors on.
func warnNotMirrored(e *env, err error) error {
	if errors.Is(err, annotate.ErrNotMirrored) {
		fmt.Fprintf(e.stderr, "wikitoolkit: warning: %v\n", err)
		return nil
	}
	return err
}

// authoring returns the writer of notes and memories for this repository:
// its index, its shared folder and, when an index exists, the live graph to
// anchor to (when withGraph). done releases the graph's snapshot.
func (e *env) authoring(withGraph bool) (annotate.Writer, func(), error) {
	root, dir := e.rootAndIndex()
	w := annotate.Writer{Index: dir, Shared: annotate.SharedDir(root)}
	if !withGraph {
		return w, func() {}, nil
	}
	snap, err := graph.OpenSnapshot(dir)
	if errors.Is(err, graph.ErrNoIndex) {
		return w, func() {}, nil
	}
	if err != nil {
		return w, nil, err
	}
	w.Pages, w.Built = snap, snap.Info().Started
	return w, func() { snap.Close() }, nil
}

// checkPage returns the page ID ref names (an ID, a path taken from the
// current folder, a symbol name), or fails when it names no page of the
// live index (when one exists) or of the memories.
func checkPage(e *env, dir, ref string) (string, error) {
	a, err := annotate.Load(dir)
	if err != nil {
		return "", err
	}
	snap, err := graph.OpenSnapshot(dir)
	if err != nil && !errors.Is(err, graph.ErrNoIndex) {
		return "", err
	}
	base := ""
	if snap != nil {
		defer snap.Close()
		ref, base = pageRef(snap.Info().Root, ref)
	}
	return wiki.CheckPage(snap, a, ref, base)
}
