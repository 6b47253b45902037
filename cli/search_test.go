package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchFlags runs `search` with -i, -C and -l and their long forms.
func TestSearchFlags(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "pay"), 0o755)
	os.WriteFile(filepath.Join(repo, "pay", "retry.go"), []byte("package pay\n\n// Charge retries.\nfunc Charge() {}\n\nfunc other() {}\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Shop\n\ncharge cards here\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "charge"}, "README.md:3: charge cards here\n"},
		{[]string{"search", "-i", "charge"}, "README.md:3: charge cards here\npay/retry.go:3: // Charge retries.\npay/retry.go:4: func Charge() {}\n"},
		{[]string{"search", "--ignore-case", "CHARGE", "-l"}, "README.md\npay/retry.go\n"},
		{[]string{"search", "--files-only", "func"}, "pay/retry.go\n"},
		{[]string{"search", "-C", "1", "func Charge"}, "pay/retry.go-3- // Charge retries.\npay/retry.go:4: func Charge() {}\npay/retry.go-5-\n"},
		{[]string{"search", "--context", "1", "--regex", "^func"}, "pay/retry.go-3- // Charge retries.\npay/retry.go:4: func Charge() {}\npay/retry.go-5-\npay/retry.go:6: func other() {}\n"},
	} {
		out, errs, code := run(t, repo, c.args...)
		if code != 0 || out != c.want {
			t.Errorf("%v: exit %d %s\n%s\nwant\n%s", c.args, code, errs, out, c.want)
		}
	}
	var res struct {
		Files   []string `json:"files"`
		Matches []struct {
			Before []string `json:"before"`
		} `json:"matches"`
	}
	runJSON(t, repo, &res, "search", "-l", "-i", "charge", "--json")
	if strings.Join(res.Files, ",") != "README.md,pay/retry.go" {
		t.Errorf("--json -l: %+v", res)
	}
	runJSON(t, repo, &res, "search", "-C", "2", "Charge()", "--json")
	if len(res.Matches) != 1 || len(res.Matches[0].Before) != 2 {
		t.Errorf("--json -C: %+v", res)
	}
	if _, errs, code := run(t, repo, "search", "-C", "11", "x"); code != 2 || !strings.Contains(errs, "--context") {
		t.Errorf("-C 11: exit %d %s", code, errs)
	}
}
