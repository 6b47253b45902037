package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

// minBudgetTokens is the smallest budget served: below it not even one stub fits.
const minBudgetTokens = 100

type queryIn struct {
	Question     string   `json:"question" jsonschema:"question or identifier"`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"answer size limit"`
	Focus        []string `json:"focus,omitempty" jsonschema:"paths you are editing"`
	Kind         string   `json:"kind,omitempty" jsonschema:"module,file,symbol,doc,memory"`
}

// queryOut is engine.Result (the `query --json` shape) plus the result
// paths whose files changed since the build.
type queryOut struct {
	engine.Result
	Stale []string `json:"stale,omitempty"`
}

func (s *Server) addQuery() {
	addTool(s, &sdk.Tool{Name: "wiki_query", Description: "Search the repo's wiki FIRST, before Grep/Glob/Read: ranked files, symbols, docs, " +
		"memories for a question, name, path or stack trace. IDs feed wiki_page, wiki_related."},
		true, nil, s.query)
}

func (s *Server) query(ctx context.Context, c *call, in queryIn) (string, queryOut, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return "", queryOut{}, errors.New("question is empty: ask in words, or give an identifier, path or stack trace")
	}
	if in.BudgetTokens < 0 {
		return "", queryOut{}, fmt.Errorf("budget_tokens must be positive (default %d, at most %d)", engine.DefaultBudgetTokens, engine.MaxBudgetTokens)
	}
	// Bounds are applied here rather than declared in the schema, where they
	// would cost tokens in every tools/list.
	opt := engine.Options{BudgetTokens: min(max(in.BudgetTokens, minBudgetTokens), engine.MaxBudgetTokens)}
	if in.BudgetTokens == 0 {
		opt.BudgetTokens = engine.DefaultBudgetTokens
	}
	kinds, err := wiki.ParseKinds(in.Kind)
	if err != nil {
		return "", queryOut{}, err
	}
	opt.Kinds = kinds
	for _, f := range in.Focus {
		if f = strings.TrimSpace(f); f != "" {
			opt.Focus = append(opt.Focus, strings.TrimPrefix(f, "./"))
		}
	}
	a, _ := s.authoredData()
	res, err := wiki.Query(ctx, c.g.Snap, c.g.Index, a, q, opt)
	if err != nil {
		return "", queryOut{}, err
	}
	out := queryOut{Result: res, Stale: c.g.StalePaths(s.live.Root(c.g), res)}
	text := wiki.PartialLine(res.Partial) + res.Render()
	if len(res.Results) == 0 {
		text += "No page matched. Try other words or an identifier; wiki_search finds exact text.\n"
	}
	if len(out.Stale) > 0 {
		text += fmt.Sprintf("STALE (changed since the last build, refreshing): %s\n", strings.Join(out.Stale, ", "))
	}
	return text, out, nil
}
