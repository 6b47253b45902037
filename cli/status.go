package cli

import (
	"fmt"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runStatus(e *env, args []string) error {
	fs := newFlags(e, "status")
	asJSON := fs.Bool("json", false, "print the status as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("status takes no arguments")
	}
	snap, a, err := e.openWithAuthored()
	if err != nil {
		return err
	}
	defer snap.Close()
	st, err := wiki.CollectStatus(snap, a, wiki.StatusOptions{Walk: wiki.LoadWalkSettings(snap.Dir).WalkOptions()})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, st)
	}
	var b strings.Builder
	wiki.RenderStatus(&b, st)
	fmt.Fprint(e.stdout, b.String())
	return nil
}

// statusJSON is the `status --json` document.
type statusJSON = wiki.Status
