package wiki

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// checkRoot writes a repository root holding config as .wikitoolkit.json
// and a file named victim, which no check may remove.
func checkRoot(t *testing.T, config string) string {
	t.Helper()
	for _, prog := range []string{"sleep", "seq", "echo", "touch", "sh"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s not on PATH", prog)
		}
	}
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{ProjectConfigName: config, "victim": "still here\n"})
	return root
}

func TestCheckRuns(t *testing.T) {
	root := checkRoot(t, `{"checks": {"ok": ["echo", "hello", "tests; rm -rf victim", "$(touch pwned)"], "fail": ["sh", "-c", "echo bad >&2; exit 3"]}}`)
	ctx := context.Background()
	res, err := RunCheck(ctx, root, "ok")
	if err != nil {
		t.Fatal(err)
	}
	// The arguments reach echo as written: no shell ran them.
	if !res.Passed || res.ExitCode != 0 || res.Output != "hello tests; rm -rf victim $(touch pwned)\n" {
		t.Errorf("ok: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "victim")); err != nil {
		t.Errorf("victim removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "pwned")); err == nil {
		t.Error("an argument was run by a shell")
	}
	// ["sh", "-c", ...] runs because the config says exactly that.
	res, err = RunCheck(ctx, root, "fail")
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || res.ExitCode != 3 || res.Output != "bad\n" {
		t.Errorf("fail: %+v", res)
	}
	var b strings.Builder
	res.Render(&b)
	if !strings.Contains(b.String(), "FAILED (exit code 3)") {
		t.Errorf("render:\n%s", b.String())
	}
}

// TestCheckUnknownName: an unknown name, one that smuggles a shell command,
// and no config at all are errors before anything runs.
func TestCheckUnknownName(t *testing.T) {
	root := checkRoot(t, `{"checks": {"tests": ["touch", "ran"], "lint": ["touch", "ran"]}}`)
	for _, name := range []string{"nope", "tests; rm -rf victim", "tests extra", "tests && touch ran", ""} {
		_, err := RunCheck(context.Background(), root, name)
		if err == nil || !strings.Contains(err.Error(), "lint, tests") {
			t.Errorf("%q: %v, want an error listing lint, tests", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("a check ran for an unknown name")
	}
	if _, err := os.Stat(filepath.Join(root, "victim")); err != nil {
		t.Errorf("victim removed: %v", err)
	}
	empty := t.TempDir()
	if _, err := RunCheck(context.Background(), empty, "tests"); err == nil || !strings.Contains(err.Error(), `{"checks": {"tests"`) {
		t.Errorf("no config: %v, want how to configure one", err)
	}
	bad := checkRoot(t, `{"checks": {"tests": "go test ./..."}}`)
	if _, err := RunCheck(context.Background(), bad, "tests"); err == nil || !strings.Contains(err.Error(), "argv list") {
		t.Errorf("a command string: %v, want an argv list asked for", err)
	}
}

// TestCheckArgv: the program is a name on PATH or a path inside the
// repository; anything else is refused before it runs.
func TestCheckArgv(t *testing.T) {
	root := checkRoot(t, `{"checks": {"empty": [], "blank": ["", "x"], "abs": ["/bin/touch", "ran"], "up": ["../touch", "ran"],
		"script": ["./scripts/ok.sh", "a b"], "nul": ["echo", "a\u0000b"]}}`)
	walktest.WriteFile(t, root, "scripts/ok.sh", "#!/bin/sh\necho \"script got [$1]\"\n")
	if err := os.Chmod(filepath.Join(root, "scripts/ok.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"empty", "blank", "abs", "up", "nul"} {
		if res, err := RunCheck(context.Background(), root, name); err == nil {
			t.Errorf("%s ran: %+v", name, res)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("a refused check ran")
	}
	res, err := RunCheck(context.Background(), root, "script")
	if err != nil || !res.Passed || res.Output != "script got [a b]\n" {
		t.Errorf("script: %v %+v", err, res)
	}
}

// TestCheckTimeout: a check past its timeout is killed with its children
// and reported.
func TestCheckTimeout(t *testing.T) {
	root := checkRoot(t, `{"checks": {"slow": {"argv": ["sh", "-c", "echo started; sleep 60 & wait"], "timeout_seconds": 0.5}}}`)
	res, err := RunCheck(context.Background(), root, "slow")
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Passed || res.ExitCode != -1 || !strings.Contains(res.Error, "timed out") || res.Output != "started\n" {
		t.Errorf("slow: %+v", res)
	}
	var b strings.Builder
	res.Render(&b)
	if !strings.Contains(b.String(), "TIMED OUT") {
		t.Errorf("render:\n%s", b.String())
	}
}

// TestCheckOutputBounded: megabytes of output keep their last 64 KB, and
// the answer says how much was dropped.
func TestCheckOutputBounded(t *testing.T) {
	root := checkRoot(t, `{"checks": {"loud": ["seq", "1", "500000"]}}`)
	res, err := RunCheck(context.Background(), root, "loud")
	if err != nil {
		t.Fatal(err)
	}
	const total = 3388895 // bytes of `seq 1 500000`
	if !res.Passed || res.OutputBytes != total || len(res.Output) > MaxCheckOutputBytes || len(res.Output) < MaxCheckOutputBytes-16 {
		t.Fatalf("loud: passed %v, %d bytes, %d kept", res.Passed, res.OutputBytes, len(res.Output))
	}
	if !strings.HasSuffix(res.Output, "\n499999\n500000\n") || res.DroppedBytes != total-int64(len(res.Output)) {
		t.Errorf("tail %q…%q dropped %d", res.Output[:20], res.Output[len(res.Output)-20:], res.DroppedBytes)
	}
	// The kept tail starts at a line: its first line is a whole number,
	// followed by the next one.
	lines := strings.SplitN(res.Output, "\n", 3)
	if n, err := strconv.Atoi(lines[0]); err != nil || lines[1] != strconv.Itoa(n+1) {
		t.Errorf("first kept lines %q", lines[:2])
	}
	var b strings.Builder
	res.Render(&b)
	if !strings.Contains(b.String(), "output: 3388895 bytes; the first") {
		t.Errorf("render head:\n%.200s", b.String())
	}
	res.KeepTail(1000)
	if res.DroppedBytes != total-int64(len(res.Output)) || !strings.HasSuffix(res.Output, "500000\n") || len(res.Output) > 8000 {
		t.Errorf("KeepTail: kept %d, dropped %d", len(res.Output), res.DroppedBytes)
	}
}
