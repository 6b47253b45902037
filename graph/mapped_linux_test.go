package graph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikitoolkit/wikitoolkit/graph/walk/walktest"
)

// TestTableRanges: ReleaseMapped pages out exactly the mappings of the
// snapshot's segments' tables and value logs: not another segment's (a
// folder whose name extends one of them), not a table elsewhere, not a
// segment's other files, not anonymous memory or a path with spaces.
func TestTableRanges(t *testing.T) {
	maps := `55d0a0000000-55d0a0100000 r-xp 00000000 fd:01 123 /usr/bin/wikitoolkit
7f0000000000-7f0000200000 r--s 00000000 fd:01 501 /idx/seg/000001/000001.sst
7f0000200000-7f0000300000 r--s 00000000 fd:01 502 /idx/seg/000001/000002.sst
7f0000300000-7f0000400000 r--s 00000000 fd:01 503 /idx/seg/0000012/000001.sst
7f0000400000-7f0000500000 r--s 00000000 fd:01 504 /idx/seg/000002/000001.vlog
7f0000500000-7f0000600000 r--s 00000000 fd:01 505 /other/seg/000002/000001.sst
7f0000a00000-7f0000b00000 r--s 00000000 fd:01 509 /idx/seg/000002/MANIFEST
7f0000600000-7f0000700000 r--s 00000000 fd:01 506 /idx/seg/000002/000003.sst
7f0000700000-7f0000800000 rw-p 00000000 00:00 0
7f0000800000-7f0000900000 r--s 00000000 fd:01 507 /idx/seg/000002/a b.sst
zzzz-7f0000a00000 r--s 00000000 fd:01 508 /idx/seg/000002/000004.sst
`
	got := tableRanges(maps, []string{"/idx/seg/000001", "/idx/seg/000002"})
	want := [][2]uint64{{0x7f0000000000, 0x7f0000200000}, {0x7f0000200000, 0x7f0000300000}, {0x7f0000400000, 0x7f0000500000}, {0x7f0000600000, 0x7f0000700000}}
	if !slices.Equal(got, want) {
		t.Fatalf("ranges %x, want %x", got, want)
	}
}

// TestReleaseMappedStillReads: snapshots read every blob again after
// ReleaseMapped.
func TestReleaseMappedStillReads(t *testing.T) {
	root := t.TempDir()
	for i := range 60 {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i%6)
		for j := range 20 {
			fmt.Fprintf(&b, "// F%d_%d does thing %d.\nfunc F%d_%d() int { return %d }\n\n", i, j, j, i, j, i*j)
		}
		walktest.WriteFile(t, root, fmt.Sprintf("p%d/f%d.go", i%6, i), b.String())
	}
	build(t, root, true)
	s := open(t, root)
	want, err := s.Graph()
	if err != nil {
		t.Fatal(err)
	}
	s.ReleaseMapped()
	s2 := open(t, root)
	s2.ReleaseMapped()
	got, err := s2.Graph()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pages) != len(want.Pages) || len(got.Pages) == 0 {
		t.Fatalf("%d pages after ReleaseMapped, want %d", len(got.Pages), len(want.Pages))
	}
}
