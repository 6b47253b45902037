package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"golang.org/x/sys/unix"
)

// TestKillDuringBuild kills real build processes with SIGKILL at random
// moments, ten times, and checks each time that status and page still
// answer from the previous index and that the next build completes. At
// least one kill must land mid-build (the build held its lock and had not
// exited), or the test proved nothing.
func TestKillDuringBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes; skipped with -short")
	}
	repo := t.TempDir()
	if _, err := synth.Write(repo, synth.Options{Files: 900, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	var first buildJSON
	start := time.Now()
	runJSON(t, repo, &first, "build", "--json", "--full")
	fullDur := time.Since(start)
	if first.Mode != "full" || first.FilesParsed == 0 {
		t.Fatalf("first build: %+v", first)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	probe := "file:README.md"
	midBuild := 0
	for round := range 10 {
		// Change some files so the build has real work, then kill it.
		for k := 0; k < 50; k++ {
			p := filepath.Join(repo, "README.md")
			if k > 0 {
				p = filepath.Join(repo, fmt.Sprintf("extra/round%d/f%d.go", round, k))
				os.MkdirAll(filepath.Dir(p), 0o755)
			}
			os.WriteFile(p, []byte(fmt.Sprintf("// Package f is round %d.\npackage f\n\nfunc F%d() int { return %d }\n", round, k, k)), 0o644)
		}
		os.WriteFile(filepath.Join(repo, "README.md"), []byte(fmt.Sprintf("# Round %d\n\ntext\n", round)), 0o644)
		var before statusJSON
		runJSON(t, repo, &before, "status", "--json")

		args := []string{"build", "--quiet"}
		if round%2 == 1 {
			args = append(args, "--full")
		}
		cmd := exec.Command(binPath, args...)
		cmd.Dir = repo
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(rng.Int64N(int64(fullDur)))
		time.Sleep(delay)
		started := buildLockHeld(filepath.Join(repo, ".wikitoolkit", "build.lock"))
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		killed := false
		if ee, ok := err.(*exec.ExitError); ok {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				killed = true
			}
		}
		if started && killed {
			midBuild++
		}
		t.Logf("round %d: killed after %v (build running: %v, killed: %v)", round, delay.Round(time.Millisecond), started, killed)

		var after statusJSON
		runJSON(t, repo, &after, "status", "--json")
		// A build killed before it replaced CURRENT leaves the old generation
		// live; one killed after (while cleaning up) leaves its own, complete.
		if after.Generation < before.Generation {
			t.Fatalf("round %d: live generation went back %d → %d", round, before.Generation, after.Generation)
		}
		var pj pageJSON
		runJSON(t, repo, &pj, "page", "--json", probe)
		if pj.ID != probe {
			t.Fatalf("round %d: page answered %q", round, pj.ID)
		}
		var res struct {
			Results []struct{ ID string } `json:"results"`
		}
		runJSON(t, repo, &res, "query", "--json", "validate order")
		if len(res.Results) == 0 {
			t.Fatalf("round %d: query answered nothing after the kill", round)
		}
		var next buildJSON
		runJSON(t, repo, &next, "build", "--json")
		var done statusJSON
		runJSON(t, repo, &done, "status", "--json")
		if done.StaleFiles != 0 {
			t.Fatalf("round %d: after the completing build %d files are stale", round, done.StaleFiles)
		}
		if n, _ := filepath.Glob(filepath.Join(repo, ".wikitoolkit", "gen", "*")); len(n) > 2 {
			t.Errorf("round %d: %d generations left behind: %v", round, len(n), n)
		}
	}
	if midBuild == 0 {
		t.Fatalf("no kill landed while a build was running: the rounds tested nothing")
	}
	t.Logf("%d of 10 kills landed mid-build", midBuild)
}

// buildLockHeld reports whether a process holds the build lock at path: a
// build that has started and not finished.
func buildLockHeld(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false // the build has not created its index folder yet
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return true
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}
