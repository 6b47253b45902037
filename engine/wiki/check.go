package wiki

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wikitoolkit/wikitoolkit/engine"
	"github.com/wikitoolkit/wikitoolkit/graph"
)

// ProjectConfigName is the project's configuration file, at the repository
// root, written (and committed) by the team: {"checks": {NAME: ARGV, ...}}.
// Nothing in wikitoolkit writes it.
const ProjectConfigName = ".wikitoolkit.json"

// DefaultCheckTimeout bounds a check whose config names no timeout.
const DefaultCheckTimeout = 10 * time.Minute

// MaxCheckOutputBytes is how much of a check's output (stdout and stderr
// together, in the order written) is kept: the last 64 KB, where test
// failures and compiler errors are.
const MaxCheckOutputBytes = 64 << 10

// Check is one configured check: the program and its arguments (never
// given to a shell) and its timeout (0 = DefaultCheckTimeout).
type Check struct {
	Argv    []string      `json:"argv"`
	Timeout time.Duration `json:"-"`
}

// UnmarshalJSON reads a check as an argv list (["go", "test", "./..."]) or
// as {"argv": [...], "timeout_seconds": N}.
func (c *Check) UnmarshalJSON(b []byte) error {
	var argv []string
	if err := json.Unmarshal(b, &argv); err == nil {
		*c = Check{Argv: argv}
		return nil
	}
	var obj struct {
		Argv           []string `json:"argv"`
		TimeoutSeconds float64  `json:"timeout_seconds"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return errors.New(`a check is an argv list, e.g. ["go", "test", "./..."], or {"argv": [...], "timeout_seconds": N}`)
	}
	if obj.TimeoutSeconds < 0 {
		return errors.New("timeout_seconds must be positive")
	}
	*c = Check{Argv: obj.Argv, Timeout: time.Duration(obj.TimeoutSeconds * float64(time.Second))}
	return nil
}

// ProjectConfig is the content of ProjectConfigName.
type ProjectConfig struct {
	Checks map[string]Check `json:"checks"`
}

// LoadProjectConfig reads root's ProjectConfigName; a missing file is an
// empty config, a malformed one an error naming the file.
func LoadProjectConfig(root string) (ProjectConfig, error) {
	path := filepath.Join(root, ProjectConfigName)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ProjectConfig{}, nil
	}
	if err != nil {
		return ProjectConfig{}, fmt.Errorf("read %s: %w", path, err)
	}
	var cfg ProjectConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return ProjectConfig{}, fmt.Errorf(`%s: %v (want {"checks": {"tests": ["go", "test", "./..."]}})`, path, err)
	}
	return cfg, nil
}

// CheckNames returns the configured check names, sorted.
func (c ProjectConfig) CheckNames() []string {
	var names []string
	for n := range c.Checks {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// HasCheck reports whether a check called name is configured.
func (c ProjectConfig) HasCheck(name string) bool {
	_, ok := c.Checks[name]
	return ok
}

// lookupCheck returns the check called name with its argv validated, or an
// error that says what to configure; nothing runs before it succeeds.
func (c ProjectConfig) lookupCheck(root, name string) (Check, error) {
	if len(c.Checks) == 0 {
		return Check{}, fmt.Errorf(`no checks are configured; add them to %s at the repository root, e.g. {"checks": {"tests": ["go", "test", "./..."]}} (argv lists, run without a shell in the root)`,
			ProjectConfigName)
	}
	ch, ok := c.Checks[name]
	if !ok {
		return Check{}, fmt.Errorf("no check %q; the configured checks are %s (from %s)", name, strings.Join(c.CheckNames(), ", "), ProjectConfigName)
	}
	if err := validArgv(root, ch.Argv); err != nil {
		return Check{}, fmt.Errorf("check %q in %s: %v", name, ProjectConfigName, err)
	}
	return ch, nil
}

// validArgv accepts an argv whose program is a bare name (looked up on
// PATH) or a relative path with "/" that stays inside root (a script of the
// repository). An absolute program path or one that leaves the repository
// is refused: a check runs the project's own tools, and the config is
// shared with everyone who clones the repository. No element may hold NUL.
func validArgv(root string, argv []string) error {
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return errors.New("the argv list is empty or its program is empty; write e.g. [\"go\", \"test\", \"./...\"]")
	}
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return errors.New("an argument holds a NUL byte")
		}
	}
	prog := argv[0]
	if !strings.ContainsAny(prog, `/\`) {
		return nil
	}
	if filepath.IsAbs(prog) || strings.Contains(prog, `\`) {
		return fmt.Errorf("program %q: use a program name looked up on PATH (\"go\") or a path inside the repository (\"./scripts/test.sh\")", prog)
	}
	if err := graph.CheckPath(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(prog)), "./")); err != nil {
		return fmt.Errorf("program %q leaves the repository: use a path inside it or a program name on PATH", prog)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, prog))
	if err != nil {
		return fmt.Errorf("program %q: %v", prog, err)
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("repository root %s: %v", root, err)
	}
	if rel, err := filepath.Rel(rootReal, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("program %q resolves to %s, outside the repository", prog, real)
	}
	return nil
}

// CheckResult is what one check run did. Output is the tail of stdout and
// stderr together; DroppedBytes counts what was cut before it. ExitCode is
// -1 when the process was killed or could not start.
type CheckResult struct {
	Name           string   `json:"name"`
	Argv           []string `json:"argv"`
	Dir            string   `json:"dir"`
	ExitCode       int      `json:"exit_code"`
	Passed         bool     `json:"passed"`
	TimedOut       bool     `json:"timed_out,omitempty"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
	Seconds        float64  `json:"seconds"`
	Output         string   `json:"output"`
	OutputBytes    int64    `json:"output_bytes"`
	DroppedBytes   int64    `json:"dropped_bytes,omitempty"`
	Error          string   `json:"error,omitempty"`
}

// RunCheck runs the check called name from root's ProjectConfigName with
// root as its working directory: argv goes to the program as it is written
// in the config, never through a shell. An unknown name, no config or a
// refused argv is an error before anything runs. A check that fails, times
// out (its process group is killed) or cannot start is a result, not an
// error. Cancelling ctx kills the check.
func RunCheck(ctx context.Context, root, name string) (CheckResult, error) {
	cfg, err := LoadProjectConfig(root)
	if err != nil {
		return CheckResult{}, err
	}
	ch, err := cfg.lookupCheck(root, name)
	if err != nil {
		return CheckResult{}, err
	}
	timeout := ch.Timeout
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	res := CheckResult{Name: name, Argv: ch.Argv, Dir: root, ExitCode: -1, TimeoutSeconds: timeout.Seconds()}
	prog := ch.Argv[0]
	if strings.Contains(prog, "/") {
		prog = filepath.Join(root, prog)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, prog, ch.Argv[1:]...)
	cmd.Dir = root
	tail := &tailBuffer{max: MaxCheckOutputBytes}
	cmd.Stdout, cmd.Stderr = tail, tail
	cmd.Stdin = nil
	killGroup(cmd)
	// A grandchild that keeps the pipes open after the kill must not hold
	// the answer.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	res.Seconds = time.Since(start).Seconds()
	res.Output, res.OutputBytes = tail.String(), tail.total
	res.DroppedBytes = res.OutputBytes - int64(len(res.Output))
	switch {
	case errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		res.TimedOut = true
		res.Error = fmt.Sprintf("timed out after %s and was killed; raise its timeout_seconds in %s if it needs longer", timeout, ProjectConfigName)
	case ctx.Err() != nil:
		res.Error = "cancelled: " + ctx.Err().Error()
	case err == nil:
		res.ExitCode, res.Passed = 0, true
	default:
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() >= 0 {
			res.ExitCode = ee.ExitCode()
		} else {
			res.Error = err.Error()
		}
	}
	return res, nil
}

// Render writes the result: a status line, then the output tail.
func (r *CheckResult) Render(w io.Writer) {
	status := "passed"
	switch {
	case r.TimedOut:
		status = "TIMED OUT"
	case r.Error != "":
		status = "FAILED to run"
	case !r.Passed:
		status = fmt.Sprintf("FAILED (exit code %d)", r.ExitCode)
	}
	fmt.Fprintf(w, "check %s: %s in %.1fs — %s (in %s)\n", r.Name, status, r.Seconds, strings.Join(quoteArgs(r.Argv), " "), r.Dir)
	if r.Error != "" {
		fmt.Fprintf(w, "%s\n", r.Error)
	}
	if r.DroppedBytes > 0 {
		fmt.Fprintf(w, "output: %d bytes; the first %d were dropped, the last %d follow\n", r.OutputBytes, r.DroppedBytes, len(r.Output))
	}
	if r.Output != "" {
		io.WriteString(w, r.Output)
		if !strings.HasSuffix(r.Output, "\n") {
			fmt.Fprintln(w)
		}
	} else {
		fmt.Fprintln(w, "(no output)")
	}
}

// quoteArgs quotes the arguments a reader could misread (spaces, quotes,
// shell characters) so that the printed command is exactly the argv.
func quoteArgs(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\;&|<>()$`*?[]{}~#") {
			out[i] = fmt.Sprintf("%q", a)
		} else {
			out[i] = a
		}
	}
	return out
}

// tailBuffer keeps the last max bytes written to it and counts them all.
// It is safe for concurrent writes (stdout and stderr copy in two
// goroutines).
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = t.buf[:copy(t.buf, t.buf[over:])]
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// String returns the kept tail, starting at a line boundary when one is
// near (a cut line reads as garbage) and valid UTF-8.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.total > int64(len(b)) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < 4096 {
			b = b[i+1:]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// KeepTail cuts the start of r's output until it counts at most maxTokens
// (engine.CountTokens), at a line boundary when one is near, adding what
// it cut to DroppedBytes. An MCP answer keeps less than the CLI's 64 KB.
func (r *CheckResult) KeepTail(maxTokens int) {
	if engine.CountTokens(r.Output) <= maxTokens {
		return
	}
	lo, hi := 0, len(r.Output) // the least start whose tail fits
	for lo < hi {
		mid := (lo + hi) / 2
		if engine.CountTokens(r.Output[mid:]) <= maxTokens {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if i := strings.IndexByte(r.Output[lo:], '\n'); i >= 0 && i < 2048 {
		lo += i + 1
	}
	r.DroppedBytes += int64(lo)
	r.Output = strings.ToValidUTF8(r.Output[lo:], "")
}
