package walk

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// atFDCWD is AT_FDCWD as a system call argument.
var atFDCWD = unix.AT_FDCWD

// lstatz lstats the NUL-terminated path p without copying it.
func lstatz(p []byte, st *unix.Stat_t) error {
	_, _, e := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(st)), uintptr(unix.AT_SYMLINK_NOFOLLOW), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
