package cli

import (
	"regexp"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestBuildPhases: `build --json` says where a build's time went, by phase,
// and --verbose prints the same as a line: a full build walks, parses and
// writes; an edit's build also opens the previous generation and reads
// its file stats before it walks.
func TestBuildPhases(t *testing.T) {
	repo := gitRepo(t)
	var b struct {
		Mode   string             `json:"mode"`
		Phases map[string]float64 `json:"phases"`
	}
	runJSON(t, repo, &b, "build", "--json")
	for _, p := range []string{"walk", "parse", "write"} {
		if v, ok := b.Phases[p]; !ok || v < 0 {
			t.Errorf("full build: phase %q = %v, %v; phases %v", p, v, ok, b.Phases)
		}
	}
	walktest.WriteFile(t, repo, "pay/refund.go", "package pay\n\n// Refund undoes a Charge.\nfunc Refund(amount int) error { return nil }\n")
	b.Phases = nil
	runJSON(t, repo, &b, "build", "--json")
	if b.Mode != "incremental" {
		t.Fatalf("second build: mode %q, want incremental", b.Mode)
	}
	for _, p := range []string{"open", "stats", "walk", "parse", "write"} {
		if _, ok := b.Phases[p]; !ok {
			t.Errorf("incremental build: no phase %q in %v", p, b.Phases)
		}
	}
	walktest.WriteFile(t, repo, "pay/refund.go", "package pay\n\n// Refund undoes a Charge, twice.\nfunc Refund(amount int) error { return nil }\n")
	out := mustRun(t, repo, "build", "--verbose")
	if !regexp.MustCompile(`(?m)^  phases: [a-z]+ [0-9.]+ m?s(, [a-z]+ [0-9.]+ m?s)*$`).MatchString(out) {
		t.Errorf("build --verbose: no phases line in\n%s", out)
	}
}
