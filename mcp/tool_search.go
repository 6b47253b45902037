package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type searchIn struct {
	Pattern    string `json:"pattern" jsonschema:"text to find (exact, case-sensitive), or an RE2 regex"`
	Regex      bool   `json:"regex,omitempty" jsonschema:"treat pattern as RE2"`
	PathGlob   string `json:"path_glob,omitempty" jsonschema:"only these files: *.go, cli/**, **/*_test.go"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"max matching lines"`
}

func (s *Server) addSearch() {
	addTool(s, &sdk.Tool{Name: "wiki_search", Description: "Exact text or regex search over the repository's text files " +
		"(skips ignored, vendored and binary files); bounded. Use it instead of Grep/rg; for names and concepts wiki_query ranks better."},
		false, func(p map[string]*schema) { bounds(p["max_results"], DefaultSearchResults, 1, MaxSearchResults) }, s.search)
}

func (s *Server) search(ctx context.Context, c *call, in searchIn) (string, *SearchResult, error) {
	res, err := Search(ctx, s.rootNoIndex(), SearchOptions{Pattern: in.Pattern, Regex: in.Regex, PathGlob: in.PathGlob,
		MaxResults: in.MaxResults, Walk: s.opt.Walk})
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	res.Render(&b)
	return b.String(), res, nil
}
