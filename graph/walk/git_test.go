package walk

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWalkTrackedIgnored checks that tracked files are listed whatever the
// ignore rules say, that untracked ignored ones are not, and that the
// tracked ones still go through Walk's own rules.
func TestWalkTrackedIgnored(t *testing.T) {
	root := t.TempDir()
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	res := mustWalk(t, root, Options{MaxFileBytes: 20})
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
	walktest.WriteTree(t, root, map[string]string{".wikitoolkitignore": "cobra/cmd/\nkeep.log.txt\n"})
	res = mustWalk(t, root, Options{MaxFileBytes: 20})
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
	walktest.GitInit(t, root, map[string]string{
		"sub/.gitignore": "out/\n", "sub/out/gen.go": "", "sub/out/junk.go": "", "sub/a.go": "", "out/x.go": "",
	}, "sub/out/gen.go", "out/x.go")
	res := mustWalk(t, filepath.Join(root, "sub"), Options{})
	if got, want := filePaths(res), []string{"a.go", "out/gen.go"}; !slices.Equal(got, want) {
		t.Errorf("files: got %q, want %q", got, want)
	}
}

// TestWalkTrackedIgnoredSymlinks checks tracked symlinks that ignore rules
// match, and a directory symlink to a tracked ignored directory, which is
// reported as an alias of the real directory.
func TestWalkTrackedIgnoredSymlinks(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{".gitignore": "build/\n*.lnk.go\nlinkdir\n", "build/b.go": "", "real/r.go": ""})
	for name, target := range map[string]string{"r.lnk.go": "real/r.go", "linkdir": "real", "view": "build"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	walktest.GitInit(t, root, nil, "build/b.go", "r.lnk.go", "linkdir", "view")
	res := mustWalk(t, root, Options{})
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
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	plain := t.TempDir()
	walktest.WriteTree(t, plain, walktest.TrackedIgnoredRepo)
	want := []string{"main.go"}

	// A .git file that points nowhere: git fails.
	broken := t.TempDir()
	walktest.WriteTree(t, broken, walktest.TrackedIgnoredRepo)
	walktest.WriteTree(t, broken, map[string]string{".git": "gitdir: " + filepath.Join(plain, "missing") + "\n"})
	res := mustWalk(t, broken, Options{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("with a broken .git, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr == nil {
		t.Errorf("with a broken .git, TrackedErr = nil, want git's error")
	}
	t.Logf("with a broken .git: %v", res.TrackedErr)

	t.Setenv("PATH", t.TempDir()) // no git
	res = mustWalk(t, root, Options{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("without git, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr == nil || !strings.Contains(res.TrackedErr.Error(), "git") {
		t.Errorf("without git, TrackedErr = %v, want an error naming git", res.TrackedErr)
	}
	res = mustWalk(t, plain, Options{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("outside a work tree, files:\n got %q\nwant %q", got, want)
	}
	if res.TrackedErr != nil {
		t.Errorf("outside a work tree, git was run: %v", res.TrackedErr)
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
	walktest.GitInit(t, root, files, tracked...)
	slices.Sort(want)
	res := mustWalk(t, root, Options{})
	if got := filePaths(res); !slices.Equal(got, want) {
		t.Errorf("files: only Walk %q, only wanted %q", minus(got, want), minus(want, got))
	}
}

// TestWalkPathsBelowGitIgnored: a path below a directory git ignore rules
// exclude is walked alone when git tracks nothing at or below it (it is
// Unwalked, ignored), and left to a walk of the whole tree (ErrWalkAll)
// when git tracks a file there; a tracked ignored file is listed.
func TestWalkPathsBelowGitIgnored(t *testing.T) {
	root := t.TempDir()
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	opt := Options{Detect: testDetect}
	res, err := WalkPaths(context.Background(), root, opt, []string{"build/out.go", "cobra/new/x.go", "debug.log.txt", "keep.log.txt"})
	if err != nil {
		t.Fatalf("WalkPaths of untracked paths below ignored directories: %v", err)
	}
	got := map[string]string{}
	for _, s := range res.Unwalked {
		got[s.Path] = s.Reason
	}
	want := map[string]string{"build/out.go": "below build: " + ReasonIgnored, "cobra/new/x.go": "below cobra: " + ReasonIgnored, "debug.log.txt": ReasonIgnored}
	if !maps(got, want) {
		t.Errorf("Unwalked = %v, want %v", got, want)
	}
	if got := filePaths(res); !slices.Equal(got, []string{"keep.log.txt"}) {
		t.Errorf("files = %q, want the tracked keep.log.txt", got)
	}
	for _, p := range []string{"cobra/cmd/root.go", "build/gen"} {
		if _, err := WalkPaths(context.Background(), root, opt, []string{p}); !errors.Is(err, ErrWalkAll) {
			t.Errorf("WalkPaths(%s), tracked below an ignored directory: %v, want ErrWalkAll", p, err)
		}
	}
}
