//go:build unix && !(linux && amd64)

package walk

import "golang.org/x/sys/unix"

// anchorFlags open a directory to stat relative to it.
const anchorFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC

// lstatz lstats the NUL-terminated path p.
func lstatz(p []byte, st *unix.Stat_t) error { return unix.Lstat(string(p[:len(p)-1]), st) }

// lstatzAt lstats the NUL-terminated path p relative to the directory fd.
func lstatzAt(fd int, p []byte, st *unix.Stat_t) error {
	return unix.Fstatat(fd, string(p[:len(p)-1]), st, unix.AT_SYMLINK_NOFOLLOW)
}

// openz opens the NUL-terminated path p with flags.
func openz(p []byte, flags int) (int, error) { return unix.Open(string(p[:len(p)-1]), flags, 0) }

// fstatz fstats the open file fd.
func fstatz(fd int, st *unix.Stat_t) error { return unix.Fstat(fd, st) }

// closez closes fd.
func closez(fd int) { unix.Close(fd) }
