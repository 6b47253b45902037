package cli

import (
	"github.com/wikitoolkit/wikitoolkit/mcp"
)

func runPage(e *env, args []string) error {
	fs := newFlags(e, "page")
	asJSON := fs.Bool("json", false, "print the page as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("page needs exactly one page ID, e.g. wikitoolkit page file:main.go")
	}
	snap, a, err := e.openWithAuthored()
	if err != nil {
		return err
	}
	defer snap.Close()
	pj, err := mcp.LoadPage(snap, a, pos[0], mcp.PageOptions{})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, pj)
	}
	pj.Render(e.stdout, "'wikitoolkit related'")
	return nil
}

// pageJSON is the `page --json` document.
type pageJSON = mcp.Page
