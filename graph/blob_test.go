package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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

// TestContentSize: the frames of every encoder a blob is written with
// declare their sizes, whose sum contentSize finds by walking the headers,
// so that decompress allocates its output once; and on damaged input it
// neither panics nor changes what decompress returns.
func TestContentSize(t *testing.T) {
	zinit()
	sample := blobSample(900 << 10)
	rnd := make([]byte, 300<<10)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	zeros := make([]byte, 200<<10) // RLE blocks
	mixed := append(append(slices.Clone(sample[:100<<10]), rnd[:50<<10]...), zeros...)
	cases := map[string][]byte{}
	for name, b := range map[string][]byte{"text": sample, "random": rnd, "zeros": zeros, "mixed": mixed, "tiny": []byte("x")} {
		cases[name+"/better"] = compress(b)
		cases[name+"/small"] = compressFor(b, true)
		cases[name+"/parts"] = compressParts(b, []int{len(b) / 7, len(b) / 3, len(b) / 2, len(b) - 1})
		cases[name+"/facts"] = compressFacts(b, []int{len(b) / 4, len(b) / 2}, false)
		cases[name+"/default"] = compressBlob(testPartsBlob, b, false)
	}
	for name, z := range cases {
		want, err := zdec.DecodeAll(z, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n, ok := contentSize(z)
		// A frame of less than 256 bytes declares no size (256 is
		// counted); zeros compress past the 64 times contentSize trusts.
		small := strings.HasPrefix(name, "tiny/") || strings.HasSuffix(name, "/parts") || strings.HasSuffix(name, "/facts")
		switch {
		case strings.HasPrefix(name, "zeros/") && len(want) > 64*len(z):
			if ok {
				t.Errorf("%s: contentSize %d, true for %d bytes from %d", name, n, len(want), len(z))
			}
		case !ok || n < len(want) || n > len(want) && !small || n > len(want)+256*8:
			t.Errorf("%s: contentSize %d, %v; want %d, true", name, n, ok, len(want))
		}
		got, err := decompress(z)
		if err != nil || !bytes.Equal(got, want) || ok && cap(got) != n {
			t.Errorf("%s: decompress: %d bytes (cap %d), %v; want %d (cap %d)", name, len(got), cap(got), err, len(want), n)
		}
	}
	// Damage: truncated, a byte changed; decompress agrees with a plain
	// DecodeAll either way.
	z := cases["mixed/parts"]
	check := func(what string, d []byte) {
		want, werr := zdec.DecodeAll(d, nil)
		got, gerr := decompress(d)
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%s: decompress %d bytes, %v; DecodeAll %d bytes, %v", what, len(got), gerr, len(want), werr)
		}
	}
	for cut := 0; cut < len(z); cut += 1 + len(z)/300 {
		check(fmt.Sprintf("cut at %d", cut), z[:cut])
	}
	for i := 0; i < 300; i++ {
		d := slices.Clone(z)
		d[r.IntN(len(d))] ^= byte(1 + r.IntN(255))
		check(fmt.Sprintf("flip %d", i), d)
	}
	if n, ok := contentSize(nil); !ok || n != 0 {
		t.Errorf("contentSize(nil) = %d, %v", n, ok)
	}
}
