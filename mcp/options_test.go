package mcp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/engine/wiki"
	"github.com/wikitoolkit/wikitoolkit/graph"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestAnnotations: every read-only tool says so and that it stays inside
// the repository; the two writers say they only add; wiki_check claims
// nothing.
func TestAnnotations(t *testing.T) {
	cs, _, _ := connectWith(t, Options{}, map[string]string{".wikitoolkit.json": `{"checks": {"tests": ["go", "test", "./..."]}}`})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(ToolNames) {
		t.Fatalf("%d tools listed", len(res.Tools))
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tool.Name)
			continue
		}
		if tool.Name == "wiki_check" {
			// It runs what the project configured: MCP's defaults
			// (destructive, open world) stand.
			if a.ReadOnlyHint || a.OpenWorldHint != nil || a.DestructiveHint != nil {
				t.Errorf("wiki_check annotations %+v, want readOnlyHint false and no other hint", a)
			}
			continue
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint %v, want false", tool.Name, a.OpenWorldHint)
		}
		writer := tool.Name == "wiki_remember" || tool.Name == "wiki_note"
		if a.ReadOnlyHint == writer {
			t.Errorf("%s: readOnlyHint %v", tool.Name, a.ReadOnlyHint)
		}
		if writer && (a.DestructiveHint == nil || *a.DestructiveHint) {
			t.Errorf("%s: destructiveHint %v, want false", tool.Name, a.DestructiveHint)
		}
	}
}

// TestBadArguments: a wrong type, an unknown or a missing parameter is a
// tool error that names the parameter and what it must be.
func TestBadArguments(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"wiki_query", map[string]any{"question": "x", "budget_tokens": "abc"}, []string{"budget_tokens", "an integer", "string"}},
		{"wiki_query", map[string]any{"question": "x", "budget_tokens": 2.5}, []string{"budget_tokens", "an integer"}},
		{"wiki_query", map[string]any{"question": 12}, []string{"question", "a string"}},
		{"wiki_query", map[string]any{"question": "x", "focus": "cart"}, []string{"focus", "an array of strings"}},
		{"wiki_query", map[string]any{"question": "x", "focus": []any{1}}, []string{"focus", "item 0"}},
		{"wiki_query", map[string]any{}, []string{"missing parameter question", "a string"}},
		{"wiki_query", map[string]any{"question": "x", "bogus": true}, []string{`unknown parameter "bogus"`, "budget_tokens (an integer)"}},
		{"wiki_search", map[string]any{"pattern": "x", "ignore_case": "yes"}, []string{"ignore_case", "a boolean"}},
		{"wiki_search", map[string]any{"pattern": "x", "context": "3"}, []string{"context", "an integer"}},
		{"wiki_read", map[string]any{"path": "pay/retry.go", "start_line": "12"}, []string{"start_line", "an integer"}},
		{"wiki_status", map[string]any{"x": 1}, []string{`unknown parameter "x"`, "no parameters"}},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Errorf("%s(%v): JSON-RPC error %v, want a tool error", c.tool, c.args, err)
			continue
		}
		text := ""
		for _, ct := range res.Content {
			if tc, ok := ct.(*sdk.TextContent); ok {
				text += tc.Text
			}
		}
		if !res.IsError {
			t.Errorf("%s(%v): not an error: %s", c.tool, c.args, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s(%v): %q lacks %q", c.tool, c.args, text, w)
			}
		}
		if strings.Contains(text, "validating") {
			t.Errorf("%s(%v): the SDK's message: %q", c.tool, c.args, text)
		}
	}
	// null for an optional parameter is as if it were left out.
	if text, _, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "Charge", "focus": nil, "budget_tokens": nil}); isErr || !strings.Contains(text, "Charge") {
		t.Errorf("null optional parameters: isErr=%v %s", isErr, text)
	}
}

// TestSearchOptions: ignore_case, context lines and files_only.
func TestSearchOptions(t *testing.T) {
	cs, _, root := connect(t, Options{})
	walktest.WriteTree(t, root, map[string]string{"notes/ctx.txt": "one\ntwo\nMATCH three\nfour\nfive\nsix\nseven\nmatch eight\nnine\n"})

	text, st, isErr := callTool(t, cs, "wiki_search", map[string]any{"pattern": "retrypolicy", "path_glob": "*.go"})
	if isErr || !strings.Contains(text, "no matches") {
		t.Errorf("case-sensitive search matched: %s", text)
	}
	text, st, isErr = callTool(t, cs, "wiki_search", map[string]any{"pattern": "retrypolicy", "ignore_case": true, "path_glob": "*.go"})
	if isErr || !strings.Contains(text, "pay/retry.go:6:") || !strings.Contains(text, "cart/cart.go:8:") {
		t.Errorf("ignore_case literal:\n%s", text)
	}
	text, _, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": `^func CH`, "regex": true, "ignore_case": true})
	if !strings.Contains(text, "pay/retry.go:13:") {
		t.Errorf("ignore_case regex anchored at line start:\n%s", text)
	}

	text, st, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": "match", "ignore_case": true, "context": 1, "path_glob": "notes/*"})
	want := "notes/ctx.txt-2- two\nnotes/ctx.txt:3: MATCH three\nnotes/ctx.txt-4- four\n" +
		"--\nnotes/ctx.txt-7- seven\nnotes/ctx.txt:8: match eight\nnotes/ctx.txt-9- nine\n"
	if text != want {
		t.Errorf("context 1:\n%s\nwant\n%s", text, want)
	}
	ms, _ := st["matches"].([]any)
	if len(ms) != 2 {
		t.Fatalf("structured matches: %v", st)
	}
	if m := ms[0].(map[string]any); len(m["before"].([]any)) != 1 || len(m["after"].([]any)) != 1 {
		t.Errorf("structured context: %v", m)
	}
	// Overlapping context is shown once; adjacent groups have no separator.
	text, _, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": "match", "ignore_case": true, "context": 4, "path_glob": "notes/*"})
	if strings.Count(text, "six") != 1 || strings.Count(text, "five") != 1 || strings.Contains(text, "--") {
		t.Errorf("context 4:\n%s", text)
	}

	text, st, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": "Charge", "files_only": true})
	if text != "cart/cart.go\npay/retry.go\n" {
		t.Errorf("files_only:\n%s", text)
	}
	if fs, _ := st["files"].([]any); len(fs) != 2 || st["files_matched"] != float64(2) {
		t.Errorf("structured files_only: %v", st)
	}
	text, st, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": "package", "files_only": true, "max_results": 1})
	if strings.Count(text, "\n") != 2 || st["truncated"] != true || !strings.Contains(text, "stopped at 1 files") {
		t.Errorf("files_only bounded:\n%s", text)
	}
	text, _, isErr = callTool(t, cs, "wiki_search", map[string]any{"pattern": "x", "context": -1})
	if !isErr || !strings.Contains(text, "context") {
		t.Errorf("negative context: %v %s", isErr, text)
	}
	// Context is bounded: 1000 asks for at most MaxSearchContext lines a side.
	text, _, _ = callTool(t, cs, "wiki_search", map[string]any{"pattern": "go 1.22", "context": 1000, "path_glob": "go.mod"})
	if !strings.Contains(text, "go.mod-1- module example.com/shop") {
		t.Errorf("big context:\n%s", text)
	}
}

// TestQueryKind filters wiki_query by page kind.
func TestQueryKind(t *testing.T) {
	cs, _, _ := connect(t, Options{})
	_, all, _ := callTool(t, cs, "wiki_query", map[string]any{"question": "retry payment backoff"})
	kinds := func(st map[string]any) map[string]bool {
		out := map[string]bool{}
		rs, _ := st["results"].([]any)
		for _, r := range rs {
			id, _ := r.(map[string]any)["id"].(string)
			k, _, _ := strings.Cut(id, ":")
			out[k] = true
		}
		return out
	}
	if k := kinds(all); !k["doc"] || !(k["symbol"] || k["file"]) {
		t.Fatalf("unfiltered query kinds %v", k)
	}
	for _, c := range []struct {
		kind string
		only []string
	}{{"doc", []string{"doc"}}, {"symbol, FILE", []string{"symbol", "file"}}} {
		text, st, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "retry payment backoff", "kind": c.kind})
		got := kinds(st)
		if isErr || len(got) == 0 {
			t.Errorf("kind %q: isErr=%v %s", c.kind, isErr, text)
		}
		for k := range got {
			if !strings.Contains(strings.Join(c.only, ","), k) {
				t.Errorf("kind %q returned a %s page:\n%s", c.kind, k, text)
			}
		}
	}
	text, _, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "x", "kind": "symbols"})
	if !isErr || !strings.Contains(text, `unknown page kind "symbols"`) {
		t.Errorf("bad kind: %v %s", isErr, text)
	}
}

// noIndexServer serves a fixture repository that has no index, building it
// with build, and returns a connected client.
func noIndexServer(t *testing.T, build func(ctx context.Context, root string) error, firstWait time.Duration) *sdk.ClientSession {
	t.Helper()
	root := t.TempDir()
	walktest.WriteTree(t, root, fixture)
	srv, err := New(Options{IndexDir: filepath.Join(root, graph.IndexDirName), Root: root, CheckEvery: -1,
		Build: func(ctx context.Context) error { return build(ctx, root) }})
	if err != nil {
		t.Fatal(err)
	}
	srv.live.FirstWait = firstWait
	t.Cleanup(func() { srv.Close() })
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func realBuild(ctx context.Context, root string) error {
	_, err := graph.Build(ctx, graph.BuildOptions{Root: root, Segment: engine.BuildBlobs, BlobsFormat: engine.Format, Progress: wiki.BuildProgress(ctx)})
	return err
}

// TestFirstQueryWaitsForBuild: on a repository without an index the first
// wiki_query starts the build and answers from it.
func TestFirstQueryWaitsForBuild(t *testing.T) {
	cs := noIndexServer(t, realBuild, 0)
	text, _, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "retry payment backoff"})
	if isErr || !strings.Contains(text, "pay/retry.go") {
		t.Errorf("first query: isErr=%v\n%s", isErr, text)
	}
}

// TestFirstQueryFallsBack: a build that outlasts the wait gets the "being
// built" answer with its progress, then the index once it is done.
func TestFirstQueryFallsBack(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	cs := noIndexServer(t, func(ctx context.Context, root string) error {
		if p := wiki.BuildProgress(ctx); p != nil {
			p.Start(40)
			p.Add(3)
		}
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return ctx.Err()
		}
		return realBuild(ctx, root)
	}, 50*time.Millisecond)
	text, _, isErr := callTool(t, cs, "wiki_query", map[string]any{"question": "retry"})
	if !isErr || !strings.Contains(text, "being built") || !strings.Contains(text, "3 of 40 files parsed") {
		t.Errorf("while building: isErr=%v %s", isErr, text)
	}
	<-started
	close(release)
	deadline := time.Now().Add(30 * time.Second)
	for {
		text, _, isErr = callTool(t, cs, "wiki_query", map[string]any{"question": "retry payment backoff"})
		if !isErr {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no index after the build: %s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(text, "pay/retry.go") {
		t.Errorf("after the build:\n%s", text)
	}
}

// TestFirstQueryCancelled: a call whose context ends stops waiting for
// the first build.
func TestFirstQueryCancelled(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, fixture)
	release := make(chan struct{})
	defer close(release)
	srv, err := New(Options{IndexDir: filepath.Join(root, graph.IndexDirName), CheckEvery: -1, Build: func(ctx context.Context) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.live.FirstWait = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		srv.live.WaitFirstBuild(ctx)
		close(done)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("waitFirstBuild kept waiting after its context ended")
	}
	if msg := srv.live.BuildingMessage(); !strings.Contains(msg, "being built (started") {
		t.Errorf("building message: %s", msg)
	}
}
