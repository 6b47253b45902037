package cli

import (
	"fmt"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

func runImpact(e *env, args []string) error {
	fs := newFlags(e, "impact")
	depth := fs.Int("depth", wiki.DefaultImpactDepth, fmt.Sprintf("levels of referrers to follow (at most %d)", wiki.MaxImpactDepth))
	budget := fs.Int("budget", wiki.DefaultImpactBudgetTokens, "token budget of the answer")
	diff := fs.Bool("diff", false, "the definitions the working tree changes against HEAD, or against BASE when given")
	loose := fs.Bool("loose", false, "also follow references matched by name only: a name defined several times, or a common method name (left out by default: most are wrong)")
	asJSON := fs.Bool("json", false, "print the answer as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if *depth < 1 || *depth > wiki.MaxImpactDepth {
		return usagef("--depth must be 1 to %d, not %d", wiki.MaxImpactDepth, *depth)
	}
	if *budget < 1 {
		return usagef("--budget must be positive, not %d", *budget)
	}
	if *diff && len(pos) > 1 || !*diff && len(pos) != 1 {
		return usagef("impact needs one page ID, path or symbol name (impact Charge), or --diff [BASE] (impact --diff, impact --diff main)")
	}
	snap, err := e.openSnapshot()
	if err != nil {
		return err
	}
	defer snap.Close()
	root := snap.Info().Root
	if root == "" {
		root, _ = e.rootAndIndex()
	}
	opt := wiki.ImpactOptions{Depth: *depth, BudgetTokens: *budget, Loose: *loose}
	if cfg, err := wiki.LoadProjectConfig(root); err == nil && cfg.HasCheck("tests") {
		opt.CheckHint = "wikitoolkit check tests"
	}
	var im *wiki.Impact
	if *diff {
		base := ""
		if len(pos) == 1 {
			base = pos[0]
		}
		im, err = wiki.ImpactOfDiff(e.ctx, snap, root, base, opt)
	} else {
		ref, b := pageRef(root, pos[0])
		im, err = wiki.ImpactOf(snap, ref, b, opt)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, im)
	}
	im.Render(e.stdout)
	return nil
}
