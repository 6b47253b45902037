package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// mcpRepo writes a small repository with a .git marker and builds it.
func mcpRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	files := map[string]string{
		"README.md": "# Shop\n\nA tiny shop. Payments retry with backoff.\n",
		"pay/retry.go": "// Package pay charges cards.\npackage pay\n\n// Charge charges a card, retrying transient failures.\n" +
			"func Charge(amount int) error { return attempt(amount) }\n\nfunc attempt(amount int) error { return nil }\n",
		"cart/cart.go": "package cart\n\nimport \"example.com/shop/pay\"\n\n// Checkout pays for the cart.\nfunc Checkout(total int) error { return pay.Charge(total) }\n",
	}
	walktest.WriteTree(t, repo, files)
	if _, errs, code := run(t, repo, "build", "--quiet"); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	return repo
}

// TestMCPStdioJSONRPC drives the real binary over stdin/stdout and checks
// that every line it writes to stdout is a JSON-RPC 2.0 message.
func TestMCPStdioJSONRPC(t *testing.T) {
	repo := mcpRepo(t)
	cmd := exec.Command(binPath, "mcp")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 32<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// Each call with what must come back: a result, a tool error (isError,
	// with these words), or (an unknown tool only) a JSON-RPC error.
	type callCase struct{ params, want, errWords string }
	cases := []callCase{
		{`{"name":"wiki_query","arguments":{"question":"charge card"}}`, "ok", ""},
		{`{"name":"wiki_page","arguments":{"page_id":"symbol:pay/retry.go#Charge"}}`, "ok", ""},
		{`{"name":"wiki_page","arguments":{"page_id":"symbol:pay/retry.go#Nope"}}`, "tool-error", "no page"},
		{`{"name":"wiki_related","arguments":{"page_id":"symbol:pay/retry.go#Charge","direction":"in"}}`, "ok", ""},
		{`{"name":"wiki_status","arguments":{}}`, "ok", ""},
		{`{"name":"wiki_search","arguments":{"pattern":"charge","ignore_case":true,"context":1}}`, "ok", ""},
		{`{"name":"wiki_search","arguments":{"pattern":"Charge","files_only":true}}`, "ok", ""},
		{`{"name":"wiki_read","arguments":{"path":"pay/retry.go"}}`, "ok", ""},
		{`{"name":"wiki_read","arguments":{"path":"../../etc/passwd"}}`, "tool-error", "leaves the repository"},
		{`{"name":"wiki_remember","arguments":{"fact":"Checkout never retries on its own."}}`, "ok", ""},
		{`{"name":"wiki_note","arguments":{"page_id":"file:cart/cart.go","text":"see pay"}}`, "ok", ""},
		{`{"name":"wiki_query","arguments":{"question":12}}`, "tool-error", "question must be a string"},
		{`{"name":"wiki_query","arguments":{"question":"x","budget_tokens":"abc"}}`, "tool-error", "budget_tokens must be an integer"},
		{`{"name":"wiki_query","arguments":{"question":"x","kind":"symbol,doc"}}`, "ok", ""},
		{`{"name":"wiki_query","arguments":{"question":"x","kind":"bogus"}}`, "tool-error", "unknown page kind"},
		{`{"name":"wiki_query","arguments":"not an object"}`, "tool-error", "JSON object"},
		{`{"name":"no_such_tool","arguments":{}}`, "rpc-error", ""},
	}
	calls := make([]string, len(cases))
	for i, c := range cases {
		calls[i] = c.params
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	for i, c := range calls {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+3, c))
	}
	send(`{"jsonrpc":"2.0","id":99,"method":"resources/read","params":{"uri":"wiki://page/file:pay/retry.go"}}`)
	send(`not json at all`)
	send(`{"foo":1}`)
	send(`[1,2]`)
	send(`{"jsonrpc":"2.0","id":100,"method":"ping"}`)

	want := map[float64]bool{}
	for i := 1; i <= len(calls)+2; i++ {
		want[float64(i)] = true
	}
	want[99], want[100] = true, true
	deadline := time.After(30 * time.Second)
	for len(want) > 0 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed with %d answers missing; stderr:\n%s", len(want), stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("stdout line is not JSON-RPC: %q", l)
			}
			if id, ok := m["id"].(float64); ok {
				delete(want, id)
				if id >= 3 && id < 3+float64(len(calls)) {
					c := cases[int(id)-3]
					r, _ := m["result"].(map[string]any)
					isErr, _ := r["isError"].(bool)
					got := "ok"
					switch {
					case m["error"] != nil:
						got = "rpc-error"
					case r == nil:
						got = "no result"
					case isErr:
						got = "tool-error"
					}
					if got != c.want {
						t.Errorf("call %s: %s, want %s: %s", c.params, got, c.want, l)
					} else if c.errWords != "" && !strings.Contains(l, c.errWords) {
						t.Errorf("call %s: the error does not say %q: %s", c.params, c.errWords, l)
					}
				}
			}
		case <-deadline:
			t.Fatalf("no answer for ids %v; stderr:\n%s", want, stderr.String())
		}
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcp exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("mcp did not exit after stdin closed")
	}
	for l := range lines {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil || m["jsonrpc"] != "2.0" {
			t.Errorf("stdout line is not JSON-RPC: %q", l)
		}
	}
	// One log line per call, sizes only.
	if n := strings.Count(stderr.String(), "tool=wiki_"); n < len(calls)-1 {
		t.Errorf("%d log lines for %d calls:\n%s", n, len(calls), stderr.String())
	}
	if strings.Contains(stderr.String(), "Checkout never retries") {
		t.Error("the log contains call contents")
	}
}

// mcpClient starts `wikitoolkit mcp` in repo and connects an SDK client.
func mcpClient(t *testing.T, repo string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(binPath, "mcp")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func toolText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestMCPManyProcesses runs two MCP servers on one repository, builds and
// CLI writers at once: every call succeeds and no memory or note is lost.
func TestMCPManyProcesses(t *testing.T) {
	repo := mcpRepo(t)
	servers := []*sdk.ClientSession{mcpClient(t, repo), mcpClient(t, repo)}
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	const rounds = 8
	var wg sync.WaitGroup
	errs := make(chan string, 1000)
	for si, cs := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for r := range rounds {
				for _, c := range []sdk.CallToolParams{
					{Name: "wiki_query", Arguments: map[string]any{"question": "charge card retry"}},
					{Name: "wiki_remember", Arguments: map[string]any{"fact": fmt.Sprintf("server %d fact %d", si, r), "title": fmt.Sprintf("s%d f%d", si, r)}},
					{Name: "wiki_note", Arguments: map[string]any{"page_id": "file:pay/retry.go", "text": fmt.Sprintf("server %d note %d", si, r)}},
					{Name: "wiki_page", Arguments: map[string]any{"page_id": "symbol:pay/retry.go#Charge"}},
					{Name: "wiki_status", Arguments: map[string]any{}},
				} {
					res, err := cs.CallTool(ctx, &c)
					switch {
					case err != nil:
						errs <- fmt.Sprintf("server %d %s: %v", si, c.Name, err)
					case res.IsError:
						errs <- fmt.Sprintf("server %d %s: %s", si, c.Name, toolText(res))
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // builds, with real changes
		defer wg.Done()
		for r := range 3 {
			os.WriteFile(filepath.Join(repo, fmt.Sprintf("pay/extra%d.go", r)), []byte(fmt.Sprintf("package pay\n\n// Extra%d is new.\nfunc Extra%d() {}\n", r, r)), 0o644)
			args := []string{"build", "--quiet"}
			if r == 1 {
				args = append(args, "--full")
			}
			if _, e, code := run(t, repo, args...); code != 0 {
				errs <- "build: " + e
			}
		}
	}()
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, e, code := run(t, repo, "remember", "--title", fmt.Sprintf("cli %d", r), fmt.Sprintf("cli fact %d", r)); code != 0 {
				errs <- "remember: " + e
			}
			if _, e, code := run(t, repo, "note", "file:cart/cart.go", fmt.Sprintf("cli note %d", r)); code != 0 {
				errs <- "note: " + e
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var st statusJSON
	runJSON(t, repo, &st, "status", "--json")
	if want := 2*rounds + 4; st.Pages["memory"] != want {
		t.Errorf("%d memories, want %d", st.Pages["memory"], want)
	}
	if want := 2*rounds + 4; st.Notes != want {
		t.Errorf("%d notes, want %d", st.Notes, want)
	}
	// Both servers see everything, including the last build.
	for i, cs := range servers {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "Extra2"}})
		if err != nil || res.IsError || !strings.Contains(toolText(res), "Extra2") {
			t.Errorf("server %d does not see the last build: %v %s", i, err, toolText(res))
		}
		res, _ = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "cli fact 3"}})
		if res == nil || !strings.Contains(toolText(res), "memory:cli-3") {
			t.Errorf("server %d does not find a memory written by the CLI: %s", i, toolText(res))
		}
	}
}

// TestHookClaude feeds PreToolUse events to the hook.
func TestHookClaude(t *testing.T) {
	repo := mcpRepo(t)
	hook := func(ev string) (string, time.Duration) {
		// A budget no loaded machine exceeds: the hits must be there.
		cmd := exec.Command(binPath, "hook", "--budget", "1m", "claude")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
		cmd.Stdin = strings.NewReader(ev)
		start := time.Now()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook failed: %v", err)
		}
		return string(out), time.Since(start)
	}
	for ev, hit := range map[string]string{
		`{"hook_event_name":"PreToolUse","tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"func\\s+Charge"}}`:                       "symbol:pay/retry.go#Charge :5",
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"` + repo + `","tool_input":{"command":"grep -rn 'Checkout' --include=*.go ."}}`: "symbol:cart/cart.go#Checkout :6",
		`{"hook_event_name":"PreToolUse","tool_name":"Glob","cwd":"` + repo + `","tool_input":{"pattern":"**/*retry*.go"}}`:                        "pay/retry.go",
	} {
		out, took := hook(ev)
		t.Logf("hook answered in %s", took)
		var o hookOutput
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("hook output is not JSON: %q", out)
		}
		if o.HookSpecificOutput.HookEventName != "PreToolUse" || !strings.Contains(o.HookSpecificOutput.AdditionalContext, "wiki_query") {
			t.Errorf("hook output: %s", out)
		}
		// Real hits from the index, not the tip alone.
		if ctx := o.HookSpecificOutput.AdditionalContext; !strings.Contains(ctx, "top pages for") || !strings.Contains(ctx, hit) {
			t.Errorf("hook context lacks the index hit %q: %s", hit, ctx)
		}
		if strings.Contains(out, "deny") || strings.Contains(out, "permissionDecision") {
			t.Errorf("hook blocks: %s", out)
		}
	}
	if out, _ := hook(`{"tool_name":"Edit","tool_input":{}}`); out != "" {
		t.Errorf("hook spoke on Edit: %q", out)
	}
	if out, _ := hook(`garbage`); out != "" {
		t.Errorf("hook spoke on garbage: %q", out)
	}
	var st statusJSON
	runJSON(t, repo, &st, "status", "--json")
	if st.Hook.Events != 3 {
		t.Errorf("bypass events = %d, want 3", st.Hook.Events)
	}
}

// TestHookNameIndex: an identifier is answered from the name index, not
// by loading the whole ranking index (which on a large repository takes
// longer than the hook's budget). Every index has segments of module
// pages, which hold no names; reading the name index failed on them
// ("not found"), and the hook fell back to the ranking index every time.
func TestHookNameIndex(t *testing.T) {
	repo := mcpRepo(t)
	cmd := exec.Command(binPath, "hook", "--debug", "--budget", "1m", "claude")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"Checkout"}}`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hook failed: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "hits from the name index") {
		t.Errorf("the name index did not answer; hook's debug output:\n%s", stderr.String())
	}
	if !strings.Contains(string(out), "symbol:cart/cart.go#Checkout :6") {
		t.Errorf("hook output lacks the hit: %s", out)
	}
}

func TestBashSearch(t *testing.T) {
	for cmd, want := range map[string]string{
		`grep -rn "parseConfig" src/`:           "parseConfig",
		`rg -t go -e 'New\w+' | head`:           "New",
		`cd x && git grep -n retryPolicy`:       "retryPolicy",
		`find . -name '*handler*.go'`:           "handler",
		`ls -la`:                                "",
		`FOO=1 grep -A 3 -i "Token count" a.go`: "Token count",
	} {
		if got, _ := bashSearch(cmd); got != want {
			t.Errorf("bashSearch(%q) = %q, want %q", cmd, got, want)
		}
	}
}
