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

// defaultLevel names the blobs (SegmentFunc's and BlobsFunc's) that
// compressAll compresses at zstd's default level instead of the better
// one (DefaultLevelBlob). Written only by package initialisers.
var defaultLevel = map[string]bool{}

// DefaultLevelBlob marks the blobs named name, as a SegmentFunc or a
// BlobsFunc returns them, to be compressed at zstd's default level
// instead of its better one: for a blob whose bytes the better level
// hardly shrinks for several times the time (moby's ranking index:
// 1.5 % larger at the default level, in a quarter of the CPU: 0.3 s of a
// full build's 12 s). Call it from a package's init only: it is not safe
// for concurrent use, and what it marks holds for the whole process.
func DefaultLevelBlob(name string) { defaultLevel[name] = true }

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

// compressBlob compresses the blob named name as compressFor does, at
// zstd's default level when DefaultLevelBlob marked the name (and not
// small).
func compressBlob(name string, b []byte, small bool) []byte {
	if small || !defaultLevel[name] {
		return compressFor(b, small)
	}
	zinit()
	return zdef.EncodeAll(b, make([]byte, 0, len(b)/3))
}

// compressFor is compress, with smallEncoder when small.
func compressFor(b []byte, small bool) []byte {
	if !small {
		return compress(b)
	}
	return smallEncoder().EncodeAll(b, make([]byte, 0, len(b)/3))
}

func decompress(b []byte) ([]byte, error) {
	zinit()
	return zdec.DecodeAll(b, nil)
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
	out := make([]byte, 0, len(b)/3)
	start := 0
	for _, c := range append(cuts, len(b)) {
		if c > start {
			out = enc.EncodeAll(b[start:c], out)
			start = c
		}
	}
	return out
}
