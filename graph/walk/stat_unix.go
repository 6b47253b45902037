//go:build unix

package walk

import (
	"io/fs"
	"os"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// pathMax is the longest path, in bytes, that open(2) accepts (PATH_MAX
// counts the terminating NUL).
const pathMax = unix.PathMax - 1

// dirHandle is an open directory whose entries are stat'ed relative to its
// descriptor: fstatat skips the kernel's walk of the full path, which is a
// third of the cost of a per-file lstat in a 5-level-deep tree.
type dirHandle struct {
	f  *os.File
	fd int
}

// openDir opens a directory. It bypasses os.Open, which for a directory
// costs five more system calls (a failing epoll_ctl and four fcntl, counting
// those of File.Fd) than the open(2) itself: a quarter of the walk.
func openDir(abs string) (*dirHandle, error) {
	for {
		fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
		return &dirHandle{f: os.NewFile(uintptr(fd), abs), fd: fd}, nil
	}
}

func (d *dirHandle) close() { d.f.Close() }

// lstatAt stats name in d without following a symlink.
func (d *dirHandle) lstatAt(name string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
		}
		return toFileStat(&st), nil
	}
}

// statPath stats path, following symlinks.
func statPath(path string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Stat(path, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		return toFileStat(&st), nil
	}
}

func toFileStat(st *unix.Stat_t) fileStat {
	mode := uint32(st.Mode)
	var typ fs.FileMode
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		typ = fs.ModeDir
	case unix.S_IFLNK:
		typ = fs.ModeSymlink
	case unix.S_IFIFO:
		typ = fs.ModeNamedPipe
	case unix.S_IFSOCK:
		typ = fs.ModeSocket
	case unix.S_IFCHR:
		typ = fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		typ = fs.ModeDevice
	default:
		typ = fs.ModeIrregular
	}
	return fileStat{
		typ:      typ,
		size:     st.Size,
		mtime:    st.Mtim.Nano(),
		readable: walkCreds().mayRead(uint32(st.Uid), uint32(st.Gid), mode, typ == fs.ModeDir),
	}
}

// creds is the identity that permission bits are checked against.
type creds struct {
	uid  uint32
	gids []uint32 // effective and supplementary groups
}

// walkCreds returns the process's identity; tests replace it to exercise the
// unreadable-file path while running as root.
var walkCreds = sync.OnceValue(func() creds {
	c := creds{uid: uint32(os.Geteuid()), gids: []uint32{uint32(os.Getegid())}}
	if gs, err := os.Getgroups(); err == nil {
		for _, g := range gs {
			c.gids = append(c.gids, uint32(g))
		}
	}
	return c
})

// mayRead reports whether c may read a file (and search it, for a directory)
// with the given owner and mode. It reads permission bits only (ACLs are not
// consulted), so that the walk needs no access(2) call per file.
func (c creds) mayRead(uid, gid, mode uint32, dir bool) bool {
	if c.uid == 0 {
		return true
	}
	var bits uint32
	switch {
	case uid == c.uid:
		bits = mode >> 6
	case c.inGroup(gid):
		bits = mode >> 3
	default:
		bits = mode
	}
	need := uint32(4)
	if dir {
		need |= 1
	}
	return bits&need == need
}

// checkDirAccess reports whether directories need a permission check before
// they are read: not for root, who may read them all (that saves a stat per
// directory).
func checkDirAccess() bool { return walkCreds().uid != 0 }

func (c creds) inGroup(gid uint32) bool {
	for _, g := range c.gids {
		if g == gid {
			return true
		}
	}
	return false
}

// times returns the directory's modification and change times (Unix
// nanoseconds), for a Sketch.
func (d *dirHandle) times() (mtime, ctime int64, ok bool) {
	var st unix.Stat_t
	if unix.Fstat(d.fd, &st) != nil {
		return 0, 0, false
	}
	return st.Mtim.Nano(), st.Ctim.Nano(), true
}

// timedStat is what a Sketch compares of a path: its type, size and
// modification and change times.
type timedStat struct {
	typ          fs.FileMode // type bits only; 0 for a regular file
	size         int64
	mtime, ctime int64
}

// statter lstats paths below a root for a Sketch, reusing one buffer for
// the NUL-terminated path: at 100k files a sketch's check makes 182k
// lstat calls, and building each path as a string and again as a C string
// was two allocations per call (22 MB of garbage for the collector).
// One per goroutine.
type statter struct {
	root string
	buf  []byte
	fd   int // the open anchor directory (openAnchor), -1 when none
	// stats and opens count the stats (lstat, fstatat, an anchor's fstat)
	// and the anchor opens made, for SinceCalls.
	stats, opens int
}

func newStatter(root string) *statter { return &statter{root: root, fd: -1} }

// openAnchor opens the directory rel (below the root; "" the root) for
// lstatAt and returns its times, without following a symlink at rel.
// Statting a directory's entries relative to it resolves one component
// instead of the whole path from "/": at 100k files (82k directories) that
// is a fifth of a Sketch's check, even with the open and close it costs.
// ok is false when rel cannot be opened as a directory; the caller then
// stats by path.
func (s *statter) openAnchor(rel string) (ts timedStat, ok bool) {
	s.closeAnchor()
	b := append(s.buf[:0], s.root...)
	if rel != "" {
		if !strings.HasSuffix(s.root, "/") {
			b = append(b, '/')
		}
		b = append(b, rel...)
	}
	s.buf = append(b, 0)
	s.opens++
	fd, err := openz(s.buf, anchorFlags)
	if err != nil {
		return timedStat{}, false
	}
	var st unix.Stat_t
	s.stats++
	if fstatz(fd, &st) != nil {
		closez(fd)
		return timedStat{}, false
	}
	s.fd = fd
	fst := toFileStat(&st)
	return timedStat{typ: fst.typ, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// closeAnchor closes the directory openAnchor opened, if any.
func (s *statter) closeAnchor() {
	if s.fd >= 0 {
		closez(s.fd)
		s.fd = -1
	}
}

// lstatAt lstats sub, a path relative to the open anchor directory.
func (s *statter) lstatAt(sub string) (timedStat, bool) {
	s.buf = append(append(s.buf[:0], sub...), 0)
	var st unix.Stat_t
	s.stats++
	if lstatzAt(s.fd, s.buf, &st) != nil {
		return timedStat{}, false
	}
	fst := toFileStat(&st)
	return timedStat{typ: fst.typ, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// lstat lstats joinAbs(root, rel).
func (s *statter) lstat(rel string) (timedStat, bool) {
	b := append(s.buf[:0], s.root...)
	if !strings.HasSuffix(s.root, "/") {
		b = append(b, '/')
	}
	b = append(b, rel...)
	b = append(b, 0)
	s.buf = b
	var st unix.Stat_t
	s.stats++
	if lstatz(b, &st) != nil {
		return timedStat{}, false
	}
	fst := toFileStat(&st)
	return timedStat{typ: fst.typ, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
