package graph

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk"
	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestQualRoundTrip: appendQual writes a qualified name beside its name,
// shorter than the name whole when it ends with the name, and qual reads
// it back, whatever the two hold; a cut or damaged value fails without a
// panic.
func TestQualRoundTrip(t *testing.T) {
	cases := [][2]string{ // qual, name
		{"Run", "Run"},
		{"Server.Run", "Run"},
		{"definitions.ContainerCreateResponse", "ContainerCreateResponse"},
		{"DELVE_SUPPORTED~2", "DELVE_SUPPORTED"},
		{"", "x"},
		{"x", ""},
		{"", ""},
		{"héllo.wörld", "wörld"},
		{"a.b", "b.c"},
	}
	var b []byte
	for _, c := range cases {
		before := len(b)
		b = appendQual(b, c[0], c[1])
		whole := len(c[0]) + 1 + (len(c[0])+127)/128
		if strings.HasSuffix(c[0], c[1]) && len(c[1]) > 0 && len(b)-before >= whole {
			t.Errorf("%q beside %q: %d bytes, not fewer than the %d of the name whole", c[0], c[1], len(b)-before, whole)
		}
	}
	d := dec{b: b}
	for _, c := range cases {
		if got := d.qual(c[1]); got != c[0] || d.err != nil {
			t.Fatalf("qual beside %q = %q (err %v), want %q", c[1], got, d.err, c[0])
		}
	}
	if len(d.b) != 0 {
		t.Fatalf("%d bytes left", len(d.b))
	}
	for cut := range len(b) {
		d := dec{b: b[:cut]}
		for _, c := range cases {
			d.qual(c[1])
		}
		if d.err == nil {
			t.Fatalf("cut at %d of %d: no error", cut, len(b))
		}
	}
	d = dec{b: []byte{200, 1}} // a prefix longer than the value
	if d.qual("x"); d.err == nil {
		t.Fatal("a prefix past the end: no error")
	}
}

// TestSummaryRoundTrip: a file's summary, its definitions front-coded and
// their names as suffixes of their qualified names, decodes to what was
// encoded; a cut summary fails without a panic.
func TestSummaryRoundTrip(t *testing.T) {
	langs := &strTable{}
	s := fileSummary{Lang: "yaml", Size: 123456, Diags: 2, Loose: 7, Resolved: true,
		Pages: [numKinds]int{0, 1, 5, 0, 0}, Edges: [numEdgeTypes]int{5, 3, 1}}
	s.Defs = []defName{
		{"definitions", "definitions"},
		{"Port", "definitions.Port"},
		{"IP", "definitions.Port.properties.IP"},
		{"PrivatePort", "definitions.Port.properties.PrivatePort"},
		{"paths", "paths"},
		{"GO_VERSION", "${WINDOWS_BASE_IMAGE}.GO_VERSION~2"},
		{"", ""},
		{"x", "y"},
		{"Port", "definitions.Port"},
	}
	b := encodeSummary(s, langs)
	got, ok := decodeSummary(b, langs.strs)
	if !ok || !reflect.DeepEqual(got, s) {
		t.Fatalf("decoded %+v (ok %v), want %+v", got, ok, s)
	}
	empty := fileSummary{Lang: "go", Resolved: true}
	if got, ok := decodeSummary(encodeSummary(empty, langs), langs.strs); !ok || !reflect.DeepEqual(got, empty) {
		t.Fatalf("no definitions: decoded %+v (ok %v)", got, ok)
	}
	for cut := range len(b) {
		if _, ok := decodeSummary(b[:cut], langs.strs); ok && cut < len(b) {
			// A cut can end where a definition does; what it decoded
			// must then be a prefix of the definitions.
			got, _ := decodeSummary(b[:cut], langs.strs)
			if len(got.Defs) >= len(s.Defs) {
				t.Fatalf("cut at %d of %d decoded whole", cut, len(b))
			}
		}
	}
}

// TestStatsRoundTrip: stats in columns decode to what was encoded, with
// times out of order, negative or far apart and hashes of every bit; a
// cut or padded encoding is an error.
func TestStatsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var stats []FileStat
	for i := range 500 {
		stats = append(stats, FileStat{
			Path:    strings.Repeat("dir/", i%5) + "file" + string(rune('a'+i%26)) + string(rune('a'+i/26)),
			Size:    r.Int64N(1 << 40),
			ModTime: r.Int64() - math.MaxInt64/2,
			Hash:    r.Uint64(),
		})
	}
	stats = append(stats, FileStat{Path: "", Size: 0, ModTime: math.MinInt64 + 1, Hash: math.MaxUint64})
	for _, in := range [][]FileStat{nil, stats[:1], stats} {
		got, err := decodeStats(encodeStats(in))
		if err != nil || len(got) != len(in) {
			t.Fatalf("%d stats: decoded %d, %v", len(in), len(got), err)
		}
		for i := range in {
			if got[i] != in[i] {
				t.Fatalf("stat %d: decoded %+v, want %+v", i, got[i], in[i])
			}
		}
	}
	b := encodeStats(stats)
	for _, bad := range [][]byte{b[:len(b)-1], b[:len(b)/2], append(b[:len(b):len(b)], 0)} {
		if _, err := decodeStats(bad); err == nil {
			t.Fatalf("%d of %d bytes: no error", len(bad), len(b))
		}
	}
}

// TestSketchRoundTrip: a saved sketch loads back as it was (directories
// front-coded, their times as differences), and one damaged on disk does
// not load.
func TestSketchRoundTrip(t *testing.T) {
	dir := t.TempDir()
	sk := &walk.Sketch{Options: "opts", GitIndex: walk.FileStamp{Path: ".git/index", Stamp: walk.Stamp{Size: 99, ModTime: 1700000000000000000}}}
	for i, rel := range []string{"", "a", "a/b", "a/b/c", "a/bc", "b", "héllo/wörld"} {
		sk.Dirs = append(sk.Dirs, walk.DirStamp{Rel: rel, Mtime: 1700000000000000000 - int64(i)*1e9, Ctime: 1700000000000000000 + int64(i)})
	}
	sk.Ignores = []walk.FileStamp{{Path: ".gitignore", Stamp: walk.Stamp{Size: 10, ModTime: 5}}}
	saveSketch(dir, 7, sk)
	got, _ := loadSketch(dir, 7)
	if !reflect.DeepEqual(got, sk) {
		t.Fatalf("loaded %+v, want %+v", got, sk)
	}
	if got, _ := loadSketch(dir, 8); got != nil {
		t.Fatal("the sketch of generation 7 loaded as 8's")
	}
	path := filepath.Join(dir, sketchName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := loadSketch(dir, 7); got != nil {
		t.Fatal("a damaged sketch loaded")
	}
}

// TestOtherVersionsIndex: an index whose manifest names another
// FormatVersion is not read (its keys may be encoded otherwise): opening
// it says so and what to run, and a build rebuilds it in full.
func TestOtherVersionsIndex(t *testing.T) {
	root := walktest.CopyFixture(t, "polyglot")
	info := build(t, root, true)
	dir := filepath.Join(root, IndexDirName)
	gd := genDir(dir, info.Generation)
	path := filepath.Join(gd, manifestName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	now := fmt.Sprintf(`"format":"graph%d/`, FormatVersion)
	if !strings.Contains(string(b), now) {
		t.Fatalf("the manifest names no %s", now)
	}
	b = []byte(strings.Replace(string(b), now, fmt.Sprintf(`"format":"graph%d/`, FormatVersion-1), 1))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeSeal(gd, ""); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, sealCacheName))
	_, err = OpenSnapshot(dir)
	if !errors.Is(err, ErrOtherVersion) || !strings.Contains(err.Error(), "wikitoolkit build") {
		t.Fatalf("open: %v, want ErrOtherVersion saying what to run", err)
	}
	again := build(t, root, false)
	if again.Mode != "full" || again.FilesParsed != info.FilesParsed {
		t.Fatalf("build after: mode %s, %d files parsed; want full, %d", again.Mode, again.FilesParsed, info.FilesParsed)
	}
	open(t, root)
}
