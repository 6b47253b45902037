package mcp

import (
	"context"
	"errors"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type impactIn struct {
	Target       string `json:"target,omitempty" jsonschema:"ID/path/name; none: diff"`
	DiffBase     string `json:"diff_base,omitempty" jsonschema:"git ref, default HEAD"`
	Depth        int    `json:"depth,omitempty" jsonschema:"1-6, default 3"`
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"size limit"`
	Loose        bool   `json:"loose,omitempty" jsonschema:"also name-only matches"`
}

func (s *Server) addImpact() {
	addTool(s, &sdk.Tool{Name: "wiki_impact", Description: "Callers by depth, tests, files affected by a wiki_query ID or the git diff."},
		true, nil, s.impact)
}

func (s *Server) impact(ctx context.Context, c *call, in impactIn) (string, *wiki.Impact, error) {
	target, base := strings.TrimSpace(in.Target), strings.TrimSpace(in.DiffBase)
	if target != "" && base != "" {
		return "", nil, errors.New("give target (a symbol's impact) or diff_base (the working tree's changes against it), not both")
	}
	if in.Depth < 0 || in.Depth > wiki.MaxImpactDepth || in.BudgetTokens < 0 {
		return "", nil, errors.New("depth is 1 to 6 (default 3) and budget_tokens positive (default 2000)")
	}
	root := s.live.Root(c.g)
	opt := wiki.ImpactOptions{Depth: in.Depth, BudgetTokens: in.BudgetTokens, Loose: in.Loose}
	if cfg, err := wiki.LoadProjectConfig(root); err == nil && cfg.HasCheck("tests") && s.allowed("wiki_check") {
		opt.CheckHint = "wiki_check tests"
	}
	var im *wiki.Impact
	var err error
	if target != "" {
		im, err = wiki.ImpactOf(c.g.Snap, target, "", opt)
	} else {
		im, err = wiki.ImpactOfDiff(ctx, c.g.Snap, root, base, opt)
	}
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	im.Render(&b)
	return b.String(), im, nil
}
