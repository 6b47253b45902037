package graph

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// writeBytes is what /proc/self/io counts this process has sent, or is to
// send, to storage (pages dirtied through a mapping count too); ok is false
// where there is no such count.
func writeBytes(t *testing.T) (int64, bool) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// TestSegmentWritesItsBytesOnce commits a segment of 6 MB of keys and
// values and wants the bytes the process wrote to storage within a
// quarter of the segment's folder: a segment's bytes are written once,
// into its table (a WriteBatch wrote them twice, the memtable's
// write-ahead log first). Every key reads back.
func TestSegmentWritesItsBytesOnce(t *testing.T) {
	dir := t.TempDir()
	if _, ok := writeBytes(t); !ok {
		t.Skip("no write_bytes in /proc/self/io")
	}
	w, err := newSegWriter(dir, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string][]byte{}
	blob := make([]byte, 4<<20) // compressed already: random bytes
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	if err := w.setCompressedBlob("engine", blob); err != nil {
		t.Fatal(err)
	}
	for i := range 40000 { // name keys, out of order, one set twice
		k := fmt.Sprintf("n/name%05d", (i*7919)%40000)
		v := bytes.Repeat([]byte{byte(i)}, 40)
		w.set(k, v)
		want[k] = v
	}
	w.set("n/name00007", []byte("last"))
	want["n/name00007"] = []byte("last")
	before, _ := writeBytes(t)
	if err := w.commit(); err != nil {
		t.Fatal(err)
	}
	after, _ := writeBytes(t)
	sd := segDir(dir, 1)
	var size int64
	filepath.Walk(sd, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			size += fi.Size()
		}
		return nil
	})
	if after == before {
		t.Skip("write_bytes did not move: no block device under the test's folder (tmpfs?)")
	}
	t.Logf("segment of %d bytes on disk; the commit wrote %d bytes", size, after-before)
	if after-before > size*5/4+(64<<10) {
		t.Errorf("the commit wrote %d bytes for a segment of %d: its bytes are written more than once", after-before, size)
	}

	db, err := badger.Open(badgerOptions(sd, true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(txn *badger.Txn) error {
		for k, v := range want {
			it, err := txn.Get([]byte(k))
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			got, _ := it.ValueCopy(nil)
			if !bytes.Equal(got, v) {
				return fmt.Errorf("%s: %q, want %q", k, got, v)
			}
		}
		got, err := readBlobKeys(txn, "engine")
		if err != nil {
			return err
		}
		if !bytes.Equal(got, blob) {
			return fmt.Errorf("the blob read back differs (%d bytes, want %d)", len(got), len(blob))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readBlobKeys concatenates the chunks of the blob stored under name.
func readBlobKeys(txn *badger.Txn, name string) ([]byte, error) {
	var b []byte
	for i := 0; ; i++ {
		it, err := txn.Get(fmt.Appendf(nil, "x/%s/%06d", name, i))
		if err == badger.ErrKeyNotFound {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if err := it.Value(func(v []byte) error { b = append(b, v...); return nil }); err != nil {
			return nil, err
		}
	}
}

// TestSortedKVs checks sortedKVs against a stable sort: equal keys with
// different values keep the last.
func TestSortedKVs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, keys := range []int{1, 2, 50, 1 << 30} {
			kvs := make([]segKV, n)
			for i := range kvs {
				// Equal keys with different values: the last one must be kept.
				kvs[i] = segKV{key: fmt.Sprintf("k%d", r.IntN(keys)), val: []byte(fmt.Sprint(i))}
			}
			want := slices.Clone(kvs)
			sort.SliceStable(want, func(i, j int) bool { return want[i].key < want[j].key })
			var last []segKV
			for i, kv := range want {
				if i+1 < len(want) && want[i+1].key == kv.key {
					continue
				}
				last = append(last, kv)
			}
			got := sortedKVs(kvs)
			if len(got) != len(last) {
				t.Fatalf("%d pairs, %d keys: %d kept, want %d", n, keys, len(got), len(last))
			}
			for i := range got {
				if got[i].key != last[i].key || string(got[i].val) != string(last[i].val) {
					t.Fatalf("%d pairs, %d keys: pair %d is %s=%s, want %s=%s", n, keys, i, got[i].key, got[i].val, last[i].key, last[i].val)
				}
			}
		}
	}
}
