package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// changedBuild is the part of `build --json` that TestBuildChanged reads.
type changedBuild struct {
	Mode           string `json:"mode"`
	FilesParsed    int    `json:"files_parsed"`
	FilesRemoved   int    `json:"files_removed"`
	Walked         string `json:"walked"`
	ChangedLeftOut []struct {
		Path, Reason string
	} `json:"changed_left_out"`
}

// TestBuildChanged drives `build --changed` in the real binary: added,
// modified, renamed (both names, read from stdin) and deleted files are
// taken in by a walk of just those paths; paths that ignore rules or a
// vendored folder leave out are reported, not indexed; a path relative to
// the current directory counts from there; a path outside the repository
// and --changed with --full are usage errors; a file not named is left to
// the next build without --changed, which finds it.
func TestBuildChanged(t *testing.T) {
	repo := gitRepo(t)
	walktest.WriteFile(t, repo, ".gitignore", "scratch/\n*.tmp.go\n")
	mustRun(t, repo, "build", "--quiet")
	files := func() int {
		var st struct {
			Files int `json:"files"`
		}
		runJSON(t, repo, &st, "status", "--json")
		return st.Files
	}
	if n := files(); n != 1 {
		t.Fatalf("after the first build: %d files, want 1", n)
	}

	walktest.WriteFile(t, repo, "pay/refund.go", "package pay\n\n// Refund undoes a Charge.\nfunc Refund(amount int) error { return Charge(-amount) }\n")
	walktest.WriteFile(t, repo, "pay/retry.go", "package pay\n\n// Charge charges a card, once.\nfunc Charge(amount int) error { return nil }\n")
	walktest.WriteFile(t, repo, "vendor/lib/lib.go", "package lib\n\nfunc Lib() {}\n")
	walktest.WriteFile(t, repo, "scratch/s.go", "package scratch\n\nfunc S() {}\n")
	walktest.WriteFile(t, repo, "pay/draft.tmp.go", "package pay\n\nfunc Draft() {}\n")
	var b changedBuild
	runJSON(t, repo, &b, "build", "--json", "--changed", "pay/refund.go,pay/retry.go,vendor/lib/lib.go,scratch/s.go,pay/draft.tmp.go")
	if b.Mode != "incremental" || b.FilesParsed != 2 || b.Walked != "changed" {
		t.Errorf("build --changed of an added and a modified file: %+v, want incremental, 2 parsed, walked the changed paths", b)
	}
	left := map[string]string{}
	for _, s := range b.ChangedLeftOut {
		left[s.Path] = s.Reason
	}
	for p, want := range map[string]string{"vendor/lib/lib.go": "vendored", "scratch/s.go": "ignored", "pay/draft.tmp.go": "ignored"} {
		if !strings.Contains(left[p], want) {
			t.Errorf("changed_left_out[%s] = %q, want it %s (all: %+v)", p, left[p], want, b.ChangedLeftOut)
		}
	}
	if len(left) != 3 {
		t.Errorf("changed_left_out = %+v, want the 3 paths left out", b.ChangedLeftOut)
	}
	if n := files(); n != 2 {
		t.Errorf("after build --changed: %d files indexed, want 2", n)
	}
	out := mustRun(t, repo, "build", "--changed", "vendor/lib/lib.go")
	if !strings.Contains(out, "changed path left out vendor/lib/lib.go") {
		t.Errorf("build --changed of a vendored file does not say it is left out:\n%s", out)
	}

	// A rename, both names from stdin; a path relative to the directory run in.
	if err := os.Rename(filepath.Join(repo, "pay/refund.go"), filepath.Join(repo, "pay/refunds.go")); err != nil {
		t.Fatal(err)
	}
	sout, serr, code := runStdin(t, filepath.Join(repo, "pay"), "refund.go\nrefunds.go\n\n", "build", "--json", "--changed", "-")
	if code != 0 {
		t.Fatalf("build --changed - in pay/: exit %d\n%s", code, serr)
	}
	if !strings.Contains(sout, `"files_parsed": 1`) || !strings.Contains(sout, `"files_removed": 1`) {
		t.Errorf("a rename given on stdin, relative to pay/: want 1 parsed and 1 removed, got\n%s", sout)
	}
	// A deletion.
	if err := os.Remove(filepath.Join(repo, "pay/refunds.go")); err != nil {
		t.Fatal(err)
	}
	runJSON(t, repo, &b, "build", "--json", "--changed", filepath.Join(repo, "pay/refunds.go"))
	if b.FilesRemoved != 1 || b.FilesParsed != 0 {
		t.Errorf("build --changed of a deleted file (absolute path): %+v, want 1 removed", b)
	}
	if n := files(); n != 1 {
		t.Errorf("after the deletion: %d files indexed, want 1", n)
	}

	// A file not named waits for the next build without --changed.
	walktest.WriteFile(t, repo, "pay/late.go", "package pay\n\nfunc Late() {}\n")
	runJSON(t, repo, &b, "build", "--json", "--changed", "pay/retry.go")
	if b.FilesParsed != 0 || files() != 1 {
		t.Errorf("build --changed of an unchanged file took in another: %+v", b)
	}
	runJSON(t, repo, &b, "build", "--json")
	if b.FilesParsed != 1 || files() != 2 {
		t.Errorf("the build after --changed did not find the file it was not told of: %+v", b)
	}

	for _, args := range [][]string{
		{"build", "--changed", filepath.Join(filepath.Dir(repo), "elsewhere.go")},
		{"build", "--changed", "../outside.go"},
		{"build", "--full", "--changed", "pay/retry.go"},
	} {
		_, errs, code := run(t, repo, args...)
		if code != 2 || !strings.Contains(errs, "--changed") {
			t.Errorf("%v: exit %d, want 2 and an error naming --changed:\n%s", args, code, errs)
		}
		if strings.Contains(args[1], "outside") || strings.Contains(args[2], "elsewhere") {
			if !strings.Contains(errs, "outside the repository") {
				t.Errorf("%v: the error does not say the path is outside the repository:\n%s", args, errs)
			}
		}
	}
	if out, _, _ := run(t, repo, "build", "--help"); !strings.Contains(out, "--changed") {
		t.Errorf("build --help does not explain --changed:\n%s", out)
	}
}
