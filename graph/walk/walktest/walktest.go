// Package walktest holds the test helpers that import no package of the
// project, so the tests of every layer from walk up share them: a tree
// written from a map or one file at a time, a copy of a folder of
// fixtures/, a git environment that ignores the user's configuration, a
// repository whose ignore rules match tracked files, and the golden-file
// check with its one -update flag. Helpers that build or open an index
// import graph, so they live in graph/graphtest.
package walktest

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Update is the -update flag of every test binary that imports walktest:
// with it, Golden rewrites the golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files")

// Golden compares got with testdata/name (relative to the package under
// test), or rewrites that file when the test runs with -update. A
// difference fails the test at the first line that differs.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name))
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run '%s' -update in this package to create it)", err, t.Name())
	}
	if string(want) == got {
		return
	}
	if i, w, g, ok := FirstDiff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); ok {
		t.Fatalf("%s differs from the golden file at line %d:\nwant: %s\ngot:  %s\n(review, then rerun with -update)", name, i+1, w, g)
	}
}

// FirstDiff returns the first index at which a and b differ and the two
// elements there ("" past the end of either), or ok false when they are
// equal.
func FirstDiff(a, b []string) (i int, x, y string, ok bool) {
	for i = 0; i < max(len(a), len(b)); i++ {
		x, y = "", ""
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return i, x, y, true
		}
	}
	return 0, "", "", false
}

// WriteFile writes content to root/rel, creating the directories above it.
func WriteFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// CopyFixture copies the folder fixtures/name of the repository (found by
// walking up from the package under test to go.mod) into a new temporary
// directory and returns that directory.
func CopyFixture(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod above the package under test: cannot find fixtures/%s", name)
		}
		dir = up
	}
	src := filepath.Join(dir, "fixtures", filepath.FromSlash(name))
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return root
}

// Git runs the real git binary in dir and returns its standard output. The
// user's and the system's configuration and ignore rules do not apply
// (HOME is dir), and commits have a fixed author. It skips the test when
// git is not installed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"HOME="+dir, "XDG_CONFIG_HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %v: %v\n%s%s", args, err, out.String(), errb.String())
	}
	return out.String()
}

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
		WriteFile(t, root, name, content)
	}
}

// GitInit makes root a git repository holding files, with tracked added to
// its index (git add -f, so in spite of the ignore rules). It skips the test
// when git is not installed.
func GitInit(t testing.TB, root string, files map[string]string, tracked ...string) {
	t.Helper()
	WriteTree(t, root, files)
	Git(t, root, "init", "-q")
	Git(t, root, append([]string{"add", "-f", "--"}, tracked...)...)
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
