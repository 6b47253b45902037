package engine

import (
	"encoding/binary"
	"sort"
)

// A term lookup binary-searches the blocks' first terms (firstBlock),
// each a front-coded string to decode and compare somewhere in the
// dictionary: a question's ten to seventy terms, looked up in each
// segment, made those searches 5–7 % of a moby question. The search runs
// first on the heads' keys, their first 8 bytes as big-endian integers in
// one array (8 bytes a block of termBlock terms), and compares strings
// only among the blocks whose key is the term's.
//
// A key orders strings as they sort: a string's key is its first 8 bytes
// padded with zeros, and key(a) < key(b) implies a < b (at the first byte
// the keys differ, a's is smaller, or a ends there and is a prefix of
// b), so only strings of equal keys are left to compare.

// termKey is s's key.
func termKey(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.BigEndian.Uint64(b[:])
}

// headKeys returns the key of each block's first term, made once.
func (d *termDict) headKeys() []uint64 {
	d.headsOnce.Do(func() {
		n := len(d.termBlk) - 1
		if n <= 0 {
			return
		}
		heads := make([]uint64, n)
		for b := range heads {
			heads[b] = termKey(d.blockHead(b))
		}
		d.heads = heads
	})
	return d.heads
}

// keyRange returns the blocks [lo, hi) whose heads' keys are t's: every
// block before lo has a head below t, every block from hi on a head above
// it. So the first block whose head is not below t is in [lo, hi].
func (d *termDict) keyRange(t string) (lo, hi int) {
	heads := d.headKeys()
	if len(heads) != len(d.termBlk)-1 {
		return 0, len(d.termBlk) - 1 // no keys: search every block
	}
	k := termKey(t)
	lo = sort.Search(len(heads), func(i int) bool { return heads[i] >= k })
	hi = lo + sort.Search(len(heads)-lo, func(i int) bool { return heads[lo+i] > k })
	return lo, hi
}
