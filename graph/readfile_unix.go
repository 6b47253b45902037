//go:build unix

package graph

import (
	"errors"
	"io/fs"
	"slices"

	"golang.org/x/sys/unix"
)

// errNotRegular is why a path the walk listed as a file is not read: it
// became something else (a named pipe, a device, a directory) since.
var errNotRegular = errors.New("not a regular file")

// readFileInto reads the file at abs into buf (grown as needed), expecting
// about size bytes. It opens the file with open(2), not os.Open, which
// adds the descriptor to the runtime's poller (a failing epoll_ctl and
// three fcntl for a regular file: moby's full build made 14,000 fcntl and
// 3,400 epoll_ctl calls for 3,400 files). The open does not block
// (O_NONBLOCK): a file that became a named pipe since the walk listed it
// is reported as not a regular file instead of waiting for a writer.
func readFileInto(abs string, buf []byte, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(abs, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return buf, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return buf, &fs.PathError{Op: "stat", Path: abs, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return buf, &fs.PathError{Op: "read", Path: abs, Err: errNotRegular}
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+512)
	}
	for {
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "read", Path: abs, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
	}
}
