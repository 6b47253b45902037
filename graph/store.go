package graph

// The index on disk.
//
// An index directory (by default <root>/.wikitoolkit) holds:
//
//	.gitignore      "*" so git never sees the index
//	CURRENT         the name of the live generation ("000007"), replaced atomically (write, fsync, rename)
//	build.lock      flock(2) taken exclusively by the one build that may run at a time
//	gen/NNNNNN/     one generation: a Badger database of derived data, immutable once CURRENT names it
//	gen/NNNNNN/SEAL its seal: every other file of the generation with its size and xxhash64
//	authored/       notes and memories: a build only adds to it (package graph/annotate)
//	shared.stamp    the listing of <root>/.wiki/ at its last import
//
// A build writes generation n+1 beside the live generation n, closes it
// (Badger flushes everything), seals it, syncs its folder and gen/, and
// only then points CURRENT at it (commit; cli/crashorder_test.go stops a
// build at each of these steps). Readers
// open the generation CURRENT names read-only; Badger's read-only open takes
// a shared flock, so any number of readers coexist, and a build deletes an
// old generation only when it can take that flock exclusively. A build
// killed at any moment leaves a partial gen/ directory that CURRENT never
// names and the next build removes. Badger's WriteBatch is not atomic
// (research/dependencies.md §3) — it does not need to be here.
//
// A first build publishes partial generations as it goes (firstbuild.go):
// after each batch of one segment, a generation of the files so far, its
// BuildInfo Mode "partial" and FilesTotal the files it set out to parse,
// committed as any other, so that readers answer within a batch, flagged
// partial. A killed first build leaves the last one live; the next build
// sees it partial and builds in full again. Over a complete generation
// (`build --full`) no partial one is published.
//
// The seal. Damage happens to an index (a full disk, a copy of a
// half-written folder, a restored backup), and Badger meets a truncated or
// scribbled table with a panic on a goroutine of its own, where no recover
// reaches. So when a build has closed a generation it writes gen/NNNNNN/SEAL
// (seal.go) before CURRENT names it, and every open checks the seal first:
// each listed file must exist with its size (one stat each) and its hash
// (xxhash64 over a read-only mmap). A failure is a *DamagedError
// (errors.Is ErrDamaged): readers say "the index is damaged (…); run
// 'wikitoolkit build'" and exit 1, Build rebuilds in full by itself (and
// says why in BuildInfo.Repaired), and the MCP server answers tools with
// isError while it rebuilds in the background. A generation without a seal
// (an older wikitoolkit, or a folder copied mid-build) counts as damaged.
// Measured on moby (a 3.8 MB table plus Badger's 1 MiB sparse DISCARD):
// the check costs 0.9-1.0 ms per open, open plus first query 38.3 → 39.2 ms
// (BenchmarkOpenAndFirstQuery). Badger's own ChecksumVerificationMode was
// not chosen: it verifies a table only after reading the table's footer
// and index, which is where truncation panics, and it cannot notice a
// missing value log or generation folder. A long-running reader calls
// Snapshot.Verify before each use: stats only while nothing moved, a full
// re-check when a file's size, mtime or inode changed, so a generation
// damaged under a server is dropped before Badger reads it. Mtimes are not
// part of the seal: a copy of an intact folder (cp -r) stays valid.
//
// Writes that fail for want of permission (a read-only index, a read-only
// file system) are a *NotWritableError that says reading still works and
// names --index DIR and WIKITOOLKIT_INDEX.
//
// Keys of a generation (values are the binary encoding of codec.go; Badger's
// block compression is off, the large values are zstd-compressed by blob.go):
//
//	m/info              BuildInfo as JSON (small, read by status)
//	m/stats             every indexed file's path, size, mtime and hash (one zstd-compressed value; the no-change rebuild reads only this; m/stat, uncompressed, before format 5)
//	x/facts/<nnnnnn>    every FileRecord: parser facts without their text, stat or fingerprints, so incremental builds re-resolve without reparsing
//	x/graph/<nnnnnn>    every page and edge (graphcodec.go), zstd-compressed, in chunks of at most blobChunk bytes
//	x/text/<nnnnnn>     the page text x/graph and the ranking index share (pagetext.go), the same way
//	x/<name>/<nnnnnn>   other blobs the same way: x/engine is the ranking index
//
// Page text (signatures, docs) is stored once, in x/text and x/graph; what
// one part can derive from another is not stored twice (record.go,
// pagetext.go). Facts are one blob rather than a key per file because
// whole-blob zstd stored moby's in 0.9 MB where per-key values in Badger's
// zstd blocks took 1.5 MB (columnar, and deriving from the graph, 0.54 MB
// now), and every reader of facts (an incremental build) reads them all
// anyway.

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"golang.org/x/sys/unix"
)

// blobChunk keeps each blob value below Badger's 1 MiB value threshold so
// blobs live in the LSM tree and need no value-log GC.
const blobChunk = 512 << 10

// IndexDirName is the folder created inside a repository root.
const IndexDirName = ".wikitoolkit"

// ErrNoIndex is returned when an index directory has no live generation yet.
var ErrNoIndex = errors.New("no index")

// BuildInfo describes the build that wrote a generation.
type BuildInfo struct {
	Root           string    `json:"root"`
	Generation     int       `json:"generation"`
	Format         string    `json:"format"`
	Mode           string    `json:"mode"`
	Started        time.Time `json:"started"`
	Seconds        float64   `json:"seconds"`
	FilesParsed    int       `json:"files_parsed"`
	FilesUnchanged int       `json:"files_unchanged"`
	FilesRemoved   int       `json:"files_removed"`
	FilesSkipped   int       `json:"files_skipped"`
	FilesFailed    int       `json:"files_failed"`
	Files          int       `json:"files"`
	// FilesTotal, in a partial generation (Mode "partial": published by a
	// first build still running, or stopped), is how many files that build
	// set out to parse; Files is how many of them the generation holds.
	FilesTotal  int            `json:"files_total,omitempty"`
	SourceBytes int64          `json:"source_bytes"`
	Pages       map[string]int `json:"pages"`
	Edges       map[string]int `json:"edges"`
	Languages   map[string]int `json:"languages"`
	Diagnostics int            `json:"diagnostics"`
	// DiagnosticFiles names the files with syntax diagnostics, the first
	// of each at path:line (at most 200 files).
	DiagnosticFiles []FileDiagnostic `json:"diagnostic_files,omitempty"`
	Skipped         []walk.Skip      `json:"skipped"`
	// NotIndexed counts the files left out by extension and reason: the
	// names Detect rejects (binary by extension, license texts) and the
	// skipped files.
	NotIndexed []walk.NotIndexed `json:"not_indexed"`
	// Phases holds the seconds spent in each phase of the build (walk,
	// parse, load, resolve, rank, write), for benchmarks and --verbose.
	Phases map[string]float64 `json:"phases,omitempty"`
	Failed []walk.Skip        `json:"failed,omitempty"`
	// Warnings are problems that did not stop the build but changed what it
	// indexed, such as git missing, so that tracked files matched by ignore
	// rules were left out (walk.Result.TrackedErr).
	Warnings []string `json:"warnings,omitempty"`
	// Repaired says why the previous generation could not be read (damaged,
	// unreadable) when an incremental build therefore rebuilt in full.
	Repaired string `json:"repaired,omitempty"`
}

// FileStat is the part of a FileRecord a no-change rebuild compares.
type FileStat struct {
	Path    string
	Size    int64
	ModTime int64
	Hash    uint64
}

func badgerOptions(dir string, readOnly bool) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithMemTableSize(16 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(4).
		WithNumLevelZeroTablesStall(12).
		WithBlockCacheSize(8 << 20).
		WithIndexCacheSize(4 << 20).
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2).
		WithNumGoroutines(2).
		WithCompression(options.None).
		WithBlockSize(16 << 10).
		WithMetricsEnabled(false).
		WithDetectConflicts(false)
}

// EnsureDir creates the index directory with its .gitignore.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "gen"), 0o755); err != nil {
		return fmt.Errorf("create index directory %s: %w", dir, err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte("# wikitoolkit's index; rebuild with `wikitoolkit build`\n*\n"), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return nil
}

// CurrentGeneration returns the number CURRENT names, or ErrNoIndex.
func CurrentGeneration(dir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "CURRENT"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, ErrNoIndex
	}
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", filepath.Join(dir, "CURRENT"), err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n <= 0 {
		return 0, damaged(dir, "%s holds %q, not a generation number", relIndex(dir, filepath.Join(dir, "CURRENT")), clip(string(b), 20))
	}
	return n, nil
}

// clip cuts s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func genDir(dir string, n int) string { return filepath.Join(dir, "gen", fmt.Sprintf("%06d", n)) }

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				// Allocated blocks, not the apparent size: Badger's DISCARD
				// file is a 1 MiB sparse file.
				if st, ok := fi.Sys().(*syscall.Stat_t); ok {
					n += min(fi.Size(), st.Blocks*512)
				} else {
					n += fi.Size()
				}
			}
		}
		return nil
	})
	return n
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// WriteFileAtomic writes data to path through a synced temporary file and
// a rename: a reader sees the old content or the new, never part of it.
func WriteFileAtomic(path string, data []byte) error { return writeFileAtomic(path, data, "") }

// writeFileAtomic is WriteFileAtomic with the crash points point-tmp-written,
// point-tmp-synced, point-renamed and point-dir-synced (none when point is
// empty).
func writeFileAtomic(path string, data []byte, point string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if point != "" {
		crashPoint(point, "tmp-written")
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if point != "" {
		crashPoint(point, "tmp-synced")
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if point != "" {
		crashPoint(point, "renamed")
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return err
	}
	if point != "" {
		crashPoint(point, "dir-synced")
	}
	return nil
}

// Lock is an exclusive advisory lock on a file (flock), released by Unlock
// or by the death of the process.
type Lock struct {
	f    *os.File
	path string
}

// LockBuild takes the build lock of the index directory dir (creating the
// directory): the lock Build holds, so that one build at a time writes
// there. If another process holds it, LockBuild calls waiting (when not
// nil) once and blocks until it is free. Pass the lock to Build in
// BuildOptions.Lock to run more than the build under it; Unlock it after.
func LockBuild(dir string, waiting func()) (*Lock, error) {
	if err := EnsureDir(dir); err != nil {
		return nil, NotWritable(dir, err)
	}
	lock, err := LockFile(buildLockPath(dir), true, waiting)
	if err != nil {
		return nil, NotWritable(dir, fmt.Errorf("lock index %s: %w", dir, err))
	}
	return lock, nil
}

func buildLockPath(dir string) string { return filepath.Join(filepath.Clean(dir), "build.lock") }

// LockFile takes an exclusive lock on path, creating it. If the lock is held
// and wait is true, it calls waiting once and blocks; otherwise it fails.
func LockFile(path string, wait bool, waiting func()) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if !wait {
			f.Close()
			return nil, fmt.Errorf("%s is locked by another process", path)
		}
		if waiting != nil {
			waiting()
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return &Lock{f: f, path: path}, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() error {
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	return l.f.Close()
}
