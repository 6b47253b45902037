package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type searchIn struct {
	Pattern    string `json:"pattern" jsonschema:"text to find"`
	Regex      bool   `json:"regex,omitempty" jsonschema:"pattern is RE2"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match either case"`
	Context    int    `json:"context,omitempty" jsonschema:"lines around matches"`
	FilesOnly  bool   `json:"files_only,omitempty" jsonschema:"only file paths"`
	PathGlob   string `json:"path_glob,omitempty" jsonschema:"e.g. *.go, cli/**"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"default 50"`
}

func (s *Server) addSearch() {
	addTool(s, &sdk.Tool{Name: "wiki_search", Description: "Exact or regex text search in the repo, bounded. " +
		"Use instead of Grep/rg."},
		false, nil, s.search)
}

func (s *Server) search(ctx context.Context, c *call, in searchIn) (string, *wiki.SearchResult, error) {
	if in.MaxResults < 0 {
		return "", nil, fmt.Errorf("max_results must be positive (default %d, at most %d)", wiki.DefaultSearchResults, wiki.MaxSearchResults)
	}
	res, err := wiki.Search(ctx, s.live.RootNoIndex(), wiki.SearchOptions{Pattern: in.Pattern, Regex: in.Regex, PathGlob: in.PathGlob,
		IgnoreCase: in.IgnoreCase, Context: in.Context, FilesOnly: in.FilesOnly,
		MaxResults: in.MaxResults, MaxTokens: maxTextTokens / 2, Walk: s.live.WalkOptions()})
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	res.Render(&b)
	return b.String(), res, nil
}
