package mcp

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
)

type relatedIn struct {
	PageID    string `json:"page_id" jsonschema:"ID, path or name"`
	Rel       string `json:"rel,omitempty" jsonschema:"contains, references, imports, relates"`
	Direction string `json:"direction,omitempty" jsonschema:"in, out or both"`
	Loose     bool   `json:"loose,omitempty" jsonschema:"also name-only matches of common names"`
}

// maxRelated bounds the neighbours of one answer.
const maxRelated = 300

func (s *Server) addRelated() {
	addTool(s, &sdk.Tool{Name: "wiki_related", Description: "Callers (in), callees (out), contents, imports of a wiki_query ID. " +
		"Use instead of grepping for usages."},
		true, nil, s.related)
}

func (s *Server) related(ctx context.Context, c *call, in relatedIn) (string, wiki.RelatedView, error) {
	dir, err := wiki.CheckRelArgs(in.Rel, in.Direction)
	if err != nil {
		return "", wiki.RelatedView{}, err
	}
	a, _ := s.authoredData()
	p, err := wiki.LoadPage(c.g.Snap, a, strings.TrimSpace(in.PageID), wiki.PageOptions{})
	if err != nil {
		return "", wiki.RelatedView{}, err
	}
	r := wiki.Related(c.g.Snap, a, p, in.Rel, dir, maxRelated, in.Loose)
	var b strings.Builder
	r.Render(&b, in.Rel != "" || dir != "both")
	return b.String(), r, nil
}
