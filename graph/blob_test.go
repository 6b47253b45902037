package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

const (
	testDefaultLevelBlob = "test-default-level"
	testPartsBlob        = "test-default-level-parts"
)

// testCuts cuts a blob in thirds (the last cut past the end, as a
// careless cuts function might).
func testCuts(b []byte) []int { return []int{len(b) / 3, 2 * len(b) / 3, len(b) + 10} }

func init() {
	DefaultLevelBlob(testDefaultLevelBlob, nil)
	DefaultLevelBlob(testPartsBlob, testCuts)
}

// blobSample is compressible text of n bytes: records of a few hundred
// words, as a segment's blobs are.
func blobSample(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"container", "network", "daemon", "func", "return", "err", "nil", "image", "layer", "volume", "mount", "driver"}
	var b bytes.Buffer
	for b.Len() < n {
		fmt.Fprintf(&b, "%s.%s(%d) ", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(5000))
	}
	return b.Bytes()[:n]
}

// frameDescriptor is the header descriptor byte of the zstd frame b
// starts with.
func frameDescriptor(t *testing.T, b []byte) byte {
	t.Helper()
	if len(b) < 5 || binary.LittleEndian.Uint32(b) != 0xFD2FB528 {
		t.Fatalf("not a zstd frame at %x", b[:min(len(b), 8)])
	}
	return b[4]
}

// TestBlobFramesNoChecksum: no encoder writes the frame checksum the
// reader ignores (4 bytes a frame), and every level's output reads back.
func TestBlobFramesNoChecksum(t *testing.T) {
	src := blobSample(300 << 10)
	outs := map[string][]byte{
		"better":  compress(src),
		"small":   compressFor(src, true),
		"default": compressBlob(testDefaultLevelBlob, src, false),
	}
	for name, c := range outs {
		if d := frameDescriptor(t, c); d&0x04 != 0 { // Content_Checksum_flag
			t.Errorf("%s: frame has a content checksum (descriptor %08b)", name, d)
		}
		back, err := decompress(c)
		if err != nil || !bytes.Equal(back, src) {
			t.Errorf("%s: round trip failed: %v", name, err)
		}
	}
}

// TestDefaultLevelBlob: a blob marked by DefaultLevelBlob is compressed at
// the default level by compressAll, the others at the better one, and a
// small (delta) segment's at the fast one whatever the mark.
func TestDefaultLevelBlob(t *testing.T) {
	src := blobSample(600 << 10)
	got := compressAll(map[string][]byte{testDefaultLevelBlob: src, "other": src}, false)
	zinit()
	want := zdef.EncodeAll(src, nil)
	if !bytes.Equal(got[testDefaultLevelBlob], want) {
		t.Errorf("marked blob: %d bytes, not the default level's %d", len(got[testDefaultLevelBlob]), len(want))
	}
	if better := compress(src); !bytes.Equal(got["other"], better) {
		t.Errorf("unmarked blob: %d bytes, not the better level's %d", len(got["other"]), len(better))
	}
	if bytes.Equal(got[testDefaultLevelBlob], got["other"]) {
		t.Fatalf("the sample compresses the same at both levels: it cannot tell them apart")
	}
	parts := compressAll(map[string][]byte{testPartsBlob: src}, false)[testPartsBlob]
	n := len(src)
	wantParts := zdef.EncodeAll(src[2*n/3:], zdef.EncodeAll(src[n/3:2*n/3], zdef.EncodeAll(src[:n/3], nil)))
	if !bytes.Equal(parts, wantParts) {
		t.Errorf("blob with cuts: %d bytes, not three frames at the default level (%d)", len(parts), len(wantParts))
	}
	if back, err := decompress(parts); err != nil || !bytes.Equal(back, src) {
		t.Errorf("blob with cuts: round trip failed: %v", err)
	}
	small := compressAll(map[string][]byte{testDefaultLevelBlob: src}, true)
	if !bytes.Equal(small[testDefaultLevelBlob], compressFor(src, true)) {
		t.Errorf("small segment's marked blob not at the fast level")
	}
}
