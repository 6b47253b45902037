package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (rel == ".git" || rel == ".wikitoolkit") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if rel != "." {
				out[rel+"/"] = ""
			}
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func TestInstallMergeIdempotentUninstall(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, ".claude"), 0o755)
	orig := map[string]string{
		".mcp.json": "{\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"other-server\"\n    }\n  }\n}\n",
		".claude/settings.local.json": "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(go test:*)\"\n    ]\n  },\n" +
			"  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"hooks\": [\n          {\n            \"command\": \"echo hi\",\n            \"type\": \"command\"\n          }\n        ],\n        \"matcher\": \"Bash\"\n      }\n    ]\n  }\n}\n",
		"CLAUDE.md": "# Project\n\nUse tabs.\n",
		"AGENTS.md": "no trailing newline",
	}
	for p, s := range orig {
		os.WriteFile(filepath.Join(repo, p), []byte(s), 0o644)
	}
	before := readTree(t, repo)

	out, errs, code := run(t, repo, "install")
	if code != 0 {
		t.Fatalf("install: %s", errs)
	}
	t.Logf("install:\n%s", out)
	after1 := readTree(t, repo)

	var mcpJSON struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(after1[".mcp.json"]), &mcpJSON); err != nil {
		t.Fatal(err)
	}
	if mcpJSON.MCPServers["other"].Command != "other-server" || mcpJSON.MCPServers["wikitoolkit"].Command != binPath ||
		strings.Join(mcpJSON.MCPServers["wikitoolkit"].Args, " ") != "mcp" {
		t.Errorf(".mcp.json not merged:\n%s", after1[".mcp.json"])
	}
	if !strings.HasPrefix(after1[".mcp.json"], "{\n  \"mcpServers\": {\n    \"other\"") {
		t.Errorf(".mcp.json key order changed:\n%s", after1[".mcp.json"])
	}
	settings := after1[".claude/settings.local.json"]
	for _, want := range []string{`"Bash(go test:*)"`, `"mcp__wikitoolkit__wiki_query"`, `"mcp__wikitoolkit__wiki_read"`, `"echo hi"`,
		binPath + ` hook claude`, `"Grep|Glob|Bash"`, `"enabledMcpjsonServers"`} {
		if !strings.Contains(settings, want) {
			t.Errorf("settings.local.json lacks %s:\n%s", want, settings)
		}
	}
	for _, f := range []string{"CLAUDE.md", "AGENTS.md"} {
		if !strings.HasPrefix(after1[f], orig[f]) || !strings.Contains(after1[f], mdBegin) || !strings.Contains(after1[f], "wiki_query") {
			t.Errorf("%s:\n%s", f, after1[f])
		}
	}
	if !strings.Contains(after1[".vscode/mcp.json"], `"servers"`) || !strings.Contains(after1[".cursor/mcp.json"], `"mcpServers"`) {
		t.Errorf("vscode/cursor configs:\n%s\n%s", after1[".vscode/mcp.json"], after1[".cursor/mcp.json"])
	}
	if c := after1[".codex/config.toml"]; !strings.Contains(c, "[mcp_servers.wikitoolkit]") || !strings.Contains(c, `args = ["mcp"]`) {
		t.Errorf("codex config:\n%s", c)
	}

	// Idempotent.
	out, errs, code = run(t, repo, "install")
	if code != 0 || !strings.Contains(out, "nothing to change") {
		t.Errorf("second install: %d %s %s", code, out, errs)
	}
	after2 := readTree(t, repo)
	for p, s := range after1 {
		if after2[p] != s {
			t.Errorf("second install changed %s", p)
		}
	}

	// Uninstall one client, then all: back to the start, byte for byte.
	if _, errs, code = run(t, repo, "uninstall", "--client", "cursor"); code != 0 {
		t.Fatalf("uninstall cursor: %s", errs)
	}
	if _, err := os.Stat(filepath.Join(repo, ".cursor")); !os.IsNotExist(err) {
		t.Error(".cursor survived its uninstall")
	}
	if !strings.Contains(readTree(t, repo)["AGENTS.md"], mdBegin) {
		t.Error("AGENTS.md section removed while vscode and codex are still installed")
	}
	out, errs, code = run(t, repo, "uninstall")
	if code != 0 {
		t.Fatalf("uninstall: %s", errs)
	}
	t.Logf("uninstall:\n%s", out)
	final := readTree(t, repo)
	for p, s := range before {
		if final[p] != s {
			t.Errorf("%s after uninstall:\n%q\nwant\n%q", p, final[p], s)
		}
	}
	for p := range final {
		if _, ok := before[p]; !ok {
			t.Errorf("uninstall left %s", p)
		}
	}
}

func TestInstallFreshRepoAndBadJSON(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	if _, errs, code := run(t, repo, "install", "--client", "claude"); code != 0 {
		t.Fatalf("install: %s", errs)
	}
	tree := readTree(t, repo)
	for _, f := range []string{".mcp.json", ".claude/settings.local.json", "CLAUDE.md"} {
		if tree[f] == "" {
			t.Errorf("install did not write %s", f)
		}
	}
	if _, ok := tree["AGENTS.md"]; ok {
		t.Error("claude-only install wrote AGENTS.md")
	}
	if _, errs, code := run(t, repo, "uninstall", "--client", "claude"); code != 0 {
		t.Fatalf("uninstall: %s", errs)
	}
	if tree := readTree(t, repo); len(tree) != 0 {
		t.Errorf("uninstall left %v", tree)
	}
	os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte("{ // comment\n}"), 0o644)
	_, errs, code := run(t, repo, "install", "--client", "claude")
	if code != 1 || !strings.Contains(errs, "cannot edit") {
		t.Errorf("bad JSON: exit %d, %s", code, errs)
	}
	if _, _, code := run(t, repo, "install", "--client", "emacs"); code != 2 {
		t.Errorf("unknown client: exit %d, want 2", code)
	}
}
