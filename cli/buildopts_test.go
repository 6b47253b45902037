package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBuildOptionsStored: the walk options a build was given are stored with
// the index and reused by later builds, the CLI's and the MCP server's own
// refresh, until a build is given new ones (real processes).
func TestBuildOptionsStored(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(repo, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", "package main\n\nfunc main() {}\n")
	write("gen1/x.go", "package gen1\n\n// GenOne is generated.\nfunc GenOne() {}\n")
	write("gen2/y.go", "package gen2\n\n// GenTwo is generated.\nfunc GenTwo() {}\n")
	indexed := func(path string) bool {
		t.Helper()
		_, _, code := run(t, repo, "page", "--json", "file:"+path)
		return code == 0
	}
	check := func(when string, want map[string]bool) {
		t.Helper()
		for p, w := range want {
			if got := indexed(p); got != w {
				t.Errorf("%s: %s indexed = %v, want %v", when, p, got, w)
			}
		}
	}
	build := func(args ...string) {
		t.Helper()
		if _, errs, code := run(t, repo, append([]string{"build", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("build %v: %s", args, errs)
		}
	}

	build("--exclude-dirs", "gen1")
	check("build --exclude-dirs gen1", map[string]bool{"gen1/x.go": false, "gen2/y.go": true})
	build()
	check("a plain build after it", map[string]bool{"gen1/x.go": false, "gen2/y.go": true})

	// The server's refresh after a change builds with the stored options.
	write("added.go", "package main\n\n// Added is new.\nfunc Added() {}\n")
	cs := mcpClient(t, repo)
	defer cs.Close()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for !indexed("added.go") {
		if time.Now().After(deadline) {
			t.Fatal("the server never rebuilt the index after a file was added")
		}
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "Added"}}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	check("the server's refresh", map[string]bool{"gen1/x.go": false, "gen2/y.go": true})
	cs.Close()

	build("--exclude-dirs", "gen2")
	check("build --exclude-dirs gen2", map[string]bool{"gen1/x.go": true, "gen2/y.go": false})
	out, _, _ := run(t, repo, "status", "--json")
	if !strings.Contains(out, `"gen2"`) {
		t.Errorf("status does not list gen2 as skipped:\n%s", out)
	}
}
