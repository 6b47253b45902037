package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type readIn struct {
	Path      string `json:"path" jsonschema:"repo-relative path"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line"`
}

func (s *Server) addRead() {
	addTool(s, &sdk.Tool{Name: "wiki_read", Description: "Numbered lines of a repo file, bounded. Use instead of Read/cat."},
		false, nil, s.read)
}

func (s *Server) read(ctx context.Context, c *call, in readIn) (string, *wiki.ReadResult, error) {
	res, err := wiki.ReadFile(s.live.RootNoIndex(), strings.TrimSpace(in.Path), in.StartLine, in.EndLine)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	res.Render(&b)
	return b.String(), res, nil
}
