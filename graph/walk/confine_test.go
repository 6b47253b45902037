package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

func TestConfine(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a/b.go": "", ".idx/x": "", ".git/config": ""})
	walktest.WriteTree(t, outside, map[string]string{"secret.txt": ""})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "leak")); err != nil {
		t.Fatal(err)
	}
	abs, rel, err := Confine(root, "./a//b.go", ".idx")
	if err != nil || rel != "a/b.go" || !strings.HasSuffix(abs, filepath.FromSlash("a/b.go")) {
		t.Errorf("Confine(./a//b.go) = %q, %q, %v", abs, rel, err)
	}
	for _, p := range []string{"", "/etc/passwd", "a/../../x", "a\\b.go", "a\x00", ".git/config", ".idx/x", "leak"} {
		if _, _, err := Confine(root, p, ".idx"); err == nil {
			t.Errorf("Confine(%q) accepted", p)
		}
	}
	if _, _, err := Confine(root, "nope.go", ".idx"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Confine(nope.go) = %v, want fs.ErrNotExist", err)
	}
}
