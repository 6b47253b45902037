package graph

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestBuildUnderCallersLock: a build given the index's lock (LockBuild)
// runs under it and leaves it held; a lock of another index is refused.
func TestBuildUnderCallersLock(t *testing.T) {
	root := t.TempDir()
	walktest.WriteFile(t, root, "a.go", "package a\n\nfunc A() {}\n")
	dir := filepath.Join(root, IndexDirName)
	lock, err := LockBuild(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if _, err := Build(context.Background(), BuildOptions{Root: root, Lock: lock}); err != nil {
		t.Fatalf("build under the caller's lock: %v", err)
	}
	if l, err := LockFile(buildLockPath(dir), false, nil); err == nil {
		l.Unlock()
		t.Error("the build released the caller's lock")
	}
	other, err := LockBuild(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Unlock()
	if _, err := Build(context.Background(), BuildOptions{Root: root, Lock: other, Full: true}); err == nil || !strings.Contains(err.Error(), "LockBuild") {
		t.Errorf("build given another index's lock: %v", err)
	}
}
