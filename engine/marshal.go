package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/wikitoolkit/wikitoolkit/graph"
)

// The binary form of a segment (BuildSegment, and MarshalBinary of a
// one-segment index), version indexVersion, little-endian:
//
//	magic "WTIX" | u32 version | u32 n | u32 numTerms
//	then sections, each u32 element count followed by its elements:
//	sums (uvarints: per kind and field, the sum of the pages' field
//	lengths and the number of pages where the field is not empty) |
//	kind [n]u8 | flags [n]u8 | group | recOff | rec bytes |
//	termBlk | termBlob bytes (terms.go) | postOff | post bytes |
//	tfOff (bytes: putOffsets' form, decoded only when needed) | tfs bytes |
//	lenOff (the same) | lens bytes | adjOff | adj | adjOut bytes |
//	phraseHash | phrasePage | ext
//
// post holds per term its count, then per page the uvarint page delta and
// its impact byte under the segment's own mean field lengths (the sums'
// quotients); tfs, per term, each posting's per-field term frequencies
// (appendTF); lens, each page's field lengths (encodeLens). An index whose
// statistics differ computes impacts from those (segment.go). ext is a count, then per link the local
// group page (uvarint) and the target group page's ID (uvarint length,
// bytes).
//
// adjOut has a bit per adj entry, set when the edge goes out of the
// list's page (segment.buildAdj).
//
// group is each page's distance back to its group page (zig-zag uvarints);
// adj, each page's sorted neighbours, and phraseHash, sorted, are uvarint
// differences from the value before (from zero at each page's first
// neighbour); phrasePage, uvarints.
//
// An offset table (xOff) is stored as its element count and the uvarint
// length of each entry: monotone u32 offsets do not compress (moby: 0.43 MB
// of 3.1 MB), their lengths mostly fit a byte.
//
// The records (recOff, rec) may be empty: a build stores the segment
// without them, as they are the generation's page text (graph.EncodeText,
// x/text), which Load and OpenSegments read beside it.
//
// The byte sections (rec, termBlob, post, lens: most of the size) are not
// copied on load: the segment aliases the caller's buffer. Only the
// fixed-width arrays and offset tables are decoded.
const (
	indexMagic   = "WTIX"
	indexVersion = 12 // 7: data-file flags; 8: no PageRank section; 9: segments (term frequencies, lengths, ext); 10: the statistics impacts were computed under; 11: letters+digits words (int32, h3); 12: a page's own numbers of 1-4 digits are words (textPieceTerms)
)

// ErrBadIndex is returned by UnmarshalIndex and OpenSegments for data they
// cannot read.
var ErrBadIndex = errors.New("bad ranking index")

// MarshalBinary encodes an index of one segment with nothing dead (what
// NewIndex and UnmarshalIndex return) compactly, page records included.
func (ix *Index) MarshalBinary() ([]byte, error) {
	if ix == nil || len(ix.segs) != 1 || ix.dead != nil {
		return nil, fmt.Errorf("%w: only an index of one segment with nothing dead encodes as one", ErrBadIndex)
	}
	if ix.fromSegments {
		return nil, fmt.Errorf("%w: an index opened from segments keeps only what queries read and does not encode; encode the index NewIndex or UnmarshalIndex returns", ErrBadIndex)
	}
	return ix.segs[0].encode(true), nil
}

// encode writes the segment, without its page records unless records.
func (sg *segment) encode(records bool) []byte {
	b, _ := sg.encodeSections(records)
	return b
}

// encodeSections is encode, and where each section after the header and
// sums starts, ext's last (what indexCuts finds again).
func (sg *segment) encodeSections(records bool) ([]byte, []int) {
	size := 64 + sg.n*10 + len(sg.rec) + len(sg.termBlob) + len(sg.post) + len(sg.lens) +
		4*(len(sg.recOff)+len(sg.termBlk)+len(sg.postOff)+len(sg.adjOff)+len(sg.adj)+len(sg.lenOff))
	b := make([]byte, 0, size)
	b = append(b, indexMagic...)
	b = binary.LittleEndian.AppendUint32(b, indexVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(sg.n))
	b = binary.LittleEndian.AppendUint32(b, uint32(sg.numTerms))
	b = binary.LittleEndian.AppendUint32(b, 4*numKinds*uint32(numFields))
	for k := range numKinds {
		for f := range numFields {
			b = binary.AppendUvarint(b, sg.sum[k][f])
			b = binary.AppendUvarint(b, sg.cnt[k][f])
			b = binary.AppendUvarint(b, sg.impSum[k][f])
			b = binary.AppendUvarint(b, sg.impCnt[k][f])
		}
	}
	var recOff []uint32
	var rec []byte
	if records {
		recOff, rec = sg.recOff, sg.rec
	}
	// The sections in order, each written by one function; indexCuts
	// skips them in the same order.
	sections := [numIndexSections]func([]byte) []byte{
		func(b []byte) []byte { return putBytes(b, sg.kind) },
		func(b []byte) []byte { return putBytes(b, sg.flags) },
		func(b []byte) []byte { return putGroups(b, sg.group) },
		func(b []byte) []byte { return putOffsets(b, recOff) },
		func(b []byte) []byte { return putBytes(b, rec) },
		func(b []byte) []byte { return putOffsets(b, sg.termBlk) },
		func(b []byte) []byte { return putBytes(b, sg.termBlob) },
		func(b []byte) []byte { return putOffsets(b, sg.postOff) },
		func(b []byte) []byte { return putBytes(b, sg.post) },
		func(b []byte) []byte { return putBytes(b, putOffsetsOr(nil, sg.tfOff, sg.tfOffRaw)) },
		func(b []byte) []byte { return putBytes(b, sg.tfs) },
		func(b []byte) []byte { return putBytes(b, putOffsetsOr(nil, sg.lenOff, sg.lenOffRaw)) },
		func(b []byte) []byte { return putBytes(b, sg.lens) },
		func(b []byte) []byte { return putOffsets(b, sg.adjOff) },
		func(b []byte) []byte { return putLists(b, sg.adj, sg.adjOff) },
		func(b []byte) []byte { return putBytes(b, sg.adjOut) },
		func(b []byte) []byte { return putLists(b, sg.phraseHash, nil) },
		func(b []byte) []byte { return putVarints(b, sg.phrasePage) },
	}
	cuts := make([]int, 0, numIndexSections+1)
	for _, put := range sections {
		cuts = append(cuts, len(b))
		b = put(b)
	}
	cuts = append(cuts, len(b)) // ext
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sg.ext)))
	for _, e := range sg.ext {
		b = binary.AppendUvarint(b, uint64(e.page))
		b = binary.AppendUvarint(b, uint64(len(e.id)))
		b = append(b, e.id...)
	}
	return b, cuts
}

// numIndexSections is the number of sections after the sums, ext aside.
const numIndexSections = 18

// indexSectionBytes marks the sections of raw bytes (putBytes'), the
// others being a count of varints (putOffsets', putGroups', putLists',
// putVarints').
var indexSectionBytes = [numIndexSections]bool{
	true, true, false, false, true, false, true, false, true,
	true, true, true, true, false, false, true, false, false,
}

// indexCuts returns where the sections of an encoded segment start after
// its header and sums, ext's last (encodeSections'), without decoding them:
// graph compresses the blob one zstd frame per section
// (graph.DefaultLevelBlob). A blob it cannot follow gets the cuts found
// so far: they choose only what compresses together.
func indexCuts(b []byte) []int {
	r := reader{b: b}
	r.take(16) // magic, version, n, numTerms
	cuts := make([]int, 0, numIndexSections+1)
	skipVarints := func() bool {
		n := r.count()
		for ; n > 0 && r.off < len(b); r.off++ {
			if b[r.off] < 0x80 {
				n--
			}
		}
		return r.err == nil && n == 0
	}
	if !skipVarints() {
		return cuts
	}
	for _, raw := range indexSectionBytes {
		cuts = append(cuts, r.off)
		if raw {
			r.bytes()
			if r.err != nil {
				return cuts
			}
		} else if !skipVarints() {
			return cuts
		}
	}
	return append(cuts, r.off)
}

// UnmarshalIndex reads an index written by MarshalBinary (or one segment
// written by BuildSegment, whose records then stay empty). The returned
// Index keeps references into b: the caller must not modify b afterwards.
// Every offset is validated, so corrupt input is an error, never a panic
// at query time.
func UnmarshalIndex(b []byte) (*Index, error) {
	sg, err := decodeSegment(b)
	if err != nil {
		return nil, err
	}
	return openSegments([]*segment{sg})
}

// decodeSegment reads a segment written by encode, aliasing b.
func decodeSegment(b []byte) (*segment, error) {
	r := reader{b: b}
	if string(r.take(4)) != indexMagic {
		return nil, fmt.Errorf("%w: no magic", ErrBadIndex)
	}
	if v := r.u32(); v != indexVersion {
		return nil, fmt.Errorf("%w: version %d, want %d (rebuild the index)", ErrBadIndex, v, indexVersion)
	}
	segmentDecodes.Add(1)
	sg := &segment{segCore: &segCore{n: int(r.u32())}}
	nt := int(r.u32())
	if r.u32() != 4*numKinds*uint32(numFields) && r.err == nil {
		return nil, fmt.Errorf("%w: length sums", ErrBadIndex)
	}
	for k := range numKinds {
		for f := range numFields {
			sg.sum[k][f] = uint64(r.uv64())
			sg.cnt[k][f] = uint64(r.uv64())
			sg.impSum[k][f] = uint64(r.uv64())
			sg.impCnt[k][f] = uint64(r.uv64())
		}
	}
	sg.kind = r.bytes()
	sg.flags = r.bytes()
	sg.group = r.groups()
	sg.recOff = r.offsets()
	sg.rec = r.bytes()
	sg.numTerms = nt
	sg.termBlk = r.offsets()
	sg.termBlob = r.bytes()
	sg.postOff = r.offsets()
	sg.post = r.bytes()
	sg.tfOffRaw = r.bytes() // decoded by loadFreqs when needed
	sg.tfs = r.bytes()
	sg.lenOffRaw = r.bytes()
	sg.lens = r.bytes()
	sg.adjOff = r.offsets()
	sg.adj = r.lists(sg.adjOff)
	sg.adjOut = r.bytes()
	sg.phraseHash = r.lists(nil)
	sg.phrasePage = r.varints()
	ne := r.count()
	sg.ext = make([]extLink, 0, ne)
	for range ne {
		if r.err != nil {
			break
		}
		p := r.uv()
		id := unsafeString(r.take(int(r.uv()))) // b must not change (UnmarshalIndex, SegmentData)
		sg.ext = append(sg.ext, extLink{p, id})
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrBadIndex, len(b)-r.off)
	}
	if err := sg.validate(nt); err != nil {
		return nil, err
	}
	sg.avgLen = meanLens(&sg.impSum, &sg.impCnt)
	return sg, nil
}

func (sg *segment) validate(nt int) error {
	n := sg.n
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrBadIndex, what) }
	if n < 0 || len(sg.kind) != n || len(sg.flags) != n || len(sg.group) != n {
		return bad("page arrays disagree")
	}
	for _, g := range sg.group {
		if int(g) >= n || sg.group[g] != g { // a group page groups itself: record paths resolve in one step
			return bad("group out of range")
		}
	}
	for _, k := range sg.kind {
		if k >= numKinds {
			return bad("unknown kind")
		}
	}
	if len(sg.recOff) == 0 && len(sg.rec) == 0 {
		// stored without its records (see attachRecords)
	} else if !monotone(sg.recOff, n+1, len(sg.rec)) {
		return bad("record offsets")
	}
	if !monotone(sg.termBlk, numBlocks(nt)+1, len(sg.termBlob)) || !monotone(sg.postOff, nt+1, len(sg.post)) {
		return bad("term offsets")
	}
	if !monotone(sg.adjOff, n+1, len(sg.adj)) {
		return bad("neighbour offsets")
	}
	for _, a := range sg.adj {
		if int(a) >= n {
			return bad("neighbour out of range")
		}
	}
	if len(sg.adjOut) != (len(sg.adj)+7)/8 {
		return bad("neighbour directions")
	}
	if len(sg.phraseHash) != len(sg.phrasePage) || !slices.IsSorted(sg.phraseHash) {
		return bad("phrase table")
	}
	for _, p := range sg.phrasePage {
		if int(p) >= n {
			return bad("phrase page out of range")
		}
	}
	for _, e := range sg.ext {
		if int(e.page) >= n {
			return bad("external link out of range")
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

// putOffsetsOr is putOffsets of off, or raw (putOffsets' bytes as read)
// when off was not decoded.
func putOffsetsOr(b []byte, off []uint32, raw []byte) []byte {
	if off == nil && raw != nil {
		return append(b, raw...)
	}
	return putOffsets(b, off)
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

// attachRecords gives a segment stored without page records its page
// text (x/text, graph.EncodeText), aliasing b.
func (ix *segment) attachRecords(b []byte) error {
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

// parseOffsets decodes a table putOffsets wrote and checks it as monotone
// does.
func parseOffsets(raw []byte, want, end int) ([]uint32, bool) {
	r := reader{b: raw}
	off := r.offsets()
	return off, r.err == nil && r.off == len(raw) && monotone(off, want, end)
}

// loadFreqs decodes the offsets of the term frequencies and page lengths,
// which only an index computing impacts (not exact) reads: an exact one
// does not pay for them at open.
func (sg *segment) loadFreqs() error {
	sg.freqMu.Lock() // reused data: another index may be reading them
	defer sg.freqMu.Unlock()
	if sg.tfOff != nil && sg.lenOff != nil {
		return nil
	}
	var ok1, ok2 bool
	sg.tfOff, ok1 = parseOffsets(sg.tfOffRaw, sg.numTerms+1, len(sg.tfs))
	sg.lenOff, ok2 = parseOffsets(sg.lenOffRaw, sg.n+1, len(sg.lens))
	if !ok1 || !ok2 {
		sg.tfOff, sg.lenOff = nil, nil
		return fmt.Errorf("%w: term frequency or length offsets", ErrBadIndex)
	}
	return nil
}

// uv64 reads one uvarint.
func (r *reader) uv64() uint64 {
	if r.err != nil {
		return 0
	}
	d, k := binary.Uvarint(r.b[r.off:])
	if k <= 0 {
		r.take(-1)
		return 0
	}
	r.off += k
	return d
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
