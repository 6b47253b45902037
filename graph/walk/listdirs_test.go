package walk

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListDirs: Result.DirPaths lists the directories the walk read, and
// not those it omits, ignores or excludes.
func TestListDirs(t *testing.T) {
	root := t.TempDir()
	for p, content := range map[string]string{
		".gitignore":       "ignored/\n",
		"a/b/x.go":         "package b\n",
		"vendor/v/y.go":    "package v\n",
		"ignored/z.go":     "package z\n",
		".git/HEAD":        "ref: refs/heads/main\n",
		".wikitoolkit/CUR": "1\n",
		"e/.keep":          "",
	} {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{OmitNames: []string{".wikitoolkit"}, ListDirs: true}
	res, err := Walk(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"", "a", "a/b", "e"}; !slices.Equal(res.DirPaths, want) {
		t.Errorf("DirPaths = %q, want %q", res.DirPaths, want)
	}
	opt.ListDirs = false
	if res, err = Walk(context.Background(), root, opt); err != nil || res.DirPaths != nil {
		t.Errorf("without ListDirs: DirPaths = %q, %v", res.DirPaths, err)
	}
}
