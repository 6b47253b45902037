package graph

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestSegCodecEqualsDecode holds a segCodec's pages, edges, IDs and file
// ranges to decodeGraph's, over every segment of indexes of the fixtures
// (segments of 1 to 40 files, so that ranges cross checkpoints), for each
// file and for random ranges.
func TestSegCodecEqualsDecode(t *testing.T) {
	was := codecStride
	t.Cleanup(func() { codecStride = was })
	rng := rand.New(rand.NewPCG(1, 2))
	checked, crossed := 0, 0
	for _, fx := range []string{"polyglot", "languages", "resolution", "broken"} {
		for _, segFiles := range []string{"1", "7", "40"} {
			codecStride = []int{256, 5, 16}[len(segFiles)%3] // checkpoints in every segment too
			t.Setenv("WIKITOOLKIT_SEGMENT_FILES", segFiles)
			snap, _ := buildOpen(t, BuildOptions{Root: walktest.CopyFixture(t, fx)})
			for _, sg := range snap.fileSegs() {
				b, err := sg.blob(graphBlob)
				if err != nil {
					t.Fatal(err)
				}
				text, err := sg.blob(TextBlob)
				if err != nil {
					t.Fatal(err)
				}
				g, err := decodeGraph(b, text)
				if err != nil {
					t.Fatal(err)
				}
				c, err := newSegCodec(b, text)
				if err != nil {
					t.Fatal(err)
				}
				n := len(g.Pages)
				if n > codecStride {
					crossed++
				}
				check := func(lo, hi int) {
					t.Helper()
					if got := c.pages(lo, hi); !reflect.DeepEqual(got, g.Pages[lo:hi]) {
						t.Fatalf("%s/%s segment %d: pages [%d, %d) differ:\n  codec %+v\n  graph %+v", fx, segFiles, sg.id, lo, hi, got, g.Pages[lo:hi])
					}
					var got, want []Edge
					c.edges(lo, hi, func(e Edge) { got = append(got, e) })
					for _, e := range g.Edges() {
						if int(e.From) >= lo && int(e.From) < hi {
							want = append(want, e)
						}
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s/%s segment %d: edges of [%d, %d): codec %v, graph %v", fx, segFiles, sg.id, lo, hi, got, want)
					}
					checked++
				}
				for i := range g.Pages {
					if c.id(i) != g.Pages[i].ID || c.path(i) != g.Pages[i].Path {
						t.Fatalf("segment %d page %d: id %q path %q, graph %q %q", sg.id, i, c.id(i), c.path(i), g.Pages[i].ID, g.Pages[i].Path)
					}
					f := c.fileOf(i)
					want := i
					for want >= 0 && g.Pages[want].Kind != KindFile {
						want--
					}
					if f != want {
						t.Fatalf("segment %d page %d: file page %d, graph %d", sg.id, i, f, want)
					}
					if g.Pages[i].Kind == KindFile {
						lo, hi, ok := c.fileRange(g.Pages[i].Path)
						end := i + 1
						for end < n && g.Pages[end].Kind != KindFile {
							end++
						}
						if !ok || lo != i || hi != end {
							t.Fatalf("segment %d: fileRange(%s) = %d, %d, %v; want %d, %d", sg.id, g.Pages[i].Path, lo, hi, ok, i, end)
						}
						check(lo, hi)
					}
				}
				if _, _, ok := c.fileRange("no/such/file"); ok {
					t.Fatal("fileRange found a file the segment lacks")
				}
				for range 20 {
					lo := rng.IntN(n + 1)
					hi := lo + rng.IntN(n-lo+1)
					if lo < n {
						check(lo, hi)
					}
				}
				check(0, n)
			}
		}
	}
	t.Logf("%d ranges checked, %d segments past a checkpoint", checked, crossed)
	if crossed < 10 {
		t.Fatalf("only %d segments had pages past their first checkpoint", crossed)
	}
}
