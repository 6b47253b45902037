package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/annotate"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// fixture files: a small Go module with a README.
var fixture = map[string]string{
	"go.mod":    "module example.com/shop\n\ngo 1.22\n",
	"README.md": "# Shop\n\nA tiny shop.\n\n## Retries\n\nPayments are retried with exponential backoff.\n",
	"pay/retry.go": `// Package pay charges cards.
package pay

import "time"

// RetryPolicy says how often a payment is retried.
type RetryPolicy struct {
	Max     int
	Backoff time.Duration
}

// Charge charges a card, retrying transient failures.
func Charge(p RetryPolicy, amount int) error {
	for i := 0; i < p.Max; i++ {
		if err := attempt(amount); err == nil {
			return nil
		}
		time.Sleep(p.Backoff << i)
	}
	return nil
}

func attempt(amount int) error { return nil }
`,
	"cart/cart.go": `// Package cart holds a shopping cart.
package cart

import "example.com/shop/pay"

// Checkout pays for the cart.
func Checkout(total int) error {
	return pay.Charge(pay.RetryPolicy{Max: 3}, total)
}
`,
}

// buildIndex builds root with the ranking index and returns the index folder.
func buildIndex(t testing.TB, root string) string {
	t.Helper()
	dir := filepath.Join(root, graph.IndexDirName)
	graphtest.Build(t, graph.BuildOptions{Root: root, IndexDir: dir, Segment: engine.BuildBlobs, BlobsFormat: engine.Format})
	return dir
}

// connect starts a Server on a fresh fixture and returns a connected client.
func connect(t testing.TB, opt Options) (*sdk.ClientSession, *Server, string) {
	t.Helper()
	return connectWith(t, opt, nil)
}

// connectWith is connect on the fixture plus extra files.
func connectWith(t testing.TB, opt Options, extra map[string]string) (*sdk.ClientSession, *Server, string) {
	t.Helper()
	root := t.TempDir()
	walktest.WriteTree(t, root, fixture)
	walktest.WriteTree(t, root, extra)
	dir := buildIndex(t, root)
	opt.IndexDir = dir
	if opt.CheckEvery == 0 {
		opt.CheckEvery = -1
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, srv, root
}

func callTool(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) (string, map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	var structured map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &structured)
	}
	if !res.IsError {
		if n := engine.CountTokens(text.String()) + engine.CountTokens(mustJSON(structured)); n > MaxAnswerTokens {
			t.Errorf("%s: answer of %d tokens, over %d", name, n, MaxAnswerTokens)
		}
	}
	return text.String(), structured, res.IsError
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestTools calls every tool with good arguments, bad arguments and a
// missing page.
func TestTools(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	type tc struct {
		tool    string
		args    map[string]any
		wantErr bool
		want    string // in the text
	}
	cases := []tc{
		{"wiki_query", map[string]any{"question": "retry payment backoff"}, false, "pay/retry.go"},
		{"wiki_query", map[string]any{"question": "Checkout", "budget_tokens": 200, "focus": []string{"cart/cart.go"}}, false, "Checkout"},
		{"wiki_query", map[string]any{"question": "  "}, true, "question is empty"},
		{"wiki_query", map[string]any{"question": "Charge", "budget_tokens": 5}, false, "Charge"},
		{"wiki_query", map[string]any{"question": "x", "budget_tokens": -5}, true, "positive"},
		{"wiki_query", map[string]any{"question": "x", "bogus": 1}, true, "bogus"},
		{"wiki_query", map[string]any{}, true, "question"},
		{"wiki_page", map[string]any{"page_id": "symbol:pay/retry.go#Charge"}, false, "func Charge"},
		{"wiki_page", map[string]any{"page_id": "file:pay/retry.go"}, false, "RetryPolicy"},
		{"wiki_page", map[string]any{"page_id": "symbol:pay/retry.go#Chrge"}, true, "did you mean"},
		{"wiki_page", map[string]any{"page_id": "file:../../etc/passwd"}, true, "bad page ID"},
		{"wiki_page", map[string]any{"page_id": 7}, true, "page_id"},
		{"wiki_related", map[string]any{"page_id": "symbol:pay/retry.go#Charge", "rel": "references", "direction": "in"}, false, "Checkout"},
		{"wiki_related", map[string]any{"page_id": "symbol:pay/retry.go#Charge"}, false, "contains"},
		{"wiki_related", map[string]any{"page_id": "symbol:pay/retry.go#Charge", "rel": "calls"}, true, "unknown edge type"},
		{"wiki_related", map[string]any{"page_id": "symbol:pay/retry.go#Charge", "direction": "up"}, true, "direction"},
		{"wiki_related", map[string]any{"page_id": "symbol:nope.go#X"}, true, "no page"},
		{"wiki_status", map[string]any{}, false, "pages"},
		{"wiki_status", map[string]any{"x": 1}, true, "x"},
		{"wiki_search", map[string]any{"pattern": "p.Backoff"}, false, "pay/retry.go:18"},
		{"wiki_search", map[string]any{"pattern": `func \w+\(`, "regex": true, "path_glob": "cart/*.go"}, false, "cart/cart.go:7"},
		{"wiki_search", map[string]any{"pattern": "Retr", "path_glob": "*.md"}, false, "README.md"},
		{"wiki_search", map[string]any{"pattern": "nothing-like-this"}, false, "no matches"},
		{"wiki_search", map[string]any{"pattern": "(", "regex": true}, true, "bad regular expression"},
		{"wiki_search", map[string]any{"pattern": ""}, true, "empty pattern"},
		{"wiki_search", map[string]any{"pattern": "x", "max_results": -1}, true, "positive"},
		{"wiki_search", map[string]any{"pattern": "x", "max_results": "many"}, true, "max_results"},
		{"wiki_read", map[string]any{"path": "pay/retry.go", "start_line": 12, "end_line": 13}, false, "func Charge"},
		{"wiki_read", map[string]any{"path": "pay/retry.go"}, false, "package pay"},
		{"wiki_read", map[string]any{"path": "/etc/passwd"}, true, "absolute"},
		{"wiki_read", map[string]any{"path": "../x"}, true, "leaves the repository"},
		{"wiki_read", map[string]any{"path": "nope.go"}, true, "no file"},
		{"wiki_read", map[string]any{"path": "pay"}, true, "directory"},
		{"wiki_read", map[string]any{"path": "pay/retry.go", "start_line": -1}, true, "start at 1"},
		{"wiki_read", map[string]any{"path": "pay/retry.go", "start_line": 500}, true, "past the end"},
		{"wiki_read", map[string]any{"path": ".git/config"}, true, ".git"},
		{"wiki_remember", map[string]any{"fact": "Payments retry 3 times with doubling backoff.", "category": "gotcha",
			"link_page_id": "symbol:pay/retry.go#Charge", "rel": "explains"}, false, "memory:"},
		{"wiki_remember", map[string]any{"fact": ""}, true, "empty"},
		{"wiki_remember", map[string]any{"fact": "x", "link_page_id": "symbol:pay/retry.go#Nope"}, true, "no page"},
		{"wiki_remember", map[string]any{"fact": strings.Repeat("x", annotate.MaxAuthoredBytes+1)}, true, "too large"},
		{"wiki_note", map[string]any{"page_id": "symbol:cart/cart.go#Checkout", "text": "Checkout does not retry by itself."}, false, "note added"},
		{"wiki_note", map[string]any{"page_id": "symbol:cart/cart.go#Nope", "text": "x"}, true, "no page"},
		{"wiki_note", map[string]any{"page_id": "symbol:cart/cart.go#Checkout"}, true, "text"},
		{"wiki_note", map[string]any{"page_id": "/abs", "text": "x"}, true, "bad page ID"},
	}
	for _, c := range cases {
		text, _, isErr := callTool(t, cs, c.tool, c.args)
		if isErr != c.wantErr {
			t.Errorf("%s(%v): isError=%v, want %v; text:\n%s", c.tool, c.args, isErr, c.wantErr, text)
			continue
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%s(%v): text lacks %q:\n%s", c.tool, c.args, c.want, text)
		}
	}

	// Authored data shows up: the memory in queries and on both pages, the note on its page.
	text, st, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "how many times do payments retry"})
	if !strings.Contains(text, "memory:payments-retry-3-times-with-doubling-backoff") {
		t.Errorf("query does not find the memory:\n%s", text)
	}
	if _, ok := st["results"]; !ok {
		t.Errorf("structured query result lacks results: %v", st)
	}
	text, _, _ = callTool(t, cs, "wiki_page", map[string]any{"page_id": "symbol:pay/retry.go#Charge"})
	if !strings.Contains(text, "relates ←") || !strings.Contains(text, "memory:payments-retry") {
		t.Errorf("linked page does not show the memory:\n%s", text)
	}
	text, _, _ = callTool(t, cs, "wiki_page", map[string]any{"page_id": "memory:payments-retry-3-times-with-doubling-backoff"})
	if !strings.Contains(text, "symbol:pay/retry.go#Charge") || !strings.Contains(text, "gotcha") {
		t.Errorf("memory page:\n%s", text)
	}
	text, st, _ = callTool(t, cs, "wiki_page", map[string]any{"page_id": "symbol:cart/cart.go#Checkout"})
	if !strings.Contains(text, "Checkout does not retry by itself.") {
		t.Errorf("page does not show the note:\n%s", text)
	}
	if notes, _ := st["notes"].([]any); len(notes) != 1 {
		t.Errorf("structured notes = %v", st["notes"])
	}
	text, _, _ = callTool(t, cs, "wiki_status", nil)
	if !strings.Contains(text, "notes      1 on 1 pages") || !strings.Contains(text, "memory 1") {
		t.Errorf("status:\n%s", text)
	}
}

// TestToolListTokens measures what the tool list costs a model on every
// turn: what a client hands the model of each tool, its name, description
// and input schema (annotations are hints to the client, not part of a
// model's tool definition); the design allows 1,500 tokens, counted as 3
// bytes of JSON a token (model tokenizers take 3.2–4 bytes of schema JSON
// a token, so this errs high; engine.CountTokens, which errs higher on
// punctuation, and the whole tools/list are logged beside). wiki_check is
// listed only when the project configures checks; both lists must fit.
func TestToolListTokens(t *testing.T) {
	modelView := func(tools []*sdk.Tool) []byte {
		type def struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema any    `json:"input_schema"`
		}
		var defs []def
		for _, tl := range tools {
			defs = append(defs, def{tl.Name, tl.Description, tl.InputSchema})
		}
		b, _ := json.Marshal(defs)
		return b
	}
	measure := func(what string, tools []*sdk.Tool) {
		b := modelView(tools)
		n := (len(b) + 2) / 3
		whole, _ := json.Marshal(&sdk.ListToolsResult{Tools: tools})
		t.Logf("%s: %d tools, %d bytes as a model sees them, ~%d tokens at 3 bytes a token (engine.CountTokens: %d); the whole tools/list %d bytes",
			what, len(tools), len(b), n, engine.CountTokens(string(b)), len(whole))
		if n > 1500 {
			t.Errorf("%s costs ~%d tokens, over 1500", what, n)
		}
	}
	cs, _, _ := connect(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(ToolNames)-1 {
		t.Errorf("%d tools, want %d (all but wiki_check)", len(res.Tools), len(ToolNames)-1)
	}
	measure("tools/list", res.Tools)
	csAll, _, _ := connectWith(t, Options{}, map[string]string{".wikitoolkit.json": `{"checks": {"tests": ["go", "test", "./..."]}}`})
	all, err := csAll.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Tools) != len(ToolNames) {
		t.Errorf("with checks configured: %d tools, want %d", len(all.Tools), len(ToolNames))
	}
	measure("tools/list with checks configured", all.Tools)
	res.Tools = all.Tools
	for _, tool := range res.Tools {
		s := mustJSON(tool.InputSchema)
		var sch struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		json.Unmarshal([]byte(s), &sch)
		for name, p := range sch.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", tool.Name, name)
			}
		}
		if !strings.Contains(tool.Description, "instead of") && !strings.Contains(tool.Description, "wiki_") && tool.Name != "wiki_status" {
			t.Errorf("%s: description says neither what it replaces nor where its IDs come from", tool.Name)
		}
	}
}

func TestAllowDeny(t *testing.T) {
	cs, _, _ := connect(t, Options{Deny: []string{"wiki_read", "wiki_search"}})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "wiki_read" || tool.Name == "wiki_search" {
			t.Errorf("denied tool %s listed", tool.Name)
		}
	}
	if _, err := New(Options{IndexDir: t.TempDir(), Allow: []string{"wiki_bogus"}}); err == nil {
		t.Error("unknown tool in allow list accepted")
	}
}

// TestAnswerBounds reads and searches a large file: answers stay under the
// token limit and say they were cut.
func TestAnswerBounds(t *testing.T) {
	cs, _, root := connect(t, Options{})
	var b strings.Builder
	for i := range 5000 {
		b.WriteString("var needle" + strings.Repeat("x", i%50) + " = \"the quick brown fox jumps over the lazy dog\" // needle\n")
	}
	walktest.WriteTree(t, root, map[string]string{"big/big.go": "package big\n" + b.String(), "big/long.txt": strings.Repeat("needle ", 100000)})
	text, st, isErr := callTool(t, cs, "wiki_read", map[string]any{"path": "big/big.go", "start_line": 1, "end_line": 1000})
	if isErr || st["truncated"] != true || !strings.Contains(text, "read on with start_line") {
		t.Errorf("big read: isErr=%v truncated=%v\n%.300s", isErr, st["truncated"], text)
	}
	text, st, isErr = callTool(t, cs, "wiki_search", map[string]any{"pattern": "needle", "max_results": 500})
	if isErr || st["truncated"] != true || !strings.Contains(text, "stopped at") {
		t.Errorf("big search: isErr=%v truncated=%v\n%.300s", isErr, st["truncated"], text)
	}
	text, _, _ = callTool(t, cs, "wiki_read", map[string]any{"path": "big/long.txt"})
	if !strings.Contains(text, "line cut") {
		t.Errorf("long line not cut:\n%.200s", text)
	}
}

func TestConfinement(t *testing.T) {
	cs, _, root := connect(t, Options{})
	outside := t.TempDir()
	walktest.WriteTree(t, outside, map[string]string{"secret.txt": "secret\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skip(err)
	}
	os.Symlink(outside, filepath.Join(root, "linkdir"))
	os.WriteFile(filepath.Join(root, "bin.dat"), []byte("abc\x00def"), 0o644)
	for _, p := range []string{"link.txt", "linkdir/secret.txt", "bin.dat", "a\x00b", `pay\retry.go`, "C:/x"} {
		text, _, isErr := callTool(t, cs, "wiki_read", map[string]any{"path": p})
		if !isErr {
			t.Errorf("wiki_read %q allowed:\n%s", p, text)
		}
	}
	text, _, _ := callTool(t, cs, "wiki_search", map[string]any{"pattern": "secret"})
	if strings.Contains(text, "secret.txt:") {
		t.Errorf("search escaped the root:\n%s", text)
	}
}

// TestGenerationSwap rebuilds the index under a running server: the next
// call answers from the new generation, and a changed file is marked stale
// until then.
func TestGenerationSwap(t *testing.T) {
	cs, srv, root := connect(t, Options{})
	callTool(t, cs, "wiki_query", map[string]any{"question": "Charge"})
	gen1 := srv.live.OpenGeneration()
	time.Sleep(10 * time.Millisecond)
	walktest.WriteTree(t, root, map[string]string{"pay/refund.go": "package pay\n\n// Refund returns money.\nfunc Refund(amount int) error { return nil }\n",
		"pay/retry.go": fixture["pay/retry.go"] + "\n// Extra is new.\nfunc Extra() {}\n"})
	text, st, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "Charge RetryPolicy"})
	if !strings.Contains(text, "STALE") || st["stale"] == nil {
		t.Errorf("changed file not marked stale:\n%s", text)
	}
	buildIndex(t, root)
	text, _, _ = callTool(t, cs, "wiki_query", map[string]any{"question": "Refund money"})
	if !strings.Contains(text, "symbol:pay/refund.go#Refund") {
		t.Errorf("new generation not used:\n%s", text)
	}
	gen2 := srv.live.OpenGeneration()
	if gen2 == gen1 {
		t.Errorf("still on generation %d", gen1)
	}
}

// TestAutoRefresh lets the server notice a change and rebuild on its own.
func TestAutoRefresh(t *testing.T) {
	builds := make(chan struct{}, 10)
	var root string
	opt := Options{CheckEvery: time.Millisecond, Build: func(ctx context.Context) error {
		_, err := graph.Build(ctx, graph.BuildOptions{Root: root, Segment: engine.BuildBlobs, BlobsFormat: engine.Format})
		builds <- struct{}{}
		return err
	}}
	cs, _, r := connect(t, opt)
	root = r
	callTool(t, cs, "wiki_status", nil)
	walktest.WriteTree(t, root, map[string]string{"pay/refund.go": "package pay\n\n// Refund returns money.\nfunc Refund(amount int) error { return nil }\n"})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		text, _, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "Refund"})
		if strings.Contains(text, "symbol:pay/refund.go#Refund") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the server did not refresh the index (%d builds)", len(builds))
}

func TestNoIndex(t *testing.T) {
	srv, err := New(Options{IndexDir: filepath.Join(t.TempDir(), ".wikitoolkit"), CheckEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st, ct := sdk.NewInMemoryTransports()
	ss, _ := srv.SDK().Connect(context.Background(), st, nil)
	defer ss.Close()
	cs, _ := sdk.NewClient(&sdk.Implementation{Name: "t"}, nil).Connect(context.Background(), ct, nil)
	defer cs.Close()
	text, _, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "x"})
	if !isErr || !strings.Contains(text, "wikitoolkit build") {
		t.Errorf("no index: isErr=%v %s", isErr, text)
	}
}

func TestPageResource(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	for _, uri := range []string{PageURI("symbol:pay/retry.go#Charge"), "wiki://page/file:pay/retry.go"} {
		res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Charge") {
			t.Errorf("read %s: %+v", uri, res.Contents)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: PageURI("file:nope.go")}); err == nil {
		t.Error("missing page resource read without error")
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:80": true, "localhost:1": true, "[::1]:2": true, "0.0.0.0:80": false, ":80": false, "10.0.0.1:80": false} {
		if IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) = %v", addr, !want)
		}
	}
}
