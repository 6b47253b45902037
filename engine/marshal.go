package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// The binary form of an Index, version indexVersion, little-endian:
//
//	magic "WTIX" | u32 version | u32 n | u32 numTerms | avgLen [numKinds][numFields]f32
//	then sections, each u32 element count followed by its elements:
//	kind [n]u8 | flags [n]u8 | group |
//	recOff | rec bytes | termBlk | termBlob bytes (terms.go) |
//	postOff | post bytes | adjOff | adj | phraseHash | phrasePage
//
// group is each page's distance back to its group page (zig-zag uvarints);
// adj, each page's sorted neighbours, and phraseHash, sorted, are uvarint
// differences from the value before (from zero at each page's first
// neighbour); phrasePage, uvarints. Stored as u32s they took 0.13 MB of
// moby's 1.66 MB, now ~0.08 MB.
//
// An offset table (xOff) is stored as its element count and the uvarint
// length of each entry: monotone u32 offsets do not compress (moby: 0.43 MB
// of 3.1 MB), their lengths mostly fit a byte.
//
// The records (recOff, rec) may be empty: a build stores the index without
// them, as they are the generation's page text (graph.EncodeText, x/text),
// which Load reads beside it.
//
// The byte sections (rec, termBlob, post: ~90% of the size) are not copied
// on load: the Index aliases the caller's buffer. Only the fixed-width
// arrays and offset tables are decoded, which is what keeps UnmarshalIndex
// within a few ms on a 150k-page index.
const (
	indexMagic   = "WTIX"
	indexVersion = 8 // 7: data-file flags; 8: no PageRank section
)

// ErrBadIndex is returned by UnmarshalIndex for data it cannot read.
var ErrBadIndex = errors.New("bad ranking index")

// MarshalBinary encodes the index compactly. It never fails for an index
// built by NewIndex or read by UnmarshalIndex.
func (ix *Index) MarshalBinary() ([]byte, error) { return ix.marshal(true) }

// marshal is MarshalBinary, without the page records unless records.
func (ix *Index) marshal(records bool) ([]byte, error) {
	if ix == nil {
		return nil, fmt.Errorf("%w: nil index", ErrBadIndex)
	}
	size := 64 + numKinds*int(numFields)*4 + ix.n*10 + len(ix.rec) + len(ix.termBlob) + len(ix.post) +
		4*(len(ix.recOff)+len(ix.termBlk)+len(ix.postOff)+len(ix.adjOff)+len(ix.adj))
	b := make([]byte, 0, size)
	b = append(b, indexMagic...)
	b = binary.LittleEndian.AppendUint32(b, indexVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(ix.n))
	b = binary.LittleEndian.AppendUint32(b, uint32(ix.numTerms))
	for k := range numKinds {
		for f := range numFields {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(ix.avgLen[k][f]))
		}
	}
	b = putBytes(b, ix.kind)
	b = putBytes(b, ix.flags)
	b = putGroups(b, ix.group)
	if records {
		b = putOffsets(b, ix.recOff)
		b = putBytes(b, ix.rec)
	} else {
		b = putOffsets(b, nil)
		b = putBytes(b, nil)
	}
	b = putOffsets(b, ix.termBlk)
	b = putBytes(b, ix.termBlob)
	b = putOffsets(b, ix.postOff)
	b = putBytes(b, ix.post)
	b = putOffsets(b, ix.adjOff)
	b = putLists(b, ix.adj, ix.adjOff)
	b = putLists(b, ix.phraseHash, nil)
	b = putVarints(b, ix.phrasePage)
	return b, nil
}

// UnmarshalIndex reads an index written by MarshalBinary. The returned
// Index keeps references into b: the caller must not modify b afterwards.
// Every offset is validated, so corrupt input is an error, never a panic
// at query time.
func UnmarshalIndex(b []byte) (*Index, error) {
	r := reader{b: b}
	if string(r.take(4)) != indexMagic {
		return nil, fmt.Errorf("%w: no magic", ErrBadIndex)
	}
	if v := r.u32(); v != indexVersion {
		return nil, fmt.Errorf("%w: version %d, want %d (rebuild the index)", ErrBadIndex, v, indexVersion)
	}
	ix := &Index{n: int(r.u32())}
	nt := int(r.u32())
	for k := range numKinds {
		for f := range numFields {
			ix.avgLen[k][f] = math.Float32frombits(r.u32())
			if !(ix.avgLen[k][f] > 0) || math.IsInf(float64(ix.avgLen[k][f]), 0) {
				ix.avgLen[k][f] = 1
			}
		}
	}
	ix.kind = r.bytes()
	ix.flags = r.bytes()
	ix.group = r.groups()
	ix.recOff = r.offsets()
	ix.rec = r.bytes()
	ix.numTerms = nt
	ix.termBlk = r.offsets()
	ix.termBlob = r.bytes()
	ix.postOff = r.offsets()
	ix.post = r.bytes()
	ix.adjOff = r.offsets()
	ix.adj = r.lists(ix.adjOff)
	ix.phraseHash = r.lists(nil)
	ix.phrasePage = r.varints()
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrBadIndex, len(b)-r.off)
	}
	if err := ix.validate(nt); err != nil {
		return nil, err
	}
	return ix, nil
}

func (ix *Index) validate(nt int) error {
	n := ix.n
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrBadIndex, what) }
	if n < 0 || len(ix.kind) != n || len(ix.flags) != n || len(ix.group) != n {
		return bad("page arrays disagree")
	}
	for _, g := range ix.group {
		if int(g) >= n || ix.group[g] != g { // a group page groups itself: record paths resolve in one step
			return bad("group out of range")
		}
	}
	for _, k := range ix.kind {
		if k >= numKinds {
			return bad("unknown kind")
		}
	}
	if len(ix.recOff) == 0 && len(ix.rec) == 0 {
		// stored without its records (see attachRecords)
	} else if !monotone(ix.recOff, n+1, len(ix.rec)) {
		return bad("record offsets")
	}
	if !monotone(ix.termBlk, numBlocks(nt)+1, len(ix.termBlob)) || !monotone(ix.postOff, nt+1, len(ix.post)) {
		return bad("term offsets")
	}
	if !monotone(ix.adjOff, n+1, len(ix.adj)) {
		return bad("neighbour offsets")
	}
	for _, a := range ix.adj {
		if int(a) >= n {
			return bad("neighbour out of range")
		}
	}
	if len(ix.phraseHash) != len(ix.phrasePage) || !slices.IsSorted(ix.phraseHash) {
		return bad("phrase table")
	}
	for _, p := range ix.phrasePage {
		if int(p) >= n {
			return bad("phrase page out of range")
		}
	}
	return nil
}

// monotone checks an offset table: want entries, non-decreasing, ending at end.
func monotone(off []uint32, want, end int) bool {
	if len(off) != want || off[0] != 0 || int(off[len(off)-1]) != end {
		return false
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return false
		}
	}
	return true
}

func putBytes(b, v []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

// putOffsets writes an offset table as its length and the uvarint
// difference of each entry from the one before (the first from zero).
func putOffsets(b []byte, off []uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(off)))
	var last uint32
	for _, x := range off {
		b = binary.AppendUvarint(b, uint64(x-last))
		last = x
	}
	return b
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = fmt.Errorf("%w: truncated at byte %d", ErrBadIndex, r.off)
		return nil
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s
}

func (r *reader) u32() uint32 {
	s := r.take(4)
	if s == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(s)
}

func (r *reader) bytes() []byte {
	n := r.u32()
	return r.take(int(n))
}

// offsets reads a table written by putOffsets. A difference that would
// overflow makes the table non-monotone, which validate rejects.
func (r *reader) offsets() []uint32 {
	n := int(r.u32())
	if r.err != nil || n > len(r.b)-r.off { // every entry takes at least one byte
		r.take(-1)
		return nil
	}
	out := make([]uint32, n)
	var last uint32
	for i := range out {
		d, k := binary.Uvarint(r.b[r.off:])
		if k <= 0 || d > math.MaxUint32 {
			r.take(-1)
			return nil
		}
		r.off += k
		last += uint32(d)
		out[i] = last
	}
	return out
}

// attachRecords gives an index stored without page records the
// generation's page text (x/text, graph.EncodeText), aliasing b.
func (ix *Index) attachRecords(b []byte) error {
	off, rec, err := graph.DecodeText(b)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadIndex, err)
	}
	if len(off) != ix.n+1 {
		return fmt.Errorf("%w: %d page records for %d pages", ErrBadIndex, len(off)-1, ix.n)
	}
	ix.recOff, ix.rec = off, rec
	return nil
}

// putGroups writes each page's group as the zig-zag distance back to it.
func putGroups(b []byte, group []uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(group)))
	for i, g := range group {
		b = binary.AppendVarint(b, int64(i)-int64(g))
	}
	return b
}

// putLists writes v as uvarint differences from the value before, starting
// again from zero at each offset of off (nil: one list).
func putLists(b []byte, v, off []uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	var last uint32
	for i, x := range v {
		if len(off) > 0 && int(off[0]) == i {
			last = 0
			for len(off) > 0 && int(off[0]) == i {
				off = off[1:]
			}
		}
		b = binary.AppendUvarint(b, uint64(x-last))
		last = x
	}
	return b
}

func putVarints(b []byte, v []uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return b
}

// count reads an element count; every element takes at least one byte.
func (r *reader) count() int {
	n := int(r.u32())
	if r.err != nil || n > len(r.b)-r.off {
		r.take(-1)
		return 0
	}
	return n
}

// uv reads one uvarint of at most 32 bits.
func (r *reader) uv() uint32 {
	d, k := binary.Uvarint(r.b[r.off:])
	if k <= 0 || d > math.MaxUint32 {
		r.take(-1)
		return 0
	}
	r.off += k
	return uint32(d)
}

func (r *reader) groups() []uint32 {
	n := r.count()
	out := make([]uint32, n)
	for i := range out {
		d, k := binary.Varint(r.b[r.off:])
		if k <= 0 || int64(i)-d < 0 || int64(i)-d >= int64(n) {
			r.take(-1)
			return nil
		}
		r.off += k
		out[i] = uint32(int64(i) - d)
	}
	return out
}

// lists reads what putLists wrote with the same off. A sum that overflows
// breaks the order validate checks or the range it checks.
func (r *reader) lists(off []uint32) []uint32 {
	n := r.count()
	out := make([]uint32, n)
	var last uint32
	for i := range out {
		if r.err != nil {
			return nil
		}
		if len(off) > 0 && int(off[0]) == i {
			last = 0
			for len(off) > 0 && int(off[0]) == i {
				off = off[1:]
			}
		}
		last += r.uv()
		out[i] = last
	}
	if r.err != nil {
		return nil
	}
	return out
}

func (r *reader) varints() []uint32 {
	n := r.count()
	out := make([]uint32, n)
	for i := range out {
		out[i] = r.uv()
	}
	if r.err != nil {
		return nil
	}
	return out
}
