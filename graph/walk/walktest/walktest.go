// Package walktest holds the test helpers that the tests of walk and of
// the builder share: a tree written from a map, a git repository, and a
// repository whose ignore rules match tracked files.
package walktest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// WriteTree creates files under root; a name ending in "/" is an empty
// directory.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// GitInit makes root a git repository holding files, with tracked added to
// its index (git add -f, so in spite of the ignore rules). It skips the test
// when git is not installed.
func GitInit(t testing.TB, root string, files map[string]string, tracked ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	WriteTree(t, root, files)
	for _, args := range [][]string{{"init", "-q"}, append([]string{"add", "-f", "--"}, tracked...)} {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TrackedIgnoredRepo is a repository whose ignore rules match tracked files:
// a directory named like the binary built from it (as in spf13/cobra), a
// build directory, a log file. Each also holds untracked files.
var TrackedIgnoredRepo = map[string]string{
	".gitignore":             "cobra\nbuild/\n*.log.txt\n",
	"main.go":                "package main\n",
	"cobra/cmd/root.go":      "package cmd\n",
	"cobra/README.md":        "# cobra\n",
	"cobra/cmd/untracked.go": "package cmd\n",
	"cobra/new/x.go":         "package new\n",
	"build/gen/tables.go":    "package gen\n",
	"build/vendor/v.go":      "package v\n",
	"build/big.txt":          strings.Repeat("x", 30),
	"build/out.go":           "package build\n",
	"keep.log.txt":           "tracked\n",
	"debug.log.txt":          "untracked\n",
	"pkg/.gitignore":         "*.go\n",
	"pkg/a.go":               "package pkg\n",
	"pkg/b.go":               "package pkg\n",
	"pkg/sub/c.go":           "package sub\n",
}

// TrackedIgnoredFiles are the files of TrackedIgnoredRepo that GitInit
// should track.
var TrackedIgnoredFiles = []string{".gitignore", "main.go", "cobra/cmd/root.go", "cobra/README.md", "build/gen/tables.go",
	"build/vendor/v.go", "build/big.txt", "keep.log.txt", "pkg/.gitignore", "pkg/a.go", "pkg/sub/c.go"}
