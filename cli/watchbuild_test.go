package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watchBuild is what these tests read of `build --json`.
type watchBuild struct {
	Mode         string `json:"mode"`
	FilesParsed  int    `json:"files_parsed"`
	FilesRemoved int    `json:"files_removed"`
	Watcher      string `json:"watcher"`
}

// buildIn runs `wikitoolkit build --json ARGS` in repo and returns what
// it said (a new value each time: "watcher" is left out when empty).
func buildIn(t *testing.T, repo string, args ...string) watchBuild {
	t.Helper()
	var b watchBuild
	runJSON(t, repo, &b, append([]string{"build", "--json"}, args...)...)
	return b
}

// watchingServer starts `wikitoolkit mcp` in repo (its stdin held open:
// it serves until that closes), stopped with the test, building nothing
// of its own, and waits until it vouches for its answers.
func watchingServer(t *testing.T, repo string) *exec.Cmd {
	t.Helper()
	srv := exec.Command(binPath, "mcp")
	srv.Dir = repo
	// The server builds nothing of its own: each build of the test does
	// the work the server's answer names (engine/wiki's noServerBuilds).
	srv.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=", "WIKITOOLKIT_TEST_SERVER_BUILDS=off")
	stdin, err := srv.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); srv.Process.Kill(); srv.Wait() })
	untilVouched(t, repo)
	return srv
}

// untilVouched builds until the server watching repo vouches for its
// answers (its first walks done, every directory watched), and returns
// the first build that kept a token.
func untilVouched(t *testing.T, repo string) watchBuild {
	t.Helper()
	// Not too often: a build holding the lock puts off the server's check.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(400 * time.Millisecond) {
		b := buildIn(t, repo)
		if b.Watcher == "no token yet" || b.Watcher == "changes" {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never vouched for its answers within 60 s; the last build said %q", b.Watcher)
		}
	}
}

// TestBuildAsksWatchingServer edits a repository while `wikitoolkit mcp`
// (a real process) watches it, and after each edit runs `wikitoolkit
// build` at once: it must take the changed paths from the server (no
// stat of every file) and leave nothing for a build that looks at every
// file to find — a file modified, added, removed, renamed, a directory
// made with a file in it in one go (no watch yet inside it), a directory
// removed, nothing. An ignore file changed, git's index moved, the
// server gone, and a server killed (its socket left behind) make the
// build look at every file, and say why.
func TestBuildAsksWatchingServer(t *testing.T) {
	repo := mcpRepo(t)
	srv := watchingServer(t, repo)

	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// complete says a build looking at every file finds nothing left.
	complete := func(step string) {
		t.Helper()
		w := buildIn(t, repo, "--no-watcher")
		if w.FilesParsed != 0 || w.FilesRemoved != 0 || w.Watcher != "" {
			t.Fatalf("%s: a build looking at every file after it parsed %d and removed %d files (watcher %q): the server's answer missed them",
				step, w.FilesParsed, w.FilesRemoved, w.Watcher)
		}
	}
	steps := []struct {
		name            string
		do              func()
		parsed, removed int
	}{
		{"a file modified", func() {
			write("pay/retry.go", "// Package pay charges cards.\npackage pay\n\n// Charge charges.\nfunc Charge(amount int) error { return nil }\n\n// Void undoes.\nfunc Void() {}\n")
		}, 1, 0},
		{"a file added", func() { write("pay/refund.go", "package pay\n\n// Refund gives back.\nfunc Refund() {}\n") }, 1, 0},
		{"a file removed", func() { os.Remove(filepath.Join(repo, "cart", "cart.go")) }, 0, 1},
		{"a file renamed", func() {
			os.Rename(filepath.Join(repo, "pay", "refund.go"), filepath.Join(repo, "pay", "refunds.go"))
		}, 1, 1},
		{"a directory made with files in it", func() {
			write("inv/stock/stock.go", "package stock\n\n// Count counts.\nfunc Count() int { return 1 }\n")
			write("inv/stock/more.go", "package stock\n\n// More counts more.\nfunc More() int { return Count() + 1 }\n")
		}, 2, 0},
		{"a directory removed", func() { os.RemoveAll(filepath.Join(repo, "inv")) }, 0, 2},
		{"nothing", func() {}, 0, 0},
	}
	for _, st := range steps {
		st.do()
		b := buildIn(t, repo)
		if b.Watcher != "changes" {
			t.Fatalf("%s: the build did not take the server's changes: %q", st.name, b.Watcher)
		}
		if b.FilesParsed != st.parsed || b.FilesRemoved != st.removed {
			t.Fatalf("%s: parsed %d, removed %d; want %d, %d", st.name, b.FilesParsed, b.FilesRemoved, st.parsed, st.removed)
		}
		complete(st.name)
	}

	// A watched directory renamed, then a file in it edited: until the
	// server moves the watch (its check, 150 ms after the rename at the
	// soonest), that edit's event comes under the old name, so the
	// journal cannot vouch and the builds look at every file; then the
	// server vouches again.
	write("box/a.go", "package box\n\n// A is a.\nfunc A() {}\n")
	time.Sleep(time.Second) // the server watches box (its check of the new directory)
	buildIn(t, repo)
	if err := os.Rename(filepath.Join(repo, "box"), filepath.Join(repo, "crate")); err != nil {
		t.Fatal(err)
	}
	r := buildIn(t, repo)
	if r.FilesParsed != 1 || r.FilesRemoved != 1 {
		t.Fatalf("a directory renamed: parsed %d, removed %d (watcher %q)", r.FilesParsed, r.FilesRemoved, r.Watcher)
	}
	write("crate/a.go", "package box\n\n// A is a.\nfunc A() {}\n\n// B is new.\nfunc B() {}\n")
	r = buildIn(t, repo)
	if r.FilesParsed != 1 {
		t.Fatalf("a file of a renamed directory edited: parsed %d (watcher %q)", r.FilesParsed, r.Watcher)
	}
	complete("a file of a renamed directory edited")
	untilVouched(t, repo)

	// A symbolic link to a file, made in a new directory at once (no
	// watch there yet): a change of its target makes no event at the
	// link, so every build looks at the links again.
	if err := os.Mkdir(filepath.Join(repo, "links"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "pay", "retry.go"), filepath.Join(repo, "links", "retry.go")); err != nil {
		t.Fatal(err)
	}
	l := buildIn(t, repo)
	if l.Watcher != "changes" || l.FilesParsed != 1 {
		t.Fatalf("a new directory holding a symbolic link: watcher %q, parsed %d; want the server's changes and the link parsed", l.Watcher, l.FilesParsed)
	}
	write("pay/retry.go", "// Package pay charges cards.\npackage pay\n\n// Charge charges.\nfunc Charge(amount int) error { return nil }\n\n// Again is new.\nfunc Again() {}\n")
	l = buildIn(t, repo)
	if l.Watcher != "changes" || l.FilesParsed != 2 {
		t.Fatalf("the target of a symbolic link edited: watcher %q, parsed %d; want the server's changes with the file and its link parsed", l.Watcher, l.FilesParsed)
	}
	complete("a symbolic link's target edited")
	os.RemoveAll(filepath.Join(repo, "links"))
	l = buildIn(t, repo)
	if l.FilesRemoved != 1 {
		t.Fatalf("the symbolic link removed: watcher %q, removed %d", l.Watcher, l.FilesRemoved)
	}
	complete("the symbolic link removed")

	// A symbolic link to a directory: below it a change makes no event
	// where the server watches, so once a build met it (the one that
	// walks the server's paths, the link among them) builds look at every
	// file until it is gone.
	if err := os.Symlink("pay", filepath.Join(repo, "paylink")); err != nil {
		t.Fatal(err)
	}
	buildIn(t, repo)
	complete("a symbolic link to a directory made")
	write("pay/retry.go", "// Package pay charges cards.\npackage pay\n\n// Charge charges.\nfunc Charge(amount int) error { return nil }\n")
	l = buildIn(t, repo)
	if !strings.Contains(l.Watcher, "directory") {
		t.Fatalf("with a symbolic link to a directory: watcher %q, want a look at every file saying why", l.Watcher)
	}
	complete("a directory link's target edited")
	os.Remove(filepath.Join(repo, "paylink"))
	buildIn(t, repo)
	complete("the directory link removed")
	untilVouched(t, repo)

	// An ignore file: its rules reach paths no event names.
	write(".wikitoolkitignore", "pay/\n")
	b := buildIn(t, repo)
	if b.Watcher == "changes" || b.FilesRemoved != 2 {
		t.Fatalf("after an ignore file: watcher %q, removed %d; want a look at every file removing pay's 2 files", b.Watcher, b.FilesRemoved)
	}
	complete("an ignore file")
	untilVouched(t, repo)

	// git's index moved (what the walk lists below ignored folders may have).
	write(".git/index", "not really an index")
	b = buildIn(t, repo)
	if !strings.Contains(b.Watcher, "git") {
		t.Fatalf("after git's index moved: watcher %q, want a look at every file saying why", b.Watcher)
	}
	b = buildIn(t, repo)
	if b.Watcher != "changes" {
		t.Fatalf("the build after: watcher %q, want the server's changes again", b.Watcher)
	}

	// The server killed: its socket stays, no one answers.
	if err := srv.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	if _, err := os.Stat(filepath.Join(repo, ".wikitoolkit", "watch.sock")); err != nil {
		t.Fatalf("the killed server's socket: %v (the test wants it left behind)", err)
	}
	write("late/late.go", "package late\n\n// Late is late.\nfunc Late() {}\n")
	b = buildIn(t, repo)
	if b.Watcher != "" || b.FilesParsed != 1 {
		t.Fatalf("with the server killed: watcher %q, parsed %d; want a look at every file finding late/late.go", b.Watcher, b.FilesParsed)
	}
	complete("the server killed")
}

// TestHookAsksWatchingServer: with `wikitoolkit mcp` running, the hook
// takes its hits from the server (which holds the ranking index: at 100k
// files the hook could not load it within its budget), the same pages as
// it finds alone; with the server gone it answers alone.
func TestHookAsksWatchingServer(t *testing.T) {
	repo := mcpRepo(t)
	ev := `{"hook_event_name":"PreToolUse","tool_name":"Grep","cwd":"` + repo + `","tool_input":{"pattern":"func\\s+Charge"}}`
	hook := func() (ctx, debug string) {
		t.Helper()
		cmd := exec.Command(binPath, "hook", "--debug", "--budget", "1m", "claude")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
		cmd.Stdin = strings.NewReader(ev)
		out, errs, code := runCmd(t, cmd)
		if code != 0 {
			t.Fatalf("hook exit %d: %s", code, errs)
		}
		var o hookOutput
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("hook output is not JSON: %q", out)
		}
		return o.HookSpecificOutput.AdditionalContext, errs
	}
	alone, debug := hook()
	if !strings.Contains(alone, "symbol:pay/retry.go#Charge") || strings.Contains(debug, "from the server") {
		t.Fatalf("the hook alone: %s\n%s", alone, debug)
	}
	cs := mcpClientArgs(t, repo)
	if _, err := os.Stat(filepath.Join(repo, ".wikitoolkit", "watch.sock")); err != nil {
		for deadline := time.Now().Add(30 * time.Second); err != nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			_, err = os.Stat(filepath.Join(repo, ".wikitoolkit", "watch.sock"))
		}
		if err != nil {
			t.Fatalf("the server made no socket: %v", err)
		}
	}
	served, debug := hook()
	if !strings.Contains(debug, "from the server watching the index") {
		t.Fatalf("the hook did not take the server's hits: %s", debug)
	}
	if !strings.Contains(served, "symbol:pay/retry.go#Charge") {
		t.Fatalf("the server's hits lack the page the hook finds alone:\n%s\nalone:\n%s", served, alone)
	}
	cs.Close()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(repo, ".wikitoolkit", "watch.sock")); err != nil {
			break // the server left and took its socket
		}
	}
	again, debug := hook()
	if strings.Contains(debug, "from the server") || !strings.Contains(again, "symbol:pay/retry.go#Charge") {
		t.Fatalf("with the server gone: %s\n%s", again, debug)
	}
}

// TestBuildAsksWatchingServerRandom makes random changes (files written,
// removed, renamed across directories, directories made, renamed and
// removed, several at once) while `wikitoolkit mcp` watches, and after
// each burst a build that asks the server must leave nothing for a build
// that looks at every file.
func TestBuildAsksWatchingServerRandom(t *testing.T) {
	repo := mcpRepo(t)
	watchingServer(t, repo)

	seed := uint64(7) // WIKITOOLKIT_TEST_SEED=N runs another sequence
	if s := os.Getenv("WIKITOOLKIT_TEST_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	rnd := rand.New(rand.NewPCG(seed, 22))
	dirs := []string{"pay", "cart", "a", "a/b", "c/d/e"}
	files := func() []string { // the .go files now
		var out []string
		filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && (d.Name() == ".git" || d.Name() == ".wikitoolkit") {
				return filepath.SkipDir
			}
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				rel, _ := filepath.Rel(repo, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		return out
	}
	steps, took := 30, 0
	if testing.Short() {
		steps = 10
	}
	for i := range steps {
		for range 1 + rnd.IntN(3) { // a burst of one to three changes
			fs := files()
			op := rnd.IntN(10)
			t.Logf("step %d op %d files %q", i, op, fs)
			switch {
			case op <= 4 || len(fs) == 0: // write a file, new or not
				d := dirs[rnd.IntN(len(dirs))]
				p := filepath.Join(repo, d, fmt.Sprintf("f%d.go", rnd.IntN(6)))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, fmt.Appendf(nil, "package x\n\n// F%d is step %d.\nfunc F%d() int { return %d }\n", i, i, i, i), 0o644)
			case op == 5 || op == 6: // remove a file
				os.Remove(filepath.Join(repo, fs[rnd.IntN(len(fs))]))
			case op == 7: // move a file to another directory
				d := dirs[rnd.IntN(len(dirs))]
				os.MkdirAll(filepath.Join(repo, d), 0o755)
				src := fs[rnd.IntN(len(fs))]
				t.Logf("  mv %s %s/m%d.go", src, d, i)
				os.Rename(filepath.Join(repo, src), filepath.Join(repo, d, fmt.Sprintf("m%d.go", i)))
			case op == 8: // rename a directory
				from := dirs[rnd.IntN(len(dirs))]
				to := fmt.Sprintf("r%d", i)
				if os.Rename(filepath.Join(repo, from), filepath.Join(repo, to)) == nil {
					os.WriteFile(filepath.Join(repo, to, "late.go"), []byte("package x\n\nfunc Late() {}\n"), 0o644)
				}
			default: // remove a directory
				os.RemoveAll(filepath.Join(repo, dirs[rnd.IntN(len(dirs))]))
			}
		}
		b := buildIn(t, repo)
		t.Logf("  build: %+v", b)
		if b.Watcher == "changes" {
			took++
		}
		if w := buildIn(t, repo, "--no-watcher"); w.FilesParsed != 0 || w.FilesRemoved != 0 {
			t.Fatalf("step %d: after a build that asked the server (watcher %q: parsed %d, removed %d), one looking at every file parsed %d and removed %d",
				i, b.Watcher, b.FilesParsed, b.FilesRemoved, w.FilesParsed, w.FilesRemoved)
		}
		if b.Watcher != "changes" {
			untilVouched(t, repo) // a directory renamed, say: the server walks the tree and vouches again
		}
	}
	if took < steps/3 {
		t.Fatalf("only %d of %d builds took the server's changes: the test proves little", took, steps)
	}
}
