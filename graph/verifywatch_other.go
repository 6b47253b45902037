//go:build !linux

package graph

// verifyWatch is inotify's on Linux (verifywatch_linux.go); elsewhere
// every Verify runs its stat pass.
type verifyWatch struct{}

func newVerifyWatch(dirs []string) *verifyWatch { return nil }

func (w *verifyWatch) add(dirs []string) bool { return false }

func (w *verifyWatch) changed() bool { return true }

func (w *verifyWatch) close() {}
