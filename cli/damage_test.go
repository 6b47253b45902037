package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// liveGen returns the largest segment folder of the generation CURRENT
// names (the damages below hit a Badger database).
func liveGen(t *testing.T, repo string) string {
	t.Helper()
	idx := filepath.Join(repo, ".wikitoolkit")
	best, size := "", int64(-1)
	for _, id := range graphtest.LiveSegments(t, idx) {
		sd := filepath.Join(idx, "seg", fmt.Sprintf("%06d", id))
		ssts, _ := filepath.Glob(filepath.Join(sd, "*.sst"))
		for _, p := range ssts {
			if fi, err := os.Stat(p); err == nil && fi.Size() > size {
				best, size = sd, fi.Size()
			}
		}
	}
	if best == "" {
		t.Fatalf("the live generation of %s has no segment with a table", idx)
	}
	return best
}

// largestTable returns the largest .sst of a generation folder.
func largestTable(t *testing.T, gd string) string {
	t.Helper()
	ssts, _ := filepath.Glob(filepath.Join(gd, "*.sst"))
	if len(ssts) == 0 {
		t.Fatalf("no table in %s", gd)
	}
	best, size := "", int64(-1)
	for _, p := range ssts {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			best, size = p, fi.Size()
		}
	}
	return best
}

// damages are the ways an index gets damaged on disk (disk full, a copy of
// a half-written folder, a restored backup).
var damages = map[string]func(t *testing.T, gd string){
	"truncated-table": func(t *testing.T, gd string) {
		p := largestTable(t, gd)
		fi, _ := os.Stat(p)
		if err := os.Truncate(p, fi.Size()*2/3); err != nil {
			t.Fatal(err)
		}
	},
	"garbage-in-table": func(t *testing.T, gd string) {
		p := largestTable(t, gd)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := 200; i < 800 && i < len(b); i++ {
			b[i] ^= 0x5a // every byte changes; the size does not
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	},
	"missing-value-log": func(t *testing.T, gd string) {
		vlogs, _ := filepath.Glob(filepath.Join(gd, "*.vlog"))
		if len(vlogs) == 0 {
			t.Fatalf("no value log in %s", gd)
		}
		for _, p := range vlogs {
			os.Remove(p)
		}
	},
	"deleted-segment": func(t *testing.T, gd string) {
		if err := os.RemoveAll(gd); err != nil {
			t.Fatal(err)
		}
	},
	"deleted-generation": func(t *testing.T, gd string) {
		idx := filepath.Dir(filepath.Dir(gd))
		b, err := os.ReadFile(filepath.Join(idx, "CURRENT"))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err := os.RemoveAll(filepath.Join(idx, "gen", fmt.Sprintf("%06d", n))); err != nil {
			t.Fatal(err)
		}
	},
}

func noCrash(t *testing.T, what, stderr string) {
	t.Helper()
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("%s crashed:\n%s", what, stderr)
	}
}

// TestDamagedIndex damages a built index in each way and runs the real
// binary: readers say the index is damaged and exit 1, the hook exits 0
// without blocking, and an incremental build rebuilds in full by itself.
func TestDamagedIndex(t *testing.T) {
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			repo := mcpRepo(t)
			damage(t, liveGen(t, repo))
			for _, args := range [][]string{
				{"query", "charge card"},
				{"status"},
				{"status", "--json"},
				{"page", "symbol:pay/retry.go#Charge"},
				{"related", "symbol:pay/retry.go#Charge"},
				{"notes"},
			} {
				out, errs, code := run(t, repo, args...)
				noCrash(t, strings.Join(args, " "), errs)
				if code != 1 || !strings.HasPrefix(errs, "wikitoolkit: the index is damaged (") ||
					!strings.Contains(errs, "run 'wikitoolkit build'") || strings.Count(errs, "\n") != 1 {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and one line saying the index is damaged", args, code, out, errs)
				}
			}
			// The hook never blocks the agent's tool (exit 2 would).
			ev := `{"hook_event_name":"PreToolUse","tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"Charge"}}`
			out, errs, code := runStdin(t, repo, ev, "hook", "--debug", "--budget", "1m", "claude")
			noCrash(t, "hook", errs)
			if code != 0 || !strings.Contains(errs, "damaged") {
				t.Errorf("hook: exit %d, stderr %q; want exit 0 and the damage reported under --debug", code, errs)
			}
			if out != "" && !json.Valid([]byte(out)) {
				t.Errorf("hook output is not JSON: %q", out)
			}
			// build (incremental by default) notices and rebuilds in full.
			out, errs, code = run(t, repo, "build")
			noCrash(t, "build", errs)
			if code != 0 || !strings.Contains(out, "could not be read") || !strings.Contains(out, "rebuilt it in full") ||
				!strings.Contains(out, "full build") {
				t.Fatalf("build: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
			}
			out, errs, code = run(t, repo, "query", "charge card")
			if code != 0 || !strings.Contains(out, "symbol:pay/retry.go#Charge") {
				t.Errorf("query after the rebuild: exit %d\n%s%s", code, out, errs)
			}
			if gens, _ := os.ReadDir(filepath.Join(repo, ".wikitoolkit", "gen")); len(gens) != 1 {
				t.Errorf("the damaged generation was not removed: %d generations", len(gens))
			}
		})
	}
}

// runStdin runs the binary with stdin.
func runStdin(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	cmd.Stdin = strings.NewReader(stdin)
	return runCmd(t, cmd)
}

// TestHookExitsZero: a hook that exits 2 blocks the agent's tool call, so
// every path exits 0; a Bash command that is not a search does not open
// the index.
func TestHookExitsZero(t *testing.T) {
	repo := mcpRepo(t)
	damages["garbage-in-table"](t, liveGen(t, repo))
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"hook", "--help"}, ""},
		{[]string{"hook"}, ""},
		{[]string{"hook", "codex"}, ""},
		{[]string{"hook", "--no-such-flag", "claude"}, ""},
		{[]string{"hook", "claude"}, "not json"},
		{[]string{"hook", "claude"}, `{"tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"Charge"}}`},
		{[]string{"hook", "claude"}, `{"tool_name":"Bash","cwd":"` + repo + `","tool_input":{"command":"rg -n Checkout"}}`},
	} {
		out, errs, code := runStdin(t, repo, c.stdin, c.args...)
		noCrash(t, strings.Join(c.args, " "), errs)
		if code != 0 {
			t.Errorf("%v <<%q: exit %d\n%s%s", c.args, c.stdin, code, out, errs)
		}
	}
	if out, _, _ := runStdin(t, repo, "", "hook", "--help"); !strings.Contains(out, "Usage: wikitoolkit hook") {
		t.Errorf("hook --help: %q", out)
	}
	// Internal errors reach stderr only with --debug.
	ev := `{"tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"Charge"}}`
	if _, errs, _ := runStdin(t, repo, ev, "hook", "--budget", "1m", "claude"); errs != "" {
		t.Errorf("hook without --debug wrote to stderr: %q", errs)
	}
	for _, cmd := range []string{"ls -la", "go test ./...", "git status", "git log --oneline | head"} {
		ev := `{"tool_name":"Bash","cwd":"` + repo + `","tool_input":{"command":"` + cmd + `"}}`
		out, errs, code := runStdin(t, repo, ev, "hook", "--debug", "claude")
		if code != 0 || out != "" || !strings.Contains(errs, "not a search; the index was not opened") || strings.Contains(errs, "damaged") {
			t.Errorf("hook on Bash %q: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
}

// TestReadOnlyIndex runs the binary as nobody on an index it can read but
// not write: reads work, writes say what is wrong and what to do, and the
// advice (WIKITOOLKIT_INDEX) works.
func TestReadOnlyIndex(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the binary as the non-root user nobody (uid 65534)")
	}
	repo := mcpRepo(t)
	for d := repo; d != "/"; d = filepath.Dir(d) {
		if d == os.TempDir() {
			break
		}
		os.Chmod(d, 0o755)
	}
	if out, err := exec.Command("chmod", "-R", "a+rX,go-w", repo).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v %s", err, out)
	}
	nobody := &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	as := func(env []string, stdin string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(binPath, args...)
		cmd.Dir = repo
		cmd.SysProcAttr = nobody
		cmd.Env = append(append(os.Environ(), "WIKITOOLKIT_INDEX=", "HOME=/nonexistent"), env...)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String(), errb.String(), 0
	}
	if out, errs, code := as(nil, "", "query", "charge card"); code != 0 || !strings.Contains(out, "Charge") {
		t.Fatalf("query as nobody: exit %d\n%s%s", code, out, errs)
	}
	if _, errs, code := as(nil, "", "status"); code != 0 {
		t.Errorf("status as nobody: exit %d %s", code, errs)
	}
	for _, args := range [][]string{
		{"build"},
		{"build", "--full"},
		{"remember", "Checkout never retries."},
		{"note", "file:cart/cart.go", "see pay"},
	} {
		out, errs, code := as(nil, "", args...)
		noCrash(t, args[0], errs)
		if code != 1 || !strings.Contains(errs, "cannot write the index in ") || !strings.Contains(errs, "--index DIR") ||
			!strings.Contains(errs, "WIKITOOLKIT_INDEX") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v as nobody: exit %d, stdout %q, stderr %q; want exit 1 and what to do", args, code, out, errs)
		}
	}
	ev := `{"tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"Charge"}}`
	if out, errs, code := as(nil, ev, "hook", "--budget", "1m", "claude"); code != 0 || !strings.Contains(out, "symbol:pay/retry.go#Charge") {
		t.Errorf("hook as nobody: exit %d\n%s%s", code, out, errs)
	}
	// The advice works: an index elsewhere.
	elsewhere := filepath.Join(t.TempDir(), "index")
	os.Chmod(filepath.Dir(elsewhere), 0o777)
	if out, errs, code := as([]string{"WIKITOOLKIT_INDEX=" + elsewhere}, "", "build", "."); code != 0 {
		t.Errorf("build with WIKITOOLKIT_INDEX as nobody: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := as([]string{"WIKITOOLKIT_INDEX=" + elsewhere}, "", "remember", "Checkout never retries."); code != 0 {
		t.Errorf("remember with WIKITOOLKIT_INDEX as nobody: exit %d\n%s%s", code, out, errs)
	}
}

// TestMCPDamagedIndex damages the index under a running `wikitoolkit mcp`
// (stdio JSON-RPC): tool calls come back as isError results saying so, the
// process lives, and after its background rebuild queries work again. It
// also starts a server on an index damaged before it started.
func TestMCPDamagedIndex(t *testing.T) {
	for _, kind := range []string{"truncated-table", "garbage-in-table", "deleted-generation"} {
		t.Run(kind, func(t *testing.T) {
			repo := mcpRepo(t)
			cs := mcpClient(t, repo)
			defer cs.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a dead server fails, not hangs
			defer cancel()
			query := &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "charge card"}}
			res, err := cs.CallTool(ctx, query)
			if err != nil || res.IsError || !strings.Contains(toolText(res), "Charge") {
				t.Fatalf("query before the damage: %v %s", err, toolText(res))
			}
			// Let the freshness check the call started finish (it would
			// otherwise notice the damage first and rebuild before the
			// next call), then damage the live generation.
			time.Sleep(300 * time.Millisecond)
			damages[kind](t, liveGen(t, repo))
			for i, c := range []*sdk.CallToolParams{
				query,
				{Name: "wiki_page", Arguments: map[string]any{"page_id": "symbol:pay/retry.go#Charge"}},
				{Name: "wiki_status", Arguments: map[string]any{}},
			} {
				res, err := cs.CallTool(ctx, c)
				if err != nil {
					t.Fatalf("%s after the damage: a JSON-RPC error or a dead server: %v", c.Name, err)
				}
				if i == 0 && (!res.IsError || !strings.Contains(toolText(res), "the index is damaged (") ||
					!strings.Contains(toolText(res), "rebuilt in the background")) {
					t.Errorf("%s after the damage: isError=%v %s", c.Name, res.IsError, toolText(res))
				}
			}
			waitQueryWorks(t, cs, query)
		})
	}
	t.Run("damaged-before-start", func(t *testing.T) {
		repo := mcpRepo(t)
		damages["truncated-table"](t, liveGen(t, repo))
		cs := mcpClient(t, repo)
		defer cs.Close()
		query := &sdk.CallToolParams{Name: "wiki_query", Arguments: map[string]any{"question": "charge card"}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := cs.CallTool(ctx, query)
		if err != nil || !res.IsError || !strings.Contains(toolText(res), "the index is damaged (") {
			t.Fatalf("first call on a damaged index: %v %v %s", err, res != nil && res.IsError, toolText(res))
		}
		waitQueryWorks(t, cs, query)
	})
}

// waitQueryWorks calls query until the server's background rebuild is live.
func waitQueryWorks(t *testing.T, cs *sdk.ClientSession, query *sdk.CallToolParams) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(10*time.Second))
	defer cancel()
	for {
		res, err := cs.CallTool(ctx, query)
		if err != nil {
			t.Fatalf("query while rebuilding: %v", err)
		}
		if !res.IsError && strings.Contains(toolText(res), "symbol:pay/retry.go#Charge") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queries still fail a minute after the damage: %s", toolText(res))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
