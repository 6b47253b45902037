package cli

import (
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runPage(e *env, args []string) error {
	fs := newFlags(e, "page")
	asJSON := fs.Bool("json", false, "print the page as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("page needs exactly one page ID, path or symbol name, e.g. wikitoolkit page file:main.go, page main.go or page main")
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
	if *asJSON {
		return writeJSON(e.stdout, pj)
	}
	pj.Render(e.stdout, wiki.FrontCLI)
	return nil
}

// pageJSON is the `page --json` document.
type pageJSON = wiki.Page
