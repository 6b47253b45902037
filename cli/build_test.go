package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBuildTrackedIgnored: a tracked directory that .gitignore matches (as
// spf13/cobra's "cobra" line matches its cobra/ sources) is indexed; without
// git the build still succeeds, leaves it out, and says so with --verbose.
func TestBuildTrackedIgnored(t *testing.T) {
	dir := gitRepo(t)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("pay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Files int `json:"files"`
	}
	mustRun(t, dir, "build", "--quiet")
	runJSON(t, dir, &st, "status", "--json")
	if st.Files != 1 {
		t.Errorf("with git: %d files indexed, want 1 (pay/retry.go)", st.Files)
	}

	t.Setenv("PATH", t.TempDir()) // no git
	out := mustRun(t, dir, "build", "--verbose")
	if !strings.Contains(out, "1 removed") || !strings.Contains(out, "note: tracked files matched by ignore rules left out") {
		t.Errorf("build --verbose without git: want pay/retry.go removed and a note, got\n%s", out)
	}
	runJSON(t, dir, &st, "status", "--json")
	if st.Files != 0 {
		t.Errorf("without git: %d files indexed, want 0", st.Files)
	}
}

// TestBarTotalLater: a large tree's first build starts the bar with no
// total (-1, a spinner) and gives it once its walk is done; the spinner
// must become that bar, not draw beside it.
func TestBarTotalLater(t *testing.T) {
	var out syncBuffer
	b := &bar{e: &env{stderr: &out}, vis: true}
	b.Start(-1)
	b.Add(3)
	b.Start(10)
	b.Add(3)
	time.Sleep(300 * time.Millisecond) // the spinner's redraws come every 100 ms
	b.Finish()
	s := out.String()
	i := strings.Index(s, "(3/10)")
	if i < 0 {
		t.Fatalf("no (3/10) once the total is known:\n%q", s)
	}
	if strings.Contains(s[i:], "/-)") {
		t.Fatalf("the spinner was drawn after the total was known:\n%q", s[i:])
	}
}

// syncBuffer is a bytes.Buffer safe for the bar's drawing goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
