package engine

import (
	"bytes"
	"sync"
)

// The term dictionary: the sorted terms in blocks of termBlock, each block
// its first term (uvarint length, bytes), then each next term as the
// length of the prefix it shares with the term before, the length of the
// rest and the rest (uvarints, bytes). A lookup binary-searches the blocks'
// first terms and reads one block. Front-coded, moby's dictionary and its
// offsets took 0.17 MB compressed where the terms end to end and an offset
// per term took 0.22 MB.
const termBlock = 16

// termDict is one segment's term dictionary.
type termDict struct {
	numTerms int      // T
	termBlk  []uint32 // offsets into termBlob of each block of termBlock terms, then its end
	termBlob []byte   // the sorted terms, front-coded in blocks

	headsOnce sync.Once
	heads     []uint64 // each block's first term's first 8 bytes (headKeys), made on first use
}

// encodeTerms front-codes sorted terms in blocks.
func encodeTerms(sorted []string) (blk []uint32, blob []byte) {
	size := 0
	for _, t := range sorted {
		size += len(t)
	}
	blk = make([]uint32, 0, len(sorted)/termBlock+2)
	blob = make([]byte, 0, size/2)
	prev := ""
	for i, t := range sorted {
		if i%termBlock == 0 {
			blk = append(blk, uint32(len(blob)))
			blob = appendUvarint(blob, uint64(len(t)))
		} else {
			n := 0
			for n < len(prev) && n < len(t) && prev[n] == t[n] {
				n++
			}
			blob = appendUvarint(blob, uint64(n))
			blob = appendUvarint(blob, uint64(len(t)-n))
			t = t[n:]
		}
		blob = append(blob, t...)
		prev = sorted[i]
	}
	return append(blk, uint32(len(blob))), blob
}

// numBlocks is the number of blocks of n terms.
func numBlocks(n int) int { return (n + termBlock - 1) / termBlock }

// blockHead returns block b's first term, aliasing the index.
func (d *termDict) blockHead(b int) string {
	s := d.termBlob[d.termBlk[b]:d.termBlk[b+1]]
	l, k := uvarint(s)
	if k <= 0 || l > uint64(len(s)-k) {
		return ""
	}
	return unsafeString(s[k : k+int(l)])
}

// eachTerm calls fn with the terms of blocks b, b+1, ... and their IDs in
// order until fn returns false or the terms end. term is valid only
// during the call. A corrupt block ends the walk.
func (d *termDict) eachTerm(b int, fn func(id uint32, term string) bool) {
	var buf []byte
	for ; b < len(d.termBlk)-1; b++ {
		s := d.termBlob[d.termBlk[b]:d.termBlk[b+1]]
		id := b * termBlock
		for j := 0; j < termBlock && id+j < d.numTerms; j++ {
			keep := uint64(0)
			if j > 0 {
				var k int
				if keep, k = uvarint(s); k <= 0 || keep > uint64(len(buf)) {
					return
				}
				s = s[k:]
			}
			l, k := uvarint(s)
			if k <= 0 || l > uint64(len(s)-k) {
				return
			}
			buf = append(buf[:keep], s[k:k+int(l)]...)
			s = s[k+int(l):]
			if !fn(uint32(id+j), unsafeString(buf)) {
				return
			}
		}
	}
}

// lookupTerm returns the term's ID or false. It compares the front-coded
// terms with t without building them: m is how much of t the term before
// shares, and each term either shares less of the one before (so it sorts
// after t), more (so it sorts before t, like the one before), or as much,
// and then its rest decides.
func (d *termDict) lookupTerm(t string) (uint32, bool) {
	for b := d.firstBlock(t); b < len(d.termBlk)-1; b++ {
		s := d.termBlob[d.termBlk[b]:d.termBlk[b+1]]
		id := b * termBlock
		m, prevLen := 0, 0
		for j := 0; j < termBlock && id+j < d.numTerms; j++ {
			keep := 0
			if j > 0 {
				kk, k := uvarint(s)
				if k <= 0 || kk > uint64(prevLen) {
					return 0, false
				}
				keep, s = int(kk), s[k:]
			}
			l, k := uvarint(s)
			if k <= 0 || l > uint64(len(s)-k) {
				return 0, false
			}
			rest := s[k : k+int(l)]
			s = s[k+int(l):]
			prevLen = keep + len(rest)
			switch {
			case keep < m:
				return 0, false
			case keep > m:
				continue
			}
			c := 0
			tr := t[m:]
			for c < len(rest) && c < len(tr) && rest[c] == tr[c] {
				c++
			}
			switch {
			case c == len(rest) && c == len(tr):
				return uint32(id + j), true
			case c == len(tr), c < len(rest) && rest[c] > tr[c]:
				return 0, false // the term sorts after t
			}
			m += c
		}
	}
	return 0, false
}

// firstBlock is the block that holds the first term not below t, or the
// block before it.
func (d *termDict) firstBlock(t string) int {
	// The blocks whose head's key is t's are the only ones the key
	// cannot place (termheads.go): the search is among them.
	lo, hi := d.keyRange(t) // the first block whose head is not below t is in [lo, hi]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if d.blockHead(mid) < t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return max(0, lo-1)
}

// eachTermFrom calls fn with the terms from the first not below prefix on,
// in order, until fn returns false.
func (d *termDict) eachTermFrom(prefix string, fn func(id uint32, term string) bool) {
	d.eachTerm(d.firstBlock(prefix), func(id uint32, term string) bool {
		if term < prefix {
			return true
		}
		return fn(id, term)
	})
}

// term returns term id (a copy; tests).
func (d *termDict) term(id uint32) string {
	var out string
	if int(id) < d.numTerms {
		d.eachTerm(int(id)/termBlock, func(i uint32, term string) bool {
			if i == id {
				out = string(bytes.Clone([]byte(term)))
				return false
			}
			return true
		})
	}
	return out
}
