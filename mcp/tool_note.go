package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
)

type noteIn struct {
	PageID  string `json:"page_id" jsonschema:"ID, path or name"`
	Text    string `json:"text,omitempty" jsonschema:"the note"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"its notes still hold"`
}

type noteOut struct {
	PageID    string `json:"page_id"`
	Time      string `json:"time,omitempty"`
	Text      string `json:"text,omitempty"`
	Confirmed int    `json:"confirmed,omitempty"`
	Warning   string `json:"warning,omitempty"`
}

func (s *Server) addNote() {
	addTool(s, &sdk.Tool{Name: "wiki_note", Description: "Add a dated note (pitfall, lesson) to a page; wiki_page shows it."}, false, nil, s.note)
}

func (s *Server) note(ctx context.Context, c *call, in noteIn) (string, noteOut, error) {
	id, err := s.live.CheckPage(strings.TrimSpace(in.PageID))
	if err != nil {
		return "", noteOut{}, err
	}
	if !in.Confirm && strings.TrimSpace(in.Text) == "" {
		return "", noteOut{}, errors.New("text is empty: write the note, or pass confirm=true to mark the page's notes still true")
	}
	w, release := s.live.AnnotationWriter()
	defer release()
	out := noteOut{PageID: id}
	var b strings.Builder
	var n *annotate.Note
	if in.Confirm {
		var notes []annotate.Note
		var mems []annotate.Memory
		notes, mems, n, err = w.Confirm(id, in.Text)
		if err != nil && !errors.Is(err, annotate.ErrNotMirrored) {
			return "", noteOut{}, fmt.Errorf("not confirmed: %v", err)
		}
		out.Confirmed = len(notes) + len(mems)
		fmt.Fprintf(&b, "confirmed %d notes and %d memories on %s\n", len(notes), len(mems), id)
	} else {
		var nn annotate.Note
		nn, err = w.Note(id, in.Text)
		if err != nil && !errors.Is(err, annotate.ErrNotMirrored) {
			return "", noteOut{}, fmt.Errorf("not saved: %v", err)
		}
		n = &nn
	}
	if n != nil {
		out.Time, out.Text = n.Time.Local().Format(time.RFC3339), n.Text
		fmt.Fprintf(&b, "note added to %s at %s\n", id, out.Time)
	}
	if err != nil {
		out.Warning = err.Error()
		fmt.Fprintf(&b, "warning: %s\n", out.Warning)
	}
	return b.String(), out, nil
}
