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

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
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
	Root           string         `json:"root"`
	Generation     int            `json:"generation"`
	Format         string         `json:"format"`
	Mode           string         `json:"mode"`
	Started        time.Time      `json:"started"`
	Seconds        float64        `json:"seconds"`
	FilesParsed    int            `json:"files_parsed"`
	FilesUnchanged int            `json:"files_unchanged"`
	FilesRemoved   int            `json:"files_removed"`
	FilesSkipped   int            `json:"files_skipped"`
	FilesFailed    int            `json:"files_failed"`
	Files          int            `json:"files"`
	SourceBytes    int64          `json:"source_bytes"`
	Pages          map[string]int `json:"pages"`
	Edges          map[string]int `json:"edges"`
	Languages      map[string]int `json:"languages"`
	Diagnostics    int            `json:"diagnostics"`
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

// Snapshot is one generation opened read-only. It is safe for concurrent
// use; Close it when done (it holds a shared lock that keeps the generation
// from being deleted).
type Snapshot struct {
	Dir        string // the index directory
	Generation int
	db         *badger.DB
	info       BuildInfo

	verifyMu sync.Mutex
	seal     []sealFile // the generation's files as its build sealed them
	seen     []fileID   // their stat when last verified
	damage   *DamagedError

	graphOnce sync.Once
	graph     *Graph
	graphErr  error
	statOnce  sync.Once
	stats     []FileStat
}

// OpenSnapshot opens the live generation of the index directory dir
// read-only. It returns ErrNoIndex when nothing was built yet. A build that
// replaces CURRENT concurrently is harmless: the open retries with the new
// generation.
func OpenSnapshot(dir string) (*Snapshot, error) {
	var lastErr error
	for attempt := 0; attempt < 20; attempt++ {
		n, err := CurrentGeneration(dir)
		if err != nil {
			return nil, err
		}
		s, err := openGeneration(dir, n)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if m, _ := CurrentGeneration(dir); m == n {
			// Same generation and still failing: not a race with a build
			// (which never touches the generation CURRENT names).
			if attempt >= 3 || errors.Is(err, ErrDamaged) {
				break
			}
		}
		time.Sleep(time.Duration(attempt+1) * 10 * time.Millisecond)
	}
	if errors.Is(lastErr, ErrDamaged) {
		return nil, lastErr
	}
	return nil, fmt.Errorf("open index %s: %w (run `wikitoolkit build --full` to rebuild it)", dir, lastErr)
}

func openGeneration(dir string, n int) (*Snapshot, error) {
	gd := genDir(dir, n)
	// Badger panics on a truncated or scribbled table, on goroutines of
	// its own where no recover reaches: check the seal before it reads.
	seal, seen, err := verifySeal(dir, gd)
	if err != nil {
		return nil, err
	}
	db, err := badger.Open(badgerOptions(gd, true))
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: dir, Generation: n, db: db, seal: seal, seen: seen}
	b, err := s.get("m/info")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("generation %d has no build info: %w", n, err)
	}
	if err := json.Unmarshal(b, &s.info); err != nil {
		db.Close()
		return nil, fmt.Errorf("generation %d: %w", n, err)
	}
	s.info = overlayLastBuild(dir, n, s.info)
	return s, nil
}

// Close releases the snapshot.
func (s *Snapshot) Close() error { return s.db.Close() }

// Info returns the build info of the generation.
func (s *Snapshot) Info() BuildInfo { return s.info }

func (s *Snapshot) get(key string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(txn *badger.Txn) error {
		it, err := txn.Get([]byte(key))
		if err != nil {
			return err
		}
		out, err = it.ValueCopy(nil)
		return err
	})
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	return out, err
}

// Graph decodes the generation's graph on first use and returns it; later
// calls share it.
func (s *Snapshot) Graph() (*Graph, error) {
	s.graphOnce.Do(func() { s.graph, s.graphErr = s.readGraph() })
	return s.graph, s.graphErr
}

// readGraph decodes the graph without keeping it: a build reads the
// previous generation's pages once, and a 50k-file graph is 300 MB.
func (s *Snapshot) readGraph() (*Graph, error) {
	b, err := s.Blob(graphBlob)
	if err != nil {
		return nil, fmt.Errorf("read graph: %w (run `wikitoolkit build --full`)", err)
	}
	if err := checkGraphFormat(b); err != nil {
		return nil, err
	}
	text, err := s.Blob(TextBlob)
	if err != nil {
		// Not ErrNotFound: that would read as "no such page".
		return nil, fmt.Errorf("read page text: %v (run `wikitoolkit build --full`)", err)
	}
	return decodeGraph(b, text)
}

// Page returns the page with the given ID and its neighbours, or ErrNotFound.
func (s *Snapshot) Page(id string) (*PageRecord, error) {
	g, err := s.Graph()
	if err != nil {
		return nil, err
	}
	i, ok := g.Lookup(id)
	if !ok {
		return nil, ErrNotFound
	}
	return g.Record(i), nil
}

// Names of the blobs Build writes itself (x/NAME, see the keys above).
const (
	factsBlob = "facts"
	graphBlob = "graph"
	// TextBlob holds the page records the graph and the ranking index share.
	TextBlob = "text"
)

// Blob returns the blob stored under name, or ErrNotFound.
func (s *Snapshot) Blob(name string) ([]byte, error) {
	var buf bytes.Buffer
	prefix := []byte("x/" + name + "/")
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
		defer it.Close()
		// Size the buffer first (keys only): growing it chunk by chunk
		// copied a large blob about twice over.
		size := 0
		for it.Rewind(); it.Valid(); it.Next() {
			size += int(it.Item().ValueSize())
		}
		buf.Grow(size)
		for it.Rewind(); it.Valid(); it.Next() {
			if err := it.Item().Value(func(v []byte) error { buf.Write(v); return nil }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if buf.Len() == 0 {
		return nil, ErrNotFound
	}
	b, err := decompress(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", name, err)
	}
	return b, nil
}

// Stats returns the stat of every indexed file, sorted by path.
func (s *Snapshot) Stats() ([]FileStat, error) {
	b, err := s.get("m/stats")
	switch {
	case errors.Is(err, ErrNotFound):
		// Written before m/stats: uncompressed, so that status still
		// reads an index it asks to rebuild.
		if b, err = s.get("m/stat"); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if b, err = decompress(b); err != nil {
			return nil, fmt.Errorf("m/stats: %w", err)
		}
	}
	d := dec{b: b}
	n := d.count()
	out := make([]FileStat, n)
	prev := ""
	for i := range out {
		// Paths are front-coded: shared prefix length with the previous path, then the rest.
		common := int(d.uint())
		if common > len(prev) {
			d.fail()
			break
		}
		p := prev[:common] + d.str()
		out[i] = FileStat{Path: p, Size: int64(d.int()), ModTime: int64(d.int()), Hash: d.uint()}
		prev = p
	}
	return out, d.err
}

// FileStat returns the stat recorded for path at build time.
func (s *Snapshot) FileStat(path string) (FileStat, bool) {
	s.statOnce.Do(func() { s.stats, _ = s.Stats() })
	i, ok := sort.Find(len(s.stats), func(i int) int { return strings.Compare(path, s.stats[i].Path) })
	if !ok {
		return FileStat{}, false
	}
	return s.stats[i], true
}

// EachFileRecord calls fn for every stored file record in path order, with
// its stat from m/stats (records and stats are both in path order). g is
// the generation's graph, which holds most of the definitions' fields.
func (s *Snapshot) EachFileRecord(g *Graph, fn func(*FileRecord) error) error {
	b, err := s.Blob(factsBlob)
	if err != nil {
		return err
	}
	stats, err := s.Stats()
	if err != nil {
		return err
	}
	return decodeFactsBlob(b, stats, g, func(rec *FileRecord) error {
		st := stats[0]
		stats = stats[1:]
		rec.Size, rec.ModTime, rec.Hash = st.Size, st.ModTime, st.Hash
		return fn(rec)
	})
}

// PartSizes returns the stored (compressed) bytes of each blob of the
// generation by name ("engine", "graph", "facts", ...) and of its other
// keys under "meta": where an index's bytes go.
func (s *Snapshot) PartSizes() map[string]int64 {
	out := map[string]int64{}
	_ = s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := string(it.Item().Key())
			name := "meta"
			if rest, ok := strings.CutPrefix(k, "x/"); ok {
				name, _, _ = strings.Cut(rest, "/")
				name, _, _ = strings.Cut(name, ".") // the chunks of a blob stored in parts ("names.0003")
			}
			out[name] += it.Item().ValueSize() + int64(len(k))
		}
		return nil
	})
	return out
}

// SizeBytes returns the bytes on disk of the live generation.
func (s *Snapshot) SizeBytes() int64 { return dirSize(genDir(s.Dir, s.Generation)) }

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

// genWriter writes a new generation.
type genWriter struct {
	dir string
	n   int
	db  *badger.DB
	wb  *badger.WriteBatch
}

func newGenWriter(dir string, n int) (*genWriter, error) {
	gd := genDir(dir, n)
	if err := os.RemoveAll(gd); err != nil {
		return nil, err
	}
	opt := badgerOptions(gd, false).WithMemTableSize(32 << 20).WithSyncWrites(false)
	db, err := badger.Open(opt)
	if err != nil {
		return nil, fmt.Errorf("create generation %s: %w", gd, err)
	}
	return &genWriter{dir: dir, n: n, db: db, wb: db.NewWriteBatch()}, nil
}

func (w *genWriter) set(key string, val []byte) error { return w.wb.Set([]byte(key), val) }

// setCompressedBlob stores b, already compressed, in chunks.
func (w *genWriter) setCompressedBlob(name string, b []byte) error {
	for i := 0; len(b) > 0 || i == 0; i++ {
		n := min(len(b), blobChunk)
		if err := w.set(fmt.Sprintf("x/%s/%06d", name, i), b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func (w *genWriter) setStats(stats []FileStat) error {
	e := enc{b: make([]byte, 0, 64*len(stats))}
	e.uint(uint64(len(stats)))
	prev := ""
	for _, st := range stats {
		common := 0
		for common < len(prev) && common < len(st.Path) && prev[common] == st.Path[common] {
			common++
		}
		e.uint(uint64(common))
		e.str(st.Path[common:])
		e.int(int(st.Size))
		e.int(int(st.ModTime))
		e.uint(st.Hash)
		prev = st.Path
	}
	return w.set("m/stats", compress(e.b))
}

// commit flushes and closes the generation, seals it, and only when the
// generation, its seal and its folder entry are synced makes it live. The
// crash points (crashpoint.go) mark each step; cli/crashorder_test.go
// stops a build at each and fails if CURRENT switches before the syncs.
func (w *genWriter) commit() error {
	if err := w.wb.Flush(); err != nil {
		w.db.Close()
		return fmt.Errorf("write generation: %w", err)
	}
	crashPoint("gen", "written")
	if err := w.db.Sync(); err != nil {
		w.db.Close()
		return err
	}
	crashPoint("gen", "synced")
	if err := w.db.Close(); err != nil {
		return fmt.Errorf("close generation: %w", err)
	}
	crashPoint("gen", "closed")
	if err := writeSeal(genDir(w.dir, w.n)); err != nil {
		return err
	}
	if err := syncDir(filepath.Join(w.dir, "gen")); err != nil {
		return err
	}
	crashPoint("gen", "dir-synced")
	return writeFileAtomic(filepath.Join(w.dir, "CURRENT"), []byte(strconv.Itoa(w.n)+"\n"), "current")
}

// abort drops a generation that will never be made live.
func (w *genWriter) abort() {
	w.wb.Cancel()
	w.db.Close()
	os.RemoveAll(genDir(w.dir, w.n))
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

// generations lists the generation numbers present under dir/gen.
func generations(dir string) []int {
	ents, _ := os.ReadDir(filepath.Join(dir, "gen"))
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// removeStale deletes every generation but keep that no process holds open,
// and leftovers of killed builds (partial generations, CURRENT's temporary
// files). A generation still open read-only by a server stays until a
// later build finds it free.
func removeStale(dir string, keep int) {
	if tmps, err := filepath.Glob(filepath.Join(dir, ".tmp-CURRENT-*")); err == nil {
		for _, p := range tmps {
			os.Remove(p) // only builds write CURRENT, and this one holds the build lock
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "gen"))
	for _, e := range ents {
		name := e.Name()
		if name == fmt.Sprintf("%06d", keep) {
			continue
		}
		path := filepath.Join(dir, "gen", name)
		if strings.HasPrefix(name, "trash-") {
			os.RemoveAll(path)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
			f.Close() // a reader holds it
			continue
		}
		trash := filepath.Join(dir, "gen", "trash-"+name)
		if os.Rename(path, trash) == nil {
			os.RemoveAll(trash)
		}
		f.Close()
	}
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

// PageIDs returns up to limit page IDs starting with prefix, sorted.
func (s *Snapshot) PageIDs(prefix string, limit int) []string {
	g, err := s.Graph()
	if err != nil {
		return nil
	}
	var out []string
	for i := range g.Pages {
		if strings.HasPrefix(g.Pages[i].ID, prefix) {
			out = append(out, g.Pages[i].ID)
		}
	}
	sort.Strings(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
