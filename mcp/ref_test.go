package mcp

import (
	"strings"
	"testing"
)

// TestToolRefs: the tools that take a page ID also take a repository path,
// a folder, PATH#NAME or a symbol name, and wiki_query says when an
// identifier is found nowhere.
func TestToolRefs(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	cases := []struct {
		tool    string
		args    map[string]any
		wantErr bool
		want    string
	}{
		{"wiki_page", map[string]any{"page_id": "pay/retry.go"}, false, "file:pay/retry.go  [file]"},
		{"wiki_page", map[string]any{"page_id": "pay"}, false, "module:pay  [module]"},
		{"wiki_page", map[string]any{"page_id": "Charge"}, false, "symbol:pay/retry.go#Charge  [symbol func]"},
		{"wiki_page", map[string]any{"page_id": "pay.Charge"}, false, "symbol:pay/retry.go#Charge  [symbol func]"},
		{"wiki_page", map[string]any{"page_id": "cart/cart.go#Checkout"}, false, "func Checkout"},
		{"wiki_page", map[string]any{"page_id": "Chrge"}, true, "did you mean:\n  symbol:pay/retry.go#Charge"},
		{"wiki_page", map[string]any{"page_id": "../etc/passwd"}, true, "leaves the repository"},
		{"wiki_related", map[string]any{"page_id": "Charge", "rel": "references", "direction": "in"}, false,
			"symbol:cart/cart.go#Checkout  [call import]  (func, cart/cart.go:7)\n      func Checkout(total int) error"},
		{"wiki_note", map[string]any{"page_id": "attempt", "text": "always succeeds"}, false, "note added to symbol:pay/retry.go#attempt"},
		{"wiki_remember", map[string]any{"fact": "Checkout pays once.", "link_page_id": "cart/cart.go#Checkout"}, false, "memory:"},
	}
	for _, c := range cases {
		text, _, isErr := callTool(t, cs, c.tool, c.args)
		if isErr != c.wantErr || !strings.Contains(text, c.want) {
			t.Errorf("%s(%v): isError=%v (want %v), want %q in:\n%s", c.tool, c.args, isErr, c.wantErr, c.want, text)
		}
	}
	text, _, _ := callTool(t, cs, "wiki_page", map[string]any{"page_id": "Checkout"})
	if !strings.Contains(text, "memory:checkout-pays-once") {
		t.Errorf("the memory linked by PATH#NAME is not on the page:\n%s", text)
	}

	text, st, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "zebra_unicorn_retry"})
	if st["exact_match"] != false || !strings.HasPrefix(text, `(nothing in the index is named "zebra_unicorn_retry" exactly`) {
		t.Errorf("wiki_query for an unknown identifier: exact_match %v, text:\n%s", st["exact_match"], text)
	}
	if _, st, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "RetryPolicy"}); st["exact_match"] != true || st["note"] != nil {
		t.Errorf("wiki_query RetryPolicy: %v", st)
	}
}
