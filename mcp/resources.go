package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// PageURIPrefix starts the URI of a page resource: wiki://page/<id>, the ID
// percent-encoded or raw.
const PageURIPrefix = "wiki://page/"

// PageURI returns the resource URI of a page.
func PageURI(id string) string { return PageURIPrefix + url.PathEscape(id) }

func (s *Server) addResources() {
	if !s.allowed("wiki_page") {
		return
	}
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "page",
		URITemplate: PageURIPrefix + "{+id}",
		Description: "A wiki page as text; id as from wiki_query, e.g. wiki://page/file:main.go",
		MIMEType:    "text/plain",
	}, s.readPageResource)
}

func (s *Server) readPageResource(ctx context.Context, req *sdk.ReadResourceRequest) (res *sdk.ReadResourceResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error reading %s: %v", req.Params.URI, r)
		}
	}()
	raw := strings.TrimPrefix(req.Params.URI, PageURIPrefix)
	id, err := url.PathUnescape(raw)
	if err != nil {
		id = raw
	}
	g, release, err := s.live.Acquire()
	if err != nil {
		return nil, err
	}
	defer release()
	a, _ := s.authoredData()
	p, err := wiki.LoadPage(g.Snap, a, id, wiki.PageOptions{MaxEdges: maxPageEdges, Clip: true})
	if errors.Is(err, graph.ErrNotFound) || errors.Is(err, graph.ErrBadID) {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", req.Params.URI, err)
	}
	var b strings.Builder
	p.Render(&b, wiki.FrontMCP)
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain",
		Text: clipTokens(b.String(), maxTextTokens)}}}, nil
}
