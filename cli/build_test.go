package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
