package cli

import (
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check")
	asJSON := fs.Bool("json", false, "print the result as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("check needs exactly one check name (e.g. check tests); its command and arguments come from %s only", wiki.ProjectConfigName)
	}
	root, _ := e.rootAndIndex()
	res, err := wiki.RunCheck(e.ctx, root, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	} else {
		res.Render(e.stdout)
	}
	if !res.Passed {
		return checkFailed{res.Name}
	}
	return nil
}

// checkFailed is a check that ran and failed: exit 1, its output already shown.
type checkFailed struct{ name string }

func (c checkFailed) Error() string { return fmt.Sprintf("check %s failed", c.name) }
