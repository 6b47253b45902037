package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
)

// TestMCPAnswersDuringFirstBuild starts the real `wikitoolkit mcp` on an
// unindexed 300-file tree built in batches of 40 files (the test hooks
// WIKITOOLKIT_TEST_BATCH_FILES and WIKITOOLKIT_TEST_BUILD_GATE, which holds
// the build after each partial generation until a file exists): the first
// wiki_query answers from the partial generation, saying so in its first
// line and its structured content, as do `query --json` and `status --json`
// run meanwhile; once the build is let go, the answers are whole.
func TestMCPAnswersDuringFirstBuild(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	if _, err := synth.Write(repo, synth.Options{Files: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(t.TempDir(), "gate")
	env := append(os.Environ(), "WIKITOOLKIT_INDEX=", "WIKITOOLKIT_TEST_BATCH_FILES=40", "WIKITOOLKIT_TEST_BUILD_GATE="+gate)
	cmd := exec.Command(binPath, "mcp")
	cmd.Dir = repo
	cmd.Env = env
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		os.WriteFile(gate, nil, 0o644) // let a held build end
		cs.Close()
	}()
	query := func() (string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "validate order"}})
		if err != nil {
			t.Fatal(err)
		}
		text := toolText(res)
		if res.IsError {
			t.Fatalf("wiki_query failed: %s", text)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		return text, out
	}
	// The first partial generation may come before the walk of the tree
	// is done (graph's firstwalk.go): its total is not known yet (0).
	first := regexp.MustCompile(`^index being built: (\d+)(?: of (\d+))? files so far(, the rest of the tree still being listed)?; answers cover those\n`)

	text, out := query()
	m := first.FindStringSubmatch(text)
	if m == nil || (m[2] == "") != (m[3] != "") {
		t.Fatalf("first answer during the build is not flagged partial:\n%s", text)
	}
	files, _ := strconv.Atoi(m[1])
	total, _ := strconv.Atoi(m[2])
	if files == 0 || total != 0 && (files >= total || total < 300) {
		t.Fatalf("partial answer says %d of %d files", files, total)
	}
	p, _ := out["partial"].(map[string]any)
	if p == nil || p["files"] != float64(files) || p["total"] != float64(total) {
		t.Fatalf("structured answer's partial = %v, text says %d of %d", out["partial"], files, total)
	}

	// The CLI reads the same partial generation meanwhile.
	var qr struct {
		Partial *struct{ Files, Total int } `json:"partial"`
	}
	runJSONEnv(t, repo, env, &qr, "query", "--json", "validate order")
	if qr.Partial == nil || qr.Partial.Files != files || qr.Partial.Total != total {
		t.Fatalf("query --json partial = %+v, want %d of %d", qr.Partial, files, total)
	}
	var st struct {
		Partial   *struct{ Files, Total int } `json:"partial"`
		LastBuild struct{ Mode string }       `json:"last_build"`
	}
	runJSONEnv(t, repo, env, &st, "status", "--json")
	if st.Partial == nil || st.LastBuild.Mode != "partial" {
		t.Fatalf("status --json of a partial index: partial %+v, mode %q", st.Partial, st.LastBuild.Mode)
	}

	// Let the build go on: the answers become whole.
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute) // not a bound asserted: a hung build must not hang the test
	for {
		text, out = query()
		if out["partial"] == nil && !first.MatchString(text) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answers still say partial after the build was let go:\n%s", text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	st.Partial = nil
	runJSONEnv(t, repo, env, &st, "status", "--json")
	if st.Partial != nil || st.LastBuild.Mode == "partial" {
		t.Fatalf("status after the first build: partial %+v, mode %q", st.Partial, st.LastBuild.Mode)
	}
}

// runJSONEnv runs the binary in dir with env and decodes its JSON output.
func runJSONEnv(t *testing.T, dir string, env []string, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = dir
	cmd.Env = env
	stdout, stderr, code := runCmd(t, cmd)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stdout)
	}
}

// TestKillFirstBuild kills (SIGKILL) a real first build held after a
// partial generation: the partial generation answers, flagged partial, and
// the next build completes the index.
func TestKillFirstBuild(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	if _, err := synth.Write(repo, synth.Options{Files: 300, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(t.TempDir(), "gate") // never created: the build holds
	env := append(os.Environ(), "WIKITOOLKIT_INDEX=", "WIKITOOLKIT_TEST_BATCH_FILES=40", "WIKITOOLKIT_TEST_BUILD_GATE="+gate)
	cmd := exec.Command(binPath, "build", "--quiet")
	cmd.Dir = repo
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	current := filepath.Join(repo, ".wikitoolkit", "CURRENT")
	deadline := time.Now().Add(2 * time.Minute) // a deadline to fail by, not a bound asserted
	for {
		if _, err := os.Stat(current); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the first build published no partial generation")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || !ee.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("the held build was not killed: %v", err)
	}
	var qr struct {
		Results []struct{ ID string }       `json:"results"`
		Partial *struct{ Files, Total int } `json:"partial"`
	}
	runJSONEnv(t, repo, env, &qr, "query", "--json", "validate order")
	if qr.Partial == nil || qr.Partial.Files == 0 || qr.Partial.Total != 0 && qr.Partial.Files >= qr.Partial.Total || len(qr.Results) == 0 {
		t.Fatalf("after the kill: query partial %+v, %d results", qr.Partial, len(qr.Results))
	}
	var b buildJSON
	runJSON(t, repo, &b, "build", "--json") // no gate: completes
	var st struct {
		Partial   *struct{ Files, Total int } `json:"partial"`
		Files     int                         `json:"files"`
		LastBuild struct{ Mode string }       `json:"last_build"`
	}
	runJSON(t, repo, &st, "status", "--json")
	if st.Partial != nil || st.LastBuild.Mode != "full" || st.Files <= qr.Partial.Files {
		t.Fatalf("after the completing build: partial %+v, mode %q, %d files", st.Partial, st.LastBuild.Mode, st.Files)
	}
}
