package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/cespare/xxhash/v2"
	"golang.org/x/sys/unix"
)

// sealName is the file in a generation folder that lists every other file
// of the generation with its size and xxhash64, written once the
// generation is complete (see "The seal" in the storage design, store.go).
const sealName = "SEAL"

// sealHeader is the first line of a seal.
const sealHeader = "wikitoolkit-seal 1"

// ErrDamaged is matched (errors.Is) by every DamagedError.
var ErrDamaged = errors.New("the index is damaged")

// DamagedError says that the live generation of an index is not the one
// its build sealed: a file is missing, shorter, longer or different, or
// the generation folder or CURRENT is gone or unreadable. The index is
// derived data: a build replaces it (Build does so by itself).
type DamagedError struct {
	Dir    string // the index directory
	Reason string // what is wrong, with the path
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the index is damaged (%s); run 'wikitoolkit build'", e.Reason)
}

// Is makes errors.Is(err, ErrDamaged) true.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

func damaged(dir, format string, a ...any) *DamagedError {
	return &DamagedError{Dir: dir, Reason: fmt.Sprintf(format, a...)}
}

// sealFile is one line of a seal.
type sealFile struct {
	name string
	size int64
	hash uint64
}

// fileID is what a stat tells about a file: a change of any part means the
// file may have been rewritten since it was verified.
type fileID struct {
	size  int64
	mtime int64
	ino   uint64
}

func statID(fi os.FileInfo) fileID {
	id := fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.ino = uint64(st.Ino)
	}
	return id
}

// writeSeal lists every regular file of the closed generation folder gd
// with its size and hash in gd/SEAL (written atomically and synced).
func writeSeal(gd, point string) error {
	ents, err := os.ReadDir(gd)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(sealHeader + "\n")
	for _, e := range ents {
		if !e.Type().IsRegular() || e.Name() == sealName || strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		size, h, err := hashFile(filepath.Join(gd, e.Name()))
		if err != nil {
			return fmt.Errorf("seal generation: %w", err)
		}
		fmt.Fprintf(&b, "%s %d %016x\n", e.Name(), size, h)
	}
	return writeFileAtomic(filepath.Join(gd, sealName), b.Bytes(), point)
}

// hashFile returns the size and xxhash64 of the file at path. Large
// files are hashed through a read-only mmap: no copy, and the pages are
// the ones Badger maps next (reading them cost twice the time).
func hashFile(path string) (int64, uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil && fi.Size() >= 64<<10 && fi.Size() < 1<<40 {
		if b, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED); err == nil {
			h, ok := hashMapped(b)
			unix.Munmap(b)
			if !ok {
				return 0, 0, fmt.Errorf("%s shrank while being read", path)
			}
			return fi.Size(), h, nil
		}
	}
	if err == nil && fi.Size() < 64<<10 {
		// A small file (the seals of a 100k-file index list hundreds):
		// read whole into a buffer of its size, not copied through 96 KiB
		// of buffers (io.CopyBuffer gives way to File.WriteTo's own).
		b := make([]byte, fi.Size()+1)
		n, err := io.ReadFull(f, b)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return 0, 0, err
		}
		if n <= int(fi.Size()) {
			return int64(n), xxhash.Sum64(b[:n]), nil
		}
		// Grew while being read: hash it as a stream.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, 0, err
		}
	}
	h := xxhash.New()
	n, err := io.CopyBuffer(h, f, make([]byte, 64<<10))
	return n, h.Sum64(), err
}

// hashMapped hashes a mapped file; a file truncated meanwhile faults
// (SIGBUS), which becomes ok == false instead of a crash.
func hashMapped(b []byte) (h uint64, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return xxhash.Sum64(b), true
}

// readSeal parses gd/SEAL.
func readSeal(dir, gd string) ([]sealFile, error) {
	rel := relIndex(dir, gd)
	b, err := os.ReadFile(filepath.Join(gd, sealName))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, serr := os.Stat(gd); serr != nil {
				return nil, damaged(dir, "CURRENT names %s, which is missing", rel)
			}
			return nil, damaged(dir, "%s has no seal: an older wikitoolkit or an unfinished copy wrote it", rel)
		}
		return nil, damaged(dir, "cannot read the seal of %s: %v", rel, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	if !sc.Scan() || sc.Text() != sealHeader {
		return nil, damaged(dir, "the seal of %s is unreadable", rel)
	}
	var out []sealFile
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			return nil, damaged(dir, "the seal of %s is unreadable", rel)
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		h, err2 := strconv.ParseUint(f[2], 16, 64)
		if err1 != nil || err2 != nil || size < 0 || strings.ContainsAny(f[0], `/\`) {
			return nil, damaged(dir, "the seal of %s is unreadable", rel)
		}
		out = append(out, sealFile{name: f[0], size: size, hash: h})
	}
	if len(out) == 0 {
		return nil, damaged(dir, "the seal of %s lists no files", rel)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// verifySeal checks every file the seal of generation folder gd lists:
// sizes first (one stat each: truncation and missing files show there),
// then the content hashes. It returns what each file looked like.
func verifySeal(dir, gd string) ([]sealFile, []fileID, error) {
	seal, err := readSeal(dir, gd)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]fileID, len(seal))
	for i, sf := range seal {
		p := filepath.Join(gd, sf.name)
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, nil, damaged(dir, "%s is missing", relIndex(dir, p))
		case err != nil:
			return nil, nil, damaged(dir, "cannot read %s: %v", relIndex(dir, p), err)
		case fi.Size() != sf.size:
			return nil, nil, damaged(dir, "%s is %d bytes, sealed at %d", relIndex(dir, p), fi.Size(), sf.size)
		}
		ids[i] = statID(fi)
	}
	for _, sf := range seal {
		p := filepath.Join(gd, sf.name)
		size, h, err := hashFile(p)
		if err != nil {
			return nil, nil, damaged(dir, "cannot read %s: %v", relIndex(dir, p), err)
		}
		if size != sf.size || h != sf.hash {
			return nil, nil, damaged(dir, "%s differs from what its build wrote", relIndex(dir, p))
		}
	}
	return seal, ids, nil
}

// relIndex names path inside the index directory dir for messages.
func relIndex(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.Join(filepath.Base(dir), r)
	}
	return path
}

// NotWritableError says that a write to the index directory failed for
// want of permission (or on a read-only file system): reading the index
// still works, building or saving notes and memories does not.
type NotWritableError struct {
	Dir string
	Err error
}

func (e *NotWritableError) Error() string {
	return fmt.Sprintf("cannot write the index in %s (%v); reading it works, but building it and saving notes or memories "+
		"need a folder you can write: fix its permissions, or pass --index DIR or set WIKITOOLKIT_INDEX=DIR to keep the index elsewhere", e.Dir, e.Err)
}

func (e *NotWritableError) Unwrap() error { return e.Err }

// NotWritable turns a permission failure of a write into the index
// directory dir into a *NotWritableError and returns other errors as they
// are.
func NotWritable(dir string, err error) error {
	var nw *NotWritableError
	if err == nil || errors.As(err, &nw) {
		return err
	}
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return &NotWritableError{Dir: dir, Err: err}
	}
	return err
}
