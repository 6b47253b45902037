package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/engine"
)

// TestQueryMemoryBesideCode: a query whose best answer is a memory returns
// it, within the budget, with the code it is about right after it; a note
// on that code ranks too, marked as a note.
func TestQueryMemoryBesideCode(t *testing.T) {
	cs, _, root := connect(t, Options{})
	const code = "symbol:pay/retry.go#Charge"
	_, out, isErr := callTool(t, cs, "wiki_remember", map[string]any{"fact": "Declined cards are never retried: only timeouts are, " +
		"because the gateway double-charges declined cards.", "title": "Declined cards are never retried", "category": "gotcha", "link_page_id": code})
	if isErr {
		t.Fatalf("remember: %v", out)
	}
	mem := out["id"].(string)
	if _, _, isErr := callTool(t, cs, "wiki_note", map[string]any{"page_id": code, "text": "gateway double-charges declined cards; see the memory"}); isErr {
		t.Fatal("note failed")
	}
	for _, budget := range []int{200, 2000} {
		text, res, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "are declined cards retried", "budget_tokens": budget})
		if isErr {
			t.Fatalf("query: %s", text)
		}
		results, _ := res["results"].([]any)
		if len(results) < 2 {
			t.Fatalf("budget %d: %d results\n%s", budget, len(results), text)
		}
		first, second := results[0].(map[string]any), results[1].(map[string]any)
		if first["id"] != mem || first["kind"] != "memory" {
			t.Errorf("budget %d: first result %v, want the memory %s\n%s", budget, first["id"], mem, text)
		}
		if second["id"] != code {
			t.Errorf("budget %d: second result %v, want the code it is about %s\n%s", budget, second["id"], code, text)
		}
		used := int(res["used_tokens"].(float64))
		if used > budget || used != engine.CountTokens(text) {
			t.Errorf("budget %d: used %d tokens\n%s", budget, used, text)
		}
		if budget == 2000 {
			note := false
			for _, r := range results {
				m := r.(map[string]any)
				note = note || m["kind"] == "note" && m["id"] == code
			}
			if !note {
				t.Errorf("no note stub:\n%s", text)
			}
		}
	}
	// Written files: one per memory, one per note.
	for _, sub := range []string{"memories", "notes"} {
		if ents, _ := os.ReadDir(filepath.Join(root, ".wiki", sub)); len(ents) != 1 {
			t.Errorf(".wiki/%s holds %d files, want 1", sub, len(ents))
		}
	}
}

// TestNoteConfirmTool: wiki_note with confirm re-anchors; without text or
// confirm it is a tool error.
func TestNoteConfirmTool(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	const code = "symbol:pay/retry.go#Charge"
	callTool(t, cs, "wiki_note", map[string]any{"page_id": code, "text": "sleeps between attempts"})
	text, out, isErr := callTool(t, cs, "wiki_note", map[string]any{"page_id": code, "confirm": true})
	if isErr || out["confirmed"].(float64) != 1 {
		t.Errorf("confirm: %s %v", text, out)
	}
	if text, _, isErr := callTool(t, cs, "wiki_note", map[string]any{"page_id": code}); !isErr || !strings.Contains(text, "confirm") {
		t.Errorf("no text, no confirm: %q", text)
	}
	text, page, _ := callTool(t, cs, "wiki_page", map[string]any{"page_id": code})
	notes, _ := page["notes"].([]any)
	if len(notes) != 1 || notes[0].(map[string]any)["state"] != "fresh" {
		t.Errorf("page notes: %v\n%s", page["notes"], text)
	}
}
