package walk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// checkPrefix runs Prefix on root for every min from 0 to past the tree's
// files, and checks each against Walk's list: the files before the bound,
// exactly, at least min of them unless a link or git bounds the prefix,
// and the whole list when Prefix says it read the whole tree. It returns
// how many prefixes stopped short of min (bounded by a link or git).
func checkPrefix(t *testing.T, root string, opt Options) (short int) {
	t.Helper()
	if opt.Detect == nil {
		opt.Detect = testDetect
	}
	all := mustWalk(t, root, opt).Files
	for min := 0; min <= len(all)+1; min++ {
		files, bound, complete, err := Prefix(context.Background(), root, opt, min)
		if err != nil {
			t.Fatalf("Prefix(min %d): %v", min, err)
		}
		var want []File
		for _, f := range all {
			if complete || f.Path < bound {
				want = append(want, f)
			}
		}
		if !slices.Equal(files, want) {
			t.Fatalf("Prefix(min %d): bound %q, complete %v:\n got %v\nwant %v", min, bound, complete, paths(files), paths(want))
		}
		if complete && bound != "" {
			t.Fatalf("Prefix(min %d): complete with bound %q", min, bound)
		}
		if len(files) < min && !complete {
			short++
		}
	}
	return short
}

func paths(fs []File) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Path
	}
	return out
}

// TestPrefix checks Prefix against Walk on trees whose names sort across
// the directory separator ("a.go" < "a/" < "a-b/" would be wrong: '-' and
// '.' sort before '/'), with ignore files, excluded directories and
// symbolic links.
func TestPrefix(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{
		"a.go": "", "a/x.go": "", "a/y/z.go": "", "a-b/c.go": "", "a.b/d.go": "", "a0.go": "",
		"b/.gitignore": "*.py\n!keep.py\n", "b/skip.py": "", "b/keep.py": "", "b/n.go": "",
		"c/vendor/v.go": "", "c/w.go": "", "d/e/f/g.go": "", "d/e.go": "", "z.go": "",
		".wikitoolkitignore": "d/e/\n",
	})
	checkPrefix(t, root, Options{})
	// A directory symlink bounds the prefix: Walk follows it after the
	// tree, or not. bb → d/e, which .wikitoolkitignore keeps out of the
	// tree: Walk lists its files as bb/f/g.go.
	if err := os.Symlink("d/e", filepath.Join(root, "bb")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a/x.go", filepath.Join(root, "c/link.go")); err != nil {
		t.Fatal(err)
	}
	if short := checkPrefix(t, root, Options{}); short == 0 {
		t.Errorf("the symlink bb → d/e bounded no prefix")
	}
	if !slices.Contains(paths(mustWalk(t, root, Options{Detect: testDetect}).Files), "bb/f/g.go") {
		t.Errorf("Walk does not list bb/f/g.go: the link tests nothing")
	}
}

// TestPrefixRandom checks Prefix against Walk on random trees with
// random ignore files, in a git repository tracking some ignored files
// (asked of git as Walk asks) and in a plain folder.
func TestPrefixRandom(t *testing.T) {
	for seed := range 6 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		files := randomTree(r)
		t.Run(fmt.Sprintf("plain%d", seed), func(t *testing.T) {
			root := t.TempDir()
			walktest.WriteTree(t, root, files)
			checkPrefix(t, root, Options{ExcludeDirs: []string{"dd"}, Detect: func(string) string { return "x" }})
		})
		t.Run(fmt.Sprintf("git%d", seed), func(t *testing.T) {
			root := t.TempDir()
			var tracked []string
			for p := range files {
				if r.IntN(3) == 0 {
					tracked = append(tracked, p)
				}
			}
			slices.Sort(tracked)
			walktest.GitInit(t, root, files, tracked...)
			checkPrefix(t, root, Options{Detect: func(string) string { return "x" }})
		})
	}
}

// TestPrefixTrackedIgnored: the tracked files below ignored paths come in
// the prefix as in Walk; without git, the ignored paths bound it.
func TestPrefixTrackedIgnored(t *testing.T) {
	root := t.TempDir()
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	checkPrefix(t, root, Options{MaxFileBytes: 20})
	files, _, _, err := Prefix(context.Background(), root, Options{Detect: testDetect, MaxFileBytes: 20}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(files, func(f File) bool { return strings.HasPrefix(f.Path, "cobra/") }) {
		t.Errorf("the tracked files of the ignored cobra/ are not in the prefix: %v", paths(files))
	}
	t.Setenv("PATH", t.TempDir()) // no git
	if short := checkPrefix(t, root, Options{MaxFileBytes: 20}); short == 0 {
		t.Errorf("without git, the ignored paths bounded no prefix")
	}
}

// TestWalkHold: a walk calls Options.Hold before each directory it reads
// below the root, and reads none while Hold blocks.
func TestWalkHold(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a/b/c.go": "", "a/d.go": "", "e/f.go": "", "g.go": ""})
	var calls atomic.Int64
	release := make(chan struct{})
	var listed atomic.Int64
	done := make(chan *Result)
	go func() {
		done <- mustWalk(t, root, Options{Listed: &listed, Hold: func() { calls.Add(1); <-release }})
	}()
	time.Sleep(50 * time.Millisecond)
	if n := listed.Load(); n != 1 {
		t.Errorf("%d files listed while the walk was held, want the root's g.go alone", n)
	}
	close(release)
	res := <-done
	if got := calls.Load(); got != int64(res.Dirs-1) || len(res.Files) != 4 {
		t.Errorf("Hold called %d times for %d directories below the root; %d files", got, res.Dirs-1, len(res.Files))
	}
}
