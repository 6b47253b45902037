package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/benchmarks/synth"
	"github.com/wikitoolkit/wikitoolkit/graph/graphtest"
)

// crashSteps are the crash points of publishing a generation
// (graph/crashpoint.go), in the order commit reaches them, and whether
// CURRENT names the new generation once the step is done.
var crashSteps = []struct {
	name string
	live bool
}{
	{"seg-written", false},
	{"seg-synced", false},
	{"seg-closed", false},
	{"segseal-tmp-written", false},
	{"segseal-tmp-synced", false},
	{"segseal-renamed", false},
	{"segseal-dir-synced", false},
	{"seg-dir-synced", false},
	{"manifest-tmp-written", false},
	{"manifest-tmp-synced", false},
	{"manifest-renamed", false},
	{"manifest-dir-synced", false},
	{"seal-tmp-written", false},
	{"seal-tmp-synced", false},
	{"seal-renamed", false},
	{"seal-dir-synced", false},
	{"gen-dir-synced", false},
	{"current-tmp-written", false},
	{"current-tmp-synced", false},
	{"current-renamed", true},
	{"current-dir-synced", true},
}

// TestCrashAtEachPublishStep stops a real build process (exit 99, no
// cleanup) at each step of publishing a generation, then checks that the
// index opens and answers, that it is the old generation before the
// switch of CURRENT and a complete, sealed new one after, and that the
// next build completes and indexes the change. Because every step before
// current-renamed must leave the old generation live, moving the switch
// of CURRENT before the generation, its seal or their folders are synced
// fails here.
func TestCrashAtEachPublishStep(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes; skipped with -short")
	}
	// The module pages in shards of 4: each step's new package doc makes
	// the build rewrite the shard of crashorder/ before its delta.
	t.Setenv("WIKITOOLKIT_MODULE_SHARD_PAGES", "4")
	repo := t.TempDir()
	if _, err := synth.Write(repo, synth.Options{Files: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	var first buildJSON
	runJSON(t, repo, &first, "build", "--json", "--full")
	index := filepath.Join(repo, ".wikitoolkit")
	for i, step := range crashSteps {
		var before statusJSON
		runJSON(t, repo, &before, "status", "--json")
		file := fmt.Sprintf("crashorder/step%02d.go", i)
		id := "file:" + file
		os.MkdirAll(filepath.Join(repo, "crashorder"), 0o755)
		src := fmt.Sprintf("// Package crashorder is step %d.\npackage crashorder\n\n// CrashStep%02d is new at step %s.\nfunc CrashStep%02d() int { return %d }\n", i, i, step.name, i, i)
		if err := os.WriteFile(filepath.Join(repo, file), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}

		cmd := exec.Command(binPath, "build", "--quiet")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "WIKITOOLKIT_INDEX=", "WIKITOOLKIT_CRASH_AT="+step.name)
		_, errs, code := runCmd(t, cmd)
		if code != 99 {
			t.Fatalf("%s: the build exited %d, not 99 at the crash point (is the point gone?)\nstderr: %s", step.name, code, errs)
		}
		newGen := filepath.Join(index, "gen", fmt.Sprintf("%06d", before.Generation+1))
		if strings.HasPrefix(step.name, "seg") {
			// Stopped while writing a segment: one beyond the live ones exists.
			if segs, _ := filepath.Glob(filepath.Join(index, "seg", "*")); len(segs) <= len(graphtest.LiveSegments(t, index)) {
				t.Fatalf("%s: the stopped build left no new segment (%v): it stopped before publishing", step.name, segs)
			}
		} else if _, err := os.Stat(newGen); err != nil {
			t.Fatalf("%s: the stopped build left no generation %s: it stopped before publishing", step.name, newGen)
		}

		var after statusJSON
		runJSON(t, repo, &after, "status", "--json") // opens the live generation and verifies its seal
		_, _, pageCode := run(t, repo, "page", "--json", id)
		if step.live {
			if after.Generation != before.Generation+1 {
				t.Fatalf("%s: live generation %d, want the new %d", step.name, after.Generation, before.Generation+1)
			}
			if _, err := os.Stat(filepath.Join(newGen, "SEAL")); err != nil {
				t.Fatalf("%s: CURRENT names a generation without a seal: %v", step.name, err)
			}
			if after.StaleFiles != 0 || pageCode != 0 {
				t.Fatalf("%s: the new live generation is incomplete: %d stale files, page %s exit %d", step.name, after.StaleFiles, id, pageCode)
			}
		} else {
			if after.Generation != before.Generation {
				t.Fatalf("%s: live generation %d, want the old %d: CURRENT switched before the generation was sealed and synced",
					step.name, after.Generation, before.Generation)
			}
			if after.StaleFiles == 0 || pageCode == 0 {
				t.Fatalf("%s: the old generation should not know %s (stale files %d, page exit %d)", step.name, file, after.StaleFiles, pageCode)
			}
		}
		var res struct {
			Results []struct{ ID string } `json:"results"`
		}
		runJSON(t, repo, &res, "query", "--json", "validate order")
		if len(res.Results) == 0 {
			t.Fatalf("%s: query answered nothing after the crash", step.name)
		}

		var next buildJSON
		runJSON(t, repo, &next, "build", "--json")
		var done statusJSON
		runJSON(t, repo, &done, "status", "--json")
		if done.StaleFiles != 0 || done.Generation <= after.Generation && !step.live {
			t.Fatalf("%s: after the completing build: generation %d, %d stale files", step.name, done.Generation, done.StaleFiles)
		}
		var pj pageJSON
		runJSON(t, repo, &pj, "page", "--json", id)
		if pj.ID != id {
			t.Fatalf("%s: page answered %q, want %q", step.name, pj.ID, id)
		}
		if segs, _ := filepath.Glob(filepath.Join(index, "seg", "*")); len(segs) != len(graphtest.LiveSegments(t, index)) {
			t.Errorf("%s: segments left behind after the completing build: %v (live: %v)", step.name, segs, graphtest.LiveSegments(t, index))
		}
		gens, _ := filepath.Glob(filepath.Join(index, "gen", "*"))
		if len(gens) != 1 {
			t.Errorf("%s: generations left behind after the completing build: %v", step.name, gens)
		}
		if tmps, _ := filepath.Glob(filepath.Join(index, ".tmp-*")); len(tmps) != 0 {
			t.Errorf("%s: temporary files left behind after the completing build: %v", step.name, tmps)
		}
		if b, err := os.ReadFile(filepath.Join(index, "CURRENT")); err != nil || strings.TrimSpace(string(b)) != fmt.Sprint(done.Generation) {
			t.Errorf("%s: CURRENT holds %q (%v), status says %d", step.name, b, err, done.Generation)
		}
	}
}
