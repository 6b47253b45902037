package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binPath is the real wikitoolkit binary, built once by TestMain, for the
// tests that need real processes (crash safety, concurrency, JSON contract).
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wikitoolkit-bin-")
	if err != nil {
		panic(err)
	}
	os.Chmod(dir, 0o755) // the hostile-tree test runs it as nobody
	binPath = filepath.Join(dir, "wikitoolkit")
	cmd := exec.Command("go", "build", "-o", binPath, "..")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic("build wikitoolkit: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs the real binary in dir and returns stdout, stderr and the exit code.
func run(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	return runCmd(t, cmd)
}

// runCmd runs cmd (its stdout and stderr are set here) and returns stdout,
// stderr and the exit code; a command that cannot start fails the test.
func runCmd(t *testing.T, cmd *exec.Cmd) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", cmd.Args, err)
	}
	return out.String(), errb.String(), code
}

// runJSON runs the binary, requires exit 0 and decodes stdout into v.
func runJSON(t *testing.T, dir string, v any, args ...string) {
	t.Helper()
	out, errs, code := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("wikitoolkit %v: exit %d\nstderr: %s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("wikitoolkit %v: stdout is not one JSON document: %v\n%s", args, err, out)
	}
}
