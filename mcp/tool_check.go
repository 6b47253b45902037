package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type checkIn struct {
	Name string `json:"name" jsonschema:"e.g. tests"`
}

// maxCheckTokens bounds the output tail of one wiki_check answer; the text
// and the structured content carry it once each, within MaxAnswerTokens.
const maxCheckTokens = 4000

func (s *Server) addCheck() {
	addTool(s, &sdk.Tool{Name: "wiki_check", Description: "Run a configured check (tests) instead of a shell."},
		false, nil, s.check)
}

func (s *Server) check(ctx context.Context, c *call, in checkIn) (string, *wiki.CheckResult, error) {
	res, err := wiki.RunCheck(ctx, s.live.RootNoIndex(), strings.TrimSpace(in.Name))
	if err != nil {
		return "", nil, err
	}
	res.KeepTail(maxCheckTokens)
	var b strings.Builder
	res.Render(&b)
	return b.String(), &res, nil
}
