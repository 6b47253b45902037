//go:build unix

package wiki

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckTimeoutKillsChildren: the timeout kills the check's whole
// process group, so a test binary started by `go test` does not outlive it.
func TestCheckTimeoutKillsChildren(t *testing.T) {
	root := checkRoot(t, `{"checks": {"slow": {"argv": ["sh", "-c", "sleep 60 & echo $! > child.pid; wait"], "timeout_seconds": 0.5}}}`)
	res, err := RunCheck(context.Background(), root, "slow")
	if err != nil || !res.TimedOut {
		t.Fatalf("slow: %v %+v", err, res)
	}
	b, err := os.ReadFile(filepath.Join(root, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed child is reaped by init soon after; wait for that rather
	// than for the 60 s it would sleep.
	for i := 0; ; i++ {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if i == 100 {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the check's child %d outlived the timeout", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
