package graph

import (
	"errors"

	"golang.org/x/sys/unix"
)

// verifyWatch lets Snapshot.Verify skip its stat pass while nothing
// changed: an inotify instance watching the generation's folder and its
// segments' folders for any change to their files (written, truncated,
// replaced, removed, renamed, or their attributes set). The kernel queues
// an event during the system call that changes a file, so a change made
// before a Verify call began is queued when that call reads the instance
// (without blocking): no change is missed, and a call that finds an event
// runs the stat pass as before. Writes through a shared memory mapping
// raise no event; no writer of an index uses one.
type verifyWatch struct {
	fd  int
	buf []byte
}

// verifyWatchMask is every change to a watched folder's files (and to the
// folder itself) that could change what Verify sees.
const verifyWatchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO

// newVerifyWatch watches dirs; nil when inotify is unavailable or out of
// instances or watches (then every Verify runs its stat pass).
func newVerifyWatch(dirs []string) *verifyWatch {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	w := &verifyWatch{fd: fd, buf: make([]byte, 4096)}
	if !w.add(dirs) {
		w.close()
		return nil
	}
	return w
}

// add watches more folders; false when one cannot be watched.
func (w *verifyWatch) add(dirs []string) bool {
	for _, d := range dirs {
		if _, err := unix.InotifyAddWatch(w.fd, d, verifyWatchMask); err != nil {
			return false
		}
	}
	return true
}

// changed drains the queued events and reports whether there were any
// (or the instance could not be read: then the caller checks by stat).
func (w *verifyWatch) changed() bool {
	any := false
	for {
		n, err := unix.Read(w.fd, w.buf)
		switch {
		case n > 0:
			any = true
			continue
		case errors.Is(err, unix.EAGAIN):
			return any
		case errors.Is(err, unix.EINTR):
			continue
		}
		return true
	}
}

// close releases the instance.
func (w *verifyWatch) close() { unix.Close(w.fd) }
