package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type relatedIn struct {
	PageID    string `json:"page_id" jsonschema:"a page ID from wiki_query"`
	Rel       string `json:"rel,omitempty" jsonschema:"edge type: contains, references, imports or relates; empty for all"`
	Direction string `json:"direction,omitempty" jsonschema:"out (what it uses/contains), in (what uses/contains it) or both"`
}

// maxRelated bounds the neighbours of one answer.
const maxRelated = 300

func (s *Server) addRelated() {
	addTool(s, &sdk.Tool{Name: "wiki_related", Description: "Neighbours of a page by edge type: callers (references, in), " +
		"callees (references, out), contents, imports, linked memories. Use it instead of grepping for usages."},
		true, func(p map[string]*schema) {
			if d := p["direction"]; d != nil {
				d.Enum = []any{"in", "out", "both"}
			}
		}, s.related)
}

func (s *Server) related(ctx context.Context, c *call, in relatedIn) (string, RelatedView, error) {
	dir, err := CheckRelArgs(in.Rel, in.Direction)
	if err != nil {
		return "", RelatedView{}, err
	}
	a, _ := s.authoredData()
	p, err := LoadPage(c.g.snap, a, strings.TrimSpace(in.PageID), PageOptions{})
	if err != nil {
		return "", RelatedView{}, err
	}
	r := Related(p, in.Rel, dir, maxRelated)
	var b strings.Builder
	r.Render(&b, in.Rel != "" || dir != "both")
	return b.String(), r, nil
}
