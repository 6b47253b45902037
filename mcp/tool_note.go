package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

type noteIn struct {
	PageID string `json:"page_id" jsonschema:"ID from wiki_query"`
	Text   string `json:"text" jsonschema:"the note"`
}

type noteOut struct {
	PageID string `json:"page_id"`
	Time   string `json:"time"`
	Text   string `json:"text"`
}

func (s *Server) addNote() {
	addTool(s, &sdk.Tool{Name: "wiki_note", Description: "Add a dated note (pitfall, lesson) to a page; wiki_page shows it."}, false, nil, s.note)
}

func (s *Server) note(ctx context.Context, c *call, in noteIn) (string, noteOut, error) {
	id := strings.TrimSpace(in.PageID)
	if err := s.checkPageExists(id); err != nil {
		return "", noteOut{}, err
	}
	n, err := graph.AddNote(s.dir, id, in.Text)
	if err != nil {
		return "", noteOut{}, fmt.Errorf("not saved: %v", err)
	}
	t := n.Time.Local().Format(time.RFC3339)
	return fmt.Sprintf("note added to %s at %s\n", id, t), noteOut{PageID: id, Time: t, Text: n.Text}, nil
}
