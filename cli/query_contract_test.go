package cli

import (
	"encoding/json"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestQueryJSONContract runs the real binary and checks `query --json`
// against the exact shape of DESIGN.md, which the evaluation harness reads.
func TestQueryJSONContract(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	if _, errs, code := run(t, root, "build", "--quiet"); code != 0 {
		t.Fatalf("build: %s", errs)
	}
	for _, budget := range []string{"60", "2000"} {
		out, errs, code := run(t, root, "query", "--json", "--budget", budget, "restock", "a", "book")
		if code != 0 {
			t.Fatalf("query: exit %d: %s", code, errs)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("not one JSON document: %v\n%s", err, out)
		}
		for _, k := range []string{"query", "budget_tokens", "used_tokens", "results", "truncated"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("missing key %q in %s", k, out)
			}
		}
		var res struct {
			Query        string `json:"query"`
			BudgetTokens int    `json:"budget_tokens"`
			UsedTokens   int    `json:"used_tokens"`
			Truncated    bool   `json:"truncated"`
			Results      []map[string]json.RawMessage
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Query != "restock a book" || res.BudgetTokens != atoi(budget) {
			t.Errorf("query/budget echoed as %q/%d", res.Query, res.BudgetTokens)
		}
		if res.UsedTokens > res.BudgetTokens || res.UsedTokens <= 0 {
			t.Errorf("used_tokens %d with budget %d", res.UsedTokens, res.BudgetTokens)
		}
		if len(res.Results) == 0 {
			t.Fatalf("no results at budget %s", budget)
		}
		for _, r := range res.Results {
			for k, want := range map[string]string{"id": "string", "kind": "string", "title": "string", "path": "string", "line": "number", "score": "number", "snippet": "string"} {
				v, ok := r[k]
				if !ok {
					t.Fatalf("result lacks %q: %v", k, r)
				}
				var x any
				json.Unmarshal(v, &x)
				got := map[bool]string{true: "string", false: "number"}[isString(x)]
				if got != want {
					t.Errorf("result %q is %s, want %s", k, got, want)
				}
			}
		}
		if budget == "60" && !res.Truncated {
			t.Errorf("a 60-token answer to a broad question should be truncated")
		}
	}
	// Bad usage is exit 2; a missing index is exit 1 with advice.
	if _, _, code := run(t, root, "query", "--json", "--budget", "0", "x"); code != 2 {
		t.Errorf("--budget 0: exit %d, want 2", code)
	}
	if _, errs, code := run(t, t.TempDir(), "query", "--json", "x"); code != 1 || errs == "" {
		t.Errorf("no index: exit %d, stderr %q", code, errs)
	}
}

func isString(x any) bool { _, ok := x.(string); return ok }

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
