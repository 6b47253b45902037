package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestImpactCLI runs the real binary: impact of a symbol (text and JSON),
// --diff against HEAD in a real repository, the pointer to the tests check,
// and bad invocations.
func TestImpactCLI(t *testing.T) {
	dir := gitRepo(t)
	walktest.WriteTree(t, dir, map[string]string{
		"cart/cart.go":      "package cart\n\nimport \"example.com/shop/pay\"\n\n// Checkout pays.\nfunc Checkout(total int) error {\n\treturn pay.Charge(total)\n}\n",
		"cart/cart_test.go": "package cart\n\nimport \"testing\"\n\nfunc TestCheckout(t *testing.T) {\n\tif Checkout(1) != nil {\n\t\tt.Fatal(\"x\")\n\t}\n}\n",
		"go.mod":            "module example.com/shop\n\ngo 1.22\n",
		".wikitoolkit.json": `{"checks": {"tests": ["echo", "ran tests"]}}`,
	})
	walktest.Git(t, dir, "add", ".")
	walktest.Git(t, dir, "commit", "-q", "-m", "cart")
	mustRun(t, dir, "build", "--quiet")

	out := mustRun(t, dir, "impact", "pay.attempt")
	for _, want := range []string{"impact of symbol:pay/retry.go#attempt", "depth 1: 1 referrer", "symbol:pay/retry.go#Charge", "depth 2: 1 referrer",
		"symbol:cart/cart.go#Checkout", "tests among the referrers (1):", "TestCheckout", "run `wikitoolkit check tests`"} {
		if !strings.Contains(out, want) {
			t.Errorf("impact lacks %q:\n%s", want, out)
		}
	}
	var doc struct {
		Target string `json:"target"`
		Levels []struct {
			Depth, Total int
			Pages        []struct{ ID, Via string }
		} `json:"levels"`
		Tests        struct{ Total int } `json:"tests"`
		Files        struct{ Total int } `json:"files"`
		BudgetTokens int                 `json:"budget_tokens"`
		UsedTokens   int                 `json:"used_tokens"`
		Check        string              `json:"check"`
	}
	runJSON(t, dir, &doc, "impact", "--json", "--depth", "1", "pay.attempt")
	if doc.Target != "symbol:pay/retry.go#attempt" || len(doc.Levels) != 1 || doc.Levels[0].Pages[0].Via != doc.Target ||
		doc.BudgetTokens != 2000 || doc.UsedTokens == 0 || doc.UsedTokens > 2000 || doc.Check != "wikitoolkit check tests" {
		t.Errorf("impact --json: %+v", doc)
	}

	// --diff: Charge's body changes in the working tree.
	src, err := os.ReadFile(filepath.Join(dir, "pay/retry.go"))
	if err != nil {
		t.Fatal(err)
	}
	walktest.WriteFile(t, dir, "pay/retry.go", strings.Replace(string(src), "return err", "return nil", 1))
	out = mustRun(t, dir, "impact", "--diff")
	for _, want := range []string{"against HEAD: 1 file, 1 definition", "modified pay/retry.go line 6", "symbol:pay/retry.go#Charge", "symbol:cart/cart.go#Checkout", "TestCheckout"} {
		if !strings.Contains(out, want) {
			t.Errorf("impact --diff lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, dir, "impact", "--diff", "main")
	if !strings.Contains(out, "against main") || !strings.Contains(out, "symbol:pay/retry.go#Charge") {
		t.Errorf("impact --diff main:\n%s", out)
	}

	for _, args := range [][]string{{"impact"}, {"impact", "a", "b"}, {"impact", "--diff", "a", "b"}, {"impact", "--depth", "7", "Charge"}, {"impact", "--depth", "0", "Charge"}} {
		if _, errs, code := run(t, dir, args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q, want a usage error", args, code, errs)
		}
	}
	if _, errs, code := run(t, dir, "impact", "pay.Nope"); code != 1 || !strings.Contains(errs, "no ") {
		t.Errorf("missing symbol: exit %d %q", code, errs)
	}
	if _, errs, code := run(t, dir, "impact", "--diff", "--", "--output=x"); code != 1 || !strings.Contains(errs, "not a git revision") {
		t.Errorf("option as base: exit %d %q", code, errs)
	}
}

// TestCheckCLI runs checks with the real binary: a passing one, a failing
// one (exit 1, its output shown), an unknown name and extra arguments
// (nothing runs), and the JSON shape.
func TestCheckCLI(t *testing.T) {
	dir := t.TempDir()
	walktest.WriteTree(t, dir, map[string]string{
		".wikitoolkit.json": `{"checks": {"tests": ["echo", "all good"], "fail": ["sh", "-c", "echo broken; exit 4"], "touch": ["touch", "ran"]}}`,
		"victim":            "x\n",
	})
	out := mustRun(t, dir, "check", "tests")
	if !strings.Contains(out, "check tests: passed") || !strings.Contains(out, "all good") {
		t.Errorf("check tests:\n%s", out)
	}
	out, errs, code := run(t, dir, "check", "fail")
	if code != 1 || !strings.Contains(out, "FAILED (exit code 4)") || !strings.Contains(out, "broken") || !strings.Contains(errs, "check fail failed") {
		t.Errorf("check fail: exit %d\n%s\n%s", code, out, errs)
	}
	var res struct {
		Name     string   `json:"name"`
		Argv     []string `json:"argv"`
		ExitCode int      `json:"exit_code"`
		Passed   bool     `json:"passed"`
		Output   string   `json:"output"`
	}
	runJSON(t, dir, &res, "check", "--json", "tests")
	if res.Name != "tests" || !res.Passed || res.ExitCode != 0 || res.Output != "all good\n" || len(res.Argv) != 2 {
		t.Errorf("check --json: %+v", res)
	}
	_, errs, code = run(t, dir, "check", "tests; rm -rf victim")
	if code != 1 || !strings.Contains(errs, "fail, tests, touch") {
		t.Errorf("unknown name: exit %d %q", code, errs)
	}
	if _, errs, code = run(t, dir, "check", "touch", "victim"); code != 2 || !strings.Contains(errs, "exactly one check name") {
		t.Errorf("extra argument: exit %d %q", code, errs)
	}
	for _, f := range []string{"victim"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("a check ran for a refused invocation")
	}
}
