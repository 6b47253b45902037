//go:build !unix

package walk

import (
	"io/fs"
	"os"
	"path/filepath"
)

// pathMax is a conservative bound for systems without PATH_MAX in x/sys/unix.
const pathMax = 32767

// dirHandle is an open directory; without openat, entries are stat'ed by path.
type dirHandle struct {
	f   *os.File
	abs string
}

func openDir(abs string) (*dirHandle, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, abs: abs}, nil
}

func (d *dirHandle) close() { d.f.Close() }

func (d *dirHandle) lstatAt(name string) (fileStat, error) {
	fi, err := os.Lstat(filepath.Join(d.abs, name))
	if err != nil {
		return fileStat{}, err
	}
	return infoStat(fi), nil
}

// checkDirAccess is false: opening the directory reports the error.
func checkDirAccess() bool { return false }

func statPath(path string) (fileStat, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStat{}, err
	}
	return infoStat(fi), nil
}

func infoStat(fi fs.FileInfo) fileStat {
	return fileStat{typ: fi.Mode().Type(), size: fi.Size(), mtime: fi.ModTime().UnixNano(), readable: true}
}

// times returns the directory's modification time twice (no change time
// here), for a Sketch.
func (d *dirHandle) times() (mtime, ctime int64, ok bool) {
	fi, err := d.f.Stat()
	if err != nil {
		return 0, 0, false
	}
	return fi.ModTime().UnixNano(), fi.ModTime().UnixNano(), true
}

// timedStat is what a Sketch compares of a path.
type timedStat struct {
	typ          fs.FileMode
	size         int64
	mtime, ctime int64
}

// lstatTimes lstats path.
func lstatTimes(path string) (timedStat, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return timedStat{}, false
	}
	return timedStat{typ: fi.Mode().Type(), size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: fi.ModTime().UnixNano()}, true
}

// statter lstats paths below a root for a Sketch.
type statter struct {
	root         string
	stats, opens int // for SinceCalls
}

func newStatter(root string) *statter { return &statter{root: root} }

// lstat is lstatTimes(joinAbs(root, rel)).
func (s *statter) lstat(rel string) (timedStat, bool) {
	s.stats++
	return lstatTimes(joinAbs(s.root, rel))
}

// openAnchor is never able to anchor here: the caller stats by path.
func (s *statter) openAnchor(rel string) (timedStat, bool) { return timedStat{}, false }

func (s *statter) closeAnchor() {}

func (s *statter) lstatAt(sub string) (timedStat, bool) { return timedStat{}, false }
