package cli

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// runIn runs bin in dir with PATH set to the given directories plus the
// go command's (install asks `go env GOCACHE`), so that no wikitoolkit the
// machine has on PATH decides the test.
func runIn(t *testing.T, bin, dir string, env []string, pathDirs []string, args ...string) (string, string, int) {
	t.Helper()
	if goBin, err := exec.LookPath("go"); err == nil {
		pathDirs = append(pathDirs, filepath.Dir(goBin))
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=", "PATH="+strings.Join(pathDirs, string(os.PathListSeparator)))
	cmd.Env = append(cmd.Env, env...)
	return runCmd(t, cmd)
}

// runNoPATH runs the test binary with no wikitoolkit on PATH.
func runNoPATH(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	return runIn(t, binPath, dir, nil, nil, args...)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(to), 0o755)
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
}

// mcpCommand returns the command of the wikitoolkit server in a JSON config.
func mcpCommand(t *testing.T, repo, rel, key string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]map[string]struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return cfg[key]["wikitoolkit"].Command
}

// TestInstallCommand: the configs run "wikitoolkit" when that is a
// wikitoolkit binary on PATH (this one, a copy or a link), the absolute
// path when PATH has none or another program of that name, and install
// refuses to write a build-cache path.
func TestInstallCommand(t *testing.T) {
	newRepo := func() string {
		repo := t.TempDir()
		os.Mkdir(filepath.Join(repo, ".git"), 0o755)
		return repo
	}
	linkDir, copyDir, fakeDir := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Symlink(binPath, filepath.Join(linkDir, "wikitoolkit")); err != nil {
		t.Fatal(err)
	}
	copyFile(t, binPath, filepath.Join(copyDir, "wikitoolkit"))
	os.WriteFile(filepath.Join(fakeDir, "wikitoolkit"), []byte("#!/bin/sh\necho not the real one\n"), 0o755)

	for _, c := range []struct {
		name     string
		path     []string
		want     string
		noteWant string
	}{
		{"link to this binary on PATH", []string{linkDir}, "wikitoolkit", ""},
		{"another wikitoolkit binary on PATH", []string{copyDir}, "wikitoolkit", "not this binary"},
		{"a fake wikitoolkit on PATH", []string{fakeDir}, binPath, "is not a wikitoolkit binary"},
		{"nothing on PATH", nil, binPath, "not on PATH"},
	} {
		repo := newRepo()
		out, errs, code := runIn(t, binPath, repo, nil, c.path, "install")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.name, code, errs)
			continue
		}
		for _, f := range []struct{ rel, key string }{{".mcp.json", "mcpServers"}, {".cursor/mcp.json", "mcpServers"}, {".vscode/mcp.json", "servers"}} {
			if got := mcpCommand(t, repo, f.rel, f.key); got != c.want {
				t.Errorf("%s: %s command %q, want %q", c.name, f.rel, got, c.want)
			}
		}
		tree := readTree(t, repo)
		if want := "command = " + mustQuote(c.want); !strings.Contains(tree[".codex/config.toml"], want) {
			t.Errorf("%s: codex config lacks %s:\n%s", c.name, want, tree[".codex/config.toml"])
		}
		if want := c.want + " hook claude"; !strings.Contains(tree[".claude/settings.local.json"], want) {
			t.Errorf("%s: hook is not %q:\n%s", c.name, want, tree[".claude/settings.local.json"])
		}
		if c.noteWant != "" && !strings.Contains(out, c.noteWant) || c.noteWant == "" && strings.Contains(out, "note:") {
			t.Errorf("%s: output:\n%s", c.name, out)
		}
		if !strings.Contains(out, "Pending approval") || !strings.Contains(out, "trust dialog") {
			t.Errorf("%s: output does not tell about Claude Code's approval:\n%s", c.name, out)
		}
	}
	// Only for Claude Code.
	if out, _, _ := runNoPATH(t, newRepo(), "install", "--client", "cursor"); strings.Contains(out, "Pending approval") {
		t.Errorf("cursor install talks about Claude Code:\n%s", out)
	}

	// From the build cache (`go run`): refused, nothing written, unless a
	// wikitoolkit binary is on PATH.
	cache := t.TempDir()
	for _, c := range []struct {
		name string
		bin  string
		env  []string
	}{
		{"go run temp dir", filepath.Join(t.TempDir(), "go-build1234567", "b001", "exe", "wikitoolkit"), nil},
		{"GOCACHE", filepath.Join(cache, "3f", "abcdef-d", "wikitoolkit"), []string{"GOCACHE=" + cache}},
	} {
		copyFile(t, binPath, c.bin)
		repo := newRepo()
		_, errs, code := runIn(t, c.bin, repo, c.env, nil, "install")
		if code != 1 || !strings.Contains(errs, "build cache") || !strings.Contains(errs, "go install .") || !strings.Contains(errs, "go build -o ~/bin/wikitoolkit .") {
			t.Errorf("%s: exit %d: %s", c.name, code, errs)
		}
		if tree := readTree(t, repo); len(tree) != 0 {
			t.Errorf("%s: refused install wrote %v", c.name, tree)
		}
		if _, errs, code := runIn(t, c.bin, repo, c.env, []string{linkDir}, "install", "--client", "claude"); code != 0 {
			t.Errorf("%s with wikitoolkit on PATH: exit %d: %s", c.name, code, errs)
		} else if got := mcpCommand(t, repo, ".mcp.json", "mcpServers"); got != "wikitoolkit" {
			t.Errorf("%s with wikitoolkit on PATH: command %q", c.name, got)
		}
		// Uninstall works from anywhere.
		if _, errs, code := runIn(t, c.bin, repo, c.env, nil, "uninstall", "--client", "claude"); code != 0 {
			t.Errorf("%s: uninstall: exit %d: %s", c.name, code, errs)
		}
	}
}

func mustQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

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
	walktest.WriteTree(t, repo, orig)
	before := readTree(t, repo)

	out, errs, code := runNoPATH(t, repo, "install")
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
	out, errs, code = runNoPATH(t, repo, "install")
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
	if _, errs, code := runNoPATH(t, repo, "install", "--client", "claude"); code != 0 {
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
	_, errs, code := runNoPATH(t, repo, "install", "--client", "claude")
	if code != 1 || !strings.Contains(errs, "cannot edit") {
		t.Errorf("bad JSON: exit %d, %s", code, errs)
	}
	if _, _, code := run(t, repo, "install", "--client", "emacs"); code != 2 {
		t.Errorf("unknown client: exit %d, want 2", code)
	}
}
