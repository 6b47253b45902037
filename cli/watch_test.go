package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpClientArgs starts `wikitoolkit mcp ARGS…` in repo and connects an SDK
// client (initialize included).
func mcpClientArgs(t *testing.T, repo string, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"mcp"}, args...)...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// watchingOf returns the "watching" field of wiki_status.
func watchingOf(t *testing.T, cs *sdk.ClientSession) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_status", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("wiki_status: %v %s", err, toolText(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var st struct {
		Watching string `json:"watching"`
	}
	json.Unmarshal(b, &st)
	if !strings.Contains(toolText(res), "watching   "+st.Watching) {
		t.Errorf("wiki_status text does not say it watches with %q:\n%s", st.Watching, toolText(res))
	}
	return st.Watching
}

// TestMCPWatchSavedFile: a running `wikitoolkit mcp` rebuilds after a file
// is saved with no tool called in between (the test watches the index's
// CURRENT file, not the server), and the first wiki_query after that
// answers with the edit.
func TestMCPWatchSavedFile(t *testing.T) {
	repo := mcpRepo(t)
	current := filepath.Join(repo, ".wikitoolkit", "CURRENT")
	before, err := os.ReadFile(current)
	if err != nil {
		t.Fatal(err)
	}
	cs := mcpClientArgs(t, repo)
	// The server's first check sets up its watches; a save before they
	// exist is found by that check's walk as well, so there is no race.
	src := "// Package pay charges cards.\npackage pay\n\n// RefundWatchCli gives money back.\nfunc RefundWatchCli(amount int) error { return nil }\n"
	if err := os.WriteFile(filepath.Join(repo, "pay", "refund.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if now, err := os.ReadFile(current); err == nil && !bytes.Equal(now, before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not rebuild the index within 30 s of a saved file (no tool was called)")
		}
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "RefundWatchCli"}})
	if err != nil || res.IsError {
		t.Fatalf("wiki_query: %v %s", err, toolText(res))
	}
	if !strings.Contains(toolText(res), "RefundWatchCli") {
		t.Errorf("the first wiki_query after the rebuild does not answer with the saved file:\n%s", toolText(res))
	}
	if w := watchingOf(t, cs); w != "fsnotify" {
		t.Errorf("wiki_status watching = %q, want fsnotify", w)
	}
}

// TestMCPNoWatch: --no-watch turns the watcher off, and wiki_status says so.
func TestMCPNoWatch(t *testing.T) {
	cs := mcpClientArgs(t, mcpRepo(t), "--no-watch")
	if w := watchingOf(t, cs); w != "off" {
		t.Errorf("wiki_status watching = %q with --no-watch, want off", w)
	}
}
