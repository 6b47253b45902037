package walk

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// This file lets Walk list the tracked files that ignore rules exclude. Git
// never ignores a file that is in its index, whatever .gitignore says: the
// ".gitignore" of spf13/cobra holds "cobra" for the built binary, which also
// matches the tracked source directory cobra/, and a walker that applies the
// rules alone loses that directory (34 of cobra's 66 files indexed).
//
// During the walk of the real tree (not below followed symlinks, where git
// tracks nothing), Walk records every path that a .gitignore or
// .git/info/exclude excluded; .wikitoolkitignore exclusions are not recorded,
// as they are the user's choice for the index. Only when there are some and
// the root lies in a git work tree does Walk run git once to learn which
// tracked files lie at or below them, then reads the directories that hold
// them again, keeping only those files and the directories on their way.
// They go through every other rule of Walk (.wikitoolkitignore, excluded
// directories, size, symlinks), and the builder classifies them as usual.
// Untracked files below an excluded directory stay excluded, as in git.
//
// Without git, or when it fails, ignored paths stay ignored and
// Result.TrackedErr says why. Tracked files of nested repositories
// (submodules) are not asked for: their own index is not consulted.
//
// Cost, measured on moby (13k tracked files, a 1.7 MB index) on 2 busy
// vCPUs: starting git costs 2–3 ms, and `git ls-files -z --cached` takes
// 6–8 ms, about as long as with 1 to 30 pathspecs since git reads the whole
// index either way; with 100 pathspecs 15 ms and with 1000 117 ms, because git
// matches every index entry against every pathspec. Up to maxGitPathspecs
// paths are therefore passed as pathspecs (which keeps the output small on a
// huge repository), and beyond that git lists its whole index and Walk
// filters it.

// maxGitPathspecs is the most excluded paths passed to git as pathspecs; see
// above for the measurements behind it.
const maxGitPathspecs = 32

// gitTimeout bounds the git command: `git ls-files` of a million-file index
// takes about a second, and a hung git must not hang every build.
const gitTimeout = 10 * time.Second

// ignoredPath is a path that a git ignore rule excluded from the walk.
type ignoredPath struct {
	rel    string  // repo-relative path
	parent dirTask // the directory holding it, to read again
}

// inGitWorkTree reports whether dir (absolute, clean) or one of its
// ancestors holds a ".git" directory or file. It costs one stat per level.
func inGitWorkTree(dir string) bool {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// walkTracked walks the tracked files at or below the paths that ignore
// rules excluded from the real tree, and stops recording such paths. A git
// failure is recorded in w.res.TrackedErr; only ctx's error is returned.
func (w *walker) walkTracked(ctx context.Context) error {
	excluded := w.gitIgnored
	w.gitIgnored, w.collect = nil, false
	if len(excluded) == 0 {
		return nil
	}
	var specs []string
	if len(excluded) <= maxGitPathspecs {
		specs = make([]string, len(excluded))
		for i, e := range excluded {
			specs[i] = e.rel
		}
	}
	w.askedGit.Store(true)
	tracked, err := gitTracked(ctx, w.root, specs)
	if err := ctx.Err(); err != nil {
		return err
	}
	if err != nil {
		w.res.TrackedErr = err
		return nil
	}
	byRel := make(map[string]int, len(excluded))
	for i, e := range excluded {
		byRel[e.rel] = i
	}
	keep := make(map[string]bool)
	reread := make(map[string]bool) // real paths of the directories to read again
	for _, p := range tracked {
		// Nothing below an excluded directory was read, so at most one of
		// p and its ancestors was recorded.
		i, ok := -1, false
		for j := 0; j < len(p) && !ok; j++ {
			if p[j] == '/' {
				i, ok = byRel[p[:j]]
			}
		}
		if !ok {
			if i, ok = byRel[p]; !ok {
				continue
			}
		}
		e := excluded[i]
		for q := p; len(q) > len(e.rel) && !keep[q]; q = q[:strings.LastIndexByte(q, '/')] {
			keep[q] = true
		}
		keep[e.rel] = true
		if !reread[e.parent.abs] {
			reread[e.parent.abs] = true
			t := e.parent
			t.keep, t.reread, t.root = keep, true, false
			w.stack = append(w.stack, t)
		}
	}
	return w.drain(ctx)
}

// gitTracked returns the tracked files of the work tree that holds root,
// relative to root, that lie at or below one of the repo-relative paths
// specs, or all of them when specs is nil.
func gitTracked(ctx context.Context, root string, specs []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	// core.fsmonitor=false: reading the index would otherwise query a
	// file-system monitor, which may start a daemon or run a hook.
	args := []string{"--literal-pathspecs", "-c", "core.fsmonitor=false", "-C", root, "ls-files", "-z", "--cached"}
	if specs != nil {
		args = append(append(args, "--"), specs...)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			msg, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
			return nil, fmt.Errorf("git ls-files in %s: %w: %s", root, err, msg)
		}
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	var paths []string
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		if i > 0 {
			paths = append(paths, string(out[:i]))
		}
		out = out[min(i+1, len(out)):]
	}
	return paths, nil
}

// gitEnv is the environment of the git command: the process's, without the
// variables that would point git at another repository or index (set when
// wikitoolkit runs from a git hook) or change how pathspecs are read.
func gitEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_NAMESPACE",
			"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_OPTIONAL_LOCKS=0")
}
