package cli

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// segKillRun is the state of TestKillDuringUpdateAndMerge.
type segKillRun struct {
	t     *testing.T
	repo  string
	index string
	goSrc []string // the tree's Go files, sorted
	rng   *rand.Rand
	n     int // counter for new names
	// newDir is the directory the last change added (repo-relative); the
	// next change removes it.
	newDir string
}

// change appends a new function to k Go files picked at random, so that
// the next build parses, resolves and writes k files, and moves a
// directory: it adds one with a documented package beside a random Go
// file and removes the one the change before added, so that the build
// also rewrites module shards (WIKITOOLKIT_MODULE_SHARD_PAGES makes them
// small).
func (r *segKillRun) change(k int) {
	r.t.Helper()
	if r.newDir != "" {
		if err := os.RemoveAll(filepath.Join(r.repo, filepath.FromSlash(r.newDir))); err != nil {
			r.t.Fatal(err)
		}
	}
	r.n++
	r.newDir = fmt.Sprintf("%s/zz_kill%d", path.Dir(r.goSrc[r.rng.IntN(len(r.goSrc))]), r.n)
	writeLaterFile(r.t, r.repo, r.newDir+"/doc.go", fmt.Sprintf("// Package zzkill%d is a directory the kill test adds.\npackage zzkill%d\n\nfunc KillDir%d() int { return %d }\n", r.n, r.n, r.n, r.n))
	for _, i := range r.rng.Perm(len(r.goSrc))[:k] {
		r.n++
		p := filepath.Join(r.repo, r.goSrc[i])
		b, err := os.ReadFile(p)
		if err != nil {
			r.t.Fatal(err)
		}
		writeLaterFile(r.t, r.repo, r.goSrc[i], fmt.Sprintf("%s\n// KillRound%d is added by the kill test.\nfunc KillRound%d() int { return %d }\n", b, r.n, r.n, r.n))
	}
}

// build runs a build to its end and returns how long it took.
func (r *segKillRun) build() (buildJSON, time.Duration) {
	r.t.Helper()
	start := time.Now()
	var b buildJSON
	runJSON(r.t, r.repo, &b, "build", "--json")
	return b, time.Since(start)
}

// moduleSegments lists the IDs of the live generation's modules segments.
func (r *segKillRun) moduleSegments() []int {
	var out []int
	for _, sg := range graphtest.LiveManifest(r.t, r.index).Segments {
		if sg.Kind == "modules" {
			out = append(out, sg.ID)
		}
	}
	return out
}

// deltas counts the live generation's file segments.
func (r *segKillRun) fileSegments() int {
	return graphtest.LiveManifest(r.t, r.index).FileSegments()
}

// kill starts a build, SIGKILLs it after delay and reports whether the
// kill landed mid-build (the build held its lock and was killed).
func (r *segKillRun) kill(delay time.Duration) bool {
	r.t.Helper()
	cmd := exec.Command(binPath, "build", "--quiet")
	cmd.Dir = r.repo
	cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=")
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	time.Sleep(delay)
	started := buildLockHeld(filepath.Join(r.index, "build.lock"))
	cmd.Process.Signal(syscall.SIGKILL)
	err := cmd.Wait()
	killed := false
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			killed = true
		}
	}
	return started && killed
}

// answers checks that status, page and query answer from the old
// generation (before) or a newer one, without an error.
func (r *segKillRun) answers(what string, before int) {
	r.t.Helper()
	var st statusJSON
	runJSON(r.t, r.repo, &st, "status", "--json")
	if st.Generation < before || st.Generation > before+1 {
		r.t.Fatalf("%s: live generation %d after the kill, want %d or %d", what, st.Generation, before, before+1)
	}
	var pj pageJSON
	runJSON(r.t, r.repo, &pj, "page", "--json", "file:README.md")
	if pj.ID != "file:README.md" {
		r.t.Fatalf("%s: page answered %q", what, pj.ID)
	}
	probe := "file:" + r.goSrc[0]
	runJSON(r.t, r.repo, &pj, "page", "--json", probe)
	if pj.ID != probe {
		r.t.Fatalf("%s: page answered %q, want %s", what, pj.ID, probe)
	}
	var res struct {
		Results []struct{ ID string } `json:"results"`
	}
	runJSON(r.t, r.repo, &res, "query", "--json", "validate order")
	if len(res.Results) == 0 {
		r.t.Fatalf("%s: query answered nothing after the kill", what)
	}
}

// complete runs the build that follows a kill and checks that it left the
// index whole: nothing stale, one generation, no temporary file, and no
// segment folder but those the live manifest names.
func (r *segKillRun) complete(what string) {
	r.t.Helper()
	r.build()
	var pj pageJSON
	runJSON(r.t, r.repo, &pj, "page", "--json", "module:"+r.newDir)
	if pj.ID != "module:"+r.newDir {
		r.t.Fatalf("%s: the new directory's page answered %q", what, pj.ID)
	}
	var st statusJSON
	runJSON(r.t, r.repo, &st, "status", "--json")
	if st.StaleFiles != 0 {
		r.t.Fatalf("%s: after the completing build %d files are stale: %v", what, st.StaleFiles, st.Stale)
	}
	live := map[string]bool{}
	for _, id := range graphtest.LiveSegments(r.t, r.index) {
		live[fmt.Sprintf("%06d", id)] = true
	}
	entries, _ := os.ReadDir(filepath.Join(r.index, "seg"))
	for _, e := range entries {
		if !live[e.Name()] {
			r.t.Errorf("%s: segment folder seg/%s left behind (live: %v)", what, e.Name(), graphtest.LiveSegments(r.t, r.index))
		}
	}
	if gens, _ := filepath.Glob(filepath.Join(r.index, "gen", "*")); len(gens) != 1 {
		r.t.Errorf("%s: generations left behind: %v", what, gens)
	}
	if tmps, _ := filepath.Glob(filepath.Join(r.index, ".tmp-*")); len(tmps) != 0 {
		r.t.Errorf("%s: temporary files left behind: %v", what, tmps)
	}
}

// TestKillDuringUpdateAndMerge SIGKILLs real incremental builds of a
// 600-file tree at random moments: four that write a delta of 120 changed
// files (and a module shard or two: each change adds a directory and
// removes the one added before, the module pages cut into shards of 8),
// and three that also merge, each after eight builds have piled up
// eight deltas (the ninth merges them, maxDeltas). After each kill
// status, page and query answer from the old or the new generation, and
// the next build completes with no stale file, one generation and no
// segment folder the live manifest does not name. A kill must land
// mid-build at least once in each kind, or the rounds tested nothing (a
// kind none of whose kills did gets up to three more rounds, killed
// earlier).
func TestKillDuringUpdateAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes; skipped with -short")
	}
	t.Setenv("WIKITOOLKIT_MODULE_SHARD_PAGES", "8")
	repo := t.TempDir()
	if _, err := synth.Write(repo, synth.Options{Files: 600, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	r := &segKillRun{t: t, repo: repo, index: filepath.Join(repo, ".wikitoolkit"), rng: rand.New(rand.NewPCG(5, 6))}
	filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(repo, p)
			r.goSrc = append(r.goSrc, filepath.ToSlash(rel))
		}
		return err
	})
	slices.Sort(r.goSrc)
	runJSON(t, repo, new(buildJSON), "build", "--json", "--full")
	base := r.fileSegments()
	if n := graphtest.LiveManifest(t, r.index).ModuleSegments(); n < 20 {
		t.Fatalf("%d modules segments with shards of 8 pages: WIKITOOLKIT_MODULE_SHARD_PAGES did not reach the build", n)
	}

	// How long an uninterrupted update takes, to pick the kill moments.
	r.change(120)
	mods := r.moduleSegments()
	b, updateDur := r.build()
	if b.Mode != "incremental" || b.FilesParsed < 120 {
		t.Fatalf("update build: %+v", b)
	}
	now := r.moduleSegments()
	written := 0
	for _, id := range now {
		if !slices.Contains(mods, id) {
			written++
		}
	}
	if written == 0 || written*2 > len(now) {
		t.Fatalf("modules segments %v before the update, %v after: want a few rewritten, most standing", mods, now)
	}

	// pile brings the live generation to the point where the next
	// incremental build merges (maxDeltas deltas), and returns how long
	// a merging build takes.
	pile := func() {
		for r.fileSegments() < base+8 {
			r.change(5)
			r.build()
		}
	}
	pile()
	before := r.fileSegments()
	r.change(120)
	_, mergeDur := r.build()
	if after := r.fileSegments(); after >= before {
		t.Fatalf("the build after %d deltas left %d file segments (had %d): no merge", before-base, after, before)
	}
	t.Logf("update build %v, merging build %v", updateDur.Round(time.Millisecond), mergeDur.Round(time.Millisecond))

	midUpdate, midMerge := 0, 0
	// round changes 120 files and kills the build at a random moment
	// before span (of a merging build when merge).
	round := func(what string, merge bool, span time.Duration) {
		if merge {
			pile()
		}
		r.change(120)
		var st statusJSON
		runJSON(t, repo, &st, "status", "--json")
		delay := time.Duration(r.rng.Int64N(int64(span)))
		mid := r.kill(delay)
		if mid && merge {
			midMerge++
		} else if mid {
			midUpdate++
		}
		t.Logf("%s: killed after %v (mid-build: %v)", what, delay.Round(time.Millisecond), mid)
		r.answers(what, st.Generation)
		r.complete(what)
		if merge && r.fileSegments() >= base+8 {
			t.Fatalf("%s: %d file segments after the completing build: the deltas were not merged", what, r.fileSegments())
		}
	}
	for i := range 7 {
		if i >= 4 {
			round(fmt.Sprintf("merge round %d", i), true, mergeDur*5/4)
		} else {
			round(fmt.Sprintf("update round %d", i), false, updateDur*5/4)
		}
	}
	// On a loaded machine the builds measured above may run long and the
	// later ones short, so that every kill of a kind came too late: up to
	// three more rounds of that kind, killed in the first half of a build.
	for i := 0; i < 3 && midUpdate == 0; i++ {
		round(fmt.Sprintf("extra update round %d", i), false, updateDur/2)
	}
	for i := 0; i < 3 && midMerge == 0; i++ {
		round(fmt.Sprintf("extra merge round %d", i), true, mergeDur/2)
	}
	t.Logf("kills mid-build: %d updates, %d merges", midUpdate, midMerge)
	if midUpdate == 0 || midMerge == 0 {
		t.Fatalf("kills mid-build: %d updates, %d merges: a kind of round tested nothing", midUpdate, midMerge)
	}
}
