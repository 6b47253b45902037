package graph

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
)

// Segments (the design is written out at the top of store.go).
//
// A segment is an immutable Badger database under seg/NNNNNN holding the
// derived data of a set of files (a "files" segment) or of the
// repository's directories (the "modules" segment). Keys:
//
//	m/seg               segInfo as JSON
//	m/stats             the stat of each of its files (path order)
//	x/facts/<nnnnnn>    its files' FileRecords (record.go), decoded against x/graph
//	x/graph/<nnnnnn>    its pages and the edges among them (graphcodec.go)
//	x/ext/<nnnnnn>      its edges to or from pages of other segments, by page ID (extEdge)
//	x/text/<nnnnnn>     its page text (pagetext.go), shared with the ranking data
//	x/<name>/<nnnnnn>   other blobs (the ranking data: x/engine, x/names...)
//	d/<path>            a file's summary (fileSummary)
//	n/<name>            the symbol definitions named name among its pages (setNames)
//	r/<name>            the files whose references look a name up (reverse index)
//
// A segment's files' pages come in path order, each file page followed by
// its definitions' pages (what restoreText and the facts codec rely on).
// Values from segValueThreshold up (the blobs' chunks, compressed
// already, and a few long n/ lists) are in its value log, stored as they
// are; the others in its one table, compressed in blocks.

// segInfo describes a segment (m/seg).
type segInfo struct {
	ID    int    `json:"id"`
	Kind  string `json:"kind"` // segFiles or segModules
	Files int    `json:"files"`
	Pages int    `json:"pages"`
	Bytes int64  `json:"source_bytes"`
	// Langs numbers the languages the n/ keys name.
	Langs []string `json:"langs,omitempty"`
}

const (
	segFiles   = "files"
	segModules = "modules"
)

func segDir(dir string, id int) string { return filepath.Join(dir, "seg", fmt.Sprintf("%06d", id)) }

// segWriter writes one new segment. It gathers the keys in memory and
// opens the Badger database only to commit them, sorted, into one table
// sized to them (segWriterOptions, commit): a segment is written once, by
// one batch.
type segWriter struct {
	dir   string // the index directory
	id    int
	small bool
	// fast marks a delta of a few files (an incremental build's): its
	// blobs use the fast encoder (smallEncoder) and its table is not
	// compressed, so that an edit neither sets up zstd's better level nor
	// decompresses blocks for the few keys it reads back. Its bytes are
	// few and merged away; the full build's segments, the index's size,
	// are not fast.
	fast  bool
	kvs   []segKV
	chunk int
	bytes int64 // value bytes written
}

type segKV struct {
	key string
	val []byte
}

// newSegWriter creates segment id's folder. small marks a segment of a
// few files (a delta): its blobs are cut in smaller chunks.
func newSegWriter(dir string, id int, small bool) (*segWriter, error) {
	sd := segDir(dir, id)
	if err := os.RemoveAll(sd); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(sd, 0o755); err != nil {
		return nil, err
	}
	chunk := blobChunk
	if small {
		chunk = 128 << 10
	}
	return &segWriter{dir: dir, id: id, small: small, chunk: chunk}, nil
}

// partsKey holds the stored bytes of the segment's keys and values by
// part (partOf), as JSON: what `status` shows of an index's size, read
// without iterating every key of every segment (100k files: 1.3 s).
const partsKey = "m/parts"

// partOf is the part a key's bytes count in: a blob's name ("engine",
// "graph", "facts", ... of x/NAME/..., a blob stored in chunks "names.0003"
// counting as "names"), "names-by-key" for the n/ and r/ keys, "meta" for
// the others.
func partOf(k string) string {
	switch {
	case strings.HasPrefix(k, "x/"):
		name, _, _ := strings.Cut(k[2:], "/")
		name, _, _ = strings.Cut(name, ".")
		return name
	case strings.HasPrefix(k, "n/"), strings.HasPrefix(k, "r/"):
		return "names-by-key"
	}
	return "meta"
}

// setParts adds the parts key (partsKey) to the writer's keys, in place of
// one copied from another segment: its own bytes count in "meta".
func (w *segWriter) setParts() {
	parts := map[string]int64{}
	kept := w.kvs[:0]
	for _, kv := range w.kvs {
		if kv.key == partsKey {
			continue
		}
		parts[partOf(kv.key)] += int64(len(kv.key) + len(kv.val))
		kept = append(kept, kv)
	}
	meta := parts["meta"]
	var js []byte
	for own := 0; ; {
		parts["meta"] = meta + int64(len(partsKey)+own)
		js, _ = json.Marshal(parts)
		if len(js) == own {
			break
		}
		own = len(js)
	}
	w.kvs = append(kept, segKV{partsKey, js})
	w.bytes += int64(len(partsKey) + len(js))
}

// segValueThreshold is the size from which a segment's values go to its
// value log rather than into its table: the blobs' chunks (compressed
// already) and the few large values, stored as they are, where in the
// table Badger compressed them again with its blocks on write (100k
// files: 1.9 CPU-s of zstd) and decompressed them on every read (moby: a
// CLI query, which opens the index and loads its ranking data, 101 → 88
// ms). Names and the other small values stay in the table, whose blocks
// compress them well together: the long n/ lists of common names compress
// tenfold, and at 16 KB moby's index grew by 1 % (66 KB of such lists
// went to the log), at 32 KB the synthetic 100k-file tree's by 3.7 %
// (3.5 MB); neither has a value besides the blobs' of 64 KB or more.
const segValueThreshold = 128 << 10

// segWriterOptions are the Badger options of a segment whose values under
// segValueThreshold, with their keys, make tableBytes and the others
// logBytes, written by a StreamWriter (commit). Segments compress their
// table in blocks with zstd at level 3 (moby: 43 KB, 2.2 %, smaller than
// level 1, for 5 ms more of CPU over its 2.8 MB of table data); the value
// log is raw. No log is ever garbage-
// collected: a segment is never written again. The memtable is never
// written either: its size only has to admit the threshold (Badger takes
// 15 % of it for the largest batch), and it is small because Badger
// creates its log file at twice its size and the first write of a new
// mapped file costs with the file's size (Linux 6.18, ext4: 5 ms for
// 8 MB, 0.8 ms for 2 MB, 0.1 ms for 256 KB). The block cache, which
// compression requires, is never read by a writer.
func segWriterOptions(sd string, tableBytes, logBytes int64) badger.Options {
	mem := int64(segValueThreshold)*100/15 + 1
	mem = (mem + 64<<10 - 1) &^ (64<<10 - 1)
	// The StreamWriter writes at the last level, whose tables are
	// BaseTableSize << 5 (MaxLevels 7): one holds the segment's table
	// whole, with room for the table's own index. Its builder allocates
	// twice a table's size up front: Badger's default (64 MB tables)
	// allocated 128 MB for every segment, which the collector counted and
	// the memory limit of a full build's tail (paceTail) answered with
	// collections.
	table := ((tableBytes+tableBytes/8+256<<10)>>5 + 4<<10 - 1) &^ (4<<10 - 1)
	// One value log file holds the large values (Badger starts another
	// past ValueLogFileSize, at least 1 MB).
	vlog := max(1<<20, (logBytes+logBytes/16+64<<10+1<<20-1)&^(1<<20-1))
	return badgerOptions(sd, false).WithSyncWrites(false).
		WithCompression(options.ZSTD).WithZSTDCompressionLevel(3).
		WithMemTableSize(mem).WithNumMemtables(1).WithValueLogFileSize(vlog).
		WithValueThreshold(segValueThreshold).WithNumGoroutines(1).
		WithBaseTableSize(table).
		WithBlockCacheSize(1 << 20).WithIndexCacheSize(0).WithBloomFalsePositive(0)
}

func (w *segWriter) set(key string, val []byte) error {
	w.bytes += int64(len(key) + len(val))
	w.kvs = append(w.kvs, segKV{key, val})
	return nil
}

// setCompressedBlob stores b, already compressed, in chunks.
func (w *segWriter) setCompressedBlob(name string, b []byte) error {
	for i := 0; len(b) > 0 || i == 0; i++ {
		n := min(len(b), w.chunk)
		if err := w.set(fmt.Sprintf("x/%s/%06d", name, i), b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func (w *segWriter) setStats(stats []FileStat) error {
	return w.set("m/stats", compressFor(encodeStats(stats), w.fast))
}

// commit writes the keys, syncs and closes the segment and seals it; the
// segment is durable (its folder entry synced) when commit returns, and
// immutable from then on. Crash points: seg-written, seg-synced,
// seg-closed, the segseal-* steps, seg-dir-synced.
//
// The keys go in sorted, through Badger's StreamWriter, straight into the
// segment's table: a WriteBatch wrote each byte twice (the memtable's
// write-ahead log, synced, then the table the memtable flushed to at
// close) and built a skiplist on the way: a full build of moby wrote
// 15 MB to the disk for an index of 6.6 MB, now 7 MB; at 100k files its
// profile spent 1.75 CPU-s in the log's msync and 2.4 in memtable puts
// (TestSegmentWritesItsBytesOnce: 11.6 MB written for a segment of 4.6,
// now 4.7).
func (w *segWriter) commit() error {
	w.setParts()
	sd := segDir(w.dir, w.id)
	var tableBytes, logBytes int64
	for _, kv := range w.kvs {
		if len(kv.val) >= segValueThreshold {
			logBytes += int64(len(kv.key) + len(kv.val))
		} else {
			tableBytes += int64(len(kv.key) + len(kv.val))
		}
	}
	opts := segWriterOptions(sd, tableBytes, logBytes)
	if w.fast {
		opts = opts.WithCompression(options.None)
	}
	db, err := badger.Open(opts)
	if err != nil {
		return fmt.Errorf("create segment %s: %w", sd, err)
	}
	filter := filterOfKVs(w.kvs)
	kvs := sortedKVs(w.kvs)
	w.kvs = nil
	if err := streamKVs(db, kvs, w.bytes); err != nil {
		db.Close()
		return fmt.Errorf("write segment: %w", err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close segment: %w", err)
	}
	// Badger's DISCARD file (value-log GC statistics, a 1 MiB sparse file)
	// means nothing to a segment no one writes again, and read-only opens
	// do without it: 1 MiB less per segment for du and backups.
	if err := os.Remove(filepath.Join(sd, "DISCARD")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	crashPoint("seg", "closed")
	if err := writeSeal(sd, "segseal"); err != nil {
		return err
	}
	if err := syncDir(filepath.Join(w.dir, "seg")); err != nil {
		return err
	}
	crashPoint("seg", "dir-synced")
	// The name filter, a cache beside the sealed files (segfilter.go).
	if seal, err := readSeal(w.dir, sd); err == nil {
		saveFilter(sd, seal, filter)
	}
	return nil
}

// sortedKVs sorts kvs by key, the last of equal keys kept (what a
// WriteBatch of them in order would leave). The pairs are not moved while
// sorting: their positions are, by key and then position (so equal keys
// keep their order), and the pairs then follow their positions' cycles,
// each moved once, for 4 bytes a pair. At 100k synthetic files this sort
// cost 0.22 CPU-seconds of a full build, sort.SliceStable of the pairs
// 0.76 (one profile each).
func sortedKVs(kvs []segKV) []segKV {
	perm := make([]int32, len(kvs))
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(x, y int32) int {
		if c := strings.Compare(kvs[x].key, kvs[y].key); c != 0 {
			return c
		}
		return int(x - y)
	})
	// kvs[i] becomes the pair at perm[i]; a visited entry is set to -1.
	for i := range perm {
		if perm[i] < 0 || int(perm[i]) == i {
			continue
		}
		first := kvs[i]
		j := i
		for {
			k := int(perm[j])
			perm[j] = -1
			if k == i {
				kvs[j] = first
				break
			}
			kvs[j] = kvs[k]
			j = k
		}
	}
	out := kvs[:0]
	for i, kv := range kvs {
		if i+1 < len(kvs) && kvs[i+1].key == kv.key {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// streamBatch is how many bytes of keys and values streamKVs hands the
// StreamWriter at once (it copies them; the table it builds holds them
// until it is written).
const streamBatch = 4 << 20

// streamKVs writes kvs, sorted and unique, of about bytes bytes, into db,
// a new and empty database, as one stream: the table is written and
// synced, the manifest and the folder synced (StreamWriter.Flush); the
// value log is synced when db closes. PrepareIncremental, on an empty
// database, writes at the last level as Prepare does, without Prepare's
// DropAll, which made a second memtable and value log for nothing.
func streamKVs(db *badger.DB, kvs []segKV, bytes int64) error {
	sw := db.NewStreamWriter()
	if err := sw.PrepareIncremental(); err != nil {
		return err
	}
	buf := z.NewBuffer(int(min(streamBatch, bytes+int64(len(kvs))*16)+64<<10), "segment")
	defer buf.Release()
	var kv pb.KV
	kv.Version = 1
	for i, e := range kvs {
		kv.Key, kv.Value = unsafe.Slice(unsafe.StringData(e.key), len(e.key)), e.val
		badger.KVToBuffer(&kv, buf)
		if buf.LenNoPadding() >= streamBatch || i == len(kvs)-1 {
			if err := sw.Write(buf); err != nil {
				sw.Cancel()
				return err
			}
			buf.Reset()
		}
	}
	crashPoint("seg", "written")
	if err := sw.Flush(); err != nil {
		return err
	}
	crashPoint("seg", "synced")
	return nil
}

// abort drops a segment that will never be used.
func (w *segWriter) abort() {
	w.kvs = nil
	os.RemoveAll(segDir(w.dir, w.id))
}

// segment is one segment opened read-only, as one generation sees it.
type segment struct {
	// openSeg is the open database, shared by every generation of the
	// process that names the same stored segment (openSegs).
	*openSeg
	dead     map[string]bool // its files a newer segment replaced, or removed
	deadList []string        // the same, sorted (the manifest's)
	seen     []fileID        // how its sealed files looked when last verified (Snapshot.Verify)
}

// openSeg is an open segment database and what it holds, shared.
type openSeg struct {
	id   int
	dir  string // its folder
	key  string // dir and its seal (sealKey), the key in openSegs
	refs int    // the segments using it, under openSegs.mu
	db   *badger.DB
	info segInfo
	seal []sealFile

	statOnce sync.Once
	statList []FileStat
	statErr  error

	viewMu sync.Mutex // decodes its page view once at a time (view.go)

	mappedOnce sync.Once // its tables' mapped address ranges (mapped_linux.go)
	mapped     [][2]uint64

	partsOnce sync.Once // its bytes by part (Snapshot.PartSizes)
	parts     map[string]int64

	dottedOnce  sync.Once // its names holding a dot (view.go)
	dottedNames []string
	dottedErr   error

	countsMu sync.Mutex // its last FileCounts part, by the dead files it was counted with (view.go)
	counts   *segCounts
}

// openSegs are the segment databases open in the process, by key: a
// generation that shares segments with an open one (every generation an
// edit makes shares all but a few) opens only its new ones.
var openSegs struct {
	mu sync.Mutex
	m  map[string]*openSeg
}

// segmentOpens counts the segment databases opened (tests).
var segmentOpens atomic.Int64

// SegmentOpens returns how many segment databases this process opened;
// one another open generation holds already is shared, not counted. For
// tests and diagnostics.
func SegmentOpens() int64 { return segmentOpens.Load() }

// sealKey names a segment folder as sealed: its path, and each sealed
// file's name, size and hash.
func sealKey(sd string, seal []sealFile) string {
	var b strings.Builder
	b.WriteString(sd)
	for _, f := range seal {
		fmt.Fprintf(&b, "|%s:%d:%x", f.name, f.size, f.hash)
	}
	return b.String()
}

// cachedStats is stats, decoded once.
func (sg *segment) cachedStats() ([]FileStat, error) {
	sg.statOnce.Do(func() { sg.statList, sg.statErr = sg.stats() })
	return sg.statList, sg.statErr
}

// recordsDecoded counts the whole records readPieces decoded, and
// refsDecoded the records readRefsOf decoded in part (tests).
var recordsDecoded, refsDecoded atomic.Int64

// readRefsOf decodes, of the given live files of sg, the part of their
// records Change.Affects reads (decodeFactsRefs: path, language,
// references, imports), in the segment's order.
func (sg *segment) readRefsOf(paths []string) ([]*FileRecord, error) {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		if !sg.dead[p] {
			want[p] = true
		}
	}
	b, err := sg.blob(factsBlob)
	if err != nil {
		return nil, err
	}
	stats, err := sg.cachedStats()
	if err != nil {
		return nil, err
	}
	var out []*FileRecord
	refsDecoded.Add(int64(len(want)))
	err = decodeFactsRefs(b, stats, want, func(r *FileRecord) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("segment %d: %w", sg.id, err)
	}
	return out, nil
}

// readPiecesOf decodes the pieces and records of the given live files of
// sg (it decodes the segment's graph whole, and makes only their records).
func (sg *segment) readPiecesOf(paths []string) ([]*segPiece, error) {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	all, err := sg.readPiecesWant(true, want)
	if err != nil {
		return nil, err
	}
	var out []*segPiece
	for _, pc := range all {
		if pc.rec != nil {
			out = append(out, pc)
		}
	}
	return out, nil
}

// openSegment checks the seal of segment id and opens it read-only, or
// shares the database another generation of the process opened.
func openSegment(dir string, id int, dead []string) (*segment, error) {
	seal, seen, err := verifySeal(dir, segDir(dir, id))
	if err != nil {
		return nil, err
	}
	return openSegmentSealed(dir, id, dead, seal, seen)
}

// openSegmentSealed is openSegment with the seal checked already.
func openSegmentSealed(dir string, id int, dead []string, seal []sealFile, seen []fileID) (*segment, error) {
	sd := segDir(dir, id)
	key := sealKey(sd, seal)
	sg := &segment{seen: seen}
	if len(dead) > 0 {
		sg.deadList = dead
		sg.dead = make(map[string]bool, len(dead))
		for _, p := range dead {
			sg.dead[p] = true
		}
	}
	openSegs.mu.Lock()
	if o := openSegs.m[key]; o != nil {
		o.refs++
		openSegs.mu.Unlock()
		sg.openSeg = o
		return sg, nil
	}
	openSegs.mu.Unlock()
	db, err := badger.Open(segReadOptions(sd))
	if err != nil {
		return nil, err
	}
	segmentOpens.Add(1)
	o := &openSeg{id: id, dir: sd, key: key, refs: 1, db: db, seal: seal}
	b, err := o.get("m/seg")
	if err == nil {
		err = json.Unmarshal(b, &o.info)
	}
	if err != nil {
		db.Close()
		return nil, damaged(dir, "%s has no readable segment info (%v)", relIndex(dir, sd), err)
	}
	openSegs.mu.Lock()
	if other := openSegs.m[key]; other != nil {
		// Opened meanwhile by another generation: share that one.
		other.refs++
		openSegs.mu.Unlock()
		db.Close()
		sg.openSeg = other
		return sg, nil
	}
	if openSegs.m == nil {
		openSegs.m = map[string]*openSeg{}
	}
	openSegs.m[key] = o
	openSegs.mu.Unlock()
	sg.openSeg = o
	return sg, nil
}

// segReadOptions are the Badger options of a sealed segment opened
// read-only: no block cache and no index cache. A reader decodes a
// segment's blobs once at open (each block is read once, so a cache would
// only keep what was already decoded: 32 MB of blocks and 40 MB of cache
// structures over the 68 segments of a 100k-file index) and afterwards
// reads a few keys per call (n/, r/, a name chunk), where decompressing a
// 16 KB block costs tens of µs. Tables record their own compression, so
// the reader needs none set (Badger requires a block cache only for a
// compression it would write).
func segReadOptions(dir string) badger.Options {
	return badgerOptions(dir, true).WithBlockCacheSize(0).WithIndexCacheSize(0).WithCompression(options.None)
}

// close releases the segment: its database closes when no generation
// of the process uses it any more.
func (sg *segment) close() error {
	o := sg.openSeg
	openSegs.mu.Lock()
	o.refs--
	last := o.refs == 0
	if last && openSegs.m[o.key] == o {
		delete(openSegs.m, o.key)
	}
	openSegs.mu.Unlock()
	if !last {
		return nil
	}
	dropView(o)
	return o.db.Close()
}

func (sg *openSeg) get(key string) ([]byte, error) {
	var out []byte
	err := sg.db.View(func(txn *badger.Txn) error {
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

// blob returns the blob stored under name, or ErrNotFound.
func (sg *segment) blob(name string) ([]byte, error) {
	var buf bytes.Buffer
	prefix := []byte("x/" + name + "/")
	err := sg.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
		defer it.Close()
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
		return nil, fmt.Errorf("segment %d blob %s: %w", sg.id, name, err)
	}
	return b, nil
}

// stats returns the stat of each of the segment's files, dead ones included.
func (sg *segment) stats() ([]FileStat, error) {
	b, err := sg.get("m/stats")
	if err != nil {
		return nil, err
	}
	if b, err = decompress(b); err != nil {
		return nil, fmt.Errorf("segment %d m/stats: %w", sg.id, err)
	}
	return decodeStats(b)
}

// graph decodes the segment's pages and its own edges.
func (sg *segment) graph() (*Graph, error) {
	b, err := sg.blob(graphBlob)
	if err != nil {
		return nil, fmt.Errorf("read segment %d graph: %w", sg.id, err)
	}
	if err := checkGraphFormat(b); err != nil {
		return nil, err
	}
	text, err := sg.blob(TextBlob)
	if err != nil {
		return nil, fmt.Errorf("read segment %d page text: %v", sg.id, err)
	}
	return decodeGraph(b, text)
}

// ext decodes the segment's edges to and from other segments.
func (sg *segment) ext() ([]extEdge, error) {
	b, err := sg.blob(extBlob)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeExt(b)
}

// keys returns the values of the keys prefix+name for each name, missing
// ones skipped, in one read transaction.
func (sg *segment) lookup(prefix string, names []string, fn func(name string, v []byte)) error {
	return sg.db.View(func(txn *badger.Txn) error {
		for _, n := range names {
			it, err := txn.Get([]byte(prefix + n))
			if errors.Is(err, badger.ErrKeyNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if err := it.Value(func(v []byte) error { fn(n, v); return nil }); err != nil {
				return err
			}
		}
		return nil
	})
}

// segmentIDs lists the segment numbers present under dir/seg.
func segmentIDs(dir string) []int { return numberedDirs(filepath.Join(dir, "seg")) }

// numberedDirs lists, sorted, the numbers that name folders of dir.
func numberedDirs(dir string) []int {
	ents, _ := os.ReadDir(dir)
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// extEdge is an edge between a page of a segment (Local) and a page of
// another (ID): Local → ID when Out, else ID → Local (a module's contains
// edge to a file, which the file's segment owns).
type extEdge struct {
	Local uint32
	ID    string
	Type  EdgeType
	Attr  EdgeAttr
	Out   bool
}

// extTypeBits is the room for an edge type in an extEdge's stored flags
// (1 bit Out, then the type, then the attribute).
const extTypeBits = 3

const extBlob = "ext"

func encodeExt(es []extEdge) []byte {
	e := enc{b: make([]byte, 0, 24*len(es))}
	e.uint(uint64(len(es)))
	var last uint32
	var tab strTable
	ids := make([]uint64, len(es))
	for i, x := range es {
		ids[i] = tab.id(x.ID)
	}
	e.strs(tab.strs)
	for i, x := range es {
		e.uint(uint64(x.Local - last)) // es is sorted by Local
		last = x.Local
		flags := uint64(x.Attr)<<(1+extTypeBits) | uint64(x.Type)<<1
		if x.Out {
			flags |= 1
		}
		e.uint(flags)
		e.uint(ids[i])
	}
	return e.b
}

func decodeExt(b []byte) ([]extEdge, error) {
	d := dec{b: b}
	n := d.count()
	tab := d.strs()
	out := make([]extEdge, 0, n)
	var last uint32
	for range n {
		last += uint32(d.uint())
		flags := d.uint()
		id := d.uint()
		t := EdgeType(flags >> 1 & (1<<extTypeBits - 1))
		if d.err != nil || id >= uint64(len(tab)) || t >= numEdgeTypes || flags>>(1+extTypeBits) > 0xff {
			return nil, fmt.Errorf("ext edges: %w", errCorrupt)
		}
		out = append(out, extEdge{Local: last, ID: tab[id], Type: t, Attr: EdgeAttr(flags >> (1 + extTypeBits)), Out: flags&1 == 1})
	}
	if d.err != nil {
		return nil, fmt.Errorf("ext edges: %w", errCorrupt)
	}
	return out, nil
}

// encodeStats is the stored form of stats, in columns: the count, the
// paths front-coded, the sizes, the modification times as differences
// from the one before (varints), then the hashes, 8 bytes each. Columns
// compress better than rows (moby's stat table: 117 KB as rows, 50 KB as
// columns with zstd's fastest level, where the rows took 59 KB; most of
// what is left is the hashes).
func encodeStats(stats []FileStat) []byte {
	e := enc{b: make([]byte, 0, 32*len(stats))}
	e.uint(uint64(len(stats)))
	prev := ""
	for _, st := range stats {
		e.frontStr(prev, st.Path)
		prev = st.Path
	}
	for _, st := range stats {
		e.int(int(st.Size))
	}
	var mt int64
	for _, st := range stats {
		e.b = binary.AppendVarint(e.b, st.ModTime-mt)
		mt = st.ModTime
	}
	for _, st := range stats {
		e.b = binary.LittleEndian.AppendUint64(e.b, st.Hash)
	}
	return e.b
}

func decodeStats(b []byte) ([]FileStat, error) {
	d := dec{b: b}
	n := d.count()
	out := make([]FileStat, n)
	// An edit at 100k files decodes the stats of every segment its names
	// hit, 100k paths: into one arena (frontStrs).
	var paths frontStrs
	for i := range out {
		out[i].Path = paths.next(&d)
	}
	for i := range out {
		out[i].Size = int64(d.int())
	}
	var mt int64
	for i := range out {
		mt += int64(d.int())
		out[i].ModTime = mt
	}
	if d.err != nil || len(d.b) != 8*len(out) {
		return nil, errCorrupt
	}
	for i := range out {
		out[i].Hash = binary.LittleEndian.Uint64(d.b[8*i:])
	}
	return out, nil
}
