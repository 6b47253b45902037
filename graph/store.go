package graph

// The index on disk: generations of immutable segments.
//
// An index directory (by default <root>/.wikitoolkit) holds:
//
//	.gitignore        "*" so git never sees the index
//	CURRENT           the number of the live generation ("7"), replaced atomically (write, fsync, rename)
//	build.lock        flock(2) taken exclusively by the one build that may run at a time
//	gen/NNNNNN/       a generation: MANIFEST (JSON: the build's info and the segments it is made of,
//	                  each with its tombstones) and SEAL; small, written whole by every build
//	seg/NNNNNN/       a segment: a Badger database of the derived data of a set of files (or of the
//	                  module pages of a range of directories), immutable once written, with its own
//	                  SEAL (segment.go lists its keys) and FILTER, a Bloom filter of its name keys beside the seal (segfilter.go), a cache
//	authored/         notes and memories: a build only adds to it (package graph/annotate)
//	shared.stamp      the listing of <root>/.wiki/ at its last import
//	walk-sketch       the directories of the tree with their times (walksketch.go), a cache
//	walk-sketch.gen   the generation the sketch describes and its hash (rewritten alone when no directory moved)
//	stat-table        the stats of the live generation's files (stattable.go), a cache
//	seal-verified     how the sealed segment files looked when last found whole (sealcache.go), a cache
//
// Why segments (issue #13). Derived data is owned by the file it comes
// from — a file's piece: its pages, the edges leaving them (targets by page
// ID), its record — so an update need rewrite only the pieces that change.
// A full build cuts the files, in path order, into segments of at most
// segMaxFiles files or segMaxBytes of source, cut where the directory
// changes (publish.go). An incremental build (incremental.go) parses the
// changed files, finds the files whose pieces the change can alter (the
// rule is at the top of depend.go) through each segment's reverse keys
// (r/NAME: files whose references look NAME up; i/KEY: files whose imports
// ask KEY), re-resolves them against a World served by the segments'
// name keys (n/NAME; segworld.go), and writes the pieces that changed as
// one small delta segment; their old copies, and removed files, become
// tombstones in the new manifest (manifestSeg.Dead). What the build needs
// of a stored file without decoding its segment is its summary (d/PATH:
// counts and definitions). The generation's counts are the previous ones
// moved by the summaries; the module pages of the directories the change
// can alter are patched from the doc candidates the modules segments keep,
// and only the modules segments (shards of ModuleShardPages directories,
// modshard.go) holding them are rewritten. More than maxDeltas small segments,
// or a segment with more dead files than live ones, are merged into the
// new segment by the build that crosses the limit. On moby an edit reads a
// few hundred keys and writes one segment of tens of KB, where it read and
// rewrote the whole 4 MB index before.
//
// What a build without a watcher pays before it knows what changed (the
// fixed cost of an edit): the seals of the live generation (a stat and a
// hash of each segment file), the stat table (one read, no segment
// opened), the walk's sketch, and a stat of every directory and indexed
// file on two goroutines — at 100k files 182k lstat calls, about 2 µs of
// kernel time each on the machine measured, which is the floor without a
// watcher. A build that finds nothing changed opens no segment database.
// One that does opens only the segments whose name filters (segfilter.go)
// may hold a key it asks, and a changed file whose definitions,
// references (but for their lines) and imports read as its stored copy's
// keeps its stored edges unresolved (reuseEdges): a line edit at 100k
// files opens 2 segments of 70, where it opened them all. A function
// added still resolves the file against every segment defining a name it
// uses (28 of 70 there: the synthetic files share Count, Err, New), four
// at once, as Badger syncs a segment's folder on every open and close,
// read-only too (closeSegments). The stat walk's system calls are then
// about 70 % of a line edit's CPU at 100k files (session 11: 370 ms CPU of
// which ~250 in the kernel); the rest is the stat table read and written
// again, the plan of the walk (planAnchors) and the delta's write. The
// CLI's build runs such an edit without the garbage collector
// (BuildOptions.PauseGC), and the sketch file stands when no directory
// moved (walksketch.go: only its tag is written).
//
// Readers never see a segment's numbering: Snapshot.Graph assembles the
// live pieces in a full build's order (modules, then files by path); a
// page view (view.go: page, related, a page reference, the notes'
// placement) assembles the same way only the pieces one page touches,
// found through the segments' name filters, and answers as the whole
// graph does (TestNeighbourhoodEqualsGraph, TestPageViewsAfterEdits); and
// the ranking data of every segment opens as one engine index whose
// statistics are summed over live pages (engine/segment.go), so answers do
// not depend on how files fell into segments (engine/wiki
// TestIncrementalEqualsFull compares them with a full build's after random
// edits, additions, removals and renames, and the build info's counts).
//
// Publishing. A build writes and closes each new segment, seals it and
// syncs seg/ (segWriter.commit), then writes the manifest and the
// generation's seal, syncs gen/, and only then points CURRENT at the new
// generation (commitGeneration; cli/crashorder_test.go stops a build at
// each of these steps). Readers open the generation CURRENT names: its
// manifest once, and each segment read-only; Badger's read-only open takes
// a shared flock, so any number of readers coexist, and a build deletes a
// segment no live manifest names only when it can take that flock
// exclusively. Within one process, a generation shares the segment
// databases another open generation holds (openSegs, ref-counted: the
// last Close closes them), so a server switching to an edit's generation
// opens only its new segments; the ranking index does the same with its
// decoded data (engine.SegmentData.Key). A build killed at any moment
// leaves segments and a partial generation that CURRENT never names and
// the next build removes.
// A segment's keys go in through Badger's StreamWriter (segment.go,
// commit), straight into its one table; like a WriteBatch it is not
// atomic (research/dependencies.md §3), and it does not need to be here.
//
// Versions. Every manifest names the format its generation was written
// in (BuildInfo.Format: graph FormatVersion, then the ranking data's).
// A reader opens only its own graph format (openGeneration:
// ErrOtherVersion, telling the user to run a build), since the name keys
// of another version may decode into other names; a build that finds
// another format builds in full (buildFrom), and a server rebuilds it in
// the background as it does a damaged index.
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
// reaches. So every segment and every generation folder carries a SEAL
// (seal.go) written before CURRENT can name it, and every open checks the
// seals first: each listed file must exist with its size (one stat each)
// and its hash (xxhash64 over a read-only mmap), unless the file looks as
// when an open last found it whole, change time included (sealcache.go:
// a write moves the change time; hashing 82 MB of segments cost every
// edit at 100k files 35 ms). A failure is a
// *DamagedError (errors.Is ErrDamaged): readers say "the index is damaged
// (…); run 'wikitoolkit build'" and exit 1, Build rebuilds in full by
// itself (and says why in BuildInfo.Repaired), and the MCP server answers
// tools with isError while it rebuilds in the background. A segment
// without a seal counts as damaged. Badger's own ChecksumVerificationMode
// was not chosen: it verifies a table only after reading the table's
// footer and index, which is where truncation panics, and it cannot
// notice a missing value log or folder. A long-running reader calls
// Snapshot.Verify before each use: stats only while nothing moved, a full
// re-check when a file's size, mtime or inode changed. Mtimes are not part
// of the seal: a copy of an intact folder (cp -r) stays valid.
//
// Writes that fail for want of permission (a read-only index, a read-only
// file system) are a *NotWritableError that says reading still works and
// names --index DIR and WIKITOOLKIT_INDEX.

import (
	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"sync/atomic"

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

// blobChunk is the size of the values a blob is cut into: each goes to its
// segment's value log (segValueThreshold), written once and never
// garbage-collected (a segment is immutable).
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
	// parse, load, resolve, rank, write; an incremental build also open,
	// stats and sketch before its walk, publish and stattable after its
	// write), for benchmarks and --verbose.
	Phases map[string]float64 `json:"phases,omitempty"`
	// DirsRead is how many directories the build's walk read: all of the
	// tree's, or with BuildOptions.Changed those at or below the paths.
	DirsRead int         `json:"dirs_read,omitempty"`
	Failed   []walk.Skip `json:"failed,omitempty"`
	// Warnings are problems that did not stop the build but changed what it
	// indexed, such as git missing, so that tracked files matched by ignore
	// rules were left out (walk.Result.TrackedErr).
	Warnings []string `json:"warnings,omitempty"`
	// Repaired says why the previous generation could not be read (damaged,
	// unreadable) when an incremental build therefore rebuilt in full.
	Repaired string `json:"repaired,omitempty"`
	// Walked is what the build's walk read: "tree" (the whole tree, or
	// what the walk sketch named), or "changed" (just BuildOptions.Changed:
	// walk.WalkPaths). Not stored in the generation.
	Walked string `json:"-"`
	// Unwalked are the paths of BuildOptions.Changed that exist but that
	// the walk lists nothing at or below, with why (walk.Result.Unwalked):
	// ignored, omitted, not indexed or below a vendored or ignored
	// directory. Not stored in the generation.
	Unwalked []walk.Skip `json:"-"`
	// Links are the symbolic links the build's walk met (walk.Result.
	// Links: of the whole tree, or at or below the paths it walked), and
	// DirLink says one of them leads to a directory. A change of a link's
	// target makes no event at the link: engine/wiki's journal has a
	// build look at each file link again every time, and gives up on a
	// tree with a directory link.
	Links   []string `json:"-"`
	DirLink bool     `json:"-"`
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

// writeCacheFile writes a cache file of the index folder (the stat table,
// the walk sketch, the seal-check cache, the last build's info) through a
// temporary file of its own and a rename, without fsync: readers see the
// old content or the new, and a cache lost to a crash is rebuilt. Best
// effort: an error leaves the old file (or none) and no temporary behind.
func writeCacheFile(path string, data []byte) {
	cacheBytesWritten.Add(int64(len(data)))
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// cacheBytesWritten counts the bytes of cache files written
// (CacheBytesWritten).
var cacheBytesWritten atomic.Int64

// CacheBytesWritten returns how many bytes of the index folder's cache
// files (the stat table and its delta, the walk's sketch and its tag, the
// last build's record) this process wrote; for tests.
func CacheBytesWritten() int64 { return cacheBytesWritten.Load() }

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
