package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

type rememberIn struct {
	Fact       string `json:"fact" jsonschema:"the fact"`
	Category   string `json:"category,omitempty" jsonschema:"e.g. decision, gotcha"`
	Title      string `json:"title,omitempty" jsonschema:"short title"`
	LinkPageID string `json:"link_page_id,omitempty" jsonschema:"page about: ID, path, name"`
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
		if link, err = s.checkPageExists(link); err != nil {
			return "", rememberOut{}, err
		}
	}
	w, release := s.authoring()
	id, err := w.Remember(graph.Memory{Text: in.Fact, Category: in.Category, Title: in.Title, Link: link, Rel: in.Rel})
	release()
	warn := ""
	if errors.Is(err, graph.ErrNotMirrored) {
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

// checkPageExists returns the page ID ref names (ResolveID), or a tool
// error when it is malformed or names no page of the live index or memory.
func (s *Server) checkPageExists(ref string) (string, error) {
	if kind, _, _, err := graph.ParseID(ref); err == nil && kind == graph.KindMemory {
		a, _ := s.authoredData()
		return CheckPage(nil, a, ref, "")
	}
	g, release, err := s.acquire()
	if err != nil {
		return "", err
	}
	defer release()
	a, _ := s.authoredData()
	return CheckPage(g.snap, a, ref, "")
}

// CheckPage returns the page ID ref names (ResolveID, relative paths taken
// from base first), or an error that says what to do when it is malformed
// or names no page of snap (nil: only IDs, and only memories are checked)
// or memory of a.
func CheckPage(snap *graph.Snapshot, a *graph.Authored, ref, base string) (string, error) {
	id, err := ResolveID(snap, ref, base)
	if err != nil {
		return "", err
	}
	kind, _, frag, err := graph.ParseID(id)
	if err != nil {
		return "", err
	}
	if kind == graph.KindMemory {
		if a != nil {
			if _, ok := a.Memory(frag); ok {
				return id, nil
			}
		}
		return "", fmt.Errorf("no page %q; memory IDs come from wiki_query", id)
	}
	if snap == nil {
		return id, nil
	}
	if _, err := snap.Page(id); err != nil {
		if errors.Is(err, graph.ErrNotFound) {
			_, err := LoadPage(snap, nil, id, PageOptions{})
			return "", err // "no page …; did you mean …"
		}
		return "", err
	}
	return id, nil
}
