package graph

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Blobs (the graph, the ranking index) are compressed whole with zstd
// before Badger stores them in chunks: whole-blob compression took moby's
// ranking index from 9.7 MB to 3.1 MB, where Badger's per-block compression
// reached 4.9 MB. klauspost/compress is already in the module graph through
// Badger.
var (
	zencOnce  sync.Once
	zenc      *zstd.Encoder
	zdef      *zstd.Encoder // defaultLevel's
	zdec      *zstd.Decoder
	zsmallOne sync.Once
	zsmall    *zstd.Encoder
)

// defaultLevel holds the blobs (SegmentFunc's and BlobsFunc's, by name)
// that compressAll compresses at zstd's default level instead of the
// better one, each with its cuts function (DefaultLevelBlob). Written
// only by package initialisers.
var defaultLevel = map[string]func([]byte) []int{}

// DefaultLevelBlob marks the blobs named name, as a SegmentFunc or a
// BlobsFunc returns them, to be compressed at zstd's default level
// instead of its better one, one frame per part when cuts is not nil:
// cuts(b) says where b's parts start (ascending; any positions decode
// back to b, so cuts only chooses what compresses together). For a blob
// of sections of their own statistics that the better level shrinks
// hardly more for several times the time: moby's ranking index blobs,
// 2,235 KB whole at the better level in 0.8 s of CPU, take 2,230 KB in
// 0.1 s as a frame per section at the default level. Call it from a
// package's init only: it is not safe for concurrent use, and what it
// marks holds for the whole process.
func DefaultLevelBlob(name string, cuts func(b []byte) []int) { defaultLevel[name] = cuts }

// blobWindow is the encoder's window: its history buffer is twice that,
// held for the life of the process (the default 8 MiB window held 16 MB
// for matches a segment's blobs, a few MB each, hardly use).
const blobWindow = 1 << 20

func zinit() {
	zencOnce.Do(func() {
		// No frame checksum: the reader does not verify it (below), and it
		// took 4 bytes of every frame.
		zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(blobWindow), zstd.WithEncoderCRC(false))
		zdef, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(blobWindow), zstd.WithEncoderCRC(false))
		// The frame checksum is not verified: hashing the output was a sixth
		// of opening a 200 MB ranking index, and every reader of a blob
		// validates what it decodes (offsets, counts) anyway.
		zdec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<30), zstd.IgnoreChecksum(true))
	})
}

func compress(b []byte) []byte {
	zinit()
	return zenc.EncodeAll(b, make([]byte, 0, len(b)/3))
}

// smallEncoder is the encoder of the blobs of small segments (an
// incremental build's delta of a few files): zstd's fastest level with a
// small window, whose tables a process allocates in microseconds, where
// the better level's cost an edit 4 ms of a 40 ms build to set up. A
// delta's blobs are a few KB and are merged away; what the full build
// writes, which makes the index's size, keeps the better level.
func smallEncoder() *zstd.Encoder {
	zsmallOne.Do(func() {
		zsmall, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(128<<10), zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false))
	})
	return zsmall
}

// compressBlob compresses the blob named name as compressFor does, or at
// zstd's default level as DefaultLevelBlob marked the name (when not
// small).
func compressBlob(name string, b []byte, small bool) []byte {
	cuts, ok := defaultLevel[name]
	if small || !ok {
		return compressFor(b, small)
	}
	zinit()
	if cuts == nil {
		return zdef.EncodeAll(b, make([]byte, 0, len(b)/3))
	}
	return compressPartsWith(zdef, b, cuts(b))
}

// compressFor is compress, with smallEncoder when small.
func compressFor(b []byte, small bool) []byte {
	if !small {
		return compress(b)
	}
	return smallEncoder().EncodeAll(b, make([]byte, 0, len(b)/3))
}

// decompress decodes b (one or more zstd frames) into a buffer sized once
// from the frames' content sizes (contentSize). Given none, DecodeAll
// sizes its output for each frame in turn, allocating and copying all it
// has decoded at every frame: a blob of many frames (compressParts,
// compressFacts, the ranking index's sections) took 15 ms to decode where
// its frames took 2–3 ms (moby's facts, 464 KB → 1.6 MB). The first edit
// of a file of a full segment, which decodes its segment's graph and
// facts, went from 81 to 51–59 ms in readPiecesWant (the facts 25.4 →
// 6.3 ms, the graph 9.3 → 3.0 ms) and from 81 to 59 MB peak RSS; a query
// from the CLI, which decodes every segment's ranking index, from
// 1.8–2.4 to 1.3–1.4 s at 100k files.
func decompress(b []byte) ([]byte, error) {
	zinit()
	var dst []byte
	if n, ok := contentSize(b); ok && n > 0 {
		dst = make([]byte, 0, n)
	}
	return zdec.DecodeAll(b, dst)
}

// maxPresize is the most decompress allocates up front: what a blob's
// frames claim past it (a damaged header) is left to DecodeAll, which
// checks it against what it decodes.
const maxPresize = 1 << 30

// contentSize returns the sum of the content sizes the zstd frames of b
// declare (256 for a frame that declares none), found by walking their
// headers and block headers (no data is decoded); ok is false when the
// walk does not end exactly at the end of b, or the sum passes maxPresize
// or 64 times len(b) (a damaged header, or data so uniform that growing
// the output as it decodes costs little).
func contentSize(b []byte) (n int, ok bool) {
	limit := min(maxPresize, 64*len(b))
	for len(b) > 0 {
		var h zstd.Header
		if err := h.Decode(b); err != nil {
			return 0, false
		}
		if h.Skippable {
			skip := h.HeaderSize + int(h.SkippableSize)
			if skip > len(b) {
				return 0, false
			}
			b = b[skip:]
			continue
		}
		if h.HasFCS {
			n += int(h.FrameContentSize)
		} else {
			// The encoder leaves the size out of a frame of less than 256
			// bytes; another's output grows as DecodeAll appends to it.
			n += 256
		}
		if h.FrameContentSize > maxPresize || n > limit {
			return 0, false
		}
		b = b[h.HeaderSize:]
		for last := false; !last; {
			if len(b) < 3 {
				return 0, false
			}
			bh := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
			last = bh&1 != 0
			size := int(bh >> 3)
			switch (bh >> 1) & 3 {
			case 1: // RLE: one byte repeated size times
				size = 1
			case 3: // reserved
				return 0, false
			}
			if 3+size > len(b) {
				return 0, false
			}
			b = b[3+size:]
		}
		if h.HasCheckSum {
			if len(b) < 4 {
				return 0, false
			}
			b = b[4:]
		}
	}
	return n, true
}

// compressParts compresses b as one zstd frame per part, the parts ending
// at cuts (ascending; the last part runs to the end of b). Decompressing
// the frames in turn gives b back. Some blobs made of sections of
// different statistics compress better so (moby's graph: 1.3%).
func compressParts(b []byte, cuts []int) []byte { return compressPartsFor(b, cuts, false) }

// compressPartsFor is compressParts, with smallEncoder when small.
func compressPartsFor(b []byte, cuts []int, small bool) []byte {
	zinit()
	enc := zenc
	if small {
		enc = smallEncoder()
	}
	return compressPartsWith(enc, b, cuts)
}

// compressFacts compresses a facts blob (encodeFactsBlob's, its sections
// starting at cuts) one frame per section at zstd's default level, or as
// compressFor does when small. Moby's facts: 1,118 KB so in 38 ms,
// where one frame at the better level took 1,110 KB in 258 ms (one frame
// at the default level: 1,135 KB; a frame per section at the better
// level: 1,093 KB in 230 ms).
func compressFacts(b []byte, cuts []int, small bool) []byte {
	if small {
		return compressFor(b, true)
	}
	zinit()
	return compressPartsWith(zdef, b, cuts)
}

// compressPartsWith is compressParts with the encoder enc.
func compressPartsWith(enc *zstd.Encoder, b []byte, cuts []int) []byte {
	out := make([]byte, 0, len(b)/3)
	start := 0
	for _, c := range append(cuts[:len(cuts):len(cuts)], len(b)) {
		if c > start && c <= len(b) {
			out = enc.EncodeAll(b[start:c], out)
			start = c
		}
	}
	return out
}
