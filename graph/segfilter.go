package graph

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/dgraph-io/badger/v4"
)

// Name filters: a Bloom filter per file segment of the keys an
// incremental build asks of it (n/NAME, r/NAME, i/KEY, d/PATH), so that
// the build opens a segment only when it may hold a key the change names.
// Without them an edit opened every segment (69 of 70 at 100k files, 100
// ms) to learn that most hold none of the file's names.
//
// A filter is a cache beside the segment's sealed files, not one of them:
// seg/NNNNNN/FILTER, written when the segment is sealed (from the keys the
// writer holds), without fsync, naming the hash of the segment's seal. A
// build that finds it missing, damaged or naming another seal opens the
// segment, makes the filter from its keys (a key-only iteration) and
// writes it again; an index folder it cannot write costs that open on
// every build, nothing else.
//
// Layout (little-endian): "wkfilt1\n", seal hash u64, the segment's file
// count u64, the number of hashes k u64, the number of 64-bit words w
// u64, the w words, then xxhash64 of all that precedes. A key sets bits
// (h1 + i·h2) mod (64·w) for i < k, h1 and h2 the halves of its xxhash64.

const (
	filterName  = "FILTER"
	filterMagic = "wkfilt1\n"
	filterBits  = 10 // bits per key: about 1 % false positives with 7 hashes
	filterK     = 7
)

// filterPrefixes are the key prefixes a filter holds.
var filterPrefixes = []string{"n/", "r/", "i/", "d/"}

func filterKey(key string) bool {
	for _, p := range filterPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// nameFilter is a Bloom filter of a segment's name keys.
type nameFilter struct {
	words []uint64
	k     uint64
	files int // the segment's files (segInfo.Files)
}

func newNameFilter(keys int, files int) *nameFilter {
	w := max(1, (keys*filterBits+63)/64)
	return &nameFilter{words: make([]uint64, w), k: filterK, files: files}
}

func (f *nameFilter) add(key string) {
	h := xxhash.Sum64String(key)
	h1, h2, m := h&0xffffffff, h>>32|1, uint64(len(f.words))*64
	for i := range f.k {
		b := (h1 + i*h2) % m
		f.words[b/64] |= 1 << (b % 64)
	}
}

// may reports whether key may be a key of the segment (false: it is not).
func (f *nameFilter) may(key string) bool {
	h := xxhash.Sum64String(key)
	h1, h2, m := h&0xffffffff, h>>32|1, uint64(len(f.words))*64
	for i := range f.k {
		b := (h1 + i*h2) % m
		if f.words[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// sealHash names a segment's sealed content: each sealed file's name,
// size and hash (not the folder's path, so that a moved index keeps its
// filters).
func sealHash(seal []sealFile) uint64 {
	h := xxhash.New()
	for _, f := range seal {
		fmt.Fprintf(h, "%s %d %x\n", f.name, f.size, f.hash)
	}
	return h.Sum64()
}

func encodeFilter(f *nameFilter, seal uint64) []byte {
	b := make([]byte, 0, len(filterMagic)+32+8*len(f.words)+8)
	b = append(b, filterMagic...)
	b = binary.LittleEndian.AppendUint64(b, seal)
	b = binary.LittleEndian.AppendUint64(b, uint64(f.files))
	b = binary.LittleEndian.AppendUint64(b, f.k)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(f.words)))
	for _, w := range f.words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
}

// decodeFilter returns the filter b holds if it is whole and names seal.
func decodeFilter(b []byte, seal uint64) (*nameFilter, bool) {
	head := len(filterMagic) + 32
	if len(b) < head+8 || string(b[:len(filterMagic)]) != filterMagic {
		return nil, false
	}
	body := b[:len(b)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(b[len(b)-8:]) {
		return nil, false
	}
	h := body[len(filterMagic):]
	files, k, w := binary.LittleEndian.Uint64(h[8:]), binary.LittleEndian.Uint64(h[16:]), binary.LittleEndian.Uint64(h[24:])
	if binary.LittleEndian.Uint64(h) != seal || k == 0 || k > 32 || w == 0 || w != uint64(len(body)-head)/8 || uint64(len(body)-head)%8 != 0 || files > 1<<31 {
		return nil, false
	}
	f := &nameFilter{words: make([]uint64, w), k: k, files: int(files)}
	for i := range f.words {
		f.words[i] = binary.LittleEndian.Uint64(body[head+8*i:])
	}
	return f, true
}

// filterReads counts the filters read whole from their files, and
// filterRebuilds those made again from a segment's keys (tests).
var filterReads, filterRebuilds atomic.Int64

// loadFilter reads segment folder sd's filter, if it is whole and names
// seal.
func loadFilter(sd string, seal []sealFile) (*nameFilter, bool) {
	b, err := os.ReadFile(filepath.Join(sd, filterName))
	if err != nil {
		return nil, false
	}
	f, ok := decodeFilter(b, sealHash(seal))
	if ok {
		filterReads.Add(1)
	}
	return f, ok
}

// saveFilter writes f as the filter of segment folder sd with seal.
// Best effort: without it a build opens the segment.
func saveFilter(sd string, seal []sealFile, f *nameFilter) {
	writeCacheFile(filepath.Join(sd, filterName), encodeFilter(f, sealHash(seal)))
}

// filterOfKVs is the filter of a segment writer's keys.
func filterOfKVs(kvs []segKV) *nameFilter {
	n, files := 0, 0
	for _, kv := range kvs {
		if filterKey(kv.key) {
			n++
		} else if kv.key == "m/seg" {
			var info segInfo
			if json.Unmarshal(kv.val, &info) == nil {
				files = info.Files
			}
		}
	}
	f := newNameFilter(n, files)
	for _, kv := range kvs {
		if filterKey(kv.key) {
			f.add(kv.key)
		}
	}
	return f
}

// makeFilter is the filter of the open segment sg, from its keys.
func (sg *segment) makeFilter() (*nameFilter, error) {
	var keys []string
	err := sg.db.View(func(txn *badger.Txn) error {
		for _, p := range filterPrefixes {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(p)})
			for it.Rewind(); it.Valid(); it.Next() {
				keys = append(keys, string(it.Item().Key()))
			}
			it.Close()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	filterRebuilds.Add(1)
	f := newNameFilter(len(keys), sg.info.Files)
	for _, k := range keys {
		f.add(k)
	}
	return f, nil
}

// segRef is a file segment of the live generation as an incremental build
// reads it: opened only when a key its filter may hold is asked.
type segRef struct {
	s      *Snapshot
	i      int // its place in the manifest
	id     int
	dead   map[string]bool
	filter *nameFilter
}

// fileRefs returns the live generation's file segments, in manifest
// order, each with its filter; a segment whose filter is missing or
// damaged is opened to make it again (and it is written back).
func (s *Snapshot) fileRefs() ([]*segRef, error) {
	var out []*segRef
	for i, ms := range s.man.Segments {
		if ms.Kind != segFiles {
			continue
		}
		r := &segRef{s: s, i: i, id: ms.ID}
		if len(ms.Dead) > 0 {
			r.dead = make(map[string]bool, len(ms.Dead))
			for _, p := range ms.Dead {
				r.dead[p] = true
			}
		}
		seal, sd := s.segSeal(i)
		if f, ok := loadFilter(sd, seal); ok {
			r.filter = f
		} else {
			sg, err := s.segmentAt(i)
			if err != nil {
				return nil, err
			}
			f, err := sg.makeFilter()
			if err != nil {
				return nil, err
			}
			saveFilter(sd, sg.seal, f)
			r.filter = f
		}
		out = append(out, r)
	}
	return out, nil
}

// open returns the segment, opening its database on first need.
func (r *segRef) open() (*segment, error) { return r.s.segmentAt(r.i) }

// files is how many files the segment holds, dead ones included.
func (r *segRef) files() int { return r.filter.files }

// lookup is segment.lookup of the names the filter may hold, the segment
// opened only if there is one; fn gets the opened segment.
func (r *segRef) lookup(prefix string, names []string, fn func(sg *segment, name string, v []byte)) error {
	var kept []string
	for _, n := range names {
		if r.filter.may(prefix + n) {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	sg, err := r.open()
	if err != nil {
		return err
	}
	return sg.lookup(prefix, kept, func(n string, v []byte) { fn(sg, n, v) })
}
