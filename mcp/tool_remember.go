package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

type rememberIn struct {
	Fact       string `json:"fact" jsonschema:"the fact"`
	Category   string `json:"category,omitempty" jsonschema:"e.g. decision, gotcha"`
	Title      string `json:"title,omitempty" jsonschema:"short title"`
	LinkPageID string `json:"link_page_id,omitempty" jsonschema:"page it is about"`
	Rel        string `json:"rel,omitempty" jsonschema:"relation"`
}

type rememberOut struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

func (s *Server) addRemember() {
	addTool(s, &sdk.Tool{Name: "wiki_remember", Description: "Save a lasting fact as a memory that " +
		"wiki_query finds later."},
		false, nil, s.remember)
}

func (s *Server) remember(ctx context.Context, c *call, in rememberIn) (string, rememberOut, error) {
	link := strings.TrimSpace(in.LinkPageID)
	if link != "" {
		var err error
		if link, err = s.live.CheckPage(link); err != nil {
			return "", rememberOut{}, err
		}
	}
	w, release := s.live.AnnotationWriter()
	id, err := w.Remember(annotate.Memory{Text: in.Fact, Category: in.Category, Title: in.Title, Link: link, Rel: in.Rel})
	release()
	warn := ""
	if errors.Is(err, annotate.ErrNotMirrored) {
		warn, err = "warning: "+err.Error()+"\n", nil
	}
	if err != nil {
		return "", rememberOut{}, fmt.Errorf("not saved: %v", err)
	}
	a, _ := s.authoredData()
	out := rememberOut{ID: id}
	if a != nil {
		if m, ok := a.Memory(strings.TrimPrefix(id, "memory:")); ok {
			out.Title = m.Title
		}
	}
	return fmt.Sprintf("saved %s\n%s", id, warn), out, nil
}
