package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/wikitoolkit/wikitoolkit"

// layers ranks every package of the module: a package's code imports only
// packages of a lower rank (parser → graph/walk → graph → graph/annotate → engine →
// engine/wiki → mcp → cli → main; benchmarks may import everything). A
// test-only helper package (x.5) sits just above the layer whose tests use
// it; only helpers, tests and benchmarks import helpers, and a package's
// tests may import helpers up to its own layer's.
var layers = map[string]float64{
	"parser":                      0,
	"benchmarks/synth":            0.5, // a synthetic corpus for the tests of any layer
	"graph/walk":                  1,
	"graph/walk/walktest":         1.5,
	"graph":                       2,
	"graph/graphtest":             2.5,
	"graph/annotate":              2.7, // notes, memories, anchors, .wiki sharing: above graph, below the engine
	"engine":                      3,
	"engine/wiki":                 4,
	"mcp":                         5,
	"web":                         5.5, // the wiki for people: above mcp (its loopback rule), below cli
	"cli":                         6,
	"":                            7, // main
	"benchmarks":                  8,
	"benchmarks/docsym/goextract": 8, // the docstring → symbol harness's Go extractor (imports only the standard library)
}

// helper reports whether rel is a test-only helper package.
func helper(rel string) bool { return strings.HasSuffix(rel, "test") || rel == "benchmarks/synth" }

// TestImportsFollowLayers lists the module's packages with go list (no
// network: GOPROXY=off, and only the module's own imports are judged) and
// fails on an import that runs against the layers. The pattern is ./...
// (the test runs in the module's root), not the module's path and /...:
// that pattern makes go list look for packages of that path in every
// module of the build graph, which needs the go.mod file of each, and on
// a machine whose module cache holds only what go test downloaded (a
// new one) it failed with "module lookup disabled by GOPROXY=off".
func TestImportsFollowLayers(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v (the layer check runs go list)", err)
	}
	cmd := exec.Command(goBin, "list", "-e", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	for _, problem := range layerProblems(string(out)) {
		t.Error(problem)
	}
}

// layerProblems judges go list's lines "pkg|imports|test imports" and says
// what is wrong with each import against the layers.
func layerProblems(list string) []string {
	var problems []string
	seen := 0
	for line := range strings.Lines(list) {
		parts := strings.Split(strings.TrimSpace(line), "|")
		if len(parts) != 3 {
			continue
		}
		rel, ok := relPath(parts[0])
		if !ok {
			continue
		}
		seen++
		rank, known := layers[rel]
		if !known {
			problems = append(problems, fmt.Sprintf("package %s has no layer: add it to layers in layers_test.go", parts[0]))
			continue
		}
		check := func(imports string, test bool) {
			for _, imp := range strings.Fields(imports) {
				to, ok := relPath(imp)
				if !ok || to == rel {
					continue // outside the module, or a test of the package itself
				}
				r, known := layers[to]
				switch {
				case !known:
					problems = append(problems, fmt.Sprintf("%s imports %s, which has no layer: add it to layers in layers_test.go", parts[0], imp))
				case !test && helper(to) && !helper(rel) && rel != "benchmarks":
					problems = append(problems, fmt.Sprintf("%s imports the test-only helper %s outside its tests", parts[0], imp))
				case !test && r >= rank:
					problems = append(problems, fmt.Sprintf("%s imports %s, which is not below it in the layers (parser → graph/walk → graph → engine → engine/wiki → mcp → cli)", parts[0], imp))
				case test && r >= rank+1:
					problems = append(problems, fmt.Sprintf("the tests of %s import %s, which is above its layer", parts[0], imp))
				}
			}
		}
		check(parts[1], false)
		check(parts[2], true)
	}
	if seen == 0 {
		problems = append(problems, "go list named no package of "+module)
	}
	return problems
}

// relPath returns p's path inside the module ("" for the module root).
func relPath(p string) (string, bool) {
	if p == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	return rel, ok
}

// TestLayerProblems checks the judge itself on imports that run against
// the layers, so the layer check cannot pass by finding nothing.
func TestLayerProblems(t *testing.T) {
	m := module + "/"
	for _, c := range []struct {
		list string
		want int
	}{
		{m + "parser|fmt|testing", 0},
		{m + "graph|" + m + "parser " + m + "graph/walk|" + m + "graph/walk/walktest", 0},
		{m + "engine|" + m + "graph|" + m + "graph/graphtest " + m + "graph/walk/walktest", 0},
		{m + "parser|" + m + "graph|", 1},               // upward
		{m + "graph/walk|" + m + "graph|", 1},           // upward
		{m + "engine|" + m + "engine/wiki|", 1},         // upward
		{m + "mcp|" + m + "cli|", 1},                    // upward
		{m + "engine|" + m + "graph/graphtest|", 1},     // helper outside tests
		{m + "graph/walk||" + m + "graph/graphtest", 1}, // helper above the layer
		{m + "graph/walk/walktest|" + m + "graph|", 1},  // helper above its layer
		{m + "graph/newpkg|" + m + "parser|", 1},        // no layer
		{m + "cli|" + m + "mcp " + m + "engine/wiki|", 0},
		{m + "cli||" + m + "benchmarks/synth", 0},
		{m + "cli|" + m + "benchmarks/synth|", 1}, // helper outside tests
		{m + "benchmarks|" + m + "benchmarks/synth " + m + "cli|", 0},
	} {
		if got := layerProblems(c.list + "\n"); len(got) != c.want {
			t.Errorf("%q: %d problems %v, want %d", c.list, len(got), got, c.want)
		}
	}
}
