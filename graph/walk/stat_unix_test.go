//go:build unix

package walk

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"

	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestWalkSpecialFiles(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a.go": "", "ignored/x.go": "", ".gitignore": "ignored/\n*.sock\n"})
	if err := unix.Mkfifo(filepath.Join(root, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, "ignored.sock"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe.go", filepath.Join(root, "pipelink.go")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(root, "socket"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	res := mustWalk(t, root, Options{})
	want := map[string]string{
		"pipe.go":     "not a regular file",
		"pipelink.go": "not a regular file",
		"socket":      "not a regular file",
	}
	checkSkipsOnlyA(t, res, want)
}

// TestWalkUnreadable checks permission handling. Root reads everything, so
// as root the test checks against a made-up user instead.
func TestWalkUnreadable(t *testing.T) {
	root := t.TempDir()
	walktest.WriteTree(t, root, map[string]string{"a.go": "", "secret.go": "", "private/p.go": "", "noexec/q.go": ""})
	for p, mode := range map[string]os.FileMode{"secret.go": 0, "private": 0, "noexec": 0o644} {
		if err := os.Chmod(filepath.Join(root, p), mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(root, p), 0o755) })
	}
	if os.Geteuid() == 0 {
		old := walkCreds
		walkCreds = func() creds { return creds{uid: 4242, gids: []uint32{4242}} }
		t.Cleanup(func() { walkCreds = old })
	}
	res := mustWalk(t, root, Options{})
	want := map[string]string{
		"secret.go": "unreadable: permission denied",
		"private":   "unreadable: permission denied",
		"noexec":    "unreadable: permission denied",
	}
	checkSkipsOnlyA(t, res, want)
}

func TestCredsMayRead(t *testing.T) {
	c := creds{uid: 1000, gids: []uint32{100, 20}}
	tests := []struct {
		uid, gid, mode uint32
		dir            bool
		want           bool
	}{
		{1000, 1, 0o400, false, true},
		{1000, 1, 0o044, false, false}, // the owner's bits decide, not group's
		{1, 20, 0o040, false, true},
		{1, 21, 0o040, false, false},
		{1, 21, 0o004, false, true},
		{1000, 1, 0o600, true, false}, // a directory needs x too
		{1000, 1, 0o500, true, true},
	}
	for _, tt := range tests {
		if got := c.mayRead(tt.uid, tt.gid, tt.mode, tt.dir); got != tt.want {
			t.Errorf("mayRead(uid %d, gid %d, %o, dir %v) = %v, want %v", tt.uid, tt.gid, tt.mode, tt.dir, got, tt.want)
		}
	}
	if !(creds{uid: 0}).mayRead(1, 1, 0, true) {
		t.Error("root may read anything")
	}
}

// TestWalkDeepNesting walks a chain of 5,000 nested directories, far past
// PATH_MAX, with a file at every level. The walk must end without an error,
// list what can be opened and report the rest once, not per level.
func TestWalkDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,000 entries")
	}
	const depth = 5000
	root := t.TempDir()
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		ffd, err := unix.Openat(fd, "f.go", unix.O_CREAT|unix.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		unix.Close(ffd)
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		unix.Close(fd)
		fd = next
	}
	unix.Close(fd)
	t.Cleanup(func() {
		// os.RemoveAll holds a descriptor per level; cut the chain first.
		if err := cutChain(root, 500); err != nil {
			t.Error(err)
		}
	})

	res := mustWalk(t, root, Options{})
	// Near the limit, the f.go of a level (5 bytes more) no longer fits while
	// the next d (2 bytes more) still does: up to 3 levels with an f.go too
	// long, then the d that is too long. A few skips, not one per level.
	if len(res.Skipped) == 0 || len(res.Skipped) > 4 {
		t.Fatalf("want 1 to 4 skips, got %d: %.300v", len(res.Skipped), res.Skipped)
	}
	for _, s := range res.Skipped {
		if s.Reason != "path too long" {
			t.Errorf("skip %.40s…: %q, want \"path too long\"", s.Path, s.Reason)
		}
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	openable := (pathMax - len(realRoot) - len("/f.go")) / 2 // levels of "/d"
	if n := len(res.Files); n < openable-1 || n > openable+1 {
		t.Errorf("got %d files, want about %d", n, openable)
	}
	last := res.Files[len(res.Files)-1] // the longest path sorts last
	if f, err := os.Open(last.Abs); err != nil {
		t.Errorf("deepest listed file cannot be opened: %v", err)
	} else {
		f.Close()
	}
}

// cutChain moves every step-th directory of the chain root/d/d/… up to root,
// so that no piece is deeper than step.
func cutChain(root string, step int) error {
	top := root
	for i := 0; ; i++ {
		fd, err := unix.Open(top, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			return err
		}
		for range step - 1 {
			next, err := unix.Openat(fd, "d", unix.O_RDONLY|unix.O_DIRECTORY, 0)
			unix.Close(fd)
			if err != nil {
				return nil // the rest is shallow
			}
			fd = next
		}
		dst := filepath.Join(root, fmt.Sprintf("piece%d", i))
		err = unix.Renameat(fd, "d", unix.AT_FDCWD, dst)
		unix.Close(fd)
		if err != nil {
			if strings.Contains(err.Error(), "no such file") {
				return nil
			}
			return err
		}
		top = dst
	}
}

// checkSkipsOnlyA checks that res skipped exactly want (path → reason) and
// kept only a.go.
func checkSkipsOnlyA(t *testing.T, res *Result, want map[string]string) {
	t.Helper()
	got := skipMap(res)
	if len(got) != len(want) {
		t.Errorf("skips: got %v, want %v", got, want)
	}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("skip %s: got %q, want %q", p, got[p], r)
		}
	}
	if len(res.Files) != 1 || res.Files[0].Path != "a.go" {
		t.Errorf("files: %+v", res.Files)
	}
}
