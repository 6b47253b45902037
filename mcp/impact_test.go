package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestImpactTool: wiki_impact for a symbol (callers by depth, the pointer
// to wiki_check tests when that check exists) and for the git diff of a
// real repository; bad arguments are tool errors.
func TestImpactTool(t *testing.T) {
	cs, _, root := connectWith(t, Options{}, map[string]string{".wikitoolkit.json": `{"checks": {"tests": ["echo", "ok"]}}`})
	text, st, isErr := callTool(t, cs, "wiki_impact", map[string]any{"target": "attempt"})
	if isErr || !strings.Contains(text, "depth 1: 1 referrer") || !strings.Contains(text, "symbol:pay/retry.go#Charge") ||
		!strings.Contains(text, "symbol:cart/cart.go#Checkout") || !strings.Contains(text, "wiki_check tests") {
		t.Errorf("wiki_impact attempt:\n%s", text)
	}
	if st["target"] != "symbol:pay/retry.go#attempt" || st["budget_tokens"] != float64(2000) {
		t.Errorf("structured: %v", st)
	}
	text, st, isErr = callTool(t, cs, "wiki_impact", map[string]any{"target": "attempt", "depth": 1})
	if isErr || st["beyond_depth"] != float64(1) || !strings.Contains(text, "beyond depth 1: 1 more") {
		t.Errorf("depth 1: %v\n%s", st["beyond_depth"], text)
	}

	// The diff of the working tree against HEAD.
	walktest.Git(t, root, "init", "-q")
	walktest.Git(t, root, "add", ".")
	walktest.Git(t, root, "commit", "-q", "-m", "init")
	src, err := os.ReadFile(filepath.Join(root, "pay/retry.go"))
	if err != nil {
		t.Fatal(err)
	}
	walktest.WriteFile(t, root, "pay/retry.go", strings.Replace(string(src), "time.Sleep(p.Backoff << i)", "time.Sleep(p.Backoff << (i + 1))", 1))
	text, _, isErr = callTool(t, cs, "wiki_impact", map[string]any{})
	if isErr || !strings.Contains(text, "against HEAD: 1 file, 1 definition") || !strings.Contains(text, "symbol:pay/retry.go#Charge") ||
		!strings.Contains(text, "symbol:cart/cart.go#Checkout") {
		t.Errorf("wiki_impact diff:\n%s", text)
	}
	text, _, isErr = callTool(t, cs, "wiki_impact", map[string]any{"diff_base": "HEAD"})
	if isErr || !strings.Contains(text, "symbol:pay/retry.go#Charge") {
		t.Errorf("wiki_impact diff_base HEAD:\n%s", text)
	}

	for _, args := range []map[string]any{
		{"target": "attempt", "diff_base": "HEAD"},
		{"target": "attempt", "depth": 9},
		{"diff_base": "--output=x"},
		{"target": "nosuchthing"},
		{"depth": "deep"},
	} {
		if text, _, isErr := callTool(t, cs, "wiki_impact", args); !isErr {
			t.Errorf("wiki_impact %v: no error\n%s", args, text)
		}
	}
}

// TestCheckTool: wiki_check runs configured checks only: a passing one,
// one that times out, one that prints megabytes (a bounded tail), an
// unknown name and a name carrying a shell command (nothing runs).
func TestCheckTool(t *testing.T) {
	cs, _, root := connectWith(t, Options{}, map[string]string{
		".wikitoolkit.json": `{"checks": {"tests": ["echo", "tests; rm -rf victim"], "slow": {"argv": ["sleep", "30"], "timeout_seconds": 0.3},
			"loud": ["seq", "1", "500000"], "touch": ["touch", "ran"]}}`,
		"victim": "x\n",
	})
	text, st, isErr := callTool(t, cs, "wiki_check", map[string]any{"name": "tests"})
	if isErr || st["passed"] != true || st["exit_code"] != float64(0) || !strings.Contains(text, "tests; rm -rf victim") {
		t.Errorf("tests: %v\n%s", st, text)
	}
	text, st, isErr = callTool(t, cs, "wiki_check", map[string]any{"name": "slow"})
	if isErr || st["timed_out"] != true || st["passed"] != false || !strings.Contains(text, "TIMED OUT") {
		t.Errorf("slow: %v\n%s", st, text)
	}
	text, st, isErr = callTool(t, cs, "wiki_check", map[string]any{"name": "loud"})
	if isErr || st["output_bytes"] != float64(3388895) || st["dropped_bytes"].(float64) < 3000000 || !strings.HasSuffix(text, "499999\n500000\n") ||
		!strings.Contains(text, "the first") {
		t.Errorf("loud: output_bytes %v dropped %v\n%.300s", st["output_bytes"], st["dropped_bytes"], text)
	}
	for _, name := range []string{"nope", "touch; rm -rf victim", "touch victim", ""} {
		text, _, isErr := callTool(t, cs, "wiki_check", map[string]any{"name": name})
		if !isErr || !strings.Contains(text, "loud, slow, tests, touch") {
			t.Errorf("name %q: isErr %v\n%s", name, isErr, text)
		}
	}
	if text, _, isErr := callTool(t, cs, "wiki_check", map[string]any{"name": "touch", "args": []string{"victim"}}); !isErr {
		t.Errorf("extra parameter accepted:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(root, "victim")); err != nil {
		t.Errorf("victim: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("a check ran for a refused call")
	}
}

// TestCheckToolUnconfigured: without checks wiki_check is not listed;
// allowed explicitly, it says how to configure one.
func TestCheckToolUnconfigured(t *testing.T) {
	cs, _, _ := connect(t, Options{Allow: []string{"wiki_check", "wiki_status"}})
	text, _, isErr := callTool(t, cs, "wiki_check", map[string]any{"name": "tests"})
	if !isErr || !strings.Contains(text, `{"checks": {"tests": ["go", "test", "./..."]}}`) {
		t.Errorf("unconfigured: isErr %v\n%s", isErr, text)
	}
}
