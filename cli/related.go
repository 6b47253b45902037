package cli

import (
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runRelated(e *env, args []string) error {
	fs := newFlags(e, "related")
	rel := fs.String("rel", "", "only this edge type: contains, references, imports, relates")
	dir := fs.String("direction", "both", "out (what the page uses/contains), in (what uses/contains it), or both")
	loose := fs.Bool("loose", false, "also list references matched by name only: a name defined several times, or a common method name (left out by default: most are wrong)")
	asJSON := fs.Bool("json", false, "print the neighbours as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("related needs exactly one page ID, path or symbol name, e.g. wikitoolkit related symbol:main.go#main or related main")
	}
	d, err := wiki.CheckRelArgs(*rel, *dir)
	if err != nil {
		return usagef("%v", err)
	}
	snap, a, err := e.openWithAuthored()
	if err != nil {
		return err
	}
	defer snap.Close()
	ref, base := pageRef(snap.Info().Root, pos[0])
	pj, err := wiki.LoadPage(snap, a, ref, wiki.PageOptions{Base: base})
	if err != nil {
		return err
	}
	out := wiki.Related(snap, a, pj, *rel, d, 0, *loose)
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	out.Render(e.stdout, *rel != "" || d != "both")
	return nil
}
