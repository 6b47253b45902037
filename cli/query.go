package cli

import (
	"fmt"
	"strings"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

func runQuery(e *env, args []string) error {
	fs := newFlags(e, "query")
	budget := fs.Int("budget", engine.DefaultBudgetTokens, fmt.Sprintf("token budget of the answer (max %d)", engine.MaxBudgetTokens))
	kinds := fs.String("kind", "", "only these page kinds, comma-separated: module,file,symbol,doc,memory")
	focus := fs.String("focus", "", "paths you are working on, comma-separated; pages near them rank higher")
	explain := fs.Bool("explain", false, "show each result's score components")
	asJSON := fs.Bool("json", false, "print the answer as one JSON document")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(strings.Join(pos, " "))
	if q == "" {
		return usagef("query needs a QUESTION, e.g. wikitoolkit query \"where are retries configured\"")
	}
	if *budget < 1 || *budget > engine.MaxBudgetTokens {
		return usagef("--budget must be between 1 and %d tokens, got %d", engine.MaxBudgetTokens, *budget)
	}
	opt := engine.Options{BudgetTokens: *budget, Explain: *explain}
	if opt.Kinds, err = wiki.ParseKinds(*kinds); err != nil {
		return usagef("--kind: %v", err)
	}
	for _, f := range strings.Split(*focus, ",") {
		if f = strings.TrimSpace(f); f != "" {
			opt.Focus = append(opt.Focus, f)
		}
	}
	snap, err := e.openSnapshot()
	if err != nil {
		return err
	}
	defer snap.Close()
	ix, err := engine.Load(snap)
	if err != nil {
		return err
	}
	a, err := annotate.Load(snap.Dir)
	if err != nil {
		return err
	}
	res, err := wiki.Query(e.ctx, snap, ix, a, q, opt)
	if err != nil {
		return err
	}
	if res.Results == nil {
		res.Results = []engine.Stub{}
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	fmt.Fprint(e.stdout, wiki.PartialLine(res.Partial)+res.Render())
	if len(res.Results) == 0 {
		fmt.Fprintln(e.stdout, "(no matching pages; try other words, an identifier, or 'wikitoolkit status' to check the index)")
	}
	return nil
}
