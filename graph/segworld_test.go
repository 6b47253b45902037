package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSuffixScanMatchesIndex asks a segWorld suffix questions past
// suffixScans: the first are answered by a scan of the paths, the later
// ones by the reversed, sorted index, and every answer must be the one
// the index gives (shortest match, least on a tie, every match counted),
// as MemWorld, which a full build resolves against, gives them too.
func TestSuffixScanMatchesIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "b", "ab", "lib", "util", "x.go", "util.py", "__init__.py", "b.go"}
	set := map[string]bool{}
	for len(set) < 300 {
		k := 1 + rng.IntN(4)
		var el []string
		for range k {
			el = append(el, parts[rng.IntN(len(parts))])
		}
		set[strings.Join(el, "/")+fmt.Sprintf("/f%d.go", rng.IntN(3))] = true
		set[strings.Join(el, "/")] = true
	}
	// A name that ends another one is no match: go.py is yy/ww/go.py's,
	// not zz/xgo.py's, though that one is shorter.
	set["zz/xgo.py"], set["yy/ww/go.py"], set["zz/xgo/m.py"], set["yy/ww/xgo/m.py"] = true, true, true, true
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range set {
			if !yield(p) {
				return
			}
		}
	})
	var recs []*FileRecord
	for _, p := range paths {
		recs = append(recs, &FileRecord{Path: p})
	}
	mem := newMemWorld("")
	mem.addBatch(recs)
	asks := []string{"go.py", "go/m.py", "go", "nothing"}
	for _, p := range paths[:40] {
		for s := p; ; {
			asks = append(asks, s)
			j := strings.IndexByte(s, '/')
			if j < 0 {
				break
			}
			s = s[j+1:]
		}
	}
	asks = append(asks, "f0.go", "util.py", "ab", "b")
	// The same questions once the index is built.
	for range suffixScans {
		asks = append(asks, "go.py", "go/m.py", "go")
	}
	w := newSegWorld(nil, paths, nil, nil, "")
	scanned, indexed := 0, 0
	for i, s := range asks {
		if i == suffixScans && w.dirs != nil {
			t.Errorf("the first %d directory questions made the set of directories: a scan needs none", suffixScans)
		}
		if w.revFiles == nil {
			scanned++
		}
		gotF, gotN := w.FileWithSuffix(s)
		if w.revFiles != nil {
			indexed++
		}
		wantF, wantN := mem.FileWithSuffix(s)
		if gotF != wantF || min(gotN, 2) != min(wantN, 2) {
			t.Errorf("FileWithSuffix(%q) = %q, %d; MemWorld: %q, %d", s, gotF, gotN, wantF, wantN)
		}
		gotD, gotOK := w.DirWithSuffix(s)
		wantD, wantOK := mem.DirWithSuffix(s)
		if gotD != wantD || gotOK != wantOK {
			t.Errorf("DirWithSuffix(%q) = %q, %v; MemWorld: %q, %v", s, gotD, gotOK, wantD, wantOK)
		}
	}
	if scanned < suffixScans || indexed == 0 {
		t.Fatalf("%d questions scanned, %d indexed: both ways must be asked", scanned, indexed)
	}
}
