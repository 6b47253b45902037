package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/mcp"
)

func runRemember(e *env, args []string) error {
	fs := newFlags(e, "remember")
	category := fs.String("category", "", "kind of fact: decision, convention, gotcha, how-to, …")
	title := fs.String("title", "", "short title (default: the fact's first words)")
	link := fs.String("link", "", "ID of the page the fact is about")
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
	_, dir := e.rootAndIndex()
	if *link != "" {
		if err := checkPage(e, dir, *link); err != nil {
			return err
		}
	}
	id, err := graph.AddMemory(dir, graph.Memory{Text: fact, Category: *category, Title: *title, Link: *link, Rel: *rel})
	if err != nil {
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
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef(`note needs a page ID and TEXT, e.g. wikitoolkit note file:main.go "flags are parsed twice"`)
	}
	id, text := pos[0], strings.TrimSpace(strings.Join(pos[1:], " "))
	_, dir := e.rootAndIndex()
	if err := checkPage(e, dir, id); err != nil {
		return err
	}
	n, err := graph.AddNote(dir, id, text)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, n)
	}
	fmt.Fprintf(e.stdout, "note added to %s\n", id)
	return nil
}

// checkPage fails when id names no page of the live index (when one
// exists) or of the memories.
func checkPage(e *env, dir, id string) error {
	a, err := graph.LoadAuthored(dir)
	if err != nil {
		return err
	}
	snap, err := graph.OpenSnapshot(dir)
	if err != nil && !errors.Is(err, graph.ErrNoIndex) {
		return err
	}
	if snap != nil {
		defer snap.Close()
	}
	return mcp.CheckPage(snap, a, id)
}
