package graph

import (
	"context"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestBuildWithoutGit checks that when git is not installed the build
// succeeds, leaves out the tracked files that ignore rules match and warns.
func TestBuildWithoutGit(t *testing.T) {
	root := t.TempDir()
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	t.Setenv("PATH", t.TempDir()) // no git

	info, err := Build(context.Background(), BuildOptions{Root: root})
	if err != nil {
		t.Fatalf("build without git: %v", err)
	}
	if info.Files != 1 || len(info.Warnings) != 1 || !strings.Contains(info.Warnings[0], "tracked files") {
		t.Errorf("build without git: %d files, warnings %q; want 1 file and a warning", info.Files, info.Warnings)
	}
}

// TestBuildTrackedIgnored checks that the builder indexes tracked files that
// ignore rules match, and that a rebuild finds nothing changed.
func TestBuildTrackedIgnored(t *testing.T) {
	root := t.TempDir()
	walktest.GitInit(t, root, walktest.TrackedIgnoredRepo, walktest.TrackedIgnoredFiles...)
	info := build(t, root, false)
	if info.Files != 8 || len(info.Warnings) != 0 {
		t.Errorf("build: %d files, warnings %q; want 8 files (the Go ones, cobra/README.md and the tracked .txt files), none", info.Files, info.Warnings)
	}
	s := open(t, root)
	for _, id := range []string{"file:cobra/cmd/root.go", "file:build/gen/tables.go", "file:pkg/sub/c.go"} {
		if _, err := s.Page(id); err != nil {
			t.Errorf("page %s: %v", id, err)
		}
	}
	for _, id := range []string{"file:cobra/cmd/untracked.go", "file:build/out.go", "file:pkg/b.go"} {
		if _, err := s.Page(id); err == nil {
			t.Errorf("page %s exists; the file is untracked and ignored", id)
		}
	}
	s.Close()
	again := build(t, root, false)
	if again.FilesParsed != 0 || again.FilesRemoved != 0 || again.FilesUnchanged != info.FilesUnchanged+info.FilesParsed {
		t.Errorf("rebuild: %+v", again)
	}
}
