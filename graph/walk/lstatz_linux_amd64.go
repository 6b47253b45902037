package walk

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// atFDCWD is AT_FDCWD as a system call argument.
var atFDCWD = unix.AT_FDCWD

// anchorFlags open a directory only to stat relative to it (O_PATH needs
// no read permission and reads nothing).
const anchorFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC

// lstatz lstats the NUL-terminated path p without copying it.
func lstatz(p []byte, st *unix.Stat_t) error { return lstatzAt(atFDCWD, p, st) }

// lstatzAt lstats the NUL-terminated path p relative to the directory fd.
func lstatzAt(fd int, p []byte, st *unix.Stat_t) error {
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(st)), uintptr(unix.AT_SYMLINK_NOFOLLOW), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return e
		}
		return nil
	}
}

// openz opens the NUL-terminated path p with flags.
func openz(p []byte, flags int) (int, error) {
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&p[0])), uintptr(flags), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}
