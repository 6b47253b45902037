//go:build !unix

package wiki

import "os/exec"

// killGroup leaves cmd's cancellation to os/exec, which kills the process
// (not its children) outside Unix.
func killGroup(cmd *exec.Cmd) {}
