package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// minBudgetTokens is the smallest budget served: below it not even one stub fits.
const minBudgetTokens = 100

type queryIn struct {
	Question     string   `json:"question" jsonschema:"words, identifier, path or stack trace"`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"answer size limit"`
	Focus        []string `json:"focus,omitempty" jsonschema:"paths you are editing"`
	Kind         string   `json:"kind,omitempty" jsonschema:"only some of module,file,symbol,doc,memory"`
}

// queryOut is engine.Result (the `query --json` shape) plus the result
// paths whose files changed since the build.
type queryOut struct {
	engine.Result
	Stale []string `json:"stale,omitempty"`
}

func (s *Server) addQuery() {
	addTool(s, &sdk.Tool{Name: "wiki_query", Description: "Search this repository's wiki FIRST, before Grep/Glob/Read: ranked files, symbols, docs and " +
		"memories for a question, identifier, path or stack trace, in one cheap call. IDs feed wiki_page, wiki_related."},
		true, nil, s.query)
}

// ParseKinds parses a comma-separated list of page kinds ("" is every kind).
func ParseKinds(list string) ([]graph.Kind, error) {
	var out []graph.Kind
	for _, k := range strings.Split(list, ",") {
		if k = strings.TrimSpace(strings.ToLower(k)); k == "" {
			continue
		}
		kind, ok := graph.ParseKind(k)
		if !ok {
			return nil, fmt.Errorf("unknown page kind %q: give some of module, file, symbol, doc, memory, comma-separated", k)
		}
		if !slices.Contains(out, kind) {
			out = append(out, kind)
		}
	}
	return out, nil
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
	kinds, err := ParseKinds(in.Kind)
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
	r := Resolve(c.g.snap, a)
	opt.Extra = QueryExtra(r)
	res, err := c.g.ix.Query(ctx, q, opt)
	if err != nil {
		return "", queryOut{}, err
	}
	g, _ := c.g.snap.Graph()
	AnnotateResult(&res, r, g)
	out := queryOut{Result: res}
	root := s.root(c.g)
	seen := map[string]bool{}
	for _, st := range res.Results {
		if st.Path != "" && !seen[st.Path] {
			seen[st.Path] = true
			if c.g.fileChanged(root, st.Path) {
				out.Stale = append(out.Stale, st.Path)
			}
		}
	}
	text := res.Render()
	if len(res.Results) == 0 {
		text += "No page matched. Try other words or an identifier; wiki_search finds exact text.\n"
	}
	if len(out.Stale) > 0 {
		text += fmt.Sprintf("STALE (changed since the last build, refreshing): %s\n", strings.Join(out.Stale, ", "))
	}
	return text, out, nil
}
