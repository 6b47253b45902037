//go:build unix && !(linux && amd64)

package walk

import "golang.org/x/sys/unix"

// lstatz lstats the NUL-terminated path p.
func lstatz(p []byte, st *unix.Stat_t) error { return unix.Lstat(string(p[:len(p)-1]), st) }
