package wiki

import "testing"

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"*.go", "a/b/c.go", true}, {"*.go", "a/b/c.md", false}, {"a/*.go", "a/c.go", true}, {"a/*.go", "a/b/c.go", false},
		{"a/**", "a/b/c.go", true}, {"**/*_test.go", "x/y/z_test.go", true}, {"**/*_test.go", "z_test.go", true}, {"b/**", "a/b/c", false},
	} {
		if got := globMatch(c.glob, c.path); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v", c.glob, c.path, got)
		}
	}
}
