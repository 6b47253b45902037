package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type pageIn struct {
	PageID string `json:"page_id" jsonschema:"ID, path or name"`
}

// maxPageEdges bounds the neighbours a page lists per edge type and
// direction (wiki_related lists more).
const maxPageEdges = 50

func (s *Server) addPage() {
	addTool(s, &sdk.Tool{Name: "wiki_page", Description: "Full page of a wiki_query ID: signature, doc, source, callers, callees, notes. " +
		"Use instead of Read."},
		true, nil, s.page)
}

func (s *Server) page(ctx context.Context, c *call, in pageIn) (string, *wiki.Page, error) {
	a, _ := s.authoredData()
	p, err := wiki.LoadPage(c.g.Snap, a, strings.TrimSpace(in.PageID), wiki.PageOptions{MaxEdges: maxPageEdges, Clip: true})
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	p.Render(&b, wiki.FrontMCP)
	return b.String(), p, nil
}
