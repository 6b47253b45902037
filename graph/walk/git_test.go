package graph

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitInit makes root a git repository holding files, with tracked added to
// its index (git add -f, so in spite of the ignore rules). It skips the test
// when git is not installed.
func gitInit(t *testing.T, root string, files map[string]string, tracked ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	writeTree(t, root, files)
	for _, args := range [][]string{{"init", "-q"}, append([]string{"add", "-f", "--"}, tracked...)} {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// trackedIgnoredRepo is a repository whose ignore rules match tracked files:
// a directory named like the binary built from it (as in spf13/cobra), a
// build directory, a log file. Each also holds untracked files.
var trackedIgnoredRepo = map[string]string{
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

var trackedIgnoredFiles = []string{".gitignore", "main.go", "cobra/cmd/root.go", "cobra/README.md", "build/gen/tables.go",
	"build/vendor/v.go", "build/big.txt", "keep.log.txt", "pkg/.gitignore", "pkg/a.go", "pkg/sub/c.go"}

// TestWalkTrackedIgnored checks that tracked files are listed whatever the
// ignore rules say, that untracked ignored ones are not, and that the
// tracked ones still go through Walk's own rules.
func TestWalkTrackedIgnored(t *testing.T) {
	root := t.TempDir()
	gitInit(t, root, trackedIgnoredRepo, trackedIgnoredFiles...)
	res := mustWalk(t, root, WalkOptions{MaxFileBytes: 20})
	want := []string{"build/gen/tables.go", "cobra/README.md", "cobra/cmd/root.go", "keep.log.txt", "main.go", "pkg/a.go", "pkg/sub/c.go"}
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("files:\n got %q\nwant %q", got, want)
	}
	wantSkips := map[string]string{"build/vendor": "vendored directory", "build/big.txt": "too large (30 bytes > limit 20)"}
	if got := skipMap(res); !maps(got, wantSkips) {
		t.Errorf("skips: got %v, want %v", got, wantSkips)
	}
	if res.TrackedErr != nil {
		t.Errorf("TrackedErr: %v", res.TrackedErr)
	}
	// Directories are counted once: ., build, build/gen, cobra, cobra/cmd,
	// pkg, pkg/sub.
	if res.Dirs != 7 {
		t.Errorf("Dirs = %d, want 7", res.Dirs)
	}

	// .wikitoolkitignore is the user's choice for the index: it still
	// excludes tracked files.
	writeTree(t, root, map[string]string{".wikitoolkitignore": "cobra/cmd/\nkeep.log.txt\n"})
	res = mustWalk(t, root, WalkOptions{MaxFileBytes: 20})
	want = []string{"build/gen/tables.go", "cobra/README.md", "main.go", "pkg/a.go", "pkg/sub/c.go"}
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("with .wikitoolkitignore, files:\n got %q\nwant %q", got, want)
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestWalkTrackedIgnoredSubdir walks a subdirectory of a work tree: git
// answers with paths relative to it.
func TestWalkTrackedIgnoredSubdir(t *testing.T) {
	root := t.TempDir()
	gitInit(t, root, map[string]string{
		"sub/.gitignore": "out/\n", "sub/out/gen.go": "", "sub/out/junk.go": "", "sub/a.go": "", "out/x.go": "",
	}, "sub/out/gen.go", "out/x.go")
	res := mustWalk(t, filepath.Join(root, "sub"), WalkOptions{})
	if got, want := filePaths(res), []string{"a.go", "out/gen.go"}; !slices.Equal(got, want) {
		t.Errorf("files: got %q, want %q", got, want)
	}
}

// TestWalkTrackedIgnoredSymlinks checks tracked symlinks that ignore rules
// match, and a directory symlink to a tracked ignored directory, which is
// reported as an alias of the real directory.
func TestWalkTrackedIgnoredSymlinks(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".gitignore": "build/\n*.lnk.go\nlinkdir\n", "build/b.go": "", "real/r.go": ""})
	for name, target := range map[string]string{"r.lnk.go": "real/r.go", "linkdir": "real", "view": "build"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	gitInit(t, root, nil, "build/b.go", "r.lnk.go", "linkdir", "view")
	res := mustWalk(t, root, WalkOptions{})
	if got, want := filePaths(res), []string{"build/b.go", "r.lnk.go", "real/r.go"}; !slices.Equal(got, want) {
		t.Errorf("files: got %q, want %q", got, want)
	}
	wantSkips := map[string]string{
		"linkdir": "symlink to a directory already walked (real)",
		"view":    "symlink to a directory already walked (build)",
	}
	if got := skipMap(res); !maps(got, wantSkips) {
		t.Errorf("skips: got %v, want %v", got, wantSkips)
	}
}

// TestWalkWithoutGit checks that when git fails or is not installed, or
// outside a work tree, ignored paths stay ignored and the walk and the build
// succeed.
func TestWalkWithoutGit(t *testing.T) {
	root := t.TempDir()
	gitInit(t, root, trackedIgnoredRepo, trackedIgnoredFiles...)
	plain := t.TempDir()
	writeTree(t, plain, trackedIgnoredRepo)
	want := []string{"main.go"}

	// A .git file that points nowhere: git fails.
	broken := t.TempDir()
	writeTree(t, broken, trackedIgnoredRepo)
	writeTree(t, broken, map[string]string{".git": "gitdir: " + filepath.Join(plain, "missing") + "\n"})
	res := mustWalk(t, broken, WalkOptions{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("with a broken .git, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr == nil {
		t.Errorf("with a broken .git, TrackedErr = nil, want git's error")
	}
	t.Logf("with a broken .git: %v", res.TrackedErr)

	t.Setenv("PATH", t.TempDir()) // no git
	res = mustWalk(t, root, WalkOptions{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("without git, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr == nil || !strings.Contains(res.TrackedErr.Error(), "git") {
		t.Errorf("without git, TrackedErr = %v, want an error naming git", res.TrackedErr)
	}
	res = mustWalk(t, plain, WalkOptions{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("outside a work tree, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr != nil {
		t.Errorf("outside a work tree, git was run: %v", res.TrackedErr)
	}

	info, err := Build(context.Background(), BuildOptions{Root: root})
	if err != nil {
		t.Fatalf("build without git: %v", err)
	}
	if info.Files != 1 || len(info.Warnings) != 1 || !strings.Contains(info.Warnings[0], "tracked files") {
		t.Errorf("build without git: %d files, warnings %q; want 1 file and a warning", info.Files, info.Warnings)
	}
}

// TestBuildTrackedIgnored checks that the builder indexes tracked files that
// ignore rules match, and that a rebuild finds nothing changed.
func TestBuildTrackedIgnored(t *testing.T) {
	root := t.TempDir()
	gitInit(t, root, trackedIgnoredRepo, trackedIgnoredFiles...)
	info := build(t, root, false)
	if info.Files != 8 || len(info.Warnings) != 0 {
		t.Errorf("build: %d files, warnings %q; want 8 files (the Go ones, cobra/README.md and the tracked .txt files), none", info.Files, info.Warnings)
	}
	s := open(t, root)
	for _, id := range []string{"file:cobra/cmd/root.go", "file:build/gen/tables.go", "file:pkg/sub/c.go"} {
		if _, err := s.Page(id); err != nil {
			t.Errorf("page %s: %v", id, err)
		}
	}
	for _, id := range []string{"file:cobra/cmd/untracked.go", "file:build/out.go", "file:pkg/b.go"} {
		if _, err := s.Page(id); err == nil {
			t.Errorf("page %s exists; the file is untracked and ignored", id)
		}
	}
	s.Close()
	again := build(t, root, false)
	if again.FilesParsed != 0 || again.FilesRemoved != 0 || again.FilesUnchanged != info.FilesUnchanged+info.FilesParsed {
		t.Errorf("rebuild: %+v", again)
	}
}

// TestWalkTrackedIgnoredMany has more excluded paths than git is given as
// pathspecs, so that git lists its whole index and Walk filters it.
func TestWalkTrackedIgnoredMany(t *testing.T) {
	files := map[string]string{".gitignore": "*.log.txt\nout*/\n"}
	var tracked, want []string
	for i := range 2 * maxGitPathspecs {
		for _, p := range []string{fmt.Sprintf("d%d/%d.log.txt", i%5, i), fmt.Sprintf("out%d/x.go", i)} {
			files[p] = ""
			if i%3 == 0 {
				tracked = append(tracked, p)
				want = append(want, p)
			}
		}
		files[fmt.Sprintf("d%d/%d.go", i%5, i)] = ""
		want = append(want, fmt.Sprintf("d%d/%d.go", i%5, i))
	}
	root := t.TempDir()
	gitInit(t, root, files, tracked...)
	slices.Sort(want)
	res := mustWalk(t, root, WalkOptions{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("files: only Walk %q, only wanted %q", minus(got, want), minus(want, got))
	}
}
