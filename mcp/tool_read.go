package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type readIn struct {
	Path      string `json:"path" jsonschema:"repo-relative file path"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line (from 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line; default start_line+199"`
}

func (s *Server) addRead() {
	addTool(s, &sdk.Tool{Name: "wiki_read", Description: "Read lines of a file in the repository, numbered and bounded. " +
		"Use it instead of Read/cat, with the lines wiki_query or wiki_search gave."},
		false, func(p map[string]*schema) {
			for _, k := range []string{"start_line", "end_line"} {
				if p[k] != nil {
					p[k].Minimum = ptr(1.0)
				}
			}
		}, s.read)
}

func ptr[T any](v T) *T { return &v }

func (s *Server) read(ctx context.Context, c *call, in readIn) (string, *ReadResult, error) {
	res, err := ReadFile(s.rootNoIndex(), strings.TrimSpace(in.Path), in.StartLine, in.EndLine)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	res.Render(&b)
	return b.String(), res, nil
}
