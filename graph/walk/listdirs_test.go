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

// TestOmits: the paths a walk leaves out by name or place.
func TestOmits(t *testing.T) {
	opt := Options{OmitNames: []string{".wikitoolkit"}, OmitPaths: []string{".wiki"}}
	for rel, want := range map[string]bool{
		"a/b.go": false, ".git": true, ".git/index": true, "a/.git/x": true,
		".wikitoolkit/CURRENT": true, "sub/.wikitoolkit": true, ".wiki": true, ".wiki/n.md": true, ".wikis/x": false,
		"vendor/x.go": true, "a/node_modules/y/z.js": true, "vendor": false, // a file named vendor is listed
		"vendored.go": false,
	} {
		if got := opt.Omits(rel); got != want {
			t.Errorf("Omits(%q) = %v, want %v", rel, got, want)
		}
	}
	if (Options{ExcludeDirs: []string{}}).Omits("vendor/x.go") {
		t.Error("an empty ExcludeDirs excludes vendor/")
	}
}
