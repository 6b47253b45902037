//go:build unix

package wiki

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd the leader of a new process group and has its
// cancellation kill the whole group, so that a timed-out `go test` takes
// its test binaries with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
